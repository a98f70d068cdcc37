"""The outcome of a stroke: parsing, validation (errors name the field), JSON."""

from __future__ import annotations

import pytest

from pyramid_referee.rules import Event, Outcome, RulesInputError

FULL = {
    "events": [
        {"type": "hit", "a": "cue", "b": 6},
        {"type": "cushion", "ball": 3},
        {"type": "pocket", "ball": 3, "pocket": {"kind": "middle", "side": "left", "end": None}},
        {"type": "off_table", "ball": "cue"},
    ],
    "fouls": ["г"],
    "from_hand": False,
    "first_hit_in_house": False,
    "positions_unchanged": False,
    "warned": False,
}


def test_design_example_round_trips():
    o = Outcome.from_json(FULL)
    assert len(o.events) == 4 and o.events[0] == Event("hit", "cue", 6)
    assert o.to_json() == FULL and not o.is_short


def test_short_form_with_route_ok():
    o = Outcome.from_json(
        {
            "events": [{"type": "pocket", "ball": 3, "pocket": {"kind": "middle"}}],
            "route_ok": True,
            "fouls": ["а"],
        }
    )
    assert o.is_short and o.route_ok and o.fouls == frozenset({"а"})
    assert Outcome.from_json(o.to_json()) == o


@pytest.mark.parametrize(
    "data, field",
    [
        ({"events": [{"type": "hit", "a": "cue", "b": 16}]}, "events[0].b"),
        ({"events": [{"type": "hit", "a": "cue"}]}, "events[0].b"),
        ({"events": [{"type": "hit", "a": 3, "b": 3}]}, "events[0].b"),
        (
            {"events": [{"type": "hit", "a": "cue", "b": 6}, {"type": "bounce", "ball": 3}]},
            "events[1].type",
        ),
        ({"events": [{"type": "pocket", "ball": 3}]}, "events[0].pocket"),
        (
            {"events": [{"type": "pocket", "ball": 3, "pocket": {"kind": "top"}}]},
            "events[0].pocket.kind",
        ),
        ({"events": [{"type": "cushion", "ball": True}]}, "events[0].ball"),
        ({"events": [{"type": "cushion", "ball": 3, "b": 4}]}, "events[0].b"),
        ({"events": "hit"}, "events"),
        ({"fouls": ["x"]}, "fouls[0]"),
        ({"fouls": ["а"]}, "fouls[0]"),  # derived in the full form (P1)
        ({"fouls": ["б"], "route_ok": True}, "fouls[0]"),
        ({"warned": "yes"}, "warned"),
        ({"from_hand": 1}, "from_hand"),
        ({"route_ok": "ok"}, "route_ok"),
        ({"colour": "red"}, "colour"),
        ({"route_ok": True, "events": [{"type": "hit", "a": "cue", "b": 3}]}, "events[0].type"),
        (
            {"positions_unchanged": True, "events": [{"type": "hit", "a": "cue", "b": 3}]},
            "positions_unchanged",
        ),
        ({"events": [{"type": "removed", "ball": 3}]}, "events[0].type"),  # E6
    ],
)
def test_errors_name_the_field(data, field):
    with pytest.raises(RulesInputError) as e:
        Outcome.from_json(data)
    assert e.value.field == field, str(e.value)
    assert str(e.value).startswith(field + ":")


def test_errors_in_russian():
    with pytest.raises(RulesInputError) as e:
        Outcome.from_json({"events": [{"type": "hit", "a": "cue", "b": 16}]})
    assert e.value.text("ru") == "событие 1, второй шар: 16 — не шар (нужно «cue» или номер 1-15)"
    assert e.value.text("en") == "events[0].b: 16 is not a ball ('cue' or 1-15)"


def test_outcome_not_an_object():
    with pytest.raises(RulesInputError) as e:
        Outcome.from_json([1, 2])
    assert e.value.field == "outcome"


def test_cue_ball_as_a_hit_target_is_a_hit():
    o = Outcome.from_json({"events": [{"type": "hit", "a": 6, "b": "cue"}]})
    assert o.events[0].involves("cue")


def test_direct_construction_is_validated_too():
    with pytest.raises(RulesInputError):
        Event("pocket", 3, None, "corner")
    with pytest.raises(RulesInputError):
        Outcome(fouls=frozenset({"в"}))


def test_pocket_and_event_type_errors_in_russian_too():
    # User-facing text is Russian by default: the pocket's own (English) check is wrapped.
    with pytest.raises(RulesInputError) as e:
        Outcome.from_json({"events": [{"type": "pocket", "ball": 3, "pocket": {"kind": "side"}}]})
    assert e.value.field == "events[0].pocket.kind" and e.value.text("ru").startswith(
        "событие 1, вид лузы: луза указана неверно: нужно «corner»"
    )
    with pytest.raises(RulesInputError) as e:
        Event("bounce", 3)
    assert "допустимо" in e.value.text("ru")
