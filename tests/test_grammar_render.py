"""render(): canonical Russian that parses back to the same call (Hypothesis)."""

import pytest
from hypothesis import given, settings, strategies as st

from pyramid_referee.grammar import Call, GrammarError, Pocket, parse, render

# A corner without a side (null) is a call only under pocket_precision "any" (Q2).
POCKETS = st.one_of(
    st.builds(
        Pocket,
        st.just("corner"),
        st.sampled_from(["left", "right", None]),
        st.sampled_from([None, "near", "far"]),
    ),
    st.builds(Pocket, st.just("middle"), st.sampled_from([None, "left", "right"]), st.just(None)),
)


@st.composite
def calls(draw):
    """(call, mode, balls_left, pocket_precision) in the shape the call language can
    say; a corner without a side comes with pocket_precision "any" (Q2),
    any other pocket with either setting."""
    pocket = draw(POCKETS)
    if pocket.kind == "corner" and pocket.side is None:
        precision = "any"
    else:
        precision = draw(st.sampled_from(["side_for_corners", "any"]))
    unnamed = draw(st.booleans()) and draw(st.booleans())  # C5, a quarter of the time
    ball = None if unnamed else draw(st.integers(1, 15))
    balls_left = [draw(st.integers(1, 15))] if unnamed else None
    if draw(st.integers(0, 4)) == 0:
        return Call(ball, pocket, None), "ball_and_pocket", balls_left, precision
    others = st.sampled_from([b for b in range(1, 16) if b != ball])
    abricole = draw(st.booleans())
    caroms = [] if unnamed else draw(st.lists(others, unique=True, max_size=2))
    drivers = [] if unnamed else draw(st.lists(others, unique=True, max_size=4))
    own_kinds = draw(st.lists(st.sampled_from(["ball", "cushion", "contre_coup"]), max_size=4))
    kisses = (
        []
        if unnamed
        else draw(
            st.lists(
                others,
                unique=True,
                min_size=own_kinds.count("ball"),
                max_size=own_kinds.count("ball"),
            )
        )
    )
    own = []
    for kind in own_kinds:
        if kind == "ball":
            if kisses:
                own.append(kisses.pop())
        else:
            own.append(kind)
    route = [("cue", "cushion")] if abricole else []
    route += [("cue", x) for x in caroms]
    prev = "cue"
    for x in drivers:
        route.append((prev, x))
        prev = x
    route.append((prev, ball))
    route += [(ball, t) for t in own]
    route.append((ball, "pocket"))
    return Call(ball, pocket, tuple(route)), "clean", balls_left, precision


@settings(max_examples=500, deadline=None)
@given(calls())
def test_render_parses_back_to_the_same_call(case):
    call, mode, balls_left, precision = case
    text = render(call)
    assert parse(text, mode=mode, balls_left=balls_left, pocket_precision=precision) == call, text
    if (
        call.pocket.kind == "corner" and call.pocket.side is None
    ):  # Q2: the default setting refuses it
        refused = parse(text, mode=mode, balls_left=balls_left)
        assert refused.code == "pocket_not_definite", text


def test_seed_call_canonical():
    call = parse("Карамболем от шестерки одиннадцатым шаром тройка прямо в середину")
    assert render(call) == "карамболем от шестёрки одиннадцатым шаром тройку чисто в середину"


@pytest.mark.parametrize(
    "call, text",
    [
        (Call(12, Pocket("corner", "left"), None), "двенадцатый шар в левый угол"),
        (
            Call(
                3,
                Pocket("middle", "right"),
                (("cue", 3), (3, "cushion"), (3, "cushion"), (3, "pocket")),
            ),
            "тройку от двух бортов в правую середину",
        ),
        (
            Call(
                1,
                Pocket("corner", "right", "far"),
                (("cue", "cushion"), ("cue", 1), (1, "pocket")),
            ),
            "абриколем туза чисто в правый дальний угол",
        ),
        (
            Call(
                12,
                Pocket("corner", "left"),
                (("cue", 5), (5, 9), (9, 2), (2, 12), (12, 7), (12, "pocket")),
            ),
            "тремя шарами пятёркой, девяткой и двойкой двенадцатый шар от семёрки в левый угол",
        ),
        (
            Call(3, Pocket("middle"), (("cue", 3), (3, "contre_coup"), (3, "pocket"))),
            "тройку от контр-ку в середину",
        ),
        # a corner without its side (pocket_precision "any", Q2)
        (Call(3, Pocket("corner"), (("cue", 3), (3, "pocket"))), "тройку чисто в угол"),
        (Call(3, Pocket("corner", None, "near"), None), "тройку в ближний угол"),
        (
            Call(3, Pocket("corner", None, "far"), (("cue", 3), (3, "cushion"), (3, "pocket"))),
            "тройку от борта в дальний угол",
        ),
    ],
)
def test_canonical_phrasing(call, text):
    assert render(call) == text


