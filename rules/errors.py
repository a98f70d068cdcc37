"""The rules engine's small error hierarchy.

``RulesError`` is the base; ``RulesInputError`` says which field of a settings,
outcome, start or call record is wrong and what was expected, in English and in
Russian (``text(lang)``); ``str()`` is the English form.
"""

from __future__ import annotations

import re

# The JSON fields, as a Russian reader names them (``events[2]`` → «событие 3»).
_ITEM_RU = {"events": "событие", "fouls": "нарушение", "on_table": "шар на столе", "players": "игрок",
            "strokes": "удар", "alternatives": "вариант", "result": "слово"}
_FIELD_RU = {"outcome": "исход", "events": "события", "fouls": "нарушения", "settings": "настройки",
             "start": "начало партии", "on_table": "шары на столе", "scores": "счёт", "call": "заказ",
             "players": "игроки", "to_play": "кто бьёт"}
_LATIN = re.compile(r"«[^«»]*»|'[^'\n]*'|\b[CPQE]\d+[а-я]?\b|[A-Za-z_][A-Za-z_0-9\-]*")


def field_ru(field: str) -> str:
    """A JSON field path in Russian words: ``outcome.events[0].type`` → «исход, событие 1, поле «type»»."""
    parts = []
    if field.startswith("column "):           # a syntax error of the line: where in it
        return "столбец " + field[len("column "):]
    for seg in field.split("."):
        m = re.fullmatch(r"(\w+)\[(\d+)\]", seg)
        if m:
            name, i = m.group(1), int(m.group(2)) + 1
            parts.append(f"{_ITEM_RU[name]} {i}" if name in _ITEM_RU else f"поле «{name}», элемент {i}")
        elif seg in _FIELD_RU and (not parts or seg in ("events", "fouls")):   # top-level names only
            parts.append(_FIELD_RU[seg])
        elif seg:
            parts.append(f"поле «{seg}»")
    return ", ".join(parts)


def quote_tokens(text: str) -> str:
    """Quote the JSON words of a Russian message as input («true», «pocket»), never clause codes."""
    def one(m: re.Match) -> str:
        tok = m.group(0)
        if tok.startswith("«") or re.fullmatch(r"[CPQE]\d+[а-я]?", tok):
            return tok
        if tok.startswith("'"):
            return f"«{tok[1:-1]}»"
        return f"«{tok}»"
    return _LATIN.sub(one, text)


class RulesError(Exception):
    """Base of every error the rules engine raises."""


class RulesInputError(RulesError, ValueError):
    """Malformed or impossible input; nothing was changed.

    ``field`` names the bad field the way it appears in the JSON
    (``events[2].ball``, ``settings.target``, ``start.on_table[3]``).
    """

    def __init__(self, field: str, message: str, ru: str | None = None) -> None:
        self.field = field
        self.message = message
        self.ru = ru or message
        super().__init__(f"{field}: {message}")

    def text(self, lang: str = "ru") -> str:
        """The error in the user's language: ``field: what is wrong`` (in Russian the field in
        words and the JSON words quoted, as what the user wrote)."""
        if lang == "ru":
            return f"{field_ru(self.field)}: {quote_tokens(self.ru)}"
        return f"{self.field}: {self.message}"
