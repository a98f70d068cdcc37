"""bench/bench_club_load.py in small (5 tables, 12 s, the server killed once for 2 s): the load
run's own checks hold on the real paths, and it prints every figure the issue asks for. The
full-size run is a benchmark, not a test (figures in the README's bench table)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("psycopg", reason="psycopg (3) is not installed")

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_club_load.py"


def test_a_small_load_run_with_a_server_kill_loses_and_doubles_nothing_and_catches_up():
    from pg_cluster import find_bin

    if find_bin("initdb") is None or find_bin("pg_ctl") is None:
        pytest.skip("PostgreSQL's initdb/pg_ctl are not installed (Debian: apt-get install postgresql)")
    p = subprocess.run([sys.executable, str(BENCH), "--tables", "5", "--duration", "12", "--outage", "2",
                        "--procs", "2"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "strokes per table: min 24  max 24;  in all 120" in out
    assert "on the server: lost 0, doubled 0, not made locally 0" in out
    assert "local stores: 5/5 pass integrity_check; strokes in store != strikes made: 0" in out
    assert "never seen: 0" in out
    for figure in ("replication lag while up", "catch-up after the restart", "board update", "peak RSS"):
        assert figure in out
