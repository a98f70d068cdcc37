"""parse(text) → Call | Refusal: lexer → Lark LALR over tags → assembly.

Each word's tags come from the lexicon (one dict lookup). A word with several
tags («двенадцатого»: genitive or animate accusative; «шаром» before or after
its ball) makes several taggings; each is parsed by the LALR grammar
(``calls.lark``) and assembled into a call. Different calls from different
readings are refused as ``ambiguous`` (C9: never pick one silently); a reading
that does not make a call does not count against one that does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from itertools import product
from typing import Any

from .assembly import Reading, _Example, obj_pocket_options, resolve, several_calls_unclear
from .call import BALLS, Call
from .corrections import Correction, Step, fold, plan
from .errors import GrammarError
from .items import BallRef, Item, Tok
from .lark_table import STAR_RULE, compile_table
from .lexicon import (
    IGNORED_TAGS,
    MAX_CHARS,
    MAX_WORDS,
    POCKET_TAGS,
    TooLong,
    Word,
    normalize,
    number_beyond,
    split_words,
    tag_words,
)
from .refusal import Refusal
from .render import example_combo, example_for, example_plain, render
from .typos import suggestion

MODES = {
    "clean": "clean",
    "ball_and_pocket": "ball_and_pocket",
    "ball-and-pocket": "ball_and_pocket",
}
# The match setting pocket_precision (Q2): a corner needs its side, or not.
POCKET_PRECISIONS = ("side_for_corners", "any")
MAX_READINGS = 32  # more readings alive than this: refused as too convoluted (C4)

# What a hanging word still needs, for «incomplete» messages.
EXPECTS = {
    "OT": "ball_or_cushion",
    "KARAMBOL": "of_ball",
    "SHAROM_PRE": "ball",
    "SHARA": "ball",
    "COUNT_INS": "balls",
    "NUM_GEN": "cushions",
}


# What a parse gives: the call and the corrections that made it, or a Refusal.
Parsed = tuple[Call, list[Correction]] | Refusal


# Phrase builders: children (Toks, or values built by the rules below) → an Item for assembly.
def _ball_of(children: list[Any], types: tuple[str, ...] = ("B_INS", "B_BARE")) -> int:
    ball: int = next(c.value for c in children if c.type in types)
    return ball


def _star(c: list[Any]) -> list[Any]:
    """The list of items so far (kiss and carom lists give several items)."""
    if len(c) == 1:
        return list(c[0]) if isinstance(c[0], list) else [c[0]]
    head: list[Any] = c[0]
    item = c[1]
    return head + item if isinstance(item, list) else head + [item]


def _flat_list(c: list[Any]) -> list[Any]:
    """A list rule (``x*``): the built values so far, as one list."""
    if len(c) == 1:
        return [c[0]]
    head: list[Any] = c[0]
    return head + [c[1]]


def _balls(children: list[Any]) -> list[BallRef]:
    """ball_gen and the more_gen list after it → [BallRef, …]."""
    out = [children[0]]
    if len(children) > 1:
        out.extend(children[1])
    return out


# The records are made with tuple.__new__: a NamedTuple's own constructor is a Python call, and
# a parse makes a few dozen of them (bench/bench_parse.py).
_new = tuple.__new__

_BUILDERS: dict[str, Callable[[list[Any]], Any]] = {
    "called": lambda c: _new(Item, ("called", c[0].value, c[0].start, c[0].end)),
    "obj": lambda c: _new(Item, ("obj", None, c[0].start, c[0].end)),
    "cue": lambda c: _new(Item, ("cue", None, c[0].start, c[0].end)),
    "stroke": lambda c: _new(Item, ("stroke", None, c[0].start, c[0].end)),
    "pocket": lambda c: _new(Item, ("pocket", c[0].value, c[0].start, c[0].end)),
    "clean": lambda c: _new(Item, ("clean", None, c[0].start, c[-1].end)),
    # the first ball's span takes in «от» («от шестёрки»: what a correction shows as said)
    "kiss": lambda c: [
        _new(Item, ("kiss", b.ball, c[0].start if k == 0 else b.start, b.end))
        for k, b in enumerate(_balls(c[1:]))
    ],
    "one_cushion": lambda c: _new(Item, ("cushion", 1, c[0].start, c[-1].end)),
    "n_cushions": lambda c: _new(Item, ("cushion", c[1].value, c[0].start, c[-1].end)),
    "elided_cushions": lambda c: _new(Item, ("cushion", c[1].value, c[0].start, c[-1].end)),
    "named_cushions": lambda c: _new(
        Item, ("shot", c[0].value, c[0].start, c[0].end)
    ),  # assembly: a cushion
    "contre": lambda c: _new(Item, ("contre", None, c[0].start, c[-1].end)),
    "abricole": lambda c: _new(Item, ("abricole", None, c[0].start, c[0].end)),
    "carom": lambda c: [_new(Item, ("carom", b.ball, b.start, b.end)) for b in _balls(c[2:])],
    "driver": lambda c: _new(Item, ("driver", _ball_of(c), c[0].start, c[-1].end)),
    "count": lambda c: _new(
        Item, ("count", c[0].value if c[0].type == "COUNT_INS" else None, c[0].start, c[-1].end)
    ),
    "ball_gen": lambda c: _new(BallRef, (_ball_of(c, ("B_GEN", "B_BARE")), c[0].start, c[-1].end)),
    "more_gen": lambda c: _new(BallRef, (_ball_of(c, ("B_GEN", "B_BARE")), c[0].start, c[-1].end)),
    "_item": lambda c: c[0],
    STAR_RULE: _star,
    "start": lambda c: c[0] if c else [],
}


# A state's row of Lark's table: terminal → (shift?, the next state | (size, rule, builder)).
Row = dict[str, tuple[bool, Any]]
# Where a reading stopped fitting the grammar: (word index, the row of actions that would
# have fitted, the token or None at the end, the token before it).
Stuck = tuple[int, Row, Tok | None, Tok | None]

_STATES: dict[int, Row]
_STATES, _START, _END = compile_table(_BUILDERS, _flat_list)


_ACCEPT: Row = {}  # _feed's answer at the end of a whole parse (compared by identity)


def _feed(ss: list[int], vs: list[Any], tok: Tok | None, ttype: str) -> Row | None:
    """Feed one token to a parser configuration (state and value stacks, changed in
    place): None when it fits, _ACCEPT at the end of a whole parse, else the row
    of actions that would have fitted."""
    states = _STATES
    while True:
        row = states[ss[-1]]
        act = row.get(ttype)
        if act is None:
            return row
        if act[0]:
            if tok is None:
                return _ACCEPT
            ss.append(act[1])
            vs.append(tok)
            return None
        size, origin, build = act[1]
        if size:
            children = vs[-size:]
            del ss[-size:]
            del vs[-size:]
        else:
            children = []
        vs.append(build(children))
        ss.append(states[ss[-1]][origin][1])
        if tok is None and ss[-1] == _END:
            return _ACCEPT


def _parse_lattice(options: list[tuple[Tok, ...]]) -> tuple[list[list[Item]], Stuck | None]:
    """Parse every reading of the tagged words at once, dropping a reading as soon
    as it stops fitting the grammar (a breadth-first walk over the tag lattice).

    Returns (the items of each reading that parses, the furthest syntax error as
    (index, row, token or None at the end, previous token)); readings over
    MAX_READINGS raise OverflowError.
    """
    configs: list[tuple[list[int], list[Any], Tok | None]] = [([_START], [], None)]
    error: Stuck | None = None
    for i, opts in enumerate(options):
        new: list[tuple[list[int], list[Any], Tok | None]] = []
        fork = len(opts) > 1
        for ss, vs, _prev in configs:
            for k, tok in enumerate(opts):
                if fork and k < len(opts) - 1:
                    s2, v2 = list(ss), list(vs)
                else:
                    s2, v2 = ss, vs
                row = _feed(s2, v2, tok, tok.type)
                if row is None:
                    new.append((s2, v2, tok))
                elif error is None or i > error[0]:
                    error = (i, row, tok, _prev)
        if not new:
            return [], error
        if len(new) > MAX_READINGS:
            raise OverflowError
        configs = new
    readings = []
    for ss, vs, prev in configs:
        got = _feed(ss, vs, None, "$END")
        if got is _ACCEPT:
            readings.append(vs[-1] if vs else [])
        elif got is not None and (error is None or len(options) > error[0]):
            error = (len(options), got, None, prev)
    return readings, error


_POCKET_KINDS = frozenset({"CORNER", "MIDDLE", "LUZA"})


def _ball_word(w: Word) -> bool:
    return w.has("B_INS", "B_BARE", "B_NOM", "B_GEN")


def _taggings(words: Sequence[Word]) -> list[tuple[Tok, ...]]:
    """For each phrase-level token, the tokens its word's tags allow."""
    options: list[tuple[Tok, ...]] = []
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        if w.types and w.types <= POCKET_TAGS:
            j = i
            parts: list[tuple[Any, ...]] = []
            named = False  # has the run named a pocket yet (угол, середина, луза)?
            while j < n and words[j].types and words[j].types <= POCKET_TAGS:
                if j > i and named and "V" in words[j].types:
                    break  # «в угол в середину»: two pocket phrases
                named = named or not words[j].types.isdisjoint(_POCKET_KINDS)
                parts.extend(words[j].tags)
                j += 1
            options.append((_new(Tok, ("POCKET", tuple(parts), w.start, words[j - 1].end)),))
            i = j
            continue
        if len(w.tags) == 1 and "SHAROM" not in w.types:
            t, v = w.tags[0]
            options.append((_new(Tok, (t, v, w.start, w.end)),))
            i += 1
            continue
        opts = []
        for t, v in w.tags:
            if t == "SHAROM":
                # «одиннадцатым шаром» or «шаром одиннадцатым»: by its neighbours
                if i > 0 and _ball_word(words[i - 1]):
                    opts.append(_new(Tok, ("SHAROM_POST", None, w.start, w.end)))
                if (i + 1 < n and _ball_word(words[i + 1])) or not opts:
                    opts.append(_new(Tok, ("SHAROM_PRE", None, w.start, w.end)))
            else:
                opts.append(_new(Tok, (t, v, w.start, w.end)))
        options.append(tuple(opts))
        i += 1
    return options


