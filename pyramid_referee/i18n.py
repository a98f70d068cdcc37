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

import argparse
import copy
import errno
import gettext
import re
import sys
from functools import cache
from typing import NoReturn

from .catalog import LANGS, N_, translations

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


# -- argparse's own words (usage, section titles, its help option, errors) --------------------
#
# argparse writes these in English. The command line's parser says them in the user's language
# through argparse's public points of change: the ``formatter_class`` that lays out the help
# (the usage prefix, the section titles, the help option's text) and ``error()``, which every
# parsing error goes through; argparse's module is never touched.

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

_PERCENT = re.compile(r"%(?:\((\w+)\))?[rsd]")  # a %-placeholder of argparse's templates


def _template_pattern(template: str) -> re.Pattern[str]:
    """A regular expression that reads the values back out of a filled-in template."""
    out, pos = [], 0
    for i, m in enumerate(_PERCENT.finditer(template)):
        out += [re.escape(template[pos : m.start()]), f"(?P<{m.group(1) or f'_{i}'}>.*?)"]
        pos = m.end()
    return re.compile("".join([*out, re.escape(template[pos:])]), re.S)


# Templates with fewer placeholders first, so «expected one argument» is never read as
# «expected %s argument» with «one».
_ARGPARSE_PATTERNS = sorted(
    ((t, _template_pattern(t)) for t in ARGPARSE_MESSAGES),
    key=lambda tp: (len(_PERCENT.findall(tp[0])), -len(tp[0])),
)


def argparse_text(text: str, lang: str | None = None) -> str:
    """A message argparse wrote (a template of its own, filled in) in ``lang`` or the command
    line's language; any other text is kept as it is (our own messages are translated already)."""
    found = next(
        ((t, m) for t, pattern in _ARGPARSE_PATTERNS if (m := pattern.fullmatch(text))), None
    )
    if found is None:
        return text
    template, m = found
    values = m.groupdict()
    if "message" in values:  # «argument X: …» wraps another message of argparse's
        values["message"] = argparse_text(values["message"], lang)
    positional = iter(v for k, v in values.items() if k.startswith("_"))
    return _PERCENT.sub(
        lambda p: values[p.group(1)] if p.group(1) else next(positional), trl(lang, template)
    )


class _InLanguage(argparse.HelpFormatter):
    """argparse's own words in the help (the usage prefix, the section titles, the help
    option's text) in ``lang``; mixed into whichever formatter a parser uses."""

    lang = "ru"

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        if prefix is None:
            prefix = trl(self.lang, "usage: ")
        super().add_usage(usage, actions, groups, prefix)

    def start_section(self, heading):  # type: ignore[no-untyped-def]
        super().start_section(argparse_text(heading, self.lang) if heading else heading)

    def add_argument(self, action):  # type: ignore[no-untyped-def]
        if action.help in ARGPARSE_MESSAGES:  # -h's «show this help message and exit»
            action = copy.copy(action)
            action.help = trl(self.lang, action.help)
        super().add_argument(action)


@cache
def _in_language(formatter_class: type, lang: str) -> type:
    """``formatter_class`` saying argparse's own words in ``lang``."""
    name = f"{formatter_class.__name__}In{lang.capitalize()}"
    return type(name, (_InLanguage, formatter_class), {"lang": lang})


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser saying its own words (usage, section titles, the help option, errors)
    in the language its help texts were written in: the command line's language when it is
    made. argparse knows only English; its module is left as it is. The parsers of the
    subcommands are of this class too."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        self._lang = get_lang()  # before argparse's __init__, which sets formatter_class
        super().__init__(*args, **kwargs)

    # argparse makes its formatter from this attribute whenever it lays out help or usage, and a
    # caller may set it (``p.formatter_class = argparse.RawDescriptionHelpFormatter``): what is
    # set is kept, and read back saying argparse's words in the parser's language.
    @property  # type: ignore[override]
    def formatter_class(self) -> type:
        return _in_language(self._formatter_class, self._lang)

    @formatter_class.setter
    def formatter_class(self, cls: type) -> None:
        self._formatter_class = cls

    def error(self, message: str) -> NoReturn:
        """As argparse's (the usage and the error on stderr, exit status 2), in the language."""
        self.print_usage(sys.stderr)
        text = trl(self._lang, "%(prog)s: error: %(message)s\n")
        self.exit(2, text % {"prog": self.prog, "message": argparse_text(message, self._lang)})


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
    """The json module's message in the current language or ``lang``; an unknown one is
    kept as it is."""
    if (lang or _lang) == "en":
        return msg
    return next((catalog(lang).gettext(en) for en in JSON_MESSAGES if msg.startswith(en)), msg)


def json_problem_ru(msg: str) -> str:
    """The json module's message in Russian; an unknown one is kept as it is."""
    return json_problem(msg, "ru")


def json_reason(exc, lang: str | None = None) -> str:
    """A ``json.JSONDecodeError`` as «what is wrong, column N» in ``lang`` or the current
    language."""
    return trl(lang, "{problem}, column {column}").format(
        problem=json_problem(exc.msg, lang), column=exc.colno
    )
