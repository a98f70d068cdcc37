"""Benchmark of the call parser: prints calls/s, p50/p99 latency, whole-process validate, fuzz worst case.

    .venv/bin/python bench/bench_parse.py [--calls 20000] [--fuzz 20000] [--lines 20000]

- in-process: parse() (lexer, every tagging, LALR, assembly, ambiguity check
  included) over a varied set of distinct inputs: the annotated corpus (each
  with its own settings) plus calls rendered from random calls, some of them
  corners without a side under pocket_precision "any" (Q2); the parser keeps
  no result cache.
- whole-process: ``python -m pyramid_referee validate FILE`` on a generated
  file (interpreter start-up included).
- fuzz: random word salads from the vocabulary and random Unicode, under both
  pocket_precision settings; the slowest input met.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyramid_referee.grammar import Call, Pocket, parse, render, vocabulary

ROOT = Path(__file__).resolve().parent.parent


def random_call(rng: random.Random) -> tuple[Call, str, list | None, str]:
    kind = rng.choice(["corner", "middle"])
    side = rng.choice(["left", "right", None]) if kind == "corner" else rng.choice([None, "left", "right"])
    end = rng.choice([None, "near", "far"]) if kind == "corner" else None
    pocket = Pocket(kind, side, end)
    # a corner without a side is a call only under pocket_precision "any" (Q2)
    precision = "any" if (kind == "corner" and side is None) or rng.random() < 0.2 else "side_for_corners"
    ball = rng.randint(1, 15)
    if rng.random() < 0.2:
        return Call(ball, pocket, None), "ball_and_pocket", None, precision
    others = [b for b in range(1, 16) if b != ball]
    rng.shuffle(others)
    caroms = others[: rng.choice([0, 0, 0, 1, 2])]
    rest = others[len(caroms):]
    drivers = rest[: rng.choice([0, 0, 1, 1, 2, 3])]
    kisses = rest[len(drivers): len(drivers) + rng.choice([0, 0, 1])]
    own = kisses + ["cushion"] * rng.choice([0, 0, 1, 2]) + (["contre_coup"] if rng.random() < 0.05 else [])
    rng.shuffle(own)
    route = [("cue", "cushion")] if rng.random() < 0.15 else []
    route += [("cue", x) for x in caroms]
    prev = "cue"
    for x in drivers:
        route.append((prev, x))
        prev = x
    route += [(prev, ball)] + [(ball, t) for t in own] + [(ball, "pocket")]
    return Call(ball, pocket, tuple(route)), "clean", None, precision


def corpus() -> list[tuple[str, str, list | None, str]]:
    out = []
    for path in sorted((ROOT / "corpora" / "calls").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            out.append((r["text"], r.get("mode", "clean"), r.get("balls_left"),
                        r.get("pocket_precision", "side_for_corners")))
    return out


def inputs(n: int, rng: random.Random) -> list[tuple[str, str, list | None, str]]:
    out = corpus()
    seen = {t for t, _, _, _ in out}
    while len(out) < n:
        call, mode, left, precision = random_call(rng)
        text = render(call)
        if rng.random() < 0.5:  # shuffle the phrases' order a little: still distinct texts
            text = text.replace(" в ", " , в ", 1)
        if text in seen:
            text = rng.choice(["ну ", "так ", "давай ", "заказываю ", ""]) + text
        if text not in seen:
            seen.add(text)
            out.append((text, mode, left, precision))
    return out


def in_process(items) -> None:
    for text, mode, left, precision in items[:200]:  # warm up the interpreter's caches
        parse(text, mode=mode, balls_left=left, pocket_precision=precision)
    lat = []
    refused = 0
    c0 = time.process_time()
    t0 = time.perf_counter()
    for text, mode, left, precision in items:
        s = time.perf_counter_ns()
        r = parse(text, mode=mode, balls_left=left, pocket_precision=precision)
        lat.append(time.perf_counter_ns() - s)
        refused += not isinstance(r, Call)
    total = time.perf_counter() - t0
    cpu = time.process_time() - c0
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    print(f"in-process parse: {len(items)} distinct inputs ({refused} refused) in {total:.3f} s "
          f"= {len(items) / total:,.0f} calls/s (CPU time {cpu:.3f} s = {len(items) / cpu:,.0f} calls/s "
          f"per core; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"  latency: p50 {q[49] / 1000:.1f} us, p90 {q[89] / 1000:.1f} us, p99 {q[98] / 1000:.1f} us, "
          f"max {lat[-1] / 1000:.1f} us")


def whole_process(items, lines: int) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as fh:
        for i in range(lines):
            fh.write(items[i % len(items)][0].replace("\n", " ") + "\n")
        path = fh.name
    try:
        cmd = [sys.executable, "-m", "pyramid_referee", "validate", path]
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        total = time.perf_counter() - t0
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pyramid_referee", "--help"], capture_output=True)
        start = time.perf_counter() - t0
    finally:
        os.unlink(path)
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr.strip()
    print(f"whole-process validate: {lines} lines in {total:.2f} s = {lines / total:,.0f} calls/s "
          f"(exit {r.returncode}; interpreter + CLI start-up alone {start:.2f} s)")
    print(f"  {summary}")


def fuzz(n: int, rng: random.Random) -> None:
    """Random word salads, random Unicode and repeated ambiguous fragments; the
    slowest inputs are timed again (best of 5) to tell their cost from noise."""
    vocab = vocabulary() + ["12", "7-м", "№3", "3-мя", "12-го", ",", "такого-то", "привет"]
    fragments = ["7 шаром 12", "в середину", "чисто", "от борта", "двенадцатого", "тройку",
                 "шестёркой", "от шестёрки", "в левый угол", "карамболем от семёрки", "тремя шарами",
                 "в угол", "со стороны игрока", "на противоположной стороне", "туза"]
    timed = []
    t0 = time.perf_counter()
    for i in range(n):
        kind = i % 3
        if kind == 0:
            text = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 70)))
        elif kind == 1:
            text = "".join(chr(rng.choice([rng.randint(32, 0x4FF), rng.randint(0x400, 0x44F),
                                           rng.randint(0x1F300, 0x1F6FF), 32]))
                           for _ in range(rng.randint(0, 300)))
        else:
            text = " ".join(rng.choice(fragments) for _ in range(rng.randint(1, 25)))
        precision = "any" if i % 2 else "side_for_corners"
        s = time.perf_counter()
        r = parse(text, pocket_precision=precision)
        timed.append((time.perf_counter() - s, text, precision))
        assert r is not None
    total = time.perf_counter() - t0
    timed.sort(reverse=True)
    raw_worst = timed[0][0]
    retimed = []
    for _, text, precision in timed[:20]:
        best = min(_time_once(text, precision) for _ in range(5))
        retimed.append((best, text, precision))
    retimed.sort(reverse=True)
    worst, text, precision = retimed[0]
    print(f"fuzz: {n} inputs in {total:.2f} s; slowest single timing {raw_worst * 1000:.2f} ms; "
          f"slowest input re-timed (best of 5) {worst * 1000:.2f} ms (pocket_precision {precision}):")
    print(f"  {text[:200]!r}{'…' if len(text) > 200 else ''}")


def _time_once(text: str, precision: str) -> float:
    s = time.perf_counter()
    parse(text, pocket_precision=precision)
    return time.perf_counter() - s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--fuzz", type=int, default=20000)
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    items = inputs(args.calls, rng)
    rng.shuffle(items)
    in_process(items)
    whole_process(items, args.lines)
    fuzz(args.fuzz, rng)


if __name__ == "__main__":
    main()