# Tags of words that can only say the way (never the called ball or the pocket).
WAY_ONLY_TAGS = frozenset(
    {
        "OT",
        "CLEAN",
        "BORTA",
        "BORTOV",
        "NUM_GEN",
        "NUM_ELL",
        "CUSHIONS",
        "KONTRKU",
        "ABRIK",
        "KARAMBOL",
        "SHARA",
        "SHAROM",
        "COUNT_INS",
        "SHARAMI",
        "B_GEN",
        "B_INS",
        "CUE",
        "STROKE",
    }
)


def _way_only(w: Word) -> bool:
    return bool(w.types) and w.types <= WAY_ONLY_TAGS


# Words that finish a hanging word, tried in turn for a hint's example («тройку от в
# середину» → «тройку от борта в середину»): the example keeps everything said.
COMPLETIONS = {
    "OT": ("борта", "шестёрки", "семёрки"),
    "KARAMBOL": ("от шестёрки", "от семёрки"),
    "SHAROM_PRE": ("шестым", "седьмым"),
    "SHARA": ("шестого", "седьмого"),
    "NUM_GEN": ("бортов",),
}
_INS = (
    "шестым",
    "седьмым",
    "восьмым",
    "девятым",
    "десятым",
    "одиннадцатым",
    "тринадцатым",
    "четырнадцатым",
)


