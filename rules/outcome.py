"""The outcome of a stroke (its JSON form, the events in order).

Two forms:

* **full**: ``events`` in time order — ``hit`` (``a`` and ``b``: "cue" or a ball),
  ``cushion``, ``pocket`` (with the pocket it fell into) and ``off_table``
  (``ball``: "cue" or a ball) — plus the flags. The penalties а, б, в, ж of P1
  are derived from them (a miss: the cue ball hits no ball; the cue ball in a
  pocket; the cue ball off the table; from hand, the first hit on a ball in the
  house; not а when д is given: the cue ball was not played), so ``fouls`` lists only what the
  events cannot show: г, д, е, з, и.
* **short** (a human scorer): ``"route_ok": true|false`` — whether the ball went
  the declared way — plus only ``pocket`` and ``off_table`` events. With no hit
  events a miss cannot be derived, so the short form may also list а.

``warned``: the stroke was played after the referee's warning or remark (set it on
every stroke the warning covers). It turns a д into P7 and a г into P8 (the
referee may restore the previous position), and a penalty stroke with
``positions_unchanged`` into one of the three in a row that make a forced draw (E2).

E6 (taking a ball off the table to end the game sooner is not allowed): no event
removes a ball except by falling into a pocket or flying off the table; an
event of type ``removed`` (a ball taken off by hand) is refused with an error
citing E6, and the engine offers no other way to take a ball off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyramid_referee.grammar.call import CUE, CallFormatError, Pocket

from .errors import RulesInputError
from .messages import N_, trl

Ball = str | int  # "cue" or 1..15

HIT, CUSHION, POCKET, OFF_TABLE = "hit", "cushion", "pocket", "off_table"
EVENT_TYPES = (HIT, CUSHION, POCKET, OFF_TABLE)
_KEY_TAG = {CUSHION: "c", POCKET: "p", OFF_TABLE: "o"}
REMOVED = "removed"  # E6: not allowed; see the module docstring

# P1 letters. Given by the referee (the events cannot show them):
GIVEN_FOULS = ("г", "д", "е", "з", "и")
# Derived from the events: а (miss), б (cue ball pocketed), в (cue ball off the
# table), ж (from hand, first hit on a ball in the house).
DERIVED_FOULS = ("а", "б", "в", "ж")
FOUL_ORDER = "абвгдежзи"
#: The most events one stroke can have. Each of the 16 balls leaves the table at most once; what a
#: marker can follow and write of the contacts and cushions of one stroke is a few dozen at most.
#: More is no stroke (a paste gone wrong, a runaway program): refused with the limit named.
MAX_EVENTS = 64


def is_ball(x: Any) -> bool:
    return x == CUE or (isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 15)


def _ball_err(field: str, x: Any) -> RulesInputError:
    return RulesInputError(field, N_("{x!r} is not a ball ('cue' or 1-15)"), x=x)


# What a pocket's JSON fields may hold, for the Russian message (the English one is
# the call's own).
_POCKET_FIELD = {
    "kind": N_(
        "the pocket is wrong: «corner» (a corner pocket) or «middle» (a middle pocket) is needed"
    ),
    "side": N_("the pocket's side is wrong: «left», «right» or «null» is needed"),
    "end": N_("the pocket's end is wrong: «near», «far» or «null» is needed"),
    "pocket": N_("the pocket is wrong: an object with the fields «kind», «side», «end» is needed"),
}


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened on the table. ``hit``: ``ball`` and ``other``
    touched (JSON ``a``, ``b``); the others: ``ball`` (and ``pocket``)."""

    type: str
    ball: Ball
    other: Ball | None = None
    pocket: Pocket | None = None
    # What the route check compares (Q10), computed once: ("h", {a, b}), ("c", ball), ("p",
    # ball), ("o", ball).
    key: tuple[Any, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check()
        if self.type == HIT:
            key: tuple[str, Any] = ("h", frozenset((self.ball, self.other)))
        else:
            key = (_KEY_TAG[self.type], self.ball)
        object.__setattr__(self, "key", key)

    def _check(self) -> None:
        if self.type not in EVENT_TYPES:
            raise RulesInputError(
                "type",
                N_("{value!r} is not one of {choices}"),
                value=self.type,
                choices=", ".join(EVENT_TYPES),
            )
        if not is_ball(self.ball):
            raise _ball_err("ball", self.ball)
        if self.type == HIT:
            if not is_ball(self.other):
                raise _ball_err("b", self.other)
            if self.other == self.ball:
                raise RulesInputError("b", N_("a ball cannot hit itself"))
        elif self.other is not None:
            raise RulesInputError("b", N_("only a hit has a second ball"))
        if self.type == POCKET:
            # The pocket may be left null ("fell into a pocket", e.g. «биток в лузе»):
            # it matters only for the called ball, and the judge asks for it there.
            if self.pocket is not None and not isinstance(self.pocket, Pocket):
                raise RulesInputError("pocket", N_("expected a pocket or null"))
        elif self.pocket is not None:
            raise RulesInputError("pocket", N_("only a pocket event names a pocket"))

    def involves(self, ball: Ball) -> bool:
        return self.ball == ball or self.other == ball

    def to_json(self) -> dict[str, Any]:
        if self.type == HIT:
            return {"type": HIT, "a": self.ball, "b": self.other}
        if self.type == POCKET:
            return {
                "type": POCKET,
                "ball": self.ball,
                "pocket": None if self.pocket is None else self.pocket.to_json(),
            }
        return {"type": self.type, "ball": self.ball}

    @classmethod
    def from_json(cls, data: Any, where: str = "event") -> Event:
        if not isinstance(data, dict):
            raise RulesInputError(where, N_("expected an object"))
        kind = data.get("type")
        if kind == REMOVED:
            raise RulesInputError(
                f"{where}.type",
                N_(
                    "taking a ball off the table is not allowed (E6); a ball leaves the table "
                    "only by falling into a pocket or flying off"
                ),
            )
        if kind not in EVENT_TYPES:
            raise RulesInputError(
                f"{where}.type",
                N_("{value!r} is not one of {choices}"),
                value=kind,
                choices=", ".join(EVENT_TYPES),
            )
        allowed = (
            {"type", "a", "b"}
            if kind == HIT
            else {"type", "ball", "pocket"}
            if kind == POCKET
            else {"type", "ball"}
        )
        for key in data:
            if key not in allowed:
                raise RulesInputError(
                    f"{where}.{key}", N_("not a field of a {kind} event"), kind=kind
                )
        for key in sorted(allowed - {"type"}):
            if key not in data:
                raise RulesInputError(f"{where}.{key}", N_("missing"))
        if kind == HIT:
            a, b = data["a"], data["b"]
            if not is_ball(a):
                raise _ball_err(f"{where}.a", a)
            if not is_ball(b):
                raise _ball_err(f"{where}.b", b)
            if a == b:
                raise RulesInputError(f"{where}.b", N_("a ball cannot hit itself"))
            return cls(HIT, a, b)
        ball = data["ball"]
        if not is_ball(ball):
            raise _ball_err(f"{where}.ball", ball)
        pocket = None
        if kind == POCKET and data["pocket"] is not None:
            try:
                pocket = Pocket.from_json(data["pocket"])
            except CallFormatError as exc:
                field, _, what = str(exc).partition(": ")
                ru = _POCKET_FIELD.get(field.rpartition(".")[2], _POCKET_FIELD["pocket"])
                if "middle pocket has no" in what:
                    ru = N_("a middle pocket has no near or far end: «null» is needed")
                raise RulesInputError(f"{where}.{field}", what, trl("ru", ru)) from None
        return cls(kind, ball, None, pocket)


_FLAGS = ("first_hit_in_house", "positions_unchanged", "warned")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened on one stroke. See the module docstring for the two forms.

    ``from_hand`` None means "as the game state says"; true/false must agree
    with the state (a disagreement is refused, never guessed).
    """

    events: tuple[Event, ...] = ()
    fouls: frozenset[Any] = frozenset()
    from_hand: bool | None = None
    first_hit_in_house: bool = False  # P1 ж (only when playing from hand)
    positions_unchanged: bool = False  # E2 forced draw
    warned: bool = False  # E2, P7, P8: after the referee's warning / remark
    route_ok: bool | None = None  # short form: the declared route happened (Q10)

    def __post_init__(self) -> None:
        object.__setattr__(self, "events", tuple(self.events))
        object.__setattr__(self, "fouls", frozenset(self.fouls))
        short = self.route_ok is not None
        for letter in self.fouls:
            if letter in GIVEN_FOULS or (short and letter == "а"):
                continue
            if letter in DERIVED_FOULS:
                raise RulesInputError(
                    "fouls",
                    N_("{letter!r} is derived from the events (P1); do not list it"),
                    letter=letter,
                )
            raise RulesInputError(
                "fouls", N_("{letter!r} is not a P1 letter (г д е з и)"), letter=letter
            )
        for i, ev in enumerate(self.events):
            if not isinstance(ev, Event):
                raise RulesInputError(f"events[{i}]", N_("expected an Event"))
            if short and ev.type not in (POCKET, OFF_TABLE):
                raise RulesInputError(
                    f"events[{i}].type",
                    N_(
                        "with «по заказу» / «не по заказу» (route_ok) give only the balls that "
                        "fell or left the table (pocket, off_table events), no contacts "
                        "(hit, cushion)"
                    ),
                )
        if self.positions_unchanged:
            for i, ev in enumerate(self.events):
                if ev.type != CUSHION:  # a hit moves an object ball; a fall moves a ball
                    raise RulesInputError(
                        "positions_unchanged", N_("true, but event {n} moved a ball"), n=i + 1
                    )

    @property
    def is_short(self) -> bool:
        return self.route_ok is not None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "events": [e.to_json() for e in self.events],
            "fouls": sorted(self.fouls, key=FOUL_ORDER.index),
            "from_hand": self.from_hand,
            "first_hit_in_house": self.first_hit_in_house,
            "positions_unchanged": self.positions_unchanged,
            "warned": self.warned,
        }
        if self.route_ok is not None:
            data["route_ok"] = self.route_ok
        return data

    @classmethod
    def from_json(cls, data: Any) -> Outcome:
        """Parse and validate an outcome; errors name the field (``events[2].ball``)."""
        if not isinstance(data, dict):
            raise RulesInputError("outcome", N_("expected an object"))
        known = {"events", "fouls", "from_hand", "route_ok", *_FLAGS}
        for key in data:
            if key not in known:
                raise RulesInputError(
                    key, N_("unknown field; known: {known}"), known=", ".join(sorted(known))
                )
        events_raw = data.get("events", [])
        if not isinstance(events_raw, list):
            raise RulesInputError("events", N_("expected a list"))
        if len(events_raw) > MAX_EVENTS:
            raise RulesInputError(
                "events",
                N_("{n} events, more than one stroke can have: at most {limit}"),
                n=len(events_raw),
                limit=MAX_EVENTS,
            )
        events = tuple(Event.from_json(e, f"events[{i}]") for i, e in enumerate(events_raw))
        fouls_raw = data.get("fouls", [])
        if not isinstance(fouls_raw, list):
            raise RulesInputError("fouls", N_("expected a list of P1 letters"))
        for i, f in enumerate(fouls_raw):
            if not isinstance(f, str):
                raise RulesInputError(f"fouls[{i}]", N_("{f!r} is not a letter"), f=f)
        flags = {}
        for key in _FLAGS:
            v = data.get(key, False)
            if not isinstance(v, bool):
                raise RulesInputError(key, N_("{value!r} is not true/false"), value=v)
            flags[key] = v
        from_hand = data.get("from_hand")
        if from_hand is not None and not isinstance(from_hand, bool):
            raise RulesInputError(
                "from_hand", N_("{value!r} is not true/false/null"), value=from_hand
            )
        route_ok = data.get("route_ok")
        if route_ok is not None and not isinstance(route_ok, bool):
            raise RulesInputError("route_ok", N_("{value!r} is not true/false"), value=route_ok)
        for i, f in enumerate(fouls_raw):
            try:
                cls((), frozenset([f]), route_ok=route_ok)
            except RulesInputError as exc:
                raise RulesInputError(f"fouls[{i}]", exc.message, exc.ru) from None
        return cls(events, frozenset(fouls_raw), from_hand, route_ok=route_ok, **flags)
