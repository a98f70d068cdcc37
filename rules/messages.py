"""The rules engine's messages: written in English in the code, looked up in the project's one
message catalog (``pyramid_referee/catalog.py``) in the language the caller gives; and how a
number is written for people."""

from __future__ import annotations

# absolute: this package is imported by its own name too (``rules``, as tests do)
from pyramid_referee.catalog import N_, trl, trn

__all__ = ["MINUS", "N_", "num", "trl", "trn"]

MINUS = "\u2212"  # the typographic minus of human text («−5»); JSON and CSV keep the ASCII «-5»


def num(n: int) -> str:
    """A number as people read it: a negative one with the typographic minus, «−5», as verdicts
    write a penalty; never for JSON, CSV or anything a program reads back as a number."""
    return f"{MINUS}{-n}" if n < 0 else str(n)
