"""A thin stateful match: a history of immutable states with undo and redo.

A match (матч) is a series of games (партии) played to ``to_wins`` won games
(default 1: one game). When a game ends and the match is not decided, the next
stroke opens a new game: a full rack, 0:0, broken from the house by the player
who was to start the next game (``next_break``, E4), so the break alternates.
The state after a game's last stroke is that game's end (its result shows); the
fresh game's state exists from its first stroke on, so undoing that stroke goes
back to the ended game. A draw (E3) wins nobody a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyramid_referee.grammar.call import Call, CallFormatError

from .errors import RulesInputError
from .judge import CALL_STATUSES, apply, judge
from .messages import N_, trl
from .outcome import Outcome
from .settings import Settings
from .state import GameState
from .verdict import Verdict


@dataclass(frozen=True, slots=True)
class JudgedStroke:
    """One stroke of a match's history: the call, the outcome and the verdict judged."""

    call: Call | None
    call_status: str
    outcome: Outcome
    verdict: Verdict

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        return {
            "call": None if self.call is None else self.call.to_json(),
            "call_status": self.call_status,
            "outcome": self.outcome.to_json(),
            "verdict": self.verdict.to_json(lang),
        }


MAX_TO_WINS = 99


@dataclass(frozen=True, slots=True)
class Game:
    """One game (партия) of the match: its number, its strokes (1-based, in the match's
    count), who broke, and how it ended (None while it is played)."""

    number: int
    first: int  # the match's stroke number of its first stroke (first > last: none yet)
    last: int
    breaker: str
    result: Any  # Result | None
    scores: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "first": self.first,
            "last": self.last,
            "breaker": self.breaker,
            "result": None if self.result is None else self.result.to_json(),
            "scores": self.scores,
        }


