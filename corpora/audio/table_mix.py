#!/usr/bin/env python3
"""Realistic test audio for the strike detector, built from REAL recorded billiards sounds.

    python corpora/audio/table_mix.py --out DIR [--seed N] [--count K] [--snr clean 20 10 5]
                                      [--holdout SOURCE ...] [--isolated]

The table sounds (cue strikes, ball-ball collisions, cushion hits, pocket drops, a rack being
set, chalking) are real recordings read in place from the shared sound folder (``README.md`` and
``SOURCES.md`` there): ``$PYRAMID_SOUNDS_DIR`` if set, else ``<repo root>/../shared/sounds``.
They are never copied into the repository (several have no stated licence): sessions are made
on demand, in memory or into a folder the caller names.

A session is a sequence of strokes as they happen at a table: a Russian call spoken by
espeak-ng (``make_audio.speak``), a pause, the **strike** (a ``cue_*`` recording whose onset
lands on the truth time), then that stroke's own sounds (collisions, cushions, a pocket drop).
Optional extras (each with a probability) add what a referee microphone also hears: balls
still rolling from the earlier stroke, a rack being set, hand claps, chatter with no strike
after it, somebody talking over the strike. Then a room (early reflections + a decaying
diffuse tail) and noise (pink, babble, mains hum, or all three) at a set SNR.

Importable (``import table_mix``; the tests put this folder on ``sys.path``):

- ``find_sounds_dir()``, ``load_bank(sounds_dir=None) -> Bank`` (``Sound``, ``Bank.of``, ``Bank.sources``)
- ``make_session(rng, bank, ...) -> (samples, truth)``; ``fixed_pattern(rng, bank, ...)``
- ``isolated(bank, sound)``, ``room_ir(rng)``, ``clap(rng)``, ``hum(rng, n)``, ``make_noise``,
  ``onset_index(x)``, ``peak_rms(x)``, ``write_wav(path, x)``

Every random choice is drawn from the ``np.random.Generator`` passed in; espeak-ng output is
deterministic for given arguments, so a seed gives the same samples (for one espeak-ng version).
Times in the truth are exact to the sample: every placed sound is put so that its onset sample
lands on an integer session sample ``k`` and the truth says ``k / 16000``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from math import gcd
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO_ROOT = Path(__file__).resolve().parents[2]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import make_audio  # noqa: E402  (same folder: its speech and noise helpers are reused)
from make_audio import CALLS, VOICES, active_power, babble, colored_noise, speak  # noqa: E402

RATE = make_audio.RATE  # 16 kHz
KINDS = ("cue", "ball", "cushion", "pocket", "break", "rack", "other")
# The sound folder's README and SOURCES.md flag these cue recordings as bright clicks, more like
# ball-ball contacts (the dash-machine ones rest only on Freesound titles): not used as strikes.
DOUBTFUL = frozenset(
    {
        "cue_jasonzhoupool_1.wav",
        "cue_rakibul8ball_2.wav",
        "cue_billiardevolved_1.wav",
        "cue_dashmachine_1.wav",
        "cue_dashmachine_2.wav",
        "cue_dashmachine_5.wav",
        "cue_dashmachine_6.wav",
        "cue_dashmachine_7.wav",
    }
)
# Repositories that ship the same recording (SOURCES.md: the 'poolballhit' clip is kept as both
# ball_speedy8ball_1 and ball_unitypoolgame_1). A clip reused by two games is one recording
# source: leave-one-source-out holds such repositories out together.
SAME_RECORDING = (frozenset({"speedy8ball", "unitypoolgame"}),)
MIN_STRIKE_GAP = 2.5  # s between two strikes (nobody plays faster; the detector may rely on it)
PEAK_OUT = 0.7  # output peak after scaling

# Calls players make in Russian pyramid: make_audio's list plus a few more (case forms, «абриколь»).
EXTRA_CALLS = [
    "Тройку от борта в левый угол",
    "Двенадцатый шар в правую лузу",
    "Абриколем от шестёрки туза в середину",
    "Пятнадцатый клапштосом в дальний угол",
    "Седьмого дуплетом в середину",
    "Десятый в ближний угол",
    "Одиннадцатый свояком в середину",
    "Пятёрку в правую",
]
ALL_CALLS = list(CALLS) + EXTRA_CALLS
# Short calls (about 1-2.5 s at 150-200 wpm) for the fixed 4.8 s pattern.
SHORT_CALLS = [
    "Пятнадцатый в правый угол",
    "Тройка дуплетом в середину",
    "Двенадцатый свояком в угол",
    "Седьмого дуплетом в середину",
    "Десятый в ближний угол",
    "Пятёрку в правую",
    "Тройку от борта в левый угол",
    "Двенадцатый шар в правую лузу",
]
# Talk at the table that is not a call: no strike follows it.
CHATTER = [
    "Хороший удар",
    "Давай, давай",
    "Ну что, партия?",
    "Эх, чуть-чуть не хватило",
    "Красиво!",
    "Какой счёт?",
    "Дай мел, пожалуйста",
    "Не торопись",
    "Подожди, шары ещё катятся",
    "Мой ход",
]

# A session's extras at the rates the CLI uses for its "realistic" files.
REALISTIC = dict(
    rolling_p=0.35,
    rack_p=0.15,
    clap_p=0.15,
    chatter_p=0.3,
    spoken_over_p=0.2,
    chalk_p=0.2,
    call_inside_stroke_p=0.15,
)


# ----------------------------------------------------------------------------------------------
# Level and onset measures

WIN_ONSET = RATE // 1000  # 1 ms
WIN_RMS = RATE // 100  # 10 ms


def onset_index(x: np.ndarray) -> int:
    """The onset of a sound, as a sample index (the definition every truth time uses).

    1. Split the signal into 1 ms windows (16 samples, aligned to the start) and find the
       loudest window's energy ``E_max``.
    2. Take the first window whose energy is within 25 dB of ``E_max`` (``E >= E_max / 10**2.5``):
       where the sound has clearly begun, not its quiet pre-roll or recording noise.
    3. Refine back: with ``p`` the peak amplitude inside that window, the onset is the first
       sample, searching from one window (1 ms) before it up to its peak, whose absolute value
       reaches 10 % of ``p`` (-20 dB): the first sample of the rising edge.

    So everything before the onset is at least ~20 dB below the loudest 1 ms of the sound.
    A silent signal has its onset at 0.
    """
    x = np.asarray(x, dtype=np.float64)
    n = len(x) // WIN_ONSET
    if n == 0:
        return 0
    e = np.sum(x[: n * WIN_ONSET].reshape(n, WIN_ONSET) ** 2, axis=1)
    if e.max() <= 0:
        return 0
    w = int(np.argmax(e >= e.max() * 10**-2.5))
    ws = w * WIN_ONSET
    seg = np.abs(x[ws : ws + WIN_ONSET])
    p = seg.max()
    pk = ws + int(np.argmax(seg))
    lo = max(ws - WIN_ONSET, 0)
    return lo + int(np.argmax(np.abs(x[lo : pk + 1]) >= 0.1 * p))


def rms_track(x: np.ndarray, win: int = WIN_RMS) -> np.ndarray:
    """Sliding RMS over ``win`` samples (hop 1 sample), value at each window start."""
    x = np.asarray(x, dtype=np.float64)
    if len(x) < win:
        return np.array([np.sqrt(np.mean(x**2))]) if len(x) else np.zeros(1)
    c = np.concatenate(([0.0], np.cumsum(x * x)))
    return np.sqrt(np.maximum(c[win:] - c[:-win], 0.0) / win)


def peak_rms(x: np.ndarray, win: int = WIN_RMS) -> float:
    """The maximum 10 ms RMS (sliding, so independent of where the sound sits): the level
    every relative level in a session refers to (speech peak, strike peak)."""
    return float(rms_track(x, win).max())


def active_end_index(x: np.ndarray, below_db: float = 30.0) -> int:
    """End of the last 10 ms frame whose RMS is within ``below_db`` of the loudest frame: where
    the sound has died away for practical purposes (used only for scheduling, not truth)."""
    n = max(len(x) // WIN_RMS, 1)
    fr = np.asarray(x[: n * WIN_RMS], dtype=np.float64)
    if len(fr) < n * WIN_RMS:
        return len(x)
    r = np.sqrt(np.mean(fr.reshape(n, WIN_RMS) ** 2, axis=1))
    if r.max() <= 0:
        return len(x)
    last = int(np.flatnonzero(r >= r.max() * 10 ** (-below_db / 20))[-1])
    return min((last + 1) * WIN_RMS, len(x))


def has_clear_onset(x: np.ndarray, onset: int, within_s: float = 0.05, db: float = 6.0) -> bool:
    """Whether the sound's main event starts at its onset: the loudest 10 ms RMS within
    ``within_s`` (50 ms) after the onset is within ``db`` (6 dB) of the loudest in the file.

    A strike's truth must be the moment of the hit. One cue recording fails this:
    ``cue_crazy8ball_1.wav`` carries a room tone only ~20-25 dB below its hits (SOURCES.md:
    "noisy room tone"), so its onset by the 25 dB rule falls in the room tone ~240 ms before
    the loudest hit. Such cue recordings are not used as strikes unless ``include_doubtful``.
    (Several pocket, rack and other recordings fail it too - a quiet first event, then the
    loud one - which does not matter for sounds the detector must ignore.)
    """
    tr = rms_track(x)
    k = min(max(onset, 0), len(tr) - 1)
    return bool(tr[k : k + int(within_s * RATE)].max() >= tr.max() * 10 ** (-db / 20))


# ----------------------------------------------------------------------------------------------
# The sound bank


@dataclass(frozen=True)
class Sound:
    """One recording: ``name`` (file name), ``kind`` (prefix before the first ``_``),
    ``source`` (the short repository name: ``cue_vrcbce_1.wav`` -> ``vrcbce``), ``samples``
    (float64 in [-1, 1], 16 kHz mono, read-only), ``onset`` (s, see ``onset_index``),
    ``doubtful`` (label flagged in SOURCES.md), ``active_end`` (s, see ``active_end_index``),
    ``clear_onset`` (see ``has_clear_onset``: False when the onset is not the main event)."""

    name: str
    kind: str
    source: str
    samples: np.ndarray = field(repr=False, compare=False)
    onset: float = 0.0
    doubtful: bool = False
    active_end: float = 0.0
    clear_onset: bool = True

    @property
    def onset_index(self) -> int:
        return int(round(self.onset * RATE))

    @property
    def duration(self) -> float:
        return len(self.samples) / RATE


@dataclass(frozen=True)
class Bank:
    """The recordings of one sound folder, sorted by name."""

    sounds: tuple[Sound, ...]
    directory: Path | None = None

    def __len__(self) -> int:
        return len(self.sounds)

    def __iter__(self):
        return iter(self.sounds)

    def sources(self) -> list[str]:
        return sorted({s.source for s in self.sounds})

    def recording_sources(self) -> dict[str, frozenset[str]]:
        """Recording sources: repositories that share a recording (``SAME_RECORDING``) are one,
        named by their names joined with ``+``. Returns name -> the repositories in it."""
        groups = {src: {src} for src in self.sources()}
        for same in SAME_RECORDING:
            here = sorted(same & set(groups))
            for other in here[1:]:
                groups[here[0]] |= groups.pop(other)
        return {"+".join(sorted(g)): frozenset(g) for g in groups.values()}

    def strike_sources(self) -> list[str]:
        """The recording sources with at least one usable strike (a cue recording with a clear
        onset that neither SOURCES.md nor the README doubts): the folds of leave-one-source-out."""
        return sorted(
            name
            for name, reps in self.recording_sources().items()
            if any(s.clear_onset for s in self.of("cue", reps))
        )

    def get(self, name: str) -> Sound:
        for s in self.sounds:
            if s.name == name:
                return s
        raise KeyError(name)

    def check_sources(self, sources: Iterable[str] | str | None) -> frozenset[str] | None:
        """``sources`` as a set (a single name is accepted); unknown names are an error."""
        if sources is None:
            return None
        s = frozenset([sources]) if isinstance(sources, str) else frozenset(sources)
        unknown = sorted(s - set(self.sources()))
        if unknown:
            raise ValueError(f"unknown sound source(s) {unknown}; known: {self.sources()}")
        return s

    def of(
        self, kind: str, sources: Iterable[str] | str | None = None, include_doubtful: bool = False
    ) -> list[Sound]:
        """Recordings of ``kind`` (from ``sources`` only, if given); the doubtful ones only on request."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}; kinds: {KINDS}")
        allowed = self.check_sources(sources)
        return [
            s
            for s in self.sounds
            if s.kind == kind
            and (allowed is None or s.source in allowed)
            and (include_doubtful or not s.doubtful)
        ]


