#!/usr/bin/env bash
# The documentation site (MkDocs, mkdocs.yml), served at http://127.0.0.1:8001 as you edit it;
# `./scripts/docs.sh build` writes it to site/ instead. The pages made from other files
# (the rules, the benchmarks, the changelog, the home page) are made by docs/hooks.py.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/mkdocs ]; then
  echo "docs.sh: installing the docs tools (pip install -e '.[docs]')"
  [ -d .venv ] || python3.11 -m venv .venv
  .venv/bin/pip install -q -e '.[docs]'
fi
export NO_MKDOCS_2_WARNING=1
if [ "${1:-serve}" = build ]; then
  exec .venv/bin/mkdocs build --strict -d site
fi
exec .venv/bin/mkdocs serve --strict -a 127.0.0.1:8001
