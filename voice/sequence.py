"""What the sounds around a knock say: the features the strike decision reads, up to 1.2 s later.

The first 16 ms of a sound cannot tell a plosive from a cue tip on a microphone the model never
heard. What follows can: a real strike sets the table going (the cue ball hits the object ball,
cushions, a pocket drop: the stroke's own **cascade** of knocks, 0.05–2 s later) while a consonant
is followed by a vowel and more words. And what came before: the strike is the first table sound
after stillness, usually after a call.

:func:`context_features` turns a candidate knock and the stream around it into
:data:`SEQ_FEATURES`: the candidate's own shape (:data:`.onsets.LONG_FEATURES`, what the 150 ms
after it say, and :data:`.onsets.BAND_FEATURES`, how it stands in each band), then:

- **the talk** (the voice activity's speech layer: voiced frames that are a voice, not a knock's
  ring, and as loud as this room's speakers): its share before and after the knock, how long
  ago the last stretch of talk ended and how long that stretch was (a call just said), how soon
  talk comes after;
- **the table** before and after it: how many sounds, how many of them knocks (no talk at
  them), how soon the first, how loud against this one; the loudest sound of the 1 s and 3 s
  before against this one (stillness), the seconds since the last knock and since the last
  strike decided;
- **against this session**, so that nothing rests on an absolute level or timbre that moves
  with the microphone, the table and the room: its level against the room's voices and recent
  knocks; its onset strength and level ranked among the room's sounds of the last 10 s; and how
  close its timbre is to the strikes already decided in this session and to those strokes'
  own clacks (a table's strikes sound alike, whatever they sound like);
- **what follows it, by its timbre**: how close the sounds after it come to this session's
  clacks and strikes, talk or not (a stroke spoken over still sets the balls going, and its
  clacks sound like this table's clacks), and whether a strike-like sound came just before it
  (then it is more likely that stroke's own);
- **against the room's usual knock**: its timbre, brightness and decay against the median of the
  knocks heard in the last 20 s, whatever they were (a strike stands apart from a table's clacks
  and a café's clatter in the same way on every table).

The decision model (:mod:`.sound_class`, binary, fitted by ``corpora/audio/fit_decision.py``)
reads these and gives the probability that the candidate is a strike.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np

from .onsets import BAND_FEATURES, FEATURES, LONG_FEATURES, percentile

HORIZON_S = 1.2
"""How long after a candidate the decision waits (the audio its features read)."""

CONTEXT_FEATURES = (
    "talk_before_05",
    "talk_before_3",
    "talk_after_03",
    "talk_after_h",
    "since_talk",
    "talk_stretch_s",
    "next_talk_s",
    "n_after",
    "n_after_knock",
    "first_after_s",
    "max_after_rel_db",
    "prev_knock_s",
    "n_before_1s",
    "since_strike",
    "level_rel_voice",
    "level_rel_knocks",
    "timbre_to_strikes",
    "timbre_to_clacks",
    "strikes_known",
    "loudest_before_1s",
    "loudest_before_3s",
    "strongest_before_1s",
    "as_loud_before_1s",
    "as_loud_before_3s",
    "n_after_as_loud",
    "loudest_after",
    "first_after_as_loud_s",
    "room_flux_p90",
    "room_level_p90",
    "room_sounds_10s",
    "flux_rank_10s",
    "peak_rank_10s",
    "after_to_clacks",
    "after_clacklike",
    "after_to_strikes",
    "before_to_strikes",
    "timbre_to_room",
    "centroid_rel_room",
    "decay_rel_room",
)

SEQ_FEATURES = LONG_FEATURES + BAND_FEATURES + CONTEXT_FEATURES
"""The decision model's inputs, in order."""

NONE = -99.0
"""A feature that has nothing to measure yet (no voice heard so far, no knock before)."""

TIMBRE = FEATURES[: FEATURES.index("band_4k") + 1] + ("decay_db",)
"""The features whose distance says how alike two sounds are (their timbre)."""

