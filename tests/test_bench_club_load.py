"""bench/bench_club_load.py in small (5 tables, 12 s, the server killed once for 2 s): the load
run's own checks hold on the real paths, and it prints every figure its docstring lists. The
full-size run is a benchmark, not a test (figures in the README's bench table)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("psycopg", reason="psycopg (3) is not installed")

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_club_load.py"


@pytest.mark.long  # 19 s on 2 cores
def test_a_small_load_run_with_a_server_kill_loses_and_doubles_nothing_and_catches_up():
    from pg_cluster import find_bin

    if find_bin("initdb") is None or find_bin("pg_ctl") is None:
        pytest.skip(
            "PostgreSQL's initdb/pg_ctl are not installed (Debian: apt-get install postgresql)"
        )
    p = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            "--tables",
            "5",
            "--duration",
            "12",
            "--outage",
            "2",
            "--procs",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "strokes per table: min 24  max 24;  in all 120" in out
    assert "on the server: lost 0, doubled 0, not made locally 0" in out
    assert "local stores: 5/5 pass integrity_check; strokes in store != strikes made: 0" in out
    assert "never seen: 0" in out
    for figure in (
        "replication lag while up",
        "catch-up after the restart",
        "board update",
        "peak RSS",
    ):
        assert figure in out
    # the default observer is the real board, and its one stream lived through the kill
    assert "board update (BoardObserver) while up" in out
    assert "the board's own part" in out
    m = re.search(
        r"observer: (\d+) state events over (\d+) stream\(s\), (\d+) of them saying", out
    )
    assert m is not None, out
    assert m.group(2) == "1" and int(m.group(3)) >= 1, out


def _bench():
    spec = importlib.util.spec_from_file_location("bench_club_load", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_board_observer_counts_each_stroke_a_state_event_newly_shows_once():
    obs = _bench().BoardObserver(
        "postgresql:///unused"
    )  # not started: its mapping of the board's JSON alone

    def state(*tables, online=True):
        obs._state(
            {
                "server": {"online": online},
                "tables": [{"id": tid, "match": match, "seq": seq} for tid, match, seq in tables],
            }
        )

    state((1, None, 0), (2, 7, 0))  # a table with no match yet, a match with no stroke
    assert obs.seen == {}
    state((1, 3, 2), (2, 7, 1))  # two strokes of table 1 folded into one read
    first = dict(obs.seen)
    assert set(first) == {(1, 3, 1), (1, 3, 2), (2, 7, 1)}
    state((1, 3, 1), (2, 7, 1), online=False)  # stroke 2 undone; the server away: nothing new
    state(
        (1, 3, 2), (2, 7, 3)
    )  # stroke 2 again (a new one with that seq is not told apart), 2 and 3 of table 2
    assert set(obs.seen) == set(first) | {(2, 7, 2), (2, 7, 3)}
    assert all(obs.seen[k] == first[k] for k in first)  # the first sighting is kept
    state((1, 4, 1), (2, 7, 3))  # table 1's next match
    assert (1, 4, 1) in obs.seen
    assert obs.events == 5 and obs.offline_events == 1
