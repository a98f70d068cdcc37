"""The LALR(1) table of the call grammar (``calls.lark``), built by Lark and read in plain dicts.

``parser.py`` walks this table itself, every reading of the tagged words at once (see
grammar/README.md, "Lark's table or Lark's interactive parser", for why and the figures).
This module is where the parser meets Lark's internals, and names them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lark as lark_module
from lark import Lark
from lark.lexer import Lexer

STAR_RULE = "__start_star_0"  # the name Lark generates for the list in «start: _item*»


class TokenFeed(Lexer):
    """The 'lexer' Lark sees when it builds the tables (tokens come pre-tagged)."""

    def __init__(self, lexer_conf: Any) -> None:  # noqa: D401 - Lark's interface
        pass

    # Lark's first custom-lexer interface (``lex(data)``, which Lark wraps), not the
    # ``lex(lexer_state, parser_state)`` its Lexer base declares; Lark never lexes through it here.
    def lex(self, data: Any) -> Iterator[Any]:  # type: ignore[override]
        return iter(data)


GRAMMAR_FILE = Path(__file__).with_name("calls.lark")
# Lark builds the LALR(1) tables from calls.lark; strict: no shift/reduce
# conflicts, so the grammar itself never guesses (ambiguity comes only from
# words with several tags, and is checked by comparing the readings).
LARK = Lark(GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr", lexer=TokenFeed, strict=True)


# What is read of Lark beyond its public API: the LALR table at
# ``Lark.parser.parser.parser.parse_table`` with ``states`` (state → terminal name →
# (action, arg)), ``start_states`` and ``end_states``; an action named "Shift" (arg: the next
# state) or "Reduce" (arg: a rule with ``origin.name``, ``alias`` and ``expansion``); and the
# name Lark gives the list rule of ``start: _item*`` (``__start_star_0``). The lark versions
# this is tested with are pinned in pyproject.toml; ``lark_internals_problem`` names what
# changed, and tests/test_grammar_lark_internals.py runs it.


def lark_internals_problem(lark: Lark) -> str | None:
    """What of Lark's internals this module relies on is missing from ``lark``; None: all there."""
    version = getattr(lark_module, "__version__", "?")
    try:
        table = lark.parser.parser.parser.parse_table
        states, start, end = table.states, table.start_states["start"], table.end_states["start"]
    except (AttributeError, KeyError, TypeError) as exc:
        return f"lark {version}: no LALR parse_table with states/start_states/end_states ({exc!r})"
    if start not in states or end not in states:
        return f"lark {version}: the start or end state is not in parse_table.states"
    names = set()
    for actions in states.values():
        for _symbol, (action, arg) in actions.items():
            kind = getattr(action, "name", None)
            if kind == "Reduce":
                if not all(hasattr(arg, a) for a in ("origin", "alias", "expansion")):
                    return f"lark {version}: a Reduce action's rule has no origin/alias/expansion"
                names.add(str(arg.origin.name))
            elif kind == "Shift":
                if not isinstance(arg, int) and arg not in states:
                    return f"lark {version}: a Shift action does not name a state ({arg!r})"
            else:
                return f"lark {version}: an action is neither Shift nor Reduce ({action!r})"
    if STAR_RULE not in names:
        return (
            f"lark {version}: the rule for «start: _item*» is no longer named {STAR_RULE!r}: "
            f"{sorted(names)}"
        )
    return None


def compile_table(
    builders: dict[str, Callable[..., Any]], list_builder: Callable[..., Any]
) -> tuple[dict[int, dict[str, tuple[bool, Any]]], int, int]:
    """Lark's LALR table in plain dicts: state → terminal → (shift?, next state | (size, rule,
    builder)); with the start and the end state. ``builders``: rule name (or alias) → the
    function building its value; ``list_builder`` for the list rules Lark generates («x*»)."""
    problem = lark_internals_problem(LARK)
    if problem:
        raise RuntimeError(
            f"grammar/parser.py cannot drive Lark's table: {problem} (the tested lark "
            "versions are pinned in pyproject.toml)"
        )
    table = LARK.parser.parser.parser.parse_table
    states: dict[int, dict[str, tuple[bool, Any]]] = {}
    for state, actions in table.states.items():
        row: dict[str, tuple[bool, Any]] = {}
        for symbol, (action, arg) in actions.items():
            symbol = str(symbol)
            if action.name == "Shift":
                row[symbol] = (True, arg)
            else:
                name = str(arg.alias or arg.origin.name)
                build = builders.get(name) or (list_builder if name.startswith("__") else None)
                if build is None:
                    raise RuntimeError(f"calls.lark: no builder for rule {name!r}")
                row[symbol] = (False, (len(arg.expansion), str(arg.origin.name), build))
        states[state] = row
    return states, table.start_states["start"], table.end_states["start"]