_TIMBRE_I = [FEATURES.index(n) for n in TIMBRE]
TIMBRE_SCALE = np.array(
    [0.81, 0.268, 0.334, 0.232, 0.0602, 0.91, 0.866, 0.745, 0.825, 0.808, 1.10, 4.44]
)
"""Each timbre feature's spread (standard deviation) among every sound of 540 mixed sessions:
the unit of the distance."""

_I_LEVEL = FEATURES.index("level_db")
_I_FLUX = FEATURES.index("flux_db")

SALIENT_DB = 10.0
SALIENT_FLUX_DB = 6.0


@dataclass
class Heard:
    """An impulsive sound as the sequence sees it."""

    time: float
    features: tuple[float, ...]  # the first look's (:data:`FEATURES`)
    peak_db: float  # its loudest ms, dBFS
    talk: bool | None = None  # talk at it or right after it (a syllable, or a knock spoken
    # over); known once the speech layer has judged the frames it reads

    @property
    def salient(self) -> bool:
        """Clearly a sound, not a ripple of the noise: ``SALIENT_DB`` over the background and a
        sharp rise. (Candidates are proposed far below this, so that no strike is missed; the
        stillness before a strike and the cascade after it are read from the salient ones.)"""
        return self.features[_I_LEVEL] >= SALIENT_DB and self.features[_I_FLUX] >= SALIENT_FLUX_DB

    @property
    def flux(self) -> float:
        return self.features[_I_FLUX]

    def talked(self, vad) -> bool:
        """Talk at it or within 60 ms after it (a syllable's consonant is followed by its vowel
        within tens of ms). Kept once the speech layer has judged the frames it reads, so that
        the answer does not depend on how the stream was cut."""
        if self.talk is not None:
            return self.talk
        talk = vad.foreground_between(self.time - 0.02, self.time + 0.06) > 0
        if vad.speech_heard_to >= self.time + 0.06:
            self.talk = talk
        return talk

    def is_knock(self, vad) -> bool:
        """A salient sound with no talk at it or right after it: a table sound."""
        return self.salient and not self.talked(vad)


def _timbres(sounds) -> np.ndarray:
    """The sounds' timbres, one row each (:data:`TIMBRE` features, unscaled)."""
    return np.array([[h.features[k] for k in _TIMBRE_I] for h in sounds], dtype=float)


def nearest_timbre(sounds, others) -> np.ndarray:
    """Each of ``sounds``' distance to the nearest of ``others`` (both non-empty), in
    :data:`TIMBRE_SCALE` units."""
    a, b = _timbres(sounds) / TIMBRE_SCALE, _timbres(others) / TIMBRE_SCALE
    return np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2).min(axis=1)


def timbre_distance(c: Heard, others: list[Heard]) -> float:
    """How close ``c`` sounds to the nearest of ``others`` (in :data:`TIMBRE_SCALE` units), or
    :data:`NONE` when there are none."""
    return float(nearest_timbre([c], others)[0]) if others else NONE


@dataclass(frozen=True)
class Session:
    """What the detector knows of the session around a candidate: the sounds heard (``heard``,
    in time order, ``times`` their times), the voice activity, the strikes decided so far and
    their strokes' own knocks (``clacks``)."""

    heard: list[Heard]
    times: list[float]
    vad: object
    strikes: tuple[Heard, ...] = ()
    clacks: tuple[Heard, ...] = ()

    @classmethod
    def at(cls, t: float, heard, times, vad, strikes, known_clacks=()) -> Session:
        """The session as a candidate at ``t`` sees it: the ``strikes`` decided before it (in
        time order), and as clacks ``known_clacks`` (a profile's) then the table sounds up to
        2 s after each of the last three of those strikes (their strokes' own knocks)."""
        strikes = tuple(s for s in strikes if s.time < t - 0.05)
        clacks = list(known_clacks)
        for st in strikes[-3:]:
            i = bisect_right(times, st.time + 0.05)
            j = bisect_left(times, min(st.time + 2.0, t))
            clacks += [h for h in heard[i:j] if h.is_knock(vad)]
        return cls(heard, times, vad, strikes, tuple(clacks))


