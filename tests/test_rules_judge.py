"""Judging a stroke, clause by clause (docs/rules.md). Each test is named after the
clause or policy it shows; the outcomes are synthetic (hand-written events)."""

from __future__ import annotations

import pytest

from pyramid_referee.grammar.call import Call, Pocket
from pyramid_referee.rules import (
    GameState,
    Match,
    Outcome,
    RulesInputError,
    Settings,
    apply,
    fouls_of,
    is_fulfilled,
    judge,
    needs,
    route_followed,
)

MID = Pocket("middle")
MID_L = {"kind": "middle", "side": "left", "end": None}
MID_R = {"kind": "middle", "side": "right", "end": None}
CORNER_LF = {"kind": "corner", "side": "left", "end": "far"}
CORNER_RN = {"kind": "corner", "side": "right", "end": "near"}


def hit(a, b):
    return {"type": "hit", "a": a, "b": b}


def cush(b):
    return {"type": "cushion", "ball": b}


def pock(b, pocket=MID_L):
    return {"type": "pocket", "ball": b, "pocket": pocket}


def off(b):
    return {"type": "off_table", "ball": b}


def out(*events, **kw):
    return Outcome.from_json({"events": list(events), **kw})


def straight(ball, pocket=MID):
    """чисто/прямо: cue → ball → pocket."""
    return Call(ball, pocket, (("cue", ball), (ball, "pocket")))


def bp(ball, pocket=MID):
    """A ball-and-pocket call (C7)."""
    return Call(ball, pocket, None)


def straight_in(ball, pocket=MID_L):
    return out(hit("cue", ball), pock(ball, pocket))


def start(a, b, table, to_play="A", **kw):
    return {"scores": {"A": a, "B": b}, "on_table": table, "to_play": to_play, **kw}


def off_table_worth(table, settings=None):
    settings = settings or Settings()
    return sum(settings.value(x) for x in range(1, 16) if x not in table)


BP = Settings(mode="ball_and_pocket")
T = [10, 11, 12, 13, 14, 15]  # worth 75 on the table, 55 off it


# --- C: calls ---------------------------------------------------------------


def test_C1_two_modes_judge_the_same_stroke_differently():
    call = Call(3, MID, (("cue", 6), (6, 3), (3, "pocket")))  # «шестёркой тройку в середину»
    stroke = out(hit("cue", 3), pock(3))  # but it went straight
    assert not judge(GameState.initial(Settings(), ["A", "B"]), call, stroke, Settings()).fulfilled
    v = judge(GameState.initial(BP, ["A", "B"]), call, stroke, BP)
    assert v.fulfilled and v.points == {"A": 3, "B": 0}


def test_C2_clean_call_fulfilled_the_declared_way():
    m = Match(Settings(), ["A", "B"])
    v = m.stroke(straight(3), straight_in(3))
    assert v.fulfilled and v.points == {"A": 3, "B": 0} and "C2" in v.clauses
    assert 3 not in m.state.on_table


def test_C2_clean_call_without_a_way_is_refused_as_input():
    m = Match(Settings(), ["A", "B"])
    with pytest.raises(RulesInputError) as e:
        m.stroke(bp(3), straight_in(3))
    assert e.value.field == "call.route" and "C2" in str(e.value)
    assert m.state.strokes == 0


def test_C2_seed_carambole_call():
    # «Карамболем от шестерки одиннадцатым шаром тройка прямо в середину»
    call = Call(3, MID, (("cue", 6), ("cue", 11), (11, 3), (3, "pocket")))
    m = Match(Settings(), ["A", "B"])
    v = m.stroke(call, out(hit("cue", 6), hit("cue", 11), hit(11, 3), pock(3)))
    assert v.fulfilled and v.points["A"] == 3
    m.undo()
    v = m.stroke(call, out(hit("cue", 11), hit(11, 3), pock(3)))  # no carom off 6
    assert not v.fulfilled and v.miss == "route" and v.respotted == (3,)


def test_C3_combination_with_any_number_of_balls():
    # «Тремя шарами 4, 5, 6 … 12-й шар в левый угол»
    call = Call(
        12, Pocket("corner", "left"), (("cue", 4), (4, 5), (5, 6), (6, 12), (12, "pocket"))
    )
    v = Match().stroke(
        call, out(hit("cue", 4), hit(4, 5), hit(5, 6), hit(6, 12), pock(12, CORNER_LF))
    )
    assert v.fulfilled and v.points["A"] == 12 and "C3" in v.clauses


