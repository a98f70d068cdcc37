#!/usr/bin/env bash
# The linters the project keeps clean: ruff (lint rules and the formatter's check) and mypy
# (strict on grammar/ and rules/, as pyproject.toml configures them). Run after
# `bash scripts/test.sh` (or any install of '.[test]') has made .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
.venv/bin/ruff check . || status=1
.venv/bin/ruff format --check . || status=1
.venv/bin/mypy || status=1
exit $status
