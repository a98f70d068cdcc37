"""A stored match in play: the rules engine's ``Match`` kept in step with the store.

``Session.create`` starts a match; ``Session.open`` restores one by replaying its
active strokes (the stored calls and outcomes, never re-parsed text) through a
fresh ``Match``, and checks that every replayed verdict judges as the one stored
(= the one shown; only its sentence may be worded differently since, ``judged``),
and the state after the last stroke the stored (= last shown) state. A
disagreement is reported in ``mismatches``, never silently fixed: the stored
record stays as it was.

``Session.enter`` judges a stroke in memory, writes and commits it, and only then
returns the verdict for showing; if the commit fails the in-memory stroke is
taken back. ``undo`` / ``redo`` commit first, then move the in-memory match.
Bad input (a call or outcome the engine refuses) raises ``StrokeInputError``
and changes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalog import trl
from ..grammar import parse, render
from ..grammar.call import Call, CallFormatError
from ..i18n import UserError, json_problem
from ..rules import Match, Outcome, RulesError, RulesInputError, Settings
from ..rules.judge import judge
from ..rules.notation import NotationError, parse_outcome_located
from .bounds import call_too_long

# strike_marks: the shell imports it from here
from .marks import NOT_HEARD_NOTE, strike_marks  # noqa: F401
from .store import StandingRecord, Store, StoredStroke, StoreError, StrokeRow, db_option

POINTER_WIDTH = 100  # the most of a typed text shown above the caret


class StrokeInputError(UserError):
    """A stroke that cannot be entered (bad call, outcome or notation); nothing changed.

    For an outcome typed in the notation, ``source`` is the text as typed and ``column`` (1-based)
    where in it the problem is, so a front end can point at it (``pointer``)."""

    def __init__(
        self, message: str, *, source: str | None = None, column: int | None = None
    ) -> None:
        super().__init__(message)
        self.source = source
        self.column = column

    def pointer(self) -> list[str]:
        """The typed text and a caret under the column (two lines), or [] when there is none."""
        if self.source is None or self.column is None:
            return []
        text = self.source.rstrip()
        col = max(1, min(self.column, len(text) + 1))
        if len(text) > POINTER_WIDTH:  # a long text: the stretch around the column, «…» where cut
            start = max(0, col - 1 - POINTER_WIDTH // 2)
            cut = text[start : start + POINTER_WIDTH]
            head = "…" if start else ""
            tail = "…" if start + POINTER_WIDTH < len(text) else ""
            return [head + cut + tail, " " * (len(head) + col - 1 - start) + "^"]
        return [text, " " * (col - 1) + "^"]


def judged(verdict: dict) -> dict:
    """What a verdict decided (points, penalty, balls, who plays next, result, clauses), without
    its sentence: a stored stroke agrees with its replay when the judgement is the same, even if
    the wording of the message has been improved since it was shown (the stored sentence stays)."""
    return {k: v for k, v in verdict.items() if k != "message"}


@dataclass(frozen=True)
class Mismatch:
    """A stored stroke whose replay disagrees with what was stored (and shown)."""

    seq: int
    part: str  # "verdict" | "state" | "error"
    stored: Any
    replayed: Any

    def to_json(self) -> dict:
        return {
            "seq": self.seq,
            "part": self.part,
            "stored": self.stored,
            "replayed": self.replayed,
        }

    def describe(self, lang: str = "ru") -> str:
        if self.part == "error":
            return trl(lang, "stroke {seq}: the replay refuses it: {why}").format(
                seq=self.seq, why=self.replayed
            )
        diff = _diff(self.stored, self.replayed)
        if self.part == "verdict":
            return trl(
                lang, "stroke {seq}: the replayed verdict differs from the stored one ({diff})"
            ).format(seq=self.seq, diff=diff)
        return trl(
            lang, "stroke {seq}: the replayed state differs from the stored one ({diff})"
        ).format(seq=self.seq, diff=diff)


def _diff(a: Any, b: Any) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        keys = [k for k in sorted(set(a) | set(b), key=str) if a.get(k) != b.get(k)]
        return ", ".join(
            f"{k}: {json.dumps(a.get(k), ensure_ascii=False)} → "
            f"{json.dumps(b.get(k), ensure_ascii=False)}"
            for k in keys[:4]
        )
    return f"{a!r} → {b!r}"


@dataclass(frozen=True)
class Entered:
    """A stroke that is stored and committed: what to show."""

    seq: int
    record: StoredStroke
    verdict: Any  # the engine's Verdict
    state: Any  # the engine's GameState after the stroke


def _rules_error_text(exc: Exception, lang: str) -> str:
    if isinstance(exc, RulesInputError):
        return exc.text(lang)
    return str(exc)


_EVENT_FIELD = re.compile(r"^events\[(\d+)\]")


def event_column(exc: Exception, columns: list[int] | None) -> int | None:
    """The column (1-based) of the typed item an engine error about ``events[i]`` is about."""
    m = _EVENT_FIELD.match(getattr(exc, "field", "") or "")
    if m and columns and int(m.group(1)) < len(columns):
        return columns[int(m.group(1))]
    return None


def typed_item(source: str, column: int) -> str:
    """The item of the typed outcome that starts at ``column``: up to the next «;» or «,»."""
    return re.split(r"[;,]", source[column - 1 :], maxsplit=1)[0].strip()


# The outcome's marks as the notation writes them (notation.lark): where the marker typed a mark
# the engine refuses, the message points at those words, not at the JSON field.
_MARK_WORDS = {
    # «в доме» says from hand
    "from_hand": r"с\s+рук[иу]?|from\s+hand|(?:первый\s+)?(?:шар\s+)?в\s+доме"
    r"|in\s+(?:the\s+)?house",
    "first_hit_in_house": r"(?:первый\s+)?(?:шар\s+)?в\s+доме|in\s+(?:the\s+)?house",
    "positions_unchanged": r"позиция\s+не\s+изменилась|позиция\s+без\s+изменений"
    r"|без\s+изменений|unchanged",
    "warned": r"предупреждение|предупрежден|warned|warning",
}


def typed_mark(source: str, field: str) -> tuple[int, str] | None:
    """(column, the words as typed) of the mark the field stands for in a
    typed outcome, or None."""
    pattern = _MARK_WORDS.get(field)
    m = re.search(pattern, source.lower().replace("ё", "е")) if pattern else None
    return None if m is None else (m.start() + 1, source[m.start() : m.end()])


def mark_column(exc: Exception, source: str | None) -> int | None:
    """The column of the typed mark a refused outcome field stands for (``typed_mark``)."""
    found = (
        typed_mark(source, getattr(exc, "field", "") or "")
        if source and not source.lstrip().startswith("{")
        else None
    )
    return None if found is None else found[0]


def engine_error_text(
    exc: Exception, lang: str, columns: list[int] | None = None, source: str | None = None
) -> str:
    """An engine error as the scorer should read it: which part (call / outcome), and for an
    event typed in the notation, the marker's own words for it (the item quoted, its column),
    never the engine's field names; else the field in words."""
    text = _rules_error_text(exc, lang)
    field = getattr(exc, "field", "") or ""
    if field.startswith("call"):
        return trl(lang, "call: {what}").format(what=text)
    if field in ("stroke", "undo", "redo"):
        return text
    col = event_column(exc, columns)
    if col is not None and source is not None and isinstance(exc, RulesInputError):
        return trl(lang, "outcome, column {column}, «{part}»: {what}").format(
            column=col, part=typed_item(source, col), what=exc.what(lang)
        )
    mark = typed_mark(source, field) if source and isinstance(exc, RulesInputError) else None
    if mark is not None:
        what = exc.what(lang)
        n = exc.params.get("n") if field == "positions_unchanged" else None
        if (
            isinstance(n, int) and columns and 1 <= n <= len(columns)
        ):  # «…», yet «биток 3» moved a ball
            what = trl(lang, "yet «{item}» moved a ball").format(
                item=typed_item(source, columns[n - 1])
            )
        return trl(lang, "outcome, column {column}, «{part}»: {what}").format(
            column=mark[0], part=mark[1], what=what
        )
    if col is not None:
        text = trl(lang, "{what} (column {column})").format(what=text, column=col)
    return trl(lang, "outcome: {what}").format(what=text)


