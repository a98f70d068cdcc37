"""Match settings: every policy of docs/rules.md is a setting with its default.

JSON keys: ``mode`` clean|ball_and_pocket (C1, Q9), ``negative_scores``
(Q1), ``ball_values`` classic|face (Q4), ``target`` (E1), ``penalty`` (P2),
``pocket_precision`` side_for_corners|any (Q2), and ``result_required`` (E4: the
competition needs a result, so a draw is replayed in the last ball).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .errors import RulesInputError
from .messages import N_

MODES = ("clean", "ball_and_pocket")  # C1
BALL_VALUES = ("classic", "face")  # Q4
POCKET_PRECISIONS = ("side_for_corners", "any")  # Q2


def mode_setting(spelling: str) -> str:
    """The call mode as people type it (``ball-and-pocket``: on the command line, in a URL) →
    the setting's ``ball_and_pocket`` (C1); anything else is left to the settings' own check."""
    return spelling.replace("-", "_")


LAST_BALL_BONUS = 10  # Q4: the player who pockets the last ball gets 10 more (classic)


@dataclass(frozen=True, slots=True)
class Settings:
    mode: str = "clean"  # Q9: clean designation by default (C11)
    negative_scores: bool = True  # Q1: P2 read literally, scores may go below zero
    ball_values: str = "classic"  # Q4: туз 11, 2-15 face, +10 for the last ball
    target: int = 71  # E1
    penalty: int = 5  # P2
    pocket_precision: str = "side_for_corners"  # Q2
    result_required: bool = False  # E4: a draw is replayed in the last ball

    def __post_init__(self) -> None:
        _check_choice("mode", self.mode, MODES)
        _check_bool("negative_scores", self.negative_scores)
        _check_choice("ball_values", self.ball_values, BALL_VALUES)
        _check_int("target", self.target, 1)
        _check_int("penalty", self.penalty, 0)
        _check_choice("pocket_precision", self.pocket_precision, POCKET_PRECISIONS)
        _check_bool("result_required", self.result_required)

    # -- ball values (Q4) -------------------------------------------------
    def value(self, ball: int) -> int:
        """Points a ball is worth (Q4): classic туз (1) is 11, else the number."""
        if ball == 1 and self.ball_values == "classic":
            return 11
        return ball

    @property
    def bonus(self) -> int:
        """The last-ball bonus (Q4): 10 in classic values, none with face values."""
        return LAST_BALL_BONUS if self.ball_values == "classic" else 0

    @property
    def total(self) -> int:
        """All the points on the table: 140 classic (so 70:70 is half, E2), 120 face."""
        return sum(self.value(b) for b in range(1, 16)) + self.bonus

    # -- JSON -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesInputError("settings", N_("expected an object"))
        known = set(cls.__dataclass_fields__)
        for key in data:
            if key not in known:
                raise RulesInputError(
                    f"settings.{key}",
                    N_("unknown setting; known: {known}"),
                    known=", ".join(sorted(known)),
                )
        return cls(**data)


def _check_choice(name: str, value: Any, choices: tuple[Any, ...]) -> None:
    if value not in choices:
        raise RulesInputError(
            f"settings.{name}",
            N_("{value!r} is not one of {choices}"),
            value=value,
            choices=", ".join(choices),
        )


def _check_bool(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise RulesInputError(f"settings.{name}", N_("{value!r} is not true/false"), value=value)


def _check_int(name: str, value: Any, low: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RulesInputError(
            f"settings.{name}",
            N_("{value!r} is not a whole number >= {low}"),
            value=value,
            low=low,
        )
