"""The call language's messages: written in English in the code, looked up in the project's one
message catalog (``pyramid_referee/catalog.py``) in the language the caller gives."""

from __future__ import annotations

# absolute: this package is imported by its own name too (``rules``, as tests do)
from pyramid_referee.catalog import N_, trl, trn

__all__ = ["N_", "trl", "trn"]
