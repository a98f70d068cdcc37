"""Benchmark the club board: how long its reads take, and a stroke's way to an open board.

    .venv/bin/python bench/bench_club_board.py [--tables 20] [--strokes 200] [--samples 40]
        [--club URL]

Without ``--club`` a throw-away PostgreSQL cluster is started (``tests/pg_cluster.py``) and
removed at the end. ``--tables`` tables are registered, each with a match of ``--strokes``
strokes replicated by the real ``ClubSync``. Prints:
- ``board.tables`` and ``board.club`` (the day, the players' statistics): median and max of 20
  reads;
- a real ``serve --club`` showing the board alone, one ``/api/club/events`` stream open: for
  ``--samples`` strokes, each on the next table, the time from the table's drain having
  committed the stroke on the server to the board's event carrying it (p50 / p95 / max).
This is one board process and one table at a time: the 100-table load run is another bench.
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pyramid_referee.club import board, schema  # noqa: E402
from pyramid_referee.club.sync import ClubSync, save_link  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402


def _fmt(name: str, t: list[float]) -> str:
    q = statistics.quantiles(t, n=20) if len(t) > 1 else t * 19
    return (
        f"{name:<44} p50 {statistics.median(t) * 1e3:7.2f} ms   p95 {q[18] * 1e3:7.2f} ms   "
        f"max {max(t) * 1e3:7.2f} ms"
    )


def _events(url: str, out: queue.Queue) -> None:
    with urllib.request.urlopen(url, timeout=60) as r:
        data = None
        for raw in r:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("data: "):
                data = line[6:]
            elif not line and data is not None:
                out.put((time.perf_counter(), json.loads(data)))
                data = None


def main() -> int:
    import psycopg

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--strokes", type=int, default=200)
    ap.add_argument("--samples", type=int, default=40)
    ap.add_argument("--club", default=None)
    args = ap.parse_args()
    cluster = None
    if args.club is None:
        from pg_cluster import Cluster

        cluster = Cluster()
        cluster.start()
        url = cluster.new_database()
    else:
        url = args.club
    tmp = Path(tempfile.mkdtemp(prefix="bench-club-board-"))
    server = None
    try:
        dbs = []
        with psycopg.connect(url, autocommit=True) as con:
            schema.migrate(con)
            for i in range(args.tables):
                name = f"Стол {i + 1}"
                table_id, key = schema.register(con, name)
                db = str(tmp / f"t{i}.sqlite")
                with Store(db) as store:
                    save_link(store, url, table_id, name, key)
                    s = Session.create(
                        store, [f"Игрок {2 * i}", f"Игрок {2 * i + 1}"], {"target": 10_000}
                    )
                    for n in range(args.strokes):
                        s.enter("-", f"биток {1 + n % 15}")
                ClubSync(db, url).drain()
                dbs.append(db)
        with psycopg.connect(url, autocommit=True) as con:
            for name, fn in (("board.tables", board.tables), ("board.club", board.club)):
                times = []
                for _ in range(20):
                    t0 = time.perf_counter()
                    fn(con, "ru")
                    times.append(time.perf_counter() - t0)
                print(_fmt(f"{name} ({args.tables} tables × {args.strokes} strokes)", times))

        from web_server import Server

        server = Server(tmp / "manager.sqlite", "--club", url)
        events: queue.Queue = queue.Queue()
        threading.Thread(
            target=_events, args=(server.base + "/api/club/events", events), daemon=True
        ).start()
        events.get(timeout=30)  # the board as it is
        lat = []
        for k in range(args.samples):
            i = k % len(dbs)
            with Store(dbs[i]) as store:
                s = Session.open(store)
                s.enter("-", f"биток {1 + k % 15}")
                seq = s.seq
            ClubSync(dbs[i], url).drain()  # committed on the server when this returns
            t0 = time.perf_counter()
            while True:
                at, state = events.get(timeout=30)
                t = next(t for t in state["tables"] if t["name"] == f"Стол {i + 1}")
                if t["seq"] >= seq:
                    lat.append(at - t0)
                    break
        print(_fmt("server commit → /api/club/events", lat))
    finally:
        if server is not None:
            server.stop()
        if cluster is not None:
            cluster.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
