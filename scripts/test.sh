#!/usr/bin/env bash
# Install everything and run the tests: lint, types, import contracts, pytest.
#
#   scripts/test.sh            the whole suite, as CI runs it (.ci/run)
#   scripts/test.sh --quick    the edit loop: every test not marked slow, browser, postgres or
#                              process (`pytest --quick`, tests/conftest.py), no services started
#   scripts/test.sh [--quick] PYTEST-ARGS   e.g. tests/core, -k name, --lf, --sw
#
# The whole suite's browser tests need Debian's chromium, its store tests a PostgreSQL server:
# both are installed (when missing and when we are root) and started by scripts/services.sh. A
# PostgreSQL this script starts is stopped when it ends (CALLBREAK_KEEP_PG=1 keeps it, and says
# how to stop it); one that was already running is left as it was.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "test.sh: $*" >&2; }
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
# shellcheck source=/dev/null
source scripts/install.sh
install_project dev
if [ "$quick" = 0 ]; then
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
fi
# Bytecode kept (in the gitignored __pycache__ folders): the whole suite starts some hundreds of
# Python processes (servers, workers, the CLI), and with PYTHONDONTWRITEBYTECODE set, as on some
# machines, each one compiled the project's 30,000 lines again (0.3 s of CPU a process).
unset PYTHONDONTWRITEBYTECODE
say "ruff"
.venv/bin/ruff check src tests benchmarks scripts docs conftest.py
say "mypy"
.venv/bin/mypy
say "import contracts"
.venv/bin/lint-imports
if [ "$quick" != 1 ]; then
  say "the documentation site (mkdocs build --strict)"
  NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet -d "$(mktemp -d)"
fi
# The expert's kernel compiled once, here, into numba's disk cache (a minute on a fresh clone,
# two seconds after), not in each worker and each server the tests start.
say "the bots' compiled kernel"
.venv/bin/python -m callbreak.server.warmup
# One worker a core (a third worker on 2 cores saved 5-8% of the whole suite's time and made its
# timing-sensitive tests flakier). --sw (stepwise) and --pdb need one process, in order.
workers=(-n "$(nproc 2>/dev/null || echo 2)")
for arg in "$@"; do
  case $arg in --sw | --stepwise | --stepwise-skip | --sw-skip | --pdb | --trace) workers=(-p no:xdist) ;; esac
done
# Hypothesis's built-in "ci" profile draws the same examples on every run, so this gate
# passes or fails the same way for the same commit; a plain `pytest` still explores new examples.
# pytest exits 5 when it collects no tests; set -e makes that a failure too.
if [ "$quick" = 1 ]; then
  say "pytest, quick tier: not slow, browser, postgres or process (tests/conftest.py)"
  .venv/bin/pytest "${workers[@]}" --hypothesis-profile=ci --quick "$@"
else
  say "pytest on ${workers[*]} (about 2,000 tests; several minutes)"
  .venv/bin/pytest "${workers[@]}" --hypothesis-profile=ci "$@"
fi
