"""User-facing language for the shell: Russian by default, English with ``--lang en``.

The subpackages take ``lang`` as a plain argument ("ru" | "en"); the shell keeps
the choice made on the command line here.
"""

from __future__ import annotations

_lang = "ru"


def set_lang(lang: str) -> None:
    global _lang
    if lang not in ("ru", "en"):
        raise ValueError(f"unknown language {lang!r}")
    _lang = lang


def get_lang() -> str:
    return _lang


def tr(ru: str, en: str) -> str:
    """Pick the Russian or the English text by the current language."""
    return en if _lang == "en" else ru


class UserError(Exception):
    """Bad input from the user (a file, an argument, a device): one clear line, exit 2."""
