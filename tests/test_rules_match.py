"""Match: strokes recorded in a history of immutable states; undo/redo;
bad input changes nothing."""

from __future__ import annotations

import pytest

from pyramid_referee.grammar.call import Call, Pocket
from pyramid_referee.rules import Match, RulesInputError, Settings

MID = Pocket("middle")


def straight(b):
    return Call(b, MID, (("cue", b), (b, "pocket")))


def potted(b):
    return {
        "events": [
            {"type": "hit", "a": "cue", "b": b},
            {
                "type": "pocket",
                "ball": b,
                "pocket": {"kind": "middle", "side": "left", "end": None},
            },
        ]
    }


def test_stroke_undo_redo():
    m = Match(Settings(), ["A", "B"])
    s0 = m.state
    m.stroke(straight(3), potted(3))
    s1 = m.state
    m.stroke(straight(5), potted(5))
    s2 = m.state
    assert [r.verdict.called_ball for r in m.history] == [3, 5]
    assert m.undo() == s1 and m.undo() == s0 and not m.can_undo
    assert m.history == []
    assert m.redo() == s1 and m.redo() == s2 and not m.can_redo
    with pytest.raises(RulesInputError):
        m.redo()


def test_new_stroke_after_undo_drops_the_redo_branch():
    m = Match()
    m.stroke(straight(3), potted(3))
    m.stroke(straight(5), potted(5))
    m.undo()
    m.stroke(straight(7), potted(7))
    assert not m.can_redo and [r.verdict.called_ball for r in m.history] == [3, 7]
    assert m.state.scores == (10, 0)


def test_bad_input_raises_and_changes_nothing():
    m = Match()
    m.stroke(straight(3), potted(3))
    before, hist = m.state, list(m.history)
    for call, outcome, field in (
        (straight(3), potted(5), "call.ball"),  # 3 is no longer on the table
        (straight(5), {"events": [{"type": "hit", "a": "cue", "b": 99}]}, "events[0].b"),
        ({"ball": 5}, potted(5), "call.pocket"),
        ("пятёрку", potted(5), "call"),
    ):
        with pytest.raises(RulesInputError) as e:
            m.stroke(call, outcome)
        assert e.value.field == field
    with pytest.raises(RulesInputError):
        m.stroke(straight(5), potted(5), call_status="maybe")
    assert m.state is before and m.history == hist and m.can_undo and not m.can_redo


def test_game_over_further_strokes_raise():
    m = Match(
        Settings(),
        ["A", "B"],
        {"scores": {"A": 65, "B": 130 - 65 - 6 - 9}, "on_table": [6, 9], "to_play": "A"},
    )
    m.stroke(straight(6), potted(6))
    assert m.state.is_over
    with pytest.raises(RulesInputError) as e:
        m.stroke(straight(9), potted(9))
    assert "E1" in str(e.value)
    m.undo()  # undo reopens the game
    assert not m.state.is_over


def test_settings_as_json_and_records_to_json():
    m = Match({"mode": "ball_and_pocket"}, ["A", "B"])
    m.stroke({"ball": 3, "pocket": {"kind": "middle"}, "route": None}, potted(3))
    rec = m.history[0].to_json()
    assert (
        rec["call"]["ball"] == 3
        and rec["call_status"] == "accepted"
        and rec["verdict"]["fulfilled"]
    )
    with pytest.raises(RulesInputError):
        Match({"mode": "x"})


def test_call_and_call_status_errors_in_russian_too():
    m = Match()
    for call, status, field in (
        ({"ball": 5}, "accepted", "call.pocket"),
        (None, "maybe", "call_status"),
    ):
        with pytest.raises(RulesInputError) as e:
            m.stroke(call, {"events": [{"type": "hit", "a": "cue", "b": 5}]}, call_status=status)
        assert e.value.field == field
        assert any("а" <= ch <= "я" for ch in e.value.text("ru")), e.value.text("ru")
    assert m.state.strokes == 0 and not m.history


# -- a match is a series of games (партии) --------------------------------------------------------


def short_game_settings():
    return Settings(target=5)  # one pot of the 5 ends a game


def test_a_match_to_two_wins_plays_games_with_the_break_alternating_E4():
    m = Match(short_game_settings(), ["A", "B"], to_wins=2)
    assert m.state.striker == "A"
    m.stroke(straight(5), potted(5))  # A wins game 1
    assert m.game_over and not m.decided and m.wins() == {"A": 1, "B": 0}
    assert m.state.scores == (5, 0)  # the state after the last stroke is the ended game
    m.stroke(
        straight(5), potted(5)
    )  # game 2: B breaks (E4: the other starts the next game) and wins it
    assert m.history[-1].verdict.striker == "B"
    assert m.wins() == {"A": 1, "B": 1} and not m.decided
    m.stroke(straight(5), potted(5))  # game 3: A breaks again
    assert m.history[-1].verdict.striker == "A"
    assert m.decided and m.wins() == {"A": 2, "B": 1}
    with pytest.raises(RulesInputError):
        m.stroke(straight(3), potted(3))
    games = m.games()
    assert [(g.number, g.first, g.last, g.breaker, g.result.winner) for g in games] == [
        (1, 1, 1, "A", "A"),
        (2, 2, 2, "B", "B"),
        (3, 3, 3, "A", "A"),
    ]


def test_a_new_game_starts_from_a_full_rack_and_from_the_house():
    m = Match(short_game_settings(), ["A", "B"], to_wins=2)
    m.stroke(straight(5), potted(5))
    m.stroke(
        straight(3), potted(3)
    )  # game 2's first stroke: B pots 3 (3 points, the game goes on)
    st = m.state
    assert st.scores == (0, 3) and 5 in st.on_table and 3 not in st.on_table
    assert [g.number for g in m.games()] == [1, 2] and m.games()[1].result is None


def test_undoing_a_new_games_first_stroke_returns_to_the_ended_game():
    m = Match(short_game_settings(), ["A", "B"], to_wins=2)
    m.stroke(straight(5), potted(5))
    ended = m.state
    m.stroke(straight(3), potted(3))
    assert m.undo() == ended and m.game_over and not m.decided
    assert [g.number for g in m.games()] == [1, 2] and m.games()[1].first == 2  # game 2 not begun


def test_one_game_is_the_default_match():
    m = Match(short_game_settings(), ["A", "B"])
    m.stroke(straight(5), potted(5))
    assert m.decided
    with pytest.raises(RulesInputError):
        m.stroke(straight(3), potted(3))


@pytest.mark.parametrize("bad", [0, 100, "3", True])
def test_to_wins_outside_1_to_99_is_refused_with_its_range(bad):
    with pytest.raises(RulesInputError) as exc:
        Match(Settings(), ["A", "B"], to_wins=bad)
    assert "от 1 до 99" in exc.value.text("ru")
