"""The rules engine's small error hierarchy.

``RulesError`` is the base; ``RulesInputError`` says which field of a settings,
outcome, start or call record is wrong and what was expected, in English and in
Russian (``text(lang)``); ``str()`` is the English form.
"""

from __future__ import annotations

import re
from typing import Any

from .messages import N_, trl

# The JSON fields, as a Russian reader names them (``events[2]`` → «событие 3»).
_ITEM = {
    "events": N_("event {n}"),
    "fouls": N_("foul {n}"),
    "on_table": N_("ball on the table {n}"),
    "players": N_("player {n}"),
    "strokes": N_("stroke {n}"),
    "alternatives": N_("alternative {n}"),
    "result": N_("word {n}"),
}
_FIELD = {
    "outcome": N_("outcome"),
    "events": N_("events"),
    "fouls": N_("fouls"),
    "settings": N_("settings"),
    "start": N_("start of the game"),
    "on_table": N_("balls on the table"),
    "scores": N_("score"),
    "call": N_("call"),
    "players": N_("players"),
    "to_play": N_("player to move"),
}
# The fields inside an event, in words.
_INNER = {
    "pocket": N_("pocket"),
    "kind": N_("kind of pocket"),
    "side": N_("side of the pocket"),
    "end": N_("end of the pocket"),
    "ball": N_("ball"),
    "a": N_("first ball"),
    "b": N_("second ball"),
    "type": N_("kind of event"),
}
_LATIN = re.compile(r"«[^«»]*»|'[^'\n]*'|\b[CPQE]\d+[а-я]?\b|[A-Za-z_][A-Za-z_0-9\-]*")


def field_ru(field: str) -> str:
    """A JSON field path in Russian words: ``outcome.events[0].type`` → «исход,
    событие 1, поле «type»»."""
    parts = []
    if field.startswith("column "):  # a syntax error of the line: where in it
        return trl("ru", "column {n}").format(n=field[len("column ") :])
    for seg in field.split("."):
        m = re.fullmatch(r"(\w+)\[(\d+)\]", seg)
        if m:
            name, i = m.group(1), int(m.group(2)) + 1
            item = _ITEM.get(name, N_("field «{name}», item {n}"))
            parts.append(trl("ru", item).format(name=name, n=i))
        elif seg in _FIELD and (not parts or seg in ("events", "fouls")):  # top-level names only
            parts.append(trl("ru", _FIELD[seg]))
        elif seg == "line":  # the whole line: «строка N» says it already
            continue
        elif (
            "events[" in field and parts and seg in _INNER
        ):  # a part of an event: its ball, pocket …
            if seg in ("kind", "side", "end") and parts[-1] == trl("ru", _INNER["pocket"]):
                parts.pop()  # «луза, конец» → «конец лузы»
            parts.append(trl("ru", _INNER[seg]))
        elif seg:
            parts.append(trl("ru", "field «{name}»").format(name=seg))
    return ", ".join(parts)


def quote_tokens(text: str) -> str:
    """Quote the JSON words of a Russian message as input («true»,
    «pocket»), never clause codes."""

    def one(m: re.Match[str]) -> str:
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

    def __init__(self, field: str, message: str, ru: str | None = None, /, **params: Any) -> None:
        """``message`` is English, a template filled with ``params``; its Russian text is the
        catalog's (``messages.trl``) unless ``ru`` gives one."""
        self.field = field
        self.params = (
            params  # the values the message names (a caller may point at them in the user's text)
        )
        ru = ru or trl("ru", message)
        self.message = message.format(**params) if params else message
        self.ru = ru.format(**params) if params else ru
        super().__init__(f"{field}: {self.message}")

    def what(self, lang: str = "ru") -> str:
        """What is wrong, in the user's language, without the field (for a caller that points
        at the user's own text instead)."""
        return quote_tokens(self.ru) if lang == "ru" else self.message

    def text(self, lang: str = "ru") -> str:
        """The error in the user's language: ``field: what is wrong`` (in Russian the field in
        words and the JSON words quoted, as what the user wrote)."""
        if lang == "ru":
            where = field_ru(self.field)
            return f"{where}: {quote_tokens(self.ru)}" if where else quote_tokens(self.ru)
        return f"{self.field}: {self.message}"
