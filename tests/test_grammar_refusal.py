"""Refusal records: codes, clauses, Russian and English messages and hints, JSON."""

import re

import pytest

from pyramid_referee.grammar import Call, Refusal, parse
from pyramid_referee.grammar.refusal import CLAUSES, CODES, TEXTS

EXAMPLES = {
    "empty": "ну давай",
    "too_long": "ну " * 61,
    "unknown_word": "привет",
    "no_ball": "чисто в левый угол",
    "no_pocket": "тройку чисто",
    "pocket_not_definite": "тройку чисто в угол",
    "no_route": "тройку в левый угол",
    "several_calls_unclear": "тройку чисто в левый угол пятёрку",
    "contradiction": "тройкой тройку в середину",
    "ambiguous": "6 шаром 11 чисто в левый угол",
    "count_mismatch": "двумя шарами пятым девятым вторым тройку в угол левый",
    "ball_not_on_table": "тройку чисто в левый угол",
    "incomplete": "тройку в середину от",
    "unexpected_word": "тройку бортов в середину",
}


def test_codes_keep_the_design_set():
    design = {
        "empty",
        "unknown_word",
        "no_ball",
        "no_pocket",
        "pocket_not_definite",
        "no_route",
        "several_calls_unclear",
        "contradiction",
        "ambiguous",
        "count_mismatch",
        "ball_not_on_table",
        "incomplete",
    }
    assert design <= set(CODES)
    assert set(CLAUSES) == set(CODES)


@pytest.mark.parametrize("code", CODES)
def test_every_code_has_texts_in_both_languages(
    code,
):
    r = parse(EXAMPLES[code], balls_left=[1, 2] if code == "ball_not_on_table" else None)
    assert r.code == code
    ru, en = r.message(), r.message("en")
    assert ru != en and "{" not in ru + en + r.hint() + r.hint("en")
    assert any("а" <= ch <= "я" for ch in ru.lower())
    j = r.to_json("en")
    assert (
        set(j) == {"code", "message", "span", "hint"}
        and j["message"] == en
        and j["span"] == list(r.span)
    )


def test_every_text_template_is_for_a_known_code():
    assert {code for code, _ in TEXTS} <= set(CODES)


def test_unknown_code_is_a_programming_error():
    with pytest.raises(ValueError):
        Refusal("wrong", (0, 0))


def test_hints_give_a_call_that_parses():
    r = parse("тройку в левый угол")  # no_route
    example = r.hint().split("«")[1].split("»")[0]
    assert parse(example).ball == 3
    assert parse(example).pocket.side == "left"


def test_refusals_are_values():
    assert parse("тройку в угол") == parse("тройку в угол")


def test_quoted_words_are_cut_and_escaped():
    r = parse("я" * 290)  # the longest word a call of at most 300 characters holds
    assert r.code == "unknown_word" and r.span == (0, 290)
    assert len(r.message()) < 200
    assert "\\u0000" in parse("тройку \x00 чисто").message()


# -- pocket refusals: the hint offers pockets, never asks for what was said (Q2) -------------


def _said(word: str) -> dict:
    """What the pocket words of a refusal said: kind, side, end (None when not said)."""
    from pyramid_referee.grammar.lexicon import tag_words

    out = {"kind": None, "side": None, "end": None}
    for w in tag_words(word):
        for t, v in w.tags:
            if t in ("CORNER", "MIDDLE"):
                out["kind"] = t.lower()
            elif t == "SIDE":
                out["side"] = v
            elif t == "END":
                out["end"] = v
    if out["end"] and not out["kind"]:
        out["kind"] = "corner"
    return out


def _pocket_texts():
    from itertools import permutations

    words = [
        ["левую", "правый", None],
        ["дальний", "ближнюю", "к себе", None],
        ["угол", "лузу", "угловую", "середину", "среднюю", "центр", None],
    ]
    out = set()
    for side in words[0]:
        for end in words[1]:
            for noun in words[2]:
                said = [w for w in (side, end, noun) if w]
                for order in permutations(said):
                    out.add("в " + " ".join(order))
    return sorted(out)


