"""Load run of the club server (bar: nothing lost or doubled): many tables striking, the server
killed once.

    .venv/bin/python bench/bench_club_load.py [--tables 100] [--interval 0.5] [--duration 120]
        [--outage 5] [--procs 4] [--observer board | poll | module:Class] [--server-dir /dev/shm]

A smoke run: ``--tables 5 --duration 20 --outage 3``.

A throw-away PostgreSQL cluster (``tests/pg_cluster.py``) is started with room for one
connection per table. Each simulated table has its own SQLite store, registered on the server
with its own key, and runs the real paths: ``Session.enter`` (the outcome parsed, judged,
committed with ``synchronous=FULL``), then ``notify`` to its own ``ClubSync`` (the real
replication thread, as ``club sync`` and the tables' sync child run it). The tables are spread
over ``--procs`` processes (2 cores: a hundred Python processes would thrash); inside a
process one thread strikes for all its tables on a fixed schedule (table i every
``--interval`` s, the tables evenly staggered) and each table's sync is its own thread.

At half time the server is stopped with ``pg_ctl -m immediate`` (SIGQUIT: no shutdown
checkpoint, every connection cut, as a crash), kept away ``--outage`` s, and started again.

Printed:
- strokes per table (min / max) and in all;
- lost and doubled on the server: each table's local strokes against the server's rows of
  that table, by stable id (match, local id, seq, status); both must be 0;
- every local store intact: ``PRAGMA integrity_check`` and strokes in the store = strikes made;
- replication lag (server ``received`` - local commit) p50 / p95 / max for the strokes made
  while the server was up (not those made from the kill until the catch-up);
- catch-up: from the restart until the server has received every stroke committed before it
  (the bar: 10 s), and until every table's own status said "connected, nothing queued";
- the board's update latency (seen by the observer - local commit) p50 / p95 / max while up
  (the bar: p95 <= 1 s);
- peak memory (max RSS) and CPU (user + system) of the tables' processes, the machine's CPU
  use over the run and how long some task waited for I/O (Linux pressure stall information:
  the machine is shared, and a stroke's commit waits for the disk).

The exit status is 1 when a bar is missed (lost, doubled, a store damaged or short, a stroke
the observer never saw, catch-up over 10 s, board p95 over 1 s), else 0.

The observer. By default (``--observer board``) it is the real club board: ``BoardObserver``
starts ``serve --club URL --lang ru`` on a free port with a fresh, unregistered ``--db`` (the
board alone, as on a manager's computer), logged in as a login role made here that holds only
``pyramid_board`` (read only: what docs/club.md tells a club to give the board's computer; the
cluster's superuser makes that role and the tables' registrations, as the server's owner would).
It reads ``GET /api/club/events`` with httpx; for each ``state`` event, a table whose ``seq``
(the last active stroke shown) went up in its ``match`` from a to b has strokes a+1..b seen at
that moment (its score and verdict now include each of them). The board reconnects to
PostgreSQL by itself after the kill; the stream stays open (printed: state events, streams
opened, events saying the club server is away), and were it dropped the observer reads it again.
The board's own part is printed too: seen - the server's ``received`` (the stroke's
transaction start on the server).

``--observer poll`` is the stand-in used before the board was built: ``PollingObserverStandIn``
reads ``club_strokes`` by ``received`` ten times a second; it measures "visible on the server"
plus up to 100 ms of polling, not the board. Any class with the ``Observer`` interface plugs in
with ``--observer module:Class``: it is built with the club URL, started before the tables
strike, calls ``self.saw(table_id, match_id, seq)`` for each stroke it is shown, and is stopped
at the end.

Figures (2 cores shared; two full runs with the defaults on a quiet machine, load average
0.3 / 1.0 at their start, most of the load then being the run itself; README's bench table has
the same):
- 24,000 strokes, lost 0, doubled 0; 100/100 stores pass ``integrity_check`` with every stroke;
- replication lag while up p50 51 / 51 ms, p95 53 / 54 ms, max 92 / 95 ms;
- catch-up: every earlier stroke on the server 1.21 / 1.47 s after the restart, every table's
  status connected with an empty queue by 1.46 / 1.72 s;
- **the board (``BoardObserver``) p50 120 / 120 ms, p95 179 / 171 ms, max 291 / 427 ms** while
  up, none unseen; its own part (after the server received the stroke) p50 69 / 69 ms, p95
  128 / 120 ms, max 236 / 376 ms. 1,488 / 1,493 state events over one stream (6 of them saying
  the club server was away), about 12 a second: a cycle of ~84 ms, of which 50 ms is
  ``DEBOUNCE_S`` and the rest the re-read and its sending (not timed apart in this run:
  bench_club_board.py times ``board.tables`` at 100 tables p50 21 ms, ``board.club``, read
  every 2 s, p50 38 ms);
- stroke under load p50 1.40 / 1.30 ms, p95 4.23 / 4.38 ms; strikes late vs schedule p95
  1.6 / 2.2 ms; tables' processes 48 / 46 % of one core, 69 MB RSS each; machine CPU 49 / 50 %
  of 2 cores, I/O stalls 4.5 / 4.6 s.
An earlier run while the test suite loaded the machine (load average 7 at its
end, strikes up to 5.7 s behind schedule, I/O stalls 15.7 s) still met every bar: board p95
397 ms, max 902 ms, catch-up 1.82 s.
The stand-in's figures, for comparison (an earlier full run, quiet machine): p95 172 ms, max
326 ms, catch-up 1.14 s.

Figures of the last full run are in the README's bench table.
"""

