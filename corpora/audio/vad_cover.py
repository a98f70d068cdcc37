#!/usr/bin/env python3
"""How much of the calls' word time the voice activity marks as voice, by the voice that said them.

    .venv/bin/python corpora/audio/vad_cover.py [--sources SRC … | all] [--conditions …]
                     [--sessions N] [--strokes N] [--seed N]
    .venv/bin/python corpora/audio/vad_cover.py --speakers

The benchmark's sessions (``strike_eval.fold_sessions``: each source's fold, its conditions) are
fed to the detector's ``VoiceActivity`` in 10 ms blocks. For every word span of every call (a
synthetic call's words; a recorded voice's stretches of talk) it counts the 10 ms frames the voice
activity marks: voiced (periodic in the voice's range), and foreground (a voice as loud as this
room's speakers: what the strike decision reads as talk). Printed per condition and voice kind:
the number of spans, their seconds, and the share of those seconds marked. A knock in a call
that the voice activity does not mark as talk is weighed as a table sound (``voice/strike.py``:
the cascade after a knock in words). ``--speakers``: each recorded speaker's clips alone, over
quiet room noise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


def cover(x: np.ndarray, truth: dict) -> list[tuple[str, float, float, float]]:
    """``(voice kind, share voiced, share foreground, seconds)`` for each word span of each
    call."""
    import strike_eval as ev

    from pyramid_referee.voice.audio import array_frames
    from pyramid_referee.voice.onsets import VoiceActivity

    vad = VoiceActivity()
    vad.keep_all = True
    for fr in array_frames(np.asarray(x, np.float32), 10):
        vad.feed(fr.samples, fr.t0)
    voiced, fg = np.array(vad.voiced), np.array(vad.foreground)
    out = []
    for c in truth.get("calls", []):
        for a, b in c.get("words") or [[c["start"], c["end"]]]:
            n = max(1, round((b - a) / 0.01))

            def share(frames: np.ndarray, a: float = a, b: float = b, n: int = n) -> float:
                return min(1.0, float(((frames >= a) & (frames < b)).sum()) / n)

            out.append((ev.voice_of(c), share(voiced), share(fg), b - a))
    return out


def by_speaker(speech) -> dict[str, tuple[float, float, float]]:
    """Each recorded speaker's clips alone, at a peak of 0.3 after 2 s of quiet room noise (pink,
    -54 dBFS): ``{speaker: (seconds of talk, share voiced, share foreground)}``."""
    import table_mix as tm

    from pyramid_referee.voice.audio import RATE

    out: dict[str, list[float]] = {}
    for clip in speech.of("speech"):
        x = np.asarray(clip.samples, np.float64)
        x = 0.3 * x / (np.abs(x).max() + 1e-12)
        x = np.concatenate([np.zeros(2 * RATE), x])
        x += tm.pink(np.random.default_rng(3), len(x)) * 0.002
        truth = {"calls": [{"engine": "real", "words": [[a + 2, b + 2] for a, b in clip.spans]}]}
        t = out.setdefault(clip.source, [0.0, 0.0, 0.0])
        for _kind, v, f, secs in cover(x, truth):
            t[0] += secs
            t[1] += v * secs
            t[2] += f * secs
    return {k: (s, v / s, f / s) for k, (s, v, f) in sorted(out.items()) if s > 0}


def main(argv=None) -> int:
    import strike_eval as ev

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sources", nargs="*", default=["all"], help='held-out sources, or "all"')
    ap.add_argument("--conditions", nargs="*", default=["clean", "20 dB", "10 dB"])
    ap.add_argument("--sessions", type=int, default=2)
    ap.add_argument("--strokes", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--speakers", action="store_true", help="each recorded speaker's clips alone instead"
    )
    args = ap.parse_args(argv)
    bad = sorted(set(args.conditions) - set(ev.CONDITIONS))
    if bad:
        print(f"unknown condition(s) {bad}; conditions: {list(ev.CONDITIONS)}", file=sys.stderr)
        return 2
    inputs = ev.load_inputs()
    if inputs is None:
        return 2
    bank, speech = inputs
    if args.speakers:
        print("| speaker | seconds of talk | voiced | foreground (talk) |")
        print("|---|---:|---:|---:|")
        for name, (secs, v, f) in by_speaker(speech).items():
            print(f"| {name} | {secs:.0f} | {v:.2f} | {f:.2f} |")
        return 0
    folds = ev.folds(bank, speech)
    names = [f["name"] for f in folds]
    sources = names if args.sources == ["all"] else args.sources
    unknown = sorted(set(sources) - set(names))
    if unknown:
        print(f"unknown source(s) {unknown}; sources: {names}", file=sys.stderr)
        return 2
    totals: dict[tuple[str, str], list[float]] = {}
    for fi, fold in enumerate(folds):
        if fold["name"] not in sources:
            continue
        for cname, _k, _reverb, x, truth in ev.fold_sessions(
            bank, speech, fold, fi, args.conditions, args.sessions, args.strokes, args.seed
        ):
            for voice, v, f, secs in cover(x, truth):
                t = totals.setdefault((cname, voice), [0, 0.0, 0.0, 0.0])
                t[0] += 1
                t[1] += v * secs
                t[2] += f * secs
                t[3] += secs
        print(f"  {fold['name']}: done", file=sys.stderr, flush=True)
    print("| condition | voice | word spans | seconds | voiced | foreground (talk) |")
    print("|---|---|---:|---:|---:|---:|")
    for cname in args.conditions:
        for (c, voice), (n, v, f, secs) in sorted(totals.items()):
            if c == cname:
                print(
                    f"| {cname} | {voice} | {n:.0f} | {secs:.0f} | {v / secs:.2f} | "
                    f"{f / secs:.2f} |"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
