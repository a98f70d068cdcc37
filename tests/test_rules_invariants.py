"""Hypothesis over random legal games: invariants the rules keep whatever happens, and
every stroke checked against a small independent model of the rules (docs/rules.md).

Bookkeeping invariants:

- points come only from balls (and the Q4 bonus): penalties move them (P2), never
  create them — unless the Q1 floor is on, when the partner's +5 may be unmatched;
- no ball is both on the table and pocketed for points;
- one penalty a stroke at most (P4);
- undo then redo gives the same state; a stroke after an undo drops the redo branch;
  replaying the history gives the same state.

The model (``Model`` below) is written from the rules text (docs/rules.md), not from the engine: it
keeps its own scores, table, turn, cue ball in hand, quiet-penalty counters and phase, and after
every stroke the engine's state must equal it. It covers the fouls а б в ж and the given ones (P1),
one penalty of ``settings.penalty`` (P2, P4) under the Q1 floor or not, balls re-spotted on a
penalty (P5) or an unfulfilled / absent / refused call (C4, C10), C6 (clean: only the called ball
counts) against C8 (ball and pocket: every fallen ball counts), the Q4 values and last-ball bonus,
Q3 (who strikes next), from hand only after the cue ball fell or flew (P1б, P1в) and at a replay's
first stroke, E1, E2 (70:70 and the forced draw), Q5, E4 (the last-ball replay) and E5.

The strokes: straight or combination calls pocketed as called, C5 calls, strokes with
random hits, cushions, falls and flights (full and short form, with given fouls, the
warning and ``positions_unchanged``), quiet penalty strokes so forced draws happen, and
undo branches.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings as hsettings, strategies as st

from pyramid_referee.grammar.call import Call, Pocket
from pyramid_referee.rules import LAST_BALL, NORMAL, Match, Outcome, Settings
from pyramid_referee.rules.outcome import Event

POCKETS = [Pocket("middle", "left"), Pocket("middle", "right")] + [
    Pocket("corner", s, e) for s in ("left", "right") for e in ("near", "far")
]
# What a call may name (Q2): a middle alone, or a corner with its side (and maybe its end).
CALL_POCKETS = [
    Pocket("middle"),
    Pocket("middle", "left"),
    Pocket("corner", "left"),
    Pocket("corner", "right", "near"),
]

SETTINGS = st.builds(
    Settings,
    mode=st.sampled_from(["clean", "ball_and_pocket"]),
    negative_scores=st.booleans(),
    ball_values=st.sampled_from(["classic", "face"]),
    penalty=st.sampled_from([5, 5, 10]),
    result_required=st.booleans(),
)


def draw_start(data, settings):
    """None (a new game), a score sheet near the end (so that games finish), or one
    ball left with B on 70 (so that 70:70 and the last-ball replay, E2 and E4, happen)."""
    kind = data.draw(st.integers(0, 3))
    if kind <= 1:
        return None
    if kind == 2:
        b = data.draw(st.integers(1, 15))
        worth = sum(settings.value(x) for x in range(1, 16) if x != b)
        return {
            "scores": {"A": worth - (settings.target - 1), "B": settings.target - 1},
            "on_table": [b],
            "to_play": "A",
        }
    table = sorted(data.draw(st.sets(st.integers(1, 15), min_size=1, max_size=4)))
    worth = sum(settings.value(b) for b in range(1, 16) if b not in table)
    top = settings.target - 1
    a = data.draw(st.integers(max(worth - top, 0), min(top, worth)))
    return {
        "scores": {"A": a, "B": worth - a},
        "on_table": table,
        "to_play": data.draw(st.sampled_from("AB")),
    }


# --- the model -----------------------------------------------------------------------------


def straight_route(b):
    return (("cue", b), (b, "pocket"))


def route_held(route, ball, events) -> bool:
    """Q10 as the rules word it, for the routes the generator makes: every declared
    contact in order; the called ball's own contacts exactly the declared ones; C2/C3:
    with no other ball declared, the cue ball's first contact is the called ball."""

    def key(e):
        if e.type == "hit":
            return ("h", frozenset((e.ball, e.other)))
        return (e.type, e.ball)

    declared = [
        ("h", frozenset((ball if a is None else a, ball if t is None else t)))
        if t != "pocket"
        else ("pocket", ball)
        for a, t in route
    ]
    keys = [key(e) for e in events]
    it = iter(keys)
    if not all(any(k == d for k in it) for d in declared):
        return False
    own = [k for k in keys if (ball in k[1] if k[0] == "h" else k[1] == ball)]
    if own != [d for d in declared if (ball in d[1] if d[0] == "h" else d[1] == ball)]:
        return False
    if all(not isinstance(x, int) or x == ball for c in route for x in c):
        for k in keys:
            if k == ("cushion", "cue"):
                return False  # an undeclared абриколь (C3)
            if k[0] == "h" and "cue" in k[1]:
                return ball in k[1]  # an undeclared carom (C2)
    return True


