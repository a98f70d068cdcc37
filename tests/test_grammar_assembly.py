"""Assembly: route order (``Call.route``), checks of the bag of phrases, several calls (C9, Q8)."""

from pyramid_referee.grammar import parse


def route(text, **kw):
    return [list(c) for c in parse(text, **kw).route]


def test_abricole_comes_first_then_caroms_then_drivers():  # C3
    assert route("шестёркой тройку абриколем карамболем от семёрки в левый угол") == [
        ["cue", "cushion"],
        ["cue", 7],
        ["cue", 6],
        [6, 3],
        [3, "pocket"],
    ]


def test_own_contacts_in_spoken_order():
    assert route("тройку от борта от шестёрки в середину") == [
        ["cue", 3],
        [3, "cushion"],
        [3, 6],
        [3, "pocket"],
    ]
    assert route("тройку от шестёрки от борта в середину") == [
        ["cue", 3],
        [3, 6],
        [3, "cushion"],
        [3, "pocket"],
    ]


def test_drivers_chain_in_spoken_order():
    assert route("семёркой и шестёркой тройку в левый угол") == [
        ["cue", 7],
        [7, 6],
        [6, 3],
        [3, "pocket"],
    ]


def test_c9_steps_split_by_other_words_have_no_clear_order():
    r = parse("семёркой тройку шестёркой в левый угол")
    assert r.code == "ambiguous" and len(r.params["calls"]) == 2
    assert parse("тройку от борта в середину от шестёрки").code == "ambiguous"
    # a cushion said again around the ball: the same one, or a second? (refused)
    r = parse("от борта тройку от борта в середину")
    assert r.code == "ambiguous" and r.reason == "cushions_twice"
    assert route("тройку от борта от шестёрки от борта в середину") == [
        ["cue", 3],
        [3, "cushion"],
        [3, 6],
        [3, "cushion"],
        [3, "pocket"],
    ]


def test_count_covers_the_balls_after_it_or_before_it():  # C2
    assert parse("двумя шарами шестёркой и семёркой тройку в левый угол").ball == 3
    assert parse("шестёркой и семёркой двумя шарами тройку в левый угол").ball == 3
    r = parse("тремя шарами шестёркой и семёркой тройку в левый угол")
    assert r.code == "count_mismatch" and r.params["count"] == 3 and r.params["named"] == 2


def test_clean_with_drivers_is_fine_but_not_with_own_contacts():  # C9
    assert parse("шестёркой тройку чисто в левый угол").ball == 3
    assert parse("тройку чисто от борта в левый угол").code == "contradiction"


def test_a_ball_cannot_drive_itself():  # C9
    r = parse("тройкой тройку в середину")
    assert r.code == "contradiction" and r.reason == "self"


def test_c9_several_calls_each_whole():
    assert (
        parse(
            "тройку чисто в левый угол пятёрку чисто в середину семёрку от борта в правый угол"
        ).ball
        == 7
    )
    # an earlier part that is not a whole call does not make a call of its own
    assert parse("тройку в угол пятёрку чисто в середину").code == "contradiction"


def test_q8_second_pocket_is_a_contradiction_new_ball_is_an_unfinished_call():
    assert parse("тройку чисто в левый угол в середину").code == "contradiction"
    assert parse("тройку чисто в левый угол пятёрку").code == "several_calls_unclear"
