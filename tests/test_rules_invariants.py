"""Hypothesis over random legal games: invariants the rules keep whatever happens.

- points come only from balls (and the Q4 bonus): penalties move them (P2), never
  create them — unless the Q1 floor is on, when the partner's +5 may be unmatched;
- no ball is both on the table and pocketed for points;
- one penalty a stroke at most (P4);
- undo then redo gives the same state; replaying the history gives the same state.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings as hsettings, strategies as st

from pyramid_referee.grammar.call import Call, Pocket
from pyramid_referee.rules import NORMAL, Match, Outcome, Settings
from pyramid_referee.rules.outcome import Event

POCKETS = [Pocket("middle", "left"), Pocket("middle", "right")] + [
    Pocket("corner", s, e) for s in ("left", "right") for e in ("near", "far")]

SETTINGS = st.builds(
    Settings,
    mode=st.sampled_from(["clean", "ball_and_pocket"]),
    negative_scores=st.booleans(),
    ball_values=st.sampled_from(["classic", "face"]),
    result_required=st.booleans(),
)


def draw_start(data, settings):
    """None (a new game) or a score sheet near the end, so that games finish."""
    if data.draw(st.booleans()):
        return None
    table = sorted(data.draw(st.sets(st.integers(1, 15), min_size=1, max_size=4)))
    worth = sum(settings.value(b) for b in range(1, 16) if b not in table)
    top = settings.target - 1
    a = data.draw(st.integers(max(worth - top, 0), min(top, worth)))
    return {"scores": {"A": a, "B": worth - a}, "on_table": table, "to_play": data.draw(st.sampled_from("AB"))}


def draw_potted(data, state):
    """A stroke that pockets a ball straight, to make fulfilled calls common."""
    ball = data.draw(st.sampled_from(sorted(state.on_table)))
    pocket = data.draw(st.sampled_from(POCKETS))
    return ball, pocket, Outcome((Event("hit", "cue", ball), Event("pocket", ball, pocket=pocket)))


def draw_stroke(data, state, settings):
    if state.phase == NORMAL and data.draw(st.integers(0, 2)) == 0:
        ball, pocket, outcome = draw_potted(data, state)
        route = (("cue", ball), (ball, "pocket")) if settings.mode == "clean" else None
        return Call(ball, pocket, route), outcome, "accepted"
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
    fouls = data.draw(st.sets(st.sampled_from(letters), max_size=2)) if data.draw(st.integers(0, 3)) == 0 else set()
    unchanged = all(e.type == "cushion" for e in events) and data.draw(st.booleans())
    outcome = Outcome(
        tuple(events), frozenset(fouls), None,
        first_hit_in_house=(state.from_hand and (short or any(e.type == "hit" and e.involves("cue") for e in events))
                            and data.draw(st.integers(0, 5)) == 0),
        positions_unchanged=unchanged, warned=data.draw(st.booleans()),
        route_ok=data.draw(st.booleans()) if short else None,
    )
    status = data.draw(st.sampled_from(["accepted", "accepted", "accepted", "none", "refused"]))
    call = None
    if status == "accepted" and state.phase == NORMAL:
        fell = [e.ball for e in events if e.type == "pocket" and e.ball != "cue"]
        ball = data.draw(st.sampled_from(fell)) if fell and data.draw(st.booleans()) else data.draw(st.sampled_from(table))
        pocket = data.draw(st.sampled_from(POCKETS))
        route = None
        if settings.mode == "clean":
            route = (("cue", ball), (ball, "pocket"))
        call = Call(ball, pocket, route)
    return call, outcome, status


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(settings=SETTINGS, data=st.data())
def test_random_games_keep_the_invariants(settings, data):
    start = draw_start(data, settings)
    m = Match(settings, ["A", "B"], start)
    pocketed: set = set() if start is None else set(range(1, 16)) - set(start["on_table"])
    strokes = data.draw(st.integers(1, 60))
    for _ in range(strokes):
        if m.state.is_over:
            break
        before = m.state
        call, outcome, status = draw_stroke(data, before, settings)
        v = m.stroke(call, outcome, call_status=status)
        after = m.state
        # one penalty a stroke (P4); points move between players, never both up
        if v.penalty is not None:
            assert v.penalty.points == settings.penalty
            if before.phase == NORMAL:
                assert v.deltas[v.striker_idx] == -v.penalty.paid and v.deltas[1 - v.striker_idx] == settings.penalty
        assert min(v.deltas) <= 0
        # the state's books balance
        for p in (0, 1):
            assert after.scores[p] == after.from_balls[p] + after.received[p] - after.paid[p]
        if settings.negative_scores:
            assert sum(after.received) == sum(after.paid)  # P2: moved, never created
        else:
            assert min(after.scores) >= 0  # Q1 floor
        if after.phase == NORMAL:
            assert not pocketed & set(v.counted)  # a ball is pocketed for points once
            pocketed |= set(v.counted)
            assert not pocketed & after.on_table and pocketed | after.on_table == set(range(1, 16))
            worth = sum(settings.value(b) for b in pocketed) + (settings.bonus if not after.on_table else 0)
            assert sum(after.from_balls) == worth  # points come only from balls and the Q4 bonus
            if settings.negative_scores:
                assert sum(after.scores) == worth  # penalties move points, never create them (P2)
            else:
                assert sum(after.scores) >= worth  # the Q1 floor may leave a partner's +5 unmatched
            assert not set(v.respotted) - after.on_table
        # undo then redo gives the same state
        assert m.undo() == before and m.redo() == after
    event(f"phase {m.state.phase}, result {'none' if m.state.result is None else m.state.result.to_json()}")
    event(f"fulfilled strokes: {'some' if any(r.verdict.fulfilled for r in m.history) else 'none'}")
    # replaying the history gives the same state
    again = Match(settings, ["A", "B"], start)
    for rec in m.history:
        again.stroke(rec.call, rec.outcome, call_status=rec.call_status)
    assert again.state == m.state
