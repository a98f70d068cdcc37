"""Impulsive sounds in an audio stream: a causal, broadband onset detector and the shape of each
sound.

Every knock at a billiards table is an *impulsive* sound: its energy jumps within a few
milliseconds, in several frequency bands at once. That is true of the cue tip on the cue ball (a
dull "thock": the leather stays on the ball 1–2 ms, so most of its energy is below 1 kHz), of two
balls colliding (a sharp, bright clack: 0.2–0.3 ms of contact, most energy above 1.5 kHz), of a
ball on a cushion or dropping into a pocket (duller still), of a hand clap and of a plosive in
speech. This module finds them all, with no band thrown away, and measures each one's shape; the
strike detector (:mod:`.strike`) then decides which one is the strike.

**Onsets.** The signal is split into four bands (60–400, 400–1000, 1000–2500, 2500–7000 Hz) and
cut into 1 ms windows; ``e_b[k]`` is the energy (dB) of band ``b`` in window ``k``. The *rise* of
a band is how far ``e_b[k]`` stands above the loudest window 4–20 ms before it; voiced speech is a
train of glottal pulses 3–12 ms apart, so a pulse is compared with the one before it and does not
rise. The onset strength ``F[k]`` is the mean rise of the two bands that rise most (each clipped
to 0…40 dB): a knock jumps in at least two neighbouring bands at once (a dull thock below and
around 1 kHz, a clack above), a vowel that swells over tens of ms scores low. A window is an
onset when ``F`` peaks there (the highest within ±4 ms), ``F ≥ min_flux_db``, and in some band the
sound stands ``min_prominence_db`` above that band's background (a low percentile of its last
second): a thock in pink noise stands out below 1 kHz well before it does in the broadband sum.

**Shape.** For each onset at sample ``s0`` the detector waits ``post_ms`` (16 ms) of audio, then
measures (:func:`sound_features`):

- the spectrum of what is *new*: the power spectrum of the 16 ms from the onset minus that of
  the 40 ms before it (so a strike spoken over, or in noise, is measured without the speech or
  the noise under it); its centroid, its share below 300 Hz, below 1 kHz, above 3 kHz, its
  flatness, and its energy in six octave-wide bands;
- the envelope: how far the sound jumps above the 5–40 ms before it, the time from the onset to
  its loudest millisecond, how much it decays in the next 4–12 ms, and its level above the
  background;
- voicing: the periodicity (autocorrelation at a pitch period of 2.5–10 ms) of the 16 ms after
  the onset and of the 40 ms before it, and the share of the 300 ms before it that was voiced
  speech (:class:`VoiceActivity`). A vowel starting is periodic, a knock and its ring are not;
  talk going on before a knock says it is either inside a word or spoken over.

These are the features a model (:mod:`.sound_class`) reads to say tip, ball, cushion, pocket,
clap or speech. Nothing here looks further than ``post_ms`` past the onset, so a strike can be
reported about 20 ms after it happened.

Cost: per 10 ms block, five IIR filters and a few vectorized reductions; per onset (a few a
second at most) two 512-point FFTs.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace

import numpy as np

from .audio import RATE

BANDS = ((60.0, 400.0), (400.0, 1000.0), (1000.0, 2500.0), (2500.0, 7000.0))
"""Bands of the onset detector (Hz)."""

SPECTRUM_BANDS = ((60, 250), (250, 500), (500, 1000), (1000, 2000), (2000, 4000), (4000, 8000))
"""Octave-wide bands in which a sound's new energy is measured (Hz)."""

LONG_S = 0.15
"""How long after an onset the second look (:func:`long_features`) is taken."""

FEATURES = (
    "log_centroid",
    "low300",
    "low1k",
    "high3k",
    "flatness",
    "band_60",
    "band_250",
    "band_500",
    "band_1k",
    "band_2k",
    "band_4k",
    "jump_db",
    "rise_ms",
    "decay_db",
    "level_db",
    "flux_db",
    "pitch_post",
    "pitch_pre",
    "voiced_before",
)
"""The names of :func:`sound_features`' values, in order (the first model's inputs)."""

LONG_FEATURES = FEATURES + ("sustain_60", "sustain_150", "voiced_after", "pitch_after")
"""… and with what the 150 ms after the onset add (the second model's inputs)."""


