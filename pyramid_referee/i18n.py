"""The shell's language: Russian by default, English with ``--lang en``.

Every message is written once, in English, and looked up in the one message catalog
(``catalog.py``: ``trl(lang, "…")``, ``trn(singular, plural, n, lang)``, ``N_("…")``), whose
Russian texts are in ``locale/ru/LC_MESSAGES/pyramid_referee.po``
(``python scripts/i18n.py update | compile | check``). The command line keeps the language asked
for with ``--lang`` here, and ``tr("…")`` (``trn`` without a language) reads it; below ``cli/``
the language is passed as a plain argument instead.

Placeholders are named (``tr("line {line}: {what}").format(line=…, what=…)``), so a
translation may put them in its own order.
"""

from __future__ import annotations

import gettext

from .catalog import LANGS, N_, translations

__all__ = ["LANGS", "N_", "UserError", "catalog", "get_lang", "set_lang", "tr", "trl", "trn"]

_lang = "ru"


def set_lang(lang: str) -> None:
    global _lang
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}")
    _lang = lang


def get_lang() -> str:
    return _lang


def catalog(lang: str | None = None) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``, or of the command line's language."""
    return translations(lang or _lang)


def tr(message: str) -> str:
    """``message`` (English, as written in the code) in the command line's language."""
    return catalog().gettext(message)


def trl(lang: str | None, message: str) -> str:
    """``message`` (English) in ``lang`` ("ru" | "en"; None: the command line's language)."""
    return catalog(lang).gettext(message)


def trn(singular: str, plural: str, n: int, lang: str | None = None) -> str:
    """The form of a counted message for ``n`` in ``lang`` or the command line's language."""
    return catalog(lang).ngettext(singular, plural, n)


class UserError(Exception):
    """Bad input from the user (a file, an argument, a device): one clear line, exit 2."""


# -- argparse's own words (usage, errors) in Russian ------------------------------------------

ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected %s argument"),
    N_("expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


def argparse_text(text: str) -> str:
    """argparse's own message in the current language (argparse itself only knows English)."""
    return tr(text) if text in ARGPARSE_MESSAGES else text


class argparse_in_language:
    """Context manager: argparse's usage, section titles and errors follow ``tr``'s language.

    argparse looks its messages up through the module-level ``_``/``ngettext`` it imported
    from gettext; they are swapped only while the command line is built and run, so nothing
    else in the process (pytest, say) sees them."""

    def __enter__(self):
        import argparse

        self._saved = (argparse._, argparse.ngettext)
        original_ngettext = argparse.ngettext

        def ngettext(singular: str, plural: str, n: int) -> str:
            return argparse_text(original_ngettext(singular, plural, n))

        argparse._ = argparse_text
        argparse.ngettext = ngettext
        return self

    def __exit__(self, *exc) -> None:
        import argparse

        argparse._, argparse.ngettext = self._saved


# -- the reasons the system and the json module give, in the user's language --------------------

# errno name → the system's English text (``strerror``), looked up in the catalog.
ERRNO_MESSAGES = {
    "ENOENT": N_("No such file or directory"),
    "EISDIR": N_("Is a directory"),
    "ENOTDIR": N_("Not a directory"),
    "EACCES": N_("Permission denied"),
    "EPERM": N_("Operation not permitted"),
    "EROFS": N_("Read-only file system"),
    "ENOSPC": N_("No space left on device"),
    "EDQUOT": N_("Disk quota exceeded"),
    "ENAMETOOLONG": N_("File name too long"),
    "EEXIST": N_("File exists"),
    "ELOOP": N_("Too many levels of symbolic links"),
    "EIO": N_("Input/output error"),
}


def os_reason(exc: OSError) -> str:
    """Why a file operation failed, in the current language (strerror is English only)."""
    import errno

    name = errno.errorcode.get(exc.errno or 0, "")
    if name in ERRNO_MESSAGES:
        return tr(ERRNO_MESSAGES[name])
    return exc.strerror or str(exc)


# The json module's messages (English only): how each begins.
JSON_MESSAGES = (
    N_("Expecting value"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ',' delimiter"),
    N_("Expecting ':' delimiter"),
    N_("Unterminated string starting at"),
    N_("Extra data"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
)


def json_problem(msg: str, lang: str | None = None) -> str:
    """The json module's message in the current language or ``lang``; an unknown one is kept as it is."""
    if (lang or _lang) == "en":
        return msg
    return next((catalog(lang).gettext(en) for en in JSON_MESSAGES if msg.startswith(en)), msg)


def json_problem_ru(msg: str) -> str:
    """The json module's message in Russian; an unknown one is kept as it is."""
    return json_problem(msg, "ru")


def json_reason(exc) -> str:
    """A ``json.JSONDecodeError`` as «what is wrong, column N» in the current language."""
    return tr("{problem}, column {column}").format(problem=json_problem(exc.msg), column=exc.colno)
