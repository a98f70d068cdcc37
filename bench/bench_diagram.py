"""Benchmark of the pictures of calls: every corpus call drawn, time a picture, size a picture.

    .venv/bin/python bench/bench_diagram.py

- every annotated call of corpora/calls/*.jsonl drawn with its own settings (a refused one
  draws its reason): none may raise (the bar: the diagram of every corpus call renders);
- time: p50 / p99 of call_svg over those texts (parse included) and over parsed Calls;
- size: the median and the largest SVG in bytes (a page loads one per standing call).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from pyramid_referee.grammar import Call, parse
from pyramid_referee.teach.diagram import call_svg

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "calls"


def main() -> None:
    records = [
        json.loads(line)
        for path in sorted(CORPUS.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    times, sizes, calls, refused = [], [], [], 0
    for r in records:
        kwargs = {
            "mode": r.get("mode", "clean"),
            "balls_left": r.get("balls_left"),
            "pocket_precision": r.get("pocket_precision", "side_for_corners"),
        }
        t = time.perf_counter()
        svg = call_svg(r["text"], **kwargs)
        times.append(time.perf_counter() - t)
        sizes.append(len(svg.encode("utf-8")))
        refused += 'data-ok="false"' in svg
        result = parse(r["text"], **kwargs)
        if isinstance(result, Call):
            calls.append((result, kwargs["balls_left"]))
    call_times = []
    for call, balls_left in calls:
        t = time.perf_counter()
        call_svg(call, balls_left=balls_left)
        call_times.append(time.perf_counter() - t)

    def q(xs, p):
        return sorted(xs)[min(len(xs) - 1, int(p * len(xs)))] * 1000

    print(
        f"corpus: {len(records)} texts drawn, {len(records) - refused} calls, {refused} refusals, "
        "0 errors"
    )
    print(f"call_svg(text): p50 {q(times, 0.5):.2f} ms, p99 {q(times, 0.99):.2f} ms")
    print(f"call_svg(Call): p50 {q(call_times, 0.5):.2f} ms, p99 {q(call_times, 0.99):.2f} ms")
    print(
        f"size: median {statistics.median(sizes) / 1024:.1f} KB, largest {max(sizes) / 1024:.1f} "
        "KB"
    )


if __name__ == "__main__":
    main()
