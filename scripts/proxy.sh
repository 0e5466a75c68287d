#!/usr/bin/env bash
# HAProxy (Debian's package) in front of callbreak server processes, with deploy/haproxy.cfg as
# shipped; runs in the foreground. Installs haproxy with apt when missing (as root).
#
#   scripts/proxy.sh :8000 127.0.0.1:8001 127.0.0.1:8002
#
# starts callbreak serve --port 8001 / 8002 yourself (or with deploy/callbreak@.service).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v haproxy >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy >/dev/null; }
  else
    echo "proxy: haproxy is not installed (apt-get install haproxy)" >&2; exit 2
  fi
fi
[ $# -eq 3 ] || { echo "usage: scripts/proxy.sh BIND BACKEND1 BACKEND2 (e.g. :8000 127.0.0.1:8001 127.0.0.1:8002)" >&2; exit 2; }
export CALLBREAK_PROXY_BIND=$1 CALLBREAK_BACKEND_1=$2 CALLBREAK_BACKEND_2=$3
exec haproxy -db -f deploy/haproxy.cfg