def long_features(
    x: np.ndarray, s0: int, voiced_after: float, rate: int = RATE
) -> tuple[float, ...]:
    """What the ``LONG_S`` after an onset at sample ``s0`` of ``x`` say: how much of the sound's
    loudness goes on 20–60 and 60–150 ms after it (dB against its loudest ms in the first 16 ms:
    a knock dies away, a syllable's vowel goes on as loud as its consonant or louder), the share of
    voiced frames after it, and the periodicity of 40–100 ms after it."""
    ms = rate // 1000

    def level(a: int, b: int) -> float:
        seg = x[s0 + a * ms : s0 + b * ms]
        return float(_db(np.mean(seg**2))) if len(seg) else -140.0

    seg = x[s0 : s0 + 16 * ms]
    n = len(seg) // ms
    peak = float(_db((seg[: n * ms].reshape(n, ms) ** 2).mean(axis=1)).max()) if n else -140.0
    return (
        level(20, 60) - peak,
        level(60, 150) - peak,
        float(voiced_after),
        periodicity(x[s0 + 40 * ms : s0 + 100 * ms], rate),
    )


@dataclass(frozen=True)
class OnsetParams:
    """Settings of the onset detector (see the module text)."""

    min_flux_db: float = 3.0  # mean rise of the two bands that rise most, at an onset (low: a
    # strike never proposed is never found; the decision sorts them)
    rise_from_ms: int = 4  # a band's rise is measured against the windows 4–20 ms before
    rise_to_ms: int = 20
    peak_ms: int = 4  # an onset is the highest F within ±peak_ms
    min_prominence_db: float = (
        4.0  # the sound's loudest ms in its first 4 ms, above the background
    )
    bg_window_s: float = 1.0  # background: a low percentile of the last second (broadband)
    bg_percentile: float = 20.0
    floor_db: float = -74.0  # nothing quieter than this (dBFS, 1 ms broadband) is a sound (above
    # the dither floor: the low rise thresholds would hear its ripples)
    min_gap_ms: int = 12  # two onsets closer than this are one sound …
    new_sound_db: float = 10.0  # … unless the second rises this much more steeply
    pre_ms: int = 40  # the spectrum before the onset: 40 ms …
    pre_gap_ms: int = 8  # … ending 8 ms before it
    post_ms: int = 16  # the spectrum and envelope after the onset (the look-ahead)


@dataclass(frozen=True)
class Onset:
    """One impulsive sound: its onset time (s), sample index, and its shape."""

    time: float
    sample: int
    features: tuple[float, ...]
    bg_db: float = (
        -140.0
    )  # the broadband background (dB) at the onset: its loudest ms is bg_db + level_db
    bg_bands: tuple[float, ...] = ()  # each band's background (dB) at the onset

    def feature(self, name: str) -> float:
        return self.features[FEATURES.index(name)]

    @property
    def centroid_hz(self) -> float:
        return float(np.exp(self.feature("log_centroid")))


def percentile(values, q: float) -> float:
    """``np.percentile(values, q)`` (its default, linear method) of a non-empty sequence of
    numbers without NaN, to the last bit: sorted in Python and interpolated as numpy does,
    without numpy's per-call cost (a tenth of the voice activity's time went to it)."""
    v = sorted(values)
    n = len(v)
    at = (n - 1) * (q / 100)
    if at >= n - 1:
        return float(v[-1])
    lo = math.floor(at)
    a, b = float(v[lo]), float(v[lo + 1])
    g = at - lo
    d = b - a
    return b - d * (1 - g) if g >= 0.5 else a + d * g


def _db(p):
    return 10.0 * np.log10(np.asarray(p) + 1e-14)


def periodicity(
    x: np.ndarray, rate: int = RATE, fmin: float = 100.0, fmax: float = 400.0
) -> float:
    """The highest normalized autocorrelation of ``x`` at a pitch period (1/fmax … 1/fmin s),
    each lag normalized by the energy of its own overlapping parts: near 1 for a voiced vowel,
    low for a knock and its ring (no period in the voice's range)."""
    return float(periodicities(np.asarray(x, float)[None, :], rate, fmin, fmax)[0])


def periodicities(
    X: np.ndarray, rate: int = RATE, fmin: float = 100.0, fmax: float = 400.0
) -> np.ndarray:
    """:func:`periodicity` of each row of ``X`` (one transform for them all: the same values)."""
    X = X - np.mean(X, axis=1, keepdims=True)
    n = X.shape[1]
    lo, hi = int(rate / fmax), min(int(rate / fmin), n - 32)
    if hi <= lo:
        return np.zeros(len(X))
    c2 = np.cumsum(X * X, axis=1)
    nfft = 1 << int(np.ceil(np.log2(2 * n)))
    ac = np.fft.irfft(np.abs(np.fft.rfft(X, nfft, axis=1)) ** 2, nfft, axis=1)
    lags = np.arange(lo, hi + 1)
    den = np.sqrt(c2[:, n - 1 - lags] * (c2[:, -1:] - c2[:, lags - 1]))
    ok = den > 1e-20
    best = np.where(ok, ac[:, lags] / np.where(ok, den, 1.0), -np.inf).max(axis=1)
    return np.where(ok.any(axis=1), best, 0.0)


