"""The Call AST and its JSON contract (``grammar/call.py``)."""

import pytest

from pyramid_referee.grammar import Call, CallFormatError, Pocket

SEED_CARAMBOLE = {
    "ball": 3,
    "pocket": {"kind": "middle", "side": None, "end": None},
    "route": [["cue", 6], ["cue", 11], [11, 3], [3, "pocket"]],
}


def test_json_round_trip():
    call = Call.from_json(SEED_CARAMBOLE)
    assert call.ball == 3
    assert call.route[-1] == (3, "pocket")
    assert call.to_json() == SEED_CARAMBOLE
    assert call.is_clean


def test_ball_and_pocket_call_has_no_route():  # C7
    call = Call.from_json(
        {"ball": 12, "pocket": {"kind": "corner", "side": "left", "end": None}, "route": None}
    )
    assert not call.is_clean


def test_unnamed_ball_when_one_left():  # C5
    call = Call(None, Pocket("corner", "right"), (("cue", None), (None, "pocket")))
    assert call.ball is None


@pytest.mark.parametrize(
    "bad, field",
    [
        ({**SEED_CARAMBOLE, "ball": 16}, "ball"),
        ({**SEED_CARAMBOLE, "ball": True}, "ball"),
        ({**SEED_CARAMBOLE, "pocket": {"kind": "top"}}, "pocket.kind"),
        ({**SEED_CARAMBOLE, "pocket": {"kind": "middle", "end": "far"}}, "pocket.end"),
        ({**SEED_CARAMBOLE, "route": [["cue", 3]]}, "route"),
        ({**SEED_CARAMBOLE, "route": [["cue", 3], [4, "pocket"]]}, "route"),
        ({**SEED_CARAMBOLE, "route": [["cue", "table"], [3, "pocket"]]}, "route[0][1]"),
        ({**SEED_CARAMBOLE, "extra": 1}, "unknown"),
        ({"ball": 3}, "pocket"),
    ],
)
def test_bad_json_names_the_field(bad, field):
    with pytest.raises(CallFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        Call.from_json(bad)


def test_pocket_fits():
    called = Pocket("corner", "left", None)
    assert called.fits(Pocket("corner", "left", "far"))
    assert not called.fits(Pocket("corner", "right", "far"))
    assert not called.fits(Pocket("middle", "left", None))


@pytest.mark.parametrize(
    "kinds, sides, ends, expected",
    [
        ({"corner"}, {"left"}, set(), Pocket("corner", "left")),
        (set(), {"right"}, {"far"}, Pocket("corner", "right", "far")),  # an end word says corner
        (set(), set(), {"near"}, Pocket("corner", None, "near")),
        ({"middle"}, {"left"}, set(), Pocket("middle", "left")),
        ({"middle"}, set(), {"far"}, "middle_end"),
        (set(), {"left"}, set(), "side_only"),  # the left corner or the left middle pocket?
        (set(), set(), set(), "nothing"),
        ({"corner", "middle"}, set(), set(), "two_kinds"),
        ({"corner"}, {"left", "right"}, set(), "two_sides"),
        ({"corner"}, {"left"}, {"near", "far"}, "two_ends"),
    ],
)
def test_pocket_words_name_one_pocket_the_same_way_everywhere(kinds, sides, ends, expected):
    from pyramid_referee.grammar.call import pocket_from_words

    assert pocket_from_words(kinds, sides, ends) == expected
