#!/usr/bin/env bash
# Install everything the tests need into .venv and run the whole suite.
# System packages (espeak-ng, sox, libportaudio2, pulseaudio, alsa pulse plugin)
# are installed with apt-get when missing and this runs as root (as CI does);
# otherwise the tests that need them say so and skip.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
exec .venv/bin/python -m pytest "$@"