_WIN_POST: dict[int, np.ndarray] = {}


def sound_features(
    x: np.ndarray,
    s0: int,
    e: np.ndarray,
    e0: int,
    k0: int,
    bg_db: float,
    flux_db: float,
    p: OnsetParams = OnsetParams(),
    rate: int = RATE,
) -> tuple[float, ...]:
    """The shape of the sound whose onset is sample ``s0`` of ``x`` (see the module text).

    ``x`` holds the raw samples (``x[s0 - (pre_ms + pre_gap_ms) ms : s0 + post_ms ms]`` at least);
    ``e`` the broadband 1 ms energies (dB) with ``e[0]`` the window ``e0``; ``k0`` the onset's
    window; ``bg_db`` the background level; ``flux_db`` the onset strength.
    """
    ms = rate // 1000
    n_post = p.post_ms * ms
    n_pre = p.pre_ms * ms
    post = x[s0 - ms : s0 - ms + n_post]
    pre = x[s0 - (p.pre_gap_ms + p.pre_ms) * ms : s0 - p.pre_gap_ms * ms]
    nfft = 512
    w = _WIN_POST.get(n_post)
    if w is None:
        from scipy.signal.windows import tukey  # deferred: scipy is slow to load

        w = _WIN_POST[n_post] = tukey(n_post, 0.25)
    P_post = np.abs(np.fft.rfft((post - post.mean()) * w, nfft)) ** 2 / np.sum(w**2)
    wp = np.hanning(n_pre)
    P_pre = np.abs(np.fft.rfft((pre - pre.mean()) * wp, nfft)) ** 2 / np.sum(wp**2)
    f = np.fft.rfftfreq(nfft, 1.0 / rate)
    ex = np.maximum(P_post - P_pre, 0.0)
    band = (f >= 60) & (f <= 8000)
    tot = ex[band].sum() + 1e-20
    cen = float((ex[band] * f[band]).sum() / tot)
    low300 = float(ex[band & (f < 300)].sum() / tot)
    low1k = float(ex[band & (f < 1000)].sum() / tot)
    high3k = float(ex[band & (f >= 3000)].sum() / tot)
    fl = ex[(f >= 300) & (f <= 6000)] + tot * 1e-6
    flat = float(np.exp(np.mean(np.log(fl))) / np.mean(fl))
    bands = [
        float(np.log10(ex[(f >= lo) & (f < hi)].sum() / tot + 1e-4)) for lo, hi in SPECTRUM_BANDS
    ]
    i0 = k0 - e0
    seg = e[i0 : i0 + p.post_ms - 1]
    pk = int(np.argmax(seg[:8]))
    peak = float(seg[pk])
    before = e[max(0, i0 - 40) : max(0, i0 - 5)]
    jump = peak - (float(before.max()) if len(before) else bg_db)
    after = seg[pk + 4 : pk + 12]
    decay = peak - float(_db(np.mean(10 ** (after / 10.0)))) if len(after) else 0.0
    return (
        float(np.log(max(cen, 30.0))),
        low300,
        low1k,
        high3k,
        flat,
        *bands,
        float(jump),
        float(pk),
        float(decay),
        float(peak - bg_db),
        float(flux_db),
        periodicity(x[s0 : s0 + n_post], rate),
        periodicity(pre, rate),
    )


BAND_FEATURES = (
    "band_prom_max",
    "band_prom_which",
    "band_jump_max",
    "band_jump_min",
    "band_ring_max",
    "band_ring_mean",
    "vowel_rise",
    "band_prom_low",
    "band_prom_high",
    "band_prom_2nd",
)
"""What :func:`band_shape` measures of a sound in the onset detector's four bands."""