def find_sounds_dir() -> Path | None:
    """``$PYRAMID_SOUNDS_DIR`` if set, else ``<repo root>/../shared/sounds``; None if it holds no WAV."""
    env = os.environ.get("PYRAMID_SOUNDS_DIR")
    d = Path(env) if env else REPO_ROOT.parent / "shared" / "sounds"
    return d if d.is_dir() and any(d.glob("*.wav")) else None


_bank_cache: dict[str, Bank] = {}


def load_bank(sounds_dir: str | os.PathLike | None = None) -> Bank:
    """Every ``<kind>_<source>_<n>.wav`` of the folder (16 kHz mono int16) as float64 in [-1, 1]."""
    from scipy.io import wavfile

    d = Path(sounds_dir) if sounds_dir is not None else find_sounds_dir()
    if d is None or not d.is_dir():
        where = (
            sounds_dir
            or os.environ.get("PYRAMID_SOUNDS_DIR")
            or REPO_ROOT.parent / "shared" / "sounds"
        )
        raise FileNotFoundError(
            f"billiards sound folder not found ({where}); set PYRAMID_SOUNDS_DIR"
        )
    key = str(d.resolve())
    if key in _bank_cache:
        return _bank_cache[key]
    sounds = []
    for p in sorted(d.glob("*.wav")):
        rate, data = wavfile.read(p)
        if rate != RATE or data.ndim != 1 or data.dtype != np.int16:
            raise ValueError(
                f"{p.name}: expected 16 kHz mono int16, got {rate} Hz {data.dtype} {data.shape}"
            )
        x = data.astype(np.float64) / 32768.0
        x.flags.writeable = False
        parts = p.stem.split("_")
        kind = parts[0] if parts[0] in KINDS else "other"
        source = "_".join(parts[1:-1]) if len(parts) >= 3 else (parts[1] if len(parts) > 1 else "")
        on = onset_index(x)
        sounds.append(
            Sound(
                name=p.name,
                kind=kind,
                source=source,
                samples=x,
                onset=on / RATE,
                doubtful=p.name in DOUBTFUL,
                active_end=active_end_index(x) / RATE,
                clear_onset=has_clear_onset(x, on),
            )
        )
    bank = Bank(tuple(sounds), d)
    _bank_cache[key] = bank
    return bank


# ----------------------------------------------------------------------------------------------
# Real speech and room noise (the shared speech folder: README.md and SOURCES.md there)


@dataclass(frozen=True)
class Clip:
    """One recorded speech or noise file: ``name``, ``kind`` (speech | noise), ``source`` (the
    short repository name: ``speech_tinkoff_01.wav`` -> ``tinkoff``), ``samples`` (float64, 16 kHz,
    read-only), ``spans`` (for speech: ``[start, end]`` s of each stretch of talk, see
    ``speech_spans_of``)."""

    name: str
    kind: str
    source: str
    samples: np.ndarray = field(repr=False, compare=False)
    spans: tuple = field(default=(), compare=False)


@dataclass(frozen=True)
class SpeechBank:
    clips: tuple[Clip, ...]
    directory: Path | None = None

    def sources(self, kind: str = "speech") -> list[str]:
        return sorted({c.source for c in self.clips if c.kind == kind})

    def of(self, kind: str, sources: Iterable[str] | str | None = None) -> list[Clip]:
        allowed = (
            None
            if sources is None
            else (frozenset([sources]) if isinstance(sources, str) else frozenset(sources))
        )
        if allowed is not None:
            unknown = sorted(allowed - set(self.sources(kind)))
            if unknown:
                raise ValueError(
                    f"unknown {kind} source(s) {unknown}; known: {self.sources(kind)}"
                )
        return [
            c for c in self.clips if c.kind == kind and (allowed is None or c.source in allowed)
        ]


def find_speech_dir() -> Path | None:
    """``$PYRAMID_SPEECH_DIR`` if set, else ``<repo root>/../shared/speech``; None if it holds no WAV."""
    env = os.environ.get("PYRAMID_SPEECH_DIR")
    d = Path(env) if env else REPO_ROOT.parent / "shared" / "speech"
    return d if d.is_dir() and any(d.glob("*.wav")) else None


def speech_spans_of(x: np.ndarray) -> list[list[float]]:
    """The stretches of talk in a recorded clip: 10 ms RMS within 25 dB of the clip's speech level
    (the 90th percentile of its 10 ms RMS, as the speech folder's README cuts its clips), pauses
    under 60 ms bridged. A recorded room's floor is often only 20-40 dB under the voice, so the
    loudest-frame reference ``speech_spans`` uses for synthetic speech would find no pauses."""
    w = RATE // 100
    n = len(x) // w
    r = np.sqrt(np.mean(np.asarray(x[: n * w]).reshape(n, w) ** 2, axis=1)) if n else np.zeros(1)
    level = 20 * np.log10(np.percentile(r, 90) + 1e-12)
    return make_audio.speech_spans(x, below_db=25.0, ref_db=level)


_speech_cache: dict[str, SpeechBank] = {}


def load_speech(speech_dir: str | os.PathLike | None = None) -> SpeechBank:
    """Every ``speech_<source>_<n>.wav`` and ``noise_<source>_<n>.wav`` of the folder (16 kHz mono
    int16), read in place."""
    from scipy.io import wavfile

    d = Path(speech_dir) if speech_dir is not None else find_speech_dir()
    if d is None or not d.is_dir():
        where = (
            speech_dir
            or os.environ.get("PYRAMID_SPEECH_DIR")
            or REPO_ROOT.parent / "shared" / "speech"
        )
        raise FileNotFoundError(f"speech folder not found ({where}); set PYRAMID_SPEECH_DIR")
    key = str(d.resolve())
    if key in _speech_cache:
        return _speech_cache[key]
    clips = []
    for p in sorted(d.glob("*.wav")):
        parts = p.stem.split("_")
        if parts[0] not in ("speech", "noise") or len(parts) < 3:
            continue
        rate, data = wavfile.read(p)
        if rate != RATE or data.ndim != 1 or data.dtype != np.int16:
            raise ValueError(
                f"{p.name}: expected 16 kHz mono int16, got {rate} Hz {data.dtype} {data.shape}"
            )
        x = data.astype(np.float64) / 32768.0
        x.flags.writeable = False
        spans = tuple(tuple(sp) for sp in speech_spans_of(x)) if parts[0] == "speech" else ()
        clips.append(Clip(p.name, parts[0], "_".join(parts[1:-1]), x, spans))
    bank = SpeechBank(tuple(clips), d)
    _speech_cache[key] = bank
    return bank


