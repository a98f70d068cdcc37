"""The records the call grammar passes between its stages (lexer → LALR walk → assembly).

- ``Tok``: a phrase-level token the parser feeds to the LALR table: the grammar's terminal
  (``type``, e.g. "B_NOM", "POCKET"), its ``value`` (a ball number, a count, the pocket
  words' tags, or None) and the characters it covers (``start``, ``end``).
- ``Item``: a phrase of a call the grammar recognised: its ``kind`` ("called", "pocket",
  "kiss", "cushion", "driver", …, see ``parser._BUILDERS``), ``value`` (the ball, the
  cushion count, the pocket words' tags…) and the characters it covers.
- ``BallRef``: a ball named after «от» (``ball_gen``), before it becomes a kiss or a carom.

They are NamedTuples: cheap to make (a parse makes a few dozen), hashable (readings are
compared and memoised), and equal to the plain tuples of the same fields.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Tok(NamedTuple):
    type: str
    value: Any
    start: int
    end: int


class Item(NamedTuple):
    kind: str
    value: Any
    start: int
    end: int


class BallRef(NamedTuple):
    ball: int
    start: int
    end: int