CLACKLIKE = 1.5
"""A sound this close to this session's clacks (:data:`TIMBRE_SCALE` units) sounds like one."""


def _echoes(c: Heard, s: Session, h_end: float) -> tuple[float, ...]:
    """Whether what follows ``c`` sounds like this table's clacks and strikes (talk or not: a
    stroke spoken over still sets the balls going), and whether what came just before it sounds
    like a strike (then ``c`` is more likely its stroke's own)."""
    t = c.time
    i, j = bisect_left(s.times, t + 0.05), bisect_right(s.times, h_end)
    after = [h for h in s.heard[i:j] if h.salient]
    k = bisect_left(s.times, t - 1.0)
    before = [h for h in s.heard[k : bisect_left(s.times, t - 0.03)] if h.salient]
    clacks, strikes = s.clacks[-20:], s.strikes[-8:]
    to_clacks = nearest_timbre(after, clacks) if after and clacks else None
    return (
        float(to_clacks.min()) if to_clacks is not None else NONE,
        float((to_clacks < CLACKLIKE).sum()) if to_clacks is not None else NONE,
        float(nearest_timbre(after, strikes).min()) if after and strikes else NONE,
        float(nearest_timbre(before, strikes).min()) if before and strikes else NONE,
    )


_J_CENTROID = TIMBRE.index("log_centroid")
_J_DECAY = TIMBRE.index("decay_db")


def _against_room(c: Heard, s: Session) -> tuple[float, float, float]:
    """How ``c`` sounds against the usual table sound of the last 20 s (the median timbre of the
    knocks heard, whatever they were): a table's strikes stand apart from its clacks in the same
    way on every table, whatever both sound like."""
    lo, hi = bisect_left(s.times, c.time - 20.0), bisect_left(s.times, c.time - 0.03)
    room = [h for h in s.heard[lo:hi] if h.is_knock(s.vad)]
    if len(room) < 5:
        return NONE, NONE, NONE
    d = _timbres([c])[0] - np.median(_timbres(room), axis=0)
    return float(np.linalg.norm(d / TIMBRE_SCALE)), float(d[_J_CENTROID]), float(d[_J_DECAY])


def _frac(vad, a: float, b: float) -> float:
    return vad.foreground_between(a, b) / max(b - a, 1e-3)


def _talk(c: Heard, s: Session, h_end: float, horizon: float) -> tuple[float, ...]:
    vad, t = s.vad, c.time
    last = vad.foreground_before(t - 0.03)
    nxt = vad.foreground_after(t + 0.02)
    return (
        _frac(vad, t - 0.5, t - 0.03),
        _frac(vad, t - 3.0, t - 0.5),
        _frac(vad, t + 0.02, min(t + 0.3, h_end)) if h_end > t + 0.05 else 0.0,
        _frac(vad, t + 0.3, h_end) if h_end > t + 0.35 else 0.0,
        min(t - last, 5.0) if last is not None else 5.0,
        min(last - vad.stretch_start(last) + 0.03, 5.0) if last is not None else 0.0,
        min(nxt - t, horizon) if nxt is not None else horizon,
    )