def setup_error_text(exc: RulesInputError, lang: str) -> str:
    """A refused --players, --settings or --start as the user reads it: the option and the key
    they typed, never the engine's internal field path."""
    field = exc.field or ""
    what = exc.text(lang).split(": ", 1)[-1] if exc.field else exc.text(lang)
    # the keys and values the engine names (target, clean, true) are what the user types: quoted
    if lang != "en":
        what = re.sub(r"(?<![«\w'])([A-Za-z_][A-Za-z_0-9]*)(?![»\w'])", r"«\1»", what)
    head, _, rest = field.partition(".")
    if head.startswith("players"):
        return trl(lang, "--players: {what}").format(what=what)
    if head in ("settings", "start") and rest:
        key = re.split(r"[.\[]", rest, maxsplit=1)[0]
        return f"--{head}, «{key}»: {what}"
    if head in ("settings", "start"):
        return f"--{head}: {what}"
    return exc.text(lang)


def outcome_from_text(text: str, lang: str) -> tuple[dict, Any, list[int]]:
    """The outcome as typed (notation, or a JSON object) → (JSON dict, Outcome, event columns);
    what is wrong with it said in ``lang``."""
    src = text.strip()
    columns: list[int] = []
    if src.startswith("{"):
        try:
            data = json.loads(src)
        except json.JSONDecodeError as exc:
            raise StrokeInputError(
                trl(lang, "outcome: bad JSON (column {colno}: {msg})").format(
                    colno=exc.colno, msg=json_problem(exc.msg, lang)
                )
            ) from None
    else:
        try:
            data, columns = parse_outcome_located(text)
        except NotationError as exc:
            raise StrokeInputError(
                trl(lang, "outcome: ") + exc.message(lang), source=text, column=exc.column
            ) from None
    try:
        outcome = Outcome.from_json(data)
    except RulesInputError as exc:
        raise StrokeInputError(
            engine_error_text(exc, lang, columns, text),
            source=text,
            column=event_column(exc, columns) or mark_column(exc, text),
        ) from None
    return data, outcome, columns