@pytest.mark.parametrize("precision", ["side_for_corners", "any"])
def test_a_pocket_hint_never_asks_for_what_the_call_already_said(precision):  # Q2
    """Every pocket a pocket_not_definite hint offers keeps each word said (the side, the
    end, the kind), names a pocket the call language accepts, and there are at least two."""
    checked = 0
    for pocket in _pocket_texts():
        r = parse(f"тройку чисто {pocket}", pocket_precision=precision)
        if not isinstance(r, Refusal) or r.code != "pocket_not_definite":
            continue
        checked += 1
        said = _said(r.params["word"])
        offered = re.findall(r"«([^»]+)»", r.hint())
        assert len(offered) >= 2, (pocket, r.hint())
        for text in offered:
            got = parse(f"тройку чисто {text}", pocket_precision=precision)
            assert not isinstance(got, Refusal), (pocket, text, got.message())
            for key, value in said.items():
                assert value is None or getattr(got.pocket, key) == value, (pocket, text, key)
        assert "левый или правый" not in r.hint() or said["side"] is None
    assert checked >= (20 if precision == "side_for_corners" else 5)


def test_a_middle_pocket_with_an_end_offers_pockets_that_keep_the_side_said():  # Q2
    r = parse("тройку чисто в левую середину дальнюю")
    assert r.code == "contradiction" and r.reason == "middle_end"
    assert r.hint() == "скажите «в левую середину» или «в левый дальний угол»"


def test_a_side_without_a_kind_is_refused_naming_both_pockets():  # Q2
    for text, side in (
        ("в левую лузу", "левый"),
        ("в правую", "правый"),
        ("в левую", "левый"),
        ("в левый лузу", "левый"),
        ("справа", "правый"),
    ):
        r = parse(f"тройку чисто {text}")
        assert r.code == "pocket_not_definite" and r.reason == "side_only"
        assert f"«в {side} угол»" in r.hint() and "середину»" in r.hint()
        assert "и угол, и середину" in r.message() and "corner and the middle" in r.message("en")


@pytest.mark.parametrize(
    "text, side",
    [
        ("тройку чисто в правый", "right"),
        ("тройку чисто в левый", "left"),
        ("в правый тройку чисто", "right"),
        ("тройку от борта в левый", "left"),
        ("шестёркой тройку в правый", "right"),
    ],
)
def test_a_masculine_side_word_alone_is_the_corner(
    text, side
):  # Q2: only «угол» agrees with «правый»
    call = parse(text)
    assert isinstance(call, Call), text
    assert (call.pocket.kind, call.pocket.side, call.pocket.end) == ("corner", side, None)
    bp = parse(text, mode="ball_and_pocket")
    assert (bp.pocket.kind, bp.pocket.side) == ("corner", side)


def test_a_masculine_side_word_keeps_the_noun_said():  # Q2: the noun, when said, names the pocket
    assert parse("тройку чисто в правый центр").pocket.kind == "middle"
    assert (
        parse("тройку чисто в левый дальний").pocket
        == parse("тройку чисто в левый дальний угол").pocket
    )
    assert parse("тройку чисто в средний").pocket.kind == "middle"
    assert parse("тройку чисто в среднюю").pocket.kind == "middle"


def test_a_correction_of_a_masculine_side_takes_its_gender_with_it():  # C9
    r = parse("тройку чисто в правый, нет, в левую")
    assert (r.code, r.reason) == ("pocket_not_definite", "side_only")
    assert (
        parse("тройку чисто в правую середину, нет, в левый").pocket
        == parse("тройку чисто в левую середину").pocket
    )
    assert (
        parse("тройку чисто в правую середину, нет, не в правый, а в левый").pocket.kind
        == "middle"
    )


@pytest.mark.parametrize(
    "text, kind, side",
    [
        ("тройку чисто в середину справа", "middle", "right"),
        ("тройку чисто в середину слева", "middle", "left"),
        ("тройку чисто в угол справа", "corner", "right"),
        ("тройку чисто в угол слева", "corner", "left"),
        ("в середину справа тройку от борта", "middle", "right"),
        ("шестёркой тройку в угол справа", "corner", "right"),
        ("тройку в середину справа от шестёрки", "middle", "right"),
    ],
)
def test_a_side_word_after_the_pocket_noun_names_the_side(text, kind, side):  # Q2
    for mode in ("clean", "ball_and_pocket"):
        call = parse(text, mode=mode)
        assert isinstance(call, Call), (text, mode)
        assert (call.pocket.kind, call.pocket.side, call.pocket.end) == (kind, side, None)


