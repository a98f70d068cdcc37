#!/usr/bin/env python3
"""Make the test audio for the strike detector and the voice referee (fixed seed, deterministic).

    python corpora/audio/make_audio.py [--out DIR] [--seed N]

Writes 16 kHz mono 16-bit WAV files and ``manifest.json`` (the ground truth: strike, collision and
pocket-drop times, speech spans and texts) into DIR (default ``corpora/audio/generated``, which
git ignores). See README.md next to this script for how each sound is made and its limits.

Importable: ``generate(out_dir, seed=…) -> manifest`` (the tests use it from a session fixture).
The event times (strikes, collisions, drops) depend only on the seed; the speech is placed
around them, so a different espeak-ng version changes the speech spans but not the strike truth.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

RATE = 16000
SEED = 20240415
HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "generated"

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
SNRS = [20, 10, 5]


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
# Table sounds (synthetic: see README.md for what they are and are not)

def _t(dur_s: float) -> np.ndarray:
    return np.arange(int(dur_s * RATE)) / RATE


def _bandlimit(x: np.ndarray, lo: float | None, hi: float | None) -> np.ndarray:
    from scipy.signal import butter, sosfilt

    if lo:
        x = sosfilt(butter(2, lo, "highpass", fs=RATE, output="sos"), x)
    if hi:
        x = sosfilt(butter(2, hi, "lowpass", fs=RATE, output="sos"), x)
    return x


def cue_click(rng: np.random.Generator) -> np.ndarray:
    """The cue tip on the cue ball: a very short damped broadband burst with a 'tock' body.

    A noise burst (attack ~0.1–0.3 ms, decay τ 0.6–1.5 ms) carries the broadband click; two
    damped resonances at 1.2–4 kHz (τ 1–3 ms) and a low knock at 300–700 Hz (τ 2–4 ms) give the
    dull leather 'tock'. Dies away within ~10–20 ms. Peak-normalized to 1.
    """
    t = _t(0.03)
    attack = rng.uniform(0.0001, 0.0003)
    env = np.minimum(t / attack, 1.0) * np.exp(-t / rng.uniform(0.0006, 0.0015))
    x = rng.standard_normal(len(t)) * env
    for _ in range(2):
        f, tau = rng.uniform(1200, 4000), rng.uniform(0.001, 0.003)
        x += rng.uniform(0.3, 0.6) * np.sin(2 * np.pi * f * t + rng.uniform(0, 6.28)) * np.exp(-t / tau) \
            * np.minimum(t / attack, 1.0)
    f, tau = rng.uniform(300, 700), rng.uniform(0.002, 0.004)
    x += rng.uniform(0.3, 0.5) * np.sin(2 * np.pi * f * t) * np.exp(-t / tau) * np.minimum(t / attack, 1.0)
    return x / np.abs(x).max()


def ball_collision(rng: np.random.Generator) -> np.ndarray:
    """Two balls colliding: a brighter, ringing 'clack' (modes 2.5–7.5 kHz, τ 6–25 ms), ~80 ms."""
    t = _t(0.09)
    attack = rng.uniform(0.00005, 0.0002)
    onset = np.minimum(t / attack, 1.0)
    x = rng.standard_normal(len(t)) * onset * np.exp(-t / rng.uniform(0.0005, 0.001))
    x = _bandlimit(x, 1500, None)
    for _ in range(rng.integers(3, 6)):
        f, tau = rng.uniform(2500, 7500), rng.uniform(0.006, 0.025)
        x += rng.uniform(0.3, 0.8) * np.sin(2 * np.pi * f * t + rng.uniform(0, 6.28)) * np.exp(-t / tau) * onset
    return x / np.abs(x).max()


def pocket_drop(rng: np.random.Generator) -> tuple[np.ndarray, list[float]]:
    """A ball dropping into a pocket: a low thud (60–150 Hz, soft 2–5 ms attack, τ 40–90 ms), then a
    rattle of 3–6 small knocks over 0.1–0.35 s. Returns the sound and the rattle offsets (s)."""
    t = _t(0.5)
    attack = rng.uniform(0.002, 0.005)
    x = np.sin(2 * np.pi * rng.uniform(60, 150) * t) * np.minimum(t / attack, 1.0) * np.exp(-t / rng.uniform(0.04, 0.09))
    x += 0.3 * _bandlimit(rng.standard_normal(len(t)), None, 400) * np.exp(-t / 0.03) * np.minimum(t / attack, 1.0)
    offsets = np.sort(rng.uniform(0.1, 0.35, rng.integers(3, 7)))
    for off in offsets:
        k = int(off * RATE)
        knock = ball_collision(rng) * rng.uniform(0.1, 0.35)
        knock = _bandlimit(knock, None, rng.uniform(2000, 5000))
        n = min(len(knock), len(x) - k)
        x[k: k + n] += knock[:n]
    return x / np.abs(x).max(), [round(float(o), 4) for o in offsets]


# ----------------------------------------------------------------------------------------------
# Noise and room

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


def room(rng: np.random.Generator, x: np.ndarray, rt60: float, drr_db: float) -> np.ndarray:
    """A simple room: direct sound plus an exponentially decaying noise tail (RT60, direct-to-reverberant ratio)."""
    from scipy.signal import fftconvolve

    t = _t(rt60)
    tail = rng.standard_normal(len(t)) * np.exp(-6.9 * t / rt60)
    tail[: int(0.003 * RATE)] = 0.0  # first reflections arrive a few ms after the direct sound
    tail *= np.sqrt(10 ** (-drr_db / 10) / np.sum(tail ** 2))
    ir = tail
    ir[0] = 1.0
    return fftconvolve(x, ir)[: len(x)]


# ----------------------------------------------------------------------------------------------
# Files

def _add(x: np.ndarray, s: np.ndarray, at_s: float, gain: float) -> None:
    k = int(round(at_s * RATE))
    n = min(len(s), len(x) - k)
    if n > 0 and k >= 0:
        x[k: k + n] += gain * s[:n]


def scene(rng: np.random.Generator, strokes: int = 3, spacing=(8.0, 10.0), with_speech: bool = True,
          drop_prob: float = 0.7) -> tuple[np.ndarray, dict]:
    """Strokes at seeded times: call … pause … strike … collisions … pocket drop (… rattle)."""
    times = []
    t = rng.uniform(4.0, 5.0)
    for _ in range(strokes):
        times.append(round(float(t), 4))
        t += rng.uniform(*spacing)
    dur = times[-1] + 4.0
    speech = np.zeros(int(dur * RATE))
    events = np.zeros_like(speech)
    truth = {"strikes": [], "collisions": [], "pocket_drops": [], "rattles": [], "speech": []}
    prev_end = 0.0
    for T in times:
        if with_speech:
            text = CALLS[rng.integers(len(CALLS))]
            s = speak(text, VOICES[rng.integers(len(VOICES))], int(rng.integers(140, 190)), int(rng.integers(30, 70)))
            gap = rng.uniform(0.3, 1.2)
            start = max(prev_end + 0.2, T - gap - len(s) / RATE)
            end = min(start + len(s) / RATE, T - 0.05)
            s = s[: int((end - start) * RATE)]
            _add(speech, s, start, 1.0)
            truth["speech"].append([round(start, 4), round(end, 4), text])
        # The strike: peak level relative to the speech peak (speech is peak-normalized to 1).
        _add(events, cue_click(rng), T, 10 ** (rng.uniform(-3, 6) / 20))
        truth["strikes"].append(T)
        last = T
        for _ in range(rng.integers(1, 4)):
            c = round(T + float(rng.uniform(0.12, 2.2)), 4)
            _add(events, ball_collision(rng), c, 10 ** (rng.uniform(-3, 6) / 20))
            truth["collisions"].append(c)
            last = max(last, c)
        if rng.uniform() < drop_prob:
            d = round(T + float(rng.uniform(0.6, 2.6)), 4)
            sound, rattle = pocket_drop(rng)
            _add(events, sound, d, 10 ** (rng.uniform(-6, 3) / 20))
            truth["pocket_drops"].append(d)
            truth["rattles"] += [round(d + r, 4) for r in rattle]
            last = max(last, d + 0.4)
        prev_end = last
    for k in ("collisions", "pocket_drops", "rattles"):
        truth[k].sort()
    return speech, events, truth


def speech_only(rng: np.random.Generator, lines: list[str], pause=(0.3, 1.0)) -> tuple[np.ndarray, list]:
    parts, spans, t = [], [], 0.5
    for text in lines:
        s = speak(text, VOICES[rng.integers(len(VOICES))], int(rng.integers(140, 200)), int(rng.integers(25, 75)))
        gap = rng.uniform(*pause)
        parts.append((t, s))
        spans.append([round(t, 4), round(t + len(s) / RATE, 4), text])
        t += len(s) / RATE + gap
    x = np.zeros(int((t + 0.5) * RATE))
    for start, s in parts:
        _add(x, s, start, 1.0)
    return x, spans


def mix(rng: np.random.Generator, speech: np.ndarray, events: np.ndarray, snr_db: float | None,
        noise: str, reverb: bool) -> np.ndarray:
    """Speech + table sounds (+ room) + noise at ``snr_db`` relative to the speech's active power."""
    clean = speech + events
    if reverb:
        clean = room(rng, clean, rt60=float(rng.uniform(0.25, 0.45)), drr_db=float(rng.uniform(6, 12)))
    ref = active_power(speech) if np.any(speech) else 0.01
    if snr_db is not None:
        n = len(clean)
        nz = {"pink": lambda: colored_noise(rng, n, 1.0), "brown": lambda: colored_noise(rng, n, 2.0),
              "babble": lambda: babble(rng, n)}[noise]()
        clean = clean + nz * np.sqrt(ref / 10 ** (snr_db / 10))
    return clean


