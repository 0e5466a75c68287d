#!/usr/bin/env bash
# Sourced by scripts/test.sh: make Debian's chromium and a throwaway PostgreSQL available.
# Installs the npm tools the browser tests use (axe-core, package-lock.json) into node_modules.
# Exports CALLBREAK_TEST_PG_URL and CALLBREAK_CHROMIUM for the tests that use them, and, when
# it started a PostgreSQL itself, CALLBREAK_PG_STARTED=1 and CALLBREAK_PG_STOP (the command that
# stops it).
services_say() { echo "services: $*" >&2; }
apt_install() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    services_say "installing $* with apt (a minute or more)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1; } ||
      echo "services: could not install $*" >&2
  fi
}
[ -x /usr/bin/chromium ] || apt_install chromium
[ -x /usr/bin/chromium ] && export CALLBREAK_CHROMIUM=/usr/bin/chromium
[ -x /usr/bin/chromium ] || services_say "no chromium: the browser tests will be skipped"
# Devanagari and Bengali faces: without them the Nepali, Hindi and Bengali pages' screenshots
# (test-artifacts/table-<lang>.png) show empty boxes; the tests read the text either way.
if command -v fc-list >/dev/null; then
  [ -n "$(fc-list :lang=hi)" ] || apt_install fonts-lohit-deva
  [ -n "$(fc-list :lang=bn)" ] || apt_install fonts-lohit-beng-bengali
fi

# axe-core, which the accessibility tests inject into the pages, into the repository's node_modules.
if command -v npm >/dev/null; then
  (cd "$(dirname "${BASH_SOURCE[0]}")/.." && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1) ||
    services_say "npm ci failed: the accessibility (axe-core) browser tests will be skipped"
else
  services_say "no npm: the accessibility (axe-core) browser tests will be skipped (install nodejs and npm)"
fi

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PG_BIN" ] || { apt_install postgresql; PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1); }
if [ -n "${CALLBREAK_TEST_PG_URL:-}" ]; then
  :  # a server was given
elif [ -n "$PG_BIN" ]; then
  PG_PORT=${CALLBREAK_PG_PORT:-55432}
  PG_DIR=${CALLBREAK_PG_DIR:-/tmp/callbreak-test-pg}
  RUN_AS=()
  if [ "$(id -u)" = 0 ]; then RUN_AS=(runuser -u postgres --); fi
  # pg_ctl refuses to run as root, so every call goes through RUN_AS; a server already
  # answering on the port (an earlier run's) is reused rather than clobbered.
  if ! "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" &&
     ! "${RUN_AS[@]}" "$PG_BIN/pg_ctl" status -D "$PG_DIR" >/dev/null 2>&1; then
    services_say "starting a throwaway PostgreSQL on port $PG_PORT (data in $PG_DIR)"
    rm -rf "$PG_DIR"; mkdir -p "$PG_DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
    "${RUN_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR" -U postgres --auth=trust >/dev/null
    "${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/log" -w \
      -o "-p $PG_PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
    export CALLBREAK_PG_STARTED=1
    export CALLBREAK_PG_STOP="${RUN_AS[*]} $PG_BIN/pg_ctl -D $PG_DIR -m fast stop"
  else
    services_say "using the PostgreSQL already running on port $PG_PORT"
  fi
  export CALLBREAK_TEST_PG_URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
else
  services_say "no PostgreSQL: the PostgreSQL store tests will be skipped"
fi
