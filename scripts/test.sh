#!/usr/bin/env bash
# Install everything the tests need into .venv, run the linters (scripts/lint.sh: ruff and
# mypy: 1-2 s once mypy's cache in .venv is warm, 8 s the first time) and the whole suite.
# A lint failure fails the run; the tests still run, so one run reports both.
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
if ! { .venv/bin/python -m pip install -q --upgrade pip \
       && .venv/bin/python -m pip install -q -e '.[test]'; } >"$log" 2>&1; then
  cat "$log" >&2; echo "install failed (log: $log)" >&2; exit 1
fi
echo "linting (scripts/lint.sh: ruff check, ruff format --check, mypy) …" >&2
lint=0
bash scripts/lint.sh || lint=1
[ "$lint" -eq 0 ] || echo "LINT FAILED (the problems are above); the tests run all the same" >&2
# One worker a core and one more (pytest-xdist): much of the suite waits at real time (the
# browser, the microphone through PulseAudio, servers starting), and a third worker fills those
# waits. On 2 cores the same day: 9 min 40 s with 2 workers, 7 min 32 s with 3, 7 min 55 s
# with 4 (a fresh clone's CI run: 9 min 19 s with 2, 8 min 22 s with 3).
# loadgroup keeps the tests of an xdist_group on one worker, so what they share (the refitted
# sound models) is made once. A -n given to this script wins.
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
tests=0
.venv/bin/python -m pytest -n "$((cores + 1))" --dist loadgroup "$@" || tests=$?
if [ "$lint" -ne 0 ]; then
  echo "FAILED: lint (scripts/lint.sh) found problems, listed above the tests' output" >&2
  [ "$tests" -ne 0 ] || exit 1
fi
exit "$tests"
