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


# -- argparse's own words (usage, errors) in Russian ------------------------------------------

_ARGPARSE_RU = {
    "usage: ": "использование: ",
    "positional arguments": "аргументы",
    "options": "параметры",
    "show this help message and exit": "показать эту справку и выйти",
    "show program's version number and exit": "показать версию программы и выйти",
    "%(prog)s: error: %(message)s\n": "%(prog)s: ошибка: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "аргумент %(argument_name)s: %(message)s",
    "invalid choice: %(value)r (choose from %(choices)s)":
        "недопустимое значение %(value)r (допустимо: %(choices)s)",
    "invalid %(type)s value: %(value)r": "неверное значение %(value)r: нужно число",
    "the following arguments are required: %s": "не хватает аргументов: %s",
    "unrecognized arguments: %s": "неизвестные аргументы: %s",
    "expected one argument": "ожидалось одно значение",
    "expected at most one argument": "ожидалось не больше одного значения",
    "expected at least one argument": "ожидалось хотя бы одно значение",
    "expected %s argument": "ожидалось значений: %s",
    "expected %s arguments": "ожидалось значений: %s",
    "ambiguous option: %(option)s could match %(matches)s":
        "неоднозначный параметр %(option)s: подходят %(matches)s",
    "not allowed with argument %s": "нельзя вместе с %s",
    "one of the arguments %s is required": "нужен один из аргументов %s",
    "ignored explicit argument %r": "лишнее значение %r",
    "unknown parser %(parser_name)r (choices: %(choices)s)":
        "неизвестная команда %(parser_name)r (есть: %(choices)s)",
}


def argparse_text(text: str) -> str:
    """argparse's own message in the current language (argparse itself only knows English)."""
    return _ARGPARSE_RU.get(text, text) if _lang == "ru" else text


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

_ERRNO_RU = {
    "ENOENT": "нет такого файла или каталога",
    "EISDIR": "это каталог, а не файл",
    "ENOTDIR": "часть пути — не каталог",
    "EACCES": "нет прав доступа",
    "EPERM": "операция не разрешена",
    "EROFS": "файловая система только для чтения",
    "ENOSPC": "нет места на диске",
    "EDQUOT": "превышена квота диска",
    "ENAMETOOLONG": "слишком длинное имя",
    "EEXIST": "файл уже есть",
    "ELOOP": "слишком много символических ссылок",
    "EIO": "ошибка ввода-вывода",
}


def os_reason(exc: OSError) -> str:
    """Why a file operation failed, in the current language (strerror is English only)."""
    import errno

    name = errno.errorcode.get(exc.errno or 0, "")
    if _lang == "ru" and name in _ERRNO_RU:
        return _ERRNO_RU[name]
    return exc.strerror or str(exc)


_JSON_RU = (
    ("Expecting value", "ожидалось значение"),
    ("Expecting property name enclosed in double quotes", "ожидалось имя поля в двойных кавычках"),
    ("Expecting ',' delimiter", "ожидалась запятая"),
    ("Expecting ':' delimiter", "ожидалось двоеточие"),
    ("Unterminated string starting at", "незакрытая строка"),
    ("Extra data", "лишние данные после JSON"),
    ("Invalid control character at", "управляющий символ внутри строки"),
    ("Invalid \\escape", "неверная escape-последовательность"),
    ("Invalid \\uXXXX escape", "неверная последовательность \\uXXXX"),
)


def json_problem_ru(msg: str) -> str:
    """The json module's message (English only) in Russian; an unknown one is kept as it is."""
    return next((ru for en, ru in _JSON_RU if msg.startswith(en)), msg)


def json_reason(exc) -> str:
    """A ``json.JSONDecodeError`` as «what is wrong, column N» in the current language."""
    if _lang == "ru":
        return f"{json_problem_ru(exc.msg)}, столбец {exc.colno}"
    return f"{exc.msg}, column {exc.colno}"