def test_an_end_word_says_corner():  # Q2
    for text in (
        "в правый дальний",
        "в левую дальнюю лузу",
        "в ближнюю левую",
        "в левый к себе",
        "в свой левый",
    ):
        call = parse(f"тройку чисто {text}")
        assert isinstance(call, Call) and call.pocket.kind == "corner", text


def test_chuzhoi_is_the_object_ball_never_a_pocket():  # C5
    r = parse("тройку чисто в чужой угол")
    assert r.code == "incomplete" and "прицельный шар" in r.message()
    assert "после «в» не названа луза" not in r.message()
    assert "прицельный шар" in parse("тройку чисто в чужую лузу").message()
    assert parse("чужой чисто в левый угол", balls_left=[3]).ball is None  # C5 as before


# «чужой» is the object ball (C5) in every word order: said among the pocket's
# words it is refused with one reason, and the hint keeps the other pocket words said.
@pytest.mark.parametrize(
    "text",
    [
        "тройку чисто в чужой угол",
        "тройку чисто в правый чужой угол",
        "тройку чисто в чужой правый угол",
        "тройку чисто чужой в правый угол",
        "в правый чужой угол тройку от борта",
    ],
)
def test_chuzhoi_among_pocket_words_is_one_refusal_in_every_order(text):  # C5
    r = parse(text)
    assert (r.code, r.reason) == ("incomplete", "obj_as_pocket"), text
    assert "прицельный шар" in r.message() and "«дальний»" in r.hint()
    if "правый" in text:  # the side said stays in every pocket offered
        assert "«в правый дальний угол» или «в правый ближний угол»" in r.hint()
        assert "левый" not in r.hint()


def test_chuzhaya_luza_hint_keeps_the_side_said():  # C5
    r = parse("тройку чисто в правую чужую лузу")
    assert (
        r.reason == "obj_form"
        and "«в правый дальний угол» или «в правый ближний угол»" in r.hint()
    )


def test_chuzhoi_beside_the_pocket_as_the_only_ball_is_still_the_called_ball():  # C5
    call = parse("чужой чисто в правый угол", balls_left=[7])
    assert isinstance(call, Call) and call.ball is None and call.pocket.side == "right"


@pytest.mark.parametrize(
    "text,side,end",
    [
        ("тройку чисто в дальний угол слева", "left", "far"),
        ("тройку чисто слева в дальний угол", "left", "far"),
        ("тройку чисто в угол справа", "right", None),
        ("тройку чисто в середину слева", "left", None),
        ("справа в ближний угол тройку чисто", "right", "near"),
    ],
)
def test_sleva_and_sprava_are_side_words_in_any_order(text, side, end):  # Q2
    call = parse(text)
    assert isinstance(call, Call) and (call.pocket.side, call.pocket.end) == (side, end), text


def test_sleva_right_after_a_cushion_is_refused_as_unclear():
    # C9: the cushion's side or the pocket's?
    r = parse("тройку от борта слева в угол")
    assert (r.code, r.reason) == ("ambiguous", "side_or_cushion") and "«в левый угол»" in r.hint()
    assert parse("тройку от борта слева в угол", mode="ball_and_pocket").code == "ambiguous"
    assert parse("тройку от борта в угол слева").pocket.side == "left"
    # the hint keeps the other pocket words said
    assert "«в левый дальний угол»" in parse("тройку от борта слева в дальний угол").hint()
    assert "«в левый угол»" in parse("тройку от борта справа в левый угол").hint()


def test_svoyu_seredinu_is_refused_because_a_middle_pocket_has_no_near_end():  # Q2
    r = parse("тройку чисто в свою середину")
    assert (r.code, r.reason) == ("contradiction", "middle_end")
    assert "нет ближней и дальней" in r.message() and "неизвестное" not in r.message()
    assert "«в левую середину»" in r.hint() and "«в левый ближний угол»" in r.hint()


