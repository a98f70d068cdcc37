"""The voice pipeline: audio → Vosk and the strike detector on one clock → the timeline.

``transcribe`` runs it over a WAV file; ``listen`` (``LiveReferee``, run step by step by
live.py) runs it on a microphone and, after each strike, takes the outcome from the scorer and
judges the stroke.

One stream of blocks feeds both the recognizer and the strike detector (docs/dev/voice.md);
the recognizer's word times and the detector's strike times are both counted in samples from
the start of the audio, so they share one clock. The event stream (Vosk final results with
audio-clock times, and ``{"strike": t}``) is exactly what ``pyramid-referee timeline`` reads.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..catalog import trl
from . import timeline as tl

DEFAULT_BLOCK_MS = 10  # ms; the strike is reported ≈7 ms + one block after the click (bar: 20 ms)
DEFAULT_ALTERNATIVES = 3


def call_words() -> list[str]:
    """Every word form of the call language: the recognizer's runtime grammar."""
    from pyramid_referee.grammar import vocabulary  # deferred: the call grammar (Lark)

    return list(vocabulary())


def open_model(model_dir: str | None = None, *, verbose: bool = False, lang: str = "ru"):
    """Find (``--model``, ``PYRAMID_VOSK_MODEL``, Vosk's places, the user cache) and load the
    model."""
    # deferred: the recognizer (numpy) loads only to hear
    from pyramid_referee.voice.model import find_model, load_model

    location = find_model(model_dir, lang=lang)
    return load_model(location.path, verbose=verbose, lang=lang), location


@dataclass
class Transcript:
    """What the pipeline heard in one stream, and the decision for each strike."""

    source: str
    duration: float
    events: list[dict]  # Vosk final results (audio-clock times) and {"strike": t}, in stream order
    decisions: list[tl.Decision]
    missing_words: tuple[str, ...] = ()

    @property
    def utterances(self) -> list[tl.Utterance]:
        return [u for u in (tl.read_event(e) for e in self.events) if isinstance(u, tl.Utterance)]

    @property
    def words(self) -> list[tl.Word]:
        """The words heard (best hypothesis of each utterance), in time order."""
        return [w for u in self.utterances for w in u.top.words]

    def to_json(self) -> dict:
        return {
            "source": self.source,
            "duration": round(self.duration, 3),
            "strikes": [d.to_json() for d in self.decisions],
            "words": [
                {"word": w.word, "start": w.start, "end": w.end, "conf": w.conf}
                for w in self.words
            ],
            "text": " ".join(w.word for w in self.words),
            "missing_words": list(self.missing_words),
        }


