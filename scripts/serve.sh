#!/usr/bin/env bash
# Install everything and start the web app on SQLite; it prints its local URL.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null || PY=python3
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e .
# Compile the expert's kernel now (numba's disk cache), not when the first table is made.
.venv/bin/python -m callbreak.server.warmup
exec .venv/bin/callbreak serve "$@"