class Model:
    """The rules' bookkeeping, independent of the engine (see the module docstring)."""

    def __init__(self, settings: Settings, start) -> None:
        self.s = settings
        if start is None:
            self.scores, self.table, self.to_play, self.hand, self.next_break = (
                [0, 0],
                set(range(1, 16)),
                0,
                True,
                1,
            )
        else:
            self.scores = [start["scores"]["A"], start["scores"]["B"]]
            self.table = set(start["on_table"])
            self.to_play = "AB".index(start["to_play"])
            self.hand, self.next_break = False, 1 - self.to_play
        self.quiet = [0, 0]
        self.phase, self.result, self.last_scored = NORMAL, None, None

    def snapshot(self):
        return (
            tuple(self.scores),
            frozenset(self.table),
            self.to_play,
            self.hand,
            tuple(self.quiet),
            self.phase,
            self.result,
            self.last_scored,
        )

    def restore(self, snap):
        (
            scores,
            table,
            self.to_play,
            self.hand,
            quiet,
            self.phase,
            self.result,
            self.last_scored,
        ) = snap
        self.scores, self.table, self.quiet = list(scores), set(table), list(quiet)

    def stroke(self, call, outcome: Outcome, status: str) -> dict:
        s, o, S = self.to_play, 1 - self.to_play, self.s
        ev = outcome.events
        fell = [e.ball for e in ev if e.type == "pocket" and e.ball != "cue"]
        cue_gone = any(e.ball == "cue" for e in ev if e.type in ("pocket", "off_table"))
        fouls = set(outcome.fouls)
        if (
            not outcome.is_short
            and "д" not in fouls
            and not any(e.type == "hit" and e.involves("cue") for e in ev)
        ):
            fouls.add("а")  # P1а (not when another ball was played instead, P1д)
        if any(e.type == "pocket" and e.ball == "cue" for e in ev):
            fouls.add("б")  # P1б
        if any(e.type == "off_table" and e.ball == "cue" for e in ev):
            fouls.add("в")  # P1в
        if self.hand and outcome.first_hit_in_house:
            fouls.add("ж")  # P1ж
        counted: list = []
        if self.phase == LAST_BALL:  # E4, E5
            if fouls:
                self.result = ("win", o)
            elif fell:
                counted = fell
                self.table -= set(fell)
                self.result = ("win", s)
            self.to_play, self.hand = o, cue_gone
            return {"counted": counted, "fouls": fouls}
        fulfilled = False
        if status == "accepted":
            b = call.ball if call.ball is not None else next(iter(self.table))  # C5
            falls = [e for e in ev if e.type == "pocket" and e.ball == b]
            if falls and call.pocket.fits(falls[0].pocket):  # Q2
                if S.mode == "ball_and_pocket":
                    fulfilled = True  # C7
                else:
                    fulfilled = (
                        outcome.route_ok if outcome.is_short else route_held(call.route, b, ev)
                    )  # Q10
        quiet = False
        if fouls:  # P2, P4, P5, Q1
            paid = S.penalty if S.negative_scores else min(S.penalty, max(self.scores[s], 0))
            self.scores[s] -= paid
            self.scores[o] += S.penalty
            quiet = outcome.warned and outcome.positions_unchanged
            nxt = o
        elif fulfilled:
            counted = [b] if S.mode == "clean" else fell  # C6 / C8
            points = sum(S.value(x) for x in counted)
            if len(counted) == len(self.table):
                points += S.bonus  # Q4
            self.scores[s] += points
            self.table -= set(counted)
            self.last_scored = counted[-1]
            nxt = s  # Q3
        else:
            nxt = o  # Q3, C4, C10
        self.quiet[s] = self.quiet[s] + 1 if quiet else 0
        self.to_play, self.hand = nxt, cue_gone
        sc, target = self.scores, S.target
        draw = False
        if sc[s] >= target:
            self.result = ("win", s)  # E1
        elif sc[o] >= target:
            self.result = ("win", o)  # E1, P3
        elif sc[0] >= target - 1 and sc[1] >= target - 1:
            draw = True  # E2: 70 each
        elif self.quiet[0] >= 3 and self.quiet[1] >= 3:
            draw = True  # E2: forced
        elif not self.table:  # Q5
            if sc[0] != sc[1]:
                self.result = ("win", 0 if sc[0] > sc[1] else 1)
            else:
                draw = True
        if draw:
            if S.result_required:  # E4
                self.phase, self.table = LAST_BALL, {self.last_scored or 1}
                self.to_play, self.hand, self.quiet = self.next_break, True, [0, 0]
            else:
                self.result = ("draw",)
        return {"counted": counted, "fouls": fouls}


