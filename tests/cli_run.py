"""Running the command line inside the test process (shared by the command-line tests)."""

from __future__ import annotations

import io
import sys

from pyramid_referee.cli import main


def run(capsys, monkeypatch, *argv, stdin: str = ""):
    """``main(argv)`` with ``stdin`` as standard input: (exit status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err