class Pipeline:
    """Recognizer + strike detector fed the same blocks; collects the event stream.

    The detector is told what the recognizer heard before it hears the block: the words of each
    final result (on the same clock) and whether an utterance is being heard (the partial result
    is not empty). A knock inside a recognized word is then speech unless the stroke's cascade
    follows it, and a knock that would be a strike while words are being heard waits for them
    (up to the detector's 1.5 s). ``listen``, ``transcribe`` and the pad's listening all feed
    this one path; ``strikes FILE`` has no recognizer and decides from the sound alone."""

    def __init__(self, recognizer, detector, *, on_partial: Callable[[str], None] | None = None):
        self.recognizer = recognizer
        self.detector = detector
        self.events: list[dict] = []
        self.on_partial = on_partial
        self._partial = ""

    def feed(self, samples, t0: float, *, hear: bool = True) -> tuple[list[dict], list[float]]:
        """One block to both. ``hear=False``: the recognizer gets silence of the same length (the
        clock goes on), e.g. while the referee itself speaks; the strike detector hears all."""
        if not hear:
            import numpy as np  # deferred: numpy loads only with the audio

            samples_heard = np.zeros(len(samples), np.float32)
        else:
            samples_heard = samples
        results = self.recognizer.accept(samples_heard)
        partial = self.recognizer.partial()
        self.tell_words(
            results, hearing=bool(partial), partial=getattr(self.recognizer, "partial_words", None)
        )
        strikes = []
        if self.detector is not None:
            taken_back = len(getattr(self.detector, "retracted", ()))
            strikes = self.detector.feed(samples, t0)
            gone = set(getattr(self.detector, "retracted", ())[taken_back:])
            if gone:  # the detector's second look took a strike back (it was a word): drop it
                self.events = [e for e in self.events if e.get("strike") not in gone]
                strikes = [t for t in strikes if t not in gone]
        self.events += results
        self.events += [{"strike": round(t, 6)} for t in strikes]
        if self.on_partial is not None:
            if partial != self._partial:
                self._partial = partial
                self.on_partial(partial)
        return results, strikes

    def tell_words(
        self, results: list[dict], hearing: bool | None = None, partial: list[dict] | None = None
    ) -> None:
        """Give the detector the words of these final results (and whether an utterance is
        being heard, and the times of its words given so far: ``partial``); a detector that
        takes no words is left alone."""
        det = self.detector
        if det is None or not hasattr(det, "hear_words"):
            return
        from pyramid_referee.voice.recognizer import best_words  # deferred: the recognizer (numpy)

        for r in results:
            det.hear_words(best_words(r))
        if partial is not None:
            det.hear_words(partial, final=False)
        if hearing is not None:
            det.hearing(hearing)

    def flush_recognizer(self) -> list[dict]:
        results = self.recognizer.flush()
        self.tell_words(results, hearing=False)
        self.events += results
        self._partial = ""
        return results

    def flush_detector(self) -> list[float]:
        """The end of the audio: the sounds the detector still holds, decided with what was heard
        (the strikes among them returned, and kept in ``events``)."""
        if self.detector is None:
            return []
        taken_back = len(getattr(self.detector, "retracted", ()))
        strikes = self.detector.flush()
        gone = set(getattr(self.detector, "retracted", ())[taken_back:])
        if gone:
            self.events = [e for e in self.events if e.get("strike") not in gone]
            strikes = [t for t in strikes if t not in gone]
        self.events += [{"strike": round(t, 6)} for t in strikes]
        return strikes

    def finish(self) -> None:
        self.flush_recognizer()
        self.flush_detector()


def decide_events(events: Iterable[dict], **kw) -> list[tl.Decision]:
    """The timeline over an event stream (also its outcomes and take-backs, Q13, Q14)."""
    return tl.timeline_of(events).decide(**kw)


def transcribe(
    path: str | os.PathLike,
    model,
    *,
    words: Iterable[str] | None = None,
    mode: str = "clean",
    balls_left=None,
    pocket_precision: str = "side_for_corners",
    block_ms: float = DEFAULT_BLOCK_MS,
    alternatives: int = DEFAULT_ALTERNATIVES,
    detector=None,
    lang: str = "ru",
    parse=None,
    mentions_call=None,
    progress: Callable[[Iterable], Iterable] | None = None,
    samples=None,
) -> Transcript:
    """The whole pipeline over a WAV file (AudioFileError if it cannot be read).

    ``words``, ``parse`` and ``mentions_call`` default to the call language's (grammar).
    ``progress``: wraps the file's blocks on their way in (a progress bar, :mod:`..cli.progress`).
    ``samples``: the file already read (:func:`..voice.audio.read_wav`), not read again.
    """
    # deferred: the audio stack (numpy, Vosk) loads only to hear
    from pyramid_referee.voice.audio import RATE, array_frames, file_frames
    from pyramid_referee.voice.recognizer import Recognizer
    from pyramid_referee.voice.strike import StrikeDetector

    if samples is None:
        frames = file_frames(path, block_ms, lang=lang)  # reads and checks the file first
    else:
        frames = array_frames(samples, block_ms, source=os.fspath(path))
    rec = Recognizer(
        model, call_words() if words is None else words, alternatives=alternatives, lang=lang
    )
    pipe = Pipeline(rec, detector if detector is not None else StrikeDetector())
    for frame in frames if progress is None else progress(frames):
        pipe.feed(frame.samples, frame.t0)
    pipe.finish()
    decisions = decide_events(
        pipe.events,
        mode=mode,
        balls_left=balls_left,
        pocket_precision=pocket_precision,
        lang=lang,
        parse=parse,
        mentions_call=mentions_call,
    )
    return Transcript(
        os.fspath(path), frames.samples_read / RATE, pipe.events, decisions, rec.missing
    )


def grammar_render() -> Callable | None:
    """The grammar's canonical phrasing of a call (None if the grammar cannot be loaded)."""
    try:
        from pyramid_referee.grammar import render  # deferred: the call grammar (Lark)
    except ImportError:
        return None
    return render