def test_C3_abricol_must_be_declared_when_no_other_ball_takes_part():
    stroke = out(cush("cue"), hit("cue", 3), pock(3))
    v = Match().stroke(straight(3), stroke)
    assert not v.fulfilled and v.miss == "route_c3" and "C3" in v.clauses
    declared = Call(3, MID, (("cue", "cushion"), ("cue", 3), (3, "pocket")))  # «абриколем тройку»
    assert Match().stroke(declared, stroke).fulfilled


def test_C3_abricol_not_required_when_other_balls_take_part():
    call = Call(3, MID, (("cue", 6), (6, 3), (3, "pocket")))
    v = Match().stroke(call, out(cush("cue"), hit("cue", 6), hit(6, 3), pock(3)))
    assert v.fulfilled


def test_C4_refused_call_counts_nothing():
    m = Match()
    v = m.stroke(None, straight_in(3), call_status="refused")
    assert not v.fulfilled and v.points == {"A": 0, "B": 0}
    assert v.respotted == (3,) and 3 in m.state.on_table
    assert {"C4", "C9"} <= set(v.clauses) and m.state.striker == "B"


def test_C5_last_ball_need_not_be_named():
    st = start(60, off_table_worth([7]) - 60, [7])
    m = Match(Settings(), ["A", "B"], st)
    call = Call(None, MID, (("cue", None), (None, "pocket")))
    v = m.stroke(call, straight_in(7))
    assert v.fulfilled and v.called_ball == 7 and "C5" in v.clauses
    assert v.points["A"] == 7 + 10  # Q4 bonus for the last ball


def test_C5_unnamed_ball_with_several_left_is_refused():
    with pytest.raises(RulesInputError) as e:
        Match().stroke(Call(None, MID, (("cue", None), (None, "pocket"))), straight_in(3))
    assert e.value.field == "call.ball" and "C5" in str(e.value)


def test_C6_clean_other_fallen_balls_do_not_count_and_are_respotted():
    m = Match()
    v = m.stroke(straight(3), out(hit("cue", 3), pock(3), hit("cue", 5), pock(5, CORNER_LF)))
    assert v.fulfilled and v.counted == (3,) and v.respotted == (5,) and v.points["A"] == 3
    assert "C6" in v.clauses and 5 in m.state.on_table and 3 not in m.state.on_table


def test_C7_ball_and_pocket_needs_no_way():
    m = Match(BP)
    v = m.stroke(bp(3), out(cush("cue"), hit("cue", 8), hit(8, 3), cush(3), pock(3)))
    assert v.fulfilled and "C7" in v.clauses


def test_C8_ball_and_pocket_other_balls_count_whenever_they_fell():
    m = Match(BP)
    v = m.stroke(
        bp(3),
        out(
            hit("cue", 3),
            hit(3, 5),
            pock(5, CORNER_LF),
            pock(3),
            hit("cue", 9),
            pock(9, CORNER_RN),
        ),
    )
    assert (
        v.fulfilled and set(v.counted) == {3, 5, 9} and v.points["A"] == 17 and "C8" in v.clauses
    )
    assert not {3, 5, 9} & m.state.on_table


def test_C8_other_balls_do_not_count_when_the_call_fails():
    v = Match(BP).stroke(bp(3), out(hit("cue", 3), hit(3, 5), pock(5, CORNER_LF)))
    assert not v.fulfilled and v.counted == () and v.respotted == (5,)


def test_C9_refused_unclear_call_cites_C9():
    v = Match().stroke(None, out(hit("cue", 3)), call_status="refused")
    assert "C9" in v.clauses and v.call_status == "refused"


def test_C10_no_call_balls_respotted_fouls_still_penalised():
    m = Match()
    v = m.stroke(None, straight_in(3), call_status="none")
    assert v.points == {"A": 0, "B": 0} and v.respotted == (3,) and "C10" in v.clauses
    v = m.stroke(None, out(hit("cue", 3), pock("cue", CORNER_RN)), call_status="none")
    assert v.penalty is not None and v.penalty.player == "B" and v.points == {"A": 5, "B": -5}


def test_C11_Q9_default_mode_is_clean_designation():
    assert Settings().mode == "clean"


# --- E: end of the game -------------------------------------------------------


def test_E1_first_to_reach_71_wins_and_the_game_is_over():
    m = Match(Settings(), ["A", "B"], start(65, off_table_worth([6, 9, 15]) - 65, [6, 9, 15]))
    v = m.stroke(straight(6), straight_in(6))
    assert v.result.winner == "A" and "E1" in v.clauses and m.state.is_over
    with pytest.raises(RulesInputError):
        m.stroke(straight(9), straight_in(9))
    assert m.state.scores == (71, off_table_worth([6, 9, 15]) - 65)


