"""Match settings: the rules' defaults (docs/rules.md), JSON keys, errors naming the setting."""

from __future__ import annotations

import pytest

from pyramid_referee.rules import RulesInputError, Settings


def test_defaults_follow_rules_md():
    s = Settings()
    assert s.to_json() == {
        "mode": "clean",
        "negative_scores": True,
        "ball_values": "classic",
        "target": 71,
        "penalty": 5,
        "pocket_precision": "side_for_corners",
        "result_required": False,
    }


def test_round_trip_and_partial_json():
    s = Settings.from_json({"mode": "ball_and_pocket", "target": 51})
    assert s.mode == "ball_and_pocket" and s.target == 51 and s.penalty == 5
    assert Settings.from_json(s.to_json()) == s
    assert Settings.from_json(None) == Settings()


@pytest.mark.parametrize(
    "data, field",
    [
        ({"mode": "chaos"}, "settings.mode"),
        ({"negative_scores": "no"}, "settings.negative_scores"),
        ({"ball_values": "gold"}, "settings.ball_values"),
        ({"target": 0}, "settings.target"),
        ({"target": True}, "settings.target"),
        ({"penalty": -1}, "settings.penalty"),
        ({"pocket_precision": "exact"}, "settings.pocket_precision"),
        ({"result_required": 1}, "settings.result_required"),
        ({"colour": "green"}, "settings.colour"),
    ],
)
def test_bad_settings_name_the_field(data, field):
    with pytest.raises(RulesInputError) as e:
        Settings.from_json(data)
    assert e.value.field == field


def test_settings_are_frozen():
    with pytest.raises(AttributeError):
        Settings().target = 50  # type: ignore[misc]


def test_the_mode_as_people_type_it_is_the_settings_mode():
    from pyramid_referee.rules.settings import MODES, mode_setting

    assert (
        mode_setting("ball-and-pocket") == "ball_and_pocket" and mode_setting("clean") == "clean"
    )
    assert {mode_setting(m) for m in ("clean", "ball-and-pocket", "ball_and_pocket")} == set(
        MODES
    )  # C1
    assert mode_setting("loose") == "loose"  # not guessed: the settings refuse it themselves