def describe(d: tl.Decision, lang: str = "ru", render: Callable | None = None) -> str:
    """One line for a person: what counts for this strike and why; a stroke whose strike was not
    heard (Q13) or a strike the marker took back (Q14) says so at the end."""
    line = _describe(d, lang, render)
    if d.strike is None:  # Q13: «удар не услышан — заказ взят по вводу исхода: заказ принят: …»
        return f"{d.note}: {line.split(': ', 1)[1]}"
    return f"{line} — {d.note}" if d.note else line


def _describe(d: tl.Decision, lang: str, render: Callable | None) -> str:
    at = f"{d.strike if d.strike is not None else d.outcome or 0:.2f}"
    if d.status == "accepted":
        said = d.heard
        if render is not None:
            try:
                from pyramid_referee.grammar.call import Call  # deferred: the call grammar (Lark)

                said = render(Call.from_json(d.call))
            except Exception:
                said = d.heard
        return trl(lang, "strike {time} s: call accepted: {call}").format(time=at, call=said)
    if d.status == "rejected":
        msg = d.reason.get("message") if isinstance(d.reason, dict) else d.reason
        hint = d.reason.get("hint") if isinstance(d.reason, dict) else None
        line = trl(lang, "strike {time} s: call refused: {why} (heard: «{heard}»)").format(
            time=at, why=msg, heard=d.heard
        )
        return line + (f"; {hint}" if hint else "")
    if d.status == "late" or d.heard:
        return trl(lang, "strike {time} s: {why} (heard: «{heard}»)").format(
            time=at, why=d.reason, heard=d.heard
        )
    return trl(lang, "strike {time} s: {why}").format(time=at, why=d.reason)


# --- the live referee -------------------------------------------------------------------------

SETTLE_S = 0.4  # audio taken after a strike before deciding: a word in progress shows its end
ECHO_TAIL_S = 0.5  # after espeak-ng ends, its sound is still in the output and input buffers
REHEAR_S = 10.0  # audio kept to hear again from the strike on, after the decision (see decide)
REHEAR_CONTEXT_S = 1.0  # heard again from this long before the strike: the decoder's adaptation
# settles on it rather than on the click (its words before t count no more)
STRIKE_DECIDED_S = 1.5  # the longest the strike detector may take to decide a strike after its
# onset: an outcome typed with no strike decided waits this (and SETTLE_S)
# before it is taken as a stroke whose strike was not heard (Q13)
TABLE_KINDS = ("tip", "ball", "cushion", "pocket")  # the detector's sounds that are the table's
TAKE_BACK_KEYS = ("!", "снять", "take back")  # typed for the outcome: the strike was none (Q14)


