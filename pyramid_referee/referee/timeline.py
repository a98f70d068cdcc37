"""The session timeline: what was said and when the ball was struck, on one clock.

Pure: Vosk final results (words with start/end times) and strike times in, one decision per
strike out. No audio, no Vosk, no I/O.

Input events (one JSON object each, as ``pyramid-referee timeline EVENTS.jsonl`` reads them):

- a Vosk final result: ``{"result": [{"word", "start", "end", "conf"}…], "text": …}``, or with
  alternatives ``{"alternatives": [{"confidence", "result": […], "text"}…]}`` (best first);
- ``{"strike": SECONDS}``;
- ``{"partial": …}`` (a partial result: shown live, never a call; ignored here) and results with
  no words (silence) are skipped;
- ``{"outcome": SECONDS}``: the stroke's outcome was entered then (on the marker's pad or at the
  keyboard); ``{"taken_back": SECONDS}``: the marker took back the strike at that time (it was
  no strike: a consonant, a knock on the rail); ``{"sound": SECONDS}``: a table sound that was
  no strike (a clack, a cushion, a drop: the balls moving).

The rules, for each strike ``s`` with the previous strike ``p`` (``-inf`` for the first):

- The window (C10, "calls before one strike never carry over"): only words that start at or
  after ``p`` and before ``s``. A word that began before ``p`` belonged to the previous stroke.
- An utterance is one Vosk final result (Vosk cuts utterances at pauses). Within the window its
  words form a *segment*; the top hypothesis decides where segments are and what they are.
- Being spoken at the strike (C10, Q7): if the utterance holding the window's last words goes
  on at or after ``s`` (one of its words ends at or after ``s``) and the part that goes on is a
  call attempt (``mentions_call``), the call is void: status ``late``. This is our reading of
  C9 + C10: the last call counts (C9), and that last call was not finished before the stroke,
  so it does not count (C10); we do not fall back to an earlier finished call, because the
  player had replaced it (refuse rather than guess). If the part that goes on is only filler
  ("ну", "давай"), the words that ended before ``s`` are judged as a finished segment (Q8:
  filler words are ignored).
- Chatter does not replace a call: the deciding segment is the last one that mentions a call
  word (``mentions_call``); segments with none are ignored. No such segment: status ``none``.
- The last call-like segment decides (C9, Q8): ``accepted`` if it parses to a call, else
  ``rejected`` with the parser's refusal; a trailing incomplete call after a complete one is
  therefore rejected, and so are several calls the parser cannot take apart.
- Alternatives (C4, C9): every hypothesis of the deciding utterance is cut to the same window;
  if two of them parse to different calls, the call is unclear: ``rejected`` with code
  ``ambiguous``. Hypotheses that do not parse, or are chatter, do not overrule the top one.
- ``[unk]`` (a sound the model could not match) at the edges of a segment is dropped; inside a
  segment it stays and the parser refuses it as an unknown word (refuse rather than guess).
- A missed strike never costs the player the call (Q13): an outcome entered with no strike
  heard since the last stroke takes the standing call, the last call finished (accepted or
  refused) before the last table sound heard since then (before the outcome itself when none
  was heard); a call begun after the last table sound, or still being spoken then, is not taken
  (it is the next stroke's). Its decision has ``"strike": null``, ``"outcome"`` (when it was
  entered), ``"strike_heard": false`` and the note «удар не услышан — заказ взят по вводу
  исхода»; the next stroke's window starts at that cut.
- A strike the marker took back is void (Q14): it keeps its decision in the output, marked
  ``"taken_back": true`` with the note «снят маркёром», but it ends no window: the call it made
  late counts again for the next strike.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..catalog import N_, trl
from ..i18n import UserError, json_problem_ru
from ..match.marks import NOT_HEARD_NOTE, TAKEN_BACK_NOTE

UNK = "[unk]"


# --- events -----------------------------------------------------------------------------------


class EventError(UserError, ValueError):
    """A malformed event line; says which line and which field."""

    def __init__(
        self, line: int | None, field: str, problem: str, ru_values: dict | None = None, **values
    ):
        """``problem``: the English message (its Russian text is in the catalog), with named
        placeholders filled from ``values`` (``ru_values`` overrides them in Russian)."""
        self.line, self.field = line, field
        self.problem = problem.format(**values)
        self.ru = trl("ru", problem).format(**{**values, **(ru_values or {})})
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{field}: {self.problem}")

    def text(self, lang: str = "ru") -> str:
        """The message in the user's language: «строка N: поле: что не так»."""
        if lang == "en":
            return str(self)
        from ..rules.errors import field_ru, quote_tokens  # deferred: the call grammar (Lark)

        field = "" if self.field in ("event", "json") else f"{field_ru(self.field)}: "
        what = f"{field}{quote_tokens(self.ru)}"
        if self.line is None:
            return what
        return trl(lang, "line {line}: {what}").format(line=self.line, what=what)


