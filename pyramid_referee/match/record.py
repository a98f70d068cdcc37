"""The written game record: a plain-text Russian protocol of a партия, one stroke a line.

A marker writes it on a tablet or copies it from a paper protocol; ``validate``
checks it like a compiler, ``replay`` judges it, ``export --format record``
writes one from a stored match. The grammar is ``record.lark`` (Lark, LALR);
the file is read line by line, so a bad line is named and the others are still
checked. «#» starts a comment anywhere; blank lines are skipped.

Header (before the first stroke; «Игроки» is required and is how a record is
recognised, besides the extensions ``.record`` and ``.партия``)::

    Игроки: Иван, Пётр                 the two players, the one who breaks first
    Режим: чистое назначение           or «шар и луза» (C1, C7)
    До: 71                             the score a партия is played to (E1)
    Штраф: 5                           the penalty (P2)
    Отрицательный счёт: да             (Q1) да / нет
    Стоимость шаров: классическая      (Q4) классическая / по номерам
    Точность лузы: нужна сторона угла  (Q2) нужна сторона угла / любая
    Нужен результат: нет               (E4) да / нет
    Счёт: Иван 20, Пётр 11             a start from a score sheet: the score,
    На столе: 2 4 5 6 7 8 9 10 11 12 13 14 15   the balls left,
    Бьёт: Пётр                         who is to play,
    С руки: нет                        whether from hand (default нет),
    Следующую разбивает: Иван          who breaks the next партия (E4)

A stroke::

    Иван: тройку чисто в правый угол | биток 3; 3 в правый дальний угол | 3:0

the striker, «:», the call as said («без заказа» or «-» for none; a call the
referee refused is marked «(не принят)» after it), «|», the outcome in the
outcome notation, and optionally «|» and the running score after the stroke,
the players in the order of «Игроки» («13:-5»).

``read_record(lines)`` → ``Record`` (the plain data) and the problems of form;
``check_record(lines)`` also judges every stroke and adds the problems of
substance: a refused call not marked so, an outcome that cannot happen, a
running score that does not add up, the wrong player to move, a stroke after
the end. Every ``Problem`` has its line and column (1-based) and a hint.
``write_record(match, strokes)`` writes a stored match as a record (``render_record`` the text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from lark import Lark, Transformer, UnexpectedEOF, UnexpectedInput, UnexpectedToken, v_args

from ..catalog import N_, trl
from ..grammar import Call, parse as parse_call, render
from ..grammar.refusal import CLAUSES
from ..i18n import UserError
from ..rules import GameState, Match, Outcome, RulesError, RulesInputError, Settings
from ..rules.match import MAX_TO_WINS
from ..rules.messages import num
from .bounds import MAX_RECORD_LINE_CHARS, call_too_long
from .marks import strike_marks

# The replay engine and the outcome notation's parser are imported where they are used: the
# command line imports this module for its help text (RECORD_HELP), and every command would
# otherwise pay for them.

EXTENSIONS = (".record", ".партия")

#: The record's format in a few lines, for ``validate --help`` and ``replay --help``.
RECORD_HELP = N_(
    "  «Игроки: Иван, Пётр»                      (required; the one who breaks first)\n"
    "  «Режим: чистое назначение»                (or «шар и луза»)\n"
    "  «До: 71»  «Штраф: 5»  «Отрицательный счёт: да»  «Стоимость шаров: классическая»\n"
    "  «Точность лузы: нужна сторона угла»  «Нужен результат: нет»\n"
    "  «Счёт: Иван 20, Пётр 11»  «На столе: 2 4 5 15»  «Бьёт: Пётр»  «С руки: нет»\n"
    "                                            (a start from a score sheet: «Счёт», «На столе», "
    "«Бьёт» together)\n"
    "  «Иван: тройку чисто в правый угол | биток 3; 3 в правый дальний угол | 3:0»\n"
    "  «Иван: тройку в угол (не принят) | биток 6 | 3:0»\n"
    "  «Пётр: без заказа | биток 9; фол г | 8:−5»\n"
    "The header comes before the first stroke, one 'Name: value' a line; all but\n"
    "«Игроки» is optional. A stroke: the striker, ':', the call as said («без заказа»\n"
    "or '-' for none; a call the referee refused is marked «(не принят)»), '|', the\n"
    "outcome in the outcome notation (as in play), and optionally '|' and the score\n"
    "after the stroke, the players in the order of «Игроки». '#' starts a comment."
)
NO_CALL = "без заказа"
REFUSED_MARK = "(не принят)"


# ---------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a record: where, what, and how to fix it.

    ``what`` and ``how`` are English messages (their Russian text is in the catalog) with named
    placeholders filled from ``values``; a value may be a function of the language (a part that
    is itself a message, or another module's text in that language)."""

    line: int
    col: int
    kind: str  # syntax | header | player | call | outcome | score | over
    what: str
    how: str = ""
    values: dict = field(default_factory=dict, compare=False, hash=False)
    code: str | None = None  # the grammar's refusal code, for a refused call

    def _text(self, message: str, lang: str) -> str:
        if not message:
            return ""
        values = {k: v(lang) if callable(v) else v for k, v in self.values.items()}
        return trl(lang, message).format(**values)

    def message(self, lang: str = "ru") -> str:
        return self._text(self.what, lang)

    def hint(self, lang: str = "ru") -> str:
        return self._text(self.how, lang)

    # the texts in each language, as attributes (what callers read before the catalog)
    ru = property(lambda self: self.message("ru"))
    en = property(lambda self: self.message("en"))
    hint_ru = property(lambda self: self.hint("ru"))
    hint_en = property(lambda self: self.hint("en"))

    def to_json(self, lang: str = "ru") -> dict:
        data = {
            "line": self.line,
            "col": self.col,
            "kind": self.kind,
            "message": self.message(lang),
            "hint": self.hint(lang),
        }
        if self.code:
            data["code"] = self.code
        return data