def test_E2_normal_draw_at_70_70():
    m = Match(Settings(), ["A", "B"], start(58, 70, [2]))
    v = m.stroke(straight(2), straight_in(2))
    assert m.state.scores == (70, 70) and v.result.draw == "normal" and "E2" in v.clauses


def _quiet_penalty(**kw):
    return out(fouls=["г"], warned=True, positions_unchanged=True, **kw)


def test_E2_forced_draw_three_quiet_penalty_strokes_each():
    m = Match(Settings(), ["A", "B"], start(50, 55, [1, 2, 3, 4, 5]))
    for _ in range(5):
        v = m.stroke(None, _quiet_penalty(), call_status="none")
        assert v.result is None and v.quiet
    v = m.stroke(None, _quiet_penalty(), call_status="none")
    assert v.result.draw == "forced" and "E2" in v.clauses
    assert m.state.quiet_penalties == (3, 3)


def test_E2_forced_draw_needs_strokes_in_a_row():
    m = Match(Settings(), ["A", "B"], start(50, 55, [1, 2, 3, 4, 5]))
    for _ in range(4):
        m.stroke(None, _quiet_penalty(), call_status="none")
    m.stroke(None, out(hit("cue", 3)), call_status="none")  # A: a plain stroke breaks the row
    m.stroke(None, _quiet_penalty(), call_status="none")  # B's third
    assert m.state.quiet_penalties == (0, 3) and m.state.result is None
    m.stroke(None, _quiet_penalty(), call_status="none")
    assert m.state.result is None  # A has one again, not three


def test_E2_without_warning_penalties_do_not_count_to_a_forced_draw():
    m = Match(Settings(), ["A", "B"], start(50, 55, [1, 2, 3, 4, 5]))
    for _ in range(6):
        m.stroke(None, out(fouls=["г"], positions_unchanged=True), call_status="none")
    assert m.state.result is None and m.state.quiet_penalties == (0, 0)


def test_E3_result_kinds_win_normal_draw_forced_draw():
    from pyramid_referee.rules import Result

    assert Result(winner="A").to_json() == {"winner": "A"}
    assert Result(draw="normal").to_json() == {"draw": "normal"}
    assert Result(draw="forced").to_json() == {"draw": "forced"}
    v = Match(Settings(), ["A", "B"], start(65, off_table_worth([6, 9]) - 65, [6, 9])).stroke(
        straight(6), straight_in(6)
    )
    assert "E3" in v.clauses


RR = Settings(result_required=True)


def test_E4_draw_replayed_in_the_last_ball_when_a_result_is_required():
    m = Match(RR, ["A", "B"], start(58, 70, [2]))  # B starts the next game (default next_break)
    v = m.stroke(straight(2), straight_in(2))
    assert v.result is None and v.replay_ball == 2 and "E4" in v.clauses
    st = m.state
    assert (
        st.phase == "last_ball"
        and st.on_table == frozenset({2})
        and st.striker == "B"
        and st.from_hand
    )
    v = m.stroke(None, out(hit("cue", 2)), call_status="none")  # B misses the pocket
    assert v.result is None and m.state.striker == "A" and not m.state.from_hand
    v = m.stroke(None, straight_in(2), call_status="none")  # A pockets it, no call needed
    assert v.result.winner == "A" and m.state.scores == (70, 70)


def test_E4_next_break_from_the_start_record():
    m = Match(RR, ["A", "B"], start(58, 70, [2], next_break="A"))
    m.stroke(straight(2), straight_in(2))
    assert m.state.striker == "A" and m.state.phase == "last_ball"


def test_E5_penalty_in_the_last_ball_replay_loses():
    m = Match(RR, ["A", "B"], start(58, 70, [2]))
    m.stroke(straight(2), straight_in(2))
    v = m.stroke(None, out(hit("cue", 2), pock(2), pock("cue", CORNER_RN)), call_status="none")
    assert v.result.winner == "A" and "E5" in v.clauses and v.respotted == (2,)


def test_E6_taking_a_ball_off_the_table_is_refused():
    m = Match()
    with pytest.raises(RulesInputError) as e:
        m.stroke(None, {"events": [{"type": "removed", "ball": 5}]}, call_status="none")
    assert "E6" in str(e.value) and e.value.field == "events[0].type"
    assert m.state.strokes == 0 and 5 in m.state.on_table


# --- P: penalties ----------------------------------------------------------------


def test_P1a_miss_derived_from_no_cue_hit():
    v = Match().stroke(None, out(cush("cue")), call_status="none")
    assert v.fouls == ("а",) and "P1а" in v.clauses


