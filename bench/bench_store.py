"""Benchmark the match store: entering strokes, restoring a 10,000-stroke match, memory.

    .venv/bin/python bench/bench_store.py [--strokes 10000] [--db PATH]

Prints:
- strokes entered per second through the real path (call parsed by the grammar,
  outcome notation parsed, judged by the rules engine, written and committed to
  SQLite with WAL + synchronous=FULL: one fsync a stroke), on a sample (``--sample``);
  the rest of the match is built with synchronous=OFF (printed too: the cost
  without the fsync), so the benchmark does not spend minutes in fsync;
- raw store commits per second (``Store.add_stroke`` alone, the same records);
- time to restore the match (open the store, read every stroke, replay it through
  ``Match`` and compare each verdict and state with the stored ones): the bar is
  under 1 s for 10,000 strokes; median and max of several runs;
- peak Python memory during a restore (tracemalloc) and the process's max RSS.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from pyramid_referee.match.session import Session, outcome_from_text
from pyramid_referee.match.store import Store
from pyramid_referee.rules import judge


def stroke_lines(session: Session, rnd: random.Random):
    """Legal strokes for the balls on the table; a stroke that would end the game
    becomes a plain one."""
    while True:
        table = sorted(session.state.on_table)
        b = rnd.choice(table)
        r = rnd.random()
        if r < 0.01 and len(table) > 4:
            call, outcome = f"{b} чисто в правый угол", f"биток {b}, {b} в правый дальний угол"
        elif r < 0.03:
            call, outcome = "-", f"биток {b}; фол г"
        elif r < 0.06:
            call, outcome = f"{b} чисто в левую середину", f"биток {b}"
        else:
            call, outcome = "-", f"биток {b}"
        reading = session.read_call(call)
        _, oc, _ = outcome_from_text(outcome)
        if (
            judge(
                session.state, reading.call, oc, session.settings, call_status=reading.status
            ).result
            is not None
        ):
            call, outcome = "-", f"биток {b}"
        yield call, outcome


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strokes", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument(
        "--sample", type=int, default=300, help="strokes timed with fsync (default 300)"
    )
    ap.add_argument("--db", help="keep the database here (default: a temporary directory)")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = Path(args.db) if args.db else Path(tmp.name) / "bench.sqlite"
    rnd = random.Random(7)

    sample = min(args.sample, args.strokes)
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"], {})
        gen = stroke_lines(s, rnd)
        # 1. the real path with synchronous=FULL (one fsync a stroke), on a sample
        t0 = time.perf_counter()
        for _ in range(sample):
            call, outcome = next(gen)
            s.enter(call, outcome)
        full_s = time.perf_counter() - t0
        # 2. the rest of the 10,000 built without fsync (the build is not what is measured)
        store.con.execute("PRAGMA synchronous=OFF")
        t0 = time.perf_counter()
        for _ in range(args.strokes - sample):
            call, outcome = next(gen)
            s.enter(call, outcome)
        off_s = time.perf_counter() - t0
        store.con.execute("PRAGMA synchronous=FULL")
        mid = s.id
        shown_state = s.state.to_json()
        records = [r.record for r in store.strokes(mid)][:sample]
        # 3. raw store commits (FULL): the same records into a second match
        m2 = store.new_match(["Аня", "Боря"], {}, None)
        t0 = time.perf_counter()
        for rec in records:
            store.add_stroke(m2, rec)
        raw_s = time.perf_counter() - t0

    print(
        "strokes entered, real path (call parsed, outcome notation parsed, judged, committed "
        f"with synchronous=FULL): {sample / full_s:,.0f} strokes/s ({1000 * full_s / sample:.2f} "
        f"ms each, {sample} strokes)"
    )
    if args.strokes > sample:
        n = args.strokes - sample
        print(
            f"the same without fsync (synchronous=OFF, building the rest): {n / off_s:,.0f} "
            f"strokes/s ({1000 * off_s / n:.2f} ms each)"
        )
    print(
        "raw store commits (Store.add_stroke alone, synchronous=FULL): "
        f"{len(records) / raw_s:,.0f} strokes/s ({1000 * raw_s / len(records):.2f} ms each)"
    )
    wal = Path(str(db) + "-wal")
    print(
        f"database: {db.stat().st_size / 1e6:.1f} MB"
        + (f" + WAL {wal.stat().st_size / 1e6:.1f} MB" if wal.exists() else "")
        + f" for {args.strokes + len(records)} strokes"
    )

    times, cpus = [], []
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        with Store(db) as store:
            r = Session(store, mid)
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        assert r.mismatches == [], r.mismatches[:3]
        assert r.seq == args.strokes and r.state.to_json() == shown_state
    verdict = (
        "under the bar"
        if statistics.median(times) < 1.0
        else "OVER THE BAR (see the load average)"
    )
    print(
        f"restore {args.strokes} strokes (open, read, replay through Match, compare every verdict "
        f"and the final state): wall median {statistics.median(times):.3f} s, "
        f"max {max(times):.3f} s; CPU median "
        f"{statistics.median(cpus):.3f} s; {args.runs} runs (bar: < 1 s) -> "
        f"{verdict}"
    )
    print(
        f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on "
        f"{os.cpu_count()} cores"
    )

    tracemalloc.start()
    with Store(db) as store:
        Session(store, mid)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"peak Python memory during a restore (tracemalloc): {peak / 1e6:.1f} MB; process max "
        f"RSS: {rss:.0f} MB"
    )
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
