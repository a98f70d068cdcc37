"""The strike detector: the click of the cue tip on the cue ball, found causally in the audio stream.

The signal is high-passed at 1 kHz (rumble, voicing fundamentals and pocket thuds go) and cut into
1 ms windows; the energy of each window (dB) is the envelope. A peak of the envelope is a strike
when all of these hold (the thresholds are :class:`StrikeParams`):

- it stands ``prominence_db`` above the background (a low percentile of the last second);
- it rises sharply: ``rise_db`` above every window 3–6 ms before it;
- it is isolated: ``isolation_db`` above every window 3–100 ms before it. Voiced speech is a
  train of glottal pulses one pitch period (3–12 ms) apart, each of which looks like a tiny
  click in the high band; only the first pulse of a word could pass the rise test, and it fails
  the others;
- it dies fast: ``decay_db`` above every window 4–6 ms after it (vowels, fricatives and the
  aspiration after a plosive burst keep the energy up; a ringing collision decays slowly too);
- it is broadband: over its first 4 ms the energy above 5 kHz is within ``hf_db`` of the energy
  above 1 kHz (speech, plosive bursts included, keeps its energy in the formants below 5 kHz);
- and the two together: ``decay + hf_weight × (hf − hf_ref_db) ≥ shape_db``: the less broadband
  a transient is, the faster it must die. A word-initial plosive burst («П…») after a pause is
  the hardest case: isolated and sharp, it dies only just fast enough and carries a little less
  high band than a click; a click with a dull, resonant tip sound has less high band but dies
  much faster.

A stroke's own later sounds (ball-ball collisions, a ball dropping into a pocket, its rattle) come
*after* the strike: a **stroke window** (``refractory_s``) follows every strike, and every
impulsive sound inside it stretches it (to ``settle_s`` after the last one, at most
``max_stroke_s`` after the strike). Nothing inside the window is a strike. Collisions and drops
mostly fail the click shape on their own, but the window is the rule that holds in a real room,
where a collision can sound much like a tip.

Trade-off of the stroke window: a real strike inside it is lost. In pyramid two strikes cannot be
closer than a few seconds (the balls must stop before the next stroke, P1 и, and the next call is
said in between), so a 3 s window (stretched while the balls still click) loses no real strike;
a longer window protects better against late collisions and pocket drops, a shorter one allows
faster play (e.g. drills). Set it with ``StrikeDetector(refractory_s=…)``.

Causality and latency: a peak at window ``p`` is decided once window ``p + decay_to_ms`` has
arrived, i.e. about 7–8 ms after the click (the only look-ahead); the report then comes with the
block being fed, so the worst case is about 8 ms + one block (10 ms blocks: under 20 ms).
Per block the work is a few vectorized numpy/scipy operations; no Python loop per sample.
The reported time is the click's onset (first sample above 30 % of the peak), not the report time.

The thresholds were set on synthetic audio (``corpora/audio``): see its README for the limits.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

import numpy as np

from .audio import RATE, Frame, array_frames, resample


@dataclass(frozen=True)
class StrikeParams:
    """The detector's settings (defaults tuned on the generated corpus; see corpora/audio/README.md)."""

    hp_hz: float = 1000.0          # high-pass corner: removes rumble, voicing, pocket thuds
    sub_ms: float = 1.0            # energy window (ms)
    bg_window_s: float = 1.0       # background: low percentile of the last second of energies
    bg_percentile: float = 30.0
    bg_every: int = 10             # recompute the background every N windows (10 ms)
    warmup_s: float = 0.1          # no decision before this much audio (background unknown)
    prominence_db: float = 14.0    # peak above the background
    rise_db: float = 10.0          # peak above the highest window 3–6 ms before it (sharp rise)
    rise_from_ms: int = 3
    rise_span_ms: int = 4
    isolation_db: float = 10.0     # peak above the highest window 3–100 ms before it (no voicing
                                   # pulse a pitch period earlier, not inside a word)
    isolation_ms: int = 100
    decay_db: float = 7.0          # peak above the highest window 4–6 ms after it (short decay)
    decay_from_ms: int = 4
    decay_to_ms: int = 6           # the look-ahead in windows
    hf_hz: float = 5000.0          # broadband: energy above hf_hz vs above hp_hz, windows p-1 … p+2
    hf_db: float = -18.0           # (speech, even a plosive burst, has little above 5 kHz; a click has)
    shape_db: float = 13.0         # click shape: decay + hf_weight × (hf − hf_ref_db) ≥ shape_db —
    hf_ref_db: float = -12.0       # the less broadband a transient, the faster it must die
    hf_weight: float = 2.0
    min_level_db: float = -65.0    # absolute floor (dBFS of the high-passed 1 ms energy)
    refractory_s: float = 3.0      # stroke window after a strike
    settle_s: float = 1.0          # … stretched to this long after the stroke's last impulsive sound
    max_stroke_s: float = 8.0      # … but never beyond this after the strike


