#!/usr/bin/env python3
"""Speech and noise for the test audio: Russian calls from espeak-ng, pink/brown noise, babble.

The table sounds themselves are **recordings** (``$PYRAMID_SOUNDS_DIR``, mixed by
``table_mix.py``). This module once also synthesized a cue click, ball collisions and pocket drops;
that click had the physics the wrong way round (a sharp broadband click, where the leather tip's
1–2 ms contact gives a dull thock, and a ball-ball contact of 0.2–0.3 ms the sharp clack), so it
was retired with the tests that held it, and only the speech and noise helpers remain.

Importable: ``speak``, ``speak_festival`` (word times too), ``festival_available``,
``speech_spans``, ``active_power``, ``colored_noise``, ``babble``, ``CALLS``, ``VOICES``.

Festival's Russian voice (Debian ``festival`` + ``festvox-ru``: ``msu_ru_nsh_clunits``, unit
selection from one real male speaker's recordings) is the second synthetic voice; it also gives
each word's start and end, which espeak-ng's command line does not.
"""

from __future__ import annotations

import os
import re
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
            subprocess.run(
                ["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", out, text],
                check=True,
                capture_output=True,
            )
            x = _read_wav_any(out)
        env = np.abs(x) > 1e-3 * np.abs(x).max()
        idx = np.flatnonzero(env)
        x = x[idx[0] : idx[-1] + 1] if len(idx) else x
        _speech_cache[key] = x / (np.abs(x).max() + 1e-12)
    return _speech_cache[key]


FESTIVAL_VOICE = "msu_ru_nsh_clunits"
_festival_cache: dict[str, tuple[np.ndarray, list[list[float]]]] = {}
_festival_ok: bool | None = None


def festival_available() -> bool:
    """Whether ``festival`` runs with the Russian voice (checked once, by speaking one word)."""
    global _festival_ok
    if _festival_ok is None:
        _festival_ok = False
        if shutil.which("festival") is not None:
            try:
                x, _ = speak_festival("да")
                _festival_ok = len(x) > 0
            except (OSError, subprocess.SubprocessError, ValueError):
                _festival_ok = False
    return _festival_ok


def _festival_raw(text: str) -> tuple[np.ndarray, list[list[float]]]:
    """Festival's samples for ``text`` trimmed to its words, and the words' spans; cached in
    memory and on disk (``$XDG_CACHE_HOME/pyramid-referee-bench/festival``: one synthesis takes
    ~0.5 s)."""
    import hashlib

    if text in _festival_cache:
        return _festival_cache[text]
    from scipy.io import wavfile

    cache = (
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        / "pyramid-referee-bench"
        / "festival"
    )
    key = hashlib.sha256(f"{FESTIVAL_VOICE}\n{text}".encode()).hexdigest()[:24]
    npz = cache / f"{key}.npz"
    if npz.exists():
        try:
            d = np.load(npz)
            _festival_cache[text] = (d["x"], d["spans"].tolist())
            return _festival_cache[text]
        except (OSError, ValueError, KeyError):
            pass
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "f.wav")
        scm = os.path.join(tmp, "f.scm")
        safe = text.replace("\\", " ").replace('"', " ")
        Path(scm).write_text(
            f"(voice_{FESTIVAL_VOICE})\n"
            f'(set! utt (SynthText "{safe}"))\n'
            f'(utt.save.wave utt "{out}" \'riff)\n'
            '(mapcar (lambda (w) (format t "W %f %f\\n" (item.feat w "word_start") '
            '(item.feat w "word_end"))) (utt.relation.items utt \'Word))\n',
            encoding="utf-8",
        )
        r = subprocess.run(
            ["festival", "--batch", scm], capture_output=True, text=True, check=True
        )
        if not os.path.exists(out):
            raise ValueError(f"festival wrote no audio for {text!r}: {r.stderr.strip()[-200:]}")
        rate, data = wavfile.read(out)
        x = _read_wav_any(out) if rate != RATE else data.astype(np.float64) / 32768.0
    words = [
        [float(a), float(b)] for a, b in re.findall(r"^W ([0-9.]+) ([0-9.]+)$", r.stdout, re.M)
    ]
    if not words or not len(x):
        raise ValueError(f"festival gave no speech for {text!r}: {r.stderr.strip()[-200:]}")
    a = int(words[0][0] * RATE)
    b = min(int(np.ceil(words[-1][1] * RATE)), len(x))
    env = np.flatnonzero(np.abs(x[a:b]) > 1e-3 * (np.abs(x[a:b]).max() + 1e-12))
    if len(
        env
    ):  # Festival's first word starts where the leading silence segment ends: trim to sound
        a, b = a + int(env[0]), a + int(env[-1]) + 1
    y = x[a:b]
    t0, t1 = a / RATE, b / RATE
    spans = [[max(w0, t0) - t0, min(w1, t1) - t0] for w0, w1 in words if min(w1, t1) > max(w0, t0)]
    y = y / (np.abs(y).max() + 1e-12)
    _festival_cache[text] = (y, spans)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        np.savez(npz, x=y, spans=np.array(spans, dtype=float))
    except OSError:
        pass
    return y, spans