@dataclass(frozen=True)
class StrokeLine:
    """A stroke line of a game record as read, with the column of each part."""

    line: int
    player: str
    player_col: int
    call: str | None  # the call as said; None: no call
    call_col: int
    refused_mark: bool  # written «(не принят)»
    outcome: str
    outcome_col: int
    score: tuple[int, int] | None = None
    score_col: int = 0


@dataclass
class Record:
    players: tuple[str, str] | None = None
    settings: dict = field(default_factory=dict)
    start: dict | None = None
    strokes: list[StrokeLine] = field(default_factory=list)
    header_lines: dict = field(default_factory=dict)  # header key → its line
    to_wins: int = 1  # «Матч до побед: N»: a match of партии, won by the first to win N


# ---------------------------------------------------------------------------- grammar


@lru_cache(maxsize=1)
def _parser():
    return Lark.open(
        str(Path(__file__).with_name("record.lark")),
        parser="lalr",
        lexer="contextual",
        start=["header", "stroke"],
        propagate_positions=True,
    )


class HeaderLine(NamedTuple):
    """A parsed header line «Name: value»: the key and the value with their columns (1-based).
    ``kind`` is "header" (a stroke line parses to a StrokeLine)."""

    kind: str
    key: str
    key_col: int
    value: str
    value_col: int


class _SaidCall(NamedTuple):
    """The call part of a stroke line: the call as said (None: no call), its column, and
    whether it was marked «(не принят)»."""

    text: str | None
    column: int
    refused_mark: bool


class _Score(NamedTuple):
    """The running score written after a stroke, the players in the order of «Игроки»."""

    first: int
    second: int
    column: int


@lru_cache(maxsize=1)
def _transformer():
    return _ToData()


@v_args(inline=True)
class _ToData(Transformer):
    """A parsed line → a HeaderLine or a StrokeLine (line set later)."""

    def header(self, key, value) -> HeaderLine:
        return HeaderLine("header", key.strip(), key.column, value.rstrip(), value.column)

    def no_call(self, tok) -> _SaidCall:
        return _SaidCall(None, tok.column, False)

    def said(self, text, refused=None) -> _SaidCall:
        return _SaidCall(text.rstrip(), text.column, refused is not None)

    def score(self, a, b) -> _Score:
        return _Score(_int(a), _int(b), a.column)

    def stroke(self, player, call: _SaidCall, outcome, score: _Score | None = None) -> StrokeLine:
        return StrokeLine(
            line=0,
            player=player.strip(),
            player_col=player.column,
            call=call.text,
            call_col=call.column,
            refused_mark=call.refused_mark,
            outcome=outcome.rstrip(),
            outcome_col=outcome.column,
            score=None if score is None else (score.first, score.second),
            score_col=0 if score is None else score.column,
        )


def _int(tok: str) -> int:
    return int(re.sub(r"\s", "", str(tok)).replace("−", "-").replace("–", "-"))


_WHAT = {  # what a terminal of the record's grammar is, for «expected: …»
    "KEY": N_("a name"),
    "VALUE": N_("a value"),
    "PLAYER": N_("the player's name"),
    "_COLON": N_("':'"),
    "_BAR": N_("'|'"),
    "NO_CALL": N_("'без заказа'"),
    "CALL_TEXT": N_("the call"),
    "REFUSED": N_("'(не принят)'"),
    "OUTCOME": N_("the outcome"),
    "SCORE_NUMBER": N_("the score, e.g. '8:0'"),
}


def _expected(names):
    """What could stand there, as a function of the language (for Problem's values)."""
    picked = [_WHAT[n] for n in sorted(set(names)) if n in _WHAT]
    return lambda lang: ", ".join(trl(lang, p) for p in picked)