def engine_view(m: Match):
    stt = m.state
    r = stt.result
    result = (
        None
        if r is None
        else ("draw",)
        if r.winner is None
        else ("win", stt.players.index(r.winner))
    )
    return (
        stt.scores,
        stt.on_table,
        stt.to_play,
        stt.from_hand,
        stt.quiet_penalties,
        stt.phase,
        result,
        stt.last_scored,
    )


# --- the strokes --------------------------------------------------------------------------------


def draw_potted(data, state, settings):
    """A call pocketed into its pocket: straight, C5 (unnamed last ball) or a combination
    (C3); now and then after an undeclared carom, or with another ball falling too."""
    table = sorted(state.on_table)
    ball = data.draw(st.sampled_from(table))
    pocket = data.draw(st.sampled_from(POCKETS))
    called = data.draw(st.sampled_from([p for p in CALL_POCKETS if p.fits(pocket)] or [pocket]))
    others = [b for b in table if b != ball]
    if others and data.draw(st.booleans()):  # «шестёркой тройку»: cue → x → ball
        x = data.draw(st.sampled_from(others))
        route = (("cue", x), (x, ball), (ball, "pocket"))
        events = (
            Event("hit", "cue", x),
            Event("hit", x, ball),
            Event("pocket", ball, pocket=pocket),
        )
    else:
        route = straight_route(ball)
        events = (Event("hit", "cue", ball), Event("pocket", ball, pocket=pocket))
    rest = [b for b in others if not any(e.involves(b) for e in events)]
    if (
        rest and data.draw(st.integers(0, 2)) == 0
    ):  # an undeclared carom first (C2): fails a straight call
        events = (Event("hit", "cue", data.draw(st.sampled_from(rest))),) + events
    rest = [b for b in others if not any(e.involves(b) for e in events)]
    if rest and data.draw(st.integers(0, 2)) == 0:  # another ball falls too (C6 / C8)
        y = data.draw(st.sampled_from(rest))
        events += (
            Event("hit", "cue", y),
            Event("pocket", y, pocket=data.draw(st.sampled_from(POCKETS))),
        )
    named = ball
    if len(table) == 1 and data.draw(st.booleans()):  # C5
        named, route = (
            None,
            tuple((None if a == ball else a, None if t == ball else t) for a, t in route),
        )
    call = Call(named, called, route if settings.mode == "clean" else None)
    return call, Outcome(events)