def band_shape(E: np.ndarray, bg: np.ndarray) -> tuple[float, ...]:
    """:data:`BAND_FEATURES` from the 1 ms band energies ``E`` (dB, 4 × 180: 30 ms before the
    onset to 150 ms after) and the bands' backgrounds ``bg`` (dB)."""
    on = 30
    peak = E[:, on : on + 12].max(axis=1)  # the sound's first 12 ms
    prom = peak - bg
    jump = peak - E[:, on - 30 : on - 4].max(axis=1)
    ring = E[:, on + 20 : on + 50].mean(axis=1) - peak
    voice = _db(10 ** (E[0] / 10.0) + 10 ** (E[1] / 10.0))  # below 1 kHz
    late = voice[on + 30 : on + 150].reshape(12, 10).mean(axis=1).max()  # 10 ms means
    early = voice[on + 10 : on + 24].mean()
    order = np.sort(prom)
    return (
        float(prom.max()),
        float(np.argmax(prom)),
        float(jump.max()),
        float(jump.min()),
        float(ring.max()),
        float(ring.mean()),
        float(late - early),
        float(prom[0]),
        float(prom[3]),
        float(order[-2]),
    )


def _fast_lfilter():
    """``(b, a, x, zi) -> (y, zf)``: scipy's C filter without ``lfilter``'s argument checks (a
    third of the cost of a 10 ms block), or the public function on another scipy."""
    from scipy.signal import lfilter  # deferred: scipy is slow to load

    try:
        from scipy.signal._sigtools import _linear_filter  # deferred: scipy is slow to load

        def filt(b, a, x, zi):
            return _linear_filter(b, a, x, -1, zi)

        filt(np.array([1.0, 0.0]), np.array([1.0, -0.5]), np.zeros(4), np.zeros(1))
        return filt
    except Exception:
        return lambda b, a, x, zi: lfilter(b, a, x, zi=zi)