def _completions(tok: Tok) -> tuple[str, ...]:
    """What may finish the hanging token ``tok``; «тремя» → «тремя шарами» and three balls."""
    if tok.type == "COUNT_INS" and isinstance(tok.value, int) and 2 <= tok.value <= 4:
        n = tok.value
        return tuple(
            "шарами " + ", ".join(_INS[k : k + n - 1]) + " и " + _INS[k + n - 1] for k in (0, 4)
        )
    return COMPLETIONS.get(tok.type, ())


class _SaidExample:
    """A hint's example built on what was said: the first of ``texts`` (the words said,
    finished or with a stray word left out) that parses to a call, in canonical words;
    worked out only when the hint is read. None parses: a plain example."""

    __slots__ = ("texts", "settings")

    def __init__(self, texts: list[str], settings: dict[str, Any]) -> None:
        self.texts, self.settings = texts, settings

    def __str__(self) -> str:
        for text in self.texts:
            got = parse(text, **self.settings)
            if isinstance(got, Call):
                try:
                    return render(got)
                except GrammarError:
                    continue
        if self.settings.get("mode") == "ball_and_pocket":
            return example_plain(None, None)  # C7: no way asked for
        return example_for(None, None)


def _finished(text: str, at: int, words: Iterable[str]) -> list[str]:
    return [f"{text[:at]} {w}{text[at:]}" for w in words]