def test_P1b_cue_ball_pocketed():
    v = Match().stroke(straight(3), out(hit("cue", 3), pock(3), pock("cue", CORNER_RN)))
    assert v.fouls == ("б",) and v.penalty.clauses == ("P1б",)


def test_P1b_cue_ball_pocketed_pocket_unsaid():
    # «биток в лузе»: which pocket the cue ball fell into does not matter (P1 б).
    v = Match().stroke(straight(3), out(hit("cue", 3), pock("cue", None)))
    assert v.fouls == ("б",) and v.penalty.clauses == ("P1б",)


def test_Q2_called_ball_fallen_pocket_unsaid_is_asked_for():
    m = Match()
    before = m.state
    with pytest.raises(RulesInputError) as e:
        m.stroke(straight(3), out(hit("cue", 3), pock(3, None)))
    assert e.value.field == "events[1].pocket"
    assert m.state == before  # bad input changes nothing


def test_P1v_cue_ball_off_the_table():
    m = Match()
    v = m.stroke(straight(3), out(hit("cue", 3), off("cue")))
    assert v.fouls == ("в",) and m.state.from_hand


def test_P1zh_from_hand_first_hit_in_the_house():
    v = Match().stroke(straight(3), out(hit("cue", 3), pock(3), first_hit_in_house=True))
    assert v.fouls == ("ж",) and v.points == {"A": -5, "B": 5}


def test_P1zh_first_hit_in_house_only_from_hand():
    m = Match(Settings(), ["A", "B"], start(25, 30, T))
    with pytest.raises(RulesInputError) as e:
        m.stroke(straight(13), out(hit("cue", 13), first_hit_in_house=True))
    assert e.value.field == "first_hit_in_house"


@pytest.mark.parametrize("letter", ["г", "д", "е", "з", "и"])
def test_P1_given_letters_are_penalties(letter):
    v = Match().stroke(straight(3), out(hit("cue", 3), pock(3), fouls=[letter]))
    assert v.fouls == (letter,) and v.penalty.clauses == ("P1" + letter,) and v.counted == ()


def test_P1_derived_letters_are_not_accepted_in_fouls():
    with pytest.raises(RulesInputError) as e:
        Outcome.from_json({"events": [hit("cue", 3)], "fouls": ["б"]})
    assert e.value.field == "fouls[0]" and "P1" in str(e.value)


def test_P2_five_points_from_the_offender_to_the_partner():
    m = Match(Settings(), ["A", "B"], start(25, 30, T))
    v = m.stroke(None, out(cush("cue")), call_status="none")
    assert m.state.scores == (20, 35) and "P2" in v.clauses
    assert sum(m.state.scores) == off_table_worth(T)  # moved, not created


def test_P3_partner_needs_71_minus_the_penalty_points_received():
    m = Match(Settings(), ["A", "B"])
    m.stroke(None, out(cush("cue")), call_status="none")  # A misses: B +5, A pocketed nothing
    assert needs(m.state, "B", m.settings) == 66 and m.state.received == (0, 5)
    # B now needs 66 from balls: with −5/+5 scoring the total does it.
    m.stroke(straight(15), straight_in(15))
    for ball, pocket in ((14, MID_R), (13, MID_L), (12, MID_R), (1, MID_L)):
        v = m.stroke(straight(ball), straight_in(ball, pocket))
    assert m.state.from_balls[1] == 15 + 14 + 13 + 12 + 11 == 65 and v.result is None
    v = m.stroke(straight(2), straight_in(2))  # 67 from balls ≥ 66
    assert v.result.winner == "B" and m.state.scores == (-5, 72)


def test_P3_partner_reaching_the_target_by_a_penalty_wins():
    m = Match(Settings(), ["A", "B"], start(off_table_worth([3, 4]) - 68, 68, [3, 4]))
    v = m.stroke(None, out(cush("cue")), call_status="none")
    assert v.result.winner == "B" and "P3" in v.clauses


def test_P4_several_violations_one_penalty():
    m = Match()
    v = m.stroke(
        None, out(cush("cue"), pock("cue", CORNER_RN), fouls=["г", "е"]), call_status="none"
    )
    assert v.fouls == ("а", "б", "г", "е") and v.points == {"A": -5, "B": 5} and "P4" in v.clauses


def test_P5_pocketed_balls_respotted_on_a_penalty_stroke():
    m = Match(BP)
    v = m.stroke(
        bp(3), out(hit("cue", 3), hit(3, 5), pock(3), pock(5, CORNER_LF), pock("cue", CORNER_RN))
    )
    assert v.fulfilled and v.counted == () and v.respotted == (3, 5) and "P5" in v.clauses
    assert {3, 5} <= m.state.on_table and m.state.striker == "B" and m.state.from_hand


