"""Benchmark a table's stroke latency with and without ``--club`` (issue 10's second bar).

    .venv/bin/python bench/bench_club.py [--strokes 300] [--club URL]

Without ``--club`` a throw-away PostgreSQL cluster is started (``tests/pg_cluster.py``:
initdb, a Unix socket in its own folder) and removed at the end.

Prints, for one table entering strokes through the real path (``Session.enter``: the
outcome notation parsed, judged, committed to SQLite with ``synchronous=FULL``) and the
``notify`` ``play`` gives the sync after each stroke, the latency p50 / p95 / max:
- without a club sync;
- with the sync running against a live server;
- with the server stopped (the queue grows), and then how long after the restart the
  queue is empty again (the bar: within 10 s).
The three runs use separate match stores, in that order, then the first is run again so a
warm-up effect shows.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pyramid_referee.club import schema  # noqa: E402
from pyramid_referee.club.sync import ClubSync, save_link  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402


def _run(db: str, n: int, sync: ClubSync | None) -> list[float]:
    times = []
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        for i in range(n):
            t0 = time.perf_counter()
            s.enter("-", f"биток {1 + i % 15}")
            if sync is not None:
                sync.notify()
            times.append(time.perf_counter() - t0)
    return times


def _fmt(name: str, t: list[float]) -> str:
    q = statistics.quantiles(t, n=20)
    return f"{name:<34} p50 {statistics.median(t) * 1e3:6.2f} ms   p95 {q[18] * 1e3:6.2f} ms   max {max(t) * 1e3:6.2f} ms"


def _registered(url: str, db: str, name: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        schema.migrate(con)
        table_id, key = schema.register(con, name)
    with Store(db) as store:
        save_link(store, url, table_id, name, key)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strokes", type=int, default=300)
    ap.add_argument("--club", default=None, help="an existing club database (default: a throw-away cluster)")
    args = ap.parse_args()
    cluster = None
    if args.club is None:
        from pg_cluster import Cluster

        cluster = Cluster()
        cluster.start()
        url = cluster.new_database()
    else:
        url = args.club
    tmp = Path(tempfile.mkdtemp(prefix="bench-club-"))
    try:
        print(_fmt("without --club", _run(str(tmp / "a.sqlite"), args.strokes, None)))
        db = str(tmp / "b.sqlite")
        _registered(url, db, f"bench {time.time()}")
        sync = ClubSync(db, url, retry_s=0.5).start()
        try:
            print(_fmt("with --club, server up", _run(db, args.strokes, sync)))
            if cluster is not None:
                db2 = str(tmp / "c.sqlite")
                _registered(url, db2, f"bench down {time.time()}")
                sync2 = ClubSync(db2, url, retry_s=0.5).start()
                try:
                    cluster.stop("immediate")
                    print(_fmt("with --club, server down", _run(db2, args.strokes, sync2)))
                    print(f"queued while down: {sync2.status().queued}")
                    cluster.start()
                    t0 = time.monotonic()
                    while not (sync2.status().online and sync2.status().queued == 0):
                        if time.monotonic() - t0 > 60:
                            break
                        time.sleep(0.05)
                    print(f"queue empty {time.monotonic() - t0:.2f} s after the restart (bar: 10 s)")
                finally:
                    sync2.stop()
        finally:
            sync.stop()
        print(_fmt("without --club (again)", _run(str(tmp / "d.sqlite"), args.strokes, None)))
    finally:
        if cluster is not None:
            cluster.destroy()
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
