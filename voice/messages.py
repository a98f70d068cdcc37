"""The voice package's messages: written in English in the code, their Russian text in the
project's message catalog (``pyramid_referee/locale/ru/LC_MESSAGES/pyramid_referee.po``)."""

from __future__ import annotations

import gettext
from functools import cache
from importlib.resources import files


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    path = files("pyramid_referee") / "locale" / lang / "LC_MESSAGES" / "pyramid_referee.mo"
    with path.open("rb") as f:
        return gettext.GNUTranslations(f)


def trl(lang: str, message: str) -> str:
    """``message`` (English) in ``lang`` ("ru" | "en")."""
    return _catalog(lang).gettext(message)


def N_(message: str) -> str:
    """Marks a message for the catalog where it is looked up later (a table of messages)."""
    return message