def _syntax_problem(no: int, text: str, exc, is_stroke: bool) -> Problem:
    shape = N_("'player: call | outcome | score'") if is_stroke else N_("'Name: value'")
    values = {"shape": lambda lang: trl(lang, shape)}
    if (
        isinstance(exc, UnexpectedToken)
        and exc.token.type == "$END"
        or isinstance(exc, UnexpectedEOF)
    ):
        names = getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ()
        col = len(text.split("#", 1)[0].rstrip()) + 1
        return Problem(
            no,
            col,
            "syntax",
            N_("the line stops short: {expected} missing"),
            N_("write {shape}"),
            {**values, "expected": _expected(names)},
        )
    col = getattr(exc, "column", 1) or 1
    pos = getattr(exc, "pos_in_stream", None)
    word = text[pos:].split()[0] if pos is not None and text[pos:].split() else text[col - 1 : col]
    names = (
        getattr(exc, "accepts", None)
        or getattr(exc, "expected", None)
        or getattr(exc, "allowed", None)
        or ()
    )
    how = N_("write {shape}")
    if word.startswith(("(", ")")):
        how = N_("write {shape}; brackets only in the mark '(не принят)' after the call")
    what = (
        N_("'{word}' does not fit here; expected: {expected}")
        if [n for n in names if n in _WHAT]
        else N_("'{word}' does not fit here")
    )
    return Problem(
        no, col, "syntax", what, how, {**values, "word": word, "expected": _expected(names)}
    )


def parse_line(text: str) -> Any:
    """One line → None (blank or comment), a header tuple or
    a StrokeLine; raises UnexpectedInput."""
    body = text.split("#", 1)[0]
    if not body.strip():
        return None
    start = "stroke" if "|" in body else "header"
    return _transformer().transform(_parser().parse(text, start=start))


# ---------------------------------------------------------------------------- header


def _norm(s: str) -> str:
    return " ".join(s.lower().replace("ё", "е").split())


_KEYS = {  # the spelling people write → the header key
    "игроки": "players",
    "режим": "mode",
    "до": "target",
    "партия до": "target",
    "играем до": "target",
    "игра до": "target",
    "матч до побед": "to_wins",
    "до побед": "to_wins",
    "штраф": "penalty",
    "отрицательный счет": "negative_scores",
    "стоимость шаров": "ball_values",
    "точность лузы": "pocket_precision",
    "нужен результат": "result_required",
    "счет": "scores",
    "на столе": "on_table",
    "бьет": "to_play",
    "с руки": "from_hand",
    "следующую разбивает": "next_break",
}
KEY_NAMES = (
    "Игроки",
    "Режим",
    "До",
    "Матч до побед",
    "Штраф",
    "Отрицательный счёт",
    "Стоимость шаров",
    "Точность лузы",
    "Нужен результат",
    "Счёт",
    "На столе",
    "Бьёт",
    "С руки",
    "Следующую разбивает",
)
_YES = {"да": True, "нет": False, "yes": True, "no": False, "true": True, "false": False}
_CHOICES = {
    "mode": (
        {
            "чистое назначение": "clean",
            "чистое": "clean",
            "чисто": "clean",
            "clean": "clean",
            "шар и луза": "ball_and_pocket",
            "ball_and_pocket": "ball_and_pocket",
            "ball-and-pocket": "ball_and_pocket",
        },
        N_("'чистое назначение' or 'шар и луза'"),
    ),
    "ball_values": (
        {
            "классическая": "classic",
            "классика": "classic",
            "classic": "classic",
            "по номерам": "face",
            "face": "face",
        },
        N_("'классическая' or 'по номерам'"),
    ),
    "pocket_precision": (
        {
            "нужна сторона угла": "side_for_corners",
            "сторона угла": "side_for_corners",
            "side_for_corners": "side_for_corners",
            "любая": "any",
            "any": "any",
        },
        N_("'нужна сторона угла' or 'любая'"),
    ),
}
_MODE_WORDS = {"clean": "чистое назначение", "ball_and_pocket": "шар и луза"}
_VALUE_WORDS = {"classic": "классическая", "face": "по номерам"}
_PRECISION_WORDS = {"side_for_corners": "нужна сторона угла", "any": "любая"}


def _header(
    rec: Record,
    no: int,
    key: str,
    key_col: int,
    value: str,
    value_col: int,
    problems: list[Problem],
) -> None:
    name = _KEYS.get(_norm(key))
    misplaced = _misplaced_header(rec, no, key, key_col, name)
    if misplaced is not None:
        problems.append(misplaced)
        return
    rec.header_lines[name] = no
    bad = lambda what, how="", **values: problems.append(  # noqa: E731
        Problem(no, value_col, "header", what, how, values)
    )
    _HEADER_READERS.get(name, _header_player_name)(rec, name, value, _norm(value), bad)


