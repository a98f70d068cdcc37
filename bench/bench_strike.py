#!/usr/bin/env python3
"""Benchmark of the strike detector on recorded billiards sounds, leave-one-source-out.

    .venv/bin/python bench/bench_strike.py [--sessions 3] [--sources SRC …] [--live SECONDS] [--verbose]

Audio is mixed by ``corpora/audio/table_mix.py`` from the recordings in ``../shared/sounds`` (read
in place; ``$PYRAMID_SOUNDS_DIR`` elsewhere): Russian calls (espeak-ng, several voices), real cue
strikes, their own collisions, cushions and pocket drops, balls still rolling, racks, claps,
chatter and speech over the strike, club-room reverberation, pink / babble / mains-hum noise.

**Leave-one-source-out**: for each source repository that has a cue recording, the sound model is
refitted on the feature rows of every *other* source (``corpora/audio/fit_sound_model.py``), and the
sessions are built only from that source's recordings. Every figure is therefore on recordings
the model never saw. Conditions: clean (with the room), 20, 10 and 5 dB SNR (noise and room
alternate); the user-report pattern (a strike every 4.8 s, the next call inside the previous
stroke, the strike 1 s after it); and each recording alone, padded with a second of near-silence
(context-free: what the sound alone makes the detector say).

Prints recall, precision, false strikes per hour of speech and per 1,000 stroke sounds (by what
made them), onset error, report latency p50/p95/max (stream time at the report − true onset,
10 ms blocks) and the detector's CPU share — per condition and per held-out source.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "corpora" / "audio"))

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


CONDITIONS = (("clean", None, "pink", True), ("20 dB", 20, "pink", False), ("20 dB", 20, "babble", True),
              ("10 dB", 10, "hum", True), ("10 dB", 10, "mix", False), ("5 dB", 5, "babble", False),
              ("5 dB", 5, "pink", True))


def pct(a, q):
    return float(np.percentile(a, q)) if len(a) else float("nan")


def cue_sources(bank) -> list[str]:
    return sorted({s.source for s in bank.of("cue") if s.clear_onset})


def main(argv=None) -> int:
    import strike_eval as ev
    import table_mix as tm

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=2, help="sessions per source and condition (5 strokes each)")
    ap.add_argument("--sources", nargs="*", default=None, help="held-out sources (default: every one with a cue)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--live", type=float, default=0.0, metavar="SECONDS",
                    help="also measure the live microphone path's CPU for this long (0: skip)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)

    bank = tm.load_bank()
    sources = args.sources or cue_sources(bank)
    t_start = time.perf_counter()
    by_cond: dict[str, ev.Score] = {}
    by_source: dict[str, dict[str, ev.Score]] = {}
    isolated: dict[str, list] = {}
    rng = np.random.default_rng(args.seed)
    for src in bank.sources():
        model = ev.model_without(src)
        for s in bank:
            if s.source != src or s.kind == "break":
                continue
            x, _ = tm.isolated(bank, s, rng=rng)
            det, reports, _ = ev.run(x, model)
            isolated.setdefault(s.kind + (" (doubtful)" if s.doubtful or not s.clear_onset else ""), []).append(
                (s.name, len(reports)))
    for src in sources:
        model = ev.model_without(src)
        per = by_source.setdefault(src, {})
        for name, snr, noise, reverb in CONDITIONS:
            for k in range(args.sessions):
                x, truth = tm.make_session(rng, bank, sources={src}, n_strokes=5, snr_db=snr, noise=noise,
                                           reverb=reverb, **tm.REALISTIC)
                sc = ev.score(x, truth, model, tag=f"{src}/{name}/{noise}/{k}")
                by_cond.setdefault(name, ev.Score()).add(sc)
                per.setdefault(name, ev.Score()).add(sc)
                if args.verbose and (sc.missed or sc.false):
                    print(f"  {src} {name} {noise} #{k}: missed {sc.missed} false {sc.false}")
        for name, snr in (("pattern 4.8 s", None), ("pattern 4.8 s", 20), ("pattern 4.8 s", 10)):
            x, truth = tm.fixed_pattern(rng, bank, sources={src}, snr_db=snr)
            sc = ev.score(x, truth, model, tag=f"{src}/pattern/{snr}")
            by_cond.setdefault(name, ev.Score()).add(sc)
            per.setdefault(name, ev.Score()).add(sc)
            if args.verbose and (sc.missed or sc.false):
                print(f"  {src} pattern {snr}: missed {sc.missed} false {sc.false}")
        print(f"  held out {src}: done ({time.perf_counter() - t_start:.0f} s)", file=sys.stderr)

    total = ev.Score()
    for sc in by_cond.values():
        total.add(sc)
    print(f"\n== strike detector, leave-one-source-out: {len(sources)} held-out sources, "
          f"{total.audio_s / 60:.0f} min of audio, {total.strikes} strikes ==")
    print(f"CPU, detector alone (onsets + voicing + model + strokes): {100 * total.cpu_s / total.audio_s:.2f} % of one core")
    lat = np.array(total.latency) * 1000
    err = np.array(total.onset_err) * 1000
    print(f"report latency (ms, stream time at report − true onset, 10 ms blocks): p50 {pct(lat, 50):.1f}  "
          f"p95 {pct(lat, 95):.1f}  max {lat.max() if len(lat) else float('nan'):.1f}")
    print(f"onset error (ms, reported − true): median {pct(err, 50):+.1f}  p5 {pct(err, 5):+.1f}  "
          f"p95 {pct(err, 95):+.1f}  max |err| {np.abs(err).max() if len(err) else float('nan'):.1f}")
    print(f"\n{'condition':<15}{'strikes':>8}{'found':>7}{'recall':>8}{'precision':>10}{'false':>7}"
          f"{'/h speech':>10}{'/1000 snd':>10}{'unsure':>8}  false strikes from")
    for name in ("clean", "20 dB", "10 dB", "5 dB", "pattern 4.8 s"):
        sc = by_cond.get(name)
        if sc is None:
            continue
        speech = sc.false.get("speech", 0)
        table = sc.n_false - speech
        print(f"{name:<15}{sc.strikes:>8}{sc.found:>7}{sc.recall:>8.3f}{sc.precision:>10.3f}{sc.n_false:>7}"
              f"{speech / (sc.speech_s / 3600) if sc.speech_s else 0:>10.1f}"
              f"{1000 * table / sc.stroke_sounds if sc.stroke_sounds else 0:>10.1f}{sc.unsure_strikes:>8}  "
              f"{dict(sorted(sc.false.items())) or '-'}")
    print("\nper held-out source (recall, false strikes) at clean / 20 / 10 / 5 dB / pattern:")
    for src, per in by_source.items():
        cells = []
        for name in ("clean", "20 dB", "10 dB", "5 dB", "pattern 4.8 s"):
            sc = per.get(name)
            cells.append(f"{sc.found}/{sc.strikes} f{sc.n_false}" if sc else "-")
        print(f"  {src:<18}" + "  ".join(f"{c:>11}" for c in cells))
    print("\neach recording alone (padded with a second of near-silence; the model without its source):")
    for kind in sorted(isolated):
        got = isolated[kind]
        n = sum(1 for _, k in got if k)
        print(f"  {kind:<20} {n:>2} of {len(got):>2} read as a strike"
              + (f": {[nm for nm, k in got if k]}" if n and kind != "cue" else "")
              + (f"; missed: {[nm for nm, k in got if not k]}" if kind == "cue" and n < len(got) else ""))
    missed = total.missed
    if missed:
        print(f"\nmissed strikes ({len(missed)}):")
        for m in missed[:40]:
            print("  ", m)
    print(f"\n({time.perf_counter() - t_start:.0f} s)")
    if args.live > 0:
        print()
        live(args.live, 10.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