def test_P6_playing_another_ball_fallen_respotted_rest_stay():
    m = Match()
    v = m.stroke(None, out(hit(7, 3), pock(3), fouls=["д"]), call_status="none")
    assert v.respotted == (3,) and "P6" in v.clauses and not v.restore_positions
    assert m.state.on_table == frozenset(range(1, 16))


def test_P7_another_ball_despite_warning_restore_flag():
    v = Match().stroke(None, out(hit(7, 3), fouls=["д"], warned=True), call_status="none")
    assert v.restore_positions and "P7" in v.clauses


def test_P8_touch_after_remark_restore_flag():
    v = Match().stroke(straight(3), out(hit("cue", 3), fouls=["г"], warned=True))
    assert v.restore_positions and "P8" in v.clauses
    v = Match().stroke(straight(3), out(hit("cue", 3), fouls=["г"]))
    assert not v.restore_positions


# --- Q: policies --------------------------------------------------------------------


def test_Q1_negative_scores_by_default():
    m = Match()
    m.stroke(None, out(cush("cue")), call_status="none")
    assert m.state.scores == (-5, 5)


def test_Q1_floor_at_zero_setting():
    m = Match(Settings(negative_scores=False))
    v = m.stroke(None, out(cush("cue")), call_status="none")
    assert m.state.scores == (0, 5) and v.penalty.paid == 0 and "Q1" in v.clauses
    assert m.state.paid == (0, 0) and m.state.received == (0, 5)


def test_Q2_corner_call_needs_its_side():
    with pytest.raises(RulesInputError) as e:
        Match().stroke(straight(3, Pocket("corner")), straight_in(3, CORNER_LF))
    assert e.value.field == "call.pocket.side" and "Q2" in str(e.value)
    v = Match(Settings(pocket_precision="any")).stroke(
        straight(3, Pocket("corner")), straight_in(3, CORNER_LF)
    )
    assert v.fulfilled


def test_Q2_middle_alone_fits_either_middle_and_sides_must_match():
    assert Match().stroke(straight(3), straight_in(3, MID_R)).fulfilled
    v = Match().stroke(straight(3, Pocket("corner", "left")), straight_in(3, CORNER_RN))
    assert not v.fulfilled and v.miss == "wrong_pocket"
    assert (
        Match().stroke(straight(3, Pocket("corner", "left")), straight_in(3, CORNER_LF)).fulfilled
    )
    v = Match().stroke(straight(3, Pocket("corner", "left", "near")), straight_in(3, CORNER_LF))
    assert not v.fulfilled


def test_Q2_outcome_must_say_what_the_call_named():
    with pytest.raises(RulesInputError) as e:
        Match().stroke(
            straight(3, Pocket("middle", "left")),
            straight_in(3, {"kind": "middle", "side": None, "end": None}),
        )
    assert e.value.field == "events[1].pocket.side"


def test_Q3_who_strikes_next():
    m = Match()
    m.stroke(straight(3), straight_in(3))
    assert m.state.striker == "A"  # fulfilled: again
    m.stroke(straight(4), out(hit("cue", 4)))
    assert m.state.striker == "B"  # not fulfilled: passes
    v = m.stroke(straight(5), out(hit("cue", 5), pock(5), pock("cue", CORNER_RN)))
    assert v.fulfilled and m.state.striker == "A"  # fulfilled with a penalty: passes


def test_Q4_classic_values_tuz_11_and_last_ball_bonus_total_140():
    s = Settings()
    assert s.value(1) == 11 and s.value(15) == 15 and s.total == 140
    m = Match(BP)
    events = (
        [hit("cue", 1)] + [hit(b, b + 1) for b in range(1, 15)] + [pock(b) for b in range(1, 16)]
    )
    v = m.stroke(bp(1), out(*events))
    assert v.points["A"] == 140 and v.bonus == 10 and v.result.winner == "A"


def test_Q4_face_values_no_bonus():
    s = Settings(ball_values="face")
    assert s.value(1) == 1 and s.total == 120
    m = Match(s, ["A", "B"], start(50, off_table_worth([1], s) - 50, [1]))
    v = m.stroke(straight(1), straight_in(1))
    assert v.points["A"] == 1 and v.bonus == 0


def test_Q5_cleared_table_under_face_values_higher_score_wins():
    s = Settings(ball_values="face")
    m = Match(s, ["A", "B"], start(50, off_table_worth([1], s) - 50, [1]))  # 50 : 69
    v = m.stroke(straight(1), straight_in(1))
    assert m.state.scores == (51, 69) and v.result.winner == "B" and "Q5" in v.clauses