def _misplaced_header(
    rec: Record, no: int, key: str, key_col: int, name: str | None
) -> Problem | None:
    """A header line that is no header (unknown, or a stroke without its «|»), comes after the
    first stroke, or repeats one: the problem, else None."""
    if name is None:
        if rec.players and key in rec.players:
            return Problem(
                no,
                len(key) + key_col + 1,
                "syntax",
                N_("the stroke has no '|' between the call and the outcome"),
                N_("write 'player: call | outcome'"),
            )
        return Problem(
            no,
            key_col,
            "header",
            N_("unknown header '{key}'"),
            N_("known: {keys}; a stroke is 'player: call | outcome'"),
            {"key": key, "keys": ", ".join(f"«{k}»" for k in KEY_NAMES)},
        )
    if rec.strokes:
        return Problem(
            no,
            key_col,
            "header",
            N_("the header '{key}' comes after the first stroke"),
            N_("move it to the top of the record"),
            {"key": key},
        )
    if name in rec.header_lines:
        return Problem(
            no,
            key_col,
            "header",
            N_("'{key}' is already given on line {line}"),
            N_("keep one line"),
            {"key": key, "line": rec.header_lines[name]},
        )
    return None


# Each header's value reader: (record, header name, value as written, value normalised, bad),
# where ``bad(what, how="", **values)`` names the value's problem.


def _header_players(rec: Record, name: str, value: str, v: str, bad) -> None:
    names = [p.strip() for p in re.split(r",|\s[—–-]\s", value)]  # «Иван, Пётр» or «Иван — Пётр»
    if len(names) != 2 or not all(names):
        return bad(
            N_("two names separated by a comma are needed"), N_("e.g. 'Игроки: Иван, Пётр'")
        )
    if names[0] == names[1]:
        return bad(N_("the two players need different names"))
    rec.players = (names[0], names[1])


def _header_choice(rec: Record, name: str, value: str, v: str, bad) -> None:
    table, allowed = _CHOICES[name]
    if v not in table:
        return bad(
            N_("'{value}' does not fit: {allowed}"),
            value=value,
            allowed=lambda lang: trl(lang, allowed),
        )
    rec.settings[name] = table[v]


def _header_yes_no(rec: Record, name: str, value: str, v: str, bad) -> None:
    if v not in _YES:
        return bad(N_("'{value}': 'да' or 'нет' is needed"), value=value)
    if name == "from_hand":
        rec.start = {**(rec.start or {}), "from_hand": _YES[v]}
    else:
        rec.settings[name] = _YES[v]


def _header_to_wins(rec: Record, name: str, value: str, v: str, bad) -> None:
    if not re.fullmatch(r"\d+", v) or not 1 <= int(v) <= MAX_TO_WINS:
        return bad(
            N_("'{value}': a whole number from 1 to {high} is needed"),
            value=value,
            high=MAX_TO_WINS,
        )
    rec.to_wins = int(v)


def _header_points(rec: Record, name: str, value: str, v: str, bad) -> None:
    low = 1 if name == "target" else 0
    if not re.fullmatch(r"\d+", v) or int(v) < low:
        return bad(
            N_("'{value}': a whole number of at least {low} is needed"), value=value, low=low
        )
    rec.settings[name] = int(v)


def _header_scores(rec: Record, name: str, value: str, v: str, bad) -> None:
    scores = {}
    for part in value.split(","):
        m = re.fullmatch(r"\s*(.+?)\s+([-−–]?\s*\d+)\s*", part)
        if not m:
            return bad(
                N_("cannot read the score '{score}'"),
                N_("e.g. 'Счёт: Иван 20, Пётр 11'"),
                score=part.strip(),
            )
        scores[m.group(1)] = _int(m.group(2))
    rec.start = {**(rec.start or {}), "scores": scores}


def _header_on_table(rec: Record, name: str, value: str, v: str, bad) -> None:
    parts = [p for p in re.split(r"[\s,]+", v) if p]
    if not parts or not all(p.isdigit() for p in parts):
        return bad(
            N_("ball numbers separated by spaces are needed"), N_("e.g. 'На столе: 2 4 5 15'")
        )
    rec.start = {**(rec.start or {}), "on_table": [int(p) for p in parts]}


def _header_player_name(rec: Record, name: str, value: str, v: str, bad) -> None:
    """«Бьёт», «Следующую разбивает»: a player's name (checked with the start as a whole)."""
    rec.start = {**(rec.start or {}), name: value.strip()}


_HEADER_READERS = {
    "players": _header_players,
    **{name: _header_choice for name in _CHOICES},
    **{name: _header_yes_no for name in ("negative_scores", "result_required", "from_hand")},
    "to_wins": _header_to_wins,
    "target": _header_points,
    "penalty": _header_points,
    "scores": _header_scores,
    "on_table": _header_on_table,
}


_START_FIELD_KEY = {
    "scores": "scores",
    "on_table": "on_table",
    "to_play": "to_play",
    "from_hand": "from_hand",
    "next_break": "next_break",
}


