"""Streaming recognition with Vosk, restricted to the call language.

What Vosk 0.3.45 does, and what this module does about it (docs/dev/voice.md):

- The runtime grammar is a JSON list of phrases. Vosk's JSON reader does not decode
  ``\\uXXXX`` escapes, so the list is written with ``ensure_ascii=False``: with Python's
  default escaping every Cyrillic (or Hangul) word is silently "missing in vocabulary".
- Grammar words the model lacks are dropped by Vosk with only a log line; here each is
  looked up (``Model.vosk_model_find_word``) before the recognizer is made, and the list of
  missing words is kept in ``Recognizer.missing`` for the caller to report.
- With ``SetMaxAlternatives(N)`` (N > 0) a final result is
  ``{"alternatives": [{"confidence", "result": [{"word","start","end"}…], "text"}…]}``
  (no per-word ``conf``); with N = 0 it is ``{"result": [{"word","start","end","conf"}…],
  "text"}``. Both forms are passed on unchanged except for the times.
- The NUMBER of alternatives is not repeatable. Kaldi dithers the audio with random noise
  (``--dither`` defaults to 1.0 and model confs do not turn it off), seeded from libc's
  ``rand()``: each recognizer gets other noise, so the confidences move by about ±1.5 and a
  rival reading near the lattice beam (``--lattice-beam``, 2.0 in the small models) is kept
  by one recognizer and pruned by the next. Measured: espeak's Korean 전화 gives 1 or 2
  alternatives (전화 / 여덟 전화) depending only on the seed; with ``srand(seed)`` called
  before making the recognizer the same seed gives the same result bit for bit. Only N, the
  maximum, is fixed; the top reading is what the tests rely on, and a reading with a close
  rival (espeak's 여덟: 3 readings under 60 of 60 seeds) reliably gives several.
- Limit for the "unclear call" refusal (C4, C9, ``timeline``): it compares the alternatives it
  is given and can refuse only what it sees. When the rival reading falls outside the beam
  for this recognizer's noise, there is one alternative and the top reading is judged alone,
  so the same audio may be refused as ambiguous on one run and accepted on another. The
  refusal is therefore a best effort against close rivals, not a guarantee: a rival that
  Vosk keeps is never silently ignored, a rival at the edge of the beam may go unseen.
- Word times count from the recognizer's first sample and keep counting across results;
  ``offset`` (the audio-clock time of that first sample) is added so that words and strikes
  share one clock.
- Partial results (``partial()``) are for live display only; they are never final results.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np

from .audio import to_pcm16 as _float_to_pcm16
from .errors import ModelError, VoiceError
from .messages import trl
from .model import missing_words

RATE = 16000


def to_pcm16(block) -> bytes:
    """float samples in [-1, 1] (or int16, or bytes already) → little-endian 16-bit PCM bytes."""
    if isinstance(block, (bytes, bytearray, memoryview)):
        return bytes(block)
    a = np.asarray(block)
    if a.dtype == np.int16:
        return a.astype("<i2", copy=False).tobytes()
    return _float_to_pcm16(a)


def shift_result(result: dict, offset: float) -> dict:
    """A Vosk result with every word time moved by ``offset`` seconds (rounded to 1 µs)."""

    def shift(words):
        return [
            {**w, "start": round(w["start"] + offset, 6), "end": round(w["end"] + offset, 6)}
            for w in words
        ]

    out = dict(result)
    if "result" in out:
        out["result"] = shift(out["result"])
    if "alternatives" in out:
        out["alternatives"] = [
            {**a, "result": shift(a.get("result", []))} for a in out["alternatives"]
        ]
    return out


def has_words(result: dict) -> bool:
    """Does the best reading hold words? (An empty best reading is silence, whatever the others
    say.)"""
    if "alternatives" in result:
        alts = result["alternatives"]
        return bool(alts and alts[0].get("result"))
    return bool(result.get("result"))


def best_words(result: dict) -> list[dict]:
    """The words of a result's best reading (``{"word", "start", "end", …}``, in order)."""
    if "alternatives" in result:
        alts = result["alternatives"]
        return list(alts[0].get("result", [])) if alts else []
    return list(result.get("result", []))


