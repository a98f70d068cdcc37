"""Refusal records: codes, clauses, Russian and English messages and hints, JSON."""

import pytest

from pyramid_referee.grammar import Refusal, parse
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
