#!/usr/bin/env python3
"""Speech and noise for the test audio: Russian calls from espeak-ng, pink/brown noise, babble.

The table sounds themselves are **recordings** (``../shared/sounds``, mixed by ``table_mix.py``).
This module once also synthesized a cue click, ball collisions and pocket drops; that click had
the physics the wrong way round (a sharp broadband click, where the leather tip's 1–2 ms contact
gives a dull thock, and a ball-ball contact of 0.2–0.3 ms the sharp clack), so it was retired
with the tests that held it, and only the speech and noise helpers remain.

Importable: ``speak``, ``active_power``, ``colored_noise``, ``babble``, ``CALLS``, ``VOICES``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

RATE = 16000
HERE = Path(__file__).resolve().parent

# Calls as players say them (Russian pyramid), plus plosive-heavy lines for the speech-only files.
CALLS = [
    "Карамболем от шестёрки одиннадцатым шаром тройка прямо в середину",
    "Пятнадцатый в правый угол",
    "Тройка дуплетом в середину",
    "Туз от борта в левую лузу",
    "Семёрка прямо в дальний правый угол",
    "Девятый через шар в ближнюю левую",
    "Двенадцатый свояком в угол",
    "Четвёртый от двух бортов в середину",
    "Восьмой клапштосом в правую лузу",
    "Тринадцатый кладу в дальний левый угол",
]
PLOSIVE_LINES = [
    "Пятый прямо в правую, туза по борту, тройка в дальний угол",
    "Кладу пятёрку, потом двойку, потом туза",
    "Тук, так, пак, кап, да, пот, кот, ток, бак, дуб, пуп",
    "Подставка! Пропуск хода, повтор, штраф пятнадцать очков",
    "Десятый к борту, тринадцатый в ту же лузу, партия",
]
VOICES = ["ru", "ru+f3", "ru+m3", "ru+f4", "ru-lv"]


# ----------------------------------------------------------------------------------------------
# Speech (espeak-ng)

_speech_cache: dict[tuple, np.ndarray] = {}


def espeak_available() -> bool:
    return shutil.which("espeak-ng") is not None


def _read_wav_any(path: str) -> np.ndarray:
    """espeak-ng writes 22050 Hz 16-bit mono; convert to RATE (same path as the product uses)."""
    from math import gcd

    from scipy.io import wavfile
    from scipy.signal import resample_poly

    rate, data = wavfile.read(path)
    x = data.astype(np.float64) / 32768.0
    if x.ndim > 1:
        x = x.mean(axis=1)
    g = gcd(rate, RATE)
    return resample_poly(x, RATE // g, rate // g)


def speak(text: str, voice: str = "ru", speed: int = 160, pitch: int = 50) -> np.ndarray:
    """Russian speech from espeak-ng as float64 at RATE, peak-normalized to 1, silence trimmed."""
    key = (text, voice, speed, pitch)
    if key not in _speech_cache:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "s.wav")
            subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", out, text],
                           check=True, capture_output=True)
            x = _read_wav_any(out)
        env = np.abs(x) > 1e-3 * np.abs(x).max()
        idx = np.flatnonzero(env)
        x = x[idx[0]: idx[-1] + 1] if len(idx) else x
        _speech_cache[key] = x / (np.abs(x).max() + 1e-12)
    return _speech_cache[key]


def active_power(x: np.ndarray) -> float:
    """Mean power over the active part (10 ms frames within 35 dB of the loudest)."""
    n = len(x) // 160
    if n == 0:
        return float(np.mean(x ** 2))
    fr = x[: n * 160].reshape(n, 160)
    p = np.mean(fr ** 2, axis=1)
    act = p > p.max() * 10 ** (-3.5)
    return float(np.mean(p[act]))


# ----------------------------------------------------------------------------------------------
# Noise

def _bandlimit(x: np.ndarray, lo: float | None, hi: float | None) -> np.ndarray:
    from scipy.signal import butter, sosfilt

    if lo:
        x = sosfilt(butter(2, lo, "highpass", fs=RATE, output="sos"), x)
    if hi:
        x = sosfilt(butter(2, hi, "lowpass", fs=RATE, output="sos"), x)
    return x


def colored_noise(rng: np.random.Generator, n: int, exponent: float) -> np.ndarray:
    """1/f^exponent noise (1: pink, 2: brown) by spectral shaping, unit power."""
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / RATE)
    f[0] = f[1]
    spec /= f ** (exponent / 2)
    x = np.fft.irfft(spec, n)
    x = _bandlimit(x, 20, None)
    return x / np.sqrt(np.mean(x ** 2))


def babble(rng: np.random.Generator, n: int, talkers: int = 6) -> np.ndarray:
    """Several espeak-ng voices talking at once (calls, random offsets and gains), unit power.

    The talkers draw from a fixed pool of 12 utterances (made once), which keeps generation fast.
    """
    lines = CALLS + PLOSIVE_LINES
    pool = [speak(lines[k % len(lines)], VOICES[k % len(VOICES)], 150 + 10 * (k % 4), 30 + 7 * (k % 6))
            for k in range(12)]
    pool = [s / np.sqrt(active_power(s)) for s in pool]
    x = np.zeros(n)
    for _ in range(talkers):
        pos = int(rng.uniform(-1.0, 0) * RATE)
        while pos < n:
            s = pool[rng.integers(len(pool))] * rng.uniform(0.6, 1.4)
            a, b = max(pos, 0), min(pos + len(s), n)
            if b > a:
                x[a:b] += s[a - pos: b - pos]
            pos += len(s) + int(rng.uniform(0.05, 0.4) * RATE)
    return x / np.sqrt(np.mean(x ** 2))
