"""The short outcome notation: what happened on a stroke, typed by a scorer.

``parse_outcome(text)`` turns the notation into the outcome JSON dict of ``rules/outcome.py``
(``Outcome.from_json`` then checks it against the rules); ``render_outcome(dict)``
writes a dict back in the notation (``parse_outcome(render_outcome(d)) == d``).
The grammar is ``notation.lark`` (Lark, LALR). Case does not matter, «ё» reads as «е».

Items are separated by «;» or «,» and can come in any order; events keep the
order they are written in (time order):

  a ball's story       ``биток 6``               the cue ball hits ball 6
                       ``11 3``                  ball 11 hits ball 3
                       ``биток 6 3 в середину``  a chain: cue→6, 6→3, 3 into the middle
                       ``3 борт``, ``3 в борт``  ball 3 touches a cushion
                       ``биток борт 6``          cue ball off a cushion, then hits 6
                       ``3 в правый дальний угол``, ``3 в левую середину``, ``3 в середину``
                                                 ball 3 falls into that pocket
                       ``биток в левый ближний угол``, ``биток в лузе``  the cue ball falls (P1 б)
                       (``в лузе``/``в лузу`` leaves the pocket unsaid: fine for any ball but
                       the called one, whose pocket the judge then asks for)
                       ``биток за бортом``, ``5 вылетел``  a ball leaves the table
                       (a carom is two stories: ``биток 6, биток 11``; «→»/«->» may join
                       the steps of a chain: ``биток → 6 → 3``)
  fouls (P1)           ``фол г``, ``г``, ``фол г д``; or words: ``касание`` (г),
                       ``чужой шар`` (д), ``турник`` / ``ребром`` (е),
                       ``не из дома`` / ``с другой стороны`` (з), ``не остановились`` (и).
                       а, б, в, ж are what the events show (P1, derived by the
                       engine): write ``промах``, ``биток в … угол``, ``биток за
                       бортом``, ``в доме``; the letters а, в, ж are accepted and mean
                       exactly those; «б» is refused (say which pocket).
  flags                ``промах``            the cue ball touched no ball (P1 а): in the
                                             full form the engine derives it from the absence
                                             of a cue-ball hit, so ``промах`` only checks there
                                             is none; in the short form (``по заказу`` / ``не
                                             по заказу``) it adds «а» to ``fouls``
                       ``с руки``            played from hand (from_hand true; left out,
                                             from_hand is null: as the game state says)
                       ``в доме``            from hand, the first ball hit was in the house (P1 ж)
                       ``по заказу`` / ``не по заказу``  the route as called or not
                                             (route_ok; a scorer who gives only the pockets)
                       ``предупреждение``    the referee had warned (warned; E2, P7, P8)
                       ``позиция не изменилась``  the balls did not move (positions_unchanged, E2)
  no events            ``ничего``, ``пусто`` or ``-`` alone: an empty outcome. In the
                       full form no event means the cue ball touched nothing (P1 а,
                       derived by the engine); a stroke after which nothing fell is
                       written with its first contact: ``биток 5``

The notation checks the form; ``Outcome.from_json`` and the judge check the rest
(balls on the table, the short form's limits, the pocket of the called ball).

Ball numbers are digits 1–15 («3», «3-й»); the cue ball is «биток» (or «свой»).
Pockets are as the striker sees the table, read as the call language reads them, in
any order and with or without a noun: угол / угловая / луза / середина / средняя /
центральная / центр, левый / правый, дальний / ближний / к себе / свой («в правый
дальний», «в левую дальнюю лузу», «в свой левый угол»). An end word says corner;
«в левую лузу» (the corner or the middle pocket?) is refused. English aliases: cue, in, corner,
middle, left, right, far, near, cushion, off, foul, miss, from hand, in house, as called, not as
called, warned, unchanged, nothing.

Errors are ``NotationError``: the column (1-based) and what was expected there.
This module imports nothing outside ``rules`` but the pocket reading of the Call AST
(``grammar/call.py``), so that a pocket reads the same in a call and in an outcome.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from lark import (
    Lark,
    Token,
    Transformer,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    v_args,
)
from lark.tree import Meta

from pyramid_referee.grammar.call import Pocket, pocket_from_words

from .errors import RulesError
from .messages import N_, trl
from .outcome import MAX_EVENTS

#: The longest outcome text taken: a stroke of MAX_EVENTS items, each a few words, fits in it.
MAX_OUTCOME_CHARS = 1000

__all__ = [
    "NotationError",
    "parse_outcome",
    "parse_outcome_located",
    "render_outcome",
    "FOUL_LETTERS",
    "EMPTY_OUTCOME",
]

#: P1 letters the referee sees and the events cannot show.
FOUL_LETTERS = ("г", "д", "е", "з", "и")

_WORD_FOULS = {
    "TOUCH": "г",  # P1 г: touching a ball with the cue, the rest, clothing, hand
    "OTHERS_BALL": "д",  # P1 д: playing a ball that is not one's own
    "CUE_EDGE": "е",  # P1 е: striking with the edge or the butt of the cue
    "WRONG_SIDE": "з",  # P1 з: from hand, from the opposite side instead of the house
    "MOVING": "и",  # P1 и: striking while balls are still moving
}

_FLAGS = ("from_hand", "first_hit_in_house", "positions_unchanged", "warned")

#: The outcome of «ничего»: nothing fell, nothing was seen.
EMPTY_OUTCOME: dict[str, Any] = {
    "events": [],
    "fouls": [],
    "from_hand": None,
    "first_hit_in_house": False,
    "positions_unchanged": False,
    "warned": False,
}

# What each terminal is, for «expected: …» in error messages (English; Russian in the catalog).
_EXPECTED = {
    "CUE": N_("'биток' (cue ball)"),
    "NUMBER": N_("a ball number"),
    "CUSHION": N_("'борт' (cushion)"),
    "_IN": N_("'в' (a pocket or a cushion)"),
    "OFF_TABLE": N_("'за бортом' (off the table)"),
    "CORNER": N_("'угол' (corner)"),
    "MIDDLE": N_("'середину' (middle)"),
    "POCKET_ANY": N_("'лузу' (a pocket)"),
    "LEFT": N_("'левый'"),
    "RIGHT": N_("'правый'"),
    "FAR": N_("'дальний'"),
    "NEAR": N_("'ближний'"),
    "OWN": N_("'свой'"),
    "_SEP": N_("';' or ','"),
    "_ARROW": N_("'→'"),
    "FOUL_WORD": N_("'фол'"),
    "LETTER": N_("a foul letter (г, д, е, з, и)"),
    "MISS": N_("'промах'"),
    "NOTHING": N_("'ничего'"),
    "FROM_HAND": N_("'с руки'"),
    "IN_HOUSE": N_("'в доме'"),
    "ROUTE_OK": N_("'по заказу'"),
    "ROUTE_NOT_OK": N_("'не по заказу'"),
    "WARNED": N_("'предупреждение'"),
    "UNCHANGED": N_("'позиция не изменилась'"),
    "TOUCH": N_("a foul word (касание, чужой шар, …)"),
    "$END": N_("the end of the line"),
}
_FOUL_WORD_TERMINALS = ("OTHERS_BALL", "CUE_EDGE", "WRONG_SIDE", "MOVING")


class NotationError(RulesError, ValueError):
    """A notation that does not parse: where (1-based column) and what was expected."""

    def __init__(
        self,
        column: int,
        what: str,
        expected: tuple[tuple[str, str], ...] = (),
        /,
        **params: Any,
    ) -> None:
        """``what``: an English template filled with ``params`` (its Russian text is the
        catalog's); ``expected``: (Russian, English) names of what could stand there."""
        self.column = column
        self.what_en = what.format(**params) if params else what
        self.what_ru = trl("ru", what).format(**params) if params else trl("ru", what)
        self.expected = expected
        super().__init__(self.message("ru"))

    def message(self, lang: str = "ru") -> str:
        en = lang == "en"
        what = self.what_en if en else self.what_ru
        if self.expected:
            names = ", ".join(e[1] if en else e[0] for e in self.expected)
            return trl(lang, "column {column}: {what}; expected: {names}").format(
                column=self.column, what=what, names=names
            )
        return trl(lang, "column {column}: {what}").format(column=self.column, what=what)

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        return {"column": self.column, "message": self.message(lang)}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark.open(
        str(Path(__file__).with_name("notation.lark")),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
    )


def _expected(names: Iterable[str]) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for name in sorted(
        set(names), key=lambda n: list(_EXPECTED).index(n) if n in _EXPECTED else 99
    ):
        if name in _FOUL_WORD_TERMINALS:
            name = "TOUCH"
        desc = (trl("ru", _EXPECTED[name]), _EXPECTED[name]) if name in _EXPECTED else None
        if desc and desc not in out:
            out.append(desc)
    return tuple(out)


def _column(col: int | None) -> int:
    """A token's column: Lark's lexer sets it on every token (its type allows None)."""
    assert col is not None
    return col


def _err(col: int | None, what: str, **params: Any) -> NotationError:
    return NotationError(_column(col), what, **params)


# ------------------------------------------------------------------------ the parse tree → records


class Step(NamedTuple):
    """What a ball met after its subject, as written: ``kind`` "ball" (a hit: ``token`` NUMBER
    or CUE), "cushion", "pocket" (``words``: the pocket's word tokens) or "off_table"."""

    kind: str
    token: Token | None
    words: tuple[Token, ...]
    column: int


class Motion(NamedTuple):
    """A ball's story: the subject (a NUMBER or CUE token) and its steps in order."""

    subject: Token
    steps: tuple[Step, ...]


class Fouls(NamedTuple):
    """A foul item: «фол г д», «касание»: the tokens as written (FOUL_WORD, LETTER, foul words)."""

    tokens: tuple[Token, ...]


class Flag(NamedTuple):
    """A flag item: «промах», «с руки», «по заказу», …: its token."""

    token: Token


class _ToRecords(Transformer[Token, list[Any]]):
    """The notation's parse tree → its items as records, in the order written. Nothing is
    checked here: ``_build`` reads the items in order, so that the first mistake written is the
    one named."""

    @v_args(inline=True)
    def subject(self, tok: Token) -> Token:
        return tok

    @v_args(meta=True)
    def cushion(self, meta: Meta, _children: list[Any]) -> Step:
        return Step("cushion", None, (), meta.column)

    def pocket_name(self, toks: list[Token]) -> tuple[Token, ...]:
        return tuple(toks)

    @v_args(meta=True)
    def pocketed(self, meta: Meta, children: list[Any]) -> Step:
        return Step("pocket", None, children[0], meta.column)

    def motion(self, children: list[Any]) -> Motion:
        subject, *rest = children
        steps = tuple(
            c
            if isinstance(c, Step)
            else Step("off_table" if c.type == "OFF_TABLE" else "ball", c, (), c.column)
            for c in rest
        )
        return Motion(subject, steps)

    def foul(self, toks: list[Token]) -> Fouls:
        return Fouls(tuple(toks))

    @v_args(inline=True)
    def flag(self, tok: Token) -> Flag:
        return Flag(tok)

    def items(self, children: list[Any]) -> list[Any]:
        return children

    def nothing(self, _children: list[Any]) -> list[Any]:
        return []


def _ball(tok: Token) -> int:
    digits = "".join(ch for ch in str(tok) if ch.isdigit())
    n = int(digits)
    if not 1 <= n <= 15:
        raise _err(tok.column, N_("there is no ball {n}: balls are 1-15"), n=n)
    return n


def _actor(tok: Token) -> Any:
    return "cue" if tok.type == "CUE" else _ball(tok)


_MASCULINE_ENDINGS = ("ый", "ом", "ого")  # «левый», «в левом», «из левого»: agree with «угол» only


def _pocket(toks: tuple[Token, ...]) -> dict[str, Any] | None:
    """The pocket words → the pocket JSON, read as the call language reads them
    (``pocket_from_words``): any order, the noun optional, an end word says corner."""
    if all(t.type == "POCKET_ANY" for t in toks):
        return None  # «в лузе»: which pocket is not said (the engine asks if it matters)
    kinds: set[str] = set()
    sides: set[str] = set()
    ends: set[str] = set()
    for tok in toks:
        t = tok.type
        if t in ("CORNER", "MIDDLE"):
            kinds.add(t.lower())
        elif t == "OWN":
            ends.add("near")
        elif t in ("LEFT", "RIGHT"):
            sides.add(t.lower())
        elif t in ("FAR", "NEAR"):
            ends.add(t.lower())
        else:
            continue
        if len(kinds) > 1:
            raise _err(tok.column, N_("the pocket is both a corner and a middle one"))
        if len(sides) > 1:
            raise _err(tok.column, N_("the pocket is both left and right"))
        if len(ends) > 1:
            raise _err(tok.column, N_("the pocket is both far and near"))
    # «3 в правый», «3 в левом»: a masculine side word with no noun is the corner (of угол,
    # середина and луза only «угол» agrees with it), as in the call language
    masculine = not any(t.type == "POCKET_ANY" for t in toks) and any(
        t.type in ("LEFT", "RIGHT") and t.value.endswith(_MASCULINE_ENDINGS) for t in toks
    )
    got = pocket_from_words(kinds, sides, ends, masculine)
    if got == "middle_end":
        raise _err(toks[0].column, N_("a middle pocket has no far or near end"))
    if got == "side_only":
        side = next(iter(sides))
        if side == "left":
            raise _err(
                toks[0].column,
                N_(
                    "that names both the corner and the middle pocket: "
                    "write 'в левый угол' or 'в левую середину'"
                ),
            )
        raise _err(
            toks[0].column,
            N_(
                "that names both the corner and the middle pocket: "
                "write 'в правый угол' or 'в правую середину'"
            ),
        )
    assert isinstance(got, Pocket), got  # the words' contradictions are refused above
    return got.to_json()


def _motion(motion: Motion, events: list[dict[str, Any]], columns: list[int]) -> None:
    """A ball's story → its events, each at the column of what came right before it."""
    actor = _actor(motion.subject)
    col = _column(motion.subject.column)
    for step in motion.steps:
        if step.kind == "ball":
            node = step.token
            assert node is not None  # a hit is written with its ball
            target = _ball(node) if node.type == "NUMBER" else "cue"
            if target == actor:
                if target == "cue":
                    raise _err(node.column, N_("cue cannot hit itself"))
                raise _err(node.column, N_("{ball} cannot hit itself"), ball=target)
            events.append({"type": "hit", "a": actor, "b": target})
            actor = target
        elif step.kind == "off_table":
            events.append({"type": "off_table", "ball": actor})
        elif step.kind == "cushion":
            events.append({"type": "cushion", "ball": actor})
        else:  # "pocket"
            events.append({"type": "pocket", "ball": actor, "pocket": _pocket(step.words)})
        columns.append(col)
        col = step.column


def parse_outcome(text: str) -> dict[str, Any]:
    """The short notation → the outcome JSON dict of ``rules/outcome.py``. Raises NotationError."""
    return parse_outcome_located(text)[0]


def parse_outcome_located(text: str) -> tuple[dict[str, Any], list[int]]:
    """``parse_outcome`` and, for each event, the column its item starts at (for
    pointing the engine's ``events[i]`` errors back at the text)."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    norm = text.lower().replace("ё", "е")  # same length: columns stay right
    if not norm.strip():
        raise _err(1, N_("no outcome given (write 'ничего' or '-' for an empty one)"))
    if (
        len(text.strip()) > MAX_OUTCOME_CHARS
    ):  # before the parser: it need not read a runaway paste
        raise _err(
            MAX_OUTCOME_CHARS + 1,
            N_("the outcome is {n} characters long, longer than any stroke's: at most {limit}"),
            n=len(text.strip()),
            limit=MAX_OUTCOME_CHARS,
        )
    try:
        tree = _parser().parse(norm)
    except UnexpectedInput as exc:
        pos = getattr(exc, "pos_in_stream", None)
        if pos is not None and _chuzhoi_among_pocket_words(norm, pos):
            # «3 в чужой угол», «3 в правый чужой угол», «3 в правый угол чужой»: «чужой» is a
            # ball that is not the player's own, never a pocket (as in the call language)
            far, near = _chuzhoi_options(norm, pos)
            raise NotationError(
                exc.column,
                N_(
                    "'чужой' is a ball, not a pocket: the far pocket is {far}, the near one {near}"
                ),
                far=far,
                near=near,
            ) from None
        _raise_parse_error(exc, text)
    return _build(_ToRecords().transform(tree))


_CHUZHOI = re.compile(r"чуж\w*")
_POCKET_WORD = re.compile(
    r"(в|во|лев\w*|прав\w*|слева|справа|дальн\w*|ближн\w*|угл\w*|угол|уголок|луз\w*"
    r"|середин\w*|средн\w*|центр\w*|свой|свою|себе)"
)


def _chuzhoi_among_pocket_words(norm: str, pos: int) -> bool:
    """Does a «чужой» (any form) stand at ``pos`` among a pocket's words (right after
    «в» or a pocket word, or right before one)? «чужой шар» said as a foul is not."""
    m = _CHUZHOI.match(norm, pos)
    if not m:
        return False
    before = re.split(r"[;,]", norm[:pos])[-1].split()
    after = re.split(r"[;,]", norm[m.end() :])[0].split()
    if after[:1] == ["шар"]:
        return False
    return bool(before and _POCKET_WORD.fullmatch(before[-1])) or bool(
        after and _POCKET_WORD.fullmatch(after[0])
    )


def _chuzhoi_options(norm: str, pos: int) -> tuple[str, str]:
    """The far and the near pocket, keeping the other pocket words said (as the call
    language's hint does): «3 в правый чужой угол» → «в правый дальний угол», «в правый
    ближний угол». A pocket the words cannot make is offered on both sides."""
    m = _CHUZHOI.match(norm, pos)
    assert m is not None  # the caller found «чужой» at ``pos``
    out = []
    for end in ("дальний", "ближний"):
        try:
            events = parse_outcome(norm[:pos] + end + norm[m.end() :])["events"]
            pockets = [e["pocket"] for e in events if e["type"] == "pocket" and e["pocket"]]
            pocket = pockets[0] if pockets and pockets[0]["side"] else None
        except NotationError:
            pocket = None
        if pocket is None:
            sides = [
                _render_pocket(
                    {"kind": "corner", "side": s, "end": "far" if end == "дальний" else "near"}
                )
                for s in ("left", "right")
            ]
            out.append(" / ".join(f"«{x}»" for x in sides))
        else:
            out.append(f"«{_render_pocket(pocket)}»")
    return out[0], out[1]


def _raise_parse_error(exc: UnexpectedInput, text: str) -> None:
    """Lark's parse error → a NotationError naming the column and what was expected."""
    try:
        raise exc
    except UnexpectedCharacters as exc:
        rest = text[exc.pos_in_stream :]
        word = rest.split()[0] if rest.split() else rest[0]
        raise NotationError(
            exc.column, N_("not understood: '{word}'"), _expected(exc.allowed or ()), word=word
        ) from None
    except UnexpectedEOF as exc:
        raise NotationError(
            len(text) + 1, N_("the outcome stops short"), _expected(exc.expected)
        ) from None
    except UnexpectedToken as exc:
        if exc.token.type == "$END":
            raise NotationError(
                len(text.rstrip()) + 1,
                N_("the outcome stops short"),
                _expected(exc.accepts or exc.expected),
            ) from None
        word = text[exc.token.start_pos : exc.token.end_pos]
        raise NotationError(
            exc.column,
            N_("'{word}' does not fit here"),
            _expected(exc.accepts or exc.expected),
            word=word,
        ) from None
    except UnexpectedInput as exc:  # pragma: no cover - the three above cover LALR
        raise NotationError(getattr(exc, "column", 1) or 1, N_("not parsed")) from None


def _build(items: list[Any]) -> tuple[dict[str, Any], list[int]]:
    """The items as written (records) → the outcome dict and each event's column."""
    out = {k: (list(v) if isinstance(v, list) else v) for k, v in EMPTY_OUTCOME.items()}
    columns: list[int] = []
    events: list[dict[str, Any]] = out["events"]
    fouls: set[str] = set()
    miss_col = None
    route_ok = None
    for item in items:
        if isinstance(item, Motion):
            _motion(item, events, columns)
        elif isinstance(item, Fouls):
            for tok in item.tokens:
                if tok.type == "FOUL_WORD":
                    continue
                if tok.type == "LETTER":
                    letter = str(tok)
                    if letter == "а":
                        miss_col = miss_col or tok.column
                    elif letter == "б":  # P1 б is derived from the cue ball's pocket event
                        raise _err(
                            tok.column, N_("'б' is an event: write 'биток в …' and the pocket")
                        )
                    elif letter == "в":
                        events.append({"type": "off_table", "ball": "cue"})
                        columns.append(_column(tok.column))
                    elif letter == "ж":
                        out["from_hand"] = out["first_hit_in_house"] = True
                    else:
                        fouls.add(letter)
                else:
                    fouls.add(_WORD_FOULS[tok.type])
        else:  # a Flag
            tok = item.token
            t = tok.type
            if t == "MISS":
                miss_col = miss_col or tok.column
            elif t == "FROM_HAND":
                out["from_hand"] = True
            elif t == "IN_HOUSE":
                out["from_hand"] = out["first_hit_in_house"] = True
            elif t in ("ROUTE_OK", "ROUTE_NOT_OK"):
                new = t == "ROUTE_OK"
                if route_ok is not None and route_ok != new:
                    raise _err(tok.column, N_("both 'as called' and 'not as called'"))
                route_ok = new
            elif t == "WARNED":
                out["warned"] = True
            elif t == "UNCHANGED":
                out["positions_unchanged"] = True
    if len(events) > MAX_EVENTS:
        raise _err(
            columns[MAX_EVENTS],
            N_("{n} events, more than one stroke can have: at most {limit}"),
            n=len(events),
            limit=MAX_EVENTS,
        )
    if miss_col is not None:
        if any(e["type"] == "hit" and "cue" in (e["a"], e["b"]) for e in events):
            raise _err(miss_col, N_("'промах' (miss), yet the cue ball hits a ball"))
        if route_ok is not None:  # the short form has no hits to derive P1 а from
            fouls.add("а")
    out["fouls"] = [f for f in "а" + "".join(FOUL_LETTERS) if f in fouls]
    if route_ok is not None:
        out["route_ok"] = route_ok
    return out, columns


# ---------------------------------------------------------------------------- render

_SIDE_RU = {"left": ("левый", "левую"), "right": ("правый", "правую")}
_END_RU = {"far": "дальний", "near": "ближний"}
_LETTER_WORD = {
    "г": "касание",
    "д": "чужой шар",
    "е": "турник",
    "з": "не из дома",
    "и": "не остановились",
}


def _render_actor(a: Any) -> str:
    return "биток" if a == "cue" else str(a)


def _render_pocket(p: dict[str, Any] | None) -> str:
    if p is None:
        return "в лузе"
    if p["kind"] == "middle":
        return "в " + (_SIDE_RU[p["side"]][1] + " " if p.get("side") else "") + "середину"
    words = [_SIDE_RU[p["side"]][0]] if p.get("side") else []
    if p.get("end"):
        words.append(_END_RU[p["end"]])
    return "в " + " ".join(words + ["угол"])


def render_outcome(outcome: dict[str, Any]) -> str:
    """An outcome dict → the short notation (one item per event: ``биток 6; 6
    3; 3 в середину``)."""
    items: list[str] = []
    for e in outcome.get("events", []):
        t = e["type"]
        if t == "hit":
            items.append(f"{_render_actor(e['a'])} {e['b']}")
        elif t == "cushion":
            items.append(f"{_render_actor(e['ball'])} борт")
        elif t == "pocket":
            items.append(f"{_render_actor(e['ball'])} {_render_pocket(e.get('pocket'))}")
        elif t == "off_table":
            items.append(f"{_render_actor(e['ball'])} за бортом")
        else:
            raise ValueError(f"events: unknown event type {t!r}")
    fouls = [f for f in outcome.get("fouls", []) if f != "а"]
    if "а" in outcome.get("fouls", []):
        items.append("промах")
    if fouls:
        items.append("фол " + " ".join(fouls))
    if outcome.get("first_hit_in_house"):
        items.append("с руки; в доме")
    elif outcome.get("from_hand"):
        items.append("с руки")
    if "route_ok" in outcome and outcome["route_ok"] is not None:
        items.append("по заказу" if outcome["route_ok"] else "не по заказу")
    if outcome.get("warned"):
        items.append("предупреждение")
    if outcome.get("positions_unchanged"):
        items.append("позиция не изменилась")
    return "; ".join(items) if items else "ничего"
