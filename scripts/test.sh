#!/usr/bin/env bash
# Install everything the tests need into .venv and run the whole suite.
# System packages (espeak-ng, sox, libportaudio2, pulseaudio, alsa pulse plugin)
# are installed with apt-get when missing and this runs as root (as CI does);
# otherwise the tests that need them say so and skip.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
python3 -m venv .venv
# pip's own output goes to a log; it is shown only if the install fails.
log=.venv/install.log
echo "installing pyramid-referee into .venv (pip log: $log) …" >&2
if ! { .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e '.[test]'; } >"$log" 2>&1; then
  cat "$log" >&2; echo "install failed (log: $log)" >&2; exit 1
fi
# -n auto: one worker a core (pytest-xdist); loadgroup keeps the tests of an xdist_group on one
# worker, so what they share (the refitted sound models) is made once
exec .venv/bin/python -m pytest -n auto --dist loadgroup "$@"
