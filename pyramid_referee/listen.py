"""The voice pipeline: audio → Vosk and the strike detector on one clock → the timeline.

``transcribe`` runs it over a WAV file; ``listen`` (``LiveReferee``) runs it on a microphone
and, after each strike, takes the outcome from the scorer and judges the stroke.

One stream of blocks feeds both the recognizer and the strike detector (DESIGN.md, "Voice");
the recognizer's word times and the detector's strike times are both counted in samples from
the start of the audio, so they share one clock. The event stream (Vosk final results with
audio-clock times, and ``{"strike": t}``) is exactly what ``pyramid-referee timeline`` reads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterable

from . import timeline as tl

DEFAULT_BLOCK_MS = 20
DEFAULT_ALTERNATIVES = 3


def call_words() -> list[str]:
    """Every word form of the call language: the recognizer's runtime grammar."""
    from pyramid_referee.grammar import vocabulary

    return list(vocabulary())


def open_model(model_dir: str | None = None, *, verbose: bool = False, lang: str = "ru"):
    """Find (``--model``, ``PYRAMID_VOSK_MODEL``, Vosk's places, the user cache) and load the model."""
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
            "words": [{"word": w.word, "start": w.start, "end": w.end, "conf": w.conf} for w in self.words],
            "text": " ".join(w.word for w in self.words),
            "missing_words": list(self.missing_words),
        }


class Pipeline:
    """Recognizer + strike detector fed the same blocks; collects the event stream."""

    def __init__(self, recognizer, detector, *, on_partial: Callable[[str], None] | None = None):
        self.recognizer = recognizer
        self.detector = detector
        self.events: list[dict] = []
        self.on_partial = on_partial
        self._partial = ""

    def feed(self, samples, t0: float) -> tuple[list[dict], list[float]]:
        results = self.recognizer.accept(samples)
        strikes = self.detector.feed(samples, t0) if self.detector is not None else []
        self.events += results
        self.events += [{"strike": round(t, 6)} for t in strikes]
        if self.on_partial is not None:
            partial = self.recognizer.partial()
            if partial != self._partial:
                self._partial = partial
                self.on_partial(partial)
        return results, strikes

    def add_strike(self, t: float) -> None:
        """A strike from elsewhere (a key press, an explicit event)."""
        self.events.append({"strike": round(t, 6)})

    def flush_recognizer(self) -> list[dict]:
        results = self.recognizer.flush()
        self.events += results
        self._partial = ""
        return results

    def finish(self) -> None:
        self.flush_recognizer()
        if self.detector is not None:
            self.events += [{"strike": round(t, 6)} for t in self.detector.flush()]


def decide_events(events: Iterable[dict], **kw) -> list[tl.Decision]:
    utterances, strikes = [], []
    for e in events:
        ev = tl.read_event(e)
        if isinstance(ev, tl.Strike):
            strikes.append(ev)
        elif ev is not None:
            utterances.append(ev)
    return tl.decide(utterances, strikes, **kw)


def transcribe(path: str | os.PathLike, model, *, words: Iterable[str] | None = None,
               mode: str = "clean", balls_left=None, block_ms: float = DEFAULT_BLOCK_MS,
               alternatives: int = DEFAULT_ALTERNATIVES, detector=None, lang: str = "ru",
               parse=None, mentions_call=None) -> Transcript:
    """The whole pipeline over a WAV file (AudioFileError if it cannot be read).

    ``words``, ``parse`` and ``mentions_call`` default to the call language's (grammar).
    """
    from pyramid_referee.voice.audio import RATE, file_frames
    from pyramid_referee.voice.recognizer import Recognizer
    from pyramid_referee.voice.strike import StrikeDetector

    frames = file_frames(path, block_ms, lang=lang)  # reads and checks the file first
    rec = Recognizer(model, call_words() if words is None else words, alternatives=alternatives, lang=lang)
    pipe = Pipeline(rec, detector if detector is not None else StrikeDetector())
    for frame in frames:
        pipe.feed(frame.samples, frame.t0)
    pipe.finish()
    decisions = decide_events(pipe.events, mode=mode, balls_left=balls_left, lang=lang, parse=parse,
                              mentions_call=mentions_call)
    return Transcript(os.fspath(path), frames.samples_read / RATE, pipe.events, decisions, rec.missing)


def describe(d: tl.Decision, lang: str = "ru", render: Callable | None = None) -> str:
    """One line for a person: what counts for this strike and why."""
    def t(ru, en):
        return en if lang == "en" else ru

    at = t(f"удар {d.strike:.2f} с", f"strike {d.strike:.2f} s")
    if d.status == "accepted":
        said = d.heard
        if render is not None:
            try:
                from pyramid_referee.grammar.call import Call

                said = render(Call.from_json(d.call))
            except Exception:
                said = d.heard
        return f"{at}: " + t(f"заказ принят: {said}", f"call accepted: {said}")
    if d.status == "rejected":
        msg = d.reason.get("message") if isinstance(d.reason, dict) else d.reason
        hint = d.reason.get("hint") if isinstance(d.reason, dict) else None
        line = f"{at}: " + t(f"заказ не принят: {msg} (слышно: «{d.heard}»)",
                             f"call refused: {msg} (heard: «{d.heard}»)")
        return line + (f"; {hint}" if hint else "")
    if d.status == "late":
        return f"{at}: {d.reason} (" + t("слышно", "heard") + f": «{d.heard}»)"
    heard = t(f" (слышно: «{d.heard}»)", f" (heard: «{d.heard}»)") if d.heard else ""
    return f"{at}: {d.reason}{heard}"