def _check_header(rec: Record, problems: list[Problem], first_line: int) -> None:
    """Settings, players and the start position as a whole (the rules engine checks them)."""
    if rec.players is None:
        if "players" in rec.header_lines:  # given, but not two names: already named on its line
            return
        problems.append(
            Problem(
                first_line,
                1,
                "header",
                N_("the players are not given"),
                N_("start with 'Игроки: Иван, Пётр' (the one who breaks first)"),
            )
        )
        return
    try:
        settings = Settings.from_json(rec.settings)
    except RulesInputError as exc:  # pragma: no cover - the header words are checked above
        problems.append(
            Problem(first_line, 1, "header", "{error}", values={"error": _rules_text(exc)})
        )
        return
    if rec.start is not None:
        missing = [
            k
            for k, n in (("scores", "Счёт"), ("on_table", "На столе"), ("to_play", "Бьёт"))
            if k not in rec.start
        ]
        if missing:
            line = min(
                rec.header_lines[k]
                for k in ("scores", "on_table", "to_play", "from_hand", "next_break")
                if k in rec.header_lines
            )
            names = {"scores": "«Счёт»", "on_table": "«На столе»", "to_play": "«Бьёт»"}
            problems.append(
                Problem(
                    line,
                    1,
                    "header",
                    N_("the start from a score sheet is incomplete"),
                    N_("also needed: {keys}"),
                    {"keys": ", ".join(names[k] for k in missing)},
                )
            )
            return
    try:
        GameState.initial(settings, rec.players, rec.start)
    except RulesInputError as exc:
        key = (
            exc.field.split(".")[1].split("[")[0] if exc.field.startswith("start.") else "players"
        )
        line = rec.header_lines.get(
            _START_FIELD_KEY.get(key, key), rec.header_lines.get("players", first_line)
        )
        problems.append(
            Problem(
                line,
                1,
                "header",
                N_("the start from a score sheet: {error}"),
                values={"error": _rules_text(exc)},
            )
        )


def read_record(lines: Iterable[str]) -> tuple[Record, list[Problem]]:
    """The record's plain data and its problems of form (syntax, header)."""
    rec = Record()
    problems: list[Problem] = []
    first_line = None
    for no, text in enumerate(lines, 1):
        if (
            len(text.rstrip("\r\n")) > MAX_RECORD_LINE_CHARS
        ):  # not parsed: no real line comes near it
            problems.append(
                Problem(
                    no,
                    MAX_RECORD_LINE_CHARS + 1,
                    "syntax",
                    N_(
                        "the line is {n} characters long, "
                        "longer than any record line: at most {limit}"
                    ),
                    N_("a line holds one stroke: 'player: call | outcome | score'"),
                    {"n": len(text.rstrip("\r\n")), "limit": MAX_RECORD_LINE_CHARS},
                )
            )
            first_line = first_line or no
            continue
        try:
            got = parse_line(text)
        except UnexpectedInput as exc:
            problems.append(_syntax_problem(no, text, exc, "|" in text.split("#", 1)[0]))
            first_line = first_line or no
            continue
        if got is None:
            continue
        first_line = first_line or no
        if isinstance(got, tuple):
            _header(rec, no, *got[1:], problems)
            continue
        if not rec.strokes:
            _check_header(rec, problems, first_line)
        rec.strokes.append(_with_line(got, no))
    if not rec.strokes and first_line is not None:
        _check_header(rec, problems, first_line)
    if first_line is None:
        problems.append(
            Problem(
                1,
                1,
                "header",
                N_("the record is empty: no header and no strokes"),
                N_("start with 'Игроки: Иван, Пётр', then one stroke a line"),
            )
        )
    return rec, problems


def _with_line(s: StrokeLine, no: int) -> StrokeLine:
    return StrokeLine(
        no,
        s.player,
        s.player_col,
        s.call,
        s.call_col,
        s.refused_mark,
        s.outcome,
        s.outcome_col,
        s.score,
        s.score_col,
    )


def is_record(path: str, lines: list[str]) -> bool:
    """A game record: by its extension, or by its first line that is not blank or
    a comment («Игроки: …»)."""
    if Path(path).suffix.lower() in EXTENSIONS:
        return True
    for text in lines:
        body = text.split("#", 1)[0].strip()
        if body:
            key, colon, _ = body.partition(":")
            return bool(colon) and _norm(key) in ("игроки", "players")
    return False


# ---------------------------------------------------------------------------- judging


@dataclass
class Checked:
    """A record read and judged: the data, the replay of it, and every problem found."""

    record: Record
    problems: list[Problem]
    result: Any = None  # replay.ReplayResult over the strokes judged (None: the header is bad)
    judged_to: int | None = (
        None  # the line after which the strokes could not be judged (an impossible outcome)
    )


_EVENT_FIELD = re.compile(r"^(?:outcome\.)?events\[(\d+)\]")


def _outcome_col(s: StrokeLine, exc, columns: list[int]) -> int:
    m = _EVENT_FIELD.match(exc.field or "")
    if m and int(m.group(1)) < len(columns):
        return s.outcome_col + columns[int(m.group(1))] - 1
    return s.outcome_col


