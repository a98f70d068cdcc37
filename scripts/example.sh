#!/usr/bin/env bash
# Install the project into .venv and run the main job on the built-in example:
# the seed's model call, parsed and explained.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e .
.venv/bin/pyramid-referee explain "Карамболем от шестерки одиннадцатым шаром тройка прямо в середину"