def _without(text: str, start: int, end: int) -> list[str]:
    return [text[:start] + text[end:]]


def _syntax_refusal(error: Stuck, text: str, settings: dict[str, Any]) -> Refusal:
    """Where a reading stopped fitting the grammar → the refusal a referee gives; its
    example finishes (or leaves out) the word it is about and keeps the rest said."""
    index, row, tok, prev = error
    if tok is None:  # the words ended in the middle of a phrase
        assert prev is not None  # a parse that ends short has had a token
        return Refusal(
            "incomplete",
            (prev.start, prev.end),
            "",
            {
                "word": text[prev.start : prev.end],
                "expected_key": EXPECTS.get(prev.type, "more"),
                "example": _SaidExample(_finished(text, prev.end, _completions(prev)), settings),
            },
        )
    if "CLEAN" in row or prev is None:
        # between phrases: this word starts nothing
        return Refusal(
            "unexpected_word",
            (tok.start, tok.end),
            "",
            {
                "word": text[tok.start : tok.end],
                "position": _position(text, tok.start),
                "example": _SaidExample(_without(text, tok.start, tok.end), settings),
            },
        )
    return Refusal(
        "incomplete",
        (prev.start, prev.end),
        "",
        {
            "word": text[prev.start : prev.end],
            "expected_key": EXPECTS.get(prev.type, "more"),
            "example": _SaidExample(_finished(text, prev.end, _completions(prev)), settings),
        },
    )


def _unfinished_second_call(
    content: list[Word], syntax: Stuck, text: str, settings: dict[str, Any]
) -> Refusal | None:
    """Q8 when the words stop fitting the grammar: a whole call, then a new ball word
    whose call does not finish («тройку чисто в левый угол и пятёрку от»). The latest
    ball word before the error whose words before it make a call; else None."""
    _, _, tok, prev = syntax
    stop = tok or prev
    assert stop is not None  # a reading stops at a token or after one
    at = stop.start
    for w in reversed(content):
        if w.start > at or w.index == 0 or not w.has("B_NOM", "B_BARE", "OBJ"):
            continue
        before = parse(text[: w.start], **settings)
        if isinstance(before, Call):
            return several_calls_unclear((w.start, content[-1].end), text, before)
    return None


def _pocket_words_beside(words: list[Word], k: int) -> list[tuple[Any, ...]]:
    """The tags of the pocket words said right before and after word ``k``."""
    parts: list[tuple[Any, ...]] = []
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(words) and words[j].types and words[j].types <= POCKET_TAGS:
            parts.extend(words[j].tags)
            j += step
    return parts


def _position(text: str, start: int) -> int:
    """1-based number of the word that starts at ``start``."""
    try:
        words = split_words(text[: start + 1])
    except TooLong:
        return MAX_WORDS
    return max(1, len(words))


def _check_mode(mode: str) -> str:
    if mode not in MODES:
        raise GrammarError(
            f"mode must be 'clean' or 'ball_and_pocket' ('ball-and-pocket'), not {mode!r}"
        )
    return MODES[mode]


def _check_precision(precision: str) -> str:
    if precision not in POCKET_PRECISIONS:
        raise GrammarError(
            f"pocket_precision must be 'side_for_corners' or 'any', not {precision!r}"
        )
    return precision


