"""DESIGN.md: grammar/, voice/, rules/ are importable as subpackages of pyramid_referee."""

import importlib
import subprocess
import sys


def test_subpackages_import():
    for name in ("grammar", "rules", "voice"):
        mod = importlib.import_module(f"pyramid_referee.{name}")
        assert mod.__name__ == f"pyramid_referee.{name}"


def test_cli_help_runs():
    out = subprocess.run([sys.executable, "-m", "pyramid_referee", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "pyramid-referee" in out.stdout