@dataclass(frozen=True)
class Word:
    word: str
    start: float
    end: float
    conf: float | None = None


@dataclass(frozen=True)
class Hypothesis:
    words: tuple[Word, ...]
    confidence: float | None = None

    @property
    def text(self) -> str:
        return " ".join(w.word for w in self.words)


@dataclass(frozen=True)
class Utterance:
    """One Vosk final result: its hypotheses, best first (one when alternatives are off)."""

    hypotheses: tuple[Hypothesis, ...]
    line: int | None = None

    @property
    def top(self) -> Hypothesis:
        return self.hypotheses[0]

    @property
    def start(self) -> float:
        return self.top.words[0].start

    @property
    def end(self) -> float:
        return self.top.words[-1].end


@dataclass(frozen=True)
class Strike:
    time: float
    line: int | None = None


@dataclass(frozen=True)
class OutcomeEntered:
    """The stroke's outcome was entered at ``time`` (Q13: with no strike heard, it takes the
    call)."""

    time: float
    line: int | None = None


@dataclass(frozen=True)
class TakenBack:
    """The marker took back the strike at ``time`` (Q14: it was no strike)."""

    time: float
    line: int | None = None


@dataclass(frozen=True)
class TableSound:
    """A table sound heard at ``time`` that was no strike (the balls moving)."""

    time: float
    line: int | None = None


#: How close a take-back's time must be to the strike it names (the times are written rounded).
SAME_STRIKE_S = 0.001


def _number(obj: dict, key: str, line: int | None, field: str) -> float:
    if key not in obj:
        raise EventError(line, field, N_("missing"))
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise EventError(line, field, N_("expected a number of seconds, got {value!r}"), value=v)
    return float(v)


def _words(items: Any, line: int | None, field: str) -> tuple[Word, ...]:
    if not isinstance(items, list):
        raise EventError(line, field, N_("expected a list of words"))
    out = []
    for i, w in enumerate(items):
        f = f"{field}[{i}]"
        if not isinstance(w, dict):
            raise EventError(line, f, N_("expected an object {{word, start, end}}"))
        if not isinstance(w.get("word"), str) or not w["word"].strip():
            raise EventError(line, f + ".word", N_("missing or not a word"))
        start = _number(w, "start", line, f + ".start")
        end = _number(w, "end", line, f + ".end")
        if end < start:
            raise EventError(
                line,
                f + ".end",
                N_("ends ({end}) before it starts ({start})"),
                end=end,
                start=start,
            )
        conf = None
        if "conf" in w:
            conf = _number(w, "conf", line, f + ".conf")
        out.append(Word(w["word"].strip(), start, end, conf))
    for i in range(1, len(out)):
        if out[i].start < out[i - 1].start:
            raise EventError(line, f"{field}[{i}].start", N_("words are not in time order"))
    return tuple(out)


_MOMENTS = (
    ("strike", Strike),
    ("outcome", OutcomeEntered),
    ("taken_back", TakenBack),
    ("sound", TableSound),
)


