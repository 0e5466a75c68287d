#!/usr/bin/env bash
# Install everything and run the whole test suite: lint, types, import contracts, tests.
# Browser tests need Debian's chromium, store tests a PostgreSQL server: both are installed
# (when missing and when we are root) and started by scripts/services.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null || PY=python3
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[dev]'
# shellcheck source=/dev/null
source scripts/services.sh
.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy
.venv/bin/lint-imports
# pytest exits 5 when it collects no tests; set -e makes that a failure too.
.venv/bin/pytest -n 2 "$@"