def check_record(lines: Iterable[str], parse=None) -> Checked:
    """Read a record and judge every stroke; nothing stops at the first problem but
    an outcome that cannot happen (after it the position is unknown)."""
    lines = list(lines)
    rec, problems = read_record(lines)
    checked = Checked(rec, problems)
    if rec.players is None or any(p.kind == "header" for p in problems):
        _check_notation(rec.strokes, problems)
        problems.sort(key=lambda p: (p.line, p.col))
        return checked
    if parse is None:
        parse = parse_call
    settings = Settings.from_json(rec.settings)
    _judge_strokes(checked, settings, parse)
    _check_notation(
        rec.strokes[len(checked.result.rows) + (checked.judged_to is not None) :],
        problems,
        parse=parse,
        settings=settings,
    )
    problems.sort(key=lambda p: (p.line, p.col))
    return checked


def _judge_strokes(checked: Checked, settings: Settings, parse) -> None:
    """Replay the strokes in order into ``checked.result`` until one cannot be judged (its line
    is then ``checked.judged_to``)."""
    # deferred: the replay engine loads only to replay a record
    from .replay import ReplayResult, ReplayRow, Script, ScriptStroke

    rec, problems = checked.record, checked.problems
    match = Match(settings, list(rec.players), rec.start, rec.to_wins)
    script_strokes = []
    script = Script(settings, rec.players, rec.start, (), None, rec.to_wins)
    result = ReplayResult(script, match)
    checked.result = result
    for s in rec.strokes:
        judged = _judge_stroke(s, rec, match, result, settings, parse, problems)
        if judged is None:
            checked.judged_to = s.line
            break
        call, status, refusal_json, verdict, outcome = judged
        script_strokes.append(ScriptStroke(s.line, s.call, outcome))
        result.rows.append(ReplayRow(s.line, s.call, call, status, refusal_json, verdict, outcome))
        _check_score(s, match, verdict, problems)
    result.script = Script(
        settings, rec.players, rec.start, tuple(script_strokes), None, rec.to_wins
    )


def _judge_stroke(s: StrokeLine, rec: Record, match, result, settings, parse, problems):
    """One stroke's problems, and (call, status, refusal JSON, verdict, outcome) when it was
    judged; None when it could not be (the game is over, an unreadable outcome, …)."""
    state = match.upcoming  # after a game's end the match's next game opens with this stroke
    if match.decided:
        problems.append(
            Problem(
                s.line,
                1,
                "over",
                N_("the game is already over: the stroke is one too many"),
                N_("remove the stroke or start a new record"),
            )
        )
        return None
    _check_striker(s, rec.players, state.striker, result, problems)
    if s.call is not None and _call_too_long(s, problems):
        return None
    status, call, refusal_json = _read_stroke_call(s, state, settings, parse, problems)
    judged = _judge_outcome(s, match, call, status, problems)
    if judged is None:
        return None
    outcome, verdict = judged
    return call, status, refusal_json, verdict, outcome


def _check_striker(s: StrokeLine, players, striker: str, result, problems) -> None:
    """The stroke's player plays in the game and is the one to play."""
    if s.player not in players:
        problems.append(
            Problem(
                s.line,
                s.player_col,
                "player",
                N_("'{player}' does not play in this game"),
                N_("the players are {first} and {second}; {striker} is to play"),
                {
                    "player": s.player,
                    "first": players[0],
                    "second": players[1],
                    "striker": striker,
                },
            )
        )
    elif s.player != striker:
        how, values = _turn_hint(result)
        problems.append(
            Problem(
                s.line,
                s.player_col,
                "player",
                N_("{striker} is to play, not {player}"),
                how,
                {"striker": striker, "player": s.player, **values},
            )
        )


def _read_stroke_call(s: StrokeLine, state, settings, parse, problems):
    """The stroke's call read on the position: (status, call, refusal JSON), and a problem when
    the record's «(не принят)» mark says otherwise than the referee."""
    if s.call is None:
        return "none", None, None
    got = parse(
        s.call,
        mode=settings.mode,
        balls_left=sorted(state.on_table),
        pocket_precision=settings.pocket_precision,
    )
    if not hasattr(got, "code"):  # a Call, not a Refusal
        if s.refused_mark:
            problems.append(
                Problem(
                    s.line,
                    s.call_col,
                    "call",
                    N_("the call is accepted, yet marked '(не принят)'"),
                    N_("remove the mark '(не принят)'"),
                )
            )
        return "accepted", got, None
    refusal_json = got.to_json("ru")
    clause = getattr(got, "clause", None) or CLAUSES.get(got.code)
    if clause:  # as a replay of JSON lines gives it
        refusal_json["clause"] = clause
    if not s.refused_mark:
        problems.append(
            Problem(
                s.line,
                s.call_col + got.span[0],
                "call",
                N_("the call is refused: {why}"),
                N_("{hint}; if the player said it so, mark it '{mark}' after the call"),
                {"why": got.message, "hint": got.hint, "mark": REFUSED_MARK},
                code=got.code,
            )
        )
    return "refused", None, refusal_json