def test_Q5_cleared_table_equal_scores_draw():
    s = Settings(ball_values="face")
    m = Match(s, ["A", "B"], start(59, 60, [1]))
    v = m.stroke(straight(1), straight_in(1))
    assert m.state.scores == (60, 60) and v.result.draw == "normal" and "Q5" in v.clauses


def test_Q6_respotted_ball_goes_back_on_the_table():
    m = Match()
    v = m.stroke(straight(3), out(hit("cue", 3), pock(3), hit("cue", 8), off(8)))
    assert v.fulfilled and v.respotted == (8,) and 8 in m.state.on_table and "Q6" in v.clauses
    assert (
        v.penalty is None
    )  # an object ball off the table is not a penalty (P1 lists only the cue ball)


def test_Q7_a_call_after_the_strike_counts_as_none():
    # The timeline decides (Q7); the engine receives no call: C10.
    m = Match()
    v = m.stroke(None, straight_in(3), call_status="none")
    assert not v.fulfilled and v.respotted == (3,) and m.state.striker == "B"


def test_Q10_every_declared_contact_in_order():
    call = Call(3, MID, (("cue", 6), (6, 3), (3, "pocket")))
    assert Match().stroke(call, out(hit("cue", 6), hit(6, 3), pock(3))).fulfilled
    assert (
        not Match().stroke(call, out(hit("cue", 3), pock(3))).fulfilled
    )  # the combination did not happen


def test_Q10_called_ball_touches_nothing_undeclared():
    v = Match().stroke(straight(3), out(hit("cue", 3), hit(3, 9), pock(3)))
    assert not v.fulfilled and v.miss == "route" and "Q10" in v.clauses
    v = Match().stroke(
        straight(3), out(hit("cue", 3), cush(3), pock(3))
    )  # a bank, called straight
    assert not v.fulfilled
    bank = Call(3, MID, (("cue", 3), (3, "cushion"), (3, "pocket")))  # «тройку от борта»
    assert Match().stroke(bank, out(hit("cue", 3), cush(3), pock(3))).fulfilled


def test_Q10_route_ok_short_form_decides_the_route():
    assert Match().stroke(straight(3), out(pock(3), route_ok=True)).fulfilled
    v = Match().stroke(straight(3), out(pock(3), route_ok=False))
    assert not v.fulfilled and v.respotted == (3,)


def test_Q10_contre_coup_needs_route_ok():
    call = Call(3, MID, (("cue", 3), (3, "contre_coup"), (3, "pocket")))
    with pytest.raises(RulesInputError) as e:
        Match().stroke(call, out(hit("cue", 3), cush(3), pock(3)))
    assert e.value.field == "call.route"
    assert Match().stroke(call, out(pock(3), route_ok=True)).fulfilled


# --- the pure functions themselves ---------------------------------------------------


def test_judge_is_pure_and_apply_moves_on():
    st = GameState.initial(Settings(), ["A", "B"])
    o = straight_in(3)
    v1 = judge(st, straight(3), o, Settings())
    v2 = judge(st, straight(3), o, Settings())
    assert v1 == v2 and st.scores == (0, 0)
    nxt = apply(st, v1)
    assert nxt.scores == (3, 0) and nxt.strokes == 1
    with pytest.raises(RulesInputError):
        apply(nxt, v1)  # judged on another state


def test_predicates():
    st = GameState.initial(Settings(), ["A", "B"])
    assert is_fulfilled(st, straight(3), straight_in(3), Settings())
    assert fouls_of(st, out(cush("cue"), off("cue"))) == ("а", "в")
    assert (
        route_followed((("cue", 3), (3, "pocket")), 3, out(hit("cue", 3), pock(3)).events) is None
    )


def test_events_must_fit_the_table():
    m = Match(Settings(), ["A", "B"], start(25, 30, T))
    for events, field in (
        ([hit("cue", 5)], "events[0].b"),
        ([hit("cue", 13), pock(13), hit(13, 14)], "events[2].a"),
        ([hit("cue", 13), pock(14)], "events[1].ball"),
    ):
        with pytest.raises(RulesInputError) as e:
            m.stroke(None, out(*events), call_status="none")
        assert e.value.field == field
    assert m.state.strokes == 0


def test_from_hand_must_agree_with_the_state():
    with pytest.raises(RulesInputError) as e:
        Match().stroke(straight(3), out(hit("cue", 3), from_hand=False))
    assert e.value.field == "from_hand"


def test_P1zh_first_hit_in_house_needs_a_cue_ball_hit():
    with pytest.raises(RulesInputError) as e:
        Match().stroke(None, out(cush("cue"), first_hit_in_house=True), call_status="none")
    assert e.value.field == "first_hit_in_house"


