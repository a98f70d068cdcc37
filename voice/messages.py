"""The voice package's messages: written in English in the code, looked up in the project's one
message catalog (``pyramid_referee/catalog.py``) in the language the caller gives."""

from __future__ import annotations

from ..catalog import N_, trl, trn

__all__ = ["N_", "trl", "trn"]