@pytest.mark.parametrize(
    "text,example",
    [
        ("тройку чисто в правый угол пятёрку", "«тройку чисто в правый угол»"),
        ("тройку от в середину", "«тройку от борта в середину»"),
        ("шестёрку от в правый угол", "«шестёрку от борта в правый угол»"),
        ("тройку чисто в правый угол бла", "«тройку чисто в правый угол»"),
        ("тройку чисто в правый угол борта", "«тройку чисто в правый угол»"),
        ("тройку двумя в середину", "«двумя шарами шестёркой и семёркой тройку чисто в середину»"),
    ],
)
def test_hint_example_builds_on_what_was_said(text, example):
    hint = parse(text).hint()
    assert example in hint, hint


def test_unfinished_second_call_is_q8_however_it_stops():  # Q8
    for text in (
        "тройку чисто в левый угол и пятёрку от",
        "тройку чисто в левый угол, пятёрку карамболем",
        "тройку чисто в правый угол пятёрку",
    ):
        r = parse(text)
        assert r.code == "several_calls_unclear", text
        assert "«тройку чисто в" in r.hint()
    r = parse("тройку чисто в правый угол, пятёрку от борта в середину, семёрку")
    assert (
        r.message().endswith("«семёрку» (Q8, C9)") and "«пятёрку от борта в середину»" in r.hint()
    )


# -- ball and pocket (C7): refusals cite C7 where clean designation cites C2, and no hint asks
# for a way («тройку чисто …», «от борта», «как он упадёт»)

BALL_AND_POCKET_REFUSALS = [
    ("тройку чisто", None),
    ("тройку чисто", "no_pocket"),
    ("тройку", "no_pocket"),
    ("в левый угол", "no_ball"),
    ("биток в левый угол", "no_ball"),
    ("", "empty"),
    ("ну", "empty"),
    ("тройку абырвалг в угол", "unknown_word"),
    ("двадцатый в левый угол", "unknown_word"),
    ("тройку пятёрку в левый угол", "contradiction"),
    ("тройку в левый угол в середину", "contradiction"),
    ("тройку в левый угол, нет", "incomplete"),
    ("не тройку в левый угол", "incomplete"),
    ("не тройку, а от борта в левый угол", "incomplete"),
    ("шар такой-то в левый угол", "no_ball"),
    ("тройка " * 61, "too_long"),
    ("тройку в левый угол пятёрку", "several_calls_unclear"),
]


@pytest.mark.parametrize("text, code", [c for c in BALL_AND_POCKET_REFUSALS if c[1]])
def test_ball_and_pocket_refusals_never_ask_for_a_way(text, code):  # C7
    r = parse(text, mode="ball-and-pocket")
    assert r.code == code, text
    for lang in ("ru", "en"):
        said = r.message(lang) + " " + r.hint(lang)
        assert "C2" not in said, (text, lang, said)
    assert "чисто" not in r.hint() and "от борта" not in r.hint() and "упадёт" not in r.hint(), (
        r.hint()
    )
    assert "way" not in r.hint("en") and "C2" not in r.clause


@pytest.mark.parametrize(
    "text, code",
    [
        ("тройку чисто", "no_pocket"),
        ("в левый угол", "no_ball"),
        ("биток в левый угол", "no_ball"),
    ],
)
def test_ball_and_pocket_cites_c7_where_clean_cites_c2(text, code):
    bp, clean = parse(text, mode="ball_and_pocket"), parse(text)
    assert bp.code == clean.code == code
    assert bp.clause == "C7" and "(C7" in bp.message()
    assert "«шар и луза»" in bp.message() or bp.reason == "cue"
    assert clean.clause == "C2" and "(C2" in clean.message()


def test_ball_and_pocket_hint_keeps_the_ball_said_without_a_way():  # C7
    assert (
        parse("тройку чисто", mode="ball_and_pocket").hint()
        == "добавьте лузу, например: «тройку в левый угол»"
    )
    assert "«пятёрку в левый угол»" in parse("пятёрку от борта", mode="ball_and_pocket").hint()
    assert (
        "«тройку чисто в левый угол»" in parse("тройку").hint()
    )  # clean designation: the way is asked


