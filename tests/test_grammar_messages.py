"""grammar/messages.py: the call language's messages are English in the code and
Russian in the catalog."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from string import Formatter

import pytest

# the module, not the function the package exports
import pyramid_referee.grammar.explain  # noqa: F401
from pyramid_referee.grammar.messages import N_, trl
from pyramid_referee.grammar.refusal import EXPECTED, TEXTS

explain_mod = sys.modules["pyramid_referee.grammar.explain"]

CYRILLIC = re.compile(r"[а-яё]", re.I)


def _fields(template: str) -> set:
    return {(name, conv) for _, name, _, conv in Formatter().parse(template) if name is not None}


def _grammar_messages() -> list[str]:
    out = [m for pair in TEXTS.values() for m in pair] + list(EXPECTED.values())
    out += list(explain_mod._POCKETS.values()) + list(explain_mod._PARTS.values())
    return out + list(explain_mod._TARGETS.values())


@pytest.mark.parametrize("message", _grammar_messages())
def test_every_refusal_and_explain_message_has_a_russian_text_with_the_same_fields(message):
    ru = trl("ru", message)
    assert ru != message and CYRILLIC.search(ru), f"no Russian text for {message!r}"
    assert _fields(ru) == _fields(message)


def test_english_is_the_message_as_written():
    assert (
        trl("en", "the call was taken back with «{word}» and no new one was said (C9)")
        == "the call was taken back with «{word}» and no new one was said (C9)"
    )


def test_a_message_marked_for_a_table_is_left_as_written_until_shown():
    assert N_("ball {n}") == "ball {n}"
    assert trl("ru", N_("ball {n}")).format(n=3) == "шар 3"


def test_every_message_written_in_grammar_has_a_russian_text_with_the_same_fields():
    babel = pytest.importorskip("babel.messages.extract")
    root = Path(__file__).resolve().parents[1] / "grammar"
    said = {
        m
        for _, _, m, _, _ in babel.extract_from_dir(
            str(root),
            method_map=[("**.py", "python")],
            keywords={"trl": (2,), "N_": None},
            comment_tags=(),
        )
    }
    untranslated = sorted(
        m for m in said if trl("ru", m) == m or _fields(trl("ru", m)) != _fields(m)
    )
    assert len(said) > 50 and not untranslated