def read_event(obj: Any, line: int | None = None):
    """One event object → an Utterance, a Strike, an OutcomeEntered, a TakenBack, a TableSound,
    or None (partial or empty result)."""
    if not isinstance(obj, dict):
        raise EventError(line, "event", N_("expected a JSON object"))
    for key, kind in _MOMENTS:
        if key in obj:
            t = _number(obj, key, line, key)
            if t < 0:
                raise EventError(line, key, N_("a time cannot be negative ({t})"), t=t)
            return kind(t, line)
    if "alternatives" in obj:
        alts = obj["alternatives"]
        if not isinstance(alts, list) or not alts:
            raise EventError(line, "alternatives", N_("expected a non-empty list"))
        hyps = []
        for i, a in enumerate(alts):
            if not isinstance(a, dict):
                raise EventError(
                    line,
                    f"alternatives[{i}]",
                    N_("expected an object {{confidence, result, text}}"),
                )
            conf = (
                _number(a, "confidence", line, f"alternatives[{i}].confidence")
                if "confidence" in a
                else None
            )
            hyps.append(
                Hypothesis(_words(a.get("result", []), line, f"alternatives[{i}].result"), conf)
            )
        if not hyps[0].words:
            return None  # the best reading is silence
        return Utterance(tuple(hyps), line)
    if "result" in obj:
        words = _words(obj["result"], line, "result")
        return Utterance((Hypothesis(words),), line) if words else None
    if "partial" in obj:
        if not isinstance(obj["partial"], str):
            raise EventError(line, "partial", N_("expected a text"))
        return None  # partial results are never final (docs/dev/voice.md)
    if "text" in obj:
        if obj["text"]:
            raise EventError(
                line, "result", N_("a result with text needs its words (SetWords(True))")
            )
        return None
    raise EventError(
        line,
        "event",
        N_('expected a Vosk result (result/alternatives/partial/text) or {{"strike": SECONDS}}'),
    )  # (also outcome, taken_back, sound)


@dataclass
class Events:
    """Everything an event stream holds, by kind."""

    utterances: list[Utterance]
    strikes: list[Strike]
    outcomes: list[OutcomeEntered]
    taken_back: list[TakenBack]
    sounds: list[TableSound]

    def decide(self, **kw) -> list[Decision]:
        return decide(
            self.utterances,
            self.strikes,
            outcomes=self.outcomes,
            taken_back=self.taken_back,
            sounds=self.sounds,
            **kw,
        )


def read_events(lines: Iterable[str]) -> tuple[list[Utterance], list[Strike]]:
    """JSON lines → utterances and strikes (blank lines skipped); EventError names the line."""
    ev = read_timeline(lines)
    return ev.utterances, ev.strikes


def timeline_of(objs: Iterable[Any]) -> Events:
    """Event objects (already decoded, as the voice pipeline collects them) → every kind of
    event."""
    out = Events([], [], [], [], [])
    where = {
        Strike: out.strikes,
        OutcomeEntered: out.outcomes,
        TakenBack: out.taken_back,
        TableSound: out.sounds,
        Utterance: out.utterances,
    }
    for obj in objs:
        ev = read_event(obj)
        if ev is not None:
            where[type(ev)].append(ev)
    return out


def read_timeline(lines: Iterable[str]) -> Events:
    """JSON lines → every kind of event (blank lines skipped); EventError names the line."""
    out = Events([], [], [], [], [])
    where = {
        Strike: out.strikes,
        OutcomeEntered: out.outcomes,
        TakenBack: out.taken_back,
        TableSound: out.sounds,
        Utterance: out.utterances,
    }
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise EventError(
                n,
                "json",
                N_("not JSON ({reason} at column {column})"),
                {"reason": json_problem_ru(exc.msg)},
                reason=exc.msg,
                column=exc.colno,
            ) from None
        ev = read_event(obj, n)
        if ev is not None:
            where[type(ev)].append(ev)
    return out


# --- decisions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """What counts for one strike."""

    strike: float | None  # None: no strike was heard for this stroke (Q13)
    status: str  # "accepted" | "rejected" | "none" | "late"
    call: dict | None = None  # the Call's JSON form when accepted
    heard: str | None = None  # the words that decided (or the chatter heard, for "none")
    reason: dict | str | None = None  # a refusal's JSON (rejected) or a plain text (late, none)
    clauses: tuple[str, ...] = ()
    outcome: float | None = None  # Q13: when the outcome was entered (the strike not heard)
    taken_back: bool = False  # Q14: the marker took this strike back (it counts for nothing)
    note: str | None = (
        None  # the mark for the screen and the record (Q13, Q14), in the user's language
    )

    @property
    def strike_heard(self) -> bool:
        return self.strike is not None

    def to_json(self) -> dict:
        out = {
            "strike": self.strike,
            "status": self.status,
            "call": self.call,
            "heard": self.heard,
            "reason": self.reason,
            "clauses": list(self.clauses),
        }
        if self.strike is None:  # Q13 (new keys only: a stream without outcomes reads as before)
            out.update(strike_heard=False, outcome=self.outcome)
        if self.taken_back:  # Q14
            out["taken_back"] = True
        if self.note:
            out["note"] = self.note
        return out


def _grammar():
    from pyramid_referee.grammar import mentions_call, parse  # deferred: the call grammar (Lark)

    return parse, mentions_call