@dataclass
class CallReading:
    """What the call text came to: a call (accepted), a refusal, or no call."""

    text: str | None
    call: Any = None  # Call or None
    refusal: dict | None = None
    status: str = "none"
    canonical: str | None = None

    def describe(self, lang: str) -> str:
        if self.status == "accepted":
            if self.canonical:
                return trl(lang, "call accepted: {call}").format(call=self.canonical)
            return trl(lang, "call accepted")
        if self.status == "refused":
            why = (self.refusal or {}).get("message", "")
            return trl(lang, "call refused: {why}").format(why=why)
        return trl(lang, "no call")


@dataclass(frozen=True)
class Standing:
    """The call standing for the next stroke, as the store keeps it for every program."""

    reading: CallReading
    source: str  # "pad" (typed on the marker's pad) | "listen" (heard by the voice referee)
    strike: float | None  # the strike's time on the audio clock, when heard
    version: int  # raised on every change of the match's standing call
    time: str = ""
    taken_back: tuple[float, ...] = ()  # strikes the marker took back since the last stroke (Q14)

    @property
    def heard_unstruck(self) -> bool:
        """A call the voice referee heard with no strike heard after it (yet): the outcome
        entered now takes it, marked so (Q13)."""
        return self.source == "listen" and self.strike is None

    @property
    def voided_by_strike(self) -> bool:
        """A call the voice referee heard and a strike made late (C10, Q7): the marker may take
        that strike back (Q14)."""
        return (
            self.source == "listen"
            and self.strike is not None
            and self.reading.status == "refused"
            and (self.reading.refusal or {}).get("code") == "late"
        )

    def strike_note(self, outcome: float | None = None) -> dict | None:
        """What the record keeps of the strike when a stroke takes this call (None: typed, no
        voice referee)."""
        if self.source != "listen":  # typed: only the strikes taken back before it are the voice's
            return (
                {"taken_back": [round(float(t), 6) for t in self.taken_back]}
                if self.taken_back
                else None
            )
        return strike_note(self.strike, outcome=outcome, taken_back=self.taken_back)


def strike_note(
    strike: float | None, *, outcome: float | None = None, taken_back=(), lang: str = "ru"
) -> dict:
    """The record's note of a stroke's strike (the store's ``strikes.strike``): heard at
    ``strike``; or, None, not heard — the standing call was taken when the outcome was entered
    (Q13); with the strikes the marker took back before it (Q14)."""
    if strike is not None:
        out: dict = {"heard": True, "t": round(float(strike), 6)}
    else:
        out = {"heard": False, "outcome": outcome, "note": trl(lang, NOT_HEARD_NOTE)}
    if taken_back:
        out["taken_back"] = [round(float(t), 6) for t in taken_back]
    return out