def speak_festival(text: str, stretch: float = 1.0) -> tuple[np.ndarray, list[list[float]]]:
    """Russian speech from Festival (``msu_ru_nsh_clunits``) as float64 at RATE, peak 1, with the
    silence before the first word and after the last trimmed; and each word's ``[start, end]`` (s,
    in the returned samples) as Festival's own segmentation gives them. ``stretch`` plays it that
    much longer and lower, as a slower tape (1.1: 10 % slower and 10 % lower; the clunits voice
    ignores Festival's own ``Duration_Stretch``), to vary the one recorded speaker."""
    y, spans = _festival_raw(text)
    if abs(stretch - 1.0) > 1e-3:
        from math import gcd

        from scipy.signal import resample_poly

        up, down = int(round(200 * stretch)), 200
        g = gcd(up, down)
        y = resample_poly(y, up // g, down // g)
        y = y / (np.abs(y).max() + 1e-12)
        spans = [[a * up / down, min(b * up / down, len(y) / RATE)] for a, b in spans]
    return y, [list(w) for w in spans]


def speech_spans(
    x: np.ndarray,
    below_db: float = 30.0,
    min_gap_s: float = 0.06,
    min_len_s: float = 0.03,
    ref_db: float | None = None,
) -> list[list[float]]:
    """Where an utterance sounds: ``[start, end]`` (s) of each stretch whose 10 ms RMS is within
    ``below_db`` of ``ref_db`` (default: the loudest 10 ms), pauses shorter than ``min_gap_s``
    bridged, blips shorter than ``min_len_s`` dropped. For espeak-ng and the recorded voices
    (which give no word times) these stand for the words: a stretch is a word or a few words
    spoken without a pause; a plosive's closure inside a word is shorter than 60 ms and is
    bridged."""
    w = RATE // 100
    n = len(x) // w
    if n == 0:
        return []
    r = np.sqrt(np.mean(np.asarray(x[: n * w], np.float64).reshape(n, w) ** 2, axis=1))
    ref = 20 * np.log10(r.max() + 1e-12) if ref_db is None else ref_db
    on = 20 * np.log10(r + 1e-12) >= ref - below_db
    spans: list[list[int]] = []
    for k in np.flatnonzero(on):
        if spans and k - spans[-1][1] <= int(round(min_gap_s * 100)):
            spans[-1][1] = k + 1
        else:
            spans.append([k, k + 1])
    return [[a / 100, min(b / 100, len(x) / RATE)] for a, b in spans if (b - a) / 100 >= min_len_s]


def active_power(x: np.ndarray) -> float:
    """Mean power over the active part (10 ms frames within 35 dB of the loudest)."""
    n = len(x) // 160
    if n == 0:
        return float(np.mean(x**2))
    fr = x[: n * 160].reshape(n, 160)
    p = np.mean(fr**2, axis=1)
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
    return x / np.sqrt(np.mean(x**2))


def babble(rng: np.random.Generator, n: int, talkers: int = 6) -> np.ndarray:
    """Several espeak-ng voices talking at once (calls, random offsets and gains), unit power.

    The talkers draw from a fixed pool of 12 utterances (made once), which keeps generation fast.
    """
    lines = CALLS + PLOSIVE_LINES
    pool = [
        speak(lines[k % len(lines)], VOICES[k % len(VOICES)], 150 + 10 * (k % 4), 30 + 7 * (k % 6))
        for k in range(12)
    ]
    pool = [s / np.sqrt(active_power(s)) for s in pool]
    x = np.zeros(n)
    for _ in range(talkers):
        pos = int(rng.uniform(-1.0, 0) * RATE)
        while pos < n:
            s = pool[rng.integers(len(pool))] * rng.uniform(0.6, 1.4)
            a, b = max(pos, 0), min(pos + len(s), n)
            if b > a:
                x[a:b] += s[a - pos : b - pos]
            pos += len(s) + int(rng.uniform(0.05, 0.4) * RATE)
    return x / np.sqrt(np.mean(x**2))
