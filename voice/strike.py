"""The strike detector: the cue tip on the cue ball, decided from the stroke that follows it.

Three steps, all causal, fed block by block on the stream's clock:

1. **Candidates** (:mod:`.onsets`): a broadband onset detector tuned for near-total recall (a
   strike never proposed is never found) proposes every impulsive sound, a few to ten a second in
   talk, and measures its shape over the 16 ms and the 150 ms after it.
2. **At once, a provisional «удар?»** (``events``): a candidate on a table that is not in a stroke
   and that the first-look sound model (:mod:`.sound_class`) does not hear as speech or a clap.
   Screens may show it; nothing counts it.
3. **The decision, ``decide_after_s`` (1.2 s) after the onset** (:mod:`.sequence`): the strike is
   the first table sound after stillness, and it is confirmed by what follows it, the stroke's own
   cascade (the cue ball on the object ball, cushions, a pocket drop, 0.05–2 s later), where a
   consonant is followed by a vowel and more words. A small model (gradient-boosted trees fitted by
   ``corpora/audio/fit_decision.py`` on whole mixed sessions with real and synthetic voices, room
   noise, reverberation, phone-microphone EQ and other tables' timbres, read with a clock that
   errs as a detector does) reads the candidate's shape, what came before it, what followed it,
   its level against this room's voices and knocks and its timbre against this session's strikes
   and clacks, and gives the probability that it is a strike (a strike from ``strike_p``). A
   strike decided is never taken back; a provisional one that is not confirmed is taken back
   (``retracted``, «снят»). Every sound in the ``min_gap_s`` after a strike is the stroke's own,
   and every one in the ``rolling_s`` (3 s) after it while nothing is said: the balls still roll.

**The recognizer's words** (``hear_words``, ``hearing``; ``listen``, ``transcribe`` and the pad
tell them, ``strikes FILE`` has none): a knock inside a recognized word, or inside an utterance
being heard since before it whose words are not known yet, is the talk's unless the stroke's
cascade follows it: a sound like this session's clacks (talk or not: a strike spoken over still
sets the balls going), or a knock outside the talk (in an utterance whose words are not known yet,
one the first look hears as a table sound too: the voice activity marks only about half of a call's
word time as voice, and the call's next plosive is no cascade); a knock that would be a strike when
an utterance begins after it waits for that utterance's words (Vosk gives them with its final
result, now and then in a partial one: ``hear_words(…, final=False)``), up to ``max_decide_s``
(1.45 s) after its onset. A call said after a stroke's last table sound, and
over, ends that stroke (from the words, else from the voice): the next knock is no longer the
stroke's own.

The reported time is always the onset; the decision comes ``decide_after_s`` + one block after it
(``flush`` decides what is left at the end of a stream with the audio there is). Because the file
and the microphone feed the same detector block by block, ``strikes FILE``, ``strikes --mic``,
``transcribe`` and ``listen`` decide the same strikes for the same audio.

Each decision keeps its reason (``sounds``: time, class, probabilities, decision, why) for
``strikes --explain``. A strike below ``sure_p`` is counted but marked unsure; a sound not taken
above ``unsure_p`` is listed as a possible strike (``unsure``).

A table profile (:mod:`.profile`, made by ``strikes calibrate``) sets the level floor for one
table, microphone and room, and gives the decision this table's strikes and clacks from the start
(their timbre, as if heard in earlier strokes); the defaults are meant to work without one.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import accumulate

import numpy as np

from . import denoise
from .audio import RATE, Frame, array_frames, resample
from .messages import N_
from .onsets import BAND_FEATURES, FEATURES, Onset, OnsetDetector, OnsetParams, VoiceActivity
from .sequence import SEQ_FEATURES, Heard, Session, context_features, nearest_timbre
from .sound_class import (
    CLASSES,
    SoundModel,
    load_long_model,
    load_model,
    load_rnn_model,
    load_seq_model,
)


@dataclass(frozen=True)
class StrikeParams:
    """The detector's settings."""

    voice_p: float = 0.5  # speech or clap from this probability: no ball moved, not a strike
    tip_k_alone: float = 0.3  # with no call before it (or during talk), a knock this tip-like
    # among the knocks is a strike
    call_window_s: float = 10.0  # a call counts as "before" a knock this long after it
    talk_gap_s: float = 0.35  # talk is going on when a voice was heard in the last this-long
    # (a pause between the words of one call is shorter)
    sure_tip_k: float = 0.4  # a strike is sure when this tip-like among knocks …
    sure_voice_p: float = 0.2  # … and this little like speech or a clap
    unsure_tip_k: float = 0.3  # a sound not taken is a possible strike (shown, not counted) …
    unsure_voice_p: float = 0.7  # … when this tip-like among knocks and this little like speech
    min_decay_db: float = 4.0  # a knock dies away: 60–150 ms after it, this far under its peak
    # (checked by the second look, unless talk goes on over it)
    quiet_s: float = 3.0  # the table is quiet this long after the stroke's last table sound
    min_call_s: float = 0.15  # voiced speech after the last table sound that ends a stroke
    min_stroke_s: float = 0.3  # a call ends a stroke only this long after its strike
    max_stroke_s: float = 15.0  # a stroke never lasts longer (steady knocking is not one stroke)
    min_level_db: float = -75.0  # a strike's loudest ms (dBFS) is at least this
    tip_bias: float = 0.0  # added to the tip's logit and to the strike's (a table profile's)
    decide_after_s: float = 1.2  # a knock is decided this long after its onset (what follows it)
    max_decide_s: float = 1.45  # … or up to this long, while the words being heard are awaited
    strike_p: float = 0.6  # a knock is a strike from this probability (the decision model's:
    # 0.5 finds a few more strikes and takes a few more consonants, 0.7 the other way round)
    sure_p: float = 0.85  # … and a sure one from this
    unsure_p: float = 0.4  # a knock not taken from this probability is shown as a possible strike
    min_gap_s: float = 0.3  # every sound this soon after a strike is the stroke's own …
    rolling_s: float = 3.0  # … and every one this soon with nothing said since it (the balls
    # still roll, P1: cuts the false strikes in a stroke's cascade by a third)
    call_ends_stroke: bool = True  # a call said after a stroke's last table sound ends it
    call_quiet_s: float = 0.2  # … once no voice was heard this long
    cascade_in_words: bool = False  # a knock inside a word may be the cascade that confirms
    utterance_as_word: bool = True  # an utterance being heard since before a knock (no word
    # times yet: Vosk gives them with its final result) counts as a word over it
    hold_in_utterance: bool = False  # … and a knock in it that its cascade would make a strike
    # waits for its words too, up to ``max_decide_s`` (tried: the words come too late for it)
    cascade_table_look: bool = True  # … and only knocks the first look does not hear as speech
    # or a clap count as its cascade (the voice activity marks only about half of a call's word
    # time as voice: the call's later plosives looked like the stroke's cascade)
    cascade_clacklike: bool = True  # a salient sound close in timbre to this session's clacks
    # counts as the cascade after a knock in words, talk or not (a strike spoken over still sets
    # the balls going)
    clacklike_distance: float = 2.0  # … this close (``TIMBRE_SCALE`` units; 1.5, the decision
    # model's ``CLACKLIKE``, finds fewer strikes spoken over, 2.5 lets more plosives through)
    word_lead_s: float = 0.03  # a knock from this long before a recognized word's start (one
    # that begins a word is its first consonant) …
    word_margin_s: float = 0.03  # … to this long before its end is in it (a word's end is not
    # sharper than the recognizer's 30 ms frames; a strike right after a call is no word)
    denoise: bool = True  # weigh a knock with what RNNoise takes away at it (:mod:`.denoise`)
    denoise_from_p: float = 0.1  # … when the decision without it gives it this much (the
    # knocks the decision weighs: about one candidate in 45, so the cost follows the strikes;
    # from 0.05, 17 % more of them, it decided the same 937 calls of the benchmark right)
    hear_block_s: float = 0.04  # blocks shorter than this are held and heard together (10 ms
    # blocks one by one took a third more CPU: the per-block work of the onset detector)
    denoise_frames_per_s: float = 1000.0  # a window runs this many RNNoise frames a second of
    # audio fed (a slice a block): its 145 frames over 0.15 s of stream, so no block waits for a
    # whole window (85–105 ms), and its knock is decided with the block after its last slice
    # (0.2 s later in all; the measures are the same). 1,500 a second made four tablets
    # streaming the same strikes to one two-core computer wait 157 ms (p95) for their events
    onset: OnsetParams = field(default_factory=OnsetParams)


