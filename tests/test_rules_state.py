"""The game state: initial, picked up from a score sheet (validated), JSON."""

from __future__ import annotations

import pytest

from pyramid_referee.rules import GameState, RulesInputError, Settings


def test_initial_state():
    st = GameState.initial(Settings(), ["A", "B"])
    assert st.scores == (0, 0) and st.on_table == frozenset(range(1, 16))
    assert st.striker == "A" and st.from_hand and st.result is None and st.phase == "normal"
    j = st.to_json()
    assert j["to_play"] == "A" and j["next_break"] == "B" and j["on_table"] == list(range(1, 16))


def test_start_from_a_score_sheet():
    st = GameState.initial(
        Settings(),
        ["A", "B"],
        {"scores": {"A": 25, "B": 30}, "on_table": [15, 14, 13, 12, 11, 10], "to_play": "B"},
    )
    assert st.scores == (25, 30) and st.striker == "B" and not st.from_hand and st.next_break == 0


@pytest.mark.parametrize(
    "start, field",
    [
        ("x", "start"),
        (
            {"scores": {"A": 0, "B": 0}, "on_table": [1], "to_play": "A", "colour": 1},
            "start.colour",
        ),
        ({"on_table": [1], "to_play": "A"}, "start.scores"),
        ({"scores": {"A": 0}, "on_table": [1], "to_play": "A"}, "start.scores"),
        ({"scores": {"A": "x", "B": 0}, "on_table": [1], "to_play": "A"}, "start.scores.A"),
        ({"scores": {"A": 71, "B": 0}, "on_table": [1], "to_play": "A"}, "start.scores.A"),
        ({"scores": {"A": 0, "B": 0}, "on_table": [], "to_play": "A"}, "start.on_table"),
        ({"scores": {"A": 0, "B": 0}, "on_table": [1, 16], "to_play": "A"}, "start.on_table[1]"),
        ({"scores": {"A": 0, "B": 0}, "on_table": [1, 1], "to_play": "A"}, "start.on_table[1]"),
        (
            {"scores": {"A": 10, "B": 10}, "on_table": list(range(1, 16)), "to_play": "A"},
            "start.scores",
        ),  # P2: sum
        (
            {"scores": {"A": 0, "B": 0}, "on_table": list(range(1, 16)), "to_play": "C"},
            "start.to_play",
        ),
        (
            {
                "scores": {"A": 0, "B": 0},
                "on_table": list(range(1, 16)),
                "to_play": "A",
                "from_hand": "y",
            },
            "start.from_hand",
        ),
        (
            {
                "scores": {"A": 0, "B": 0},
                "on_table": list(range(1, 16)),
                "to_play": "A",
                "next_break": "Z",
            },
            "start.next_break",
        ),
    ],
)
def test_bad_start_names_the_field(start, field):
    with pytest.raises(RulesInputError) as e:
        GameState.initial(Settings(), ["A", "B"], start)
    assert e.value.field == field, str(e.value)


def test_Q1_floor_start_rejects_negative_scores_and_allows_created_points():
    s = Settings(negative_scores=False)
    with pytest.raises(RulesInputError) as e:
        GameState.initial(
            s,
            ["A", "B"],
            {"scores": {"A": -5, "B": 5}, "on_table": list(range(1, 16)), "to_play": "A"},
        )
    assert e.value.field == "start.scores.A"
    st = GameState.initial(
        s,
        ["A", "B"],
        {"scores": {"A": 0, "B": 10}, "on_table": list(range(1, 16)), "to_play": "A"},
    )
    assert st.scores == (0, 10)


@pytest.mark.parametrize(
    "players, field",
    [(["A"], "players"), (["A", "A"], "players[1]"), (["A", ""], "players[1]"), ("AB", "players")],
)
def test_bad_players(players, field):
    with pytest.raises(RulesInputError) as e:
        GameState.initial(Settings(), players)
    assert e.value.field == field


def test_state_is_frozen_and_cheap_to_copy():
    st = GameState.initial(Settings(), ["A", "B"])
    with pytest.raises(AttributeError):
        st.scores = (1, 2)  # type: ignore[misc]
    st2 = st.with_(scores=(3, 0))
    assert st2.scores == (3, 0) and st.scores == (0, 0) and st2.on_table is st.on_table