def draw_quiet(data):
    """A penalty stroke after the warning that leaves the balls where they were (E2)."""
    events = (Event("cushion", "cue"),) if data.draw(st.booleans()) else ()
    fouls = frozenset(data.draw(st.sets(st.sampled_from("ге"), max_size=1)))
    return Outcome(events, fouls, None, positions_unchanged=True, warned=True)


def draw_stroke(data, state, settings, stall=False):
    """``stall``: a game where both mostly play quiet penalty strokes (E2 forced draw)."""
    if stall and data.draw(st.integers(0, 3)) != 3:
        kind = 2
    elif state.phase == LAST_BALL and data.draw(st.booleans()):
        kind = 0
    else:
        kind = data.draw(st.integers(0, 5))
    if kind <= 1:
        call, outcome = draw_potted(data, state, settings)
        if state.phase == NORMAL:
            return call, outcome, "accepted"
        return None, outcome, "none"
    if kind == 2:
        return None, draw_quiet(data), data.draw(st.sampled_from(["none", "refused"]))
    table = sorted(state.on_table)
    short = data.draw(st.integers(0, 9)) == 0
    events = []
    moving, gone = ["cue"], set()
    n = data.draw(st.integers(0, 6))
    for _ in range(n):
        alive = [b for b in moving if b not in gone]
        if not alive:
            break
        kind = data.draw(st.sampled_from(["hit", "hit", "pocket", "cushion", "off_table"]))
        if short and kind in ("hit", "cushion"):
            kind = "pocket"
        if kind == "hit":
            a = data.draw(st.sampled_from(alive))
            targets = [b for b in table + ["cue"] if b != a and b not in gone]
            if not targets:
                continue
            b = data.draw(st.sampled_from(targets))
            events.append(Event("hit", a, b))
            moving.append(b)
        else:
            pool = [b for b in (table if short else alive) if b not in gone]
            if short and data.draw(st.booleans()):
                pool = ["cue"] + pool
            if not pool:
                continue
            b = data.draw(st.sampled_from(pool))
            if kind == "pocket":
                events.append(Event("pocket", b, pocket=data.draw(st.sampled_from(POCKETS))))
                gone.add(b)
            elif kind == "off_table":
                events.append(Event("off_table", b))
                gone.add(b)
            else:
                events.append(Event("cushion", b))
    letters = "гдези" if state.from_hand else "гдеи"  # з: only from hand (P1з)
    fouls = (
        data.draw(st.sets(st.sampled_from(letters), max_size=2))
        if data.draw(st.integers(0, 3)) == 0
        else set()
    )
    unchanged = all(e.type == "cushion" for e in events) and data.draw(st.booleans())
    outcome = Outcome(
        tuple(events),
        frozenset(fouls),
        None,
        first_hit_in_house=(
            state.from_hand
            and (short or any(e.type == "hit" and e.involves("cue") for e in events))
            and data.draw(st.integers(0, 5)) == 0
        ),
        positions_unchanged=unchanged,
        warned=data.draw(st.booleans()),
        route_ok=data.draw(st.booleans()) if short else None,
    )
    status = data.draw(st.sampled_from(["accepted", "accepted", "accepted", "none", "refused"]))
    call = None
    if status == "accepted" and state.phase == NORMAL:
        fell = [e.ball for e in events if e.type == "pocket" and e.ball != "cue"]
        ball = (
            data.draw(st.sampled_from(fell))
            if fell and data.draw(st.booleans())
            else data.draw(st.sampled_from(table))
        )
        pocket = data.draw(st.sampled_from(CALL_POCKETS))
        call = Call(ball, pocket, straight_route(ball) if settings.mode == "clean" else None)
    return call, outcome, status