from __future__ import annotations

import argparse
import heapq
import importlib
import json
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pyramid_referee.club import schema  # noqa: E402
from pyramid_referee.club.sync import ClubSync, save_link  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402

_UNKNOWN, _OFFLINE, _ONLINE = -1, 0, 1


# ---------------------------------------------------------------------------- observers
class Observer:
    """Sees strokes arrive for the club board: ``seen[(table_id, match_id, seq)]`` = the wall
    time it first saw each. Subclasses run in a thread of their own between start and stop."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: dict[tuple[int, int, int], float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def saw(self, table_id: int, match_id: int, seq: int) -> None:
        self.seen.setdefault((int(table_id), int(match_id), int(seq)), time.time())

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name=type(self).__name__, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def run(self) -> None:
        raise NotImplementedError


class PollingObserverStandIn(Observer):
    """A stand-in for the board: polls club_strokes by received time at 10 Hz (no LISTEN)."""

    PERIOD_S = 0.1
    OVERLAP_S = 5.0  # a transaction that began earlier may commit later: look back this far

    def run(self) -> None:
        import psycopg

        con = None
        since = 0.0
        while not self._stop.wait(self.PERIOD_S):
            try:
                if con is None or con.closed:
                    con = psycopg.connect(self.url, autocommit=True, connect_timeout=2)
                rows = con.execute(
                    "SELECT table_id, match_id, seq, extract(epoch FROM received) FROM "
                    "club_strokes WHERE received > to_timestamp(%s)",
                    (since - self.OVERLAP_S,),
                ).fetchall()
            except psycopg.Error:  # the server is away: try again next period
                if con is not None:
                    con.close()
                con = None
                continue
            for table_id, match_id, seq, received in rows:
                self.saw(table_id, match_id, seq)
                since = max(since, float(received))
        if con is not None:
            con.close()


class BoardObserver(Observer):
    """The real club board: a ``serve --club URL`` process showing the board alone (its store, a
    fresh ``--db`` in a temp dir, is no registered table), logged in as a manager's board computer
    would be: a login role holding ``pyramid_board`` (read only, schema v3), made here with the
    cluster's superuser. Its ``GET /api/club/events`` stream is read with httpx; each ``state``
    event's ``tables`` give, per table, ``id``, ``match`` and ``seq`` (the last active stroke the
    board shows). When a table's ``seq`` in a match goes up from a to b, strokes a+1..b are counted
    as seen at that event: the board's score and verdict now include each of them (a burst folded
    into one read shows several strokes at once). The board reconnects to PostgreSQL by itself
    after the kill and the stream stays open; if serve ends the stream anyway, it is read again."""

    LOGIN = "bench_board"

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.events = 0  # state events read
        self.streams = 0  # times the stream was opened
        self.offline_events = 0  # state events saying the board has lost the club server
        self.errors: list[str] = []
        self._client = None
        self._server = None
        self._tmp = None
        self._shown: dict[tuple[int, int], int] = {}

    def _board_url(self) -> str:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url, autocommit=True) as con:
            con.execute(
                sql.SQL("CREATE ROLE {} LOGIN IN ROLE pyramid_board").format(
                    sql.Identifier(self.LOGIN)
                )
            )
        base, _, query = self.url.partition("?")
        params = [p for p in query.split("&") if p and not p.startswith("user=")]
        return f"{base}?{'&'.join(params + ['user=' + self.LOGIN])}"

    def start(self) -> None:
        import httpx
        from web_server import Server

        self._tmp = tempfile.TemporaryDirectory(prefix="bench-club-board-")
        self._server = Server(
            Path(self._tmp.name) / "manager.sqlite", "--club", self._board_url(), "--lang", "ru"
        )
        if not any("табло" in line for line in self._server.lines):
            raise RuntimeError(
                "serve did not show the board alone: " + "\n".join(self._server.lines)
            )
        for f in (
            self._server.proc.stdout,
            self._server.proc.stderr,
        ):  # keep the pipes from filling
            threading.Thread(target=lambda f=f: [None for _ in f], daemon=True).start()
        self._client = httpx.Client(timeout=httpx.Timeout(5.0, read=60.0))
        super().start()

    def stop(self) -> None:
        self._stop.set()
        if self._server is not None:
            self._server.stop()  # ends the stream, so the reader returns
        super().stop()
        if self._client is not None:
            self._client.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    def _state(self, board: dict) -> None:
        self.events += 1
        self.offline_events += board["server"].get("online") is False
        for t in board["tables"]:
            if t.get("match") is None:
                continue
            key, seq = (int(t["id"]), int(t["match"])), int(t["seq"])
            shown = self._shown.get(key, 0)
            for s in range(shown + 1, seq + 1):
                self.saw(key[0], key[1], s)
            if seq > shown:
                self._shown[key] = seq

    def run(self) -> None:
        import httpx

        while not self._stop.is_set():
            try:
                with self._client.stream("GET", self._server.base + "/api/club/events") as r:
                    r.raise_for_status()
                    self.streams += 1
                    data: list[str] = []
                    for line in r.iter_lines():
                        if line.startswith("data:"):
                            data.append(line[5:].removeprefix(" "))
                        elif not line and data:
                            self._state(json.loads("\n".join(data)))
                            data = []
            except (httpx.HTTPError, json.JSONDecodeError) as exc:
                if not self._stop.is_set():
                    self.errors.append(f"{type(exc).__name__}: {exc}")
            if self._server.proc.poll() is not None:
                if not self._stop.is_set():
                    self.errors.append(f"serve ended with status {self._server.proc.returncode}")
                return
            self._stop.wait(0.2)

    def describe(self) -> str:
        return (
            f"{self.events} state events over {self.streams} stream(s), {self.offline_events} of "
            "them saying"
            " the club server is away"
            + (f"; stream errors: {'; '.join(self.errors[:3])}" if self.errors else "")
        )


def _observer(spec: str, url: str) -> Observer:
    if spec == "board":
        return BoardObserver(url)
    if spec == "poll":
        return PollingObserverStandIn(url)
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)(url)


# ---------------------------------------------------------------------------- the tables
def _tables(
    dbs: list[str],
    url: str,
    start: float,
    duration: float,
    interval: float,
    stagger: list[float],
    out: str,
    shared,
    first: int,
) -> None:
    """One process: strike for its tables until start + duration, each with its own sync."""
    sessions, syncs = [], []
    for db in dbs:
        store = Store(db)
        sessions.append(Session.create(store, ["Аня", "Боря"]))
        syncs.append(ClubSync(db, url).start())
    done = threading.Event()

    def publish() -> None:  # the tables' status lines, for the main process to watch
        while not done.wait(0.05):
            for i, sync in enumerate(syncs):
                st = sync.status()
                shared[2 * (first + i)] = (
                    _UNKNOWN if st.online is None else (_ONLINE if st.online else _OFFLINE)
                )
                shared[2 * (first + i) + 1] = st.queued

    publisher = threading.Thread(target=publish, daemon=True)
    publisher.start()
    strokes: list[list] = [[] for _ in dbs]
    late = []
    heap = [(start + stagger[i], i) for i in range(len(dbs))]
    heapq.heapify(heap)
    end = start + duration
    while heap:
        due, i = heapq.heappop(heap)
        if due >= end:
            continue
        wait = due - time.time()
        if wait > 0:
            time.sleep(wait)
        late.append(max(0.0, -wait))
        n = len(strokes[i])
        t0 = time.perf_counter()
        e = sessions[i].enter("-", f"биток {1 + n % 15}")
        syncs[i].notify()
        took = time.perf_counter() - t0
        strokes[i].append((sessions[i].id, e.seq, time.time(), took))
        heapq.heappush(heap, (due + interval, i))
    for sync in syncs:  # each one's last drain
        sync.stop(timeout=30)
    done.set()
    publisher.join()
    for sync in syncs:
        st = sync.status()
        shared[2 * (first + syncs.index(sync))] = _ONLINE if st.online else _OFFLINE
        shared[2 * (first + syncs.index(sync)) + 1] = st.queued
    for s in sessions:
        s.store.close()
    ru = resource.getrusage(resource.RUSAGE_SELF)
    with open(out, "w") as f:
        json.dump(
            {
                "strokes": strokes,
                "late": late,
                "cpu_s": ru.ru_utime + ru.ru_stime,
                "maxrss_kb": ru.ru_maxrss,
            },
            f,
        )


# ---------------------------------------------------------------------------- figures
def _q(xs: list[float], p: int) -> float:
    if len(xs) < 2:
        return xs[0] if xs else float("nan")
    return statistics.quantiles(xs, n=100, method="inclusive")[p - 1]


def _dist(xs: list[float], unit: float = 1.0, fmt: str = "{:.3f}") -> str:
    if not xs:
        return "none"
    return (
        f"p50 {fmt.format(statistics.median(xs) * unit)}  p95 "
        f"{fmt.format(_q(xs, 95) * unit)}  max {fmt.format(max(xs) * unit)}  "
        f"({len(xs)} strokes)"
    )


def _io_stalled_s() -> float | None:
    """Seconds some task of the machine waited for I/O (Linux PSI), or None where not offered."""
    try:
        with open("/proc/pressure/io") as f:
            return int(f.readline().split("total=")[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return None


def _cpu_busy() -> tuple[float, float]:
    with open("/proc/stat") as f:
        v = [float(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument(
        "--interval", type=float, default=0.5, help="seconds between a table's strokes"
    )
    ap.add_argument("--duration", type=float, default=120.0, help="seconds the tables strike")
    ap.add_argument(
        "--outage", type=float, default=5.0, help="seconds the server stays away, from half time"
    )
    ap.add_argument("--procs", type=int, default=4, help="processes the tables are spread over")
    ap.add_argument(
        "--observer",
        default="board",
        help="board (a real serve --club, its /api/club/events), poll "
        "(a stand-in: a 10 Hz poll of club_strokes) or module:Class",
    )
    ap.add_argument(
        "--server-dir", default=None, help="where the throw-away cluster lives (default: $TMPDIR)"
    )
    args = ap.parse_args()

    import multiprocessing

    import psycopg
    from pg_cluster import Cluster

    saved, tempfile.tempdir = tempfile.tempdir, args.server_dir
    try:
        cluster = Cluster()
    finally:
        tempfile.tempdir = saved
    with open(cluster.data / "postgresql.conf", "a") as f:
        f.write(f"max_connections = {args.tables + 20}\n")
    tmp = Path(tempfile.mkdtemp(prefix="bench-club-load-"))
    ctx = multiprocessing.get_context("spawn")
    observer = None
    try:
        cluster.start()
        url = cluster.new_database()
        dbs, ids = [], []
        with psycopg.connect(url, autocommit=True) as con:
            schema.migrate(con)
            for i in range(args.tables):
                table_id, key = schema.register(con, f"Стол {i + 1}")
                db = str(tmp / f"table{i + 1}.sqlite")
                with Store(db) as store:
                    save_link(store, url, table_id, f"Стол {i + 1}", key)
                dbs.append(db)
                ids.append(table_id)
        observer = _observer(args.observer, url)
        observer.start()
        shared = ctx.Array("q", [_UNKNOWN, 0] * args.tables, lock=False)
        stagger = [args.interval * i / args.tables for i in range(args.tables)]
        start = (
            time.time() + 3.0 + 0.05 * args.tables
        )  # the processes open their stores and connect first
        procs, outs = [], []
        per = -(-args.tables // args.procs)
        for p in range(args.procs):
            lo, hi = p * per, min(args.tables, (p + 1) * per)
            if lo >= hi:
                break
            outs.append(str(tmp / f"proc{p}.json"))
            procs.append(
                ctx.Process(
                    target=_tables,
                    args=(
                        dbs[lo:hi],
                        url,
                        start,
                        args.duration,
                        args.interval,
                        stagger[lo:hi],
                        outs[-1],
                        shared,
                        lo,
                    ),
                )
            )
            procs[-1].start()
        busy0, total0 = _cpu_busy()
        io0 = _io_stalled_s()
        kill_at = start + args.duration / 2
        time.sleep(max(0.0, kill_at - time.time()))
        t_kill = time.time()
        cluster.stop("immediate")
        time.sleep(args.outage)
        cluster.start()
        t_restart = time.time()
        # every table's own status: the first moment after the restart it says
        # connected, nothing queued
        caught: dict[int, float] = {}
        while len(caught) < args.tables and time.time() < t_restart + 60:
            now = time.time()
            for i in range(args.tables):
                if i not in caught and shared[2 * i] == _ONLINE and shared[2 * i + 1] == 0:
                    caught[i] = now - t_restart
            time.sleep(0.02)
        for p in procs:
            p.join()
        busy1, total1 = _cpu_busy()
        io1 = _io_stalled_s()
        time.sleep(1.0)  # the observer's last look
        observer.stop()

        results = [json.load(open(o)) for o in outs]
        local_made: list[list] = [t for r in results for t in r["strokes"]]
        made = [len(t) for t in local_made]
        # lost / doubled, and each store intact
        lost = doubled = extra = bad_stores = miscount = 0
        with psycopg.connect(url, autocommit=True) as con:
            server_rows = con.execute(
                "SELECT table_id, match_id, local_id, seq, status,"
                " extract(epoch FROM received) FROM club_strokes"
            ).fetchall()
        by_table: dict[int, list] = {}
        received: dict[tuple, float] = {}
        for tid, mid, lid, seq, status, rec in server_rows:
            by_table.setdefault(tid, []).append((mid, lid, seq, status))
            received[(tid, mid, seq)] = float(rec)
        for i, db in enumerate(dbs):
            with Store(db, create=False) as store:
                ok = store.con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                local = list(store.con.execute("SELECT match_id, id, seq, status FROM strokes"))
            bad_stores += not ok
            miscount += len(local) != made[i]
            server = by_table.get(ids[i], [])
            lost += len(set(local) - set(server))
            extra += len(set(server) - set(local))
            doubled += len(server) - len(set(server))
        # lags
        up_lag, board, board_after, outage_strokes = [], [], [], 0
        before_restart = []
        unseen = 0
        catch_up = None
        for i, strokes in enumerate(local_made):
            for mid, seq, t, _took in strokes:
                key = (ids[i], mid, seq)
                rec = received.get(key)
                if t < t_restart and rec is not None:
                    before_restart.append(rec)
                if key not in observer.seen:
                    unseen += 1
        if before_restart:
            catch_up = max(before_restart) - t_restart
        back = t_restart + (catch_up or 0.0)
        for i, strokes in enumerate(local_made):
            for mid, seq, t, _took in strokes:
                key = (ids[i], mid, seq)
                if t_kill - 1.0 <= t <= back:
                    outage_strokes += 1
                    continue
                if key in received:
                    up_lag.append(received[key] - t)
                if key in observer.seen:
                    board.append(observer.seen[key] - t)
                    if key in received:
                        board_after.append(observer.seen[key] - received[key])
        took = [s[3] for t in local_made for s in t]
        late = [x for r in results for x in r["late"]]
        ncpu = os.cpu_count() or 1
        wall = args.duration
        print(
            f"tables {args.tables} in {len(procs)} processes, a stroke every {args.interval} s "
            f"each for {args.duration:.0f} s; server killed (immediate) at +{t_kill - start:.1f} "
            f"s for {args.outage:.1f} s"
        )
        print(f"strokes per table: min {min(made)}  max {max(made)};  in all {sum(made)}")
        print(
            f"on the server: lost {lost}, doubled {doubled}, not made locally {extra}  "
            "(bar: 0 / 0)"
        )
        print(
            f"local stores: {args.tables - bad_stores}/{args.tables} pass integrity_check; "
            f"strokes in store != strikes made: {miscount}"
        )
        print(
            "replication lag while up (received - local commit): "
            f"{_dist(up_lag, 1e3, '{:.0f} ms')}"
        )
        print(f"strokes made from 1 s before the kill until the catch-up: {outage_strokes}")
        print(
            "catch-up after the restart: server has every earlier stroke at "
            + ("never" if catch_up is None else f"+{catch_up:.2f} s")
            + " (bar: 10 s); every table's status "
            + (
                f"said connected, 0 queued by +{max(caught.values()):.2f} s"
                if len(caught) == args.tables
                else f"not caught up for {args.tables - len(caught)} tables after 60 s"
            )
        )
        print(
            f"board update ({type(observer).__name__}) while up: {_dist(board, 1e3, '{:.0f} ms')};"
            f" never seen: {unseen}  (bar: p95 <= 1000 ms)"
        )
        print(
            f"  of which after the server received the stroke (the board's own part): "
            f"{_dist(board_after, 1e3, '{:.0f} ms')}"
        )
        if hasattr(observer, "describe"):
            print(f"observer: {observer.describe()}")
        print(
            f"stroke (parse, judge, commit) under load: {_dist(took, 1e3, '{:.2f} ms')};"
            f" strike late vs schedule p95 {_q(late, 95) * 1e3:.1f} ms"
        )
        cpu = sum(r["cpu_s"] for r in results)
        print(
            f"tables' processes: CPU {cpu:.1f} s ({100 * cpu / wall:.0f}% of one core), peak RSS "
            f"{max(r['maxrss_kb'] for r in results) / 1024:.0f} MB per process, "
            f"{sum(r['maxrss_kb'] for r in results) / 1024:.0f} MB in all; machine CPU busy "
            f"{100 * (busy1 - busy0) / max(1.0, total1 - total0):.0f}% of {ncpu} cores"
            + (
                ""
                if io0 is None or io1 is None
                else f"; some task waited for I/O {io1 - io0:.1f} s of the run"
            )
        )
        ok = (
            lost == doubled == extra == bad_stores == miscount == unseen == 0
            and catch_up is not None
            and catch_up <= 10
            and bool(board)
            and _q(board, 95) <= 1.0
        )
        return 0 if ok else 1
    finally:
        if observer is not None:
            observer.stop()  # again after a failure: the serve process must not outlive the bench
        cluster.destroy()
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