class Recognizer:
    """A Vosk recognizer restricted to ``words``, fed blocks of audio in order.

    ``accept(block)`` returns the final results the block completed (Vosk result dicts, times
    on the audio clock, empty results dropped); ``partial()`` the text being heard now;
    ``flush()`` ends the current utterance and returns its final result.
    ``partial_words`` (after ``partial()``): the times of the utterance's words being heard, as
    Vosk's partial result last gave them (``partial_words=True``; it gives them now and then, often
    not before the final result).
    """

    def __init__(
        self,
        model,
        words: Iterable[str],
        *,
        rate: int = RATE,
        alternatives: int = 3,
        offset: float = 0.0,
        lang: str = "ru",
        partial_words: bool = True,
    ):
        words = list(dict.fromkeys(w for w in words if w and w != "[unk]"))
        if not words:
            raise ValueError("the recognizer needs at least one grammar word")
        self.words = tuple(words)
        self.missing = tuple(missing_words(model, words))
        known = [w for w in words if w not in set(self.missing)]
        if not known:
            raise ModelError(
                trl(
                    lang,
                    "the model knows none of the {words} call words: wrong model (a Russian one "
                    "is needed, e.g. vosk-model-small-ru-0.22)",
                ).format(words=len(words))
            )
        self.rate = rate
        self.offset = float(offset)
        self.alternatives = int(alternatives)
        self.with_partial_words = bool(partial_words)
        self.partial_words: list[dict] = []
        self._samples = 0
        self._model, self._lang = model, lang
        self._grammar = json.dumps(known + ["[unk]"], ensure_ascii=False)
        self._rec = self._make()

    def _make(self):
        import vosk  # deferred: the speech engine loads only when a model is used

        try:
            rec = vosk.KaldiRecognizer(self._model, float(self.rate), self._grammar)
        except Exception as exc:
            raise ModelError(
                trl(self._lang, "Vosk could not make a recognizer: {exc}").format(exc=exc)
            ) from exc
        rec.SetWords(True)
        rec.SetMaxAlternatives(self.alternatives)
        if self.with_partial_words:
            rec.SetPartialWords(True)
        return rec

    def restart(self, offset: float) -> None:
        """Forget the audio fed so far (and the utterance in progress): a fresh decoder whose
        first sample is at ``offset`` on the audio clock (the next block fed must start there)."""
        self._rec = self._make()
        self.offset = float(offset)
        self._samples = 0
        self.partial_words = []

    @property
    def time(self) -> float:
        """The audio-clock time just after the last sample fed."""
        return self.offset + self._samples / self.rate

    def _final(self, text: str) -> list[dict]:
        result = shift_result(json.loads(text), self.offset)
        return [result] if has_words(result) else []

    def accept(self, block) -> list[dict]:
        data = to_pcm16(block)
        self._samples += len(data) // 2
        try:
            done = self._rec.AcceptWaveform(data)
        except Exception as exc:  # vosk raises a bare Exception("Failed to process waveform")
            raise VoiceError(f"Vosk: {exc}") from exc
        if not done:
            return []
        self.partial_words = []
        return self._final(self._rec.Result())

    def partial(self) -> str:
        """What is being heard now (not final: never parse it as a call); its words' times, when
        Vosk gives them, in ``partial_words`` (on the audio clock)."""
        result = json.loads(self._rec.PartialResult())
        words = result.get("partial_result") or []
        if words:  # Vosk gives them now and then: the last given stand until the final result
            self.partial_words = shift_result({"result": words}, self.offset)["result"]
        return result.get("partial", "")

    def flush(self) -> list[dict]:
        """End the utterance in progress; its final result (if it has words)."""
        self.partial_words = []
        return self._final(self._rec.FinalResult())