def real_excerpt(
    rng: np.random.Generator, clip: Clip, length=(1.2, 3.5), edge_s: float = 0.03
) -> tuple[np.ndarray, list[list[float]], float]:
    """A stretch of a recorded voice about ``length`` s long that begins and ends at a pause: a run
    of consecutive talk spans starting at a random one, ``edge_s`` kept around it, faded in and out
    over 15 ms (the clip's room floor stops with it). Returns the samples, the spans in them and
    the start (s) in the clip. A clip with no usable pause gives a plain random cut."""
    spans = [list(sp) for sp in clip.spans]
    want = _u(rng, length)
    dur = len(clip.samples) / RATE
    if spans:
        i = int(rng.integers(len(spans)))
        j = i
        while j + 1 < len(spans) and spans[j][1] - spans[i][0] < want:
            j += 1
        a, b = max(spans[i][0] - edge_s, 0.0), min(spans[j][1] + edge_s, dur)
        if b - a > length[1] + 1.0:  # one long stretch with no pause: cut inside it
            b = a + length[1]
        inner = [
            [max(x0, a) - a, min(x1, b) - a]
            for x0, x1 in spans[i : j + 1]
            if min(x1, b) > max(x0, a)
        ]
    else:
        a = _u(rng, (0.0, max(dur - want, 0.0)))
        b = min(a + want, dur)
        inner = [[0.0, b - a]]
    ka = _k(a)
    x = np.array(clip.samples[ka : _k(b)], dtype=np.float64)
    f = min(int(0.015 * RATE), len(x) // 2)
    if f > 0:
        ramp = 0.5 - 0.5 * np.cos(np.pi * np.arange(f) / f)
        x[:f] *= ramp
        x[len(x) - f :] *= ramp[::-1]
    return x, inner, ka / RATE


def real_noise(rng: np.random.Generator, clips: list[Clip], n: int) -> np.ndarray:
    """``n`` samples of recorded room noise, unit power: the clips (each normalised to unit power)
    joined one after another from random start points with 50 ms cross-fades."""
    if not clips:
        raise ValueError("no recorded noise clip to use")
    out = np.zeros(n)
    pos, fade = 0, int(0.05 * RATE)
    while pos < n:
        c = clips[int(rng.integers(len(clips)))]
        x = np.asarray(c.samples, np.float64)
        x = x[int(rng.integers(0, max(len(x) // 2, 1))) :]
        x = x / (np.sqrt(np.mean(x**2)) + 1e-12)
        m = min(len(x), n - pos)
        seg = x[:m].copy()
        if pos > 0 and m > fade:
            seg[:fade] *= np.linspace(0.0, 1.0, fade)
            out[pos : pos + fade] *= np.linspace(1.0, 0.0, fade)
        out[pos : pos + m] += seg
        pos += max(m - fade, 1) if pos + m < n else m
    return out / (np.sqrt(np.mean(out**2)) + 1e-12)


@dataclass(frozen=True)
class Voices:
    """Who speaks in a session, and what room noise is there.

    ``engines`` weights the three kinds of voice for calls (``espeak``, ``festival``, ``real``) and
    ``talk_engines`` for other talk (chatter, talk over the stroke). A recorded voice (``real``,
    from ``speech`` limited to ``speech_sources``) is not a pyramid call: it is Russian speech of
    the same length, with real plosives, breath and rooms, standing in for one. ``noise_sources``
    limits the recorded noise (``noise="cafe"``). Engines that are not available (no Festival, no
    speech folder) are dropped, and ``missing`` says which were."""

    engines: tuple = (("espeak", 1.0),)
    talk_engines: tuple = (("espeak", 1.0),)
    speech: SpeechBank | None = None
    speech_sources: frozenset | None = None
    noise_sources: frozenset | None = None

    @classmethod
    def mixed(
        cls, speech: SpeechBank | None = None, speech_sources=None, noise_sources=None
    ) -> Voices:
        """Calls 40 % espeak-ng, 40 % Festival, 20 % recorded voices; other talk a half recorded."""
        return cls(
            (("espeak", 0.4), ("festival", 0.4), ("real", 0.2)),
            (("espeak", 0.25), ("festival", 0.25), ("real", 0.5)),
            speech,
            None if speech_sources is None else frozenset(speech_sources),
            None if noise_sources is None else frozenset(noise_sources),
        )

    def available(self, which: tuple) -> list[tuple[str, float]]:
        ok = []
        for name, w in which:
            if name == "festival" and not make_audio.festival_available():
                continue
            if name == "real" and (
                self.speech is None or not self.speech.of("speech", self.speech_sources)
            ):
                continue
            ok.append((name, w))
        return ok or [("espeak", 1.0)]

    @property
    def missing(self) -> list[str]:
        have = {n for n, _ in self.available(self.engines + self.talk_engines)}
        return sorted({n for n, _ in self.engines + self.talk_engines} - have)


ESPEAK_ONLY = Voices()


# ----------------------------------------------------------------------------------------------
# Sound shaping

PRE_KEEP = int(0.05 * RATE)  # pre-onset samples kept (faded in) when a recording is placed
FADE_OUT = int(0.005 * RATE)


def prepared(s: Sound) -> tuple[np.ndarray, int, int]:
    """A recording ready to place: (samples, onset index, active-end index) in that array.

    At most 50 ms before the onset is kept, faded in with a raised cosine (the pre-roll is at
    least 20 dB down: recording noise, edits), and the last 5 ms are faded out (some clips are
    cut abruptly; a step there would be a spurious click). The onset sample itself is untouched.
    """
    on = s.onset_index
    a = max(on - PRE_KEEP, 0)
    x = np.array(s.samples[a:], dtype=np.float64)
    pre = on - a
    if pre > 0:
        x[:pre] *= 0.5 - 0.5 * np.cos(np.pi * np.arange(pre) / pre)
    f = min(FADE_OUT, len(x) - pre)
    if f > 0:
        x[len(x) - f :] *= np.linspace(1.0, 0.0, f)
    end = max(int(round(s.active_end * RATE)) - a, pre + 1)
    return x, pre, end


TIMBRE_KINDS = ("cue", "ball", "cushion", "pocket", "rack", "other")


def draw_timbre(rng: np.random.Generator) -> dict[str, tuple[int, int, float, float]]:
    """Another table, set of balls, cue tip and microphone for a session's recordings: per kind,
    a resampling ratio ``(up, down)`` of 0.6 to 1.6 (every frequency and decay scaled together,
    as a larger or smaller, harder or softer body rings), and a high shelf (the corner 400 Hz to
    3 kHz, the gain above it -12 to +12 dB: a microphone's or a room's tilt). Drawn for each kind
    alone, so that a strike may come out brighter than its clacks, as one source's recordings
    are: a detector fitted on such sessions cannot lean on a timbre that another table changes.
    """
    out = {}
    for kind in TIMBRE_KINDS:
        speed = float(np.exp(rng.uniform(np.log(0.6), np.log(1.6))))
        up, down = 100, int(round(100 / speed))
        g = gcd(up, down)
        corner = float(rng.uniform(400.0, 3000.0))
        out[kind] = (up // g, down // g, corner, float(10 ** (rng.uniform(-12.0, 12.0) / 20)))
    return out


def apply_timbre(
    x: np.ndarray, onset: int, end: int, how: tuple[int, int, float, float]
) -> tuple[np.ndarray, int, int]:
    """A recording with a timbre of :func:`draw_timbre` (its onset and end indices moved)."""
    from scipy.signal import butter, lfilter, resample_poly

    up, down, corner, high = how
    if up != down:
        x = resample_poly(x, up, down)
        onset, end = int(round(onset * up / down)), int(round(end * up / down))
    b, a = butter(1, corner, btype="low", fs=RATE)
    low = lfilter(b, a, x)
    return low + high * (x - low), onset, end


def pitch_down(
    x: np.ndarray, onset: int, end: int, amount: float
) -> tuple[np.ndarray, int, int, float]:
    """Lower a ball clack's pitch by ``amount`` (0-0.15): resample so it plays 1/(1-amount) longer.

    Russian pyramid balls are 68 mm and ~280 g; the recordings are of pool balls (57.2 mm,
    ~170 g) or smaller. A sphere's vibration modes scale as 1/diameter, and the Hertz contact
    time of two equal balls, tau ~ (m^2 / (R E^2 v))^(1/5) with m ~ R^3, scales as R too, so
    every spectral feature of the clack moves down by about 57.2/68 = 0.84. Drawing 0-15 %
    covers pool-to-pyramid and recordings already from larger balls. ``resample_poly(x, up,
    down)`` with up/down = 1/(1 - amount) (``up`` = 200) stretches time and lowers every
    frequency by the same factor (decays lengthen proportionally, as for a larger ball).
    Returns the samples, the mapped onset and active end (index * up/down) and the actual
    amount used.
    """
    from scipy.signal import resample_poly

    if amount <= 0:
        return x, onset, end, 0.0
    up = 200
    down = int(round(up * (1.0 - amount)))
    g = gcd(up, down)
    up, down = up // g, down // g
    y = resample_poly(x, up, down)
    return y, int(round(onset * up / down)), int(round(end * up / down)), 1.0 - down / up


def clap(
    rng: np.random.Generator,
    *,
    fc: float | None = None,
    q: float | None = None,
    length: float | None = None,
    attack: float | None = None,
) -> tuple[np.ndarray, dict]:
    """One hand clap (no recording exists in the bank, so it is synthesized). Peak 1.

    Physics: when the palms meet, the air pocket between them is compressed and escapes
    through the gap between the fingers and the heel of the hand as a short pressure pulse;
    the pocket and its opening form a Helmholtz-like cavity, which rings briefly at a
    frequency set by the cupping (0.8-2.5 kHz: flat palms high, cupped palms low) with a low
    Q (2-6: the opening radiates strongly, so it is heavily damped). Model: white noise under
    an envelope with a linear 1-3 ms attack and an exponential decay that reaches -60 dB at
    the total length (5-15 ms), filtered by that resonance (a band-pass biquad at ``fc`` with
    quality ``q``, applied twice so the skirts fall at 12 dB/octave and the energy stays
    around ``fc``), then first-order high-pass at 300 Hz (a palm-sized source radiates low
    frequencies poorly) and low-pass at 4 kHz (the jet carries little energy higher).
    Returns the samples and ``{"fc", "q", "length", "attack"}``.
    """
    from scipy.signal import butter, lfilter, sosfilt

    fc = float(rng.uniform(800, 2500)) if fc is None else fc
    q = float(rng.uniform(2, 6)) if q is None else q
    length = float(rng.uniform(0.005, 0.015)) if length is None else length
    attack = float(rng.uniform(0.001, min(0.003, 0.5 * length))) if attack is None else attack
    n = int(round(length * RATE))
    t = np.arange(n) / RATE
    env = np.where(
        t < attack, t / attack, np.exp(-6.9078 * (t - attack) / max(length - attack, 1e-4))
    )
    x = rng.standard_normal(n) * env
    w0 = 2 * np.pi * fc / RATE
    alpha = np.sin(w0) / (2 * q)
    b, a = [alpha, 0.0, -alpha], [1 + alpha, -2 * np.cos(w0), 1 - alpha]
    x = lfilter(b, a, lfilter(b, a, x))
    x = sosfilt(
        butter(1, 4000, "lowpass", fs=RATE, output="sos"),
        sosfilt(butter(1, 300, "highpass", fs=RATE, output="sos"), x),
    )
    x[-min(16, n) :] *= np.linspace(1.0, 0.0, min(16, n))
    return x / (np.abs(x).max() + 1e-12), {"fc": fc, "q": q, "length": length, "attack": attack}


# ----------------------------------------------------------------------------------------------
# Room and noise


def room_ir(
    rng: np.random.Generator, *, rt60: float | None = None, drr_db: float | None = None
) -> tuple[np.ndarray, dict]:
    """Impulse response of a club room, microphone 0.5-3 m from the table.

    ``h(t) = delta(t) + sum_i g_i delta(t - d_i) + A * LP[n](t) * r(t) * exp(-6.908 t / RT60)``

    - the direct sound, gain 1 at t = 0 (so truth times are not shifted);
    - 3-6 early reflections (table bed, floor, nearby walls) at delays d_i uniform in 2-25 ms,
      gains g_i of random sign and magnitude 0.2-0.6;
    - a diffuse tail: white noise ``n`` low-passed (2nd-order Butterworth, 4-6.5 kHz: air and
      soft wall/cloth absorption take the top off) under an exponential envelope whose
      *amplitude* falls by 60 dB (a factor 1000 = e^6.908) in RT60 (0.4-0.9 s) - the energy
      decays as exp(-13.8 t / RT60) - with a build-up ``r(t) = 1 - exp(-t / 5 ms)`` from 2 ms
      (the echo density grows after the first reflections);
    - ``A`` sets the direct-to-reverberant ratio DRR = 10 log10(1 / sum(tail^2)) to 3-12 dB
      (12 dB: close to the table; 3 dB: across the room). The early reflections are counted
      with the direct sound (they arrive within the ~25 ms the ear integrates with it).

    The response lasts 1.2 RT60 (the tail ends 72 dB down). Returns ``(h, info)`` with ``info``
    = ``{"rt60", "drr_db", "lowpass_hz", "early": [[delay_s, gain], ...]}``.
    """
    from scipy.signal import butter, sosfilt

    rt60 = float(rng.uniform(0.4, 0.9)) if rt60 is None else float(rt60)
    drr_db = float(rng.uniform(3.0, 12.0)) if drr_db is None else float(drr_db)
    n = int(round(1.2 * rt60 * RATE))
    h = np.zeros(n)
    h[0] = 1.0
    early = []
    for _ in range(int(rng.integers(3, 7))):
        d = int(round(rng.uniform(0.002, 0.025) * RATE))
        g = float(rng.choice([-1.0, 1.0]) * rng.uniform(0.2, 0.6))
        h[d] += g
        early.append([d / RATE, g])
    lp = float(rng.uniform(4000, 6500))
    t = np.arange(n) / RATE
    tail = sosfilt(butter(2, lp, "lowpass", fs=RATE, output="sos"), rng.standard_normal(n))
    t0 = 0.002
    tail *= np.exp(-6.9078 * t / rt60) * np.where(t >= t0, 1.0 - np.exp(-(t - t0) / 0.005), 0.0)
    tail *= np.sqrt(10 ** (-drr_db / 10) / np.sum(tail**2))
    h += tail
    early.sort()
    return h, {"rt60": rt60, "drr_db": drr_db, "lowpass_hz": lp, "early": early}


def pink(rng: np.random.Generator, n: int) -> np.ndarray:
    """Unit-power pink (1/f) noise: ``make_audio.colored_noise`` made at an FFT-friendly length
    (a length with a large prime factor makes its FFT ten times slower) and cut to ``n``."""
    from scipy.fft import next_fast_len

    x = colored_noise(rng, next_fast_len(max(n, 2)), 1.0)[:n]
    return x / np.sqrt(np.mean(x**2))


def hum(rng: np.random.Generator, n: int) -> np.ndarray:
    """Mains hum, unit power: 50 Hz (+-0.1 Hz grid tolerance) and its harmonics up to 1 kHz.

    Transformers and ballasts hum at 50 Hz and strongly at 100 Hz (magnetostriction works
    at twice the mains frequency); rectifiers and saturated iron add odd harmonics. Amplitudes:
    1 at 50 Hz, 0.5-1.5 at 100 Hz, 0.2-0.8/sqrt(k) for odd k, 0.05-0.3/sqrt(k) for even k;
    each varies slowly (+-30 %, random values every 0.5 s, linearly interpolated) as loads
    change. A little pink noise (-20 dB) is added (the hiss of the same electronics).
    """
    f0 = 50.0 + rng.uniform(-0.1, 0.1)
    t = np.arange(n) / RATE
    knots = np.arange(int(n / (RATE / 2)) + 2) * 0.5
    x = np.zeros(n)
    z1 = np.exp(2j * np.pi * f0 * t)  # harmonic k is Im(e^{i phi} z1^k): one complex product each
    zk = np.ones(n, dtype=complex)
    for k in range(1, int(1000 // 50) + 1):
        zk *= z1
        if k == 1:
            amp = 1.0
        elif k == 2:
            amp = rng.uniform(0.5, 1.5)
        elif k % 2:
            amp = rng.uniform(0.2, 0.8) / np.sqrt(k)
        else:
            amp = rng.uniform(0.05, 0.3) / np.sqrt(k)
        slow = np.maximum(1.0 + 0.3 * np.interp(t, knots, rng.uniform(-1, 1, len(knots))), 0.0)
        x += amp * slow * (zk * np.exp(1j * rng.uniform(0, 2 * np.pi))).imag
    x /= np.sqrt(np.mean(x**2))
    x += 0.1 * pink(rng, n)
    return x / np.sqrt(np.mean(x**2))


NOISES = ("pink", "babble", "hum", "mix")


def make_noise(rng: np.random.Generator, kind: str, n: int) -> np.ndarray:
    """Unit-power noise: pink (1/f), babble (six espeak-ng talkers), hum, or mix (the three
    at equal power)."""
    if kind == "pink":
        return pink(rng, n)
    if kind == "babble":
        return babble(rng, n)
    if kind == "hum":
        return hum(rng, n)
    if kind == "mix":
        x = pink(rng, n) + babble(rng, n) + hum(rng, n)
        return x / np.sqrt(np.mean(x**2))
    raise ValueError(f"unknown noise {kind!r}; noises: {NOISES}")


# ----------------------------------------------------------------------------------------------
# Scene assembly


def _u(rng: np.random.Generator, lo_hi) -> float:
    lo, hi = lo_hi
    return float(rng.uniform(lo, hi)) if hi > lo else float(lo)


def _k(t: float) -> int:
    return int(round(t * RATE))


_PITCHED: dict[tuple[str, int], tuple] = {}  # (recording, resampling ratio) -> pitch_down's result


class _Scene:
    """Placements (stem, start sample, samples) and the truth, rendered once the length is known."""

    STEMS = ("calls", "speech", "strikes", "table", "claps")

    def __init__(
        self,
        rng,
        bank: Bank,
        allowed,
        *,
        include_doubtful=False,
        pitch=(0.0, 0.15),
        voices: Voices = None,
        timbre: dict | None = None,
    ):
        self.rng = rng
        self.timbre = timbre or {}
        self.voices = voices or ESPEAK_ONLY
        self.used_speech: set[str] = set()
        self.pitch = pitch
        self.items: list[tuple[str, int, np.ndarray]] = []
        self.used_sources: set[str] = set()
        self.pool = {k: bank.of(k, allowed, include_doubtful=include_doubtful) for k in KINDS}
        if not include_doubtful:  # a strike's onset must be the hit itself (see has_clear_onset)
            self.pool["cue"] = [s for s in self.pool["cue"] if s.clear_onset]
        if not self.pool["cue"]:
            raise ValueError(
                f"no cue recording among the allowed sources {sorted(allowed or [])}: "
                "a session needs strikes"
            )
        self.truth = {
            "strikes": [],
            "strike_sounds": [],
            "strike_rel_db": [],
            "stroke_sounds": [],
            "late_sounds": [],
            "rack": [],
            "claps": [],
            "other": [],
            "calls": [],
            "chatter": [],
            "spoken_over": [],
            "strokes": [],
        }

    def add(self, stem: str, x: np.ndarray, start: int) -> None:
        if start < 0:
            x, start = x[-start:], 0
        self.items.append((stem, start, x))

    @property
    def end(self) -> int:
        return max((s + len(x) for _, s, x in self.items), default=0)

    def render(self, n: int) -> dict[str, np.ndarray]:
        stems = {s: np.zeros(n) for s in self.STEMS}
        for stem, s, x in self.items:
            m = min(len(x), n - s)
            if m > 0:
                stems[stem][s : s + m] += x[:m]
        return stems

    # -- speech
    def utterance(
        self, texts: list[str], speed=(130, 200), pitch=(25, 75), talk: bool = False
    ) -> tuple[np.ndarray, dict]:
        """An utterance of one of ``texts`` by a voice drawn from the session's ``Voices`` (calls:
        ``engines``; other talk, ``talk=True``: ``talk_engines``). ``info["words"]`` holds the
        ``[start, end]`` (s, in the samples) of each word (Festival) or stretch of talk (espeak-ng,
        a recorded voice: ``make_audio.speech_spans``)."""
        r = self.rng
        engines = self.voices.available(self.voices.talk_engines if talk else self.voices.engines)
        engine = engines[0][0]
        if len(engines) > 1:  # (espeak-only sessions draw exactly as before Voices existed)
            w = np.array([e[1] for e in engines], float)
            engine = engines[
                int(
                    np.searchsorted(np.cumsum(w / w.sum()), r.uniform(), side="right").clip(
                        0, len(engines) - 1
                    )
                )
            ][0]
        if engine == "real":
            pool = self.voices.speech.of("speech", self.voices.speech_sources)
            clip = pool[int(r.integers(len(pool)))]
            x, words, at = real_excerpt(r, clip, (1.0, 4.0) if talk else (1.2, 3.5))
            self.used_speech.add(clip.source)
            return x / (np.abs(x).max() + 1e-12), {
                "engine": "real",
                "text": None,
                "clip": clip.name,
                "clip_start": round(at, 4),
                "speech_source": clip.source,
                "words": words,
            }
        text = texts[int(r.integers(len(texts)))]
        if engine == "festival":
            stretch = round(_u(r, (0.9, 1.15)), 3)
            x, words = make_audio.speak_festival(text, stretch)
            return x, {
                "engine": "festival",
                "text": text,
                "voice": make_audio.FESTIVAL_VOICE,
                "stretch": stretch,
                "words": words,
            }
        voice = VOICES[int(r.integers(len(VOICES)))]
        sp, pi = int(r.integers(speed[0], speed[1] + 1)), int(r.integers(pitch[0], pitch[1] + 1))
        x = speak(text, voice, sp, pi)
        words = make_audio.speech_spans(x) or [[0.0, len(x) / RATE]]
        words[0][0], words[-1][1] = 0.0, len(x) / RATE  # the samples are trimmed to the sound
        return x, {
            "text": text,
            "voice": voice,
            "speed": sp,
            "pitch": pi,
            "engine": "espeak",
            "words": words,
        }

    def say(self, stem: str, x: np.ndarray, info: dict, start: int, gain: float = 1.0) -> dict:
        """Place an utterance at sample ``start``. Its truth: ``start``/``end`` are its first word's
        start and its last word's end (s, session clock), ``words`` every word's span there, and
        ``placed`` the span of the samples placed (a recorded voice keeps 30 ms of room either side)."""
        self.add(stem, gain * x, start)
        t0 = start / RATE
        words = [
            [round(t0 + a, 5), round(t0 + b, 5)]
            for a, b in info.get("words") or [[0.0, len(x) / RATE]]
        ]
        rest = {k: v for k, v in info.items() if k != "words"}
        return {
            **rest,
            "start": words[0][0],
            "end": words[-1][1],
            "words": words,
            "placed": [t0, (start + len(x)) / RATE],
        }

    # -- recordings
    def recording(
        self, kind: str, onset_k: int, gain_for, stem: str = "table", pitch: bool = False
    ) -> tuple[dict, int]:
        """Place a random ``kind`` recording with its onset at ``onset_k``; ``gain_for(x)`` gives the
        gain for the prepared samples. Returns its truth entry and the sample where it dies away."""
        r = self.rng
        snd = self.pool[kind][int(r.integers(len(self.pool[kind])))]
        x, on, end = prepared(snd)
        amount = 0.0
        if pitch and self.pitch and self.pitch[1] > 0:
            want = _u(r, self.pitch)
            key = (snd.name, int(round(200 * (1.0 - want))))  # pitch_down's own resolution (1/200)
            if key not in _PITCHED:
                _PITCHED[key] = pitch_down(x, on, end, want)
            x, on, end, amount = _PITCHED[key]
        if kind in self.timbre:
            x, on, end = apply_timbre(x, on, end, self.timbre[kind])
        g, rel = gain_for(x)
        self.add(stem, g * x, onset_k - on)
        self.used_sources.add(snd.source)
        e = {"t": onset_k / RATE, "kind": kind, "name": snd.name, "rel_db": round(rel, 3)}
        if pitch:
            e["pitch_down"] = round(amount, 4)
        return e, onset_k - on + end

    def rel_gain(self, ref: float, db_range):
        def f(x):
            rel = _u(self.rng, db_range)
            return 10 ** (rel / 20) * ref / (peak_rms(x) + 1e-12), rel

        return f

    def has(self, kind: str) -> bool:
        return bool(self.pool[kind])

    # -- a stroke
    def strike(self, i: int, T: int, speech_ref: float, rel_range) -> tuple[float, int]:
        """The cue recording with its onset at sample T, its 10 ms RMS peak ``rel_range`` dB
        (uniform) relative to ``speech_ref``. Returns the placed strike's peak and its end."""
        r = self.rng
        snd = self.pool["cue"][int(r.integers(len(self.pool["cue"])))]
        x, on, end = prepared(snd)
        if "cue" in self.timbre:
            x, on, end = apply_timbre(x, on, end, self.timbre["cue"])
        rel = _u(r, rel_range)
        g = 10 ** (rel / 20) * speech_ref / (peak_rms(x) + 1e-12)
        self.add("strikes", g * x, T - on)
        self.used_sources.add(snd.source)
        self.truth["strikes"].append(T / RATE)
        self.truth["strike_sounds"].append(snd.name)
        self.truth["strike_rel_db"].append(round(rel, 3))
        return g * peak_rms(x), T - on + end

    def stroke_sounds(self, i: int, T: int, strike_peak: float) -> int:
        """1-4 collisions, 0-2 cushion hits and (p = 0.6) a pocket drop 0.1-2.0 s after the strike,
        levels relative to the strike peak: collisions -6..+6 dB, cushions -12..0, pocket -10..+3.
        The drop comes after the first collision (the object ball must be hit first).
        Returns the sample where the last of them dies away."""
        r = self.rng
        last = T
        plan = []
        if self.has("ball"):
            cols = sorted(_u(r, (0.1, 2.0)) for _ in range(int(r.integers(1, 5))))
            plan += [("ball", t, (-6, 6)) for t in cols]
        else:
            cols = [0.1]
        if self.has("cushion"):
            plan += [
                ("cushion", _u(r, (0.1, 2.0)), (-12, 0)) for _ in range(int(r.integers(0, 3)))
            ]
        if self.has("pocket") and r.uniform() < 0.6:
            plan.append(("pocket", _u(r, (min(cols[0] + 0.1, 1.9), 2.0)), (-10, 3)))
        for kind, dt, rng_db in plan:
            e, end = self.recording(
                kind, T + _k(dt), self.rel_gain(strike_peak, rng_db), pitch=kind == "ball"
            )
            e["stroke"] = i
            self.truth["stroke_sounds"].append(e)
            last = max(last, end)
        return last

    def claps(self, after: int, speech_ref: float) -> int:
        """1-3 claps 0.3-0.5 s apart, the first 0.8-2.5 s after sample ``after`` (applause after a
        stroke); each -10..+3 dB re the speech peak. Returns the end of the last clap."""
        r = self.rng
        t = after + _k(_u(r, (0.8, 2.5)))
        end = t
        for j in range(int(r.integers(1, 4))):
            if j:
                t += _k(_u(r, (0.3, 0.5)))
            x, info = clap(r)
            on = onset_index(x)
            rel = _u(r, (-10, 3))
            self.add("claps", 10 ** (rel / 20) * speech_ref / peak_rms(x) * x, t - on)
            self.truth["claps"].append(
                {
                    "t": t / RATE,
                    "rel_db": round(rel, 3),
                    **{k: round(v, 5) for k, v in info.items()},
                }
            )
            end = t - on + len(x)
        return end

    def rack(self, start: int, speech_ref: float) -> int:
        """A rack being set, quiet (-20..-6 dB re the speech peak): the rack recording and/or
        6-15 ball clacks 40-250 ms apart (balls gathered into the triangle). Returns its end."""
        r = self.rng
        modes = [
            m
            for m, ok in (
                ("recording", self.has("rack")),
                ("clacks", self.has("ball")),
                ("both", self.has("rack") and self.has("ball")),
            )
            if ok
        ]
        if not modes:
            return start
        mode = modes[int(r.integers(len(modes)))]
        t, end = start, start
        if mode in ("recording", "both"):
            e, end = self.recording("rack", t, self.rel_gain(speech_ref, (-20, -6)))
            self.truth["rack"].append(e)
            t = end + _k(_u(r, (0.1, 0.4)))
        if mode in ("clacks", "both"):
            for j in range(int(r.integers(6, 16))):
                if j:
                    t += _k(_u(r, (0.04, 0.25)))
                e, e_end = self.recording(
                    "ball", t, self.rel_gain(speech_ref, (-20, -6)), pitch=True
                )
                self.truth["rack"].append(e)
                end = max(end, e_end)
        return end


def _finish(
    scene: _Scene, n: int, rng_noise, rng_room, snr_db, noise, reverb, with_stems, extra_truth
):
    stems = scene.render(n)
    dry = sum(stems.values())
    room = None
    if reverb:
        from scipy.signal import fftconvolve

        h, room = room_ir(rng_room)
        wet = fftconvolve(dry, h)[:n]
    else:
        h, wet = None, dry
    calls = stems["calls"]
    ref = active_power(calls) if np.any(calls) else 0.01
    if snr_db is None:
        # not digital silence: a pink floor ~70 dB below the speech's sample peak
        nz = pink(rng_noise, n) * (np.abs(calls).max() or 1.0) * 10 ** (-70 / 20)
    elif noise == "cafe":
        v = scene.voices
        if v.speech is None:
            raise ValueError("noise 'cafe' needs the recorded noise: Voices(speech=load_speech())")
        nz = real_noise(rng_noise, v.speech.of("noise", v.noise_sources), n) * np.sqrt(
            ref / 10 ** (snr_db / 10)
        )
    else:
        nz = make_noise(rng_noise, noise, n) * np.sqrt(ref / 10 ** (snr_db / 10))
    mix = wet + nz
    gain = PEAK_OUT / (np.abs(mix).max() + 1e-12)
    truth = scene.truth
    for k in ("stroke_sounds", "late_sounds", "rack", "claps", "other", "chatter"):
        truth[k].sort(key=lambda e: e.get("t", e.get("start")))
    truth.update(extra_truth)
    truth["sounds"] = _sounds_list(truth)
    truth["speech_sources"] = sorted(scene.used_speech)
    if noise == "cafe" and snr_db is not None:
        truth["noise_sources"] = sorted(
            {c.source for c in scene.voices.speech.of("noise", scene.voices.noise_sources)}
        )
    truth.update(
        {
            "snr_db": snr_db,
            "noise": noise if snr_db is not None else "none",
            "reverb": bool(reverb),
            "room": room,
            "sources": sorted(scene.used_sources),
            "duration": n / RATE,
            "rate": RATE,
            "gain": float(gain),
            "speech_active_power": float(ref),
        }
    )
    out = mix * gain
    if with_stems:
        stems["noise"] = nz
        stems["wet"] = wet
        # the strikes as the microphone gets them: through the room when there is one (the
        # other stems are dry)
        stems["strikes_wet"] = (
            stems["strikes"] if h is None else fftconvolve(stems["strikes"], h)[:n]
        )
        return out, truth, stems
    return out, truth


def _subrngs(rng: np.random.Generator):
    """Independent generators for the scene, the noise and the room: the same seed gives the same
    scene (and room) whatever the noise or SNR, so a clean and a noisy version line up exactly."""
    seeds = rng.integers(0, 2**63 - 1, size=3)
    return [np.random.default_rng(int(s)) for s in seeds]


def make_session(
    rng: np.random.Generator,
    bank: Bank,
    *,
    sources: Iterable[str] | str | None = None,
    n_strokes: int = 5,
    snr_db: float | None = None,
    noise: str = "pink",
    reverb: bool = True,
    strike_rel_db=(-15.0, 0.0),
    call_gap=(0.3, 1.5),
    call_right_after: bool = False,
    call_inside_stroke_p: float = 0.0,
    rolling_p: float = 0.0,
    rack_p: float = 0.0,
    clap_p: float = 0.0,
    chatter_p: float = 0.0,
    spoken_over_p: float = 0.0,
    chalk_p: float = 0.0,
    stray_call_p: float = 0.0,
    pitch_down_range=(0.0, 0.15),
    include_doubtful: bool = False,
    voices: Voices | None = None,
    with_stems: bool = False,
    timbre_p: float = 0.0,
):
    """A table session of ``n_strokes`` strokes. Returns ``(samples, truth)`` (float64, peak 0.7),
    or ``(samples, truth, stems)`` with ``with_stems=True``: each kind of sound alone, dry
    (:attr:`_Scene.STEMS`), then ``noise``, ``wet`` (the dry sum through the room, before the
    noise) and ``strikes_wet`` (the strikes alone through the room), all before the output gain.

    Each stroke: a call (espeak-ng, random ru voice, speed 130-200, pitch 25-75, gain -4..0 dB),
    a pause drawn from ``call_gap``, the strike (a cue recording, onset on the strike time, its
    10 ms RMS peak ``strike_rel_db`` dB re the call's 10 ms RMS peak), then its own sounds
    0.1-2.0 s later (see ``_Scene.stroke_sounds``; ball clacks pitched down by ``pitch_down_range``,
    (0, 0) to keep them as recorded). The next call starts 0.2-1.0 s after the stroke's last
    sound has died away (30 dB down), 0.0-0.3 s with ``call_right_after``, or - with probability
    ``call_inside_stroke_p`` - 0.5-1.5 s after the previous strike, over its sounds. Strikes are
    at least 2.5 s apart (the pause is lengthened if needed).

    Extras, each drawn per stroke with its probability (all 0 by default; ``REALISTIC`` holds the
    rates the CLI uses):

    - ``rolling_p``: balls still rolling: 1-2 late collisions, a cushion hit or a pocket drop
      2.0-4.0 s after that stroke's strike, 6 dB quieter than the stroke's own (slower balls),
      possibly during the next call, never within 0.4 s before the next strike;
    - ``rack_p``: a rack set before the call, with no speech around it (``_Scene.rack``);
    - ``clap_p``: 1-3 hand claps after the stroke (``clap``);
    - ``chatter_p``: a remark (``CHATTER``) before the call, no strike after it;
    - ``spoken_over_p``: another person talking through the strike (an utterance that covers the
      strike time, -6..0 dB re the call);
    - ``chalk_p``: chalking the cue (``other_*`` recording, -20..-6 dB re the speech peak) before
      the call;
    - ``stray_call_p``: a call with no stroke after it: a call, 1.5-3 s of nothing on the table,
      then the player calls again (another call) and plays (the truth's call has ``stroke: None``).

    ``voices`` (``Voices``) says who speaks: espeak-ng only by default; ``Voices.mixed`` adds
    Festival and recorded voices, and recorded room noise (``noise="cafe"``).

    The truth's ``strokes`` holds, per stroke: ``call`` (its index in ``calls``), ``call_start`` and
    ``call_end`` (its first word's start and last word's end), ``words``, ``strike`` (the onset),
    ``cascade_end`` (where the last of the stroke's own sounds has died away, 30 dB down) and
    ``sound`` (the cue recording). ``sounds`` lists every placed sound that is not a strike, each
    with its ``t`` (onset) and ``kind``: ball, cushion, pocket (a stroke's cascade: ``stroke`` set),
    late_ball / late_cushion / late_pocket (balls still rolling), rack, rack_ball, clap, chalk.

    ``timbre_p``: the probability that the session's recordings are given another table's timbre
    (:func:`draw_timbre`: fitting only; with 0 the session is drawn exactly as before).

    ``sources`` restricts every recording (strikes, stroke sounds, rack, chalk) to those sources
    (leave-one-source-out evaluation); a kind with no recording there is simply not used.
    ``include_doubtful`` lets the two cue recordings SOURCES.md doubts be strikes.
    Noise (``noise`` in ``NOISES``) is added after the room at ``snr_db`` dB below the active
    power (``make_audio.active_power``) of the dry summed calls; ``snr_db=None`` adds only a pink
    floor 70 dB below the speech peak. ``reverb`` convolves speech and table sounds (not the
    noise) with ``room_ir``.
    """
    allowed = bank.check_sources(sources)
    r, r_noise, r_room = _subrngs(rng)
    timbre = None
    if timbre_p > 0:  # (drawn after the scene's generators: they stay as without it)
        r_timbre = np.random.default_rng(int(rng.integers(0, 2**63 - 1)))
        timbre = draw_timbre(r_timbre) if r_timbre.uniform() < timbre_p else None
    sc = _Scene(
        r,
        bank,
        allowed,
        include_doubtful=include_doubtful,
        pitch=pitch_down_range,
        voices=voices,
        timbre=timbre,
    )
    tr = sc.truth
    cursor = _k(_u(r, (0.5, 1.5)))
    prev_T = None
    strikes_meta = []  # (T, strike peak) per stroke, for the rolling balls
    inside = False
    for i in range(n_strokes):
        x_call, info = sc.utterance(ALL_CALLS)
        call_gain = 10 ** (_u(r, (-4, 0)) / 20)
        speech_ref = call_gain * peak_rms(x_call)
        if not inside:
            if (
                i > 0 or r.uniform() < 0.5
            ):  # extras between strokes (and sometimes before the first)
                if r.uniform() < rack_p:
                    cursor = sc.rack(cursor + _k(_u(r, (0.1, 0.5))), speech_ref) + _k(
                        _u(r, (0.3, 1.0))
                    )
                if sc.has("other") and r.uniform() < chalk_p:
                    e, end = sc.recording("other", cursor, sc.rel_gain(speech_ref, (-20, -6)))
                    tr["other"].append(e)
                    cursor = end + _k(_u(r, (0.2, 0.8)))
                if r.uniform() < chatter_p:
                    x, cinfo = sc.utterance(CHATTER, talk=True)
                    g = 10 ** (_u(r, (-6, 0)) / 20) * speech_ref / peak_rms(x)
                    tr["chatter"].append(
                        {**sc.say("speech", x, cinfo, cursor, g), "kind": "chatter"}
                    )
                    cursor += len(x) + _k(_u(r, (0.4, 1.2)))
        if stray_call_p and r.uniform() < stray_call_p:
            x, sinfo = sc.utterance(ALL_CALLS)
            c = sc.say(
                "calls",
                x,
                sinfo,
                cursor,
                10 ** (_u(r, (-4, 0)) / 20) * speech_ref / (peak_rms(x) + 1e-12),
            )
            c.update(stroke=None, kind="no_stroke")
            tr["calls"].append(c)
            cursor += len(x) + _k(_u(r, (1.5, 3.0)))
        c = sc.say("calls", x_call, info, cursor, call_gain)
        c["stroke"] = i
        tr["calls"].append(c)
        call_end = _k(c["end"])
        T = call_end + _k(_u(r, call_gap))
        if prev_T is not None:
            T = max(T, prev_T + _k(MIN_STRIKE_GAP))
        peak, end = sc.strike(i, T, speech_ref, strike_rel_db)
        end = max(end, sc.stroke_sounds(i, T, peak))
        tr["strokes"].append(
            {
                "i": i,
                "call": len(tr["calls"]) - 1,
                "call_start": c["start"],
                "call_end": c["end"],
                "words": c["words"],
                "strike": T / RATE,
                "cascade_end": end / RATE,
                "sound": tr["strike_sounds"][-1],
            }
        )
        if r.uniform() < spoken_over_p:
            x, oinfo = sc.utterance(CHATTER + ALL_CALLS, talk=True)
            start = max(T - int(_u(r, (0.15, 0.85)) * len(x)), 0)
            g = 10 ** (_u(r, (-6, 0)) / 20) * speech_ref / peak_rms(x)
            tr["chatter"].append(
                {**sc.say("speech", x, oinfo, start, g), "kind": "over_strike", "strike": i}
            )
            tr["spoken_over"].append(i)
        if r.uniform() < clap_p:
            end = max(end, sc.claps(T, speech_ref))
        strikes_meta.append((T, peak))
        prev_T = T
        inside = r.uniform() < call_inside_stroke_p
        if inside:
            cursor = T + _k(_u(r, (0.5, 1.5)))
        elif call_right_after:
            cursor = end + _k(_u(r, (0.0, 0.3)))
        else:
            cursor = end + _k(_u(r, (0.2, 1.0)))
    # Balls still rolling from a stroke: placed once the next strike's time is known.
    for i, (T, peak) in enumerate(strikes_meta):
        if r.uniform() >= rolling_p:
            continue
        hi = T + _k(4.0)
        if i + 1 < len(strikes_meta):
            hi = min(hi, strikes_meta[i + 1][0] - _k(0.4))
        lo = T + _k(2.0)
        if hi <= lo:
            continue
        opts = [
            o
            for o, ok in (
                ("ball", sc.has("ball")),
                ("cushion", sc.has("cushion")),
                ("pocket", sc.has("pocket")),
            )
            if ok
        ]
        if not opts:
            continue
        kind = opts[int(r.integers(len(opts)))]
        count = int(r.integers(1, 3)) if kind == "ball" else 1
        db = {"ball": (-12, 0), "cushion": (-18, -6), "pocket": (-16, -3)}[kind]
        for _ in range(count):
            e, _end = sc.recording(
                kind, int(r.integers(lo, hi)), sc.rel_gain(peak, db), pitch=kind == "ball"
            )
            e["stroke"] = i
            tr["late_sounds"].append(e)
    n = sc.end + _k(_u(r, (1.0, 2.0)))
    extra = {
        "allowed_sources": sorted(allowed) if allowed is not None else None,
        "kind": "session",
        "timbre": {k: list(v) for k, v in timbre.items()} if timbre else None,
    }
    return _finish(sc, n, r_noise, r_room, snr_db, noise, reverb, with_stems, extra)


def _sounds_list(truth: dict) -> list[dict]:
    """Every placed sound that is not a strike, as ``{"t", "kind", ...}`` (see ``make_session``)."""
    out = []
    for e in truth.get("stroke_sounds", []):
        out.append(
            {"t": e["t"], "kind": e["kind"], "stroke": e.get("stroke"), "name": e.get("name")}
        )
    for e in truth.get("late_sounds", []):
        out.append(
            {
                "t": e["t"],
                "kind": "late_" + e["kind"],
                "stroke": e.get("stroke"),
                "name": e.get("name"),
            }
        )
    for e in truth.get("rack", []):
        out.append(
            {
                "t": e["t"],
                "kind": "rack" if e["kind"] == "rack" else "rack_ball",
                "name": e.get("name"),
            }
        )
    for e in truth.get("claps", []):
        out.append({"t": e["t"], "kind": "clap"})
    for e in truth.get("other", []):
        out.append({"t": e["t"], "kind": "chalk", "name": e.get("name")})
    return sorted(out, key=lambda e: e["t"])


def fixed_pattern(
    rng: np.random.Generator,
    bank: Bank,
    sources: Iterable[str] | str | None = None,
    period: float = 4.8,
    n: int = 10,
    *,
    snr_db: float | None = None,
    noise: str = "pink",
    reverb: bool = False,
    strike_rel_db=(-15.0, 0.0),
    include_doubtful: bool = False,
    voices: Voices | None = None,
    with_stems: bool = False,
):
    """The regression pattern from a user report: a strike every ``period`` s (4.8), the next call
    starting within the 3 s after the previous strike (while that stroke's collisions and drop
    may still sound) and the strike about 1 s (0.8-1.2 s) after the call's last word. Short calls
    (``SHORT_CALLS``, speed 150-200) are drawn until one fits. Same outputs as ``make_session``
    (``truth["pattern"]`` holds the period)."""
    if period < MIN_STRIKE_GAP:
        raise ValueError(f"period {period} s is shorter than {MIN_STRIKE_GAP} s between strikes")
    allowed = bank.check_sources(sources)
    r, r_noise, r_room = _subrngs(rng)
    sc = _Scene(r, bank, allowed, include_doubtful=include_doubtful, voices=voices)
    tr = sc.truth
    prev_T = None
    T0 = None
    for i in range(n):
        best = None
        for _ in range(60):
            x, info = sc.utterance(SHORT_CALLS, speed=(150, 200))
            gap = _u(r, (0.8, 1.2))
            if prev_T is None:
                start = _k(_u(r, (0.5, 1.0)))
                T = start + len(x) + _k(gap)
                best = (x, info, start, T)
                break
            T = T0 + _k(i * period)
            start = T - _k(gap) - len(x)
            if prev_T + _k(0.3) <= start < prev_T + _k(3.0):
                best = (x, info, start, T)
                break
            if best is None or abs(start - prev_T - _k(1.5)) < abs(best[2] - prev_T - _k(1.5)):
                best = (x, info, start, T)
        x, info, start, T = best
        if T0 is None:
            T0 = T
        if prev_T is not None and not (prev_T < start and start + len(x) < T):
            raise ValueError(f"no short call fits a {period} s period")
        speech_ref = peak_rms(x)
        c = sc.say("calls", x, info, start)
        c["stroke"] = i
        tr["calls"].append(c)
        peak, end = sc.strike(i, T, speech_ref, strike_rel_db)
        end = max(end, sc.stroke_sounds(i, T, peak))
        tr["strokes"].append(
            {
                "i": i,
                "call": len(tr["calls"]) - 1,
                "call_start": c["start"],
                "call_end": c["end"],
                "words": c["words"],
                "strike": T / RATE,
                "cascade_end": end / RATE,
                "sound": tr["strike_sounds"][-1],
            }
        )
        prev_T = T
    total = sc.end + _k(_u(r, (1.0, 2.0)))
    extra = {
        "allowed_sources": sorted(allowed) if allowed is not None else None,
        "kind": "pattern",
        "pattern": {"period": period, "n": n},
    }
    return _finish(sc, total, r_noise, r_room, snr_db, noise, reverb, with_stems, extra)


def calibration_audio(
    rng: np.random.Generator,
    bank: Bank,
    sources,
    n: int,
    *,
    snr_db: float | None = None,
    noise: str = "pink",
    reverb: bool = False,
    voices: Voices | None = None,
    gain: float = 1.0,
    gap=(2.5, 3.5),
    clacks: int = 4,
):
    """What ``strikes calibrate`` would hear at this table: ``n`` strikes (cue recordings of
    ``sources``, one at a time, 2.5-3.5 s apart, nothing else on the table) and, separately,
    ``clacks`` ball clacks 1.2-1.8 s apart (None when the sources have no ball recording), in the
    same room (``reverb``) and noise as a session. Levels are those of ``make_session`` before its
    output scaling: a strike -15..0 dB re the 10 ms RMS peak of an espeak-ng call at peak 1, the
    noise ``snr_db`` under that call's active power; then both are multiplied by ``gain`` (pass the
    session's ``truth["gain"]``: the same microphone gain). Returns ``(strikes, clacks)``."""
    from scipy.signal import fftconvolve

    allowed = bank.check_sources(sources)
    r, r_noise, r_room = _subrngs(rng)
    cues = [s for s in bank.of("cue", allowed) if s.clear_onset]
    if not cues:
        raise ValueError(f"no usable cue recording among {sorted(allowed or [])}")
    call = speak(CALLS[1])
    ref_peak, ref_pow = peak_rms(call), active_power(call)
    h = room_ir(r_room)[0] if reverb else None
    v = voices or ESPEAK_ONLY

    def part(kinds: list[Sound], count: int, spacing) -> np.ndarray:
        items, t = [], _k(_u(r, (0.8, 1.2)))
        for _ in range(count):
            snd = kinds[int(r.integers(len(kinds)))]
            x, on, end = prepared(snd)
            g = 10 ** (_u(r, (-15, 0)) / 20) * ref_peak / (peak_rms(x) + 1e-12)
            items.append((t - on, g * x))
            t += _k(_u(r, spacing))
        total = max(s + len(x) for s, x in items) + _k(1.0)
        y = np.zeros(total)
        for s, x in items:
            y[max(s, 0) : s + len(x)] += x[max(-s, 0) :]
        if h is not None:
            y = fftconvolve(y, h)[:total]
        if snr_db is None:
            nz = pink(r_noise, total) * 10 ** (-70 / 20)
        elif noise == "cafe" and v.speech is not None:
            nz = real_noise(r_noise, v.speech.of("noise", v.noise_sources), total) * np.sqrt(
                ref_pow / 10 ** (snr_db / 10)
            )
        else:
            nz = make_noise(r_noise, "babble" if noise == "cafe" else noise, total) * np.sqrt(
                ref_pow / 10 ** (snr_db / 10)
            )
        return (y + nz) * gain

    balls = bank.of("ball", allowed)
    return part(cues, n, gap), (part(balls, clacks, (1.2, 1.8)) if balls else None)


def isolated(
    bank: Bank,
    sound: Sound | str,
    pad_s: float = 1.0,
    floor_db: float = -70.0,
    rng: np.random.Generator | None = None,
) -> tuple[np.ndarray, float]:
    """One recording alone, as recorded, with ``pad_s`` of near-silence on each side: a pink floor
    ``floor_db`` below the recording's sample peak over the whole. Returns (samples, onset in s)."""
    s = bank.get(sound) if isinstance(sound, str) else sound
    rng = np.random.default_rng(0) if rng is None else rng
    pad = _k(pad_s)
    x = np.concatenate([np.zeros(pad), s.samples, np.zeros(pad)])
    x += pink(rng, len(x)) * (np.abs(s.samples).max() or 1.0) * 10 ** (floor_db / 20)
    return x, (pad + s.onset_index) / RATE


def write_wav(path: str | os.PathLike, x: np.ndarray) -> None:
    """16-bit PCM at 16 kHz (the samples as they are, clipped to [-1, 1])."""
    from scipy.io import wavfile

    wavfile.write(str(path), RATE, np.round(np.clip(x, -1.0, 1.0) * 32767).astype(np.int16))


# ----------------------------------------------------------------------------------------------
# Checking the generator against the recordings


def centroid_low1k(x: np.ndarray) -> tuple[float, float]:
    """Spectral centroid (Hz) and share of energy below 1 kHz over a whole clip, DC and < 20 Hz
    left out: the measures of the sound folder's SOURCES.md."""
    spec = np.abs(np.fft.rfft(np.asarray(x, np.float64))) ** 2
    f = np.fft.rfftfreq(len(x), 1 / RATE)
    keep = f >= 20
    spec, f = spec[keep], f[keep]
    tot = spec.sum() + 1e-30
    return float((spec * f).sum() / tot), float(spec[f < 1000].sum() / tot)


def check(bank: Bank, speech: SpeechBank | None, sessions: int = 6, seed: int = 5) -> list[str]:
    """What ``--check`` prints (markdown): the recordings' centroids as read here against those the
    sound folder's README states, the same measures of the sounds as a session places them (ball
    clacks pitched down, in a room), the levels a session gives (strike re call, café noise re
    calls, the output in dBFS) against the recorded voices' levels, and the talk spans."""
    from scipy.signal import fftconvolve

    rows = [
        "| sounds | n | centroid median (IQR) | < 1 kHz median | README says |",
        "|---|---:|---:|---:|---|",
    ]
    readme = {
        "cue": "1067 Hz (725-1928), 61 %; firm cues 863 Hz (548-1111), 74 %",
        "ball": "2172 Hz (1804-2361), 9 %",
        "cushion": "179 Hz (159-372), 100 %",
        "pocket": "678 Hz (509-940), 85 %",
    }

    def line(label, vals, note=""):
        c = np.array([v[0] for v in vals])
        lo = np.array([v[1] for v in vals])
        rows.append(
            f"| {label} | {len(vals)} | {np.median(c):.0f} Hz ({np.percentile(c, 25):.0f}-"
            f"{np.percentile(c, 75):.0f}) | {100 * np.median(lo):.0f} % | {note} |"
        )

    for kind in ("cue", "ball", "cushion", "pocket"):
        line(
            f"{kind}, every recording",
            [centroid_low1k(s.samples) for s in bank if s.kind == kind],
            readme[kind],
        )
    line(
        "cue, used as strikes",
        [centroid_low1k(s.samples) for s in bank.of("cue") if s.clear_onset],
        "(doubtful and unclear-onset cues left out)",
    )
    rng = np.random.default_rng(seed)
    pitched, roomed_cue, roomed_ball = [], [], []
    for s in bank.of("ball"):
        x, on, end = prepared(s)
        y, *_ = pitch_down(x, on, end, _u(rng, (0.0, 0.15)))
        pitched.append(centroid_low1k(y))
    line("ball, pitched down 0-15 % as placed", pitched, "pyramid balls: lower by up to ~16 %")
    for s in bank.of("cue"):
        if s.clear_onset:
            h, _ = room_ir(rng)
            roomed_cue.append(centroid_low1k(fftconvolve(prepared(s)[0], h)))
    for s in bank.of("ball"):
        h, _ = room_ir(rng)
        roomed_ball.append(centroid_low1k(fftconvolve(prepared(s)[0], h)))
    line("cue in a generated room", roomed_cue, "")
    line("ball in a generated room", roomed_ball, "")
    # levels in sessions
    v = Voices.mixed(speech) if speech is not None else ESPEAK_ONLY
    rel, out_speech, out_strike, snrs, n_words, engines = [], [], [], [], [], {}
    for i in range(sessions):
        snr = (20, 10, 5)[i % 3]
        noise = "cafe" if speech is not None else "babble"
        x0, t0, st0 = make_session(
            np.random.default_rng([seed, i]),
            bank,
            n_strokes=4,
            snr_db=None,
            reverb=False,
            voices=v,
            with_stems=True,
        )
        x1, t1 = make_session(
            np.random.default_rng([seed, i]),
            bank,
            n_strokes=4,
            snr_db=snr,
            noise=noise,
            reverb=False,
            voices=v,
        )
        nz = x1 / t1["gain"] - x0 / t0["gain"]
        snrs.append((snr, 10 * np.log10(active_power(st0["calls"]) / np.mean(nz**2))))
        rel += t0["strike_rel_db"]
        calls = st0["calls"] * t1["gain"]
        out_speech.append(10 * np.log10(active_power(calls) + 1e-30))
        for T in t0["strikes"]:
            k = int(round(T * RATE))
            out_strike.append(
                20 * np.log10(peak_rms(st0["strikes"][k : k + 800] * t1["gain"]) + 1e-30)
            )
        for c in t0["calls"]:
            engines[c["engine"]] = engines.get(c["engine"], 0) + 1
            n_words.append(len(c["words"]))
    lv = [
        "",
        "| level | measured | against |",
        "|---|---|---|",
        f"| strike 10 ms RMS peak re its call's | {min(rel):.1f} to {max(rel):.1f} dB (asked -15..0) | "
        "no table-side recording exists to set it: a range, not a measurement |",
        f"| calls' active level in the output | {np.median(out_speech):.1f} dBFS median | recorded voices: "
        f"{_speech_levels(speech)} |",
        f"| strikes' 10 ms RMS peak in the output | {np.median(out_strike):.1f} dBFS median "
        f"({min(out_strike):.1f} to {max(out_strike):.1f}) | |",
        "| noise re the calls' active power, asked → measured | "
        + ", ".join(f"{a} → {b:.1f}" for a, b in snrs)
        + " dB | clean twin subtracted |",
        f"| calls by voice | {engines} | words or talk spans per call: median {np.median(n_words):.0f} | |",
    ]
    return rows + lv


def _speech_levels(speech: SpeechBank | None) -> str:
    if speech is None:
        return "(speech folder absent)"
    levels = [
        10 * np.log10(active_power(np.asarray(c.samples)) + 1e-30) for c in speech.of("speech")
    ]
    return f"{np.median(levels):.1f} dBFS median active level ({min(levels):.1f} to {max(levels):.1f})"


# ----------------------------------------------------------------------------------------------
# CLI


def _jsonable(truth: dict) -> dict:
    return json.loads(json.dumps(truth, default=float))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="folder for the WAVs and manifest.json")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=3, help="sessions (each written at every --snr)")
    ap.add_argument(
        "--snr",
        nargs="+",
        default=["clean", "20", "10", "5"],
        help="SNRs in dB, or 'clean' (default: clean 20 10 5)",
    )
    ap.add_argument(
        "--holdout",
        nargs="+",
        metavar="SOURCE",
        help="build only from these sources (e.g. vrcbce); see --list-sources",
    )
    ap.add_argument("--strokes", type=int, default=8)
    ap.add_argument(
        "--isolated", action="store_true", help="also write every allowed recording alone"
    )
    ap.add_argument(
        "--sounds", help="sound folder (default: $PYRAMID_SOUNDS_DIR or ../shared/sounds)"
    )
    ap.add_argument("--list-sources", action="store_true")
    ap.add_argument(
        "--check",
        action="store_true",
        help="print the generator's sounds and levels against the recordings (markdown) and stop",
    )
    args = ap.parse_args(argv)
    if make_audio.shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed (apt-get install espeak-ng)", file=sys.stderr)
        return 2
    try:
        bank = load_bank(args.sounds)
        allowed = bank.check_sources(args.holdout)
    except (FileNotFoundError, ValueError) as e:
        print(e, file=sys.stderr)
        return 2
    if args.list_sources:
        print(" ".join(bank.sources()))
        return 0
    if args.check:
        try:
            sp = load_speech()
        except FileNotFoundError:
            sp = None
        print("\n".join(check(bank, sp)))
        return 0
    if not [s for s in bank.of("cue", allowed) if s.clear_onset]:
        print(
            f"no usable cue recording among {sorted(allowed or [])}: a session needs strikes "
            f"(sources with one: {sorted({s.source for s in bank.of('cue') if s.clear_onset})})",
            file=sys.stderr,
        )
        return 2
    if not args.out:
        ap.error("--out is needed (or --check, --list-sources)")
    snrs = [None if s.lower() in ("clean", "none") else float(s) for s in args.snr]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    files = []

    def tag(snr):
        return "clean" if snr is None else f"snr{snr:g}"

    for i in range(args.count):
        nz = NOISES[i % len(NOISES)]
        reverb = i % 2 == 1
        extras = {} if i == 0 else REALISTIC
        for snr in snrs:
            x, truth = make_session(
                np.random.default_rng([args.seed, i]),
                bank,
                sources=allowed,
                n_strokes=args.strokes,
                snr_db=snr,
                noise=nz,
                reverb=reverb,
                **extras,
            )
            name = f"session{i:02d}_{tag(snr)}{'_' + nz if snr is not None else ''}{'_room' if reverb else ''}.wav"
            write_wav(out / name, x)
            files.append({"file": name, "extras": extras, **_jsonable(truth)})
            print(f"{name}: {truth['duration']:.1f} s, {len(truth['strikes'])} strikes")
    for snr in snrs:
        x, truth = fixed_pattern(
            np.random.default_rng([args.seed, 1000]),
            bank,
            sources=allowed,
            snr_db=snr,
            noise="pink",
        )
        name = f"pattern_{tag(snr)}.wav"
        write_wav(out / name, x)
        files.append({"file": name, **_jsonable(truth)})
        print(f"{name}: {truth['duration']:.1f} s, {len(truth['strikes'])} strikes")
    if args.isolated:
        for s in bank:
            if allowed is None or s.source in allowed:
                x, t = isolated(bank, s)
                name = f"isolated_{Path(s.name).stem}.wav"
                write_wav(out / name, x / (np.abs(x).max() + 1e-12) * PEAK_OUT)
                files.append(
                    {
                        "file": name,
                        "kind": "isolated",
                        "sound": s.name,
                        "sound_kind": s.kind,
                        "onset": t,
                        "doubtful": s.doubtful,
                    }
                )
    manifest = {
        "generator": "corpora/audio/table_mix.py",
        "seed": args.seed,
        "rate": RATE,
        "sounds_dir": str(bank.directory),
        "holdout": sorted(allowed) if allowed is not None else None,
        "espeak_ng": subprocess.run(
            ["espeak-ng", "--version"], capture_output=True, text=True
        ).stdout.strip(),
        "note": "times in seconds from the start of each file; every 't' is the onset of the placed sound",
        "files": files,
    }
    (out / "manifest.json").write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(f"{len(files)} files -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


def strike_sample(
    name: str = "cue_vrcbce_1.wav",
    lead_s: float = 0.002,
    bank: Bank | None = None,
    peak: float = 0.8,
) -> tuple[np.ndarray, float]:
    """One recorded cue strike for tests that need a strike in their audio: float32 samples from
    ``lead_s`` before its onset (peak-normalized to ``peak``), and that onset's offset in them (s).
    Raises FileNotFoundError when the sound folder is missing (tests skip on it)."""
    bank = bank or load_bank()
    s = bank.get(name)
    k = max(0, s.onset_index - int(round(lead_s * RATE)))
    x = np.asarray(s.samples[k:], np.float64)
    x = x * (peak / (np.abs(x).max() + 1e-12))
    return x.astype(np.float32), (s.onset_index - k) / RATE
