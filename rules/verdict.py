"""The verdict on one stroke: a frozen record of everything the rules decided,
with the clause ids that decided it and one sentence a referee could read out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from .messages import N_, trl
from .state import LAST_BALL, Result

# The P1 letters as a referee names them (English; the Russian text is the catalog's).
FOUL_WORDS = {
    "а": N_("a miss"),
    "б": N_("the cue ball pocketed"),
    "в": N_("the cue ball off the table"),
    "г": N_("a ball touched"),
    "д": N_("playing a ball not one's own"),
    "е": N_("a stroke with the edge or butt of the cue"),
    "ж": N_("from hand at a ball in the house"),
    "з": N_("from hand, not from the house"),
    "и": N_("a stroke before the balls stopped"),
}

# Why an accepted call was not fulfilled, as the verdict says it.
MISS_WORDS = {
    "not_pocketed": N_("call not fulfilled: ball {b} did not fall"),
    "wrong_pocket": N_("call not fulfilled: ball {b} fell into another pocket"),
    "route": N_("call not fulfilled: ball {b} did not fall the declared way"),
    "route_c3": N_("call not fulfilled: the абриколь was not declared"),
}

# The same for ball 1, which Russian players call «туз» (the numbers are spoken for the others).
MISS_WORDS_ACE = {
    "not_pocketed": N_("call not fulfilled: ball 1 did not fall"),
    "wrong_pocket": N_("call not fulfilled: ball 1 fell into another pocket"),
    "route": N_("call not fulfilled: ball 1 did not fall the declared way"),
    "route_c3": MISS_WORDS["route_c3"],
}


@dataclass(frozen=True, slots=True)
class Penalty:
    player: str
    clauses: tuple[str, ...]  # the P1 letters that applied, as ids: ("P1а", "P1б")
    points: int  # the penalty (P2); the offender paid ``paid`` of it (Q1)
    paid: int

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "clauses": list(self.clauses),
            "points": self.points,
            "paid": self.paid,
        }


class Verdict(NamedTuple):
    """Immutable (a named tuple: the judge builds one per stroke, so it must be cheap)."""

    players: tuple[str, str]
    stroke: int  # the state's stroke count this verdict was judged on
    phase: str  # "normal" | "last_ball"
    striker_idx: int
    call_status: str  # "accepted" | "refused" | "none"
    called_ball: int | None
    fulfilled: bool
    miss: str | None  # why an accepted call was not fulfilled (see MISS_WORDS)
    deltas: tuple[int, int]  # points this stroke, per player index
    ball_points: int  # the striker's points from balls (with the bonus)
    bonus: int  # Q4 last-ball bonus included in ball_points
    counted: tuple[int, ...]  # balls that count and leave the table
    respotted: tuple[int, ...]  # balls that fell or flew and go back (Q6)
    fouls: tuple[str, ...]  # P1 letters, given and derived
    penalty: Penalty | None
    restore_positions: bool  # P7/P8: the referee may restore the previous position
    next_idx: int
    next_from_hand: bool
    quiet: bool  # E2: a penalty stroke after a warning that left positions unchanged
    result: Result | None
    replay_ball: int | None  # E4: a last-ball replay starts with this ball on the third point
    clauses: tuple[str, ...]

    # -- views ------------------------------------------------------------
    @property
    def striker(self) -> str:
        return self.players[self.striker_idx]

    @property
    def points(self) -> dict[str, Any]:
        return {self.players[0]: self.deltas[0], self.players[1]: self.deltas[1]}

    @property
    def next(self) -> dict[str, Any]:
        return {"player": self.players[self.next_idx], "from_hand": self.next_from_hand}

    @property
    def game_over(self) -> bool:
        return self.result is not None

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        return {
            "striker": self.striker,
            "phase": self.phase,
            "call_status": self.call_status,
            "called_ball": self.called_ball,
            "fulfilled": self.fulfilled,
            "points": self.points,
            "counted": list(self.counted),
            "bonus": self.bonus,
            "penalty": None if self.penalty is None else self.penalty.to_json(),
            "fouls": list(self.fouls),
            "respotted": list(self.respotted),
            "restore_positions": self.restore_positions,
            "next": self.next,
            "result": None if self.result is None else self.result.to_json(),
            "replay": None if self.replay_ball is None else {"last_ball": self.replay_ball},
            "clauses": list(self.clauses),
            "message": self.message(lang),
        }

    # -- the referee's sentence ---------------------------------------------
    def message(self, lang: str = "ru") -> str:
        """The sentence a referee reads out: what came of the call, the penalty, the points,
        the balls put back, then the end of the game or who plays next; the clauses last."""

        def t(message: str, **params: Any) -> str:
            return trl(lang, message).format(**params) if params else trl(lang, message)

        parts = self._call_words(t) + self._penalty_words(t) + self._ball_words(t, lang)
        if self.restore_positions:
            parts.append(t(N_("the referee may restore the previous position")))
        parts += self._end_words(t)
        text = "; ".join(parts)
        return text[0].upper() + text[1:] + f" ({', '.join(self.clauses)})."

    def _call_words(self, t: Callable[..., str]) -> list[str]:
        """What came of the call: fulfilled or why not, refused (C4, C9), none (C10)."""
        fell = bool(self.respotted or self.counted)
        if self.phase == LAST_BALL:
            parts = [t(N_("last-ball replay, a stroke without a call"))]
            if self.penalty is None:
                parts.append(
                    t(N_("{player} pocketed the ball"), player=self.striker)
                    if self.counted
                    else t(N_("the ball did not fall"))
                )
            return parts
        if self.call_status == "accepted":
            if self.fulfilled and self.penalty is not None:
                # P5: the call was made, but a penalty stroke scores nothing; say so in one breath
                if len(self.respotted) > 1:
                    return [t(N_("call fulfilled, but it is a penalty stroke, so no ball counts"))]
                return [
                    t(N_("call fulfilled, but it is a penalty stroke, so the ball does not count"))
                ]
            if self.fulfilled:
                return [t(N_("call fulfilled"))]
            words = MISS_WORDS_ACE if self.called_ball == 1 else MISS_WORDS  # ball 1: «туз»
            return [t(words[self.miss or "not_pocketed"], b=self.called_ball)]
        if self.call_status == "refused":
            return [
                t(N_("the call was refused, no ball counts"))
                if fell
                else t(N_("the call was refused"))
            ]
        return [
            t(N_("a stroke without a call, no ball counts"))
            if fell
            else t(N_("a stroke without a call"))
        ]

    def _penalty_words(self, t: Callable[..., str]) -> list[str]:
        """The penalty (P1, P2, Q1; E5 in a replay) with the fouls named, if there is one."""
        pen = self.penalty
        if pen is None:
            return []
        p = self.players
        off = pen.player
        partner = p[1] if off == p[0] else p[0]
        reasons = ", ".join(t(FOUL_WORDS[f]) for f in self.fouls)
        if self.phase == LAST_BALL:
            return [
                t(
                    N_("a penalty ({reasons}) in the replay: {offender} loses"),
                    reasons=reasons,
                    offender=off,
                )
            ]
        if (
            pen.points == 0
        ):  # a match played with the penalty set to 0: the foul is named, no points move
            return [
                t(
                    N_("a foul ({reasons}): the penalty is set to 0, no points change hands"),
                    reasons=reasons,
                )
            ]
        if pen.paid:
            return [
                t(
                    N_("penalty ({reasons}): {offender} −{paid}, {partner} +{points}"),
                    reasons=reasons,
                    offender=off,
                    paid=pen.paid,
                    partner=partner,
                    points=pen.points,
                )
            ]
        # Q1 floor: nothing to take from the offender, the partner still gets the penalty
        return [
            t(
                N_(
                    "penalty ({reasons}): {partner} +{points}, and {offender} stays at zero: "
                    "no score goes below it"
                ),
                reasons=reasons,
                partner=partner,
                points=pen.points,
                offender=off,
            )
        ]

    def _ball_words(self, t: Callable[..., str], lang: str) -> list[str]:
        """The striker's points from balls (Q4, with the bonus) and the balls put back (Q6)."""
        parts = []
        if self.ball_points:
            balls = _balls(self.counted, lang)
            if self.bonus:
                parts.append(
                    t(
                        N_("{player} +{points} ({balls}, with the {bonus} last-ball bonus)"),
                        player=self.striker,
                        points=self.ball_points,
                        balls=balls,
                        bonus=self.bonus,
                    )
                )
            else:
                parts.append(f"{self.striker} +{self.ball_points} ({balls})")
        if self.respotted:
            balls = _balls(self.respotted, lang)
            if len(self.respotted) == 1:
                parts.append(t(N_("{balls} is put back on the table"), balls=balls))
            else:
                parts.append(t(N_("{balls} are put back on the table"), balls=balls))
        return parts

    def _end_words(self, t: Callable[..., str]) -> list[str]:
        """The end of the game (E1-E3, Q5), or a last-ball replay (E4) and who plays next (Q3)."""
        r = self.result
        if r is not None:
            if r.winner is not None:
                return [t(N_("game over, {winner} wins"), winner=r.winner)]
            if r.draw == "forced":
                return [t(N_("game over, a forced draw"))]
            return [t(N_("game over, a draw"))]
        parts = []
        if self.replay_ball is not None:
            parts.append(
                t(
                    N_(
                        "a draw and a result is needed: last-ball replay, "
                        "ball {ball} on the third point"
                    ),
                    ball=self.replay_ball,
                )
            )
        nxt = self.players[self.next_idx]
        again = (
            self.next_idx == self.striker_idx and self.replay_ball is None
        )  # E4: a replay starts afresh
        if again:
            parts.append(
                t(N_("{player} to play again from hand"), player=nxt)
                if self.next_from_hand
                else t(N_("{player} to play again"), player=nxt)
            )
        else:
            parts.append(
                t(N_("{player} to play from hand"), player=nxt)
                if self.next_from_hand
                else t(N_("{player} to play"), player=nxt)
            )
        return parts


def _balls(balls: tuple[int, ...], lang: str) -> str:
    """«шар 3», «шары 3 и 5»; ball 1 is «туз» in Russian, as players call it («туз и шар 5»)."""
    if 1 in balls and len(balls) > 1:
        rest = tuple(b for b in balls if b != 1)
        return trl(lang, "{ace} and {rest}").format(
            ace=trl(lang, "ball 1"), rest=_balls(rest, lang)
        )
    nums = [str(b) for b in balls]
    if len(nums) == 1:
        return trl(lang, "ball 1") if nums[0] == "1" else trl(lang, "ball {n}").format(n=nums[0])
    return trl(lang, "balls {head} and {last}").format(head=", ".join(nums[:-1]), last=nums[-1])