@dataclass(frozen=True)
class Sound:
    """An impulsive sound the detector heard, and what it decided."""

    time: float  # onset (s)
    kind: str  # the most likely class (tip, ball, cushion, pocket, clap, speech, other)
    p_tip: float  # probability that it is the cue tip
    proba: tuple[float, ...]  # every class's probability (CLASSES order)
    decision: str  # "strike" | "in-stroke" | "moving" | "not-tip" | "unsure" | "quiet-floor"
    # | "retracted" (reported, then taken back by the second look)
    reason: str  # why, in English (the CLI words it for the user)
    sure: bool = True  # for a strike: clearly a tip
    features: tuple[float, ...] = ()
    after: str = ""  # what made the table ready ("quiet" | "call" | "long"), with
    # "+call" when a call was said before it, "+talk" while talk went on
    since_strike: float | None = None  # for a stroke's own sound: seconds after its strike
    tip_k: float = 0.0  # the tip's probability among the knocks (speech and claps left out)
    late: bool = False  # (kept for old readers: every strike is now decided after its onset)
    p_strike: float = 0.0  # the decision model's probability that it is a strike
    in_word: bool = False  # inside a word the recognizer heard (a strike there needs a cascade)
    denoised: bool = False  # weighed with RNNoise's measures (``p_strike`` is that decision's)

    def feature(self, name: str) -> float:
        return self.features[FEATURES.index(name)]

    def to_json(self) -> dict:
        return {
            "time": round(self.time, 4),
            "kind": self.kind,
            "p_tip": round(self.p_tip, 3),
            "tip_among_knocks": round(self.tip_k, 3),
            "decision": self.decision,
            "sure": self.sure,
            "p_strike": round(self.p_strike, 3),
            "reason": self.reason,
            "in_word": self.in_word,
            "denoised": self.denoised,
            "centroid_hz": round(float(np.exp(self.feature("log_centroid"))))
            if self.features
            else None,
            "low1k": round(self.feature("low1k"), 3) if self.features else None,
        }


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

    kind: str  # the most likely class
    p_tip: float
    p_voice: float  # speech or a clap: nothing moved on the table
    tip_k: float  # the tip's share among the knocks (tip, ball, cushion, pocket, other)
    ball_k: float  # the ball-on-ball clack's share among the knocks

    @classmethod
    def of(cls, pr: np.ndarray, classes: tuple[str, ...]) -> Look:
        d = dict(zip(classes, map(float, pr)))
        knock = sum(v for c, v in d.items() if c not in ("speech", "clap")) + 1e-12
        return cls(
            classes[int(np.argmax(pr))],
            d["tip"],
            d["speech"] + d["clap"],
            d["tip"] / knock,
            d["ball"] / knock,
        )