@hsettings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(settings=SETTINGS, data=st.data())
def test_random_games_keep_the_invariants(settings, data):
    start = draw_start(data, settings)
    m = Match(settings, ["A", "B"], start)
    model = Model(settings, start)
    assert engine_view(m) == model.snapshot()
    pocketed: set = set() if start is None else set(range(1, 16)) - set(start["on_table"])
    strokes = data.draw(st.integers(1, 60))
    stall = data.draw(st.integers(0, 2)) == 0
    for _ in range(strokes):
        if m.state.is_over:
            break
        before, snap = m.state, model.snapshot()
        call, outcome, status = draw_stroke(data, before, settings, stall)
        v = m.stroke(call, outcome, call_status=status)
        after = m.state
        want = model.stroke(call, outcome, status)
        # the stroke as the model reads the rules
        assert set(v.fouls) == want["fouls"]
        assert sorted(v.counted) == sorted(want["counted"])
        assert engine_view(m) == model.snapshot(), (before, call, outcome, status)
        # one penalty a stroke (P4); points move between players, never both up
        if v.penalty is not None:
            assert v.penalty.points == settings.penalty and v.counted == ()  # P5
            if before.phase == NORMAL:
                assert (
                    v.deltas[v.striker_idx] == -v.penalty.paid
                    and v.deltas[1 - v.striker_idx] == settings.penalty
                )
        assert min(v.deltas) <= 0
        # the state's books balance
        for p in (0, 1):
            assert after.scores[p] == after.from_balls[p] + after.received[p] - after.paid[p]
        if settings.negative_scores:
            assert sum(after.received) == sum(after.paid)  # P2: moved, never created
        else:
            assert min(after.scores) >= 0  # Q1 floor
        if after.result is None:
            assert max(after.scores) < settings.target  # E1: nobody has 71 and plays on
        if after.phase == NORMAL:
            assert not pocketed & set(v.counted)  # a ball is pocketed for points once
            pocketed |= set(v.counted)
            assert not pocketed & after.on_table and pocketed | after.on_table == set(range(1, 16))
            worth = sum(settings.value(b) for b in pocketed) + (
                settings.bonus if not after.on_table else 0
            )
            assert sum(after.from_balls) == worth  # points come only from balls and the Q4 bonus
            if settings.negative_scores:
                assert sum(after.scores) == worth  # penalties move points, never create them (P2)
            else:
                assert (
                    sum(after.scores) >= worth
                )  # the Q1 floor may leave a partner's +5 unmatched
            assert not set(v.respotted) - after.on_table
        # undo then redo gives the same state
        assert m.undo() == before and m.redo() == after
        # now and then an undo and another stroke instead: the redo branch is dropped
        if not after.is_over and data.draw(st.integers(0, 7)) == 0:
            m.undo()
            model.restore(snap)
            call, outcome, status = draw_stroke(data, before, settings, stall)
            m.stroke(call, outcome, call_status=status)
            model.stroke(call, outcome, status)
            assert not m.can_redo and engine_view(m) == model.snapshot()
            if m.state.phase == NORMAL:
                pocketed = set(range(1, 16)) - m.state.on_table
    r = m.state.result
    event(
        f"phase {m.state.phase}, result {'none' if r is None else r.to_json()}"
        + (f" {r.clause}" if r is not None else "")
    )
    event(
        f"fulfilled strokes: {'some' if any(x.verdict.fulfilled for x in m.history) else 'none'}"
    )
    event(f"penalties: {'some' if any(x.verdict.penalty for x in m.history) else 'none'}")
    # replaying the history gives the same state
    again = Match(settings, ["A", "B"], start)
    for rec in m.history:
        again.stroke(rec.call, rec.outcome, call_status=rec.call_status)
    assert again.state == m.state