def write(path: Path, x: np.ndarray, peak: float = 0.7) -> float:
    """Write 16-bit PCM, scaled so the loudest sample is ``peak`` (returns the gain)."""
    from scipy.io import wavfile

    g = peak / (np.abs(x).max() + 1e-12)
    wavfile.write(path, RATE, np.round(np.clip(x * g, -1, 1) * 32767).astype(np.int16))
    return float(g)


def generate(out_dir: str | os.PathLike = DEFAULT_OUT, seed: int = SEED) -> dict:
    """Make every file and the manifest; return the manifest."""
    if not espeak_available():
        raise RuntimeError("espeak-ng is not installed (apt-get install espeak-ng)")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    files = []

    def entry(name, kind, x, **meta):
        write(out / name, x)
        d = {"file": name, "kind": kind, "duration": round(len(x) / RATE, 4), **meta}
        files.append(d)

    # Full scenes: clean, and at each SNR with pink noise and with babble, some in a room.
    variants = [(None, "none", False), (None, "none", True)]
    for snr in SNRS:
        variants += [(snr, "pink", False), (snr, "babble", True), (snr, "brown", True)]
    for i, (snr, noise, reverb) in enumerate(variants):
        speech, events, truth = scene(rng)
        x = mix(rng, speech, events, snr, noise, reverb)
        tag = "clean" if snr is None else f"snr{snr:02d}"
        entry(f"scene_{tag}_{noise}{'_room' if reverb else ''}_{i:02d}.wav", "scene", x,
              snr_db=snr, noise=noise, reverb=reverb, **truth)

    # Stroke sounds alone (no speech): strike, collisions, pocket drop and rattle.
    for i, snr in enumerate([None, 10]):
        speech, events, truth = scene(rng, strokes=3, with_speech=False, drop_prob=1.0)
        x = mix(rng, np.zeros_like(events) + 0.0, events, None, "none", False)
        if snr is not None:
            x = x + colored_noise(rng, len(x), 1.0) * np.sqrt(0.01 * 10 ** (-snr / 10))
        entry(f"strokes_{'clean' if snr is None else f'snr{snr:02d}'}_{i:02d}.wav", "strokes", x,
              snr_db=snr, noise="none" if snr is None else "pink", reverb=False, **truth)

    # Speech only (no strike): calls and plosive-heavy lines, clean and at each SNR.
    for i, (snr, noise) in enumerate([(None, "none"), (None, "none")] + [(s, "pink") for s in SNRS] + [(10, "babble")]):
        lines = list(CALLS) + list(PLOSIVE_LINES)
        order = rng.permutation(len(lines))
        x, spans = speech_only(rng, [lines[j] for j in order[:8]])
        y = mix(rng, x, np.zeros_like(x), snr, noise, reverb=(i % 2 == 1))
        tag = "clean" if snr is None else f"snr{snr:02d}"
        entry(f"speech_{tag}_{noise}_{i:02d}.wav", "speech", y, snr_db=snr, noise=noise,
              reverb=(i % 2 == 1), strikes=[], collisions=[], pocket_drops=[], rattles=[], speech=spans)

    manifest = {
        "generator": "corpora/audio/make_audio.py",
        "seed": seed,
        "rate": RATE,
        "espeak_ng": subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout.strip(),
        "note": "times in seconds from the start of each file; strikes = true click onsets",
        "files": files,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return manifest


def stamp(seed: int = SEED) -> str:
    """What the corpus depends on: this script, the seed, the espeak-ng version."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(str(seed).encode())
    if espeak_available():
        h.update(subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout.encode())
    return h.hexdigest()


def ensure(out_dir: str | os.PathLike = DEFAULT_OUT, seed: int = SEED) -> dict:
    """The manifest of an up-to-date corpus in ``out_dir``: reused if its stamp matches, else made."""
    out = Path(out_dir)
    st = stamp(seed)
    man, mark = out / "manifest.json", out / ".stamp"
    if man.exists() and mark.exists() and mark.read_text() == st:
        m = json.loads(man.read_text(encoding="utf-8"))
        if all((out / f["file"]).exists() for f in m["files"]):
            return m
    m = generate(out, seed)
    mark.write_text(st)
    return m


def digest(out_dir: str | os.PathLike) -> str:
    """SHA-256 over the generated WAVs (to check determinism)."""
    h = hashlib.sha256()
    for p in sorted(Path(out_dir).glob("*.wav")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--if-stale", action="store_true", help="reuse an up-to-date corpus in --out")
    args = ap.parse_args(argv)
    m = ensure(args.out, args.seed) if args.if_stale else generate(args.out, args.seed)
    n_strikes = sum(len(f["strikes"]) for f in m["files"])
    print(f"{len(m['files'])} files, {n_strikes} strikes → {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