def on_quiet_table(
    look: Look, p: StrikeParams, after_call: bool = True, talking: bool = False
) -> tuple[str, bool]:
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


@dataclass(frozen=True)
class StrikeEvent:
    """What a front end shows of a strike: at once a provisional «удар?» at the onset
    (``provisional``), later the decision: confirmed (``provisional`` False) or taken back
    (``taken_back``). ``t`` is always the onset; ``at`` the stream time of the decision."""

    t: float
    provisional: bool
    taken_back: bool
    at: float

    def to_json(self) -> dict:
        return {
            "t": round(self.t, 4),
            "provisional": self.provisional,
            "taken_back": self.taken_back,
            "at": round(self.at, 4),
        }


@dataclass(frozen=True)
class TableMemory:
    """What a detector has learned of its table: the timbre of its last strikes (at most
    ``MEMORY_STRIKES``) and of their strokes' own clacks (at most ``MEMORY_CLACKS``), as its
    decision reads them (:meth:`StrikeDetector.table_memory`). A fresh detector for the same
    table, microphone and room given it (:meth:`StrikeDetector.remember`) decides its first
    strokes as the old one would have decided its next: the pad's stream starts a fresh detector
    after every gap. Only for the same table: other tables' strikes mislead the decision."""

    strike_timbre: tuple[tuple[float, ...], ...] = ()
    clack_timbre: tuple[tuple[float, ...], ...] = ()
    strike_times: tuple[float | None, ...] = ()  # each strike's onset on the stream's clock
    # (None: a profile's), so that the marker can still take one back after a gap (``forget``)

    def __bool__(self) -> bool:
        return bool(self.strike_timbre or self.clack_timbre)

    @classmethod
    def of(cls, session: Session, onset_of=lambda h: None) -> TableMemory:
        """What ``session`` (as a decision at the end of the stream sees it) holds of the
        table: its last strikes and clacks; ``onset_of``: a strike's onset to keep."""
        strikes = session.strikes[-MEMORY_STRIKES:]
        return cls(
            tuple(tuple(h.features) for h in strikes),
            tuple(tuple(h.features) for h in session.clacks[-MEMORY_CLACKS:]),
            tuple(onset_of(h) for h in strikes),
        )

    def sounds(self) -> tuple[list[Heard], list[Heard]]:
        """The strikes and clacks, as sounds heard before the stream (``Session``'s)."""
        return _long_ago(self.strike_timbre), _long_ago(self.clack_timbre)


FORGET_WITHIN_S = 0.005  # :meth:`StrikeDetector.forget` finds a strike this close to the time
MEMORY_STRIKES = 8  # the strikes the decision reads (``Session``: the last eight)
MEMORY_CLACKS = 20  # the clacks it reads (the last twenty)
_LONG_AGO = -1e9  # a remembered or calibrated sound's time: heard before anything of this stream


_HELD = object()  # _decide: the decision waits for the words being heard
_RUNNING = object()  # … for its RNNoise window, still running
IN_WORD = "inside a word the recognizer heard, and no stroke followed it"  # a reason's start


def _resolve_params(params: StrikeParams | None, profile, overrides: dict) -> StrikeParams:
    """``params`` (else the defaults), a table ``profile`` applied, then keyword ``overrides``
    (a name of :class:`OnsetParams` that is not one of :class:`StrikeParams` goes to ``onset``)."""
    p = params or StrikeParams()
    if profile is not None:
        p = profile.apply(p)
    if overrides:
        overrides = dict(overrides)
        onset_keys = {
            k: overrides.pop(k)
            for k in list(overrides)
            if hasattr(p.onset, k) and not hasattr(p, k)
        }
        if onset_keys:
            p = replace(p, onset=replace(p.onset, **onset_keys))
        p = replace(p, **overrides)
    return p


