"""Judging a stroke: pure functions of (state, call, outcome, settings).

``judge`` decides; ``apply`` moves the state on. Neither mutates anything, so
undo is one step back in a list of states. Every decision cites its clause.

Decisions where the rules (docs/rules.md) leave room (documented here, cited in the verdict):

* Fulfilled (C2, C7, Q2, Q10): the called ball falls into a pocket the call
  fits (``Pocket.fits``: fields the call leaves open match anything; a field the
  call names but the outcome leaves null is refused, not guessed). Clean mode
  also needs the way (Q10): the declared contacts happen in order, and the
  called ball's own contacts are exactly the declared ones, in order, from its
  first touch to the pocket; a scorer's ``route_ok`` decides it directly. C3:
  when no other ball takes part, a cue-ball cushion before the cue ball's first
  ball is an абриколь and must be declared; with other balls it need not be.
  In that same case the cue ball's first ball must be the called one (C2: the
  seed names «карамболем от шестёрки» as part of the way), so an undeclared
  carom fails the call; in a combination the cue ball's way is not checked.
  ``от контр-ку`` has no event the engine can check: a full-events outcome for
  such a call is refused; give ``route_ok``. Ball-and-pocket ignores the way (C7).
* An accepted call that is not fulfilled: no points, every fallen ball is
  re-spotted (Q6); this is not a penalty (P1 does not list it); the turn passes (Q3).
* No call (C10) or a refused call (C4, C9): the same — fallen balls re-spotted,
  no points, the turn passes — and fouls are still penalised.
* Re-spotted (Q6) means the ball stays in ``on_table``: ball positions are not
  tracked, so the placement (third point, else the nearest free place toward the
  back cushion) is the referee's; only counted balls leave the table.
* Object balls off the table are re-spotted (Q6); only the cue ball off the
  table is a penalty (P1в).
* From hand next: after the cue ball falls (P1б) or leaves the table (P1в), and
  at the break. Otherwise the cue ball is played where it lies.
* E2 draw at "70 each" reads as ``target - 1`` each (70 with the default 71).
* E4 (``settings.result_required``): a draw is not final; one ball — the last
  ball scored in the game (ball 1 if none was) — goes on the third point, the
  player who was to start the next game (``state.next_break``) strikes from the
  house, strokes alternate without a call (a call given is ignored), the first
  to pocket it wins, scores stay as they were; E5: a penalty there loses.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from pyramid_referee.grammar.call import (
    CONTRE_COUP,
    CUE,
    CUSHION as C_CUSHION,
    POCKET as C_POCKET,
    Call,
)

from .errors import RulesInputError
from .messages import N_
from .outcome import HIT, OFF_TABLE, POCKET, Ball, Event, Outcome
from .settings import Settings
from .state import LAST_BALL, NORMAL, GameState, Result
from .verdict import Penalty, Verdict

CALL_STATUSES = ("accepted", "refused", "none")
_new = (
    tuple.__new__
)  # builds the named-tuple records positionally: the hot path (bench/bench_rules.py)
QUIET_LIMIT = 3  # E2: three penalty strokes in a row each
_FOUL_IDS = {f: "P1" + f for f in "абвгдежзи"}
_FOUL_ORDER = "абвгдежзи"


class _Scan:
    """What the events show (one pass): balls that fell / flew, cue ball facts."""

    __slots__ = ("fell", "flew", "cue_hit", "cue_in", "cue_off")

    def __init__(self) -> None:
        self.fell: list[Any] = []  # (ball, pocket, event index), object balls only
        self.flew: list[Any] = []  # object balls off the table
        self.cue_hit = False
        self.cue_in = False
        self.cue_off = False


def _gone(field: str, ball: Ball | None) -> RulesInputError:
    """A ball that already fell or flew off in this stroke is in an event again; the cue
    ball by its name."""
    if ball == CUE:
        return RulesInputError(field, N_("the cue ball already left the table"))
    return RulesInputError(field, N_("{ball} already left the table"), ball=ball)


def _not_on_table(field: str, ball: Ball | None) -> RulesInputError:
    return RulesInputError(field, N_("ball {ball} is not on the table"), ball=ball)


def scan(state: GameState, outcome: Outcome) -> _Scan:
    """Check the events against the table and collect what they show.

    Raises ``RulesInputError`` naming the event for a ball that is not on the
    table, a ball that moves after it fell, or (unless the referee reports
    г or д, which set balls moving by hand or cue) a ball that moves before
    anything touched it.
    """
    table = state.on_table
    sc = _Scan()
    gone: set[Any] = set()
    moving: set[Ball | None] = {CUE}
    # г (a ball touched by hand or cue), д (another ball struck), и (balls still moving from the
    # previous stroke) set balls moving without a hit: no motion check then.
    check_motion = not ("г" in outcome.fouls or "д" in outcome.fouls or "и" in outcome.fouls)
    for i, ev in enumerate(outcome.events):
        t, b = ev.type, ev.ball
        if t == HIT:
            o = ev.other
            for name, x in (("a", b), ("b", o)):
                if x != CUE and x not in table:
                    raise _not_on_table(f"events[{i}].{name}", x)
                if x in gone:
                    raise _gone(f"events[{i}].{name}", x)
            if check_motion and b not in moving and o not in moving:
                raise RulesInputError(
                    f"events[{i}]", N_("neither {b} nor {o} was moving"), b=b, o=o
                )
            moving.add(b)
            moving.add(o)
            if b == CUE or o == CUE:
                sc.cue_hit = True
            continue
        if b != CUE and b not in table:
            raise _not_on_table(f"events[{i}].ball", b)
        if b in gone:
            raise _gone(f"events[{i}].ball", b)
        if check_motion and b not in moving and not outcome.is_short:
            raise RulesInputError(f"events[{i}].ball", N_("nothing set {b} moving"), b=b)
        if t == POCKET:
            gone.add(b)
            if b == CUE:
                sc.cue_in = True
            else:
                sc.fell.append((b, ev.pocket, i))
        elif t == OFF_TABLE:
            gone.add(b)
            if b == CUE:
                sc.cue_off = True
            else:
                sc.flew.append(b)
    return sc


def fouls_of(state: GameState, outcome: Outcome, sc: _Scan | None = None) -> tuple[str, ...]:
    """The P1 letters of a stroke: those given plus а, б, в, ж derived (P1);
    а is not derived when д (another ball played instead of the cue ball) is given."""
    if sc is None:
        sc = scan(state, outcome)
    letters = set(outcome.fouls)
    if not outcome.is_short and not sc.cue_hit and "д" not in letters:
        # P1а: the cue ball touched no ball — unless the stroke was played with another ball (P1д),
        # when the cue ball was not played at all and the one reason is д.
        letters.add("а")
    if sc.cue_in:
        letters.add("б")  # P1б
    if sc.cue_off:
        letters.add("в")  # P1в
    if state.from_hand and outcome.first_hit_in_house:
        letters.add("ж")  # P1ж
    return tuple(sorted(letters, key=_FOUL_ORDER.index))


def called_ball(state: GameState, call: Call) -> int:
    """The ball a call names; C5: unnamed when only one object ball is left."""
    if call.ball is None:
        if len(state.on_table) != 1:
            raise RulesInputError(
                "call.ball",
                N_("not named, but {n} balls are on the table (C5)"),
                n=len(state.on_table),
            )
        return next(iter(state.on_table))
    if call.ball not in state.on_table:
        raise _not_on_table("call.ball", call.ball)
    return call.ball


ContactKey = tuple[str, Any]  # ("h", the two balls) | ("c" or "p", the ball)


def _contact_key(actor: Ball | None, target: Ball | None, ball: int) -> ContactKey:
    if actor is None:
        actor = ball
    if target is None:
        target = ball
    if target == C_CUSHION:
        return ("c", actor)
    if target == C_POCKET:
        return ("p", actor)
    if target == CONTRE_COUP:
        raise RulesInputError(
            "call.route",
            N_("от контр-ку has no event the engine can check; give route_ok for this stroke"),
        )
    return ("h", frozenset((actor, target)))


def _involves(key: ContactKey, ball: int) -> bool:
    return ball in key[1] if key[0] == "h" else key[1] == ball


@lru_cache(maxsize=4096)
def _route_plan(
    route: tuple[tuple[Any, Any], ...], ball: int
) -> tuple[tuple[ContactKey, ...], tuple[ContactKey, ...], bool, bool]:
    """What a declared route asks for, computed once per (route, ball)."""
    rk = tuple(_contact_key(a, t, ball) for a, t in route)
    own = tuple(k for k in rk if _involves(k, ball))
    balls_in_route = {x for c in route for x in c if isinstance(x, int)}
    # No other ball takes part: the cue ball's way to the called ball is part of the call (C2, C3).
    solo = balls_in_route <= {ball}
    # C3: then an undeclared cue-ball cushion (абриколь) fails the call.
    check_c3 = solo and ("c", CUE) not in rk
    return rk, own, check_c3, solo


def route_followed(route: Any, ball: int, events: Iterable[Event]) -> str | None:
    """Q10 (and C3): None when the declared route happened, else why not.

    ``"route"``: a declared contact is missing or out of order, or the called ball
    touched something undeclared between being struck and the pocket, or (C2) where
    no other ball takes part, the cue ball hit another ball before the called one
    (an undeclared carom: «карамболем от …» is part of the way, the seed's example);
    ``"route_c3"``: an undeclared абриколь where no other ball takes part.
    """
    rk, own, check_c3, solo = _route_plan(tuple(tuple(c) for c in route), ball)
    j, n = 0, len(rk)
    for e in events:  # Q10: every declared contact, in order
        if j < n and e.key == rk[j]:
            j += 1
    if j < n:
        return "route"
    if tuple(e.key for e in events if _involves(e.key, ball)) != own:
        return "route"  # Q10: the called ball touched something undeclared
    if solo:
        for e in events:
            k = e.key
            if k[0] == "h" and CUE in k[1]:
                if ball not in k[1]:
                    return "route"  # C2: an undeclared carom before the called ball
                break
            if check_c3 and k == ("c", CUE):
                return "route_c3"
    return None


def _check_call(
    state: GameState, call: Call, outcome: Outcome, settings: Settings, sc: _Scan
) -> tuple[int, bool, str | None, list[str]]:
    """(called ball, fulfilled, miss reason, clauses)."""
    clauses = []
    clean = settings.mode == "clean"
    if clean and call.route is None:
        raise RulesInputError(
            "call.route", N_("a clean designation names the way (C2); this call has none")
        )
    pk = call.pocket
    if settings.pocket_precision == "side_for_corners" and pk.kind == "corner" and pk.side is None:
        raise RulesInputError("call.pocket.side", N_("a corner call names its side (Q2)"))
    ball = called_ball(state, call)
    if call.ball is None:
        clauses.append("C5")
    clauses.append("C2" if clean else "C7")
    fall = None
    for f in sc.fell:
        if f[0] == ball:
            fall = f
            break
    if fall is None:
        return ball, False, "not_pocketed", clauses
    actual, idx = fall[1], fall[2]
    if actual is None:
        raise RulesInputError(
            f"events[{idx}].pocket",
            N_("the called ball fell: say which pocket it fell into"),
        )
    if pk.kind != actual.kind:
        clauses.append("Q2")
        return ball, False, "wrong_pocket", clauses
    if pk.side is not None and actual.side is None:
        raise RulesInputError(
            f"events[{idx}].pocket.side",
            N_("the call names the side: say which pocket the ball fell into"),
        )
    if pk.end is not None and actual.end is None:
        raise RulesInputError(
            f"events[{idx}].pocket.end",
            N_("the call names near/far: say which corner the ball fell into"),
        )
    if not pk.fits(actual):
        clauses.append("Q2")
        return ball, False, "wrong_pocket", clauses
    if clean:
        clauses.append("Q10")
        if outcome.is_short:
            if not outcome.route_ok:
                return ball, False, "route", clauses
        else:
            why = route_followed(call.route, ball, outcome.events)
            if why is not None:
                if why == "route_c3":
                    clauses.append("C3")
                return ball, False, why, clauses
            if any(isinstance(x, int) and x != ball for c in call.route or () for x in c):
                clauses.append("C3")  # a combination: any number of balls
    return ball, True, None, clauses


def is_fulfilled(state: GameState, call: Call, outcome: Outcome, settings: Settings) -> bool:
    """Was the call fulfilled (C2/C7, Q2, Q10)? Penalties aside."""
    return _check_call(state, call, outcome, settings, scan(state, outcome))[1]


def _dedup(items: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(items))


def judge(
    state: GameState,
    call: Call | None,
    outcome: Outcome,
    settings: Settings,
    *,
    call_status: str = "accepted",
) -> Verdict:
    """Decide everything the rules decide about one stroke. Pure; raises
    ``RulesInputError`` (naming the field) for input that does not fit the state.

    In order: the input checked against the state, the events scanned and the fouls
    found (P1), the call judged (C2-C10), the penalty (P1-P8) or the points (Q4), the
    balls re-spotted (Q6), who strikes next (Q3) and whether the game ends (E1-E4)."""
    _check_stroke(state, outcome, call_status)
    sc = scan(state, outcome)
    if outcome.first_hit_in_house and not outcome.is_short and not sc.cue_hit:
        raise RulesInputError("first_hit_in_house", N_("true, but the cue ball hit no ball (P1ж)"))
    fouls = fouls_of(state, outcome, sc)
    fell_balls = tuple(f[0] for f in sc.fell)
    if state.phase == LAST_BALL:
        return _judge_last_ball(state, outcome, settings, call_status, sc, fouls, fell_balls)
    called, fulfilled, miss, clauses = _judge_call(state, call, outcome, settings, sc, call_status)
    s = state.to_play
    ball_points = bonus = 0
    counted: tuple[Any, ...] = ()
    penalty = None
    restore = quiet = False
    if fouls:
        penalty, restore, quiet = _penalty(state, outcome, settings, fouls, fell_balls, clauses)
        deltas = (-penalty.paid, penalty.points) if s == 0 else (penalty.points, -penalty.paid)
        respotted = fell_balls + tuple(sc.flew)
        nxt = 1 - s
    elif fulfilled:
        counted, respotted, ball_points, bonus = _points(
            state, settings, sc, called, fell_balls, clauses
        )
        deltas = (ball_points, 0) if s == 0 else (0, ball_points)
        nxt = s
    else:
        deltas = (0, 0)
        respotted = fell_balls + tuple(sc.flew)
        nxt = 1 - s
    clauses.append("Q3")
    if respotted:
        clauses.append("Q6")
    result, replay_ball = _game_end(state, settings, deltas, quiet, counted, bool(fouls), clauses)
    # Positional, in Verdict's field order.
    return _new(
        Verdict,
        (
            state.players,
            state.strokes,
            NORMAL,
            s,
            call_status,
            called,
            fulfilled,
            miss,
            deltas,
            ball_points,
            bonus,
            counted,
            respotted,
            fouls,
            penalty,
            restore,
            state.next_break if replay_ball is not None else nxt,
            True if replay_ball is not None else (sc.cue_in or sc.cue_off),
            quiet,
            result,
            replay_ball,
            _dedup(clauses),
        ),
    )


def _check_stroke(state: GameState, outcome: Outcome, call_status: str) -> None:
    """Raise ``RulesInputError`` for a stroke that does not fit the state."""
    if state.result is not None:
        raise RulesInputError("stroke", N_("the game is over (E1, E2, E3)"))
    if call_status not in CALL_STATUSES:
        raise RulesInputError(
            "call_status",
            N_("{value!r} is not one of {choices}"),
            value=call_status,
            choices=", ".join(CALL_STATUSES),
        )
    if outcome.from_hand is not None and outcome.from_hand != state.from_hand:
        raise RulesInputError(
            "from_hand",
            N_("the state says the cue ball is in hand")
            if state.from_hand
            else N_("the state says the cue ball is on the table"),
        )
    if outcome.first_hit_in_house and not state.from_hand:
        raise RulesInputError("first_hit_in_house", N_("only when playing from hand (P1ж)"))
    if "з" in outcome.fouls and not state.from_hand:
        raise RulesInputError(
            "fouls", N_("з (not from the house) applies only when playing from hand (P1з)")
        )


def _judge_call(
    state: GameState,
    call: Call | None,
    outcome: Outcome,
    settings: Settings,
    sc: _Scan,
    call_status: str,
) -> tuple[int | None, bool, str | None, list[str]]:
    """(called ball, fulfilled, miss reason, clauses): an accepted call is checked (C2,
    C7), a refused one (C4, C9) and no call (C10) are never fulfilled."""
    if call_status == "accepted":
        if call is None:
            raise RulesInputError("call", N_("an accepted call is missing"))
        return _check_call(state, call, outcome, settings, sc)
    if call_status == "refused":
        return None, False, None, ["C4", "C9"]
    return None, False, None, ["C10"]


def _penalty(
    state: GameState,
    outcome: Outcome,
    settings: Settings,
    fouls: tuple[str, ...],
    fell_balls: tuple[int, ...],
    clauses: list[str],
) -> tuple[Penalty, bool, bool]:
    """(the penalty, positions restored, a quiet penalty stroke (E2)); its clauses added.

    P1: a penalty stroke; P2: the penalty from the offender to the partner;
    P4: one penalty however many violations; P5: fallen balls re-spotted."""
    s = state.to_play
    pen = settings.penalty
    paid = pen if settings.negative_scores else min(pen, max(0, state.scores[s]))  # Q1
    fids = tuple(_FOUL_IDS[f] for f in fouls)
    clauses += ["P1", *fids, "P2"]
    if len(fouls) > 1:
        clauses.append("P4")
    if paid < pen:
        clauses.append("Q1")
    if fell_balls:
        clauses.append("P5")
    restore = False
    if "д" in fouls:
        clauses.append("P6")  # the fallen ball re-spotted, the rest stay
        if outcome.warned:
            clauses.append("P7")
            restore = True
    if "г" in fouls and outcome.warned:
        clauses.append("P8")
        restore = True
    quiet = outcome.warned and outcome.positions_unchanged  # E2
    return Penalty(state.players[s], fids, pen, paid), restore, quiet


def _points(
    state: GameState,
    settings: Settings,
    sc: _Scan,
    called: int | None,
    fell_balls: tuple[int, ...],
    clauses: list[str],
) -> tuple[tuple[Any, ...], tuple[Any, ...], int, int]:
    """A fulfilled call: (the balls counted, the balls re-spotted, their points, the
    bonus); clean counts the called ball only (C6), ball and pocket every ball (C8)."""
    if settings.mode == "clean":
        counted: tuple[Any, ...] = (called,)
        respotted = tuple(b for b in fell_balls if b != called) + tuple(sc.flew)
        if len(fell_balls) > 1:
            clauses.append("C6")
    else:
        counted = fell_balls
        respotted = tuple(sc.flew)
        if len(fell_balls) > 1:
            clauses.append("C8")
    value = settings.value
    ball_points = sum(value(b) for b in counted)
    clauses.append("Q4")
    bonus = 0
    if settings.bonus and len(counted) == len(state.on_table):
        bonus = settings.bonus  # Q4: the last ball on the table
        ball_points += bonus
    return counted, respotted, ball_points, bonus


def _game_end(
    state: GameState,
    settings: Settings,
    deltas: tuple[int, int],
    quiet: bool,
    counted: tuple[Any, ...],
    penalised: bool,
    clauses: list[str],
) -> tuple[Result | None, int | None]:
    """The result after the stroke, or the ball of a last-ball replay (see _end)."""
    scores = state.scores
    s = state.to_play
    new_scores = (scores[0] + deltas[0], scores[1] + deltas[1])
    quiet_new = list(state.quiet_penalties)
    quiet_new[s] = quiet_new[s] + 1 if quiet else 0
    table_left = len(state.on_table) - len(counted)
    last_scored = counted[-1] if counted else state.last_scored
    return _end(
        state, settings, new_scores, quiet_new, table_left, penalised, last_scored, clauses
    )


def _end(
    state: GameState,
    settings: Settings,
    scores: tuple[int, int],
    quiet: list[int],
    table_left: int,
    penalised: bool,
    last_scored: int | None,
    clauses: list[str],
) -> tuple[Result | None, int | None]:
    """E1, E2, Q5, E4: the result after a stroke, or a last-ball replay."""
    target = settings.target
    p = state.players
    for i in (state.to_play, 1 - state.to_play):
        if scores[i] >= target:
            clauses.append("E1")
            if penalised and i != state.to_play:
                clauses.append("P3")  # the partner got there with penalty points
            clauses.append("E3")
            return Result(winner=p[i], clause="E1"), None
    draw = None
    if scores[0] >= target - 1 and scores[1] >= target - 1:
        draw, why = "normal", "E2"  # 70:70
    elif quiet[0] >= QUIET_LIMIT and quiet[1] >= QUIET_LIMIT:
        draw, why = "forced", "E2"
    elif table_left == 0:
        clauses.append("Q5")
        if scores[0] != scores[1]:
            clauses.append("E3")
            return Result(winner=p[0] if scores[0] > scores[1] else p[1], clause="Q5"), None
        draw, why = "normal", "Q5"
    if draw is None:
        return None, None
    clauses += [why, "E3"]
    if settings.result_required:
        clauses.append("E4")
        return None, (last_scored or 1)
    return Result(draw=draw, clause=why), None


def _judge_last_ball(
    state: GameState,
    outcome: Outcome,
    settings: Settings,
    call_status: str,
    sc: _Scan,
    fouls: tuple[str, ...],
    fell_balls: tuple[int, ...],
) -> Verdict:
    """E4/E5: one ball on the third point, strokes without a call."""
    s, o = state.to_play, 1 - state.to_play
    clauses = ["E4"]
    result = None
    counted: tuple[Any, ...] = ()
    respotted: tuple[Any, ...] = ()
    penalty = None
    if fouls:
        fids = tuple(_FOUL_IDS[f] for f in fouls)
        clauses += ["P1", *fids, "E5", "E3"]
        penalty = Penalty(state.players[s], fids, settings.penalty, 0)
        result = Result(winner=state.players[o], clause="E5")
        respotted = fell_balls + tuple(sc.flew)
    elif fell_balls:
        counted = fell_balls
        clauses.append("E3")
        result = Result(winner=state.players[s], clause="E4")
    else:
        respotted = tuple(sc.flew)
        clauses.append("Q3")
    if respotted:
        clauses.append("Q6")
    return Verdict(
        players=state.players,
        stroke=state.strokes,
        phase=LAST_BALL,
        striker_idx=s,
        call_status=call_status,
        called_ball=None,
        fulfilled=False,
        miss=None,
        deltas=(0, 0),
        ball_points=0,
        bonus=0,
        counted=counted,
        respotted=respotted,
        fouls=fouls,
        penalty=penalty,
        restore_positions=False,
        next_idx=o,
        next_from_hand=sc.cue_in or sc.cue_off,
        quiet=False,
        result=result,
        replay_ball=None,
        clauses=_dedup(clauses),
    )


def apply(state: GameState, verdict: Verdict) -> GameState:
    """The state after a stroke judged by ``judge`` on this very state."""
    if verdict.stroke != state.strokes or verdict.players != state.players:
        raise RulesInputError("verdict", N_("was judged on another state"))
    s = verdict.striker_idx
    d = verdict.deltas
    scores = (state.scores[0] + d[0], state.scores[1] + d[1])
    from_balls = state.from_balls
    if verdict.ball_points:
        fb = list(from_balls)
        fb[s] += verdict.ball_points
        from_balls = (fb[0], fb[1])
    received, paid = state.received, state.paid
    pen = verdict.penalty
    if pen is not None and verdict.phase == NORMAL:
        r, p = list(received), list(paid)
        r[1 - s] += pen.points
        p[s] += pen.paid
        received, paid = (r[0], r[1]), (p[0], p[1])
    quiet = list(state.quiet_penalties)
    quiet[s] = quiet[s] + 1 if verdict.quiet else 0
    on_table = state.on_table.difference(verdict.counted) if verdict.counted else state.on_table
    phase = state.phase
    last_scored = (
        verdict.counted[-1] if verdict.counted and verdict.phase == NORMAL else state.last_scored
    )
    if verdict.replay_ball is not None:  # E4
        on_table = frozenset((verdict.replay_ball,))
        phase = LAST_BALL
        quiet = [0, 0]
    # Positional, in GameState's field order.
    return _new(
        GameState,
        (
            state.players,
            scores,
            on_table,
            verdict.next_idx,
            verdict.next_from_hand,
            from_balls,
            received,
            paid,
            (quiet[0], quiet[1]),
            verdict.result,
            phase,
            state.next_break,
            last_scored,
            state.strokes + 1,
        ),
    )


def step(
    state: GameState,
    call: Call | None,
    outcome: Outcome,
    settings: Settings,
    *,
    call_status: str = "accepted",
) -> tuple[Verdict, GameState]:
    """``judge`` then ``apply``."""
    v = judge(state, call, outcome, settings, call_status=call_status)
    return v, apply(state, v)


def is_game_over(state: GameState) -> bool:
    return state.result is not None


def needs(state: GameState, player: str, settings: Settings) -> int:
    """Points the player still needs to win (E1). P3: a partner who received
    penalty points needs that many fewer from balls — the −5/+5 total does it."""
    return max(0, settings.target - state.score_of(player))
