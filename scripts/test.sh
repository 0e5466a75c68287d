#!/usr/bin/env bash
# Install everything and run the whole test suite: lint, types, import contracts, tests.
# Browser tests need Debian's chromium, store tests a PostgreSQL server: both are installed
# (when missing and when we are root) and started by scripts/services.sh. A PostgreSQL this
# script starts is stopped when it ends (CALLBREAK_KEEP_PG=1 keeps it, and says how to stop it);
# one that was already running is left as it was.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "test.sh: $*" >&2; }
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null || PY=python3
[ -x .venv/bin/python ] || { say "making the virtual environment .venv"; "$PY" -m venv .venv; }
say "installing the project and its test tools into .venv (pip; a few minutes the first time)"
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[dev]'
# shellcheck source=/dev/null
source scripts/services.sh
stop_services() {
  if [ -n "${CALLBREAK_PG_STARTED:-}" ]; then
    if [ -n "${CALLBREAK_KEEP_PG:-}" ]; then
      say "the test PostgreSQL keeps running (CALLBREAK_KEEP_PG); stop it with: $CALLBREAK_PG_STOP"
    else
      say "stopping the test PostgreSQL this script started"
      eval "$CALLBREAK_PG_STOP" >/dev/null 2>&1 || say "could not stop it; try: $CALLBREAK_PG_STOP"
    fi
  fi
}
trap stop_services EXIT
say "ruff"
.venv/bin/ruff check src tests benchmarks
say "mypy"
.venv/bin/mypy
say "import contracts"
.venv/bin/lint-imports
say "pytest on 2 processes (about 2,000 tests; several minutes)"
# pytest exits 5 when it collects no tests; set -e makes that a failure too.
# Hypothesis's "ci" profile draws the same examples on every run, so this gate passes or fails
# the same way for the same commit; a plain `pytest` still explores new examples each run.
.venv/bin/pytest -n 2 --hypothesis-profile=ci "$@"