def _check_balls(balls_left: Iterable[int] | None) -> frozenset[int] | None:
    if balls_left is None:
        return None
    if isinstance(balls_left, (str, bytes)):
        raise GrammarError("balls_left must be numbers 1-15, not a string")
    try:
        balls = list(balls_left)
    except TypeError:
        raise GrammarError(
            f"balls_left must be an iterable of ball numbers, not {balls_left!r}"
        ) from None
    for b in balls:
        if isinstance(b, bool) or not isinstance(b, int) or b not in BALLS:
            raise GrammarError(f"balls_left: {b!r} is not a ball number 1-15")
    return frozenset(balls)


def parse(
    text: str,
    *,
    mode: str = "clean",
    balls_left: Iterable[int] | None = None,
    pocket_precision: str = "side_for_corners",
) -> Call | Refusal:
    """Read a call: a Call, or a Refusal with its reason. Never raises on a str.

    As ``parse_with_corrections``, without the list of corrections."""
    got = parse_with_corrections(
        text, mode=mode, balls_left=balls_left, pocket_precision=pocket_precision
    )
    return got if isinstance(got, Refusal) else got[0]


def parse_with_corrections(
    text: str,
    *,
    mode: str = "clean",
    balls_left: Iterable[int] | None = None,
    pocket_precision: str = "side_for_corners",
) -> Parsed:
    """``(call, corrections)`` (a ``corrections.Correction`` for each part a
    correction replaced, in the order said) or a Refusal.

    ``mode``: "clean" (clean designation, C2; default Q9) or "ball_and_pocket"
    (C7; also spelled "ball-and-pocket"). ``balls_left``: the object balls on
    the table, when known (C5 and ``ball_not_on_table``). ``pocket_precision``:
    the match setting of Q2, "side_for_corners" (default: a corner call names
    left or right, else ``pocket_not_definite``) or "any" (a corner call without
    a side is accepted, ``pocket.side`` null; the kind, corner or middle, is still
    required). Raises GrammarError only for misuse (``text`` not a str, a bad
    mode, ``balls_left`` or ``pocket_precision``).
    """
    got = _read(text, mode=mode, balls_left=balls_left, pocket_precision=pocket_precision)
    if isinstance(got, Refusal) and MODES.get(mode) == "ball_and_pocket":
        return _in_ball_and_pocket(got)
    return got


def _in_ball_and_pocket(refusal: Refusal) -> Refusal:
    """A refusal read in ball and pocket (C7): its clause and texts are that mode's, and its
    example is a ball-and-pocket call: a hint never tells the player to add a way."""
    params = dict(refusal.params)
    example = params.get("example")
    if isinstance(example, _Example):
        params["example"] = _Example(example.ball, example.pocket, plain=True)
    return replace(refusal, params=params, mode="ball_and_pocket")


def _read(
    text: str,
    *,
    mode: str,
    balls_left: Iterable[int] | None,
    pocket_precision: str,
    suggest: bool = True,
) -> Parsed:
    """``parse_with_corrections`` before a refusal is put in its mode's words; ``suggest``:
    look for the word an unknown word is a slip of (not when trying a candidate)."""
    if not isinstance(text, str):
        raise GrammarError(f"parse expects a str, not {type(text).__name__}")
    mode = _check_mode(mode)
    balls = _check_balls(balls_left)
    precision = _check_precision(pocket_precision)
    settings = {"mode": mode, "balls_left": balls, "pocket_precision": precision}
    said = _call_words(text, mode, settings, suggest)
    if isinstance(said, Refusal):
        return said
    words, whole = said
    steps = _correction_steps(words)
    if isinstance(steps, Refusal):
        return steps
    readings = _readings(steps, text, mode, settings, whole)
    if isinstance(readings, Refusal):
        return readings
    return _the_call(readings, text, mode, balls, precision, whole)


