"""The Call AST: the structured form of a pyramid call (``Call``, ``Pocket``, its route).

Plain frozen dataclasses with a JSON form that is a stable contract:

    {"ball": 3,
     "pocket": {"kind": "middle", "side": null, "end": null},
     "route": [["cue", 6], ["cue", 11], [11, 3], [3, "pocket"]]}

This module imports nothing from the rest of the project: ``rules`` imports it
(and only it) from ``grammar``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import GrammarError

BALLS = range(1, 16)
POCKET_KINDS = ("corner", "middle")
SIDES = ("left", "right")
ENDS = ("near", "far")

CUE = "cue"
CUSHION = "cushion"
POCKET = "pocket"
CONTRE_COUP = "contre_coup"

Actor = str | int  # "cue" or a ball number
Target = str | int  # a ball number, "cushion", "pocket" or "contre_coup"
Contact = tuple[Any, ...]  # (Actor, Target)


class CallFormatError(GrammarError):
    """A JSON call that does not fit the contract; the message names the field."""


def _is_ball(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x in BALLS


@dataclass(frozen=True, slots=True)
class Pocket:
    kind: str  # "corner" | "middle"
    side: str | None = None  # "left" | "right" | None, from the striker's view
    end: str | None = None  # "near" | "far" | None, from the striker's view

    def __post_init__(self) -> None:
        if self.kind not in POCKET_KINDS:
            raise CallFormatError(f"pocket.kind: {self.kind!r} is not one of {POCKET_KINDS}")
        if self.side is not None and self.side not in SIDES:
            raise CallFormatError(f"pocket.side: {self.side!r} is not one of {SIDES} or null")
        if self.end is not None and self.end not in ENDS:
            raise CallFormatError(f"pocket.end: {self.end!r} is not one of {ENDS} or null")
        if self.kind == "middle" and self.end is not None:
            raise CallFormatError("pocket.end: a middle pocket has no near/far end")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "end": self.end}

    @classmethod
    def from_json(cls, data: Any) -> Pocket:
        if not isinstance(data, dict):
            raise CallFormatError("pocket: expected an object")
        unknown = set(data) - {"kind", "side", "end"}
        if unknown:
            raise CallFormatError(f"pocket: unknown field(s) {sorted(unknown)}")
        if "kind" not in data:
            raise CallFormatError("pocket.kind: missing")
        return cls(data["kind"], data.get("side"), data.get("end"))

    def fits(self, actual: Pocket) -> bool:
        """Does a pocket the ball actually fell into satisfy this called pocket?

        Fields left open in the call (None) match anything.
        """
        return (
            self.kind == actual.kind
            and (self.side is None or self.side == actual.side)
            and (self.end is None or self.end == actual.end)
        )


@dataclass(frozen=True, slots=True)
class Call:
    ball: int | None  # 1..15, or None only when one object ball is left (C5)
    pocket: Pocket
    # None: no way named (ball and pocket, C7). When ``ball`` is None (C5) the
    # called ball appears in the route as None too.
    route: tuple[Contact, ...] | None = None

    def __post_init__(self) -> None:
        if self.ball is not None and not _is_ball(self.ball):
            raise CallFormatError(f"ball: {self.ball!r} is not a ball number 1-15 or null")
        if not isinstance(self.pocket, Pocket):
            raise CallFormatError("pocket: expected a Pocket")
        if self.route is not None:
            route = tuple(tuple(c) for c in self.route)
            object.__setattr__(self, "route", route)
            if not route:
                raise CallFormatError("route: an empty route must be null")
            for i, contact in enumerate(route):
                if len(contact) != 2:
                    raise CallFormatError(f"route[{i}]: expected [actor, target]")
                actor, target = contact
                # With the ball unnamed (C5) the called ball stands as null in the route.
                unnamed = self.ball is None
                if not (actor == CUE or _is_ball(actor) or (unnamed and actor is None)):
                    raise CallFormatError(f"route[{i}][0]: {actor!r} is not 'cue' or a ball")
                if not (
                    _is_ball(target)
                    or target in (CUSHION, POCKET, CONTRE_COUP)
                    or (unnamed and target is None)
                ):
                    raise CallFormatError(
                        f"route[{i}][1]: {target!r} is not a ball, 'cushion', 'pocket' or "
                        "'contre_coup'"
                    )
                if actor == target:
                    raise CallFormatError(f"route[{i}]: a ball cannot hit itself")
            last_actor, last_target = route[-1]
            if last_target != POCKET:
                raise CallFormatError("route: the last contact must be [ball, 'pocket']")
            if last_actor != self.ball:
                raise CallFormatError(
                    "route: the last contact must put the called ball into the pocket"
                )

    @property
    def is_clean(self) -> bool:
        """A clean designation names the way (C2); ball and pocket does not (C7)."""
        return self.route is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "ball": self.ball,
            "pocket": self.pocket.to_json(),
            "route": None if self.route is None else [list(c) for c in self.route],
        }

    @classmethod
    def from_json(cls, data: Any) -> Call:
        if not isinstance(data, dict):
            raise CallFormatError("call: expected an object")
        unknown = set(data) - {"ball", "pocket", "route"}
        if unknown:
            raise CallFormatError(f"call: unknown field(s) {sorted(unknown)}")
        for key in ("ball", "pocket"):
            if key not in data:
                raise CallFormatError(f"{key}: missing")
        route = data.get("route")
        if route is not None:
            if not isinstance(route, list):
                raise CallFormatError("route: expected a list or null")
            for i, c in enumerate(route):
                if not isinstance(c, (list, tuple)):
                    raise CallFormatError(f"route[{i}]: expected [actor, target]")
            route = tuple(tuple(c) for c in route)
        return cls(data["ball"], Pocket.from_json(data["pocket"]), route)


def pocket_from_words(
    kinds: Iterable[str], sides: Iterable[str], ends: Iterable[str], masculine: bool = False
) -> Pocket | str:
    """What the pocket words said name (Q2), for the call language and the outcome
    notation alike: ``kinds`` ⊆ {"corner", "middle"} (an end word, «луза» or no
    noun add nothing here), ``sides`` ⊆ SIDES, ``ends`` ⊆ ENDS, as sets of what was said.
    ``masculine``: the side was said in the masculine («в правый») and no pocket noun
    was said at all (not even «луза»).

    An end word (дальний, ближний, к себе, свой угол) says corner: only corners have
    ends. So does a masculine side word with no noun: of угол, середина and луза only
    «угол» agrees with «правый» («в правый» is «в правый угол»; «в правую» stays
    the corner or the middle pocket). Returns a Pocket (with ``side`` None when no side was said;
    the caller decides whether a corner needs it), or a reason it names no pocket:

    - ``"two_kinds"`` / ``"two_sides"`` / ``"two_ends"``: the words contradict;
    - ``"middle_end"``: a middle pocket with a near/far end;
    - ``"side_only"``: a side and no kind («в левую лузу», «в левую», «справа»): the corner
      or the middle pocket on that side;
    - ``"nothing"``: neither kind, side nor end («в лузу»).
    """
    kinds, sides, ends = set(kinds), set(sides), set(ends)
    if len(kinds) > 1:
        return "two_kinds"
    if len(sides) > 1:
        return "two_sides"
    if len(ends) > 1:
        return "two_ends"
    side = next(iter(sides), None)
    end = next(iter(ends), None)
    kind = next(iter(kinds), None)
    if kind == "middle" and end is not None:
        return "middle_end"
    if kind is None and (end is not None or (masculine and side is not None)):
        kind = "corner"  # an end word says corner; so does «в правый» (only «угол» agrees)
    if kind is None:
        return "side_only" if side is not None else "nothing"
    return Pocket(kind, side, end)