def _to_json(x: Any, lang: str = "ru") -> dict:
    if hasattr(x, "to_json"):
        try:
            return x.to_json(lang=lang)  # a Refusal says its message in the user's language
        except TypeError:
            return x.to_json()
    if isinstance(x, dict):
        return x
    return dataclasses.asdict(x)


def _is_call(x: Any) -> bool:
    from pyramid_referee.grammar.call import Call  # deferred: the call grammar (Lark)

    return isinstance(x, Call)


def _strip_unk(words: list[Word]) -> list[Word]:
    i, j = 0, len(words)
    while i < j and words[i].word == UNK:
        i += 1
    while j > i and words[j - 1].word == UNK:
        j -= 1
    return words[i:j]


def _text(words: Iterable[Word]) -> str:
    return " ".join(w.word for w in words)


@dataclass(frozen=True)
class _Segment:
    utterance: Utterance
    words: tuple[Word, ...]  # top hypothesis, cut to the window
    cut_end: bool  # True: only words that ended before the strike (the rest was filler)


def decide_strike(
    utterances: Iterable[Utterance],
    strike: float,
    previous: float = -math.inf,
    *,
    parse: Callable | None = None,
    mentions_call: Callable[[str], bool] | None = None,
    mode: str = "clean",
    balls_left=None,
    pocket_precision: str = "side_for_corners",
    lang: str = "ru",
) -> Decision:
    """The decision for one strike at ``strike`` after a previous strike at ``previous``."""
    if parse is None or mentions_call is None:
        p, m = _grammar()
        parse, mentions_call = parse or p, mentions_call or m
    lo, s = previous, strike
    segments: list[_Segment] = []
    for u in sorted(utterances, key=lambda u: u.start):
        words = [w for w in u.top.words if lo <= w.start < s]
        if not words:
            continue
        going_on = [w for w in u.top.words if w.start >= lo and w.end >= s]
        if going_on:
            if mentions_call(_text(w for w in going_on if w.word != UNK)):
                # C10, Q7: a call attempt still being spoken at the strike is void.
                return Decision(
                    s,
                    "late",
                    None,
                    _text(w for w in u.top.words if w.start >= lo),
                    trl(lang, "call void: it was still being spoken at the strike (C10)"),
                    ("C10", "Q7"),
                )
            words = [w for w in words if w.end < s]  # Q8: the filler that goes on is ignored
        words = _strip_unk(words)
        if words:
            segments.append(_Segment(u, tuple(words), bool(going_on)))

    calls = [g for g in segments if mentions_call(_text(w for w in g.words if w.word != UNK))]
    if not calls:
        chatter = " ".join(_text(g.words) for g in segments) or None
        return Decision(s, "none", None, chatter, trl(lang, "no call before the strike"), ("C10",))
    seg = calls[-1]  # C9: the last call counts; chatter after it does not replace it
    heard = _text(seg.words)
    how = {"mode": mode, "balls_left": balls_left}
    if pocket_precision != "side_for_corners":  # Q2 setting; stand-in parsers need not know it
        how["pocket_precision"] = pocket_precision
    top = parse(heard, **how)
    if not _is_call(top):
        return Decision(s, "rejected", None, heard, _to_json(top, lang), ("C9",))

    # C4, C9: the other hypotheses of the same utterance, cut the same way.
    readings = {heard: top}
    for h in seg.utterance.hypotheses[1:]:
        words = [w for w in h.words if lo <= w.start < s and (not seg.cut_end or w.end < s)]
        text = _text(_strip_unk(words))
        if not text or text in readings or not mentions_call(text.replace(UNK, " ")):
            continue
        readings[text] = parse(text, **how)
    different = [t for t, r in readings.items() if _is_call(r) and r != top]
    if different:
        return _heard_differently(s, heard, different, lang)
    return Decision(s, "accepted", _to_json(top), heard, None, ("C9", "C10"))


def _heard_differently(strike: float, heard: str, different: list[str], lang: str) -> Decision:
    """C4, C9: the recognizer's hypotheses of the call read as different calls: refused."""
    alts = [heard] + different
    quoted = " / ".join(f"«{t}»" for t in alts)
    return Decision(
        strike,
        "rejected",
        None,
        heard,
        {
            "code": "ambiguous",
            "message": trl(
                lang, "unclear call: the recognizer hears it in different ways: {readings}"
            ).format(readings=quoted),
            "span": [0, len(heard)],
            "hint": trl(lang, "say the call again, clearly, before the strike"),
            "alternatives": alts,
        },
        ("C4", "C9"),
    )