def _call_words(
    text: str, mode: str, settings: dict[str, Any], suggest: bool
) -> tuple[list[Word], tuple[int, int]] | Refusal:
    """The words said, tagged, and the span of those that say something; or why they
    cannot be read (too long, empty, an unknown word, a placeholder: C4, C9)."""
    if len(text) > MAX_CHARS and len(text.strip()) > MAX_CHARS:
        # longer than any real call: refused before any work (C4); spaces around do not count
        start = len(text) - len(text.lstrip())
        return Refusal("too_long", (start, len(text.rstrip())), "chars", {"limit": MAX_CHARS})
    try:
        words = tag_words(text)
    except TooLong as exc:
        return Refusal("too_long", exc.span, "", {"limit": MAX_WORDS})
    if not words:
        return Refusal("empty", (0, len(text)), "")
    refused = _unknown_word(words, text, settings, suggest) or _placeholder(words, mode)
    if refused is not None:
        return refused
    if mode == "ball_and_pocket":
        # C7: the rules' template way («тремя шарами такими-то, от шара такого-то») is not
        # judged; a placeholder said for the ball leaves the ball unnamed (no_ball, C7)
        words = [w for w in words if "PLACEHOLDER" not in w.types]
        if not words:
            return Refusal("no_ball", (0, len(text)), "", {})
    content = [w for w in words if not w.types <= IGNORED_TAGS]
    if not content:
        return Refusal("empty", (words[0].start, words[-1].end), "")
    return words, (content[0].start, content[-1].end)


def _unknown_word(
    words: list[Word], text: str, settings: dict[str, Any], suggest: bool
) -> Refusal | None:
    """The first word the lexicon does not know, refused with what it may have meant (C4)."""
    for w in words:
        if not w.types:
            break
    else:
        return None
    beyond = number_beyond(words, w.index)
    if beyond is not None:  # «шестнадцатый», «двадцать первый», «16»: no ball has it
        n, last = beyond
        end = words[last].end
        return Refusal(
            "unknown_word",
            (w.start, end),
            "ball_out_of_range",
            {
                "word": text[w.start : end],
                "position": w.index + 1,
                "n": n,
                "example": _SaidExample(_without(text, w.start, end), settings),
            },
        )
    reason = "no_such_ball" if w.text.lstrip("№").split("-")[0].isdigit() else ""
    params: dict[str, Any] = {"word": w.text, "position": w.index + 1}
    if normalize(w.text).startswith("чуж"):
        reason = "obj_form"  # «в чужую лузу»: «чужой» is an object ball, no pocket
        params.update(obj_pocket_options(_pocket_words_beside(words, w.index)))
    if not reason and suggest:
        fixed = suggestion(text, w, lambda t: _read(t, **settings, suggest=False))
        if fixed is not None:  # «четырнадцатй» → «четырнадцатый?»
            reason = "typo"
            params.update(fixed)
    params.setdefault("example", _SaidExample(_without(text, w.start, w.end), settings))
    return Refusal("unknown_word", (w.start, w.end), reason, params)


def _placeholder(words: list[Word], mode: str) -> Refusal | None:
    """«такой-то» said for a ball or a way in clean designation: the call is not finished."""
    if mode != "clean":
        return None
    for w in words:
        if "PLACEHOLDER" in w.types:
            return Refusal(
                "incomplete",
                (w.start, w.end),
                "placeholder",
                {"word": w.text, "example": _template_example()},
            )
    return None


def _correction_steps(words: list[Word]) -> list[Step] | Refusal:
    """C9: corrections («вернее в левый», «нет, от борта», «не тройку, а пятёрку»)
    replace the part of the call they say and keep the rest (corrections.py): the
    stretches between them, or why they cannot be placed."""
    steps = plan(words)
    if isinstance(steps, Refusal):
        return steps
    last = steps[-1]
    if last.op in ("corr", "reset") and not last.content and any(s.content for s in steps[:-1]):
        w = last.marker
        assert w is not None  # a correction's stretch has its marker
        return Refusal("incomplete", (w.start, w.end), "retracted", {"word": w.text})
    return steps