@pytest.mark.parametrize(
    "route",
    [
        (("cue", 6), (6, "cushion"), (6, 3), (3, "pocket")),  # a driving ball off a cushion
        ((3, 6), ("cue", 3), (3, "pocket")),
        (("cue", 3), (3, "cushion"), ("cue", 5), (3, "pocket")),
    ],
)
def test_routes_no_call_can_say_are_misuse(route):
    with pytest.raises(GrammarError, match="cannot be said"):
        render(Call(3, Pocket("middle"), route))


def test_render_rejects_non_calls():
    with pytest.raises(GrammarError):
        render({"ball": 3})


@settings(max_examples=300, deadline=None)
@given(calls(), st.randoms(use_true_random=False))
def test_free_word_order_blocks_in_any_order(case, rnd):
    """The canonical blocks said in any order, with fillers, in any letter case and
    with е for ё, read as the same call. The called ball's own contacts («от борта»,
    «от шестёрки») stay in one block with its ball word: right after «абриколем», a
    carom or a driving ball they could be that ball's (C9, see
    test_contact_next_to_another_balls_phrase_is_refused)."""
    from pyramid_referee.grammar.render import phrase_blocks

    call, mode, balls_left, precision = case
    blocks = phrase_blocks(call)
    rnd.shuffle(blocks)
    words = []
    for block in blocks:
        if rnd.random() < 0.3:
            words.append(
                rnd.choice(["ну", "так", "давай", "заказываю", "номер", "шар", "с винтом"])
            )
        words.append(block)
    text = ", ".join(words).replace("ё", "е")
    text = text.upper() if rnd.random() < 0.5 else text
    assert parse(text, mode=mode, balls_left=balls_left, pocket_precision=precision) == call, text


@pytest.mark.parametrize(
    "text",
    [
        "тройку шестёркой от борта в середину",
        "тройку абриколем от борта в левый угол",
        "карамболем от шестёрки от семёрки тройку в левый угол",
        "от борта абриколем тройку в левый угол",
    ],
)
def test_contact_next_to_another_balls_phrase_is_refused(text):  # C9
    """Right after a driving ball, a carom or «абриколем», «от борта» / «от X» may be
    that ball's contact: refused as ambiguous, never given to the called ball."""
    r = parse(text)
    assert r.code == "ambiguous" and r.reason == "whose_contact"
    assert "тройку от борта в" in r.hint()  # the way to say it: the contact after the called ball


@pytest.mark.parametrize(
    "route",
    [
        (("cue", 1), (1, "pocket")),  # the called ball
        (("cue", 1), (1, 3), (3, "pocket")),  # a driving ball
        (("cue", 3), (3, 1), (3, "pocket")),  # a kiss
        (("cue", 1), ("cue", 3), (3, "pocket")),  # a carom
        (("cue", 1), (1, 5), (5, 3), (3, "pocket")),  # in a counted group
    ],
)
def test_ball_one_is_tuz_wherever_a_call_is_phrased(route):
    ball = route[-1][0]
    call = Call(ball, Pocket("corner", "left"), route)
    text = render(call)
    assert "туз" in text and "единиц" not in text
    assert parse(text) == call


@pytest.mark.parametrize("word", ["единицу", "единичку", "туза", "туз"])
def test_ball_one_is_still_read_in_every_name(word):
    assert parse(f"{word} чисто в левый угол").ball == 1
