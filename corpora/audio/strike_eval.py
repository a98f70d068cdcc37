"""Scoring the strike detector against a mixed session's truth (used by bench/bench_strike.py and the tests).

A true strike is **found** when a reported strike lies within ``TOL_S`` (40 ms) of its onset; every
other report is a **false strike**, put down to what made it: the nearest placed sound within
50 ms (a ball clack, a cushion, a pocket drop, a late sound of rolling balls, a rack, a clap, a
chalked cue), else speech when it falls inside a call or other talk, else "other". Leave-one-
source-out: ``model_without(source)`` fits the sound model on every row of ``features.csv.gz``
whose recording came from another source.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

TOL_S = 0.040


@lru_cache(maxsize=64)
def model_without(source: str | None):
    """The two sound models (first and second look) fitted without ``source`` (None: on everything)."""
    import fit_sound_model

    return fit_sound_model.fit(frozenset() if source is None else frozenset({source}))


def cause(t: float, truth: dict) -> str:
    """What a false strike at ``t`` was made of."""
    best, what = 0.050, None
    for key, name in (("stroke_sounds", None), ("late_sounds", "late"), ("rack", "rack"), ("claps", "clap"),
                      ("other", "chalk")):
        for e in truth.get(key, []):
            d = abs(e["t"] - t)
            if d <= best:
                best, what = d, name or e["kind"]
    if what:
        return what
    for c in truth.get("calls", []) + truth.get("chatter", []):
        if c["start"] - 0.02 <= t <= c["end"] + 0.02:
            return "speech"
    return "other"


@dataclass
class Score:
    strikes: int = 0
    found: int = 0
    false: dict = field(default_factory=dict)   # cause → count
    onset_err: list = field(default_factory=list)
    latency: list = field(default_factory=list)
    missed: list = field(default_factory=list)  # (session tag, strike time, recording)
    unsure_strikes: int = 0
    retracted: int = 0                          # reported, then taken back (a word began)
    audio_s: float = 0.0
    speech_s: float = 0.0
    stroke_sounds: int = 0
    cpu_s: float = 0.0

    @property
    def n_false(self) -> int:
        return sum(self.false.values())

    def add(self, other: "Score") -> "Score":
        self.strikes += other.strikes
        self.found += other.found
        for k, v in other.false.items():
            self.false[k] = self.false.get(k, 0) + v
        self.onset_err += other.onset_err
        self.latency += other.latency
        self.missed += other.missed
        self.unsure_strikes += other.unsure_strikes
        self.retracted += other.retracted
        self.audio_s += other.audio_s
        self.speech_s += other.speech_s
        self.stroke_sounds += other.stroke_sounds
        self.cpu_s += other.cpu_s
        return self

    @property
    def recall(self) -> float:
        return self.found / self.strikes if self.strikes else float("nan")

    @property
    def precision(self) -> float:
        n = self.found + self.n_false
        return self.found / n if n else float("nan")


def run(x: np.ndarray, model=None, block_ms: float = 10.0, **params):
    """(detector, [(strike time, report time)], cpu seconds) for a whole signal, fed in blocks."""
    from pyramid_referee.voice.audio import array_frames
    from pyramid_referee.voice.strike import StrikeDetector, run_detector

    first, second = model if model is not None else (None, None)
    det = StrikeDetector(model=first, long_model=second, **params)
    frames = list(array_frames(np.asarray(x, np.float32), block_ms))
    t0 = time.process_time()
    reports = list(run_detector(frames, det))
    return det, reports, time.process_time() - t0


def score(x: np.ndarray, truth: dict, model=None, tag: str = "", **params) -> Score:
    det, reports, cpu = run(x, model, **params)
    sc = Score(audio_s=len(x) / 16000, cpu_s=cpu)
    gone = set(det.retracted)
    sc.retracted = len(gone)
    left = [r for r in reports if r[0] not in gone]      # what stands once each was confirmed
    for t, name in zip(truth.get("strikes", []), truth.get("strike_sounds", [])):
        sc.strikes += 1
        near = [r for r in left if abs(r[0] - t) <= TOL_S]
        if near:
            r = min(near, key=lambda r: abs(r[0] - t))
            left.remove(r)
            sc.found += 1
            sc.onset_err.append(r[0] - t)
            sc.latency.append(r[1] - t)
            s = next((s for s in det.strikes if abs(s.time - r[0]) < 1e-6), None)
            if s is not None and not s.sure:
                sc.unsure_strikes += 1
        else:
            sc.missed.append((tag, round(t, 3), name))
    for t, _ in left:
        c = cause(t, truth)
        sc.false[c] = sc.false.get(c, 0) + 1
    sc.speech_s = sum(c["end"] - c["start"] for c in truth.get("calls", []) + truth.get("chatter", []))
    sc.stroke_sounds = sum(len(truth.get(k, [])) for k in ("stroke_sounds", "late_sounds", "rack", "claps", "other"))
    return sc
