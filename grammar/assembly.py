"""From the bag of phrases to a Call: the checks a referee makes, and the route.

The grammar reads phrases in any order; here they are put together:

- one called ball (C2; may be left out when one ball is left, C5), one pocket
  (Q2: a corner needs its side), and in clean designation a way (C2);
- the route, in the order the balls move (as ``Call.route`` keeps it):
  абриколь ``["cue","cushion"]`` first; then each «карамболем от X»
  ``["cue", X]``; then the driving balls in spoken order
  ``cue→X1→…→Xn→B`` («шестёркой», «одиннадцатым шаром», «тремя шарами …»);
  then the called ball's own contacts **in spoken order** (``[B, X]`` for
  «от шара X», ``[B, "cushion"]`` once per cushion, ``[B, "contre_coup"]``);
  last ``[B, "pocket"]``. чисто / прямо: the called ball has no own contacts;
- ball and pocket mode (C7): the way is not part of the call, so the route is
  null; route words are read (explain shows them, not judged) but never make the
  call refused, even when unclear;
- several calls one after another (C9): the last counts, when each is a whole
  call; a whole call followed by an unfinished one is refused (Q8).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import permutations
from typing import Any

from .call import CONTRE_COUP, CUE, CUSHION, POCKET, Call, Pocket, pocket_from_words
from .errors import GrammarError
from .items import Item
from .refusal import Refusal
from .render import example_combo, example_for, example_plain, render, render_pocket

# The phrases of a call are Items (kind, value, start, end: grammar/items.py); a pocket's value
# is its words' tags, each (tag type, value).
Reading = Call | Refusal | set[Call]  # a call, why not, or its several readings


def _span(*items: Item) -> tuple[int, int]:
    return (min(i.start for i in items), max(i.end for i in items))


def _adjacent(items: list[Item], a: Item, b: Item) -> bool:
    """Do items a and b stand next to each other (nothing said between them)?"""
    for k in range(len(items) - 1):
        if items[k] is a:
            return items[k + 1] is b
    return False


def _pocket_options(pockets: Iterable[Pocket]) -> dict[str, Any]:
    """The pockets a hint offers, quoted (the refusal joins them in the user's language)."""
    return {"options": [f"«{render_pocket(p)}»" for p in pockets]}


_POCKET_WORD_KINDS = {"CORNER": "corner", "MIDDLE": "middle"}


def _decode_pocket(item: Item, text: str, precision: str = "side_for_corners") -> Pocket | Refusal:
    """A pocket run's words → Pocket, or a Refusal (Q2).

    Any word order, with or without a noun (угол, луза, середина…); an end word
    (дальний, ближний, к себе, свой угол) says corner (``pocket_from_words``).
    ``precision`` is the match setting ``pocket_precision`` (Q2):
    "side_for_corners" (default) refuses a corner without left/right; "any"
    accepts it with ``side`` null. Either way the kind (corner or middle) must
    be said or follow from an end word: «в лузу», «в левую лузу» are refused (a
    Pocket has no unknown kind). A refusal's hint offers only pockets that keep
    every word said: it never asks for what was said."""
    parts = item.value
    word = text[item.start : item.end]
    kinds = {_POCKET_WORD_KINDS[p[0]] for p in parts if p[0] in _POCKET_WORD_KINDS}
    sides = {p[1] for p in parts if p[0] == "SIDE"}
    ends = {p[1] for p in parts if p[0] == "END"}
    span = (item.start, item.end)
    # «в правый»: a masculine side word with no pocket noun is the corner (only «угол» agrees)
    masculine = any(p[0] == "MASC" for p in parts) and not any(p[0] == "LUZA" for p in parts)
    got = pocket_from_words(kinds, sides, ends, masculine)
    if got in ("two_kinds", "two_sides", "two_ends"):
        return Refusal("contradiction", span, "pocket_words", {"word": word})
    if got == "middle_end":  # offer the middle pocket and the corner, each keeping the side said
        sides_said = sorted(sides) or ["left", "right"]
        end = next(iter(ends))
        options = [Pocket("middle", s) for s in sides_said] + [
            Pocket("corner", s, end) for s in sides_said
        ]
        return Refusal(
            "contradiction", span, "middle_end", {"word": word, **_pocket_options(options)}
        )
    if got == "nothing":
        if all(p[0] == "V" for p in parts):
            return Refusal("incomplete", span, "v_without_pocket", {"word": word})
        options = [Pocket("corner", "left"), Pocket("corner", "right"), Pocket("middle")]
        if precision == "any":
            options = [Pocket("corner"), Pocket("middle")]
        return Refusal(
            "pocket_not_definite", span, "no_kind", {"word": word, **_pocket_options(options)}
        )
    if got == "side_only":  # «в левую лузу»: the left corner or the left middle pocket?
        side = next(iter(sides))
        return Refusal(
            "pocket_not_definite",
            span,
            "side_only",
            {"word": word, **_pocket_options([Pocket("corner", side), Pocket("middle", side)])},
        )
    assert isinstance(got, Pocket)  # every other word of pocket_from_words is answered above
    if got.kind == "corner" and got.side is None and precision != "any":
        options = [Pocket("corner", s, got.end) for s in ("left", "right")]
        return Refusal(
            "pocket_not_definite", span, "", {"word": word, **_pocket_options(options)}
        )  # Q2
    return got


def _obj_among_pocket_words(
    items: list[Item], another_ball: bool
) -> tuple[Item, list[Item]] | None:
    """(the «чужой» item, the pocket items beside it) when «чужой» / «прицельный» stands
    among the pocket's words: right after a lone «в», between two pocket phrases, or
    beside a pocket while another ball is the called one. Else None. Said beside the
    pocket as the only ball, it is the called ball (C5: «чужой в правый угол»)."""
    for k, item in enumerate(items):
        if item.kind != "obj":
            continue
        before = items[k - 1] if k > 0 and items[k - 1].kind == "pocket" else None
        after = items[k + 1] if k + 1 < len(items) and items[k + 1].kind == "pocket" else None
        lone_v = before is not None and all(part[0] == "V" for part in before.value)
        if (before and after) or lone_v or (another_ball and (before or after)):
            return item, [p for p in (before, after) if p is not None]
    return None


def obj_pocket_options(parts: Iterable[tuple[Any, ...]]) -> dict[str, Any]:
    """The pockets a «чужой» refusal offers, from the other pocket words said (their
    tags): each side said (or both), far and near (only a corner has an end), so the
    hint keeps every word said and never asks for one."""
    sides = sorted({p[1] for p in parts if p[0] == "SIDE"})
    if len(sides) != 1:
        sides = ["left", "right"]
    return _pocket_options([Pocket("corner", s, end) for end in ("far", "near") for s in sides])


class _Example:
    """A canonical example for a hint, rendered only when the hint is read."""

    __slots__ = ("ball", "pocket", "n", "bank", "plain")

    def __init__(
        self, ball: object, pocket: object, n: int = 0, bank: bool = False, plain: bool = False
    ) -> None:
        self.ball, self.pocket, self.n, self.bank = ball, pocket, n, bank
        self.plain = plain  # ball and pocket (C7): the call without a way

    def __str__(self) -> str:
        if self.plain:
            return example_plain(self.ball, self.pocket)
        if self.n:
            return example_combo(self.ball, self.pocket, self.n)
        return example_for(self.ball, self.pocket, self.bank)


def render_pocket_of(pocket: Pocket) -> str:
    return render_pocket(pocket)


class _SaidCall:
    """The call the player said, in its canonical words, as a hint's example (rendered
    only when the hint is read): the hint builds on what was said."""

    __slots__ = ("call",)

    def __init__(self, call: object) -> None:
        self.call = call

    def __str__(self) -> str:
        call = self.call
        if not isinstance(call, (Call, set)):
            return example_for(None, None)
        if isinstance(call, set):  # more than one reading: any of them keeps the ball and pocket
            call = sorted(call, key=lambda c: str(c.to_json()))[0]
        try:
            return render(call)
        except GrammarError:
            return example_for(call.ball, call.pocket)


def _example(ball: object, pocket: object) -> _Example:
    return _Example(ball, pocket)


def assemble(
    items: list[Item],
    text: str,
    mode: str,
    balls_left: frozenset[int] | None,
    precision: str = "side_for_corners",
) -> Reading:
    """One call from its phrases, the first reason it cannot be accepted, or a set
    of calls when the order of its steps can be read more than one way.

    The checks run in the order a referee makes them: the cue ball's words, the
    phrases of the way, the called ball, the pocket, what is on the table, the
    counted groups, then the steps of the way and their order.
    ``precision``: the match setting ``pocket_precision`` (Q2), see _decode_pocket."""
    cues = [i for i in items if i.kind == "cue"]
    phrases = _without_cue_words(items, cues, text, mode)
    if isinstance(phrases, Refusal):
        return phrases
    refused = _side_or_cushion(phrases, text)
    if refused is not None:
        return refused
    if mode == "ball_and_pocket":
        # C7: the way is not part of the call. Its words were read (explain shows them
        # as not judged), but nothing in them, clear or not, can refuse the call.
        phrases = [i for i in phrases if i.kind in ("called", "obj", "pocket")]
        if not phrases:
            return Refusal("no_ball", _span(*items), "", {})
    phrases = _shots_as_cushions(phrases, text, mode)
    if isinstance(phrases, Refusal):
        return phrases
    called = [i for i in phrases if i.kind in ("called", "obj")]
    pockets = [i for i in phrases if i.kind == "pocket"]
    refused = _pocket_words_refused(phrases, called, pockets, text) or _second_ball(
        phrases, called, text
    )
    if refused is not None:
        return refused
    whole = _span(*phrases)
    ball_item = called[0] if called else None
    ball = ball_item.value if ball_item else None
    got = _the_pocket(phrases, pockets, text, precision, ball)
    if isinstance(got, Refusal):
        return got
    phrases, pocket = got
    refused = (
        _ball_missing(phrases, cues, ball_item, ball, pocket, balls_left, text, whole)
        or _off_table(phrases, balls_left)
        or _counted_groups(phrases, text, ball, pocket)
    )
    if refused is not None:
        return refused
    assert pocket is not None  # _ball_missing refuses a call without one
    return _the_way(phrases, text, mode, ball, ball_item, pocket, balls_left, whole)


def _without_cue_words(
    items: list[Item], cues: list[Item], text: str, mode: str
) -> list[Item] | Refusal:
    """The phrases without the cue ball named and «удар», or why not.

    The cue ball named («битком», «свой шар») says nothing of the call, but a
    contact said right after it is the cue ball's («битком от борта»: абриколь?
    «битком от шестёрки»: a carom?), never silently the called ball's (C9). So
    with «удар»: «удар от борта» is the cue ball off the cushion in some
    glossaries."""
    if not cues and not any(i.kind == "stroke" for i in items):
        return items
    if mode == "clean":
        refused = _cue_ball_contact(items, text)
        if refused is not None:
            return refused
    kept = [i for i in items if i.kind not in ("cue", "stroke")]
    if not kept:
        return Refusal("no_ball", _span(*items), "", {})
    return kept


def _cue_ball_contact(items: list[Item], text: str) -> Refusal | None:
    """A contact said right beside the cue ball's word or «удар» (C9: whose is it?)."""
    contacts = _OWN + ("shot",)
    for k, item in enumerate(items):
        if item.kind not in ("cue", "stroke"):
            continue
        nxt = items[k + 1] if k + 1 < len(items) else None
        j = k - 1  # the run of contacts right before it, and what stands before that
        while j >= 0 and items[j].kind in contacts:
            j -= 1
        if nxt is not None and nxt.kind in contacts:
            other = nxt  # «битком от борта»
        elif j < k - 1 and not (j >= 0 and items[j].kind in ("called", "obj")):
            other = items[j + 1]  # «от борта битком тройку»
        else:
            continue
        return Refusal(
            "ambiguous",
            _span(item, other),
            "whose_contact",
            {
                "word": text[other.start : other.end],
                "contact": text[item.start : item.end],
                "example": _Example(None, None, bank=True),
            },
        )
    return None


def _side_or_cushion(items: list[Item], text: str) -> Refusal | None:
    """«тройку от борта слева в угол»: the left cushion, or the left corner? (C9; in
    ball and pocket too: the way is not judged, but the pocket is)"""
    for k in range(1, len(items)):
        item, prev = items[k], items[k - 1]
        if (
            item.kind == "pocket"
            and prev.kind in ("cushion", "shot")
            and text[item.start : item.end].lower().startswith(("слева", "справа"))
        ):
            side = text[item.start : item.end].split()[0]
            parts = list(item.value)
            parts.remove(next(p for p in parts if p[0] == "SIDE"))  # the pocket without «слева»
            pocket = _decode_pocket(item._replace(value=tuple(parts)), text, "any")
            side_said = "left" if side.lower() == "слева" else "right"
            if not isinstance(pocket, Pocket):  # it names no pocket alone: «слева» is its side
                pocket = Pocket("corner", side_said)
            elif pocket.side is None:  # «слева в середину»: the side said, with the pocket
                pocket = Pocket(pocket.kind, side_said, pocket.end)
            return Refusal(
                "ambiguous",
                (prev.start, item.end),
                "side_or_cushion",
                {
                    "word": side,
                    "contact": text[prev.start : prev.end],
                    "example": render_pocket_of(pocket),
                },
            )
    return None


def _shots_as_cushions(items: list[Item], text: str, mode: str) -> list[Item] | Refusal:
    """The named shots («дуплетом») as the cushions they name (see _named_shots); in
    ball and pocket an unclear count of cushions does not bind (C7)."""
    got = _named_shots(items, text)
    if isinstance(got, Refusal):
        if mode == "clean":
            return got
        return [i._replace(kind="cushion") if i.kind == "shot" else i for i in items]
    return got


def _pocket_words_refused(
    items: list[Item], called: list[Item], pockets: list[Item], text: str
) -> Refusal | None:
    """«чужой» said among the pocket's words, or a lone «в» with no pocket after it."""
    misplaced = _obj_among_pocket_words(items, len(called) > 1)
    if misplaced is not None:
        # «в чужой угол», «в правый чужой угол», «тройку в правый угол чужой»: «чужой» is
        # the object ball (C5) everywhere, never a pocket's end; one refusal in every order
        obj, around = misplaced
        return Refusal(
            "incomplete",
            _span(obj, *around),
            "obj_as_pocket",
            {
                "word": text[obj.start : obj.end],
                **obj_pocket_options([part for p in around for part in p.value]),
            },
        )
    for p in pockets:  # a lone «в»: the pocket was never said
        if all(part[0] == "V" for part in p.value):
            return Refusal(
                "incomplete", (p.start, p.end), "v_without_pocket", {"word": text[p.start : p.end]}
            )
    return None


def _second_ball(items: list[Item], called: list[Item], text: str) -> Refusal | None:
    """The same ball said twice in a row («тройку, тройку чисто…») is one; any other
    second ball in one call is a contradiction (C9)."""
    other = None
    for prev, cur in zip(called, called[1:]):
        if (cur.kind, cur.value) != (prev.kind, prev.value) or not _adjacent(items, prev, cur):
            other = cur
            break
    if other is None:
        return None
    a = called[0]
    return Refusal(
        "contradiction",
        _span(a, other),
        "two_balls",
        {
            "first": text[a.start : a.end],
            "second": text[other.start : other.end],
            "example": _example(a.value, None),
        },
    )


def _the_pocket(
    items: list[Item], pockets: list[Item], text: str, precision: str, ball: int | None
) -> tuple[list[Item], Pocket | None] | Refusal:
    """(the phrases, the pocket called or None when none was said), or why not: a
    pocket said again, more exactly, right after itself is one; any other second
    pocket is a contradiction (C9)."""
    if len(pockets) > 1 and all(_adjacent(items, a, b) for a, b in zip(pockets, pockets[1:])):
        # «в угол, в правый дальний»: the pocket said again, more exactly: one pocket
        # when the words agree (else two pockets, below)
        words = tuple(part for p in pockets for part in p.value)
        joined = Item("pocket", words, pockets[0].start, pockets[-1].end)
        if isinstance(_decode_pocket(joined, text, precision), Pocket):
            first, rest = pockets[0], pockets[1:]
            items = [joined if i is first else i for i in items if not any(i is r for r in rest)]
            pockets = [joined]
    if not pockets:
        return items, None
    decoded = [_decode_pocket(p, text, precision) for p in pockets]
    if len(pockets) > 1 and (
        any(isinstance(d, Refusal) for d in decoded)
        or len(set(decoded)) > 1
        or not all(_adjacent(items, a, b) for a, b in zip(pockets, pockets[1:]))
    ):
        return Refusal(
            "contradiction",
            _span(pockets[0], pockets[1]),
            "two_pockets",
            {"example": _example(ball, None)},
        )
    pocket = decoded[0]
    if isinstance(pocket, Refusal):
        return pocket
    return items, pocket


def _ball_missing(
    items: list[Item],
    cues: list[Item],
    ball_item: Item | None,
    ball: int | None,
    pocket: Pocket | None,
    balls_left: frozenset[int] | None,
    text: str,
    whole: tuple[int, int],
) -> Refusal | None:
    """No ball named (C5: needed unless one object ball is left), or no pocket (C2)."""
    if ball is None:
        if cues and ball_item is None:  # «биток чисто в угол»: the cue ball is never called
            return Refusal(
                "no_ball",
                _span(*cues, *items),
                "cue",
                {"word": text[cues[0].start : cues[0].end], "example": _example(None, pocket)},
            )
        # C5: with one object ball left its number need not be named.
        if not (balls_left is not None and len(balls_left) == 1):
            if ball_item is not None:  # «чужой» without one ball left
                return Refusal(
                    "no_ball",
                    whole,
                    "obj",
                    {
                        "word": text[ball_item.start : ball_item.end],
                        "example": _example(None, pocket),
                    },
                )
            return Refusal("no_ball", whole, "", {"example": _example(None, pocket)})
    if pocket is None:
        return Refusal("no_pocket", whole, "", {"example": _example(ball, None)})
    return None


def _off_table(items: list[Item], balls_left: frozenset[int] | None) -> Refusal | None:
    """A ball named in the call that is not on the table (C2), when the table is known."""
    if balls_left is None:
        return None
    for i in items:
        if (
            i.kind in ("called", "kiss", "carom", "driver")
            and i.value is not None
            and i.value not in balls_left
        ):
            return Refusal(
                "ball_not_on_table",
                (i.start, i.end),
                "",
                {"ball": i.value, "on_table": ", ".join(map(str, sorted(balls_left))) or "—"},
            )
    return None


def _counted_groups(
    items: list[Item], text: str, ball: int | None, pocket: Pocket | None
) -> Refusal | None:
    """Counted groups («тремя шарами пятым, девятым и вторым»): the driving balls
    right after the count, or, if none follow, right before it (C2); as many as said."""
    for k, item in enumerate(items):
        if item.kind != "count":
            continue
        group = []
        for j in range(k + 1, len(items)):
            if items[j].kind != "driver":
                break
            group.append(items[j])
        if not group:
            for j in range(k - 1, -1, -1):
                if items[j].kind != "driver":
                    break
                group.append(items[j])
        word = text[item.start : item.end]
        if not group:
            return Refusal(
                "incomplete",
                (item.start, item.end),
                "count_without_balls",
                {"word": word, "example": _example_combo(ball, pocket, item.value or 2)},
            )
        if item.value is not None and item.value != len(group):
            return Refusal(
                "count_mismatch",
                _span(item, *group),
                "",
                {
                    "word": word,
                    "count": item.value,
                    "named": len(group),
                    "example": _example_combo(ball, pocket, len(group)),
                },
            )
    return None


def _the_way(
    items: list[Item],
    text: str,
    mode: str,
    ball: int | None,
    ball_item: Item | None,
    pocket: Pocket,
    balls_left: frozenset[int] | None,
    whole: tuple[int, int],
) -> Reading:
    """The call with its way (C2), or why the way is not clear; in ball and pocket the
    way is not part of the call (C7)."""
    abricole = any(i.kind == "abricole" for i in items)
    caroms = [i for i in items if i.kind == "carom"]
    drivers = [i for i in items if i.kind == "driver"]
    own = [i for i in items if i.kind in ("kiss", "cushion", "contre")]
    clean = [i for i in items if i.kind == "clean"]
    refused = _ball_twice_in_way(
        caroms, drivers, own, ball, ball_item, pocket, balls_left
    ) or _clean_and_contact(clean, own, text, ball, pocket)
    if refused is not None:
        return refused
    if not (abricole or caroms or drivers or own or clean):
        if mode == "clean":
            return Refusal("no_route", whole, "", {"example": _example(ball, pocket)})
        return Call(ball, pocket, None)
    if mode == "ball_and_pocket":  # C7: the way is not part of the call
        return Call(ball, pocket, None)
    refused = _unclear_contact(items, text, ball, pocket)
    if refused is not None:
        return refused
    return _route_readings(items, ball, pocket, abricole, whole)


def _ball_twice_in_way(
    caroms: list[Item],
    drivers: list[Item],
    own: list[Item],
    ball: int | None,
    ball_item: Item | None,
    pocket: Pocket,
    balls_left: frozenset[int] | None,
) -> Refusal | None:
    """A ball cannot play itself, and no ball is named twice in the way (C9). An
    unnamed ball (C5) is the one left on the table: «от седьмого» with only the
    seven left has it go off itself."""
    kisses = [i for i in own if i.kind == "kiss"]
    itself = ball if ball is not None else next(iter(balls_left)) if balls_left else None
    for i in caroms + drivers + kisses:
        if itself is not None and i.value == itself:
            return Refusal(
                "contradiction",
                _span(i, ball_item or i),
                "self",
                {"ball": itself, "example": _example(itself, pocket)},
            )
    for group in (caroms, drivers, kisses):
        seen = set()
        for i in group:
            if i.value in seen:
                return Refusal(
                    "contradiction",
                    (i.start, i.end),
                    "repeated",
                    {"ball": i.value, "example": _example(ball, pocket)},
                )
            seen.add(i.value)
    return None


def _clean_and_contact(
    clean: list[Item], own: list[Item], text: str, ball: int | None, pocket: Pocket
) -> Refusal | None:
    """«чисто» said with a contact of the called ball: both cannot be (C9)."""
    if not (clean and own):
        return None
    return Refusal(
        "contradiction",
        _span(clean[0], own[0]),
        "clean_and_contact",
        {
            "word": text[clean[0].start : clean[0].end],
            "contact": text[own[0].start : own[0].end],
            "example": _example(ball, pocket),
        },
    )


def _unclear_contact(
    items: list[Item], text: str, ball: int | None, pocket: Pocket
) -> Refusal | None:
    """A contact whose ball is not clear, or a cushion said twice (C9)."""
    unclear = _unclear_owner(items) or _cushion_said_twice(items, text)
    if unclear is None or isinstance(unclear, Refusal):
        return unclear
    contact, neighbour = unclear
    return Refusal(
        "ambiguous",
        _span(neighbour, contact),
        "whose_contact",
        {
            "word": text[contact.start : contact.end],
            "contact": text[neighbour.start : neighbour.end],
            "example": _Example(ball, pocket, bank=True),
        },
    )


def _route_readings(
    items: list[Item], ball: int | None, pocket: Pocket, abricole: bool, whole: tuple[int, int]
) -> Reading:
    """The call, or the set of its readings when the order of its steps is unclear.

    Each kind of step (caroms, driving balls, the called ball's own contacts) is
    said as one stretch, in the order it happens. Split into stretches with other
    words between them, its order is not clear: every order of the stretches is a
    reading, and different routes make the call ambiguous (C9)."""
    orders = []
    for kinds, keep in (
        ({"carom"}, "carom"),
        ({"driver", "count"}, "driver"),
        ({"kiss", "cushion", "contre"}, None),
    ):
        stretches = _stretches(items, kinds, keep)
        if len(stretches) > 3:
            return Refusal("ambiguous", whole, "too_many", {"example": _example(ball, pocket)})
        orders.append(_orders(stretches))
    calls: list[Call] = []
    for carom_order in orders[0]:
        for driver_order in orders[1]:
            for own_order in orders[2]:
                call = Call(
                    ball, pocket, _route(ball, abricole, carom_order, driver_order, own_order)
                )
                if call not in calls:
                    calls.append(call)
    return calls[0] if len(calls) == 1 else set(calls)


# Whose contact is it (C9)? A postposed «от борта» belongs to the ball word right
# before it (in players' usage «X от борта» is X off the cushion). Said right after a
# driving ball («шестёркой от борта»), a carom («карамболем от шестёрки от борта») or
# «абриколем» (or, with no ball word before it, right before «абриколем»), it may be
# that ball's or the cue ball's contact rather than the called ball's: a route the
# reader cannot tell, so it is refused, never given to the called ball silently. A
# kiss («от шара X») after the driving balls stays the called ball's: that is the
# rules' own template («Тремя шарами …, от шара …, 12-й шар …», C2); after a carom it
# may continue the carom («от шестёрки от семёрки»).
_OWN = ("kiss", "cushion", "contre")


def _named_shots(items: list[Item], text: str) -> list[Item] | Refusal:
    """«дуплетом», «триплетом», «круазе», «труабаном» name the shot by its cushions.
    Said right beside «от борта» / «от двух бортов» with the same count («дуплетом от
    борта») both name the same cushions: one. With another cushion phrase elsewhere,
    or a different count («от двух бортов дуплетом»), it is unclear whether they are
    the same cushions or more (C9): refused, never added up silently. Returns the
    items with the shot as a cushion, or the Refusal."""
    shots = [i for i in items if i.kind == "shot"]
    if not shots:
        return items
    cushions = [i for i in items if i.kind == "cushion"]
    if not cushions and len(shots) == 1:
        return [i._replace(kind="cushion") if i.kind == "shot" else i for i in items]
    if len(shots) == 1 and len(cushions) == 1:
        s, c = shots[0], cushions[0]
        k, j = items.index(s), items.index(c)
        if abs(k - j) == 1 and s.value == c.value:
            merged = Item("cushion", c.value, min(s.start, c.start), max(s.end, c.end))
            return [merged if i is c else i for i in items if i is not s]
    a, b = shots[0], (cushions or shots[1:])[0]
    return Refusal(
        "ambiguous",
        _span(a, b),
        "cushions_twice",
        {"word": text[a.start : a.end], "contact": text[b.start : b.end]},
    )


def _cushion_said_twice(items: list[Item], text: str) -> Refusal | None:
    """«от борта от борта», «от борта тройку от борта»: the same cushion said again,
    or a second one? With nothing but the called ball or the pocket between them
    («от борта в середину от борта») it is unclear (C9); «от двух бортов» says two.
    Cushions with another step of the way between them («от борта от шестёрки от
    борта») are two steps."""
    prev = None
    for item in items:
        if item.kind == "cushion":
            if prev is not None:
                return Refusal(
                    "ambiguous",
                    _span(prev, item),
                    "cushions_twice",
                    {"word": text[prev.start : prev.end], "contact": text[item.start : item.end]},
                )
            prev = item
        elif item.kind not in ("called", "obj", "pocket", "clean"):
            prev = None
    return None


def _unclear_owner(items: list[Item]) -> tuple[Item, Item] | None:
    """(contact, the phrase it may belong to) for the first run of the called ball's
    own contacts said next to another ball's phrase, else None. A run («от борта от
    контр-ку») belongs to a neighbour as a whole."""
    k = 0
    n = len(items)
    while k < n:
        if items[k].kind not in _OWN:
            k += 1
            continue
        end = k
        while end < n and items[end].kind in _OWN:
            end += 1
        run = items[k:end]
        before = items[k - 1] if k > 0 else None
        after = items[end] if end < n else None
        banks = [i for i in run if i.kind != "kiss"]  # a cushion or a rebound
        if before is not None and before.kind in ("carom", "abricole"):
            # «карамболем от шестёрки от семёрки»: the carom goes on? «абриколем от
            # шестёрки»: the cue ball off the cushion onto the six?
            return run[0], before
        if before is not None and before.kind in ("driver", "count") and banks:
            return banks[0], before  # «шестёркой от борта»: the six off the cushion?
        # Said before another ball's phrase, with the called ball not right before
        # it, a contact may belong to what follows («от борта шестёркой тройку»: the
        # six off the cushion?), as «от борта тройку» is the three's. A kiss before
        # the driving balls stays the called ball's (the rules' template, C2).
        if after is not None and not (before is not None and before.kind in ("called", "obj")):
            if after.kind == "carom" or (banks and after.kind in ("driver", "count", "abricole")):
                return (banks or run)[0], after
        k = end
    return None


def _stretches(items: list[Item], kinds: set[str], keep: str | None) -> list[list[Item]]:
    """The items of these kinds, in stretches not broken by other words."""
    out: list[list[Item]] = []
    prev = -2
    for k, item in enumerate(items):
        if item.kind in kinds:
            if k == prev + 1:
                out[-1].append(item)
            else:
                out.append([item])
            prev = k
    if keep is not None:
        out = [[i for i in stretch if i.kind == keep] for stretch in out]
    return [stretch for stretch in out if stretch]


def _orders(stretches: list[list[Item]]) -> list[list[Item]]:
    """Every order of the stretches (each kept as said), flattened."""
    if len(stretches) <= 1:
        return [stretches[0] if stretches else []]

    return [[i for stretch in perm for i in stretch] for perm in permutations(stretches)]


def _route(
    ball: int | None, abricole: bool, caroms: list[Item], drivers: list[Item], own: list[Item]
) -> tuple[Any, ...]:
    route: list[tuple[Any, Any]] = []
    if abricole:
        route.append((CUE, CUSHION))
    for i in caroms:
        route.append((CUE, i.value))
    prev: Any = CUE
    for i in drivers:
        route.append((prev, i.value))
        prev = i.value
    route.append((prev, ball))
    for i in own:
        if i.kind == "kiss":
            route.append((ball, i.value))
        elif i.kind == "cushion":
            route.extend([(ball, CUSHION)] * i.value)
        else:
            route.append((ball, CONTRE_COUP))
    route.append((ball, POCKET))
    return tuple(route)


def _example_combo(ball: object, pocket: object, n: int) -> _Example:
    return _Example(ball, pocket, n)


def _obj_inside_pocket(items: list[Item]) -> bool:
    """«чужой» between two pocket runs, the second with no «в» of its own: one pocket said
    around it («в правый чужой угол»), not a pocket and then a new call."""
    for k in range(1, len(items) - 1):
        before, item, after = items[k - 1], items[k], items[k + 1]
        if (
            item.kind == "obj"
            and before.kind == "pocket"
            and after.kind == "pocket"
            and not any(p[0] == "V" for p in after.value)
        ):
            return True
    return False


def resolve(
    items: list[Item],
    text: str,
    mode: str,
    balls_left: frozenset[int] | None,
    memo: dict[tuple[Item, ...], Reading] | None = None,
    precision: str = "side_for_corners",
) -> Reading:
    """The call that counts (C9: the last of several), a Refusal, or a set of
    different calls when the words split into calls in more than one way.

    ``precision``: the match setting ``pocket_precision`` (Q2).
    ``memo`` (optional, one per input text and settings) shares assembled stretches between
    the readings of the same words."""
    memo = {} if memo is None else memo

    def assembled(part: list[Item]) -> Reading:
        key = tuple(part)
        got = memo.get(key)
        if got is None:
            got = memo[key] = assemble(part, text, mode, balls_left, precision)
        return got

    first = assembled(items)
    if not _may_be_several_calls(items, first):
        return first
    lasts, unclear, trailing = _last_calls(items, _segmentable(items, assembled), assembled)
    if lasts:  # C9: the last call counts (read as one call too, it must agree)
        if isinstance(first, Call):
            lasts.add(first)
        elif isinstance(first, set):
            lasts |= first
        return next(iter(lasts)) if len(lasts) == 1 else lasts
    if unclear is not None:
        return unclear
    if trailing is not None:  # Q8: a whole call, then a new ball that does not finish
        span = _span(*items[trailing:])
        # the calls before it: the last of them counts (C9) and is the one to say again
        before = resolve(items[:trailing], text, mode, balls_left, memo, precision)
        return several_calls_unclear(span, text, before)
    return first


def _may_be_several_calls(items: list[Item], first: Reading) -> bool:
    """Could the words be more than one call (C9)? ``first``: them read as one call."""
    n_starts = sum(1 for i in items if i.kind in ("called", "obj", "pocket"))
    if n_starts < 3:  # one call at most: nothing to split
        return False
    # «тройку чисто в правый чужой угол»: «в правый» is a whole pocket alone, but the
    # pocket goes on after «чужой» (no «в»): one pocket with «чужой» in it, no second call
    return not (
        isinstance(first, Refusal)
        and first.reason == "obj_as_pocket"
        and _obj_inside_pocket(items)
    )


def _segmentable(items: list[Item], assembled: Callable[[list[Item]], Reading]) -> list[bool]:
    """segmentable[k]: items[:k] splits into whole calls (k = 0: nothing before).

    Only stretches with at most two ball words and one or two pocket phrases are
    tried as calls (a ball or a pocket may be said twice); prefix counts make
    the check cheap."""
    n = len(items)
    balls_before = [0] * (n + 1)
    pockets_before = [0] * (n + 1)
    for k, i in enumerate(items):
        balls_before[k + 1] = balls_before[k] + (i.kind in ("called", "obj"))
        pockets_before[k + 1] = pockets_before[k] + (i.kind == "pocket")

    def could_be_call(j: int, k: int) -> bool:
        return (
            balls_before[k] - balls_before[j] <= 2
            and 1 <= pockets_before[k] - pockets_before[j] <= 2
        )

    cache: dict[tuple[int, int], bool] = {}

    def call_at(j: int, k: int) -> bool:
        if (j, k) not in cache:
            cache[(j, k)] = could_be_call(j, k) and isinstance(assembled(items[j:k]), (Call, set))
        return cache[(j, k)]

    segmentable = [False] * (n + 1)
    segmentable[0] = True
    for k in range(1, n + 1):
        segmentable[k] = any(segmentable[j] and call_at(j, k) for j in range(k))
    return segmentable


def _last_calls(
    items: list[Item], segmentable: list[bool], assembled: Callable[[list[Item]], Reading]
) -> tuple[set[Call], Refusal | None, int | None]:
    """Of each split into two or more whole calls: (the readings of the last call, the
    first last call said but unclear, where the last whole call ends when what follows
    does not finish a call)."""
    lasts: set[Call] = set()
    trailing = None
    unclear = None
    for j in range(1, len(items)):
        if not segmentable[j]:
            continue
        if not any(i.kind in ("called", "obj") for i in items[j:]):
            continue  # no new ball after the call: more of the same call (e.g. a second pocket)
        last = assembled(items[j:])
        if isinstance(last, Call):
            lasts.add(last)
        elif isinstance(last, set):
            lasts |= last
        elif last.code == "ambiguous":
            unclear = unclear or last  # the last call is said, but unclear: say why
        else:
            trailing = j  # the last whole call's end: what follows does not finish
    return lasts, unclear, trailing


def several_calls_unclear(span: tuple[int, int], text: str, said: object) -> Refusal:
    """Q8: a whole call (``said``, a Call or a set of its readings), then another
    started and not finished (``span``). The hint repeats the whole call said."""
    return Refusal(
        "several_calls_unclear",
        span,
        "",
        {"word": text[span[0] : span[1]], "example": _SaidCall(said)},
    )