@dataclass(frozen=True)
class Candidate:
    """An impulsive sound the detector looked at, and what it decided (for diagnostics and bench)."""

    time: float          # refined onset (s)
    peak_db: float       # 1 ms energy at the peak (dBFS, high-passed)
    prominence_db: float
    rise_db: float
    isolation_db: float
    decay_db: float
    hf_db: float
    decision: str        # "strike" | "in-stroke" (inside a stroke window) | "not-click" (shape)


class StrikeDetector:
    """Causal strike detector fed block by block on the shared clock.

    ``feed(block, t0)`` takes float samples at ``rate`` and the time (s) of the block's first
    sample, and returns the strike times (s) decided with this block (each one ``look_ahead_s``
    or more after its click). ``flush()`` ends the stream. ``candidates`` keeps the last sharp
    peaks examined (up to ``max_candidates``) and the decision on each, for diagnostics.
    Blocks may have any length; the result does not depend on how the stream is cut.
    """

    def __init__(self, rate: int = RATE, params: StrikeParams | None = None, **overrides) -> None:
        from scipy.signal import butter, lfilter  # here: importing the voice package stays light

        self._lfilter = lfilter
        p = params or StrikeParams()
        if overrides:
            p = replace(p, **overrides)
        self.params = p
        self.rate = int(rate)
        self._H = max(1, int(round(self.rate * p.sub_ms / 1000.0)))
        self._win_s = self._H / self.rate
        # Low-order IIR high-passes in direct form (lfilter: much less per-call overhead than
        # sosfilt for 10 ms blocks; orders 2 and 4 are numerically safe in float64 here).
        self._ba = butter(2, p.hp_hz, btype="highpass", fs=self.rate)
        self._zi = np.zeros(2)
        self._ba_hf = butter(4, min(p.hf_hz, 0.45 * self.rate), btype="highpass", fs=self.rate)
        self._zi_hf = np.zeros(4)
        self._rem_hf = np.zeros(0)
        self._eh = np.zeros(0)                   # window energies above hf_hz (linear), history
        self._rem = np.zeros(0)                  # high-passed samples not yet in a full window
        self._n = 0                              # samples fed so far
        self._offset = 0.0                       # t0 of sample 0 (from the caller's clock)
        self._e = np.zeros(0)                    # window energies (dB), history
        self._e0 = 0                             # global index of _e[0]
        self._hp = np.zeros(0)                   # high-passed samples, recent tail
        self._hp0 = 0                            # global sample index of _hp[0]
        self._next = int(np.ceil(p.warmup_s / self._win_s))  # next window to decide on
        self._bg_n = max(1, int(round(p.bg_window_s / self._win_s)))
        self._stroke_start = -np.inf
        self._stroke_end = -np.inf
        self._bg_cache: dict[int, float] = {}
        self.candidates: list[Candidate] = []
        self.max_candidates = 1000

    # ------------------------------------------------------------------------------------------
    @property
    def look_ahead_s(self) -> float:
        """Audio needed after a peak's window before it is decided."""
        return (self.params.decay_to_ms + 1) * self._win_s

    @property
    def time(self) -> float:
        """Stream time (s): the end of the audio fed so far."""
        return self._offset + self._n / self.rate

    def feed(self, block: np.ndarray, t0: float | None = None) -> list[float]:
        """Feed one block (float samples); return the strike times decided now."""
        x = np.asarray(block, dtype=np.float64).reshape(-1)
        if t0 is not None:
            self._offset = float(t0) - self._n / self.rate
        if len(x) == 0:
            return []
        y, self._zi = self._lfilter(*self._ba, x, zi=self._zi)
        yh, self._zi_hf = self._lfilter(*self._ba_hf, x, zi=self._zi_hf)
        self._n += len(x)
        hp = np.concatenate((self._rem, y))
        hh = np.concatenate((self._rem_hf, yh))
        H = self._H
        nfull = len(hp) // H
        if nfull:
            start_sample = self._n - len(hp)     # global index of hp[0]
            sub = hp[: nfull * H].reshape(nfull, H)
            e_new = 10.0 * np.log10(np.einsum("ij,ij->i", sub, sub) / H + 1e-14)
            self._e = np.concatenate((self._e, e_new))
            subh = hh[: nfull * H].reshape(nfull, H)
            self._eh = np.concatenate((self._eh, np.einsum("ij,ij->i", subh, subh) / H + 1e-14))
            if len(self._hp) == 0:
                self._hp0 = start_sample
            self._hp = np.concatenate((self._hp, hp[: nfull * H]))
        self._rem = hp[nfull * H:]
        self._rem_hf = hh[nfull * H:]
        return self._decide()

    def flush(self) -> list[float]:
        """End of stream. A peak is decided only with its look-ahead of real audio, so nothing is
        left to decide: a click in the last few ms of a stream is not reported (padding the end
        with silence would make any sound cut off there look like a click)."""
        return []

    # ------------------------------------------------------------------------------------------
    def _background(self, g: int) -> float:
        """Background level (dB) for window group g: a low percentile of the second before it."""
        cached = self._bg_cache.get(g)
        if cached is not None:
            return cached
        p = self.params
        end = g * p.bg_every - self._e0
        hist = self._e[max(0, end - self._bg_n): max(0, end)]
        if len(hist):
            k = int(round(p.bg_percentile / 100.0 * (len(hist) - 1)))
            val = float(np.partition(hist, k)[k])
        else:
            val = float("inf")
        if len(self._bg_cache) > 64:
            self._bg_cache.clear()
        self._bg_cache[g] = val
        return val

    def _decide(self) -> list[float]:
        p = self.params
        last = self._e0 + len(self._e) - 1
        hi = last - p.decay_to_ms
        lo = max(self._next, self._e0 + p.isolation_ms + 1, self._e0 + p.rise_from_ms + p.rise_span_ms)
        out: list[float] = []
        if hi >= lo:
            # Stage 1, vectorized over every window of the block: sharp peaks above the floor.
            i = np.arange(lo, hi + 1) - self._e0
            e = self._e
            ep = e[i]
            pre = e[i - p.rise_from_ms]
            for k in range(p.rise_from_ms + 1, p.rise_from_ms + p.rise_span_ms):
                pre = np.maximum(pre, e[i - k])
            sharp = (ep > e[i - 1]) & (ep >= e[i + 1]) & (ep >= p.min_level_db) & (ep - pre >= p.rise_db)
            # Stage 2, per sharp peak (a few per second): background, isolation, decay, broadband.
            for j in np.flatnonzero(sharp):
                k = int(i[j])
                peak = float(ep[j])
                prom = peak - self._background((k + self._e0) // p.bg_every)
                if prom < p.prominence_db:
                    continue
                iso = peak - float(e[k - p.isolation_ms: k - p.rise_from_ms + 1].max())
                decay = peak - float(e[k + p.decay_from_ms: k + p.decay_to_ms + 1].max())
                lin = 10.0 ** (e[k - 1: k + 3] / 10.0)
                hf = 10.0 * np.log10(self._eh[k - 1: k + 3].sum() / lin.sum())
                click = (iso >= p.isolation_db and decay >= p.decay_db and hf >= p.hf_db
                         and decay + p.hf_weight * (hf - p.hf_ref_db) >= p.shape_db)
                t = self._onset_time(k + self._e0)
                if t < self._stroke_end:
                    decision = "in-stroke"
                    self._stroke_end = min(max(self._stroke_end, t + p.settle_s),
                                           self._stroke_start + p.max_stroke_s)
                elif click:
                    decision = "strike"
                    self._stroke_start = t
                    self._stroke_end = t + p.refractory_s
                    out.append(round(t, 4))
                else:
                    decision = "not-click"
                if len(self.candidates) >= self.max_candidates:
                    del self.candidates[: self.max_candidates // 2]
                self.candidates.append(Candidate(t, peak, prom, float(ep[j] - pre[j]), iso, decay,
                                                 float(hf), decision))
            self._next = hi + 1
        self._trim()
        return out

    def _onset_time(self, k: int) -> float:
        """Refine a peak at window k to the first sample (in windows k-2 … k) above 30 % of its peak."""
        H = self._H
        s0 = max((k - 2) * H, self._hp0)
        seg = np.abs(self._hp[s0 - self._hp0: (k + 1) * H - self._hp0])
        if len(seg) == 0:
            return self._offset + k * H / self.rate
        first = int(np.argmax(seg >= 0.3 * seg.max()))
        return self._offset + (s0 + first) / self.rate

    def _trim(self) -> None:
        p = self.params
        keep_from = self._next - self._bg_n - p.bg_every - p.rise_from_ms - p.rise_span_ms - 2
        cut = keep_from - self._e0
        if cut > 4096:
            self._e = self._e[cut:]
            self._eh = self._eh[cut:]
            self._e0 += cut
        hp_keep = (self._next - 8) * self._H
        cut = hp_keep - self._hp0
        if cut > 8192:
            self._hp = self._hp[cut:]
            self._hp0 += cut


def detect_strikes(samples: np.ndarray, rate: int = RATE, *, block_ms: float = 10.0,
                   **params) -> list[float]:
    """Strike times (s) in a whole signal: the causal detector run block by block, then flushed."""
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
    return out


def run_detector(frames: Iterable[Frame], detector: StrikeDetector | None = None):
    """Feed frames to a detector; yield ``(strike_time, stream_time_when_reported)`` pairs.

    The second value is the stream time at the end of the block that produced the report: the
    report latency is ``stream_time - true click time``.
    """
    det = detector or StrikeDetector()
    end = 0.0
    for frame in frames:
        end = frame.t1
        for t in det.feed(frame.samples, frame.t0):
            yield t, end
    for t in det.flush():
        yield t, end