#: What a marker types for a stroke without a call, besides «-»: the words the game record uses.
NO_CALL_WORDS = ("без заказа", "нет заказа", "no call")


def read_call(text: str | None, *, settings: Any, on_table: Any, lang: str) -> CallReading:
    """The call as typed → accepted Call, refusal (C4, C9) or none.

    ``-``, «без заказа» (``NO_CALL_WORDS``) or an empty text is no call; a JSON object is a call in
    the call's JSON form (checked by ``Call.from_json``); anything else goes to the call parser.
    """
    src = (text or "").strip()
    too_long = call_too_long(src, lang)
    if too_long is not None:  # before the parser, and never stored (not even as a refused call)
        raise StrokeInputError(trl(lang, "{why}; nothing recorded").format(why=too_long))
    if src in ("", "-", "—") or " ".join(src.lower().replace("ё", "е").split()) in NO_CALL_WORDS:
        return CallReading(text=None if not src else src)
    if src.startswith("{"):
        try:
            call = Call.from_json(json.loads(src))
        except json.JSONDecodeError as exc:
            raise StrokeInputError(
                trl(lang, "call: bad JSON (column {colno}: {msg})").format(
                    colno=exc.colno, msg=json_problem(exc.msg, lang)
                )
            ) from None
        except CallFormatError as exc:
            raise StrokeInputError(trl(lang, "call: ") + str(exc)) from None
        return CallReading(text=src, call=call, status="accepted", canonical=_render(call))
    result = parse(
        src,
        mode=settings.mode,
        balls_left=sorted(on_table),
        pocket_precision=settings.pocket_precision,
    )  # Q2 is a match setting
    if isinstance(result, Call):
        return CallReading(text=src, call=result, status="accepted", canonical=_render(result))
    return CallReading(text=src, refusal=result.to_json(lang), status="refused")


def _render(call: Any) -> str | None:
    try:
        return render(call)
    except Exception:  # rendering is a courtesy; the stored call is the JSON
        return None


@dataclass(frozen=True)
class NewMatch:
    """A new match asked for: its two players, its settings (JSON), the game picked up from a
    score sheet (or None) and the games it is played to."""

    players: list[str]
    settings: dict
    start: dict | None = None
    to_wins: int = 1

    def check(self, lang: str = "ru") -> None:
        """Its players, settings, start and length checked, no store touched (a ``UserError``)."""
        Session.check_new(self.players, self.settings, self.start, lang=lang, to_wins=self.to_wins)


