#!/usr/bin/env python3
"""Benchmark of the strike detector on the generated corpus (corpora/audio/make_audio.py).

    .venv/bin/python bench/bench_strike.py [--audio DIR] [--block-ms 10] [--regen] [--verbose]

Prints: CPU per second of audio (% of one core, process time of the detector alone and of file
reading + framing), report latency percentiles (stream time when reported − true click time),
onset error, and precision / recall per condition (clean, 20/10/5 dB SNR, speech-only,
stroke sounds alone). A detection matches a true strike within 30 ms.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pyramid_referee.voice.audio import array_frames, read_wav  # noqa: E402
from pyramid_referee.voice.strike import StrikeDetector, run_detector  # noqa: E402

TOL = 0.030


def load_generator():
    spec = importlib.util.spec_from_file_location("make_audio", ROOT / "corpora/audio/make_audio.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def match(found: list[float], truth: list[float], tol: float = TOL):
    """Greedy one-to-one matching in time order; returns (pairs, false_positives, misses)."""
    pairs, used = [], set()
    for t in truth:
        best = None
        for j, f in enumerate(found):
            if j not in used and abs(f - t) <= tol and (best is None or abs(f - t) < abs(found[best] - t)):
                best = j
        if best is not None:
            used.add(best)
            pairs.append((t, best))
    fps = [f for j, f in enumerate(found) if j not in used]
    misses = [t for t in truth if t not in {p[0] for p in pairs}]
    return pairs, fps, misses


LIVE = """
import sys, time
from pyramid_referee.voice.mic import MicrophoneSource
from pyramid_referee.voice.strike import StrikeDetector
seconds, block = float(sys.argv[1]), float(sys.argv[2])
for with_detector in (False, True):
    det = StrikeDetector()
    with MicrophoneSource(None, block) as mic:
        it = iter(mic)
        next(it)                                   # the stream is running
        c0, w0 = time.process_time(), time.monotonic()
        for f in it:
            if with_detector:
                det.feed(f.samples, f.t0)
            if time.monotonic() - w0 >= seconds:
                break
        c, w = time.process_time() - c0, time.monotonic() - w0
        lost = mic.problems() or "no audio lost"
    what = "microphone + detector" if with_detector else "microphone alone    "
    print(f"live, {block:g} ms blocks, {what}: {100 * c / w:.2f} % of one core over {w:.0f} s ({lost})")
