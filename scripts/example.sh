#!/usr/bin/env bash
# Install the project into .venv and run the main job on built-in examples:
# three model calls read (or refused) with explanations, then a short
# match judged stroke by stroke with the clauses that decided each verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c "import ensurepip, venv" 2>/dev/null; then
  echo "python3 cannot make a virtual environment here: install python3-venv" \
    "(Debian/Ubuntu: apt-get install python3-venv)" >&2
  exit 1
fi
python3 -m venv .venv
# pip's own output goes to a log; it is shown only if the install fails.
log=.venv/install.log
echo "installing pyramid-referee into .venv (pip log: $log) …" >&2
if ! { .venv/bin/python -m pip install -q --upgrade pip \
       && .venv/bin/python -m pip install -q -e .; } >"$log" 2>&1; then
  cat "$log" >&2; echo "install failed (log: $log)" >&2; exit 1
fi
run() {
  printf '\n$ pyramid-referee'
  for a in "$@"; do
    case "$a" in *" "*) printf ' "%s"' "$a";; *) printf ' %s' "$a";; esac
  done
  echo
  .venv/bin/pyramid-referee "$@" || true   # a refused call exits 1: part of the show
}
run explain "Карамболем от шестерки одиннадцатым шаром тройка прямо в середину"
run explain "Тремя шарами такими-то, от шара такого-то, 12-й шар в левый угол"
run explain "Тремя шарами пятым, девятым и вторым, от шара седьмого, двенадцатый шар в левый угол"
run parse "тройку в угол"
run replay corpora/matches/C2_Q10_seed_carambole.jsonl