def _table(c: Heard, s: Session, h_end: float, horizon: float, since: float):
    vad, t = s.vad, c.time
    i, j = bisect_left(s.times, t), bisect_right(s.times, h_end)
    after = [h for h in s.heard[i:j] if h.time > t + 0.05]
    knocks_after = [h for h in after if h.is_knock(vad)]
    before = [h for h in s.heard[max(0, i - 200) : i] if h.salient]
    knocks_before = [h for h in before if h.is_knock(vad)]
    prev_knock = knocks_before[-1].time if knocks_before else None
    recent = knocks_before[-20:]
    voice_db = vad.voice_level_db(t, speech=True)
    return (
        float(sum(1 for h in after if h.salient)),
        float(len(knocks_after)),
        (knocks_after[0].time - t) if knocks_after else horizon,
        (max(h.peak_db for h in knocks_after) - c.peak_db) if knocks_after else -40.0,
        min(t - prev_knock, 5.0) if prev_knock is not None else 5.0,
        float(sum(1 for h in before if h.time >= t - 1.0)),
        min(since, 10.0),
        (c.peak_db - voice_db) if voice_db is not None else NONE,
        (c.peak_db - float(np.median([h.peak_db for h in recent]))) if len(recent) >= 3 else NONE,
        timbre_distance(c, list(s.strikes[-8:])),
        timbre_distance(c, list(s.clacks[-20:])),
        float(len(s.strikes)),
    )


def _around(c: Heard, s: Session, h_end: float, horizon: float) -> tuple[float, ...]:
    """The sounds with no talk at them, around ``c``: against it, and the room's last 10 s."""
    vad, t, pk = s.vad, c.time, c.peak_db

    def quiet(a: float, b: float) -> list[Heard]:
        lo, hi = bisect_left(s.times, a), bisect_left(s.times, b)
        return [h for h in s.heard[lo:hi] if not h.talked(vad)]

    b1, b3 = quiet(t - 1.0, t - 0.03), quiet(t - 3.0, t - 1.0)
    after = quiet(t + 0.05, h_end)
    as_loud = [h for h in after if h.peak_db >= pk - 10.0]
    room = quiet(t - 10.0, t - 0.03)
    flux = np.array([h.flux for h in room])
    peak = np.array([h.peak_db for h in room])
    level = np.array([h.features[_I_LEVEL] for h in room])
    many = len(room) >= 5
    return (
        (max(h.peak_db for h in b1) - pk) if b1 else -60.0,
        (max(h.peak_db for h in b3) - pk) if b3 else -60.0,
        (max(h.flux for h in b1) - c.flux) if b1 else -40.0,
        float(sum(1 for h in b1 if h.peak_db >= pk - 6.0)),
        float(sum(1 for h in b3 if h.peak_db >= pk - 6.0)),
        float(len(as_loud)),
        (max(h.peak_db for h in after) - pk) if after else -60.0,
        (as_loud[0].time - t) if as_loud else horizon,
        percentile(flux.tolist(), 90) if many else NONE,
        percentile(level.tolist(), 90) if many else NONE,
        float(len(room)),
        float((flux < c.flux).mean()) if many else NONE,
        float((peak < pk).mean()) if many else NONE,
    )


def context_features(
    c: Heard,
    long: tuple[float, ...],
    band: tuple[float, ...],
    session: Session,
    since_strike: float,
    horizon: float = HORIZON_S,
    end: float | None = None,
) -> tuple[float, ...]:
    """:data:`SEQ_FEATURES` of candidate ``c`` (``long``: its :data:`LONG_FEATURES`, ``band``:
    its :data:`BAND_FEATURES`) in ``session``; ``since_strike``: seconds since the stroke it
    may belong to began. ``end``: the end of the audio when it ends within the horizon."""
    h_end = c.time + horizon if end is None else min(c.time + horizon, end)
    f = (
        _talk(c, session, h_end, horizon)
        + _table(c, session, h_end, horizon, since_strike)
        + _around(c, session, h_end, horizon)
        + _echoes(c, session, h_end)
        + _against_room(c, session)
    )
    return tuple(long) + tuple(band) + tuple(float(v) for v in f)


__all__ = [
    "HORIZON_S",
    "SEQ_FEATURES",
    "CONTEXT_FEATURES",
    "NONE",
    "TIMBRE",
    "Heard",
    "Session",
    "context_features",
    "nearest_timbre",
    "timbre_distance",
]
