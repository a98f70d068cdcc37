"""The call language's messages: English in the code, their Russian text in the project's
catalog (``pyramid_referee/locale/ru/LC_MESSAGES/pyramid_referee.po``, compiled by
``scripts/i18n.py``)."""

from __future__ import annotations

import gettext
from functools import cache
from importlib.resources import files


def N_(message: str) -> str:
    """Mark a message kept in a table; ``trl`` translates it where it is shown."""
    return message


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    locale = files("pyramid_referee") / "locale"
    return gettext.translation("pyramid_referee", localedir=str(locale), languages=[lang])


def trl(lang: str, message: str) -> str:
    """``message`` (English) in ``lang`` ("ru" | "en")."""
    return message if lang == "en" else _translations(lang).gettext(message)
