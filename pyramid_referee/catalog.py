"""The message catalog: every package's messages, looked up in the language it is given.

Every user-facing message is written once, in English, in the code; its Russian text is in
``locale/ru/LC_MESSAGES/pyramid_referee.po`` beside this module (compiled into the ``.mo`` the
program reads by ``python scripts/i18n.py compile``). This module is the only one that opens
the catalog, and it depends on nothing but the standard library, so the core (``grammar``,
``rules``, ``voice``) uses it as the shell does without knowing anything else of the shell.

The language is always a parameter here ("ru" | "en"): ``trl(lang, message)`` for a message,
``trn(singular, plural, n, lang)`` for a count (the catalog's plural forms: Russian has three,
«1 очко», «2 очка», «5 очков»). A message kept in a table and looked up later is marked
``N_("…")`` where it is written, so the catalog still finds it. English is the message itself.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "pyramid_referee"
LANGS = ("ru", "en")


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the messages as written in the code)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (expected one of {', '.join(LANGS)})")
    if lang == "en":
        return gettext.NullTranslations()
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as f:
        return gettext.GNUTranslations(f)


def trl(lang: str, message: str) -> str:
    """``message`` (English, as written in the code) in ``lang``."""
    return translations(lang).gettext(message)


def trn(singular: str, plural: str, n: int, lang: str) -> str:
    """The form of a counted message for ``n`` in ``lang``, by the catalog's plural forms; both
    English forms name the count (``"{n} point"``, ``"{n} points"``)."""
    return translations(lang).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for the catalog where it is written; ``trl`` looks it up where shown."""
    return message
