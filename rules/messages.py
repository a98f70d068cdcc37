"""The rules engine's messages: written in English, read in Russian from the project's
catalog (``pyramid_referee/locale/ru/LC_MESSAGES/pyramid_referee.po``)."""

from __future__ import annotations

import io
from functools import cache
from gettext import GNUTranslations
from importlib.resources import files

N_ = str  # marks a message for the catalog where it is written; trl reads it where shown


@cache
def _russian() -> GNUTranslations:
    mo = files("pyramid_referee").joinpath("locale/ru/LC_MESSAGES/pyramid_referee.mo")
    return GNUTranslations(io.BytesIO(mo.read_bytes()))


MINUS = "\u2212"  # the typographic minus of human text («−5»); JSON and CSV numbers keep the ASCII «-5»


def num(n: int) -> str:
    """A number as people read it: a negative one with the typographic minus, «−5», as verdicts
    write a penalty; never for JSON, CSV or anything a program reads back as a number."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def trl(lang: str, message: str) -> str:
    """``message`` (English) as the user reads it: in Russian unless ``lang`` is "en"."""
    return message if lang == "en" else _russian().gettext(message)