def _time(x) -> float:
    return float(x) if isinstance(x, (int, float)) else x.time


def outcome_cut(at: float, previous: float = -math.inf, sounds: Iterable = ()) -> float:
    """Q13: where the stroke's calls end when no strike was heard: the last table sound heard
    after ``previous`` and before the outcome was entered at ``at``; ``at`` when none was."""
    heard = [_time(x) for x in sounds if previous < _time(x) < at]
    return max(heard) if heard else at


def decide_outcome(
    utterances: Iterable[Utterance],
    at: float,
    previous: float = -math.inf,
    *,
    sounds: Iterable = (),
    lang: str = "ru",
    **kw,
) -> Decision:
    """Q13: the outcome was entered at ``at`` and no strike was heard since ``previous``: the
    standing call counts, the last one finished (accepted or refused) before the cut
    (``outcome_cut``). An utterance still going on at the cut is not taken (it was begun after
    the balls moved, or was not finished): the call finished before it stands."""
    cut = outcome_cut(at, previous, sounds)
    mentions_call = kw.get("mentions_call") or _grammar()[1]
    finished = []
    for u in utterances:
        going_on = [w for w in u.top.words if w.start >= previous and w.end >= cut]
        if going_on and mentions_call(_text(w for w in going_on if w.word != UNK)):
            continue  # a call begun after the cut, or not finished at it: not this stroke's
        finished.append(u)  # (filler going on at the cut is ignored, Q8)
    d = decide_strike(finished, cut, previous, lang=lang, **kw)
    return Decision(
        None,
        d.status,
        d.call,
        d.heard,
        d.reason,
        d.clauses + ("Q13",),
        outcome=at,
        note=trl(lang, NOT_HEARD_NOTE),
    )


def decide(
    utterances: Iterable[Utterance],
    strikes: Iterable[Strike | float],
    *,
    outcomes: Iterable[OutcomeEntered | float] = (),
    taken_back: Iterable[TakenBack | float] = (),
    sounds: Iterable[TableSound | float] = (),
    **kw,
) -> list[Decision]:
    """One decision per strike, in time order (events may come in any order); with outcomes,
    also one for each outcome entered with no strike heard since the last stroke (Q13). A strike
    the marker took back keeps its decision, marked so, and ends no window (Q14).

    EventError: a take-back that names no strike."""
    utterances, sounds = list(utterances), sorted(_time(x) for x in sounds)
    strikes = sorted(((_time(s), getattr(s, "line", None)) for s in strikes), key=lambda x: x[0])
    void = []
    for tb in taken_back:
        t, line = _time(tb), getattr(tb, "line", None)
        hit = [s for s, _ in strikes if abs(s - t) <= SAME_STRIKE_S]
        if not hit:
            raise EventError(line, "taken_back", N_("no strike at {t} s to take back"), t=t)
        void.append(hit[0])
    moments = sorted(
        [(t, 0, "strike") for t, _ in strikes] + [(_time(o), 1, "outcome") for o in outcomes]
    )
    lang = kw.get("lang", "ru")
    out, previous, struck = [], -math.inf, False
    for t, _, kind in moments:
        if kind == "strike":
            d = decide_strike(utterances, t, previous, **kw)
            if t in void:  # Q14: no strike; the window goes on to the next one
                out.append(
                    Decision(
                        d.strike,
                        d.status,
                        d.call,
                        d.heard,
                        d.reason,
                        d.clauses + ("Q14",),
                        taken_back=True,
                        note=trl(lang, TAKEN_BACK_NOTE),
                    )
                )
                continue
            out.append(d)
            previous, struck = t, True
        elif struck:  # the outcome of the strike before it
            struck = False
        else:  # Q13: no strike heard for this stroke
            rest = {k: v for k, v in kw.items() if k != "lang"}
            out.append(decide_outcome(utterances, t, previous, sounds=sounds, lang=lang, **rest))
            previous = outcome_cut(t, previous, sounds)
    return out


def standing(
    utterances: Iterable[Utterance], now: float, previous: float = -math.inf, **kw
) -> Decision:
    """The call that would count if the ball were struck at ``now`` (for the live display)."""
    return decide_strike(utterances, now, previous, **kw)
