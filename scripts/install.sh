#!/usr/bin/env bash
# Sourced by scripts/test.sh and scripts/serve.sh: `install_project ""` or `install_project dev`
# makes .venv and installs the project into it (editable, so source edits need no reinstall).
# pip runs only when pyproject.toml changed since the last install with those extras: .venv keeps
# a stamp of its hash (.venv/callbreak-installed), and a stamp for "dev" also serves "" (a superset).
# CALLBREAK_REINSTALL=1 installs anyway.
install_project() {
  local extras=$1 py=${PYTHON:-python3.11} stamp=.venv/callbreak-installed want have
  command -v "$py" >/dev/null || py=python3
  [ -x .venv/bin/python ] || { echo "install: making the virtual environment .venv" >&2; "$py" -m venv .venv; }
  want=$(sha256sum pyproject.toml | cut -d' ' -f1)
  have=$(cat "$stamp" 2>/dev/null || true)
  if [ -z "${CALLBREAK_REINSTALL:-}" ] && { [ "$have" = "$want dev" ] || [ "$have" = "$want $extras" ]; }; then
    echo "install: .venv already holds this pyproject.toml's install; skipping pip (CALLBREAK_REINSTALL=1 forces it)" >&2
    return 0
  fi
  echo "install: installing the project${extras:+ and its $extras tools} into .venv (pip; a few minutes the first time)" >&2
  rm -f "$stamp"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e ".${extras:+[$extras]}"
  echo "$want $extras" >"$stamp"
}