class Session:
    """One match: the store's record and the engine's ``Match``, in step."""

    def __init__(self, store: Store, match_id: int, *, lang: str = "ru") -> None:
        self.store = store
        self.id = match_id
        self.lang = lang
        row = store.get_match(match_id)
        self.row = row
        try:
            self.settings = Settings.from_json(row.settings)
            self.match = Match(self.settings, row.players, row.start, to_wins=row.to_wins)
        except RulesInputError as exc:
            raise StoreError(
                trl(lang, "match {match_id}: the stored settings are not valid: {v}").format(
                    match_id=match_id, v=exc.text(lang)
                )
            ) from None
        self.mismatches: list[Mismatch] = []
        self.verdicts: dict[int, Any] = {}  # seq → the replayed Verdict, to show in any language
        self.seq = 0
        self._restore()

    # ------------------------------------------------------------------ opening
    @staticmethod
    def check_new(
        players: list[str],
        settings: dict | None = None,
        start: dict | None = None,
        *,
        lang: str = "ru",
        to_wins: int = 1,
    ) -> Settings:
        """Check a new match's players, settings, start and length without touching any store."""
        try:
            st = Settings.from_json(settings or {})
            Match(st, players, start, to_wins=to_wins)
        except RulesInputError as exc:
            raise UserError(setup_error_text(exc, lang)) from None
        return st

    @classmethod
    def create(
        cls,
        store: Store,
        players: list[str],
        settings: dict | None = None,
        start: dict | None = None,
        *,
        lang: str = "ru",
        to_wins: int = 1,
    ) -> Session:
        st = cls.check_new(
            players, settings, start, lang=lang, to_wins=to_wins
        )  # before anything is written
        mid = store.new_match(list(players), st.to_json(), start, to_wins=to_wins)
        return cls(store, mid, lang=lang)

    @classmethod
    def open(cls, store: Store, match_id: int | None = None, *, lang: str = "ru") -> Session:
        if match_id is None:
            match_id = store.latest_open()
            if match_id is None:
                raise StoreError(
                    trl(
                        lang,
                        "there is no unfinished match (start one: pyramid-referee match new{db} "
                        "--players A B)",
                    ).format(db=db_option(store.path))
                )
        return cls(store, match_id, lang=lang)

    @classmethod
    def open_or_create(
        cls,
        db: str | Path | None,
        match_id: int | None = None,
        new: NewMatch | None = None,
        *,
        lang: str = "ru",
    ) -> Session:
        """The one way every front end opens its match: ``new`` created (checked first, and only
        then is the database created if there was none), else the stored ``match_id``, else the
        latest unfinished one. The session owns its store: the caller closes ``session.store``."""
        if new is not None:
            new.check(lang)  # a bad option creates nothing, not even the database
        store = Store(db, create=new is not None, lang=lang)
        try:
            if new is not None:
                return cls.create(
                    store, new.players, new.settings, new.start, lang=lang, to_wins=new.to_wins
                )
            return cls.open(store, match_id, lang=lang)
        except BaseException:
            store.close()
            raise

    def _restore(self) -> None:
        """Replay the stored active strokes; record where the replay disagrees.

        Every verdict is compared with the stored one, and the state after the last
        stroke with the stored (= last shown) state: the states in between follow
        from the verdicts (``apply`` is a pure function of state and verdict).
        """
        stroke = self.match.stroke
        from_call, from_outcome, loads = Call.from_json, Outcome.from_json, json.loads
        for seq, call, status, outcome, verdict_text, lang in self.store.iter_replay(self.id):
            self.seq = seq
            try:
                verdict = stroke(
                    None if call is None else from_call(call),
                    from_outcome(outcome),
                    call_status=status,
                )
            except (RulesError, CallFormatError, ValueError) as exc:
                self.mismatches.append(
                    Mismatch(seq, "error", None, _rules_error_text(exc, self.lang))
                )
                return  # the rest cannot be replayed from a state that is already wrong
            self.verdicts[seq] = verdict
            replayed = verdict.to_json(lang)
            try:
                stored = loads(
                    verdict_text
                )  # decoding is ~3x faster than encoding the replayed one
            except ValueError as exc:
                self.mismatches.append(
                    Mismatch(seq, "verdict", verdict_text, f"damaged record: {exc}")
                )
                continue
            if replayed != stored and judged(replayed) != judged(stored):
                self.mismatches.append(Mismatch(seq, "verdict", stored, replayed))
        last = self.store.last_state(self.id)
        if last is not None and self.match.state.to_json() != last[1]:
            self.mismatches.append(Mismatch(last[0], "state", last[1], self.match.state.to_json()))

    def _judge(self, rec: StoredStroke):
        call = None if rec.call is None else Call.from_json(rec.call)
        outcome = Outcome.from_json(rec.outcome)
        return self.match.stroke(call, outcome, call_status=rec.call_status)

    def _check(self, row: StrokeRow, verdict) -> None:
        self._compare(row.seq, verdict, row.record.verdict, row.record.state, row.record.lang)

    def _compare(
        self, seq: int, verdict, stored_verdict: dict, stored_state: dict, lang: str
    ) -> None:
        replayed = verdict.to_json(lang)
        if replayed != stored_verdict and judged(replayed) != judged(stored_verdict):
            self.mismatches.append(Mismatch(seq, "verdict", stored_verdict, replayed))
        state = self.match.state.to_json()
        if state != stored_state:
            self.mismatches.append(Mismatch(seq, "state", stored_state, state))

    # ------------------------------------------------------------------ views
    @property
    def state(self):
        return self.match.state

    @property
    def players(self) -> list[str]:
        return list(self.row.players)

    @property
    def to_wins(self) -> int:
        return self.match.to_wins

    @property
    def upcoming(self):
        """The state the next stroke is judged from (a new game's once one has ended)."""
        return self.match.upcoming

    def settings_json(self) -> dict:
        """The rules' settings and the match's length (``to_wins``), as shown in JSON."""
        return {**self.settings.to_json(), "to_wins": self.match.to_wins}

    def series_json(self) -> dict:
        return self.match.series_json()

    def result_json(self):
        """The match's result once it is decided (else None): the last game's result
        (who won, or a draw) with the games won by each player."""
        if not self.match.decided:
            return None
        r = self.match.state.result
        out = {} if r is None else r.to_json()
        if self.match.to_wins > 1:
            wins = self.match.wins()
            out = {"winner": max(wins, key=wins.get), "wins": wins}
        return out

    # ------------------------------------------------------------------ changes
    def read_call(self, text: str | None) -> CallReading:
        return read_call(
            text, settings=self.settings, on_table=self.match.upcoming.on_table, lang=self.lang
        )

    def enter(
        self,
        call_text: str | None,
        outcome_text: str,
        *,
        reading: CallReading | None = None,
        strike: dict | None = None,
    ) -> Entered:
        """Judge, store and commit one stroke; return it for showing. Raises StrokeInputError.
        ``strike``: what the voice referee heard of the strike (``strike_note``; Q13, Q14)."""
        reading = reading or self.read_call(call_text)
        outcome, verdict = self._judge_typed(reading, outcome_text)
        state = self.match.state
        rec = StoredStroke(
            call_text=reading.text,
            call=None if reading.call is None else reading.call.to_json(),
            refusal=reading.refusal,
            call_status=reading.status,
            outcome_text=outcome_text.strip(),
            outcome=outcome.to_json(),
            verdict=verdict.to_json(self.lang),
            state=state.to_json(),
            lang=self.lang,
            strike=strike,
        )
        try:
            seq = self.store.add_stroke(
                self.id, rec, result=self.result_json(), expect_seq=self.seq + 1
            )
        except BaseException:
            self.match.undo()  # nothing was committed: take the stroke back in memory too
            raise
        self.seq = seq
        return Entered(seq, rec, verdict, state)

    def check(self, reading: CallReading, outcome_text: str) -> None:
        """Would the stroke be entered? Judged from the position it is played from, by the engine's
        pure judgement: a StrokeInputError names what is wrong (a ball no longer on the table, …);
        nothing changes either way, neither the match in memory nor the store.
        A front end checks the outcome so before it asks the marker anything about the stroke."""
        self._judge_typed(reading, outcome_text, dry=True)

    def _judge_typed(self, reading: CallReading, outcome_text: str, *, dry: bool = False):
        """The stroke judged (the match moves on by it, unless ``dry``): (Outcome, Verdict)."""
        self._check_open()
        if self.match.decided:
            raise StrokeInputError(
                trl(
                    self.lang,
                    "the match is over; start a new one: pyramid-referee match new{db} --players "
                    "Ivan Petr",
                ).format(db=db_option(self.store.path))
            )
        _, outcome, columns = outcome_from_text(outcome_text, self.lang)
        try:
            if dry:  # the engine's pure judgement of the position the stroke is played from
                verdict = judge(
                    self.match.upcoming,
                    reading.call,
                    outcome,
                    self.settings,
                    call_status=reading.status,
                )
            else:
                verdict = self.match.stroke(reading.call, outcome, call_status=reading.status)
        except RulesError as exc:
            raise StrokeInputError(
                engine_error_text(exc, self.lang, columns, outcome_text),
                source=outcome_text,
                column=event_column(exc, columns) or mark_column(exc, outcome_text),
            ) from None
        return outcome, verdict

    # ------------------------------------------------------------------ the standing call
    def set_standing(
        self, reading: CallReading | None, *, source: str = "pad", strike: float | None = None
    ) -> int:
        """Store the call standing for the next stroke (None: withdraw it); its new version.
        ``source``: "pad" (typed) or "listen" (heard, with the ``strike`` time). A stroke
        entered by any program clears it."""
        rec = (
            None
            if reading is None
            else StandingRecord(
                text=reading.text,
                status=reading.status,
                call=None if reading.call is None else reading.call.to_json(),
                refusal=reading.refusal,
                canonical=reading.canonical,
                source=source,
                strike=strike,
            )
        )
        return self.store.set_standing(self.id, rec)

    def standing(self) -> Standing | None:
        """The stored standing call (as written by the pad or by ``listen --pad``), or None."""
        version, rec = self.store.standing(self.id)
        if rec is None:
            return None
        try:
            call = None if rec.call is None else Call.from_json(rec.call)
        except CallFormatError as exc:
            raise StoreError(
                trl(
                    self.lang, "{path}: match {match_id}: the standing call is damaged ({exc})"
                ).format(path=self.store.path, match_id=self.id, exc=exc)
            ) from None
        reading = CallReading(
            text=rec.text,
            call=call,
            refusal=rec.refusal,
            status=rec.status,
            canonical=rec.canonical,
        )
        return Standing(reading, rec.source, rec.strike, version, rec.time, tuple(rec.taken_back))

    def take_back_strike(self, standing: Standing) -> int:
        """Q14: the marker takes back the strike that made the standing call late. The strike is
        void: the call it voided stands again, read from the words heard (C9), with no strike
        after it (the next strike, or the outcome entered, takes it); the record of the next
        stroke keeps the strike, «снят маркёром». StrokeInputError when no strike voided it."""
        if not standing.voided_by_strike:
            raise StrokeInputError(
                trl(
                    self.lang,
                    "no strike to take back: the standing call was not made late by a strike",
                )
            )
        reading = self.read_call(standing.reading.text)
        rec = StandingRecord(
            text=reading.text,
            status=reading.status,
            call=None if reading.call is None else reading.call.to_json(),
            refusal=reading.refusal,
            canonical=reading.canonical,
            source="listen",
            strike=None,
        )
        return self.store.take_back_strike(self.id, standing.strike, rec)

    def standing_version(self) -> int:
        return self.store.standing(self.id)[0]

    def outdated(self) -> bool:
        """Did another program (``play``, ``undo``, ``serve``, ``listen``) change the match's
        strokes since this session read them?"""
        last = self.store.last_state(self.id)
        mine = None if not self.match.history else (self.seq, self.state.to_json())
        return (None if last is None else (last[0], last[1])) != mine

    def mark_shown(self, seq: int) -> None:
        """The verdict of ``seq`` is on the screen; a resume after a kill will not name it."""
        self.store.mark_shown(self.id, seq)

    def unshown(self) -> list[StrokeRow]:
        """Strokes stored but never shown (a kill came between the commit and the screen)."""
        return self.store.unshown(self.id)

    def resume_notices(self) -> list[StrokeRow]:
        """What a front end names on resuming: the strokes stored but never shown, each to be
        told as in the record (not to be entered again) and then marked shown (``mark_shown``), so
        a kill before that names it again. None while the record disagrees with its replay: such
        a match is not resumed."""
        return [] if self.mismatches else self.unshown()

    def _check_open(self) -> None:
        if self.mismatches:
            raise StrokeInputError(
                trl(
                    self.lang,
                    "match {id}: the record disagrees with its replay: changes are closed "
                    "(pyramid-referee match show {id}{db})",
                ).format(id=self.id, db=db_option(self.store.path))
            )

    def undo(self) -> int | None:
        """Take back the last stroke (committed first); its seq or None."""
        self._check_open()
        if not self.match.history:
            return None
        # A match is decided only on its last stroke, so the position before it is undecided.
        seq = self.store.undo(self.id, result=None, expect_seq=self.seq)
        if seq is not None:
            self.match.undo()
            self.seq = seq - 1
        return seq

    def redo(self) -> int | None:
        """Put back the first undone stroke, re-judged and checked against its record."""
        self._check_open()
        undone = self.store.strokes(self.id, statuses=("undone",))
        if not undone:
            return None
        row = undone[0]
        try:
            verdict = self._judge(row.record)
        except (RulesError, CallFormatError, ValueError) as exc:
            raise StrokeInputError(
                trl(self.lang, "cannot redo stroke {seq}: ").format(seq=row.seq)
                + _rules_error_text(exc, self.lang)
            ) from None
        before = len(self.mismatches)
        self._check(row, verdict)
        if len(self.mismatches) > before:
            self.match.undo()
            bad = self.mismatches[before:]
            del self.mismatches[before:]
            raise StrokeInputError("; ".join(m.describe(self.lang) for m in bad))
        try:
            self.store.redo(self.id, result=self.result_json(), expect_seq=row.seq)
        except BaseException:
            self.match.undo()
            raise
        self.seq = row.seq
        return row.seq
