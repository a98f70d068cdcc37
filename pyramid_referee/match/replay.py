"""Replaying a match script through the rules engine (``pyramid-referee replay``).

A script is JSON lines: an optional header
``{"settings": {…}, "players": ["A", "B"], "start": {…}, "to_wins": N}`` (every key optional;
``to_wins``, an extension, makes the script a match of games (партии) won by the first to win N,
default 1: one game),
then one ``{"call": TEXT | CALL-JSON | null, "outcome": {…}}`` a stroke (an
optional ``"comment"`` is ignored; blank lines are skipped). A call text is
parsed with ``pyramid_referee.grammar.parse`` in the settings' mode against the
balls on the table at that stroke: a Call is an accepted call, a refusal makes
the call status "refused" (C4, C9); null is "none" (C10). A call given as a
JSON object is taken as the accepted call (e.g. from a match store).

``read_script`` checks every line's shape; ``run`` judges the strokes. Both
raise ``ReplayError`` naming the line and the field; nothing is returned half
done. The shell (``cli_replay``) prints; the match store reuses ``run`` to
restore a match.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..grammar import parse
from ..grammar.call import Call, CallFormatError
from ..grammar.refusal import CLAUSES
from ..i18n import UserError, json_problem_ru
from ..rules import GameState, Match, Outcome, RulesInputError, Settings, Verdict
from .bounds import call_too_long

HEADER_KEYS = ("settings", "players", "start", "to_wins")
STROKE_KEYS = ("call", "outcome", "comment")
DEFAULT_PLAYERS = ("A", "B")


class ReplayError(RulesInputError, UserError):
    """A bad line of a match script: ``line`` (1-based) and the field."""

    def __init__(self, line: int, field: str, message: str, ru: str | None = None) -> None:
        self.line = line
        super().__init__(field, message, ru)
        self.args = (f"line {line}: {field}: {message}",)

    def __str__(self) -> str:
        return self.args[0]

    def text(self, lang: str = "ru") -> str:
        where = f"line {self.line}" if lang == "en" else f"строка {self.line}"
        return f"{where}: {super().text(lang)}"  # a JSON syntax error's field is its column


@dataclass(frozen=True)
class ScriptStroke:
    line: int
    call: Any  # the raw value: str, dict or None
    outcome: Outcome


@dataclass(frozen=True)
class Script:
    settings: Settings
    players: tuple[str, str]
    start: dict | None
    strokes: tuple[ScriptStroke, ...]
    header_line: int | None = None
    to_wins: int = 1


@dataclass(frozen=True)
class ReplayRow:
    line: int
    call_text: str | None
    call: Call | None
    call_status: str
    refusal: dict | None
    verdict: Verdict
    outcome: Outcome | None = None  # the stroke's outcome, for a readable report

    def to_json(self, lang: str = "ru") -> dict:
        data = {
            "line": self.line,
            "call_text": self.call_text,
            "call_status": self.call_status,
            "call": None if self.call is None else self.call.to_json(),
            "refusal": self.refusal,
        }
        data.update(self.verdict.to_json(lang))
        return data


@dataclass
class ReplayResult:
    script: Script
    match: Match
    rows: list[ReplayRow] = field(default_factory=list)

    @property
    def state(self) -> GameState:
        return self.match.state

    def final_json(self) -> dict:
        data = final_json(self.match.state)
        if self.match.to_wins > 1:  # a match of several games: the match score too
            data["series"] = self.match.series_json()
        return data


def final_json(state: GameState) -> dict:
    """The last line of a replay."""
    p = state.players
    return {
        "final": True,
        "scores": {p[0]: state.scores[0], p[1]: state.scores[1]},
        "result": None if state.result is None else state.result.to_json(),
        "on_table": sorted(state.on_table),
        "to_play": p[state.to_play],
        "phase": state.phase,
    }


def _load(line_no: int, text: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(
            line_no,
            f"column {exc.colno}",
            f"not JSON: {exc.msg}",
            f"строка не читается: {json_problem_ru(exc.msg)}",
        ) from None
    if not isinstance(data, dict):
        raise ReplayError(
            line_no, "line", "expected a JSON object", "ожидался объект в фигурных скобках"
        )
    return data


def read_script(lines: Iterable[str]) -> Script:
    """Read and check every line of a script (shape, settings, outcomes)."""
    settings, players, start, header_line, to_wins = Settings(), DEFAULT_PLAYERS, None, None, 1
    strokes: list[ScriptStroke] = []
    seen_any = False
    for no, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text:
            continue
        data = _load(no, text)
        if not seen_any and "outcome" not in data and any(k in data for k in HEADER_KEYS):
            seen_any = True
            header_line = no
            for key in data:
                if key not in HEADER_KEYS:
                    raise ReplayError(
                        no,
                        key,
                        f"unknown header field; known: {', '.join(HEADER_KEYS)}",
                        f"неизвестное поле заголовка; известны: {', '.join(HEADER_KEYS)}",
                    )
            try:
                settings = Settings.from_json(data.get("settings"))
                if "players" in data:
                    players = data["players"]
                GameState.initial(
                    settings, players, data.get("start")
                )  # validates players and start
                to_wins = Match(
                    settings, list(players), data.get("start"), data.get("to_wins", 1)
                ).to_wins
            except RulesInputError as exc:
                raise ReplayError(no, exc.field, exc.message, exc.ru) from None
            players = tuple(players)
            start = data.get("start")
            continue
        seen_any = True
        if any(k in data for k in HEADER_KEYS) and "outcome" not in data:
            raise ReplayError(
                no,
                "line",
                "a header is allowed only on the first line",
                "заголовок допустим только в первой строке",
            )
        for key in data:
            if key not in STROKE_KEYS:
                raise ReplayError(
                    no,
                    key,
                    f"unknown field; a stroke has {', '.join(STROKE_KEYS)}",
                    f"неизвестное поле; у удара есть {', '.join(STROKE_KEYS)}",
                )
        if "outcome" not in data:
            raise ReplayError(no, "outcome", "missing", "не указан исход удара")
        call = data.get("call")
        if call is not None and not isinstance(call, (str, dict)):
            raise ReplayError(
                no,
                "call",
                "expected the call text, a call object or null",
                "ожидался текст заказа, объект заказа или null",
            )
        if isinstance(call, dict):
            try:
                Call.from_json(call)
            except CallFormatError as exc:
                f, _, what = str(exc).partition(": ")
                raise ReplayError(no, f"call.{f}", what) from None
        try:
            outcome = Outcome.from_json(data["outcome"])
        except RulesInputError as exc:
            raise ReplayError(no, "outcome." + exc.field, exc.message, exc.ru) from None
        strokes.append(ScriptStroke(no, call, outcome))
    return Script(settings, players, start, tuple(strokes), header_line, to_wins)


def _grammar_parse() -> Callable:
    return parse


def read_call(raw: Any, settings: Settings, state: GameState, parse: Callable | None = None):
    """(call text, Call | None, status, refusal JSON | None) for one stroke's call."""
    if raw is None:
        return None, None, "none", None
    if isinstance(raw, dict):
        return None, Call.from_json(raw), "accepted", None
    if (
        isinstance(raw, str) and call_too_long(raw, "en") is not None
    ):  # never parsed: no call is that long
        raise RulesInputError("call", call_too_long(raw, "en"), call_too_long(raw, "ru"))
    parse = parse or _grammar_parse()
    got = parse(
        raw,
        mode=settings.mode,
        balls_left=sorted(state.on_table),
        pocket_precision=settings.pocket_precision,
    )  # Q2 is a match setting
    if isinstance(got, Call):
        return raw, got, "accepted", None
    refusal = got.to_json() if hasattr(got, "to_json") else {"message": str(got)}
    # the refusal's own clause: in ball and pocket «no pocket» rests on C7, not C2
    clause = getattr(got, "clause", None) or _refusal_clause(refusal.get("code"))
    if clause:
        refusal["clause"] = clause
    return raw, None, "refused", refusal