"""


def live(seconds: float, block_ms: float) -> None:
    """CPU of the live path (PortAudio callback + queue + frames [+ detector]) per wall second.

    Uses the default input device; where there is none, starts a private PulseAudio daemon with a
    null sink (as tests/test_voice_mic.py does) and records its monitor.
    """
    import os
    import shutil
    import subprocess
    import tempfile

    env, daemon, run = dict(os.environ), None, None
    try:
        from pyramid_referee.voice.mic import list_devices

        have = bool(list_devices())
    except Exception:
        have = False
    if not have:
        if shutil.which("pulseaudio") is None:
            print("live: no input device and no pulseaudio: skipped")
            return
        run = tempfile.mkdtemp(prefix="bench-pulse-")
        os.chmod(run, 0o700)
        env.update(XDG_RUNTIME_DIR=run, HOME=run)
        daemon = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
             "-L", "module-native-protocol-unix", "-L", "module-null-sink sink_name=bench rate=16000 channels=1"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0:
                break
            time.sleep(0.2)
        subprocess.run(["pactl", "set-default-source", "bench.monitor"], env=env, capture_output=True)
    try:
        proc = subprocess.run([sys.executable, "-c", LIVE, str(seconds), str(block_ms)], env=env,
                              capture_output=True, text=True, timeout=seconds * 3 + 60)
        print(proc.stdout.strip() or f"live: failed: {proc.stderr.strip()[-300:]}")
    finally:
        if daemon is not None:
            daemon.terminate()
            daemon.wait(10)
        if run is not None:
            shutil.rmtree(run, ignore_errors=True)


def condition(entry: dict) -> str:
    if entry["kind"] == "speech":
        return "speech-only"
    if entry["kind"] == "strokes":
        return "strokes-alone"
    return "clean" if entry["snr_db"] is None else f"{entry['snr_db']} dB"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--audio", default=str(ROOT / "corpora/audio/generated"))
    ap.add_argument("--block-ms", type=float, nargs="*", default=[10.0, 20.0])
    ap.add_argument("--regen", action="store_true", help="regenerate the corpus first")
    ap.add_argument("--seed", type=int, nargs="*", default=None,
                    help="held-out check: generate corpora with these seeds (temporary directories) "
                         "and report over all of them")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--live", type=float, default=0.0, metavar="SECONDS",
                    help="also measure the live microphone path's CPU for this long (0: skip)")
    args = ap.parse_args(argv)

    import shutil
    import tempfile

    audio = Path(args.audio)
    corpora, temps = [], []
    if args.seed:
        for seed in args.seed:
            d = Path(tempfile.mkdtemp(prefix=f"strike-corpus-{seed}-"))
            temps.append(d)
            t = time.perf_counter()
            load_generator().generate(d, seed=seed)
            print(f"held-out corpus (seed {seed}) generated in {time.perf_counter() - t:.1f} s")
            corpora.append(d)
    else:
        if args.regen or not (audio / "manifest.json").exists():
            t = time.perf_counter()
            load_generator().generate(audio)
            print(f"generated corpus in {time.perf_counter() - t:.1f} s → {audio}")
        corpora.append(audio)
    try:
        return report(args, corpora)
    finally:
        for d in temps:
            shutil.rmtree(d, ignore_errors=True)


def report(args, corpora) -> int:
    entries = []   # (directory, manifest entry)
    for d in corpora:
        manifest = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
        entries += [(d, e) for e in manifest["files"]]

    for block_ms in args.block_ms:
        stats = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "files": 0})
        latencies, onset_err = [], []
        cpu_det = cpu_read = seconds = 0.0
        for audio, entry in entries:
            c0 = time.process_time()
            x = read_wav(audio / entry["file"])
            frames = list(array_frames(x, block_ms))
            cpu_read += time.process_time() - c0
            seconds += len(x) / 16000
            det = StrikeDetector()
            c0 = time.process_time()
            reports = list(run_detector(frames, det))
            cpu_det += time.process_time() - c0
            found = [t for t, _ in reports]
            pairs, fps, misses = match(found, entry["strikes"])
            for t, j in pairs:
                latencies.append(reports[j][1] - t)
                onset_err.append(found[j] - t)
            s = stats[condition(entry)]
            s["tp"] += len(pairs)
            s["fp"] += len(fps)
            s["fn"] += len(misses)
            s["files"] += 1
            if args.verbose and (fps or misses):
                print(f"  {audio.name}/{entry['file']}: false {fps} missed {misses}")
                for c in det.candidates:
                    if any(abs(c.time - f) < 0.002 for f in fps) or any(abs(c.time - m) < 0.05 for m in misses):
                        print("     ", c)

        print(f"\n== strike detector, {block_ms:g} ms blocks, {seconds:.0f} s of audio, "
              f"{len(entries)} files ==")
        print(f"CPU, detector alone: {100 * cpu_det / seconds:.2f} % of one core "
              f"({1000 * cpu_det / seconds:.2f} ms per s of audio)")
        print(f"CPU, read WAV + resample + frames: {100 * cpu_read / seconds:.2f} % of one core")
        if latencies:
            lat = np.array(latencies) * 1000
            err = np.array(onset_err) * 1000
            print(f"report latency (ms, stream time at report − true click): "
                  f"p50 {np.percentile(lat, 50):.1f}  p95 {np.percentile(lat, 95):.1f}  max {lat.max():.1f}")
            print(f"onset time error (ms, reported − true): median {np.median(err):+.2f}  "
                  f"max |err| {np.abs(err).max():.2f}")
        print(f"{'condition':<15}{'files':>6}{'strikes':>9}{'found':>7}{'false':>7}{'precision':>11}{'recall':>8}")
        order = ["clean", "20 dB", "10 dB", "5 dB", "strokes-alone", "speech-only"]
        for cond in order:
            if cond not in stats:
                continue
            s = stats[cond]
            n = s["tp"] + s["fn"]
            prec = s["tp"] / (s["tp"] + s["fp"]) if s["tp"] + s["fp"] else float("nan")
            rec = s["tp"] / n if n else float("nan")
            print(f"{cond:<15}{s['files']:>6}{n:>9}{s['tp']:>7}{s['fp']:>7}"
                  f"{prec:>11.3f}{rec:>8.3f}")

    # Diagnostic: the click shape alone, without the stroke window (refractory 0): how many of a
    # stroke's own later sounds would pass as strikes if the window were not there.
    late = passed = 0
    for audio, entry in entries:
        if entry["kind"] == "speech":
            continue
        x = read_wav(audio / entry["file"])
        det = StrikeDetector(refractory_s=0.0, settle_s=0.0)
        found = [t for t, _ in run_detector(array_frames(x, 10.0), det)]
        _, fps, _ = match(found, entry["strikes"])
        late += len(entry["collisions"]) + len(entry["pocket_drops"]) + len(entry["rattles"])
        passed += len(fps)
    if args.live > 0:
        print()
        live(args.live, 10.0)
    print(f"\nwithout the stroke window: {passed} false strikes from {late} collisions, drops and "
          f"rattle knocks (with the window: the 'false' column above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