class VoiceActivity:
    """Voiced speech, frame by frame (30 ms frames, 10 ms hop), causal.

    A frame is voiced when the band below 1 kHz is ``min_db`` above its background (a low
    percentile of the last 2 s) and its normalized autocorrelation peaks at ≥ ``min_corr`` for a
    pitch period of 2.5–12.5 ms (80–400 Hz). ``voiced`` keeps the start times of voiced frames.
    """

    def __init__(
        self,
        rate: int = RATE,
        min_db: float = 8.0,
        min_corr: float = 0.6,
        min_run: int = 3,
        ring_db_per_frame: float = 1.5,
        foreground_db: float = 12.0,
    ) -> None:
        from scipy.signal import butter  # deferred: scipy is slow to load

        self.rate = rate
        self._lfilter = _fast_lfilter()
        self._ba = butter(2, (70.0, 1000.0), btype="bandpass", fs=rate)
        self._zi = np.zeros(4)
        self._buf = np.zeros(0)
        self._t_buf: float | None = None  # time of _buf[0]
        self._hop = rate // 100
        self._len = 3 * self._hop
        self._levels = np.full(200, np.nan)  # the last 2 s of frame levels (dB), a ring
        self._k = 0
        self._bg = -np.inf
        self.min_db = min_db
        self.min_corr = min_corr
        self.voiced: list[float] = []
        self.voiced_db: list[float] = []  # the level (dB) of each voiced frame
        self.keep_all = False  # keep every voiced frame (fitting: a whole session)
        # The speech layer (``speech``, ``foreground``): the voiced frames that are a voice, not
        # a knock's ring. A dull knock rings like a damped tone (a cue tip on a heavy ball, a
        # cushion): a few frames periodic in the voice's range, each quieter than the one
        # before. A run of voiced frames is held until it shows it is none of that: it rose
        # somewhere (a voice swells and wavers), or it ended long enough and not decaying.
        self.min_run = min_run
        self.ring_db_per_frame = ring_db_per_frame
        self.foreground_db = foreground_db
        self._run: list[tuple[float, float]] = []  # the run held: (time, level)
        self._run_last: tuple[float, float] | None = None  # the run's last frame
        self._run_rose = False  # … it rose somewhere
        self._run_taken = False  # … it is a voice, taken
        self.speech: list[float] = []  # start times of the frames of a voice
        self.speech_db: list[float] = []
        self.foreground: list[float] = []  # … of a voice as loud as this room's speakers

    @property
    def heard_to(self) -> float:
        """Every frame starting before this stream time has been judged (voiced or not); infinite
        for one that was fed nothing (its frames set from a kept trace: all of them known)."""
        return np.inf if self._t_buf is None else self._t_buf

    def feed(self, x: np.ndarray, t0_of_first: float) -> None:
        if self._t_buf is None:
            self._t_buf = float(t0_of_first)
        y, self._zi = self._lfilter(*self._ba, x, self._zi)
        buf = np.concatenate((self._buf, y))
        n = (len(buf) - self._len) // self._hop + 1 if len(buf) >= self._len else 0
        if n:
            frames = np.lib.stride_tricks.sliding_window_view(buf, self._len)[:: self._hop][:n]
            loud = [self._level(fr) for fr in frames]  # (level, above the background) a frame
            up = [i for i, (_lev, above) in enumerate(loud) if above]
            corr = dict(zip(up, periodicities(frames[up], self.rate, 80.0, 400.0))) if up else {}
            for i, (lev, above) in enumerate(loud):
                t = self._t_buf
                self._t_buf += self._hop / self.rate
                if not above or corr[i] < self.min_corr:
                    self._end_run()
                    continue
                self.voiced.append(t)
                self.voiced_db.append(lev)
                if len(self.voiced) > 4000 and not self.keep_all:  # keep the last 20 s or so
                    del self.voiced[:-2000], self.voiced_db[:-2000]
                self._extend_run(t, lev)
        self._buf = buf[n * self._hop :]

    def _level(self, fr: np.ndarray) -> tuple[float, bool]:
        """A frame's level (dB), and whether it is ``min_db`` above the background (a low
        percentile of the last 2 s of levels, every 100 ms)."""
        lev = 10.0 * math.log10(float(np.dot(fr, fr)) / len(fr) + 1e-14)
        self._levels[self._k % len(self._levels)] = lev
        self._k += 1
        if self._k % 10 == 1:
            known = self._levels[: min(self._k, len(self._levels))]  # (the ring's NaNs: unfilled)
            self._bg = percentile(known.tolist(), 20) if self._k >= 10 else lev
        return lev, lev - self._bg >= self.min_db

    # -- the speech layer
    def _extend_run(self, t: float, lev: float) -> None:
        last = self._run_last
        if last is not None and t - last[0] > 1.5 * self._hop / self.rate:
            self._end_run()
            last = None
        if last is not None and lev > last[1] + 1.0:
            self._run_rose = True
        self._run_last = (t, lev)
        if self._run_taken:
            self._take([(t, lev)])
            return
        self._run.append((t, lev))
        if self._run_rose and len(self._run) >= self.min_run:
            self._take(self._run)  # a voice: its frames are taken now, the next ones as they come
            self._run = []
            self._run_taken = True

    def _end_run(self) -> None:
        run = self._run
        if run and not self._run_taken and len(run) >= self.min_run and not self._run_rose:
            if (run[0][1] - run[-1][1]) / (len(run) - 1) < self.ring_db_per_frame:
                self._take(run)  # steady, not dying away: a voice
        self._run, self._run_last, self._run_rose, self._run_taken = [], None, False, False

    def _take(self, frames: list[tuple[float, float]]) -> None:
        for t, lev in frames:
            level = self.voice_level_db(t, speech=True)
            self.speech.append(t)
            self.speech_db.append(lev)
            if level is None or lev >= level - self.foreground_db:
                self.foreground.append(t)
        if len(self.speech) > 4000 and not self.keep_all:
            del self.speech[:-2000], self.speech_db[:-2000]
        if len(self.foreground) > 4000 and not self.keep_all:
            del self.foreground[:-2000]

    @property
    def speech_heard_to(self) -> float:
        """Every frame before this stream time is judged by the speech layer (a voiced run still
        held is not)."""
        held = self._run[0][0] if self._run else np.inf
        return min(self.heard_to, held)

    def foreground_between(self, a: float, b: float) -> float:
        """Seconds of frames of a voice as loud as this room's speakers (within
        ``foreground_db`` of their level) starting in [a, b): the talk at the table, not the
        room's murmur."""
        return (bisect_left(self.foreground, b) - bisect_left(self.foreground, a)) * 0.01

    def foreground_before(self, t: float) -> float | None:
        """The start of the last foreground frame before ``t``."""
        i = bisect_left(self.foreground, t)
        return self.foreground[i - 1] if i else None

    def foreground_after(self, t: float) -> float | None:
        """The start of the first foreground frame after ``t``."""
        i = bisect_right(self.foreground, t)
        return self.foreground[i] if i < len(self.foreground) else None

    def stretch_start(self, end: float, gap: float = 0.35) -> float:
        """Where the stretch of foreground talk ending with the frame at ``end`` began (frames
        joined over pauses shorter than ``gap``: the pauses between one call's words)."""
        f = self.foreground
        i = bisect_right(f, end) - 1
        while i > 0 and f[i] - f[i - 1] < gap:
            i -= 1
        return f[max(i, 0)]

    def voice_level_db(self, before: float, speech: bool = False) -> float | None:
        """This room's voices: the median level (dB, band 70 Hz–1 kHz) of the last 300 voiced
        frames before ``before``, or None before 20 were heard. ``speech``: of the speech
        layer's frames, and their 75th percentile (the speakers at the table, louder than the
        room's murmur)."""
        times, levels = (self.speech, self.speech_db) if speech else (self.voiced, self.voiced_db)
        i = bisect_left(times, before)
        if i < 20:
            return None
        if speech:
            return percentile(levels[max(0, i - 300) : i], 75)
        return float(np.median(levels[max(0, i - 300) : i]))

    def voiced_between(self, a: float, b: float) -> float:
        """Seconds of voiced frames starting in [a, b)."""
        n = 0
        for v in reversed(self.voiced):
            if v < a:
                break
            if v < b:
                n += 1
        return n * self._hop / self.rate

    def voiced_since(self, t: float) -> float:
        """Seconds of voiced frames starting after ``t``."""
        n = 0
        for v in reversed(self.voiced):
            if v <= t:
                break
            n += 1
        return n * self._hop / self.rate


