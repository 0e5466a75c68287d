#!/usr/bin/env bash
# Install everything and start the web app on SQLite; it prints its local URL.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=/dev/null
source scripts/install.sh
install_project ""
# Compile the expert's kernel now (numba's disk cache), not when the first table is made.
echo "serve.sh: preparing the expert bot (its compiled kernel: about a minute the first time, then seconds)" >&2
.venv/bin/python -m callbreak.server.warmup
echo "serve.sh: starting the web app (Ctrl+C stops it)" >&2
exec .venv/bin/callbreak serve "$@"
