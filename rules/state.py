"""The game state: immutable, cheap to copy (a named tuple of tuples and a frozenset).

Players are kept by index (0, 1) internally; every JSON form uses their names.
``scores[p] == from_balls[p] + received[p] - paid[p]`` always holds:
``from_balls`` are points from balls (with the Q4 last-ball bonus; a start from
a score sheet carries its scores here), ``received`` penalty points received
(P3: the partner needs ``target - received`` from balls), ``paid`` penalty
points taken (less than the penalty only under the Q1 floor).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import RulesInputError
from .messages import N_
from .settings import Settings

NORMAL = "normal"
LAST_BALL = "last_ball"  # E4: the game is replayed in the last ball
PHASES = (NORMAL, LAST_BALL)

ALL_BALLS = frozenset(range(1, 16))


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended (E3): a win or a draw, normal (E2 70:70, Q5 equal at a
    cleared table) or forced (E2 repeated penalty strokes)."""

    winner: str | None = None
    draw: str | None = None  # "normal" | "forced"
    clause: str = "E1"

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner} if self.winner is not None else {"draw": self.draw}


class GameState(NamedTuple):
    """Immutable (a named tuple: cheap to build and copy, hashable)."""

    players: tuple[str, str]
    scores: tuple[int, int] = (0, 0)
    on_table: frozenset[int] = ALL_BALLS
    to_play: int = 0  # index of the player who strikes next
    from_hand: bool = True  # the break is played from the house
    from_balls: tuple[int, int] = (0, 0)
    received: tuple[int, int] = (0, 0)  # P3
    paid: tuple[int, int] = (0, 0)  # P2, Q1
    quiet_penalties: tuple[int, int] = (
        0,
        0,
    )  # E2: penalty strokes in a row after a warning, positions unchanged
    result: Result | None = None
    phase: str = NORMAL  # E4/E5
    next_break: int = 1  # E4: who starts the next game (the player who did not break this one)
    last_scored: int | None = None  # the ball last pocketed for points (E4's last ball)
    strokes: int = 0

    # -- construction -----------------------------------------------------
    @classmethod
    def initial(cls, settings: Settings, players: Any, start: Any = None) -> GameState:
        """A new game, or one picked up from a score sheet (``start``).

        ``start``: ``{"scores": {A: n, B: m}, "on_table": [...], "to_play": A}``
        and optionally ``"from_hand": bool`` (default false: the cue ball is on
        the table) and ``"next_break": P`` (E4: who starts the next game;
        default: the player not to play). A new game: the first player breaks
        from the house; the other starts the next game (E4).
        """
        names = _players(players)
        if start is None:
            return cls(players=names, to_play=0, next_break=1)
        return _from_start(settings, names, start)

    # -- views ------------------------------------------------------------
    @property
    def striker(self) -> str:
        return self.players[self.to_play]

    @property
    def partner(self) -> str:
        return self.players[1 - self.to_play]

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def score_of(self, player: str) -> int:
        return self.scores[self.player_index(player)]

    def player_index(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise RulesInputError(
                "player", N_("{value!r} is not a player"), value=player
            ) from None

    def to_json(self) -> dict[str, Any]:
        p = self.players
        return {
            "players": list(p),
            "scores": {p[0]: self.scores[0], p[1]: self.scores[1]},
            "on_table": sorted(self.on_table),
            "to_play": p[self.to_play],
            "from_hand": self.from_hand,
            "from_balls": {p[0]: self.from_balls[0], p[1]: self.from_balls[1]},
            "received": {p[0]: self.received[0], p[1]: self.received[1]},
            "paid": {p[0]: self.paid[0], p[1]: self.paid[1]},
            "quiet_penalties": {p[0]: self.quiet_penalties[0], p[1]: self.quiet_penalties[1]},
            "result": None if self.result is None else self.result.to_json(),
            "phase": self.phase,
            "next_break": p[self.next_break],
            "last_scored": self.last_scored,
            "strokes": self.strokes,
        }

    def with_(self, **changes: Any) -> GameState:
        return self._replace(**changes)


def _players(players: Any) -> tuple[str, str]:
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise RulesInputError("players", N_("expected two player names"))
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise RulesInputError(f"players[{i}]", N_("{name!r} is not a name"), name=name)
    if players[0] == players[1]:
        raise RulesInputError("players[1]", N_("the two players need different names"))
    return (players[0], players[1])


def _from_start(settings: Settings, names: tuple[str, str], start: Any) -> GameState:
    """The state a score sheet describes (``start``), each field checked (Q1, Q5, E1, P2)."""
    if not isinstance(start, dict):
        raise RulesInputError("start", N_("expected an object"))
    known = {"scores", "on_table", "to_play", "from_hand", "next_break"}
    for key in start:
        if key not in known:
            raise RulesInputError(
                f"start.{key}",
                N_("unknown field; known: {known}"),
                known=", ".join(sorted(known)),
            )
    for key in ("scores", "on_table", "to_play"):
        if key not in start:
            raise RulesInputError(f"start.{key}", N_("missing"))
    scores = _start_scores(settings, names, start["scores"])
    table = _start_table(start["on_table"])
    _check_points_taken(settings, scores, table)
    to_play = start["to_play"]
    if to_play not in names:
        raise RulesInputError("start.to_play", N_("{value!r} is not a player"), value=to_play)
    from_hand = start.get("from_hand", False)
    if not isinstance(from_hand, bool):
        raise RulesInputError(
            "start.from_hand", N_("{value!r} is not true/false"), value=from_hand
        )
    ti = names.index(to_play)
    nb = start.get("next_break", names[1 - ti])
    if nb not in names:
        raise RulesInputError("start.next_break", N_("{value!r} is not a player"), value=nb)
    return GameState(
        players=names,
        scores=scores,
        on_table=table,
        to_play=ti,
        from_hand=from_hand,
        from_balls=scores,
        next_break=names.index(nb),
    )


def _start_scores(settings: Settings, names: tuple[str, str], raw: Any) -> tuple[int, int]:
    """The start's scores, by player: whole numbers, below zero only with negative_scores
    (Q1), below the target (E1)."""
    if not isinstance(raw, dict) or set(raw) != set(names):
        raise RulesInputError(
            "start.scores",
            N_("expected the scores of {name0!r} and {name1!r}"),
            name0=names[0],
            name1=names[1],
        )
    scores = []
    for n in names:
        v = raw[n]
        if not isinstance(v, int) or isinstance(v, bool):
            raise RulesInputError(f"start.scores.{n}", N_("{v!r} is not a whole number"), v=v)
        if v < 0 and not settings.negative_scores:
            raise RulesInputError(
                f"start.scores.{n}", N_("below zero, but negative_scores is off (Q1)")
            )
        if v >= settings.target:
            raise RulesInputError(
                f"start.scores.{n}",
                N_("{v} already reaches {target}: the game is over (E1)"),
                v=v,
                target=settings.target,
            )
        scores.append(v)
    return (scores[0], scores[1])


def _start_table(table: Any) -> frozenset[int]:
    """The balls on the table at the start: a non-empty list (Q5) of balls 1-15, each once."""
    if not isinstance(table, list) or not table:
        raise RulesInputError(
            "start.on_table",
            N_("expected a non-empty list of balls (an empty table ends the game, Q5)"),
        )
    seen = set()
    for i, b in enumerate(table):
        if not isinstance(b, int) or isinstance(b, bool) or not 1 <= b <= 15:
            raise RulesInputError(f"start.on_table[{i}]", N_("{b!r} is not a ball 1-15"), b=b)
        if b in seen:
            raise RulesInputError(f"start.on_table[{i}]", N_("ball {b} is listed twice"), b=b)
        seen.add(b)
    return frozenset(seen)


def _check_points_taken(
    settings: Settings, scores: tuple[int, int], table: frozenset[int]
) -> None:
    """The scores against the balls off the table: penalties move points, never create
    them (P2), unless the Q1 floor is on (then the scores may be more)."""
    taken = sum(settings.value(b) for b in ALL_BALLS - table)
    total = scores[0] + scores[1]
    if settings.negative_scores and total != taken:
        raise RulesInputError(
            "start.scores",
            N_("they sum to {total}, but the balls off the table are worth {taken} (P2, Q4)"),
            total=total,
            taken=taken,
        )
    if not settings.negative_scores and total < taken:
        raise RulesInputError(
            "start.scores",
            N_("they sum to {total}, less than the {taken} the balls off the table are worth"),
            total=total,
            taken=taken,
        )