def test_a_ball_not_on_the_table_in_ball_and_pocket_cites_c7():
    r = parse("тройку в левый угол", mode="ball_and_pocket", balls_left=[5])
    assert r.code == "ball_not_on_table" and r.clause == "C7" and "(C7)" in r.message()
    assert parse("тройку чисто в левый угол", balls_left=[5]).clause == "C2"


def test_the_template_way_is_not_judged_in_ball_and_pocket():  # C7: the way, placeholders too
    text = "тремя шарами такими-то, от шара такого-то, двенадцатый шар в левый угол"
    call = parse(text, mode="ball_and_pocket")
    assert isinstance(call, Call) and call.ball == 12 and call.route is None
    assert parse(text).reason == "placeholder"  # clean designation: the balls must be named (C2)
    from pyramid_referee.grammar import explain

    assert explain(text, mode="ball_and_pocket").to_json()["way_not_judged"] == [
        "тремя шарами такими-то, от шара такого-то"
    ]


# -- a number no ball has: «шара 16 нет», in digits or in words (C2: balls are 1 to 15) ---------


@pytest.mark.parametrize(
    "text, said, n",
    [
        ("шестнадцатый чисто в левый угол", "шестнадцатый", 16),
        ("тройку шестнадцатым шаром в середину", "шестнадцатым", 16),
        ("от шестнадцатого в угол", "шестнадцатого", 16),
        ("двадцать первый чисто в левый угол", "двадцать первый", 21),
        ("нулевой чисто в левый угол", "нулевой", 0),
        ("16 чисто в левый угол", "16", 16),  # the digits and the words say the same
        ("шар номер 20 в угол", "20", 20),
    ],
)
def test_a_number_no_ball_has_is_refused_as_no_such_ball_not_as_an_unknown_word(text, said, n):
    r = parse(text)
    assert r.code == "unknown_word" and r.reason == "ball_out_of_range"  # the code digits have had
    assert r.params["n"] == n and text[r.span[0] : r.span[1]] == said
    assert f"шара {n} нет" in r.message() and "неизвестное слово" not in r.message()
    assert f"there is no ball {n}" in r.message("en")
    assert "от 1 до 15" in r.hint()


# -- a typo gets the word it is a slip of, when the call reads with it (and only then) ---------


@pytest.mark.parametrize(
    "text, typed, meant",
    [
        ("четырнадцатй чисто в левый угол", "четырнадцатй", "четырнадцатый"),  # a letter left out
        ("четырнадцатй", "четырнадцатй", "четырнадцатый"),
        ("тройку чисто в правй угол", "правй", "правый"),
        ("тпройку чисто в левый угол", "тпройку", "тройку"),  # a letter added
        ("тройку от шестерк в левый угол", "шестерк", "шестёрки"),
        ("пятерку прмо в середину", "прмо", "прямо"),
        ("тройку чисто в левый угл", "угл", "угол"),
    ],
)
def test_a_typo_gets_the_word_it_is_a_slip_of_in_the_hint(text, typed, meant):
    r = parse(text)
    assert (
        r.code == "unknown_word" and r.params["word"] == typed
    )  # still refused: never a silent repair
    assert r.reason == "typo" and r.params["suggestion"] == meant
    assert r.hint().startswith(f"«{meant}»?") and r.hint("en").startswith(f"«{meant}»?")
    example = r.hint().split("«")[2].split("»")[0]
    assert not isinstance(parse(example), Refusal), example  # the example is a call


@pytest.mark.parametrize(
    "text",
    [
        "тройку чисто в левый угол пожалуйста быстро",  # no word of the language is near «быстро»
        "трйку чисто ит в левый угол",  # two slips: no reading to be sure of
        "тройку чисто в лево угол",  # «левой» is one edit away, but the call does not read
    ],
)
def test_no_suggestion_without_a_confident_one(text):
    r = parse(text)
    assert r.code == "unknown_word" and r.reason == "" and "suggestion" not in r.params
    assert "?" not in r.hint()