def _readings(
    steps: list[Step], text: str, mode: str, settings: dict[str, Any], whole: tuple[int, int]
) -> list[tuple[list[Item], list[Correction]]] | Refusal:
    """Every reading of the call with its corrections folded in (C9), or why none parses;
    more readings than MAX_READINGS are refused as too convoluted (C4)."""
    try:
        stretch_readings: list[list[list[Item]]] = []
        for step in steps:
            if not step.content:
                stretch_readings.append([[]])
                continue
            got = _stretch_readings(step.content, text, mode, settings)
            if isinstance(got, Refusal):
                return got
            stretch_readings.append(got)
        readings = []
        for combo in product(*stretch_readings):
            folded = fold(steps, list(combo), text)
            if isinstance(folded, Refusal):
                return folded
            if folded[0]:  # a reading whose corrections left nothing says no call
                readings.append(folded)
            if len(readings) > MAX_READINGS:
                raise OverflowError
    except OverflowError:
        return Refusal("ambiguous", whole, "too_many")
    return readings


def _stretch_readings(
    content: list[Word], text: str, mode: str, settings: dict[str, Any]
) -> list[list[Item]] | Refusal:
    """The readings of one stretch of words that fit the grammar, or why none does."""
    got, syntax = _parse_lattice(_taggings(content))
    if not got and mode == "ball_and_pocket":
        # C7: an unfinished or garbled way («тройку от в угол») does not bind, so
        # it cannot refuse the call: read the call without the way's words.
        kept = [w for w in content if not _way_only(w)]
        if kept:
            got, _ = _parse_lattice(_taggings(kept))
    if not got:
        assert syntax is not None  # no reading parsed: the furthest one stopped somewhere
        return _unfinished_second_call(content, syntax, text, settings) or _syntax_refusal(
            syntax, text, settings
        )
    return got


def _the_call(
    readings: list[tuple[list[Item], list[Correction]]],
    text: str,
    mode: str,
    balls: frozenset[int] | None,
    precision: str,
    whole: tuple[int, int],
) -> Parsed:
    """The one call the readings make, with its corrections; different calls from
    different readings are refused as ambiguous (C9: never pick one silently), and a
    reading that makes no call does not count against one that does."""
    calls: list[Call] = []
    found: dict[Call, list[Correction]] = {}  # each call → the corrections that made it
    semantic: Refusal | None = None
    unclear: Refusal | None = None
    memo: dict[tuple[Item, ...], Reading] = {}
    for items, fixes in readings:
        result = resolve(items, text, mode, balls, memo, precision)
        if isinstance(result, Call):
            if result not in calls:
                calls.append(result)
                found.setdefault(result, fixes)
        elif isinstance(result, set):
            # a set's order hangs on hash(None), which differs from one process to the next
            # (Python 3.11): sorted, so the same text is refused with the same readings every run
            calls.extend(c for c in sorted(result, key=_call_key) if c not in calls)
        elif result.code == "ambiguous":
            # a reading that is itself unclear (e.g. whose cushion it is) is no failed
            # reading: it stands against any call another reading makes (C9)
            unclear = unclear or result
        elif semantic is None:
            semantic = result
        if len(calls) > 1:
            break  # two different calls: ambiguous, whatever the other readings give
    if unclear is not None and len(calls) <= 1:
        return unclear
    if len(calls) == 1:
        return calls[0], found.get(calls[0], [])
    if len(calls) > 1:
        return _ambiguous(calls, whole)
    if semantic is not None:
        return semantic
    return Refusal("empty", whole, "")  # no reading said anything of a call


def _call_key(call: Call) -> str:
    """A call's place in a stable order (its JSON, keys sorted)."""
    return json.dumps(call.to_json(), sort_keys=True, ensure_ascii=False)


def _ambiguous(calls: list[Call], span: tuple[int, int]) -> Refusal:
    readings = []
    for c in calls[:4]:
        try:
            readings.append(f"«{render(c)}»")
        except GrammarError:
            readings.append(str(c.to_json()))
    return Refusal(
        "ambiguous",
        span,
        "",
        {
            "readings": readings,
            "example": readings[0].strip("«»"),
            "calls": calls,
        },
    )


def _template_example() -> str:
    return example_combo(12, None, 3)
