"""rules/messages.py: the rules engine's messages are English in the code and
Russian in the catalog."""

from __future__ import annotations

import sys
from pathlib import Path
from string import Formatter

import pytest

from pyramid_referee.rules.errors import RulesInputError
from pyramid_referee.rules.messages import N_, trl, trn


def _names(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


def test_an_input_error_fills_its_english_template_and_reads_its_russian_from_the_catalog():
    e = RulesInputError("start.on_table[0]", N_("ball {b} is listed twice"), b=3)
    assert e.message == "ball 3 is listed twice"
    assert e.ru == "шар 3 указан дважды"
    assert str(e) == "start.on_table[0]: ball 3 is listed twice"
    assert e.text("en") == "start.on_table[0]: ball 3 is listed twice"
    assert e.text("ru") == "начало партии, шар на столе 1: шар 3 указан дважды"


def test_an_input_error_with_its_own_russian_text_keeps_it():
    e = RulesInputError("undo", "nothing to undo", "нечего отменять")
    assert (e.message, e.ru) == ("nothing to undo", "нечего отменять")


def test_a_repr_field_is_filled_the_same_in_both_languages():
    e = RulesInputError(
        "settings.target", N_("{value!r} is not a whole number >= {low}"), value="x", low=1
    )
    assert e.message == "'x' is not a whole number >= 1"
    assert e.ru == "'x' — нужно целое число ≥ 1"


def test_english_is_the_message_as_written():
    assert trl("en", "the game is over (E1, E2, E3)") == "the game is over (E1, E2, E3)"
    assert trl("ru", "the game is over (E1, E2, E3)") == "партия окончена (E1, E2, E3)"


def test_every_rules_message_has_a_russian_text_naming_the_same_fields():
    pytest.importorskip("babel")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import i18n

    found = [
        m for m, places in i18n.extract().items() if any(f.startswith("rules/") for f, _ in places)
    ]
    assert len(found) > 100

    def russian(m):  # a counted message (a pair) in each of its three Russian forms
        return [trn(*m, n, "ru") for n in (1, 2, 5)] if isinstance(m, tuple) else [trl("ru", m)]

    def english(m):
        return m if isinstance(m, tuple) else (m,)

    missing = [m for m in found if set(russian(m)) & set(english(m))]
    wrong = {
        m: russian(m)
        for m in found
        if any(_names(ru) != set().union(*map(_names, english(m))) for ru in russian(m))
    }
    assert not missing and not wrong


def test_a_negative_number_for_people_has_the_typographic_minus():
    from pyramid_referee.rules.messages import MINUS, num

    assert MINUS == "\u2212" and num(-5) == "−5" and num(0) == "0" and num(14) == "14"
