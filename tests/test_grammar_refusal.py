"""Refusal records: codes, clauses, Russian and English messages and hints, JSON."""

import re

import pytest

from pyramid_referee.grammar import Call, Refusal, parse
from pyramid_referee.grammar.refusal import CLAUSES, CODES, TEXTS

EXAMPLES = {
    "empty": "ну давай", "too_long": "ну " * 61, "unknown_word": "привет",
    "no_ball": "чисто в левый угол", "no_pocket": "тройку чисто",
    "pocket_not_definite": "тройку чисто в угол", "no_route": "тройку в левый угол",
    "several_calls_unclear": "тройку чисто в левый угол пятёрку", "contradiction": "тройкой тройку в середину",
    "ambiguous": "6 шаром 11 чисто в левый угол",
    "count_mismatch": "двумя шарами пятым девятым вторым тройку в угол левый",
    "ball_not_on_table": "тройку чисто в левый угол", "incomplete": "тройку в середину от",
    "unexpected_word": "тройку бортов в середину",
}


def test_codes_keep_the_design_set():
    design = {"empty", "unknown_word", "no_ball", "no_pocket", "pocket_not_definite", "no_route",
              "several_calls_unclear", "contradiction", "ambiguous", "count_mismatch",
              "ball_not_on_table", "incomplete"}
    assert design <= set(CODES)
    assert set(CLAUSES) == set(CODES)


@pytest.mark.parametrize("code", CODES)
def test_every_code_has_texts_in_both_languages(code, ):
    r = parse(EXAMPLES[code], balls_left=[1, 2] if code == "ball_not_on_table" else None)
    assert r.code == code
    ru, en = r.message(), r.message("en")
    assert ru != en and "{" not in ru + en + r.hint() + r.hint("en")
    assert any("а" <= ch <= "я" for ch in ru.lower())
    j = r.to_json("en")
    assert set(j) == {"code", "message", "span", "hint"} and j["message"] == en and j["span"] == list(r.span)


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
    r = parse("я" * 10_000)
    assert r.code == "unknown_word" and r.span == (0, 10_000)
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

    words = [["левую", "правый", None], ["дальний", "ближнюю", "к себе", None],
             ["угол", "лузу", "угловую", "середину", "среднюю", "центр", None]]
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
    for text, side in (("в левую лузу", "левый"), ("в правую", "правый"), ("в левый", "левый")):
        r = parse(f"тройку чисто {text}")
        assert r.code == "pocket_not_definite" and r.reason == "side_only"
        assert f"«в {side} угол»" in r.hint() and "середину»" in r.hint()
        assert "и угол, и середину" in r.message() and "corner and the middle" in r.message("en")


def test_an_end_word_says_corner():  # Q2, terms.md
    for text in ("в правый дальний", "в левую дальнюю лузу", "в ближнюю левую", "в левый к себе",
                 "в свой левый"):
        call = parse(f"тройку чисто {text}")
        assert isinstance(call, Call) and call.pocket.kind == "corner", text


def test_chuzhoi_is_the_object_ball_never_a_pocket():  # C5
    r = parse("тройку чисто в чужой угол")
    assert r.code == "incomplete" and "прицельный шар" in r.message()
    assert "после «в» не названа луза" != r.message()
    assert "прицельный шар" in parse("тройку чисто в чужую лузу").message()
    assert parse("чужой чисто в левый угол", balls_left=[3]).ball is None  # C5 as before