class Speaker:
    """Reads texts aloud with espeak-ng (``-v ru`` / ``-v en``); fails softly, saying why once."""

    def __init__(
        self,
        enabled: bool,
        lang: str = "ru",
        warn: Callable[[str], None] | None = None,
        command: str = "espeak-ng",
    ):
        self.lang = lang
        self.command = shutil.which(command) if enabled else None
        self.warn = warn or (lambda msg: None)
        self._proc = None
        self._ended = float("-inf")  # monotonic time the last reading was seen finished
        if enabled and self.command is None:
            self.warn(
                trl(
                    lang,
                    "«{command}» not found: calls and verdicts will not be read aloud "
                    "(install it: «apt-get install espeak-ng»)",
                ).format(command=command)
            )

    @property
    def enabled(self) -> bool:
        return self.command is not None

    def argv(self, text: str) -> list[str]:
        return [self.command, "-v", "en" if self.lang == "en" else "ru", text]

    def busy(self, tail: float = ECHO_TAIL_S) -> bool:
        """Is the referee speaking (or was it within ``tail`` seconds)? The microphone hears it:
        meanwhile its words are no player's call (live.py mutes the recognizer)."""
        if self._proc is None:
            return False
        if self._proc.poll() is None:
            return True
        if self._ended == float("-inf"):
            self._ended = time.monotonic()
        return time.monotonic() - self._ended < tail

    def say(self, text: str) -> None:
        if not self.enabled or not text:
            return
        try:
            if self._proc is not None and self._proc.poll() is None:
                self._proc.wait(timeout=10)  # one voice at a time, in order
            self._proc = subprocess.Popen(
                self.argv(text), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            self._ended = float("-inf")
        except (OSError, subprocess.SubprocessError) as exc:
            self.warn(
                trl(self.lang, "reading aloud failed ({error}); turned off").format(error=exc)
            )
            self.command = None

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            try:
                self._proc.wait(timeout=10)
            except Exception:
                self._proc.kill()


def reading_of(d: tl.Decision, lang: str = "ru"):
    """A timeline decision → the match session's CallReading (what the engine judges with).

    accepted → the call; rejected and late → a refused call (C9/C10: a ball that falls is not
    counted, the engine re-spots it); none → a stroke without a call.
    """
    from pyramid_referee.grammar.call import Call  # deferred: the call grammar (Lark)

    from ..match.session import CallReading  # deferred: the match's judge (Lark)

    if d.status == "accepted":
        call = Call.from_json(d.call)
        canonical = None
        try:
            from pyramid_referee.grammar import render  # deferred: the call grammar (Lark)

            canonical = render(call)
        except Exception:  # rendering is a courtesy; the call is the JSON
            pass
        return CallReading(
            text=d.heard, call=call, status="accepted", canonical=canonical or d.heard
        )
    if d.status in ("rejected", "late"):
        refusal = (
            d.reason
            if isinstance(d.reason, dict)
            else {
                "code": "late",
                "message": d.reason,
                "span": [0, len(d.heard or "")],
                "hint": None,
            }
        )
        return CallReading(text=d.heard, refusal=refusal, status="refused")
    return CallReading(text=None, status="none")


def is_take_back(text: str) -> bool:
    """Is what the scorer typed the take-back key (Q14), not an outcome?"""
    return " ".join(text.lower().split()) in TAKE_BACK_KEYS


def _has_words_from(event: dict, t: float) -> bool:
    """Is ``event`` an utterance with words from ``t`` on (what can still count after a strike)?"""
    u = tl.read_event(event)
    return isinstance(u, tl.Utterance) and any(w.start >= t for w in u.top.words)


class LiveReferee:
    """The live referee's core, fed blocks in order (from a microphone or a file).

    ``feed(samples, t0)`` → the strikes the detector found in the block; ``partial`` is the text
    being heard (display only); ``standing()`` is the call that would count if struck now;
    ``decide(t)`` (after ``SETTLE_S`` of audio past the strike) flushes the utterance in progress
    and gives the decision for the strike at ``t``; ``enter(outcome_text)`` judges and stores
    the stroke with that decision (C's match session: committed before it returns).
    """

    def __init__(
        self,
        model,
        session,
        *,
        words: Iterable[str] | None = None,
        detector=None,
        alternatives: int = DEFAULT_ALTERNATIVES,
        lang: str = "ru",
        parse=None,
        mentions_call=None,
    ):
        from pyramid_referee.voice.recognizer import Recognizer  # deferred: the recognizer (numpy)

        self.session = session
        self.lang = lang
        self.recognizer = Recognizer(
            model, call_words() if words is None else words, alternatives=alternatives, lang=lang
        )
        self.pipeline = Pipeline(self.recognizer, detector, on_partial=self._on_partial)
        self.partial = ""
        self.previous = float("-inf")  # the last strike decided (or, Q13, the last stroke's cut)
        self.decision: tl.Decision | None = None
        self.taken_back: list[
            float
        ] = []  # strikes the marker took back since the last stroke (Q14)
        self._before: tuple | None = (
            None  # (strike, previous, events) before the last decide: a take-back
        )
        self.last_decision: tl.Decision | None = None
        self._grammar = {"parse": parse, "mentions_call": mentions_call}
        self._recent: deque = deque()  # (t0, samples, heard) of the last REHEAR_S of audio

    def _on_partial(self, text: str) -> None:
        self.partial = text

    @property
    def time(self) -> float:
        return self.recognizer.time

    def _kw(self) -> dict:
        kw = {"lang": self.lang, **self._grammar}
        if self.session is not None:
            kw["mode"] = getattr(self.session.settings, "mode", "clean")
            kw["pocket_precision"] = getattr(
                self.session.settings, "pocket_precision", "side_for_corners"
            )
            upcoming = (
                getattr(self.session, "upcoming", None) or self.session.state
            )  # a new game's rack
            kw["balls_left"] = sorted(upcoming.on_table)
        return kw

    def feed(self, samples, t0: float, *, hear: bool = True) -> list[float]:
        """One block; the strikes found. ``hear=False`` while the referee speaks (see
        Pipeline.feed)."""
        self._recent.append((t0, samples, hear))
        while self._recent and self._recent[0][0] < t0 - REHEAR_S:
            self._recent.popleft()
        return self.pipeline.feed(samples, t0, hear=hear)[1]

    def utterances(self) -> list[tl.Utterance]:
        return [
            u
            for u in (tl.read_event(e) for e in self.pipeline.events)
            if isinstance(u, tl.Utterance)
        ]

    def standing(self) -> tl.Decision:
        """The call that would count if the ball were struck now (finished utterances only)."""
        return tl.standing(self.utterances(), float("inf"), self.previous, **self._kw())

    def decide(self, t: float) -> tl.Decision:
        """The decision for the strike at ``t`` (call it once ``time`` is SETTLE_S past ``t``).

        The utterance in progress is ended here so that a word going on at the strike shows its
        end (C10, Q7). That cut also falls inside whatever was begun after the strike (a next
        call said at once would be misheard from its cut halves); so the audio from the strike
        on (with REHEAR_CONTEXT_S before it) is then heard again by a fresh recognizer on the
        same clock, and only that reading is kept for the next strike (whose window starts at
        ``t``), as a file read straight through would give it.
        """
        self.pipeline.flush_recognizer()
        d = tl.decide_strike(self.utterances(), t, self.previous, **self._kw())
        self._before = (t, self.previous, list(self.pipeline.events))
        self.previous = t
        self.decision = d
        since = [
            b
            for b in self._recent
            if b[0] + len(b[1]) / self.recognizer.rate > t - REHEAR_CONTEXT_S
        ]
        if since and since[0][0] <= t:
            import numpy as np  # deferred: numpy loads only with the audio

            self.recognizer.restart(since[0][0])
            events = []
            for _, samples, heard in since:
                events += self.recognizer.accept(
                    samples if heard else np.zeros(len(samples), np.float32)
                )
            self.pipeline.events = [e for e in events if _has_words_from(e, t)]
            self.pipeline.tell_words(events, hearing=bool(self.recognizer.partial()))
            return d
        # The audio since the strike is no longer kept (decided long after it): what can still
        # count later is what was heard with words from t on; the rest is dropped so a long
        # match does not slow the display down.
        self.pipeline.events = [e for e in self.pipeline.events if _has_words_from(e, t)]
        return d

    def table_sounds(self) -> list[float]:
        """The table sounds (tip, balls, cushions, pockets) the detector heard since the last
        stroke: where the stroke's calls end when its strike was not heard (Q13)."""
        det = self.pipeline.detector
        return [
            s.time
            for s in getattr(det, "sounds", ()) or ()
            if getattr(s, "kind", None) in TABLE_KINDS and s.time > self.previous
        ]

    def unheard(self, at: float | None = None) -> tl.Decision:
        """Q13: the decision for a stroke whose outcome is entered at ``at`` (now by default) with
        no strike heard since the last one: the standing call, the last one finished before the
        last table sound."""
        return tl.decide_outcome(
            self.utterances(),
            self.time if at is None else min(at, self.time),
            self.previous,
            sounds=self.table_sounds(),
            **self._kw(),
        )

    def stroke_entered_elsewhere(self) -> None:
        """The pad entered the stroke (listen --pad): the strike last decided is the stroke's
        now."""
        self._before = None
        self.decision = None
        self.taken_back = []

    @property
    def revocable(self) -> float | None:
        """The strike last decided, while it can still be taken back (Q14): until a stroke is
        entered."""
        return None if self._before is None else self._before[0]

    def take_back(self, t: float | None = None) -> tl.Decision:
        """Q14: the marker takes back the strike last decided (``t``: that strike's time, checked):
        it was no strike. The words and the window are as they were before it was decided, so the
        call it made late counts again for the next strike; the next stroke's record keeps it.
        StrokeInputError when there is none to take back."""
        from ..match.session import StrokeInputError  # deferred: the match's judge (Lark)

        if self._before is None or (t is not None and abs(self._before[0] - t) > tl.SAME_STRIKE_S):
            raise StrokeInputError(trl(self.lang, "there is no strike to take back"))
        strike, self.previous, before = self._before
        heard = [(e, u) for e in before if isinstance(u := tl.read_event(e), tl.Utterance)]
        # The call it made late was cut where the strike was decided; it is heard again whole,
        # from its start (with REHEAR_CONTEXT_S before it), as a file read straight through would.
        start = min((u.start for _, u in heard if u.end >= strike), default=strike)
        since = [
            b
            for b in self._recent
            if b[0] + len(b[1]) / self.recognizer.rate > start - REHEAR_CONTEXT_S
        ]
        if since and since[0][0] <= start:
            import numpy as np  # deferred: numpy loads only with the audio

            self.recognizer.restart(since[0][0])
            fresh = []
            for _, samples, on in since:
                fresh += self.recognizer.accept(
                    samples if on else np.zeros(len(samples), np.float32)
                )
            self.pipeline.events = [e for e, u in heard if u.end < start] + [
                e for e in fresh if _has_words_from(e, start)
            ]
        else:  # the audio is no longer kept: what was heard before it, and what is new since
            until = max((u.end for _, u in heard), default=strike)
            later = [
                e
                for e in self.pipeline.events
                if isinstance(u := tl.read_event(e), tl.Utterance) and u.start > until
            ]
            self.pipeline.events = [e for e, _ in heard] + later
        self._before = None
        self.taken_back.append(strike)
        forget = getattr(self.pipeline.detector, "forget", None)  # (a test double may lack it)
        if forget is not None:  # no longer one of this table's strikes to weigh knocks by
            forget(strike)
        d, self.decision = self.decision, None
        return d if d is not None and d.strike == strike else tl.Decision(strike, "none")

    def enter(self, outcome_text: str, *, at: float | None = None):
        """Judge and store the stroke just decided (StrokeInputError: nothing changed). With no
        strike decided, the strike was not heard: the stroke takes the standing call, marked so
        (Q13); ``at``: when that outcome was typed (now by default)."""
        # deferred: the match's judge (Lark)
        from ..match.session import StrokeInputError, strike_note

        if not outcome_text.strip():
            raise StrokeInputError(
                trl(self.lang, "no outcome given (an empty one is 'ничего' or '-')")
            )
        d = self.decision if self.decision is not None else self.unheard(at)
        reading = reading_of(d, self.lang)
        note = strike_note(
            d.strike,
            outcome=None if d.strike is not None else round(d.outcome, 3),
            taken_back=self.taken_back,
            lang=self.lang,
        )
        entered = self.session.enter(reading.text, outcome_text, reading=reading, strike=note)
        if d.strike is None:  # the next stroke's calls begin after the last table sound (Q13)
            self.previous = tl.outcome_cut(d.outcome, self.previous, self.table_sounds())
        self.decision = None
        self.taken_back = []
        self._before = None  # that strike is the stroke's now
        self.last_decision = d  # what the stroke was entered with (shown by listen)
        return entered

    def gap(self, end: float, *, detector=None, calls_void: bool = False) -> tuple[float, float]:
        """The stream was away from ``time`` to ``end`` (a tablet reconnecting): that audio is
        lost.

        The utterance in progress is ended where the audio stopped; the clock goes on at ``end``
        (the recognizer begins afresh there, and the audio kept for hearing again is dropped: it
        does not join the audio after the gap); ``detector``, a fresh one, hears from ``end``.
        A call heard whole before the gap still stands for the first strike heard after it (C10:
        it was said before the stroke; C9: no later call was heard; as Q13, the referee's lost
        ears must not cost the player his call). Nothing said before the gap stands when a call
        was still being said as it began (its end was not heard, and it replaced any earlier
        one: C9, Q8), or with ``calls_void`` (the record changed in the gap: a stroke entered
        there took the call, Q13). (start, end) of the gap."""
        speaking = bool(self.recognizer.partial().strip())
        self.pipeline.flush_recognizer()
        start = self.time
        end = max(start, float(end))
        self.recognizer.restart(end)
        self._recent.clear()
        self.partial = ""
        if detector is not None:
            self.pipeline.detector = detector
        if speaking or calls_void:
            self.previous = max(self.previous, end)
        return start, end
