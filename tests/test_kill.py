"""SIGKILL while a 1,000-stroke match is being entered (docs/dev/architecture.md), for real.

``play --json`` runs in a subprocess fed one line at a time; it is killed with
SIGKILL at random points (fixed seed), sometimes right after a line was sent and
before its answer came, and restarted with ``match resume`` each time, going on
from what the store says. At the end: every stroke whose verdict was shown is in
the store, none twice, the undo/redo position is the one the commands lead to,
and the stored state equals a clean replay of the same strokes.

The strokes come from a small generator that keeps them legal for the balls on
the table (it follows the game with the rules engine): mostly strokes without a
call that touch a ball (the game lasts), some called pots, refused calls,
fouls, and undo/redo commands; a stroke that would end the game is replaced by
a plain one so the 1,000 strokes stay in one game.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import pytest

from pyramid_referee.rules import Match, Outcome, Settings, judge
from pyramid_referee.rules.notation import parse_outcome

N_STROKES = 1000
N_KILLS = 6
SEED = 20261202

CMD = [sys.executable, "-m", "pyramid_referee"]


@dataclass
class Model:
    """The commands and, after each prefix of them, what the store must hold."""

    commands: list[str] = field(default_factory=list)
    # after k commands: (active stroke lines, undone stroke lines)
    after: list[tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)


def _call_for(text: str, m: Match):
    from pyramid_referee.match.session import read_call

    r = read_call(text, settings=m.settings, on_table=m.state.on_table, lang="ru")
    return r.call, r.status


def generate(seed: int = SEED, n_strokes: int = N_STROKES) -> Model:
    rnd = random.Random(seed)
    m = Match(Settings(), ["Аня", "Боря"])
    model = Model()
    active: list[str] = []
    undone: list[str] = []
    model.after.append(((), ()))
    strokes = 0
    while strokes < n_strokes:
        r = rnd.random()
        if r < 0.03 and active:
            m.undo()
            undone.insert(0, active.pop())
            model.commands.append("undo")
        elif r < 0.05 and undone:
            m.redo()
            active.append(undone.pop(0))
            model.commands.append("redo")
        else:
            table = sorted(m.state.on_table)
            b = rnd.choice(table)
            plain = f"- | биток {b}"
            r2 = rnd.random()
            if r2 < 0.02 and len(table) > 4:  # a called pot (C2)
                line = f"{b} чисто в правый угол | биток {b}, {b} в правый дальний угол"
            elif r2 < 0.05:  # a foul (P1 г)
                line = f"- | биток {b}; фол г"
            elif r2 < 0.08:  # a refused call (Q2: the corner's side is missing)
                line = f"{b} чисто в угол | биток {b}"
            elif r2 < 0.10:  # a called ball that misses
                line = f"{b} чисто в левую середину | биток {b}"
            else:
                line = plain
            call_text, outcome_text = (x.strip() for x in line.split("|"))
            call, status = _call_for(call_text, m)
            outcome = Outcome.from_json(parse_outcome(outcome_text))
            if judge(m.state, call, outcome, m.settings, call_status=status).result is not None:
                line, call, status = plain, None, "none"  # keep the game going
                outcome = Outcome.from_json(parse_outcome(f"биток {b}"))
            m.stroke(call, outcome, call_status=status)
            active.append(line)
            undone.clear()
            strokes += 1
            model.commands.append(line)
        model.after.append((tuple(active), tuple(undone)))
    return model


def store_lines(db, match_id) -> tuple[tuple[str, ...], tuple[str, ...]]:
    con = sqlite3.connect(db)
    try:

        def rows(status):
            return tuple(
                f"{c if c is not None else '-'} | {o}"
                for c, o in con.execute(
                    "SELECT call_text, outcome_text FROM strokes WHERE match_id = ? AND status = "
                    "? ORDER BY seq",
                    (match_id, status),
                )
            )

        return rows("active"), rows("undone")
    finally:
        con.close()


class Proc:
    """play in a subprocess; answers are read by a thread so a silent play fails the
    test, never hangs it."""

    def __init__(self, args, env):
        self.p = subprocess.Popen(
            CMD + args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.p.stdout:
            self.lines.put(line)
        self.p.stdout.close()
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self, timeout: float = 60.0) -> dict:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.p.kill()
            raise AssertionError(f"play gave no answer in {timeout} s") from None
        if line is None:
            raise AssertionError("play ended early: " + self.p.stderr.read()[-2000:])
        return json.loads(line)

    def drain(self, timeout: float = 5.0) -> list[dict]:
        """After a kill: every answer the process wrote before it died (up to
        its end of output)."""
        got = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                return got
            if line is None:
                return got
            try:
                got.append(json.loads(line))
            except ValueError:  # the last line, cut by the kill
                return got

    def kill(self) -> None:
        os.kill(self.p.pid, signal.SIGKILL)
        self.p.wait()
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        self.p.stderr.close()  # stdout is drained to EOF by the reader thread


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing_shown(tmp_path):
    model = generate()
    n = len(model.commands)
    rnd = random.Random(SEED + 1)
    kill_at = sorted(rnd.sample(range(20, n - 20), N_KILLS))
    db = tmp_path / "kill.sqlite"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = Proc(["play", "--players", "Аня", "Боря", "--db", str(db), "--json"], env)
    start = proc.read()
    assert start["type"] == "start" and start["seq"] == 0
    match_id = start["match"]
    shown: dict[int, dict] = {}  # seq → the last verdict shown for it
    shown_states: dict[int, dict] = {}
    k = 0  # commands done according to the store
    kills = restarts_in_flight = unshown_named = 0
    while k < n:
        cmd = model.commands[k]
        proc.send(cmd)
        if kills < len(kill_at) and k == kill_at[kills]:
            time.sleep(rnd.choice([0, 0, 0.0005, 0.001, 0.002, 0.005]))
            proc.kill()
            kills += 1
            # Restart from what the store says; the command in flight may or may not have landed.
            acked = model.after[k]
            now = store_lines(db, match_id)
            printed = proc.drain()  # what reached the marker's screen before the kill
            landed_unprinted = None
            if now == model.after[k + 1] and now != acked:
                if cmd not in ("undo", "redo"):
                    seq = len(now[0])
                    if any(m.get("type") == "stroke" and m.get("seq") == seq for m in printed):
                        shown[seq] = next(m["verdict"] for m in printed if m.get("seq") == seq)
                    else:  # landed, but its verdict was never shown
                        shown.pop(seq, None)
                        landed_unprinted = seq
                k += 1
                restarts_in_flight += 1
            else:
                assert now == acked, (
                    f"after kill {kills} at command {k}: the store holds neither before nor after"
                )
            proc = Proc(["match", "resume", str(match_id), "--db", str(db), "--json"], env)
            st = proc.read()
            assert st["type"] == "start" and st["resumed"] and st["mismatches"] == []
            assert st["seq"] == len(model.after[k][0]) and st["undone"] == len(model.after[k][1])
            if (
                landed_unprinted is not None
            ):  # resume names it, so the marker does not enter it twice
                assert landed_unprinted in [u["seq"] for u in st["unshown"]]
                unshown_named += 1
            continue
        msg = proc.read()
        assert msg["type"] in ("stroke", "undo", "redo"), msg
        if msg["type"] in ("stroke", "redo"):
            seq = msg["seq"]
            shown[seq] = msg["verdict"] if msg["type"] == "stroke" else shown.get(seq)
            shown_states[seq] = msg["state"]
        k += 1
        # every acknowledged command is durable before the answer was read
        if k % 97 == 0:
            assert store_lines(db, match_id) == model.after[k]
    proc.p.stdin.close()
    end = proc.read()
    assert end["type"] == "end"
    assert proc.p.wait(timeout=30) == 0
    proc.p.stderr.close()
    assert kills == N_KILLS
    print(
        f"kills: {kills}, in-flight commands that landed: {restarts_in_flight}, named on resume: "
        f"{unshown_named}"
    )

    active, undone = store_lines(db, match_id)
    assert (active, undone) == model.after[n]  # nothing lost, nothing twice, the right position
    assert sum(1 for c in model.commands if c not in ("undo", "redo")) == N_STROKES

    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT seq, verdict, state FROM strokes WHERE match_id = ? AND status = 'active' ORDER "
        "BY seq",
        (match_id,),
    ).fetchall()
    n_stroke_actions = con.execute(
        "SELECT count(*) FROM actions WHERE match_id = ? AND action = 'stroke'", (match_id,)
    ).fetchone()[0]
    con.close()
    assert [r[0] for r in rows] == list(range(1, len(active) + 1))  # seq 1..n, no gap, none twice
    executed_strokes = sum(1 for c in model.commands if c not in ("undo", "redo"))
    assert n_stroke_actions == executed_strokes  # each stroke command committed exactly once
    for seq, verdict, _ in rows:  # a verdict that was shown is the one stored
        if shown.get(seq) is not None:
            assert json.loads(verdict) == shown[seq], seq

    # The stored state equals a clean replay of the same strokes (parsed afresh).
    m = Match(Settings(), ["Аня", "Боря"])
    for line in active:
        call_text, outcome_text = (x.strip() for x in line.split("|"))
        call, status = _call_for(call_text, m)
        m.stroke(call, Outcome.from_json(parse_outcome(outcome_text)), call_status=status)
    assert json.loads(rows[-1][2]) == m.state.to_json()
    assert end["state"] == m.state.to_json()