class Match:
    """``Match(settings, players, start=None, to_wins=1)``; ``stroke`` judges and records.

    Bad input raises ``RulesInputError`` and changes nothing; after the match is
    decided a stroke raises too. ``undo``/``redo`` step through the list of states;
    a stroke after an undo drops the redo branch.
    """

    def __init__(
        self,
        settings: Settings | dict[str, Any] | None = None,
        players: Any = ("A", "B"),
        start: Any = None,
        to_wins: int = 1,
    ) -> None:
        if not isinstance(settings, Settings):
            settings = Settings.from_json(settings)
        if (
            not isinstance(to_wins, int)
            or isinstance(to_wins, bool)
            or not 1 <= to_wins <= MAX_TO_WINS
        ):
            raise RulesInputError(
                "to_wins",
                N_("{value!r} is not a whole number from 1 to {high}"),
                value=to_wins,
                high=MAX_TO_WINS,
            )
        self.settings = settings
        self.to_wins = to_wins
        self._states: list[GameState] = [GameState.initial(settings, players, start)]
        self._records: list[JudgedStroke] = []
        self._pos = 0  # index into _states of the current state

    # -- the series of games ------------------------------------------------
    def wins(self) -> dict[str, int]:
        """Games won by each player so far (a state with a result ends one game)."""
        players = self._states[0].players
        won = {p: 0 for p in players}
        for st in self._states[1 : self._pos + 1]:
            if st.result is not None and st.result.winner is not None:
                won[st.result.winner] += 1
        return won

    @property
    def decided(self) -> bool:
        """The match is over: a player has won ``to_wins`` games; a one-game match ends
        with its game, a draw included (E3)."""
        if self.to_wins == 1:
            return self.state.result is not None
        return any(n >= self.to_wins for n in self.wins().values())

    @property
    def upcoming(self) -> GameState:
        """The state the next stroke is judged from: a fresh game once one has ended."""
        st = self.state
        return self._next_game(st) if st.result is not None and not self.decided else st

    @property
    def game_over(self) -> bool:
        """The current game has ended (the match may go on with the next one)."""
        return self.state.result is not None

    def games(self) -> list[Game]:
        """The games up to the current position; the last one may be in play (or not begun)."""
        out: list[Game] = []
        first = 1
        breaker = self._states[0].players[self._states[0].to_play]
        for i, st in enumerate(self._states[1 : self._pos + 1], start=1):
            if st.result is not None:
                out.append(Game(len(out) + 1, first, i, breaker, st.result, _scores(st)))
                first = i + 1
                breaker = st.players[st.next_break]
        if first <= self._pos:  # a game in play
            out.append(Game(len(out) + 1, first, self._pos, breaker, None, _scores(self.state)))
        elif not self.decided:  # the next game, not begun yet (or the first, before any stroke)
            scores = _scores(self.state) if not out else {p: 0 for p in self.state.players}
            out.append(Game(len(out) + 1, first, self._pos, breaker, None, scores))
        return out

    @staticmethod
    def _next_game(ended: GameState) -> GameState:
        """A fresh game after ``ended``: broken by the player who was to start it (E4)."""
        nb = ended.next_break
        return GameState(players=ended.players, to_play=nb, next_break=1 - nb)

    def series_json(self) -> dict[str, Any]:
        """The match score: games won, games played, the target, decided or not."""
        return {
            "to_wins": self.to_wins,
            "wins": self.wins(),
            "games": [g.to_json() for g in self.games()],
            "decided": self.decided,
        }

    @property
    def state(self) -> GameState:
        return self._states[self._pos]

    @property
    def history(self) -> list[JudgedStroke]:
        return self._records[: self._pos]

    @property
    def can_undo(self) -> bool:
        return self._pos > 0

    @property
    def can_redo(self) -> bool:
        return self._pos < len(self._records)

    def stroke(
        self,
        call: Call | dict[str, Any] | None,
        outcome: Outcome | dict[str, Any],
        *,
        call_status: str = "accepted",
    ) -> Verdict:
        if call_status not in CALL_STATUSES:
            raise RulesInputError(
                "call_status",
                N_("{value!r} is not one of {choices}"),
                value=call_status,
                choices=", ".join(CALL_STATUSES),
            )
        if isinstance(call, dict):
            try:
                call = Call.from_json(call)
            except CallFormatError as exc:
                f, _, what = str(exc).partition(": ")
                # the JSON call's own words are English: in Russian they are said to be the call's
                raise RulesInputError(
                    f"call.{f}" if not f.startswith("call") else f,
                    what,
                    trl("ru", N_("the call is not written right ({what})")).format(what=what),
                ) from None
        elif call is not None and not isinstance(call, Call):
            raise RulesInputError("call", N_("expected a Call, its JSON object or None"))
        if isinstance(outcome, dict):
            outcome = Outcome.from_json(outcome)
        elif not isinstance(outcome, Outcome):
            raise RulesInputError("outcome", N_("expected an outcome"))
        state = (
            self.upcoming
        )  # after a game's end, the next game of the match opens with this stroke
        verdict = judge(state, call, outcome, self.settings, call_status=call_status)
        new = apply(state, verdict)
        del self._states[self._pos + 1 :]
        del self._records[self._pos :]
        self._states.append(new)
        self._records.append(JudgedStroke(call, call_status, outcome, verdict))
        self._pos += 1
        return verdict

    def state_before(self, index: int) -> GameState:
        """The state stroke ``index`` (0-based) was judged from (a new
        game's first state included)."""
        st = self._states[index]
        if st.result is not None:
            return self._next_game(st)
        return st

    def undo(self) -> GameState:
        if not self.can_undo:
            raise RulesInputError("undo", N_("nothing to undo"))
        self._pos -= 1
        return self.state

    def redo(self) -> GameState:
        if not self.can_redo:
            raise RulesInputError("redo", N_("nothing to redo"))
        self._pos += 1
        return self.state


def _scores(st: GameState) -> dict[str, Any]:
    return {st.players[0]: st.scores[0], st.players[1]: st.scores[1]}
