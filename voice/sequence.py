"""What the sounds around a knock say: the features the strike decision reads, up to 1.2 s later.

The first 16 ms of a sound cannot tell a plosive from a cue tip on a microphone the model never
heard. What follows can: a real strike sets the table going (the cue ball hits the object ball,
cushions, a pocket drop: the stroke's own **cascade** of knocks, 0.05–2 s later) while a consonant
is followed by a vowel (voicing) and more words. And what came before: the strike is the first
table sound after stillness, usually after a call.

:func:`context_features` turns a candidate knock and the stream around it into
:data:`SEQ_FEATURES`: the candidate's own shape (:data:`.onsets.LONG_FEATURES`, what the 150 ms
after it say), then the sequence:

- after it, up to ``horizon`` (1.2 s): how many impulsive sounds, how many of them unvoiced
  (table knocks rather than syllables), how soon the first, how loud the loudest against this
  one; the share of voiced frames 20–300 ms and 300 ms–horizon after it;
- before it: the share of voiced frames in the 0.5 s and 3 s before (a call, or talk going on),
  seconds since the previous sound and since the previous unvoiced one, how many sounds in the
  second before, the seconds of voicing since the previous unvoiced sound (a call said since the
  table's last sound), and the seconds since the last strike decided;
- **against this session** (so that nothing rests on an absolute level that moves with the
  microphone): its loudness against this room's voices (the median level of recent voiced
  frames), against this table's recent knocks, and its spectral centroid against theirs.

The decision model (:mod:`.sound_class`, binary, fitted by ``corpora/audio/fit_sound_model.py``)
reads these and gives the probability that the candidate is a strike.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np

from .onsets import FEATURES, LONG_FEATURES

HORIZON_S = 1.2
"""How long after a candidate the decision waits (the audio its features read)."""

SEQ_FEATURES = LONG_FEATURES + (
    "n_after",
    "n_after_knock",
    "first_after_s",
    "max_after_rel_db",
    "voiced_after_03",
    "voiced_after_h",
    "voiced_before_05",
    "voiced_before_3",
    "prev_s",
    "prev_knock_s",
    "n_before_1s",
    "voiced_since_knock",
    "since_strike",
    "level_rel_voice",
    "level_rel_knocks",
    "centroid_rel_knocks",
)
"""The decision model's inputs, in order."""

NONE = -99.0
"""A feature that has nothing to measure yet (no voice heard so far, no knock before)."""

_I_LEVEL = FEATURES.index("level_db")
_I_CENT = FEATURES.index("log_centroid")
_I_PITCH = FEATURES.index("pitch_post")
_I_FLUX = FEATURES.index("flux_db")

SALIENT_DB = 10.0
SALIENT_FLUX_DB = 6.0


@dataclass
class Heard:
    """An impulsive sound as the sequence sees it."""

    time: float
    features: tuple[float, ...]  # the first look's (:data:`FEATURES`)
    peak_db: float  # its loudest ms, dBFS
    voiced: bool | None = None  # a voice sounded at it (a syllable, or a knock spoken over);
    # known once the voice activity has heard 35 ms past it

    @property
    def salient(self) -> bool:
        """Clearly a sound, not a ripple of the noise: ``SALIENT_DB`` over the background and a
        sharp rise. (Candidates are proposed far below this, so that no strike is missed; the
        stillness before a strike and the cascade after it are read from the salient ones.)"""
        return self.features[_I_LEVEL] >= SALIENT_DB and self.features[_I_FLUX] >= SALIENT_FLUX_DB

    def is_knock(self, vad) -> bool:
        """A salient sound with no voice at it or right after it (a syllable's consonant is
        followed by its vowel within tens of ms). Kept once the voice activity has judged the
        frames it reads, so that the answer does not depend on how the stream was cut (the
        decision of the sounds near the end of a candidate's horizon read it earlier)."""
        if self.voiced is not None:
            return self.salient and not self.voiced
        voiced = bool(
            vad.voiced_between(self.time - 0.02, self.time + 0.06) > 0
            or self.features[_I_PITCH] >= 0.8
        )
        heard_to = getattr(vad, "heard_to", None)
        if heard_to is None or heard_to >= self.time + 0.06:
            self.voiced = voiced
        return self.salient and not voiced


def _frac(vad, a: float, b: float) -> float:
    return vad.voiced_between(a, b) / max(b - a, 1e-3)


def context_features(
    c: Heard,
    long: tuple[float, ...],
    heard: list[Heard],
    times: list[float],
    vad,
    since_strike: float,
    horizon: float = HORIZON_S,
    end: float | None = None,
) -> tuple[float, ...]:
    """:data:`SEQ_FEATURES` of candidate ``c`` (``long``: its :data:`LONG_FEATURES`), from the sounds
    heard (``heard``, in time order, ``times`` their times) and the voice activity ``vad``.
    ``end``: the end of the audio when it ends within the horizon (the file's last second)."""
    t = c.time
    h_end = t + horizon if end is None else min(t + horizon, end)
    i = bisect_left(times, t)
    j = bisect_right(times, h_end)
    every_after = [s for s in heard[i:j] if s.time > t + 0.05]
    knocks_after = [s for s in every_after if s.is_knock(vad)]
    before = [s for s in heard[max(0, i - 200) : i] if s.salient]
    prev = before[-1].time if before else None
    prev_knock = next((s.time for s in reversed(before) if s.is_knock(vad)), None)
    recent_knocks = [s for s in before[-40:] if s.is_knock(vad)][-20:]
    voice_db = vad.voice_level_db(t)
    f = (
        float(sum(1 for s in every_after if s.salient)),
        float(len(knocks_after)),
        (knocks_after[0].time - t) if knocks_after else horizon,
        (max(s.peak_db for s in knocks_after) - c.peak_db) if knocks_after else -40.0,
        _frac(vad, t + 0.02, min(t + 0.3, h_end)) if h_end > t + 0.05 else 0.0,
        _frac(vad, t + 0.3, h_end) if h_end > t + 0.35 else 0.0,
        _frac(vad, t - 0.5, t),
        _frac(vad, t - 3.0, t - 0.5),
        min(t - prev, 5.0) if prev is not None else 5.0,
        min(t - prev_knock, 5.0) if prev_knock is not None else 5.0,
        float(sum(1 for s in before if s.time >= t - 1.0)),
        min(vad.voiced_between(prev_knock, t - 0.03), 3.0)
        if prev_knock is not None
        else min(vad.voiced_between(t - 10.0, t - 0.03), 3.0),
        min(since_strike, 10.0),
        (c.peak_db - voice_db) if voice_db is not None else NONE,
        (c.peak_db - float(np.median([s.peak_db for s in recent_knocks])))
        if len(recent_knocks) >= 3
        else NONE,
        (c.features[_I_CENT] - float(np.median([s.features[_I_CENT] for s in recent_knocks])))
        if len(recent_knocks) >= 3
        else NONE,
    )
    return tuple(long) + tuple(float(v) for v in f)


__all__ = ["HORIZON_S", "SEQ_FEATURES", "NONE", "Heard", "context_features"]
