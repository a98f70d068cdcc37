"""The strike detector: the cue tip on the cue ball, read from the table's sounds as strokes.

Four steps, all causal, fed block by block on the stream's clock:

1. **Every impulsive sound** (:mod:`.onsets`): a broadband onset detector (no band thrown away)
   finds each knock and measures its shape over the 16 ms after it.
2. **What it sounds like** (:mod:`.sound_class`): a small model fitted to recorded billiards
   sounds gives the probability that it is the cue tip (a dull thock, mostly below 1 kHz, ringing
   tens of ms), a ball-ball clack (sharp and bright), a cushion, a pocket drop, a clap or speech.
3. **What the table says** (this module). The table is still before a stroke (P1 и), and the call
   comes first; so the **strike is the first knock on a quiet table after the call**: the first
   impulsive sound that is not speech or a clap (``voice_p``). With no call before it, or while
   somebody talks, a knock must also sound like a tip (``tip_k_alone``): a rack being set or a
   ball put on its spot come without a call. Sound alone cannot tell a tip from a pocket drop
   (both dull), but on a quiet table there is nothing to drop. Every table sound after the strike
   (collisions, cushions, pocket drops) is the stroke's own, until the table is quiet again:
   ``quiet_s`` without a table sound, or **a new call** (``min_call_s`` of voiced speech after the
   stroke's last table sound: players call when the balls have stopped). So a strike soon after
   the next call is never lost, however soon after the previous stroke it comes.
4. **A second look, 150 ms later.** The first look sees only 16 ms of a sound, so the strike can
   be reported within 30 ms. 150 ms after the onset a second model hears more: whether the sound
   died away like a knock or went on like a syllable's vowel (a knock is ``min_decay_db`` under its
   peak 60–150 ms on), whether a voice began. A strike it does not confirm is taken back (``retracted``: the first consonant of a word); a tip-like knock
   on a quiet table the first look passed over, and the second calls a strike, is reported then
   (``late``). Listeners act on a strike later than that (``listen`` decides the call 0.4 s after
   it), so nothing acts on a strike that is taken back.

Speech is found by its voicing (:class:`.onsets.VoiceActivity`): 30 ms frames of the band 70 Hz–
1 kHz, a periodicity at a pitch period of 2.5–12.5 ms and a level above the background.

Each decision keeps its reason (``sounds``: time, class, probabilities, decision, why) for
``strikes --explain``. A strike that is not clearly a tip (``sure_tip_k``, ``sure_voice_p``) is
counted but marked unsure, and a sound on a quiet table that was not taken but might be a tip
(``unsure_tip_k``) is listed as a possible strike (``unsure``): ``listen`` says so on screen, and
``--strike key`` stays the fall-back.

Latency: an onset is decided 18 ms (``post_ms`` + 2) after it; with 10 ms blocks the report comes
19–29 ms after the onset (a late strike: about 180 ms). The reported time is the onset.

A table profile (:mod:`.profile`, made by ``strikes calibrate``) may shift the tip's logit and the
level floor for one table, microphone and room; the defaults are meant to work without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

import numpy as np

from .audio import RATE, Frame, array_frames, resample
from .onsets import FEATURES, LONG_FEATURES, Onset, OnsetDetector, OnsetParams, VoiceActivity
from .sound_class import CLASSES, SoundModel, load_long_model, load_model


@dataclass(frozen=True)
class StrikeParams:
    """The detector's settings."""

    voice_p: float = 0.5          # speech or clap from this probability: no ball moved, not a strike
    tip_k_alone: float = 0.3      # with no call before it (or during talk), a knock this tip-like
                                  # among the knocks is a strike
    call_window_s: float = 10.0   # a call counts as "before" a knock this long after it
    talk_gap_s: float = 0.35      # talk is going on when a voice was heard in the last this-long
                                  # (a pause between the words of one call is shorter)
    sure_tip_k: float = 0.4       # a strike is sure when this tip-like among knocks …
    sure_voice_p: float = 0.2     # … and this little like speech or a clap
    unsure_tip_k: float = 0.3     # a sound not taken is a possible strike (shown, not counted) …
    unsure_voice_p: float = 0.7   # … when this tip-like among knocks and this little like speech
    min_decay_db: float = 4.0     # a knock dies away: 60–150 ms after it, this far under its peak
                                  # (checked by the second look, unless talk goes on over it)
    quiet_s: float = 3.0          # the table is quiet this long after the stroke's last table sound
    min_call_s: float = 0.15      # voiced speech after the last table sound that ends a stroke
    min_stroke_s: float = 0.3     # a call ends a stroke only this long after its strike
    max_stroke_s: float = 15.0    # a stroke never lasts longer (steady knocking is not one stroke)
    min_level_db: float = -75.0   # a strike's loudest ms (dBFS) is at least this
    tip_bias: float = 0.0         # added to the tip's logit (a table profile's adjustment)
    onset: OnsetParams = field(default_factory=OnsetParams)