def test_P1i_balls_still_moving_may_fall_without_a_hit():
    v = Match().stroke(
        None, out(hit("cue", 3), pock(9, CORNER_LF), fouls=["и"]), call_status="none"
    )
    assert v.fouls == ("и",) and v.respotted == (9,)
    with pytest.raises(RulesInputError) as e:  # without и, nothing set 9 moving
        Match().stroke(None, out(hit("cue", 3), pock(9, CORNER_LF)), call_status="none")
    assert e.value.field == "events[1].ball"


# --- a reviewer's probes --------------------------------------------------------


def test_C2_Q10_undeclared_carom_fails_a_call_where_no_other_ball_takes_part():
    # C2: the way is named exactly («чисто», «карамболем от шестёрки» …): a straight call is not
    # fulfilled when the cue ball caromed off another ball first; the same scope as C3's абриколь.
    v = Match().stroke(straight(3), out(hit("cue", 5), hit("cue", 3), pock(3)))
    assert not v.fulfilled and v.miss == "route" and v.respotted == (3,) and "Q10" in v.clauses
    bank = Call(3, MID, (("cue", 3), (3, "cushion"), (3, "pocket")))  # «тройку от борта»
    assert not Match().stroke(bank, out(hit("cue", 9), hit("cue", 3), cush(3), pock(3))).fulfilled
    abricol = Call(3, MID, (("cue", "cushion"), ("cue", 3), (3, "pocket")))  # «абриколем тройку»
    assert (
        not Match()
        .stroke(abricol, out(cush("cue"), hit("cue", 5), hit("cue", 3), pock(3)))
        .fulfilled
    )
    # declared, the carom is the way (the seed's «карамболем от шестёрки»)
    carom = Call(3, MID, (("cue", 5), ("cue", 3), (3, "pocket")))
    assert Match().stroke(carom, out(hit("cue", 5), hit("cue", 3), pock(3))).fulfilled
    # the cue ball may touch other balls after it struck the called ball
    assert Match().stroke(straight(3), out(hit("cue", 3), hit("cue", 5), pock(3))).fulfilled


def test_Q4_P5_C10_no_last_ball_bonus_unless_the_last_ball_counts():
    # The last ball falling on a penalty stroke (P5), on an unfulfilled call or with no call (C10)
    # is re-spotted: nobody gets the Q4 bonus, and the game goes on.
    sheet = start(65, off_table_worth([2]) - 65, [2])
    for call, stroke, status in (
        (straight(2), out(hit("cue", 2), pock(2), pock("cue", CORNER_RN)), "accepted"),
        (straight(2, Pocket("corner", "left")), straight_in(2, MID_L), "accepted"),
        (None, straight_in(2), "none"),
        (None, straight_in(2), "refused"),
    ):
        m = Match(Settings(), ["A", "B"], sheet)
        v = m.stroke(call, stroke, call_status=status)
        assert v.bonus == 0 and v.counted == () and v.respotted == (2,) and v.result is None
        assert m.state.on_table == frozenset({2}) and m.state.striker == "B"
        assert v.points["A"] in (0, -5)


def test_C8_Q4_last_balls_falling_together_all_count_with_the_bonus():
    # C8: every ball that fell counts, before or after the called one; the last one
    # brings the bonus.
    m = Match(BP, ["A", "B"], start(60, off_table_worth([2, 3, 9], BP) - 60, [2, 3, 9]))
    v = m.stroke(
        bp(9),
        out(hit("cue", 2), hit(2, 3), pock(3, CORNER_LF), hit(2, 9), pock(9), pock(2, CORNER_RN)),
    )
    assert set(v.counted) == {2, 3, 9} and v.bonus == 10 and v.points["A"] == 2 + 3 + 9 + 10
    assert not m.state.on_table and v.result.winner == "A" and m.state.scores[0] == 60 + 24


def test_E2_Q1_under_the_floor_70_each_is_a_draw_with_balls_still_on_the_table():
    # With the floor, penalties may create points, so 70:70 can come before the table
    # is cleared (E2).
    floor = Settings(negative_scores=False)
    m = Match(floor, ["A", "B"], start(65, 70, [5, 6, 7]))
    v = m.stroke(straight(5), straight_in(5))
    assert m.state.scores == (70, 70) and v.result.draw == "normal" and "E2" in v.clauses
    assert m.state.on_table == frozenset({6, 7})


