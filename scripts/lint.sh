#!/usr/bin/env bash
# The linters the project keeps clean: ruff (lint rules and the formatter's check) and mypy
# (strict on grammar/ and rules/), as pyproject.toml configures them. scripts/test.sh runs this
# before the tests; it needs the .venv that test.sh (or any install of '.[test]') has made.
# Exit status 1 when any of them finds a problem.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/ruff ] || [ ! -x .venv/bin/mypy ]; then
  echo "lint: .venv has no ruff or mypy; install with: .venv/bin/pip install -e '.[test]'" >&2
  exit 1
fi
status=0
.venv/bin/ruff check . || status=1
.venv/bin/ruff format --check . || status=1
.venv/bin/python scripts/lint_pending.py || status=1

# mypy reads the code under the names it is imported by: grammar/, rules/ and voice/ are mapped
# into pyramid_referee by package-dir, which an editable install does with an import hook mypy
# cannot follow; so a view of the installed layout is made of symbolic links. The view and
# mypy's cache live in .venv, so a second run only rereads what changed.
view="$PWD/.venv/lint-view"
rm -rf "$view"
mkdir -p "$view/pyramid_referee"
for f in pyramid_referee/*; do ln -s "$PWD/$f" "$view/pyramid_referee/"; done
for p in grammar rules voice; do ln -s "$PWD/$p" "$view/pyramid_referee/$p"; done
MYPYPATH="$view" .venv/bin/mypy --cache-dir .venv/mypy-cache \
  -p pyramid_referee.grammar -p pyramid_referee.rules \
  | sed -e "s#^$view/pyramid_referee/##" -e "s#^\.venv/lint-view/pyramid_referee/##"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