@dataclass(frozen=True)
class Sound:
    """An impulsive sound the detector heard, and what it decided."""

    time: float                  # onset (s)
    kind: str                    # the most likely class (tip, ball, cushion, pocket, clap, speech, other)
    p_tip: float                 # probability that it is the cue tip
    proba: tuple[float, ...]     # every class's probability (CLASSES order)
    decision: str                # "strike" | "in-stroke" | "moving" | "not-tip" | "unsure" | "quiet-floor"
                                 # | "retracted" (reported, then taken back by the second look)
    reason: str                  # why, in English (the CLI words it for the user)
    sure: bool = True            # for a strike: clearly a tip
    features: tuple[float, ...] = ()
    after: str = ""              # what made the table ready ("quiet" | "call" | "long"), with
                                 # "+call" when a call was said before it, "+talk" while talk went on
    since_strike: float | None = None   # for a stroke's own sound: seconds after its strike
    tip_k: float = 0.0           # the tip's probability among the knocks (speech and claps left out)
    late: bool = False           # a strike the second look found (reported ~180 ms after its onset)

    def feature(self, name: str) -> float:
        return self.features[FEATURES.index(name)]

    def to_json(self) -> dict:
        return {"time": round(self.time, 4), "kind": self.kind, "p_tip": round(self.p_tip, 3),
                "tip_among_knocks": round(self.tip_k, 3), "decision": self.decision, "sure": self.sure,
                "late": self.late, "reason": self.reason,
                "centroid_hz": round(float(np.exp(self.feature("log_centroid")))) if self.features else None,
                "low1k": round(self.feature("low1k"), 3) if self.features else None}


Candidate = Sound  # the diagnostics record's earlier name


def class_proba(model: SoundModel, features, tip_bias: float = 0.0) -> np.ndarray:
    """The model's class probabilities with ``tip_bias`` added to the tip's logit (a profile's)."""
    lg = np.array(model.logits(features), dtype=float)
    lg[model.tip_index()] += tip_bias
    lg = lg - lg.max()
    pr = np.exp(lg)
    return pr / pr.sum()


@dataclass(frozen=True)
class Look:
    """What a sound's class probabilities say, in the terms the decision uses."""

    kind: str          # the most likely class
    p_tip: float
    p_voice: float     # speech or a clap: nothing moved on the table
    tip_k: float       # the tip's share among the knocks (tip, ball, cushion, pocket, other)
    ball_k: float      # the ball-on-ball clack's share among the knocks

    @classmethod
    def of(cls, pr: np.ndarray, classes: tuple[str, ...]) -> "Look":
        d = dict(zip(classes, map(float, pr)))
        knock = sum(v for c, v in d.items() if c not in ("speech", "clap")) + 1e-12
        return cls(classes[int(np.argmax(pr))], d["tip"], d["speech"] + d["clap"], d["tip"] / knock,
                   d["ball"] / knock)