class StrikeDetector:
    """Causal strike detector fed block by block on the shared clock, deciding each knock
    ``decide_after_s`` (1.2 s) after its onset from what came before and after it.

    ``feed(block, t0)`` takes float samples at ``rate`` and the time (s) of the block's first
    sample, and returns the strike times (s, the onsets) **decided** with this block; nothing it
    returns is ever taken back. ``flush()`` decides what is left at the end of the stream with the
    audio there is. ``events`` (and ``on_event``, called with each) is what a screen shows: a
    provisional strike at the onset, then its confirmation or its taking back. ``sounds`` keeps the
    last ``max_sounds`` (None: all) impulsive sounds with the decision and its reason (a
    provisional strike taken back is ``retracted`` there, and its time in ``retracted``);
    ``strikes`` every strike, as its :class:`Sound`; ``unsure`` the times of sounds not counted
    that were close to a strike. The file and the microphone paths are the same: blocks of any
    length give the same decisions.
    """

    def __init__(
        self,
        rate: int = RATE,
        params: StrikeParams | None = None,
        *,
        model: SoundModel | None = None,
        long_model: SoundModel | None = None,
        seq_model: SoundModel | None = None,
        profile=None,
        collect: bool = False,
        strike_clock=None,
        on_event=None,
        **overrides,
    ) -> None:
        p = _resolve_params(params, profile, overrides)
        self.params = p
        self.rate = int(rate)
        self.model = model or load_model()
        self.long_model = long_model or load_long_model()
        # the decision model: the one fitted together with ``long_model`` (a leave-one-source-out
        # refit carries its own), else the shipped one
        self.seq_model = seq_model or getattr(self.long_model, "companion", None)
        shipped = self.seq_model is None
        if shipped:
            try:
                self.seq_model = load_seq_model()
            except (OSError, ValueError):
                if not collect:
                    raise
                # (collecting the features a new decision model is fitted on: no sound is taken)
        self._init_denoise(p.denoise and not collect, shipped)
        self._held: list[np.ndarray] = []  # short blocks held to be heard together …
        self._held_n = 0
        self._held_t0: float | None = None  # … the first one's t0
        self.onsets = OnsetDetector(self.rate, p.onset)
        self.vad: VoiceActivity = self.onsets.vad
        self._n = 0
        self._offset = 0.0
        self.sounds: list[Sound] = []
        self.strikes: list[Sound] = []
        self.unsure: list[float] = []
        self.retracted: list[float] = []
        self.events: list[StrikeEvent] = []
        self.on_event = on_event
        self.max_sounds: int | None = 2000  # None: keep every one (a file's whole report)
        self.collect = collect  # keep every candidate's features (for fitting)
        self.collected: list[tuple[float, tuple[float, ...]]] = []
        self._strike_clock = strike_clock  # t -> the last strike before t (fitting: the truth's)
        self._heard: list[Heard] = []
        self._times: list[float] = []
        self._pending: list[list] = []
        # [onset, heard, first-look proba, long features | None, band shape | None, provisional]
        self._strike_heard: list[Heard] = []  # the decided strikes, as heard (their timbre)
        self._known_clacks: list[Heard] = []  # a profile's collisions (this table's clacks)
        self._remembered_at: dict[int, tuple[Heard, float]] = {}  # a remembered strike (by id:
        # kept alive here, so the id is its own) -> it and its onset before the gap
        if profile is not None:  # the calibration's strikes and clacks, as if heard long ago
            self._strike_heard = _long_ago(profile.strike_timbre)[-MEMORY_STRIKES:]
            self._known_clacks = _long_ago(profile.clack_timbre)
        self._last_strike = -np.inf
        self._words: list[tuple[float, float]] = []  # recognized words (final results)
        self._partial_words: list[tuple[float, float]] = []  # … of the utterance in progress
        self._busy = False  # the recognizer is in the middle of an utterance (``hearing``)
        self._busy_since: float | None = None  # … since then (its partial result not empty)
        self.long_of: dict[float, tuple[float, ...]] = {}  # collect: each one's long features
        self.band_of: dict[float, tuple[float, ...]] = {}  # … and band shape
        if collect:
            self.vad.keep_all = True

    @property
    def look_ahead_s(self) -> float:
        """Audio needed after a sound's onset before it is decided."""
        return self.params.decide_after_s + 0.04

    @property
    def time(self) -> float:
        """The stream time heard to (blocks held included)."""
        return self._offset + (self._n + self._held_n) / self.rate

    @property
    def provisional(self) -> list[float]:
        """The onsets shown as «удар?» and not decided yet."""
        return [round(item[0].time, 4) for item in self._pending if item[5]]

    def _init_denoise(self, on: bool, shipped: bool) -> None:
        """The second decision, RNNoise, and the state of the windows its knocks are run on."""
        self.rnn_model: SoundModel | None = None
        self.denoiser: denoise.Denoiser | None = None
        self.denoise_error: denoise.DenoiserUnavailable | None = None  # why the decision goes
        # without RNNoise's measures (``text(lang)`` says it)
        if on:
            self._load_denoiser(shipped)
        p = self.params
        self._tape = (
            denoise.Tape(self.rate, p.max_decide_s + denoise.WINDOW_BEFORE_S + 1.0)
            if self.denoiser is not None
            else None
        )
        self._rnn_of: dict[float, tuple[float, ...]] = {}  # a window's measures, by onset (a
        # decision held for the recognizer's words is asked again: the window runs once)
        self._run: tuple[float, denoise.WindowRun] | None = None  # the window running
        self._block_s = 0.0  # the block being fed (s): the window's slice is in proportion
        self._weighing: tuple[float, tuple] | None = None  # the knock whose window runs, and
        # its features when it began (its decision is the one it would have had then)

    def _load_denoiser(self, shipped: bool) -> None:
        """The decision with RNNoise's measures: the one fitted with the decision above (a
        refit's rides on it), else the shipped one; none, with the reason in
        ``denoise_error``, where RNNoise cannot be loaded."""
        self.rnn_model = getattr(self.seq_model, "companion", None)
        if self.rnn_model is None and shipped:
            try:
                self.rnn_model = load_rnn_model()
            except (OSError, ValueError) as e:
                self.denoise_error = denoise.DenoiserUnavailable(
                    N_("no decision model with RNNoise's measures: {error}"), error=str(e)
                )
        if self.rnn_model is not None:
            try:
                self.denoiser = denoise.load()
            except denoise.DenoiserUnavailable as e:
                self.rnn_model, self.denoise_error = None, e

    def feed(self, block: np.ndarray, t0: float | None = None) -> list[float]:
        """Feed one block (float samples); return the strike times decided now. Blocks shorter
        than ``hear_block_s`` are held and heard together: the decisions are the same, at most
        that much later, for a quarter less CPU (the per-block work is done once)."""
        x = np.asarray(block, dtype=np.float64).reshape(-1)
        if len(x) == 0:
            return []
        out: list[float] = []
        if self._held and t0 is not None and self._held_t0 is not None:
            if abs(float(t0) - (self._held_t0 + self._held_n / self.rate)) > 0.5 / self.rate:
                out += self._hear_held()  # (a jump in the stream's clock: what came before it)
        if not self._held:
            self._held_t0 = None if t0 is None else float(t0)
            if t0 is not None:  # (the clock of ``time`` from this block on)
                self._offset = float(t0) - self._n / self.rate
        self._held.append(x)
        self._held_n += len(x)
        if self._held_n >= self.params.hear_block_s * self.rate:
            out += self._hear_held()
        return out

    def _hear_held(self) -> list[float]:
        x = self._held[0] if len(self._held) == 1 else np.concatenate(self._held)
        t0 = self._held_t0
        self._held, self._held_n, self._held_t0 = [], 0, None
        return self._hear(x, t0)

    def _hear(self, x: np.ndarray, t0: float | None) -> list[float]:
        """Hear one block: its onsets, then the decisions due."""
        step = self.rate // 2
        if len(x) > step and self._tape is not None:
            # a long block a half second at a time: the decisions are the same for blocks of
            # any length, and the audio of each knock's RNNoise window is still on the tape
            out: list[float] = []
            for i in range(0, len(x), step):
                piece_t0 = None if t0 is None else float(t0) + i / self.rate
                out += self._hear(x[i : i + step], piece_t0)
            return out
        if t0 is not None:
            self._offset = float(t0) - self._n / self.rate
        if self._tape is not None:
            self._tape.append(x)
        self._block_s = len(x) / self.rate
        self._n += len(x)
        for o in self.onsets.feed(x, None if t0 is None else float(t0)):
            self._onset(o)
        return self._decide_due(self.time)

    def flush(self) -> list[float]:
        """End of stream: decide every sound still waiting with the audio there is."""
        out = self._hear_held() if self._held else []
        return out + self._decide_due(np.inf, end=self.time)

    def hear_words(self, words: Iterable, *, final: bool = True) -> None:
        """Words the recognizer heard, on the stream's clock: ``(start, end)`` pairs or word
        dicts (``{"word", "start", "end", …}``, as Vosk gives them). ``final=False``: the words
        of the utterance still being heard (a partial result), replacing the last ones given so;
        a final result replaces them too. A knock inside a recognized word is speech unless the
        stroke's cascade follows it (``_decide``); a word said after a stroke's last table
        sound ends that stroke (``_since_strike``). Without words (``strikes FILE``, no
        recognizer) the detector decides from the sound alone."""
        spans = []
        for w in words:
            a, b = (w["start"], w["end"]) if isinstance(w, dict) else w
            if float(b) > float(a):
                spans.append((float(a), float(b)))
        if final:
            self._words.extend(spans)
            self._words.sort()
            self._partial_words = []
            keep = self.time - 30.0  # far older than anything still to decide
            if self._words and self._words[0][1] < keep:
                self._words = [w for w in self._words if w[1] >= keep]
        else:
            self._partial_words = spans

    def hearing(self, busy: bool) -> None:
        """Tell the detector whether the recognizer is in the middle of an utterance (its partial
        result is not empty). Meanwhile a knock that would be a strike and lies in no word known
        yet waits for that utterance's words, up to ``max_decide_s`` after its onset: Vosk gives
        word times only with its final result, 0.5–1 s after the utterance's last word."""
        if busy and not self._busy:
            self._busy_since = self.time
        elif not busy:
            self._busy_since = None
        self._busy = bool(busy)

    def _spans(self):
        return self._words + self._partial_words

    def in_word(self, t: float) -> bool:
        """Is ``t`` inside a word the recognizer heard: from its start (a knock that begins a
        word is its first consonant; ``word_lead_s`` earlier) to ``word_margin_s`` before its
        end? (``utterance_as_word``: or inside an utterance being heard, its words unknown)"""
        return self._in_utterance(t) or self._in_known_word(t)

    def _in_known_word(self, t: float) -> bool:
        p = self.params
        return any(a - p.word_lead_s <= t <= b - p.word_margin_s for a, b in self._spans())

    def _in_utterance(self, t: float) -> bool:
        """``utterance_as_word``: an utterance is being heard since before ``t``, its words not
        known yet (Vosk's partial result has been not empty since then, with no final one)."""
        p = self.params
        return p.utterance_as_word and self._busy_since is not None and self._busy_since <= t

    # ------------------------------------------------------------------------------------------
    def _event(self, t: float, provisional: bool, taken_back: bool) -> None:
        ev = StrikeEvent(round(t, 4), provisional, taken_back, round(self.time, 4))
        self.events.append(ev)
        if self.on_event is not None:
            self.on_event(ev)

    def _onset(self, o: Onset) -> None:
        p = self.params
        t = o.time
        peak_db = o.bg_db + o.feature("level_db")
        h = Heard(t, o.features, peak_db)
        self._heard.append(h)
        self._times.append(t)
        if len(self._heard) > 600 and not self.collect:
            del self._heard[:300], self._times[:300]
        pr = class_proba(self.model, o.features, p.tip_bias)
        look = Look.of(pr, self.model.classes)
        provisional = (
            t - self._last_strike >= p.min_gap_s
            and look.p_voice < p.voice_p
            and peak_db >= p.min_level_db
        )
        if provisional:
            self._event(t, True, False)
        self._pending.append([o, h, pr, None, None, provisional])

    def _since_strike(self, t: float) -> float:
        """Seconds since the stroke a knock at ``t`` may belong to: since the last strike, unless
        a new call was said after that stroke's last table sound and is over (players call once
        the balls have stopped): then the stroke has ended and nothing is "since" it (10 s, the
        feature's cap). Only within ``quiet_s`` of the strike: after that the table is quiet
        anyway."""
        if self._strike_clock is not None:
            return float(self._strike_clock(t))
        since = t - self._last_strike
        if since < self.params.quiet_s and self.params.call_ends_stroke and self._stroke_over(t):
            return 10.0
        return since

    def _stroke_over(self, t: float) -> bool:
        """Was a call said after the last stroke's last table sound and before ``t``, and is it
        over at ``t``? Over: no voice and no word in the ``call_quiet_s`` before ``t``. Said: the
        last stretch of talk (the recognized words when there are any, else the voice: at least
        ``min_call_s`` of it) begun after that sound and ``min_stroke_s`` after the strike (talk
        going on over the stroke is no new call). A knock in a word, or right after a voice (a
        word's last consonant), is the talk's, not the table's."""
        p = self.params
        if t - self._last_strike < p.min_stroke_s:
            return False
        last = self._last_strike  # the stroke's last table sound before t
        i = bisect_left(self._times, t)
        for h in reversed(self._heard[:i]):
            if h.time <= self._last_strike:
                break
            if h.is_knock(self.vad) and not self._talks(h.time):
                last = h.time
                break
        quiet = t - p.call_quiet_s
        if quiet <= last or self.vad.foreground_between(quiet, t - 0.02) > 0:
            return False  # no call since, or talk still going on
        spans = [w for w in self._spans() if w[0] < quiet]
        if any(b > quiet for a, b in spans):
            return False  # a word still being said
        begun = max(last, self._last_strike + p.min_stroke_s)  # a call begins after the stroke
        if spans:  # the last stretch of words before the quiet
            start = self._stretch_start([a for a, _ in spans], [b for _, b in spans])
            return start > begun
        frames = [v for v in self.vad.foreground[-600:] if v < quiet]
        if not frames:
            return False
        start = self._stretch_start(frames, [v + 0.03 for v in frames])
        # (talk begun before the stroke's last sound and going on over it is no new call)
        return start > begun and self.vad.foreground_between(start, quiet) >= p.min_call_s

    def _stretch_start(self, starts: list[float], ends: list[float]) -> float:
        """Where the last stretch of talk began: spans in time order, joined over pauses shorter
        than ``talk_gap_s`` (a pause between the words of one call)."""
        reach = list(accumulate(ends, max))  # the latest end of the spans up to each one
        i = len(starts) - 1
        while i > 0 and starts[i] - reach[i - 1] < self.params.talk_gap_s:
            i -= 1
        return starts[i]

    def _cascade_after(self, t: float, end: float | None) -> int:
        """The table sounds 0.05 s to the horizon after ``t`` that are not the talk's (salient,
        ``_talks`` False; a ball's clack may ring with a pitch, so a voice at it does not make it
        a syllable): the stroke's own cascade as the words leave it. ``cascade_in_words``: the
        unvoiced knocks, in words or not. ``cascade_clacklike``: and any salient sound close in
        timbre to this session's clacks. ``cascade_table_look``: in an utterance whose words are
        not known yet, only unvoiced knocks the first look hears as table sounds."""
        p = self.params
        h_end = t + p.decide_after_s if end is None else min(t + p.decide_after_s, end)
        i, j = bisect_left(self._times, t + 0.05), bisect_right(self._times, h_end)
        after = self._heard[i:j]
        salient = [h for h in after if h.salient]
        clacks = self.session(t).clacks[-20:] if p.cascade_clacklike and salient else ()
        clacky = set()  # the times of those that sound like this session's clacks
        if clacks:
            near = nearest_timbre(salient, clacks) < p.clacklike_distance
            clacky = {h.time for h, c in zip(salient, near) if c}
        if p.cascade_in_words or not self._in_known_word(t):
            # (an utterance with no word times yet covers the talk and the table alike: what
            # follows in it counts when it is an unvoiced knock in no known word)
            look = p.cascade_table_look and self._in_utterance(t)
            return sum(
                1
                for h in after
                if h.time in clacky
                or h.is_knock(self.vad)
                and not self._in_known_word(h.time)
                and (not look or self._table_look(h))
            )
        return sum(1 for h in after if h.time in clacky or h.salient and not self._talks(h.time))

    def _table_look(self, h: Heard) -> bool:
        """Does the first look hear ``h`` as a table sound (not speech, not a clap)?"""
        pr = class_proba(self.model, h.features, self.params.tip_bias)
        return Look.of(pr, self.model.classes).p_voice < self.params.voice_p

    def _silent_since_strike(self, t: float) -> bool:
        """Nothing said from the last strike to ``t``: no voice in front of the room's noise, no
        word recognized, no utterance being heard."""
        a, b = self._last_strike + 0.05, t - 0.05
        if self.vad.foreground_between(a, b) > 0 or self._in_utterance(b):
            return False
        return not any(w0 < b and w1 > a for w0, w1 in self._spans())

    def _talks(self, t: float) -> bool:
        """Is a knock at ``t`` the talk's: inside a recognized word, or right after a voice (a
        word's last consonant)?"""
        return self._in_known_word(t) or self.vad.foreground_between(t - 0.15, t) > 0

    def _decide_due(self, now: float, end: float | None = None) -> list[float]:
        p = self.params
        out = []
        keep = []
        for item in self._pending:
            o, h, pr, lf, band, provisional = item
            if lf is None:
                lf = item[3] = self.onsets.long_features(o)
            if band is None:
                band = item[4] = self.onsets.band_features(o)
            if (lf is None or band is None) and end is None:
                keep.append(item)
                continue
            if end is None and now < o.time + p.decide_after_s + 0.035:
                keep.append(item)
                continue
            if lf is None:  # the stream ended within 150 ms of the sound
                lf = o.features + (0.0, 0.0, 0.0, 0.0)
            if band is None:
                band = (0.0,) * len(BAND_FEATURES)
            hold = self._busy and end is None and now < o.time + p.max_decide_s
            s = self._decide(o, h, pr, lf, band, provisional, end, hold)
            if s is _HELD or s is _RUNNING:  # waiting for the words being heard or for its
                # RNNoise window: this and all after it wait
                keep += self._pending[self._pending.index(item) :]
                break
            if s is not None:
                out.append(round(s.time, 4))
        self._pending = keep
        return out

    def _decide(
        self,
        o: Onset,
        h: Heard,
        pr,
        lf,
        band,
        provisional: bool,
        end: float | None,
        hold=False,
    ):
        """Decide the sound at ``o``: its Sound if a strike, else None; ``_HELD`` when ``hold``
        (the recognizer is in the middle of an utterance) and it would be a strike outside any
        word known yet: it waits for that utterance's words (up to ``max_decide_s``)."""
        t = o.time
        if self._weighing is not None and self._weighing[0] == t:
            feats = self._weighing[1]  # (as they were when its window began to run)
        else:
            feats = context_features(
                h,
                lf,
                band,
                self.session(t),
                self._since_strike(t),
                self.params.decide_after_s,
                end,
            )
        p_strike = self._p_strike(feats)
        denoised = False
        if self.rnn_model is not None and p_strike >= self.params.denoise_from_p:
            weighed = self._p_denoised(h, feats, p_strike, finish=end is not None)
            if weighed is None:
                self._weighing = (t, feats)
                return _RUNNING
            p_strike, denoised = weighed
        self._weighing = None
        in_word = self.in_word(t)
        decision, reason, sure = self._verdict(h, feats, p_strike, in_word, provisional, end)
        if hold and decision == "strike" and not self._in_known_word(t):
            if not in_word or self.params.hold_in_utterance:
                return _HELD
        look = Look.of(pr, self.model.classes)
        s = Sound(
            t,
            look.kind,
            look.p_tip,
            tuple(float(v) for v in pr),
            decision,
            reason,
            sure,
            o.features,
            "",
            t - self._last_strike if np.isfinite(self._last_strike) else None,
            look.tip_k,
            False,
            p_strike,
            in_word,
            denoised,
        )
        return self._keep(s, h, feats, lf, band, provisional)

    def _p_strike(self, feats) -> float:
        """The decision model's probability that the sound is a strike (0 with no model: a
        detector collecting the features to fit one)."""
        if self.seq_model is None:
            return 0.0
        return self.seq_model.p_last(feats)

    def _window(self, t: float, finish: bool = False):
        """RNNoise's measures of the knock at ``t`` (kept once its whole window was heard);
        None if its audio is no longer on the tape; ``_RUNNING`` while its window runs, a slice
        a block (``denoise_frames_per_s``), unless ``finish`` (the stream's end)."""
        assert self._tape is not None and self.denoiser is not None
        rnn = self._rnn_of.get(t)
        if rnn is not None:
            return rnn
        a, b, _hop = denoise.window_bounds(t - self._offset, self.rate)
        if self._run is None or self._run[0] != t:
            if self._run is not None:  # (a window left for another: cannot happen, in order)
                self._run[1].close()
            try:
                x = self._tape.get(a, b)
            except ValueError:  # (no longer on the tape: cannot happen as ``feed`` cuts blocks)
                return None
            self._run = (t, denoise.WindowRun(self.denoiser, x, self.rate))
        run = self._run[1]
        frames = None if finish else math.ceil(self.params.denoise_frames_per_s * self._block_s)
        if not run.step(frames):
            return _RUNNING
        self._run = None
        rnn = denoise.measures(run.result())
        if b <= self._tape.end:  # (the whole window heard: the stream's end pads it)
            for old in [k for k in self._rnn_of if k < t - 10.0]:
                del self._rnn_of[old]
            self._rnn_of[t] = rnn
            if not finish:  # decided with the next block: the block that emits a strike does
                return _RUNNING  # no RNNoise work (the tablet's event waits for none)
        return rnn

    def _p_denoised(
        self, h: Heard, feats, p_strike: float, finish: bool = False
    ) -> tuple[float, bool] | None:
        """(the decision's probability with RNNoise's measures of the sound's window
        (:mod:`.denoise`), True) for a sound the decision weighs (not the stroke's own, not too
        faint); (``p_strike``, the decision's without them, False) otherwise; None while its
        window runs (``finish``: run it to its end now)."""
        p, t = self.params, h.time
        if t - self._last_strike < p.min_gap_s or h.peak_db < p.min_level_db:
            return p_strike, False
        if t - self._last_strike < p.rolling_s and self._silent_since_strike(t):
            return p_strike, False
        assert self.rnn_model is not None
        rnn = self._window(t, finish)
        if rnn is _RUNNING:
            return None
        if rnn is None:
            return p_strike, False
        return self.rnn_model.p_last(tuple(feats) + rnn), True

    def _verdict(
        self, h: Heard, feats, p_strike: float, in_word: bool, provisional: bool, end
    ) -> tuple[str, str, bool]:
        """(decision, reason, sure) for a sound the decision model gives ``p_strike``."""
        p, t = self.params, h.time
        n_after = int(feats[SEQ_FEATURES.index("n_after_knock")])
        v_after = feats[SEQ_FEATURES.index("talk_after_03")]
        if t - self._last_strike < p.min_gap_s:
            since = t - self._last_strike
            return "in-stroke", f"the stroke's own sound, {since:.2f} s after the strike", True
        if t - self._last_strike < p.rolling_s and self._silent_since_strike(t):
            since = t - self._last_strike
            return "in-stroke", f"the balls still roll: nothing said in the {since:.2f} s", True
        if h.peak_db < p.min_level_db:
            return "quiet-floor", f"a knock too faint ({h.peak_db:.0f} dBFS)", True
        taken_back = "retracted" if provisional else "not-strike"
        if p_strike >= p.strike_p and in_word and self._cascade_after(t, end) == 0:
            return taken_back, f"{IN_WORD} (p={p_strike:.2f})", True
        if p_strike >= p.strike_p:
            return (
                "strike",
                f"a knock on a still table, confirmed by what followed "
                f"({n_after} table sound(s) after it, talk {v_after:.0%} of the 0.3 s after; "
                f"p={p_strike:.2f})",
                p_strike >= p.sure_p,
            )
        why = (
            "a word went on after it"
            if v_after >= 0.3
            else "no stroke followed it"
            if n_after == 0
            else "it is not the first sound on a still table"
        )
        unsure = "unsure" if p_strike >= p.unsure_p else "not-strike"
        return ("retracted" if provisional else unsure), f"{why} (p={p_strike:.2f})", True

    def session(self, t: float) -> Session:
        """What the decision of a sound at ``t`` knows of the session: the sounds heard, the
        voice activity, the strikes decided before it and their strokes' own knocks (the table
        sounds up to 2 s after each of the last three strikes)."""
        return Session.at(
            t, self._heard, self._times, self.vad, self._strike_heard, self._known_clacks
        )

    def table_memory(self) -> TableMemory:
        """What this detector has learned of its table so far (a profile's strikes and clacks
        among them, until its own push them out): the strikes and clacks its next decision would
        read. Call it once the strikes waiting are decided (after ``flush``)."""
        return TableMemory.of(self.session(math.inf), self._onset_of)

    def _onset_of(self, h: Heard) -> float | None:
        """A known strike's onset on the stream's clock (a remembered one's from before the gap);
        None for a profile's."""
        kept = self._remembered_at.get(id(h))
        t = kept[1] if kept is not None and kept[0] is h else h.time
        return None if t is None or t <= _LONG_AGO else t

    def forget(self, t: float) -> bool:
        """Q14: the marker took back the strike at ``t`` (it was no strike). It is no longer one
        of this table's strikes that later knocks are weighed against, nor are the sounds after
        it its clacks, here and in the memory this detector gives; what was reported stays as
        it was. True when such a strike was known (a remembered one too)."""
        keep = [
            h
            for h in self._strike_heard
            if (at := self._onset_of(h)) is None or abs(at - t) > FORGET_WITHIN_S
        ]
        found = len(keep) < len(self._strike_heard)
        self._strike_heard = keep
        return found

    def remember(self, memory: TableMemory) -> None:
        """Start with ``memory`` (another detector's :meth:`table_memory`, for the same table) as
        this table's strikes and clacks, as if heard long ago: in place of a profile's, which the
        memory holds when it was made with the same profile. Only before any audio is fed."""
        if self._n or self._held_n or self._heard:
            raise RuntimeError("a detector takes a table's memory before it hears anything")
        if memory:
            strikes, clacks = memory.sounds()
            if len(memory.strike_times) == len(strikes):
                self._remembered_at = {id(h): (h, t) for h, t in zip(strikes, memory.strike_times)}
            self._strike_heard = strikes[-MEMORY_STRIKES:]
            self._known_clacks = clacks[-MEMORY_CLACKS:]

    def _keep(self, s: Sound, h: Heard, feats, lf, band, provisional: bool) -> Sound | None:
        """The sound decided, kept in the detector's lists (a strike, a provisional one taken
        back, an unsure one): the strike's Sound, else None."""
        t, p = s.time, self.params
        if self.collect:
            self.collected.append((t, feats))
            self.long_of[t] = tuple(lf)
            self.band_of[t] = tuple(band)
        if self.max_sounds is not None and len(self.sounds) >= self.max_sounds:
            del self.sounds[: self.max_sounds // 2]
        self.sounds.append(s)
        if s.decision == "strike":
            self._last_strike = t
            self.strikes.append(s)
            self._strike_heard.append(h)
            del self._strike_heard[:-MEMORY_STRIKES]
            self._event(t, False, False)
            return s
        if provisional:
            self.retracted.append(round(t, 4))
            self._event(t, False, True)
        if s.decision == "unsure" or (s.decision == "retracted" and s.p_strike >= p.unsure_p):
            self.unsure.append(t)
        return None


def _long_ago(timbres) -> list[Heard]:
    """Sounds known by their timbre alone (a profile's, a memory's), as heard before the stream."""
    return [Heard(_LONG_AGO, tuple(f), 0.0) for f in timbres]


def detect_strikes(
    samples: np.ndarray, rate: int = RATE, *, block_ms: float = 10.0, **params
) -> list[float]:
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


__all__ = [
    "StrikeParams",
    "Sound",
    "StrikeEvent",
    "IN_WORD",
    "Candidate",
    "StrikeDetector",
    "TableMemory",
    "VoiceActivity",
    "Look",
    "class_proba",
    "on_quiet_table",
    "detect_strikes",
    "run_detector",
    "CLASSES",
]