def _judge_outcome(s: StrokeLine, match, call, status: str, problems):
    """The stroke's outcome read and judged: (outcome, verdict), or None with the problem named
    (the position after it is unknown)."""
    # deferred: the outcome notation's parser loads only to read outcomes
    from ..rules.notation import NotationError, parse_outcome_located

    try:
        data, columns = parse_outcome_located(s.outcome)
    except NotationError as exc:
        problems.append(_notation_problem(s, exc))
        return None
    try:
        outcome = Outcome.from_json(data)
        verdict = match.stroke(call, outcome, call_status=status)
    except RulesError as exc:
        col = _outcome_col(s, exc, columns) if isinstance(exc, RulesInputError) else s.outcome_col
        problems.append(
            Problem(
                s.line,
                col,
                "outcome",
                N_("the outcome does not fit the game: {error}"),
                N_(
                    "check the outcome against the protocol; "
                    "the strokes after this line are not judged"
                ),
                {"error": _rules_text(exc)},
            )
        )
        return None
    return outcome, verdict


def _check_score(s: StrokeLine, match, verdict, problems) -> None:
    """The running score written after the stroke is the rules' one."""
    if s.score is None or tuple(match.state.scores) == s.score:
        return
    want = f"{num(match.state.scores[0])}:{num(match.state.scores[1])}"
    problems.append(
        Problem(
            s.line,
            s.score_col,
            "score",
            N_("the score does not add up: {written} written, {want} by the rules"),
            N_("the stroke's verdict: {verdict}"),
            {
                "written": f"{num(s.score[0])}:{num(s.score[1])}",
                "want": want,
                "verdict": verdict.message,
            },
        )
    )


def _call_too_long(s: StrokeLine, problems: list[Problem]) -> bool:
    """A call longer than any call (match/bounds.py) is a problem of its own, never parsed."""
    why = call_too_long(s.call, "en")  # only whether it is: the text is said where shown
    if why is None:
        return False
    problems.append(
        Problem(
            s.line,
            s.call_col,
            "call",
            "{why}",
            N_("write the call as the player said it"),
            {"why": lambda lang, text=s.call: call_too_long(text, lang)},
        )
    )
    return True


def _notation_problem(s: StrokeLine, exc) -> Problem:
    return Problem(
        s.line,
        s.outcome_col + exc.column - 1,
        "outcome",
        N_("outcome: {what}"),
        N_(
            "the outcome reads like 'биток 3; 3 в правый дальний угол' "
            "(see help in pyramid-referee play)"
        ),
        {"what": lambda lang: _notation_text(exc, lang)},
    )


def _rules_text(exc):
    """A rules engine error's message, as a function of the language."""
    if isinstance(exc, RulesInputError):
        return lambda lang: exc.message if lang == "en" else exc.ru
    return lambda lang: str(exc)


def _check_notation(
    strokes: list[StrokeLine], problems: list[Problem], *, parse=None, settings=None
) -> None:
    """The strokes that could not be judged still get their outcome's form checked, and (given the
    parser) their calls read as words: what balls are on the table is unknown there, so only what
    the words alone can tell (an unknown word, no pocket, …) is named, like a compiler goes on."""
    # deferred: the outcome notation's parser loads only to read outcomes
    from ..rules.notation import NotationError, parse_outcome

    for s in strokes:
        if s.call is not None and _call_too_long(s, problems):
            continue
        if parse is not None and s.call is not None:
            got = parse(
                s.call,
                mode=settings.mode,
                balls_left=None,
                pocket_precision=settings.pocket_precision,
            )
            if hasattr(got, "code") and not s.refused_mark:
                problems.append(
                    Problem(
                        s.line,
                        s.call_col + got.span[0],
                        "call",
                        N_("the call is refused: {why}"),
                        N_("{hint}; if the player said it so, mark it '{mark}' after the call"),
                        {"why": got.message, "hint": got.hint, "mark": REFUSED_MARK},
                        code=got.code,
                    )
                )
        try:
            parse_outcome(s.outcome)
        except NotationError as exc:
            problems.append(_notation_problem(s, exc))


def _notation_text(exc, lang: str) -> str:
    """The notation's message without its own «столбец N» (the record names the column itself)."""
    text = exc.what_en if lang == "en" else exc.what_ru  # NotationError keeps both texts
    if exc.expected:
        names = ", ".join(e[1] if lang == "en" else e[0] for e in exc.expected)
        text = trl(lang, "{what}; expected: {names}").format(what=text, names=names)
    return text


def _turn_hint(result) -> tuple[str, dict]:
    """Who strikes and why: the hint of a wrong player to move, and its values."""
    if not result.rows:
        return N_("the first named in 'Игроки' (or in 'Бьёт') strikes first"), {}
    row = result.rows[-1]
    return N_("after the stroke on line {line}: {verdict}"), {
        "line": row.line,
        "verdict": row.verdict.message,
    }


# ---------------------------------------------------------------------------- writing