_DITHER = np.random.default_rng(20261203).standard_normal(1 << 16) * 1e-4


class _Tail:
    """A growing 2-D array (rows × time) with appends and drops from the front, amortized: the
    stream's recent history without copying it at every block."""

    def __init__(self, rows: int, cap: int = 8192) -> None:
        self.buf = np.zeros((rows, cap))
        self.n = 0

    @property
    def view(self) -> np.ndarray:
        return self.buf[:, : self.n]

    def append(self, a: np.ndarray) -> None:
        m = a.shape[1]
        if self.n + m > self.buf.shape[1]:
            grown = np.zeros((self.buf.shape[0], max(2 * self.buf.shape[1], self.n + m)))
            grown[:, : self.n] = self.view
            self.buf = grown
        self.buf[:, self.n : self.n + m] = a
        self.n += m

    def drop(self, k: int) -> None:
        k = min(k, self.n)
        self.buf[:, : self.n - k] = self.buf[:, k : self.n].copy()
        self.n -= k


class OnsetDetector:
    """Causal onset detector fed block by block on the stream's clock.

    ``feed(block, t0)`` returns the :class:`Onset` objects completed with this block (each
    ``post_ms`` + a few ms after its onset). Blocks may have any length; the onsets do not depend
    on how the stream is cut. ``level_db`` / ``background_db`` tell the current broadband level.
    """

    def __init__(self, rate: int = RATE, params: OnsetParams | None = None, **overrides) -> None:
        from scipy.signal import butter  # deferred: scipy is slow to load

        p = params or OnsetParams()
        if overrides:
            p = replace(p, **overrides)
        self.params = p
        self.rate = int(rate)
        if self.rate != RATE:
            raise ValueError(f"the onset detector runs at {RATE} Hz, got {rate}")
        from scipy.ndimage import maximum_filter1d  # deferred: scipy is slow to load

        self._maxf = maximum_filter1d
        self._filt = _fast_lfilter()
        self._H = self.rate // 1000
        self._filters = [
            butter(2, (lo, min(hi, 0.45 * self.rate)), btype="bandpass", fs=self.rate)
            for lo, hi in BANDS
        ]
        self._zi = [np.zeros(len(a) - 1) for b, a in self._filters]
        nb = len(self._filters)
        self._rem = np.zeros((nb, 0))
        self._raw_t = _Tail(1, 32768)  # raw samples, recent tail
        self._raw0 = 0  # global index of _raw[0]
        self._n = 0  # samples fed
        self._offset = 0.0
        self._E_t = _Tail(nb + 2, 8192)  # per 1 ms window: energy (dB) of each band (rows 0..3),
        # broadband (4), onset strength F (5)
        self._w0 = 0  # global window index of column 0
        self._next = p.rise_to_ms + p.peak_ms + 1  # next window to decide on
        self._last_onset = -(10**9)
        self._last_flux = 0.0  # the onset strength F of the last onset
        self._bg_n = int(round(p.bg_window_s * 1000))
        self.vad = VoiceActivity(self.rate)
        self._bg_cache: tuple[int, float] | None = None

    @property
    def time(self) -> float:
        return self._offset + self._n / self.rate

    @property
    def _E(self) -> np.ndarray:
        return self._E_t.view[:5]

    @property
    def _F(self) -> np.ndarray:
        return self._E_t.view[5]

    @property
    def _raw(self) -> np.ndarray:
        return self._raw_t.view[0]

    @property
    def look_ahead_s(self) -> float:
        """Audio needed after an onset before its shape is known (and so before it is reported)."""
        p = self.params
        return (max(p.post_ms + 2, p.peak_ms) + 1) / 1000.0

    def background_db(self) -> float:
        """A low percentile of the last second's broadband 1 ms energy (dB)."""
        return float(self._background(self._w0 + self._E.shape[1])[-1])

    def level_db(self, ms: int = 50) -> float:
        """The broadband level (dB, mean power) of the last ``ms`` milliseconds."""
        tail = self._E[-1, -ms:]
        return float(_db(np.mean(10 ** (tail / 10.0)))) if tail.size else -140.0

    def feed(self, block: np.ndarray, t0: float | None = None) -> list[Onset]:
        x = np.asarray(block, dtype=np.float64).reshape(-1)
        if t0 is not None:
            self._offset = float(t0) - self._n / self.rate
        if len(x) == 0:
            return []
        # A floor of dither (−80 dBFS, the same sample for the same stream position whatever the
        # blocks): digital silence in a file (espeak pads with zeros) would make any sound after
        # it jump by 100 dB and more, which no microphone gives and the model never heard.
        idx = (self._n + np.arange(len(x))) % len(_DITHER)
        x = x + _DITHER[idx]
        self.vad.feed(x, self._offset + self._n / self.rate)
        ys = []
        for i, (b, a) in enumerate(self._filters):
            y, self._zi[i] = self._filt(b, a, x, self._zi[i])
            ys.append(y)
        if self._raw_t.n == 0:
            self._raw0 = self._n
        self._raw_t.append(x[None, :])
        self._n += len(x)
        y = np.concatenate((self._rem, np.vstack(ys)), axis=1)
        H = self._H
        nfull = y.shape[1] // H
        if nfull:
            sub = y[:, : nfull * H].reshape(y.shape[0], nfull, H)
            lin = np.einsum("bij,bij->bi", sub, sub) / H
            e_new = _db(np.vstack((lin, lin.sum(axis=0))))  # the bands, and broadband (their sum)
            self._E_t.append(np.vstack((e_new, np.zeros(nfull))))
            self._E_t.view[5, -nfull:] = self._flux(nfull)
        self._rem = y[:, nfull * H :]
        out = self._decide()
        self._trim()
        return out

    # ------------------------------------------------------------------------------------------
    def _flux(self, count: int) -> np.ndarray:
        """Onset strength of the newest ``count`` windows (vectorized over them)."""
        p = self.params
        E = self._E[:4]
        n = E.shape[1]
        L = p.rise_to_ms - p.rise_from_ms + 1
        first = n - count - p.rise_to_ms  # start of the first window's reference span
        out = np.zeros(count)
        skip = max(0, -first)
        if skip >= count:
            return out
        seg = E[:, first + skip : n - p.rise_from_ms]
        # max over each window of L: a running maximum (one C call), read at the windows' ends
        ref = (
            self._maxf(seg, L, axis=1, mode="nearest", origin=(L - 1) // 2)[:, L - 1 :]
            if L > 1
            else seg
        )
        rise = np.clip(E[:, n - count + skip :] - ref, 0.0, 40.0)
        rise.sort(axis=0)
        out[skip:] = rise[-2:].mean(axis=0)  # the two bands that rise most
        return out

    def _background(self, w: int) -> np.ndarray:
        """Background level (dB) of each band and of the broadband energy (rows of ``_E``) at
        window ``w``: a low percentile of the second before it (recomputed every 10 ms)."""
        g = w // 10
        if self._bg_cache is not None and self._bg_cache[0] == g:
            return self._bg_cache[1]
        end = g * 10 - self._w0
        hist = self._E[:, max(0, end - self._bg_n) : max(0, end)]
        if hist.shape[1]:
            val = np.percentile(hist, self.params.bg_percentile, axis=1)
        else:
            val = np.full(self._E.shape[0], -140.0)
        self._bg_cache = (g, val)
        return val

    def _decide(self) -> list[Onset]:
        p = self.params
        last = self._w0 + self._E.shape[1] - 1  # newest complete window
        hi = last - max(p.peak_ms, p.post_ms + 2)  # windows whose look-ahead has arrived
        out: list[Onset] = []
        if hi < self._next:
            return out
        F = self._F
        lo = self._next
        idx = np.arange(lo, hi + 1) - self._w0
        cand = np.flatnonzero(F[idx] >= p.min_flux_db)
        for j in cand:
            i = int(idx[j])
            k = i + self._w0
            if F[i] < F[max(0, i - p.peak_ms) : i + p.peak_ms + 1].max():
                continue
            if k - self._last_onset < p.min_gap_ms and F[i] < self._last_flux + p.new_sound_db:
                continue  # the same sound (a much steeper rise is a new one: a strike 11 ms
                # after a ripple of the background must not be swallowed by it)
            E = self._E[-1]
            peak = float(E[i : i + 4].max())
            if peak < p.floor_db:
                continue
            bgs = self._background(k)
            bg = float(bgs[-1])
            # prominent in some band: a dull thock in pink noise stands out below 1 kHz long
            # before it does in the broadband sum
            if float((self._E[:4, i : i + 4].max(axis=1) - bgs[:4]).max()) < p.min_prominence_db:
                continue
            s0 = self._refine(k)
            need_lo = s0 - (p.pre_gap_ms + p.pre_ms) * self._H
            if need_lo < self._raw0:
                continue  # the stream's very start: no "before"
            x = self._raw[need_lo - self._raw0 : s0 - self._raw0 + p.post_ms * self._H]
            s_local = s0 - need_lo
            t_on = self._offset + s0 / self.rate
            voiced = self.vad.voiced_between(t_on - 0.33, t_on - 0.03) / 0.30
            feats = sound_features(x, s_local, E, self._w0, k, bg, float(F[i]), p, self.rate) + (
                voiced,
            )
            self._last_onset = k
            self._last_flux = float(F[i])
            out.append(
                Onset(self._offset + s0 / self.rate, s0, feats, bg, tuple(map(float, bgs[:4])))
            )
        self._next = hi + 1
        return out

    def long_features(self, o: Onset) -> tuple[float, ...] | None:
        """:data:`LONG_FEATURES` of an onset, once ``LONG_S`` (+ a VAD frame) of audio has come
        after it; None before."""
        if self.time < o.time + LONG_S + 0.03:
            return None
        x = self._raw
        s_local = o.sample - self._raw0
        if s_local < 0:
            return None
        after = self.vad.voiced_between(o.time + 0.01, o.time + LONG_S - 0.03 + 1e-9) / (
            LONG_S - 0.04
        )
        return o.features + long_features(x, s_local, after, self.rate)

    def band_features(self, o: Onset) -> tuple[float, ...] | None:
        """:data:`BAND_FEATURES` of an onset, once ``LONG_S`` (+ a VAD frame) of audio has come
        after it (None before, or when its windows are gone): how far the sound stands above
        each band's background and above the 4–30 ms before it, how it rings on 20–50 ms later,
        and whether the voice's band (below 1 kHz) swells 30–150 ms after it as a vowel after its
        consonant does (a knock dies away)."""
        if self.time < o.time + LONG_S + 0.03 or not o.bg_bands:
            return None
        k = int(round(o.sample / self._H)) - self._w0
        E = self._E[:4]
        if k - 30 < 0 or k + 150 > E.shape[1]:
            return None
        return band_shape(E[:, k - 30 : k + 150], np.asarray(o.bg_bands))

    def _refine(self, k: int) -> int:
        """The onset's first sample: in windows k-3 … k+1, the first above a quarter of the way
        from the level before to the peak."""
        H = self._H
        a = max((k - 3) * H, self._raw0)
        b = (k + 2) * H
        seg = np.abs(self._raw[a - self._raw0 : b - self._raw0])
        if len(seg) == 0:
            return k * H
        pre = self._raw[max(0, a - self._raw0 - 20 * H) : a - self._raw0]
        base = float(np.sqrt(np.mean(pre**2)) * 1.5) if len(pre) else 0.0
        thr = base + 0.25 * (float(seg.max()) - base)
        return a + int(np.argmax(seg >= thr))

    def _trim(self) -> None:
        p = self.params
        keep = self._next - self._bg_n - 30 - p.rise_to_ms
        cut = keep - self._w0
        if cut > 4096:
            self._E_t.drop(cut)
            self._w0 += cut
        # (a second more than the second look needs: a long block may come before it is taken)
        raw_keep = (self._next - p.pre_ms - p.pre_gap_ms - 1030 - int(LONG_S * 1000)) * self._H
        cut = raw_keep - self._raw0
        if cut > 16384:
            self._raw_t.drop(cut)
            self._raw0 += cut
