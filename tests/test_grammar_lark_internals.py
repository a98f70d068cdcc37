"""The call parser drives Lark's LALR table itself (grammar/parser.py): what it reads of
Lark's internals is still there, and the installed lark is inside the range pyproject.toml pins."""

from __future__ import annotations

import re
from pathlib import Path

import lark

from pyramid_referee.grammar import parse
from pyramid_referee.grammar.lark_table import LARK, STAR_RULE, lark_internals_problem

ROOT = Path(__file__).resolve().parent.parent


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def test_the_lark_internals_the_call_parser_drives_are_still_there():
    problem = lark_internals_problem(LARK)
    assert problem is None, (
        f"Lark's internals changed: {problem}. grammar/parser.py reads Lark's LALR parse_table "
        f"and the generated rule {STAR_RULE!r}; adapt grammar/lark_table.py (or move to "
        "Lark.parse_interactive, measured in grammar/README.md) and then widen the lark pin in "
        "pyproject.toml"
    )
    assert parse("тройку чисто в левый угол").ball == 3


def test_the_installed_lark_is_inside_the_pinned_range():
    pin = re.search(
        r'"lark>=([\d.]+),<([\d.]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    )
    assert pin, (
        'pyproject.toml: lark must be pinned as "lark>=A,<B" (grammar/parser.py uses its '
        "internals)"
    )
    low, high = _version(pin.group(1)), _version(pin.group(2))
    assert low <= _version(lark.__version__) < high, (
        f"lark {lark.__version__} is outside the tested range {pin.group(0)}: run "
        "tests/test_grammar_lark_internals.py against it before widening the pin"
    )


def test_a_lark_without_the_table_is_named_as_such():
    class LarkWithoutTable:  # a test double: a Lark whose parser has no parse_table
        parser = None

    problem = lark_internals_problem(LarkWithoutTable())
    assert problem is not None and "parse_table" in problem