def test_P3_Q1_floor_partner_still_gets_the_penalty_and_needs_fewer():
    floor = Settings(negative_scores=False)
    m = Match(
        floor,
        ["A", "B"],
        start(
            3,
            off_table_worth([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]) - 3,
            [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        ),
    )
    v = m.stroke(
        None, out(cush("cue")), call_status="none"
    )  # A has 3: pays 3, B still gets 5 (P2, P3)
    assert v.penalty.paid == 3 and v.points == {"A": -3, "B": 5} and m.state.scores == (0, 5)
    assert needs(m.state, "B", floor) == 66 and needs(m.state, "A", floor) == 71
    v = m.stroke(None, out(cush("cue")), call_status="none")  # B misses: pays 5
    v = m.stroke(None, out(cush("cue")), call_status="none")  # A has 5: pays 5
    assert m.state.scores == (0, 5)


def test_P1z_not_from_the_house_only_from_hand():
    m = Match(Settings(), ["A", "B"], start(25, 30, T))
    with pytest.raises(RulesInputError) as e:
        m.stroke(straight(13), out(hit("cue", 13), fouls=["з"]))
    assert e.value.field == "fouls" and "P1з" in str(e.value) and m.state.strokes == 0


def test_Q3_from_hand_only_after_the_cue_ball_fell_or_flew():
    m = Match()  # the break: from hand
    assert m.state.from_hand
    m.stroke(
        straight(3), out(hit("cue", 3), first_hit_in_house=True)
    )  # ж: the cue ball stays on the table
    assert m.state.striker == "B" and not m.state.from_hand
    m.stroke(straight(4), out(hit("cue", 4), fouls=["г"]))  # a penalty: the cue ball where it lies
    assert m.state.striker == "A" and not m.state.from_hand
    m.stroke(straight(5), out(hit("cue", 5), off("cue")))  # P1в
    assert m.state.striker == "B" and m.state.from_hand
    m.stroke(
        straight(5), out(hit("cue", 5), pock(5))
    )  # fulfilled from hand: again, the cue ball on the table
    assert m.state.striker == "B" and not m.state.from_hand


def test_events_that_cannot_happen_name_the_field_and_change_nothing():
    m = Match()
    m.stroke(straight(3), straight_in(3))
    before, hist = m.state, list(m.history)
    for events, fouls, field in (
        (
            [hit("cue", 5), pock(5), pock(5, CORNER_LF)],
            [],
            "events[2].ball",
        ),  # a ball falling twice
        ([hit("cue", 5), off(5), pock(5)], [], "events[2].ball"),  # falls after it flew off
        ([hit(5, 6), hit("cue", 5)], [], "events[0]"),  # two object balls before any cue-ball hit
        (
            [hit("cue", 5), pock("cue", CORNER_RN), hit("cue", 6)],
            [],
            "events[2].a",
        ),  # the cue ball after it fell
        ([hit("cue", 5), off("cue"), cush("cue")], [], "events[2].ball"),  # … after it flew off
        ([hit("cue", 3)], [], "events[0].b"),  # 3 was pocketed for points: not on the table
        ([pock(6)], ["е"], "events[0].ball"),  # е does not set a ball moving
    ):
        with pytest.raises(RulesInputError) as e:
            m.stroke(straight(5), out(*events, fouls=fouls))
        assert e.value.field == field, (events, str(e.value))
    assert m.state is before and m.history == hist


def test_P1d_playing_another_ball_is_not_also_a_miss():
    # д: the player struck an object ball, not the cue ball; «биток не заденет ни одного из шаров»
    # (а) describes a stroke played with the cue ball, so the referee names one reason, not two.
    v = Match().stroke(None, out(hit(7, 3), pock(3), fouls=["д"]), call_status="none")
    assert v.fouls == ("д",) and v.penalty.clauses == ("P1д",) and "P4" not in v.clauses
    assert "промах" not in v.message("ru") and v.points == {"A": -5, "B": 5}
    v = Match().stroke(
        None, out(cush("cue"), fouls=["г"]), call_status="none"
    )  # г does not excuse a miss
    assert v.fouls == ("а", "г")


def test_the_cue_ball_in_an_event_after_it_left_the_table_is_named_the_cue_ball():
    m = Match(Settings(), ["A", "B"])
    with pytest.raises(RulesInputError) as e:
        m.stroke(None, out(off("cue"), hit("cue", 3)))
    assert (
        e.value.field == "events[1].a"
        and e.value.text("en") == "events[1].a: the cue ball already left the table"
    )
    assert e.value.what("ru") == "битка уже нет на столе"
    with pytest.raises(RulesInputError) as e:
        m.stroke(None, out(hit("cue", 3), pock(3), pock(3, MID_R)))
    assert e.value.what("ru") == "шара 3 уже нет на столе" and e.value.params == {"ball": 3}
