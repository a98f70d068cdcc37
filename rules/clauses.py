"""Clause and policy ids of RULES.md with a short title (ru, en).

Every rule the engine applies cites one of these ids; a verdict lists the ids
that decided it. ``P1а`` … ``P1и`` are the lettered cases of P1.
"""

from __future__ import annotations

CLAUSES: dict[str, tuple[str, str]] = {
    "C1": ("два вида заказа", "two call modes"),
    "C2": ("чистое назначение: шар, луза и способ", "clean designation: ball, pocket and way"),
    "C3": ("любая комбинация; абриколь при участии других шаров не обязателен", "any combination; абриколь optional when other balls take part"),
    "C4": ("судья может не принять неясный заказ", "the referee may refuse an unclear call"),
    "C5": ("последний шар можно не называть", "the last ball need not be named"),
    "C6": ("чистое назначение: остальные упавшие шары не считаются", "clean: other fallen balls do not count"),
    "C7": ("шар и луза: способ не называется", "ball and pocket: the way is not named"),
    "C8": ("шар и луза: остальные упавшие шары засчитываются", "ball and pocket: other fallen balls count"),
    "C9": ("заказ ясный; считается последний", "a clear call; the last one counts"),
    "C10": ("заказ до удара; иначе шар не засчитывается", "the call before the stroke; else the ball does not count"),
    "C11": ("в соревнованиях — чистое назначение", "competitions use clean designation"),
    "E1": ("первый набравший 71 выигрывает", "the first to 71 wins"),
    "E2": ("ничья: 70:70 или по три штрафных удара после предупреждения", "draw: 70:70 or three penalty strokes each after a warning"),
    "E3": ("выигрыш, проигрыш, ничья", "win, loss, draw"),
    "E4": ("переигровка последнего шара", "last-ball replay"),
    "E5": ("штраф при переигровке — проигрыш", "a penalty in the replay loses"),
    "E6": ("снимать шар со стола нельзя", "taking a ball off the table is not allowed"),
    "P1": ("штрафной удар", "a penalty stroke"),
    "P1а": ("промах", "a miss"),
    "P1б": ("биток в лузе", "the cue ball pocketed"),
    "P1в": ("биток вылетел за борт", "the cue ball off the table"),
    "P1г": ("касание шара кием, рукой, одеждой", "a ball touched with the cue, hand, clothing"),
    "P1д": ("игра не своим шаром", "playing a ball not one's own"),
    "P1е": ("удар ребром или турником кия", "a stroke with the edge or butt of the cue"),
    "P1ж": ("с руки — удар по шару в доме", "from hand, hitting a ball in the house"),
    "P1з": ("с руки — удар не из дома", "from hand, not from the house"),
    "P1и": ("удар до остановки шаров", "a stroke before the balls stopped"),
    "P2": ("штраф 5 очков: у нарушителя отнимается, партнёру прибавляется", "5 points from the offender to the partner"),
    "P3": ("партнёру нужно меньше на полученные штрафные очки", "the partner needs fewer by the penalty points received"),
    "P4": ("несколько нарушений — один штраф", "several violations, one penalty"),
    "P5": ("при штрафе упавший шар выставляется", "on a penalty a fallen ball is re-spotted"),
    "P6": ("чужим шаром: упавший выставляется, прочие остаются", "another's ball: the fallen one re-spotted, the rest stay"),
    "P7": ("чужим шаром после предупреждения: можно восстановить положение", "another's ball after a warning: positions may be restored"),
    "P8": ("касание после замечания: можно восстановить положение", "touching after a remark: positions may be restored"),
    "Q1": ("счёт может быть отрицательным (настройка)", "scores may go below zero (setting)"),
    "Q2": ("точность лузы", "pocket precision"),
    "Q3": ("кто бьёт следующим", "who strikes next"),
    "Q4": ("стоимость шаров", "ball values"),
    "Q5": ("стол пуст: больше очков — победа, поровну — ничья", "cleared table: higher score wins, equal draws"),
    "Q6": ("шар выставляется на стол", "the ball goes back on the table"),
    "Q7": ("заказ закончен до удара", "the call ends before the strike"),
    "Q8": ("незаконченный второй заказ", "an unfinished second call"),
    "Q9": ("вид заказа по умолчанию", "the default call mode"),
    "Q10": ("чистый заказ судится строго", "a clean call is judged strictly"),
}


def title(clause: str, lang: str = "ru") -> str:
    ru, en = CLAUSES[clause]
    return en if lang == "en" else ru