def on_quiet_table(look: Look, p: StrikeParams, after_call: bool = True,
                   talking: bool = False) -> tuple[str, bool]:
    """The decision on a sound when the table is quiet: ``("strike", sure)``, ``("moving", …)``
    (balls moving without a strike heard, e.g. a rack being set) or ``("not-tip", …)`` (speech or
    a clap). Right after a call (``after_call``: a call said since the table's last sound, and
    over), the first knock is the strike whatever it sounds like, unless it is speech or a clap:
    that is when a strike comes. With no call before it, a knock must also sound like a tip
    (``tip_k_alone``): a ball knocked on the table, a rack being set, a ball put on its spot come
    without a call. While somebody talks (``talking``) a knock must sound like a tip too (a strike
    spoken over still does), and one that does not is taken for part of the talk."""
    if look.p_voice >= p.voice_p:
        return "not-tip", True
    sure = look.tip_k >= p.sure_tip_k and look.p_voice < p.sure_voice_p
    if after_call and not talking:
        return "strike", sure
    if look.tip_k < p.tip_k_alone:
        return ("not-tip" if talking or look.p_voice >= p.sure_voice_p else "moving"), True
    return "strike", sure


class StrikeDetector:
    """Causal strike detector fed block by block on the shared clock.

    ``feed(block, t0)`` takes float samples at ``rate`` and the time (s) of the block's first
    sample, and returns the strike times (s) decided with this block. ``sounds`` keeps the last
    ``max_sounds`` impulsive sounds with the decision on each; ``unsure`` the possible strikes
    (times) not counted; ``strikes`` every strike standing, as its :class:`Sound`; ``retracted``
    the times of strikes reported and then taken back by the second look.
    Blocks may have any length; the result does not depend on how the stream is cut.
    """

    def __init__(self, rate: int = RATE, params: StrikeParams | None = None, *,
                 model: SoundModel | None = None, long_model: SoundModel | None = None, profile=None,
                 **overrides) -> None:
        p = params or StrikeParams()
        if profile is not None:
            p = profile.apply(p)
        if overrides:
            onset_keys = {k: overrides.pop(k) for k in list(overrides)
                          if hasattr(p.onset, k) and not hasattr(p, k)}
            if onset_keys:
                p = replace(p, onset=replace(p.onset, **onset_keys))
            p = replace(p, **overrides)
        self.params = p
        self.rate = int(rate)
        self.model = model or load_model()
        self.long_model = long_model or load_long_model()
        self.onsets = OnsetDetector(self.rate, p.onset)
        self.vad: VoiceActivity = self.onsets.vad
        self._n = 0
        self._offset = 0.0
        self._in_stroke = False
        self._stroke_start = -np.inf
        self._last_table = -np.inf       # the last table sound of the stroke (or of moving balls)
        self.sounds: list[Sound] = []
        self.strikes: list[Sound] = []
        self.unsure: list[float] = []
        self.retracted: list[float] = []
        self._pending: list[tuple[Sound, tuple | None, Onset]] = []   # waiting for the second look
        self.max_sounds = 2000

    @property
    def look_ahead_s(self) -> float:
        """Audio needed after a sound's onset before it is decided."""
        return self.onsets.look_ahead_s

    @property
    def time(self) -> float:
        return self._offset + self._n / self.rate

    def feed(self, block: np.ndarray, t0: float | None = None) -> list[float]:
        """Feed one block (float samples); return the strike times decided now."""
        x = np.asarray(block, dtype=np.float64).reshape(-1)
        if t0 is not None:
            self._offset = float(t0) - self._n / self.rate
        if len(x) == 0:
            return []
        self._n += len(x)
        out = []
        for o in self.onsets.feed(x, None if t0 is None else float(t0)):
            s = self._judge(o)
            if len(self.sounds) >= self.max_sounds:
                del self.sounds[: self.max_sounds // 2]
            self.sounds.append(s)
            if s.decision == "strike":
                self.strikes.append(s)
                out.append(round(s.time, 4))
            elif s.decision == "unsure":
                self.unsure.append(s.time)
        for s in self._second_look():
            out.append(round(s.time, 4))
        return out

    def flush(self) -> list[float]:
        """End of stream. A sound is decided only with its 16 ms of real audio after it, so nothing
        is left to decide (padding with silence would make a sound cut off look like a knock)."""
        return []

    # ------------------------------------------------------------------------------------------
    def _judge(self, o: Onset) -> Sound:
        p = self.params
        pr = class_proba(self.model, o.features, p.tip_bias)
        look = Look.of(pr, self.model.classes)
        kind, p_tip, t = look.kind, look.p_tip, o.time

        def sound(decision: str, reason: str, sure: bool = True, after: str = "",
                  since: float | None = None) -> Sound:
            return Sound(t, kind, p_tip, tuple(float(v) for v in pr), decision, reason, sure, o.features,
                         after, since, look.tip_k)

        if self._in_stroke:
            quiet = t - self._last_table >= p.quiet_s
            called = (t - self._stroke_start >= p.min_stroke_s
                      and self.vad.voiced_since(self._last_table) >= p.min_call_s)
            too_long = t - self._stroke_start >= p.max_stroke_s
            if quiet or called or too_long:
                self._in_stroke = False
                after = "quiet" if quiet else "call" if called else "long"
            else:
                if look.p_voice < p.voice_p:
                    self._last_table = t
                return sound("in-stroke", f"the stroke's own sound ({kind}), "
                             f"{t - self._stroke_start:.2f} s after the strike",
                             since=t - self._stroke_start)
        else:
            after = "quiet"
        why = {"quiet": "the table was quiet", "call": "a call was said after the stroke's last sound",
               "long": "the stroke went on too long"}[after]
        called = self._after_call(t)
        talking = self.vad.voiced_between(t - p.talk_gap_s, t) > 0
        tags = after + ("+call" if called else "") + ("+talk" if talking else "")
        decision, sure = on_quiet_table(look, p, called, talking)
        # not taken, yet not far from a tip: shown as a possible strike (listen says so)
        maybe = look.tip_k >= p.unsure_tip_k and look.p_voice < p.unsure_voice_p
        if decision == "not-tip":
            s = sound("unsure" if maybe else "not-tip", f"sounds like {kind} (p={look.p_voice:.2f}), "
                      f"no ball moved", after=tags)
            self._pending.append((s, None, o))
            return s
        if decision == "moving":
            self._in_stroke = True
            self._stroke_start = t
            self._last_table = t
            return sound("unsure" if maybe else "moving",
                         f"a knock with no call before it that does not sound like a tip "
                         f"(tip {look.tip_k:.2f} among knocks): balls moved without a strike", after=tags)
        peak_db = self.onsets.background_db() + o.feature("level_db")
        if peak_db < p.min_level_db:
            return sound("quiet-floor", f"a knock after {why}, but too faint ({peak_db:.0f} dBFS)", after=tags)
        snapshot = (self._in_stroke, self._stroke_start, self._last_table)
        self._in_stroke = True
        self._stroke_start = t
        self._last_table = t
        s = sound("strike", f"the first knock after {why}{' and a call' if called else ''} "
                  f"(tip {look.tip_k:.2f} among knocks, speech/clap {look.p_voice:.2f})", sure, tags)
        self._pending.append((s, snapshot, o))
        return s

    def _after_call(self, t: float) -> bool:
        """Was a call said since the table's last sound (and within ``call_window_s``)?"""
        p = self.params
        since = max(self._last_table, t - p.call_window_s)
        return self.vad.voiced_between(since, t - p.talk_gap_s) >= p.min_call_s

    def _second_look(self) -> list[Sound]:
        """The second look, ``LONG_S`` (150 ms) after an onset, with the long model (which also
        hears whether the sound died away like a knock or went on like a syllable, and whether a
        voice began). A strike it does not confirm is taken back (``retracted``); a tip-like knock
        on a quiet table that the first look passed over and the second calls a strike is reported
        then, late (``late``), if nothing moved since. Returns the late strikes."""
        p = self.params
        late, keep = [], []
        for s, snapshot, o in self._pending:
            lf = self.onsets.long_features(o)
            if lf is None:
                keep.append((s, snapshot, o))
                continue
            look = Look.of(class_proba(self.long_model, lf, p.tip_bias), self.long_model.classes)
            decision, sure = on_quiet_table(look, p, "+call" in s.after, "+talk" in s.after)
            went_on = lf[LONG_FEATURES.index("sustain_150")] > -p.min_decay_db
            if went_on and "+talk" not in s.after:
                decision = "not-tip"    # 60–150 ms on it is as loud as it began: no knock does that
            i = next((i for i, x in enumerate(self.sounds) if x is s), None)
            if s.decision == "strike":
                if decision == "strike":
                    r = replace(s, sure=s.sure and sure, tip_k=min(s.tip_k, look.tip_k))
                    self.strikes = [r if x is s else x for x in self.strikes]
                else:
                    self.retracted.append(round(s.time, 4))
                    self.strikes = [x for x in self.strikes if x is not s]
                    r = replace(s, decision="retracted", kind=look.kind,
                                reason=f"the second look (150 ms) hears {look.kind}, not a knock on the table")
                    if snapshot is not None and self._stroke_start == s.time:   # as if never begun
                        self._in_stroke, self._stroke_start, self._last_table = snapshot
            elif (decision == "strike" and self._stroke_start < s.time       # nothing moved since
                  and look.tip_k >= p.tip_k_alone):                         # and it sounds like a tip
                r = replace(s, decision="strike", late=True, sure=False, kind=look.kind, tip_k=look.tip_k,
                            reason="passed over at first; the second look (150 ms) hears the first knock on "
                                   "a quiet table")
                self._in_stroke = True
                self._stroke_start = s.time
                self._last_table = max(self._last_table, s.time)
                self.strikes.append(r)
                late.append(r)
            else:
                continue
            if i is not None:
                self.sounds[i] = r
        self._pending = keep
        return late


def detect_strikes(samples: np.ndarray, rate: int = RATE, *, block_ms: float = 10.0,
                   **params) -> list[float]:
    """Strike times (s) in a whole signal: the causal detector run block by block, then flushed;
    strikes the second look took back are left out."""
    x = np.asarray(samples, dtype=np.float32)
    if x.ndim > 1:
        x = x.mean(axis=1)
    if rate != RATE:
        x = resample(x, rate, RATE)
    det = StrikeDetector(RATE, **params)
    out: list[float] = []
    for frame in array_frames(x, block_ms):
        out += det.feed(frame.samples, frame.t0)
    out += det.flush()
    gone = set(det.retracted)
    return sorted(t for t in out if t not in gone)


def run_detector(frames: Iterable[Frame], detector: StrikeDetector | None = None):
    """Feed frames to a detector; yield ``(strike_time, stream_time_when_reported)`` pairs.

    The second value is the stream time at the end of the block that produced the report: the
    report latency is ``stream_time - true onset``. A strike reported here may be taken back
    later by the second look (``detector.retracted``).
    """
    det = detector or StrikeDetector()
    end = 0.0
    for frame in frames:
        end = frame.t1
        for t in det.feed(frame.samples, frame.t0):
            yield t, end
    for t in det.flush():
        yield t, end


__all__ = ["StrikeParams", "Sound", "Candidate", "StrikeDetector", "VoiceActivity", "Look", "class_proba",
           "on_quiet_table", "detect_strikes", "run_detector", "CLASSES"]
