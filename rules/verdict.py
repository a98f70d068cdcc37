"""The verdict on one stroke: a frozen record of everything the rules decided,
with the clause ids that decided it and one sentence a referee could read out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .state import LAST_BALL, Result

FOUL_WORDS = {
    "а": ("промах", "a miss"),
    "б": ("биток в лузе", "the cue ball pocketed"),
    "в": ("биток за бортом", "the cue ball off the table"),
    "г": ("касание шара", "a ball touched"),
    "д": ("игра не своим шаром", "playing a ball not one's own"),
    "е": ("удар ребром или турником кия", "a stroke with the edge or butt of the cue"),
    "ж": ("с руки по шару в доме", "from hand at a ball in the house"),
    "з": ("с руки не из дома", "from hand, not from the house"),
    "и": ("удар до остановки шаров", "a stroke before the balls stopped"),
}

MISS_WORDS = {
    "not_pocketed": ("шар {b} не упал", "ball {b} did not fall"),
    "wrong_pocket": ("шар {b} упал не в заказанную лузу", "ball {b} fell into another pocket"),
    "route": ("шар {b} упал не так, как заказано", "ball {b} did not fall the declared way"),
    "route_c3": ("абриколь не был заказан", "the абриколь was not declared"),
}


@dataclass(frozen=True, slots=True)
class Penalty:
    player: str
    clauses: tuple[str, ...]  # the P1 letters that applied, as ids: ("P1а", "P1б")
    points: int  # the penalty (P2); the offender paid ``paid`` of it (Q1)
    paid: int

    def to_json(self) -> dict:
        return {"player": self.player, "clauses": list(self.clauses), "points": self.points, "paid": self.paid}


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
    def points(self) -> dict:
        return {self.players[0]: self.deltas[0], self.players[1]: self.deltas[1]}

    @property
    def next(self) -> dict:
        return {"player": self.players[self.next_idx], "from_hand": self.next_from_hand}

    @property
    def game_over(self) -> bool:
        return self.result is not None

    def to_json(self, lang: str = "ru") -> dict:
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
        en = lang == "en"

        def t(ru: str, e: str) -> str:
            return e if en else ru

        parts: list[str] = []
        s, p = self.striker, self.players
        fell = bool(self.respotted or self.counted)
        if self.phase == LAST_BALL:
            parts.append(t("переигровка последнего шара, удар без заказа", "last-ball replay, a stroke without a call"))
            if self.penalty is None:
                parts.append(t(f"{s} положил шар", f"{s} pocketed the ball") if self.counted
                             else t("шар не упал", "the ball did not fall"))
        elif self.call_status == "accepted":
            if self.fulfilled and self.penalty is not None:
                # P5: the call was made, but a penalty stroke scores nothing; say so in one breath
                if len(self.respotted) > 1:
                    parts.append(t("заказ выполнен, но удар штрафной — шары не засчитываются",
                                   "call fulfilled, but it is a penalty stroke, so no ball counts"))
                else:
                    parts.append(t("заказ выполнен, но удар штрафной — шар не засчитывается",
                                   "call fulfilled, but it is a penalty stroke, so the ball does not count"))
            elif self.fulfilled:
                parts.append(t("заказ выполнен", "call fulfilled"))
            else:
                ru, e = MISS_WORDS.get(self.miss or "not_pocketed")
                parts.append(t("заказ не выполнен: ", "call not fulfilled: ") + t(ru, e).format(b=self.called_ball))
        elif self.call_status == "refused":
            parts.append(t("заказ не принят", "the call was refused") +
                         (t(" — шары не засчитываются", ", no ball counts") if fell else ""))
        else:
            parts.append(t("удар без заказа", "a stroke without a call") +
                         (t(" — шары не засчитываются", ", no ball counts") if fell else ""))
        if self.penalty is not None:
            pen = self.penalty
            off = pen.player
            partner = p[1] if off == p[0] else p[0]
            reasons = ", ".join(FOUL_WORDS[f][1 if en else 0] for f in self.fouls)
            if self.phase == LAST_BALL:
                parts.append(t(f"штраф ({reasons}) при переигровке — {off} проигрывает",
                               f"a penalty ({reasons}) in the replay: {off} loses"))
            elif pen.paid:
                parts.append(t(f"штраф ({reasons}): {off} −{pen.paid}, {partner} +{pen.points}",
                               f"penalty ({reasons}): {off} −{pen.paid}, {partner} +{pen.points}"))
            else:  # Q1 floor: nothing to take from the offender, the partner still gets the penalty
                parts.append(t(f"штраф ({reasons}): {partner} +{pen.points}, а {off} остаётся при нуле: ниже нуля счёт не опускается",
                               f"penalty ({reasons}): {partner} +{pen.points}, and {off} stays at zero: no score goes below it"))
        if self.ball_points:
            extra = t(f", с бонусом {self.bonus} за последний шар", f", with the {self.bonus} last-ball bonus") if self.bonus else ""
            parts.append(f"{s} +{self.ball_points} ({_balls(self.counted, en)}{extra})")
        if self.respotted:
            balls = _balls(self.respotted, en)
            if len(self.respotted) == 1:
                parts.append(t(f"{balls} выставляется на стол", f"{balls} is put back on the table"))
            else:
                parts.append(t(f"{balls} выставляются на стол", f"{balls} are put back on the table"))
        if self.restore_positions:
            parts.append(t("судья может восстановить положение шаров", "the referee may restore the previous position"))
        if self.result is not None:
            r = self.result
            if r.winner is not None:
                parts.append(t(f"партия окончена, победил {r.winner}", f"game over, {r.winner} wins"))
            elif r.draw == "forced":
                parts.append(t("партия окончена вынужденной ничьей", "game over, a forced draw"))
            else:
                parts.append(t("партия окончена вничью", "game over, a draw"))
        else:
            if self.replay_ball is not None:
                parts.append(t(f"ничья, нужен результат — переигровка последнего шара {self.replay_ball} с третьей точки",
                               f"a draw and a result is needed: last-ball replay, ball {self.replay_ball} on the third point"))
            nxt = p[self.next_idx]
            hand = t(" с руки", " from hand") if self.next_from_hand else ""
            again = self.next_idx == self.striker_idx and self.replay_ball is None  # E4: a replay starts afresh
            parts.append(t(f"{'снова ' if again else ''}бьёт {nxt}{hand}", f"{nxt} to play{' again' if again else ''}{hand}"))
        text = "; ".join(parts)
        return text[0].upper() + text[1:] + f" ({', '.join(self.clauses)})."


def _balls(balls: tuple[int, ...], en: bool) -> str:
    nums = [str(b) for b in balls]
    if len(nums) == 1:
        return ("ball " if en else "шар ") + nums[0]
    joined = ", ".join(nums[:-1]) + (" and " if en else " и ") + nums[-1]
    return ("balls " if en else "шары ") + joined