def _refusal_clause(code: Any) -> str | None:
    return CLAUSES.get(code)


def run(script: Script, parse: Callable | None = None) -> ReplayResult:
    """Judge every stroke of a script; ``ReplayError`` names the line of the first bad one."""
    match = Match(script.settings, list(script.players), script.start, script.to_wins)
    result = ReplayResult(script, match)
    for st in script.strokes:
        if match.decided:
            raise ReplayError(
                st.line,
                "line",
                "the game is already over; no stroke may follow (E1, E2)",
                "партия уже окончена; удары после конца недопустимы (E1, E2)",
            )
        try:
            # after a game's end the next game of the match opens with this stroke: its full rack
            text, call, status, refusal = read_call(
                st.call, script.settings, match.upcoming, parse
            )
            verdict = match.stroke(call, st.outcome, call_status=status)
        except RulesInputError as exc:
            f = exc.field
            if not f.startswith(("call", "stroke", "verdict")):
                f = "outcome." + f
            raise ReplayError(st.line, f, exc.message, exc.ru) from None
        result.rows.append(ReplayRow(st.line, text, call, status, refusal, verdict, st.outcome))
    return result


def replay_lines(lines: Iterable[str], parse: Callable | None = None) -> ReplayResult:
    return run(read_script(lines), parse)