def _clean(text: str) -> str:
    return " ".join(text.replace("|", " ").replace("#", " ").split())


@dataclass(frozen=True)
class WrittenStroke:
    """What a record line says of one stroke (the store's or a replay's view of it)."""

    striker: str
    call_status: str  # accepted | refused | none
    call_text: str | None
    call: dict | None  # the call JSON (written in canonical words when no text was said)
    outcome_text: str | None
    outcome: dict
    scores: tuple[int, int]  # after the stroke, in the players' order
    marks: tuple[str, ...] = ()  # the voice referee's marks of the strike (Q13, Q14): a comment


def write_record(match, strokes, lang: str = "ru") -> str:
    """A stored match (store.MatchRow and its active StrokeRows) as a game record (the record is
    Russian; a name it cannot hold is refused in ``lang``)."""
    p0, p1 = match.players
    to_wins = getattr(match, "to_wins", 1)
    title = f"Запись матча {match.id}" if to_wins > 1 else f"Запись партии: матч {match.id}"
    return render_record(
        title,
        (p0, p1),
        match.settings,
        match.start,
        [
            WrittenStroke(
                r.record.verdict["striker"],
                r.record.call_status,
                r.record.call_text,
                r.record.call,
                r.record.outcome_text,
                r.record.outcome,
                (r.record.state["scores"][p0], r.record.state["scores"][p1]),
                tuple(strike_marks(getattr(r.record, "strike", None), "ru")),
            )
            for r in strokes
        ],
        to_wins=to_wins,
        lang=lang,
    )


def render_record(
    title: str | None,
    players,
    settings: dict | None,
    start: dict | None,
    strokes: Iterable[WrittenStroke],
    to_wins: int = 1,
    lang: str = "ru",
) -> str:
    """A game record's text: the header (the settings that differ from the defaults),
    one line a stroke; a player's name it cannot hold is refused in ``lang``."""
    # deferred: the outcome notation's parser loads only to read outcomes
    from ..rules.notation import NotationError, parse_outcome, render_outcome

    p0, p1 = players
    for name in (p0, p1):
        bad = next((ch for ch in ",:|#" if ch in name), None)
        if bad or name != name.strip():
            raise UserError(
                trl(
                    lang,
                    "the player's name '{name}' cannot go into a game record: a name may not hold "
                    "',', ':', '|', '#' or spaces at its ends; export the match in another format",
                ).format(name=name)
            )
    s = Settings.from_json(settings)
    out = [f"# {title}"] if title else []
    out += [f"Игроки: {p0}, {p1}", f"Режим: {_MODE_WORDS[s.mode]}"]
    d = Settings()
    if s.target != d.target:
        out.append(f"До: {s.target}")
    if to_wins > 1:
        out.append(f"Матч до побед: {to_wins}")
    if s.penalty != d.penalty:
        out.append(f"Штраф: {s.penalty}")
    if s.negative_scores != d.negative_scores:
        out.append(f"Отрицательный счёт: {'да' if s.negative_scores else 'нет'}")
    if s.ball_values != d.ball_values:
        out.append(f"Стоимость шаров: {_VALUE_WORDS[s.ball_values]}")
    if s.pocket_precision != d.pocket_precision:
        out.append(f"Точность лузы: {_PRECISION_WORDS[s.pocket_precision]}")
    if s.result_required != d.result_required:
        out.append(f"Нужен результат: {'да' if s.result_required else 'нет'}")
    if start:
        out.append("Счёт: " + ", ".join(f"{p} {num(start['scores'][p])}" for p in (p0, p1)))
        out.append("На столе: " + " ".join(str(b) for b in start["on_table"]))
        out.append(f"Бьёт: {start['to_play']}")
        if start.get("from_hand"):
            out.append("С руки: да")
        if start.get("next_break"):
            out.append(f"Следующую разбивает: {start['next_break']}")
    out.append("")
    for w in strokes:
        if w.call_status == "none":
            call = NO_CALL
        elif w.call_status == "refused":
            call = (
                _clean((w.call_text or "").replace("(", " ").replace(")", " "))
                + " "
                + REFUSED_MARK
            )
        elif (
            w.call_text
            and not re.search(r"[|#()]", w.call_text)
            and w.call_text.strip() not in ("-", "—", "–")
        ):
            call = " ".join(w.call_text.split())  # the player's own words
        else:
            call = render(Call.from_json(w.call))
        outcome = _clean(w.outcome_text or "")
        try:
            if not outcome or parse_outcome(outcome) != w.outcome:
                outcome = render_outcome(w.outcome)
        except NotationError:
            outcome = render_outcome(w.outcome)
        line = f"{w.striker}: {call} | {outcome} | {num(w.scores[0])}:{num(w.scores[1])}"
        if w.marks:  # a comment: «validate» and «replay» read the line as before
            line += "  # " + "; ".join(m.replace("#", " ") for m in w.marks)
        out.append(line)
    return "\n".join(out) + "\n"
