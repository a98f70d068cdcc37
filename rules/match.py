"""A thin stateful match: a history of immutable states with undo and redo."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyramid_referee.grammar.call import Call, CallFormatError

from .errors import RulesInputError
from .judge import CALL_STATUSES, judge, apply
from .outcome import Outcome
from .settings import Settings
from .state import GameState
from .verdict import Verdict


@dataclass(frozen=True, slots=True)
class StrokeRecord:
    call: Call | None
    call_status: str
    outcome: Outcome
    verdict: Verdict

    def to_json(self, lang: str = "ru") -> dict:
        return {
            "call": None if self.call is None else self.call.to_json(),
            "call_status": self.call_status,
            "outcome": self.outcome.to_json(),
            "verdict": self.verdict.to_json(lang),
        }


class Match:
    """``Match(settings, players, start=None)``; ``stroke`` judges and records.

    Bad input raises ``RulesInputError`` and changes nothing; after the game is
    over a stroke raises too. ``undo``/``redo`` step through the list of states;
    a stroke after an undo drops the redo branch.
    """

    def __init__(self, settings: Settings | dict | None = None, players: Any = ("A", "B"), start: Any = None) -> None:
        if not isinstance(settings, Settings):
            settings = Settings.from_json(settings)
        self.settings = settings
        self._states: list[GameState] = [GameState.initial(settings, players, start)]
        self._records: list[StrokeRecord] = []
        self._pos = 0  # index into _states of the current state

    @property
    def state(self) -> GameState:
        return self._states[self._pos]

    @property
    def history(self) -> list[StrokeRecord]:
        return self._records[: self._pos]

    @property
    def can_undo(self) -> bool:
        return self._pos > 0

    @property
    def can_redo(self) -> bool:
        return self._pos < len(self._records)

    def stroke(self, call: Call | dict | None, outcome: Outcome | dict, *, call_status: str = "accepted") -> Verdict:
        if call_status not in CALL_STATUSES:
            raise RulesInputError("call_status", f"{call_status!r} is not one of {', '.join(CALL_STATUSES)}",
                                  f"{call_status!r} — допустимо: {', '.join(CALL_STATUSES)}")
        if isinstance(call, dict):
            try:
                call = Call.from_json(call)
            except CallFormatError as exc:
                f, _, what = str(exc).partition(": ")
                raise RulesInputError(f"call.{f}" if not f.startswith("call") else f, what,
                                      f"заказ записан неверно ({what})") from None
        elif call is not None and not isinstance(call, Call):
            raise RulesInputError("call", "expected a Call, its JSON object or None", "ожидался заказ или None")
        if isinstance(outcome, dict):
            outcome = Outcome.from_json(outcome)
        elif not isinstance(outcome, Outcome):
            raise RulesInputError("outcome", "expected an outcome", "ожидался исход удара")
        state = self.state
        verdict = judge(state, call, outcome, self.settings, call_status=call_status)
        new = apply(state, verdict)
        del self._states[self._pos + 1:]
        del self._records[self._pos:]
        self._states.append(new)
        self._records.append(StrokeRecord(call, call_status, outcome, verdict))
        self._pos += 1
        return verdict

    def undo(self) -> GameState:
        if not self.can_undo:
            raise RulesInputError("undo", "nothing to undo", "нечего отменять")
        self._pos -= 1
        return self.state

    def redo(self) -> GameState:
        if not self.can_redo:
            raise RulesInputError("redo", "nothing to redo", "нечего возвращать")
        self._pos += 1
        return self.state
