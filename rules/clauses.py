"""The rules of the 71-point pyramid, clause by clause, in the project's own words.

One table holds every clause and policy the engine cites: its code, a short
title and the full text, in Russian and in English. Verdicts cite the codes;
``pyramid-referee rules CODE`` prints the text; ``docs/rules.md`` is generated
from this table by ``scripts/gen_docs.py`` (a test keeps it up to date).

Sections: ``C`` the calls, ``E`` the end of the game, ``P`` the penalties
(``P1а`` … ``P1и`` are the lettered cases of P1), ``Q`` the policies the
engine follows where the rules text is silent or open; each policy says which
text it settles and is a match setting where it can be changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .messages import N_, trl, trn


@dataclass(frozen=True, slots=True)
class Clause:
    code: str
    title_ru: str
    text_ru: str
    title_en: str
    text_en: str
    settles: tuple[str, ...] = ()  # policies: the clauses whose open question they settle

    @property
    def section(self) -> str:
        return self.code[0]

    def title(self, lang: str = "ru") -> str:
        return self.title_en if lang == "en" else self.title_ru

    def text(self, lang: str = "ru") -> str:
        return self.text_en if lang == "en" else self.text_ru

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        return {
            "code": self.code,
            "section": SECTIONS[self.section][1 if lang == "en" else 0],
            "title": self.title(lang),
            "text": self.text(lang),
            "settles": list(self.settles),
        }


SECTIONS = {
    "C": ("Условия игры (заказ)", "Calls"),
    "E": ("Конец игры", "End of the game"),
    "P": ("Штрафные удары", "Penalties"),
    "Q": ("Решения там, где правила молчат", "Policies where the rules are silent or open"),
}

_C = Clause

TABLE: tuple[Clause, ...] = (
    # -- calls ------------------------------------------------------------------------------
    _C(
        "C1",
        "два вида заказа",
        "Заказывают одним из двух способов: чистым назначением или «шар и луза». Какой из них "
        "действует, договариваются до партии; если не договорились — чистое назначение (Q9).",
        "two call modes",
        "A call is made in one of two modes: clean designation or ball and pocket. The players agree "
        "on the mode before the game; without an agreement it is clean designation (Q9).",
    ),
    _C(
        "C2",
        "чистое назначение: шар, луза и способ",
        "При чистом назначении игрок называет номер шара и лузу, куда его кладёт, и точно, определённо "
        "и ясно говорит, как шар должен упасть: чисто, от шара, абриколем, другим шаром или шарами "
        "(и какими именно), от контр-ку и так далее. Образцы заказа в самих правилах: «Тремя шарами "
        "такими-то, от шара такого-то, двенадцатый шар в левый угол» и «Карамболем от шестёрки "
        "одиннадцатым шаром тройку прямо в середину».",
        "clean designation: ball, pocket and way",
        "In clean designation the player names the ball's number and the pocket, and says exactly, "
        "definitely and clearly how the ball is to fall: clean, off a ball, абриколем, driven by a ball "
        "or balls (naming which), от контр-ку and so on. The rules give two model calls: «Тремя шарами "
        "такими-то, от шара такого-то, 12-й шар в левый угол» and «Карамболем от шестерки одиннадцатым "
        "шаром тройка прямо в середину».",
    ),
    _C(
        "C3",
        "любая комбинация, абриколь при участии других шаров не обязателен",
        "Можно заказать любую комбинацию, с каким угодно числом шаров. Если в комбинации участвует "
        "хотя бы один шар, кроме заказанного, говорить «абриколем» (биток сначала в борт, потом в "
        "играемый шар) не нужно. Если другие шары не участвуют, абриколь надо назвать.",
        "any combination, абриколь optional when other balls take part",
        "Any combination may be called, with any number of balls. When a ball other than the called one "
        "takes part, the player need not say абриколем (the cue ball off a cushion, then into the ball "
        "played). When no other ball takes part, the абриколь must be said.",
    ),
    _C(
        "C4",
        "судья может не принять неясный заказ",
        "Если судье непонятно, как заказанный шар должен упасть в лузу, или объяснение так запутано, что "
        "в нём трудно разобраться, судья вправе заказ не принять и такой удар не разрешить. Программа "
        "поступает так же: неясный заказ она не принимает и говорит почему, а не угадывает.",
        "the referee may refuse an unclear call",
        "If the referee cannot tell how the called ball is to fall, or the explanation is too tangled "
        "to follow, the referee may refuse the call and not allow the stroke. The program does the same: "
        "it refuses an unclear call and says why, instead of guessing.",
    ),
    _C(
        "C5",
        "последний шар можно не называть",
        "Когда на столе, кроме битка, остался один шар, его номер можно не называть.",
        "the last ball need not be named",
        "When one object ball is left on the table besides the cue ball, its number need not be said.",
    ),
    _C(
        "C6",
        "чистое назначение: прочие упавшие шары не засчитываются",
        "При чистом назначении, если заказанный шар упал как заказано, все остальные шары, упавшие от "
        "того же удара, не засчитываются и выставляются на стол на общих основаниях (Q6).",
        "clean: other fallen balls do not count",
        "In clean designation, when the called ball falls as called, every other ball that fell on the "
        "same stroke does not count and is put back on the table on the usual terms (Q6).",
    ),
    _C(
        "C7",
        "шар и луза: способ не называется",
        "При заказе «шар и луза» называют только номер шара и лузу; как шар упадёт, не говорят. Если "
        "игрок всё же назвал способ, программа его показывает, но по нему не судит.",
        "ball and pocket: the way is not named",
        "In ball and pocket only the ball's number and the pocket are named, not the way. If a player "
        "says a way anyway, the program shows it but does not judge by it.",
    ),
    _C(
        "C8",
        "шар и луза: прочие упавшие шары засчитываются",
        "При заказе «шар и луза», если заказанный шар упал в названную лузу, засчитываются и все "
        "остальные шары, упавшие от того же удара, — раньше него, вместе с ним или после.",
        "ball and pocket: other fallen balls count",
        "In ball and pocket, when the called ball falls into the named pocket, every other ball that fell "
        "on the same stroke counts too, whether it fell before, with or after the called one.",
    ),
    _C(
        "C9",
        "заказ ясный и определённый, считается последний",
        "Заказ должен быть ясным и определённым. Если игрок заказал несколько раз подряд — два, три "
        "или больше, — считается последний заказ.",
        "a clear call, the last one counts",
        "A call must be clear and definite. If a player makes several calls in a row, two, three or "
        "more, the last one counts.",
    ),
    _C(
        "C10",
        "заказ — до удара",
        "Заказ произносят до удара. Заказ, сказанный во время удара или после него, не считается: "
        "упавший шар не засчитывается и выставляется на стол на общих основаниях.",
        "the call before the stroke",
        "The call is spoken before the stroke. A call made during or after the stroke does not count: a "
        "ball that falls is not scored and is put back on the table on the usual terms.",
    ),
    _C(
        "C11",
        "в соревнованиях — чистое назначение",
        "В официальных соревнованиях играют только с чистым назначением. Автор правил замечает, что это "
        "усложняет и судейство, и заказы, а результат почти тот же, что при заказе «шар и луза»: "
        "заказанный шар падает в названную лузу не тем способом, что заказан, реже чем в одном случае "
        "из ста.",
        "competitions use clean designation",
        "Official competitions play clean designation only. The author of the rules notes that this "
        "makes refereeing and calling harder while the result is nearly that of ball and pocket: a "
        "called ball falls into the named pocket some other way in under one case in a hundred.",
    ),
    # -- end of the game -------------------------------------------------------------------
    _C(
        "E1",
        "победа — 71 очко",
        "Кто первым наберёт 71 очко, тот выиграл, и партия окончена.",
        "the first to 71 wins",
        "The first player to reach 71 points wins, and the game is over.",
    ),
    _C(
        "E2",
        "ничья",
        "Партия окончена вничью, если у каждого из партнёров по 70 очков или если каждый после "
        "предупреждения судьи сделал по три штрафных удара подряд, не изменивших положения шаров на столе.",
        "a draw",
        "The game is a draw when each player has 70 points, or when each, after the referee's warning, "
        "has made three penalty strokes in a row that left the balls where they were.",
    ),
    _C(
        "E3",
        "выигрыш, проигрыш, ничья",
        "У партии три возможных результата: выигрыш, проигрыш и ничья. Ничья бывает обычной — 70 на 70 — "
        "и вынужденной — после трёх штрафных ударов подряд у каждого, не изменивших положения шаров.",
        "win, loss, draw",
        "A game ends in a win, a loss or a draw. A draw is normal at 70 to 70, or forced after three "
        "penalty strokes in a row each that left the balls where they were.",
    ),
    _C(
        "E4",
        "переигровка последнего шара",
        "Если по условиям соревнования нужен результат, ничейную партию переигрывают целиком или, если "
        "оба согласны, только последний шар. Шар ставят на третью точку; первый удар из дома на общих "
        "основаниях делает тот, кто должен был начинать следующую партию; каждый бьёт по одному разу "
        "без заказа.",
        "last-ball replay",
        "If the competition needs a result, a drawn game is replayed in full or, when both agree, in the "
        "last ball only. The ball is put on the third point; the player who was to start the next game "
        "strikes first, from the house on the usual terms; each makes one stroke without a call.",
    ),
    _C(
        "E5",
        "штраф при переигровке — проигрыш",
        "При переигровке последнего шара тот, кто сделал штрафной удар, проигрывает партию.",
        "a penalty in the replay loses",
        "In a last-ball replay, the player who makes a penalty stroke loses the game.",
    ),
    _C(
        "E6",
        "снимать шар со стола нельзя",
        "Снимать шар со стола по ходу игры, чтобы скорее закончить партию, нельзя.",
        "taking a ball off the table is not allowed",
        "A ball may not be taken off the table during play to end the game sooner.",
    ),
    # -- penalties --------------------------------------------------------------------------
    _C(
        "P1",
        "штрафной удар",
        "Штраф назначается, если: а) промах — биток не задел ни одного шара; б) биток (свой шар) упал "
        "в лузу; в) биток вылетел за борт; г) до удара, во время удара или после него игрок коснулся "
        "любого шара кием, машинкой, одеждой, рукой и т. п.; д) игрок сыграл не своим шаром; е) ударил "
        "ребром или турником кия; ж) при игре с руки биток попал в шар, не выйдя из дома; з) при игре "
        "с руки удар сделан не из дома, а с противоположной стороны; и) удар сделан, когда шары от "
        "прошлого удара ещё не остановились.",
        "a penalty stroke",
        "A penalty is due when: (а) a miss, the cue ball touches no ball; (б) the cue ball falls into a "
        "pocket; (в) the cue ball leaves the table; (г) before, during or after the stroke the player "
        "touches any ball with the cue, the rest, clothing, a hand and the like; (д) the player plays a "
        "ball not his own; (е) strikes with the edge or the butt of the cue; (ж) from hand, the cue ball "
        "hits a ball before leaving the house; (з) from hand, strikes from the opposite end instead of "
        "the house; (и) strikes while balls moved by the previous stroke have not stopped.",
    ),
    _C(
        "P1а",
        "промах",
        "Промах: биток не задел ни одного шара.",
        "a miss",
        "A miss: the cue ball touches no ball.",
    ),
    _C(
        "P1б",
        "биток в лузе",
        "Свой шар, биток, упал в лузу.",
        "the cue ball pocketed",
        "The player's own ball, the cue ball, falls into a pocket.",
    ),
    _C(
        "P1в",
        "биток вылетел за борт",
        "Биток вылетел за борт, со стола.",
        "the cue ball off the table",
        "The cue ball leaves the table.",
    ),
    _C(
        "P1г",
        "касание шара",
        "До удара, во время удара или после него игрок коснулся любого шара кием, машинкой, одеждой, "
        "рукой и т. п.",
        "a ball touched",
        "Before, during or after the stroke the player touches any ball with the cue, the rest, "
        "clothing, a hand and the like.",
    ),
    _C(
        "P1д",
        "игра не своим шаром",
        "Игрок сыграл не своим шаром (последствия — P6, P7).",
        "playing a ball not one's own",
        "The player plays a ball not his own (see P6, P7).",
    ),
    _C(
        "P1е",
        "удар ребром или турником кия",
        "Удар сделан ребром или турником кия.",
        "a stroke with the edge or butt of the cue",
        "The stroke is made with the edge or the butt of the cue.",
    ),
    _C(
        "P1ж",
        "с руки — удар по шару в доме",
        "При игре с руки биток попал в шар, не выйдя за линию дома, то есть ударил по шару, который "
        "стоит в доме.",
        "from hand, hitting a ball in the house",
        "Playing from hand, the cue ball hits a ball before crossing the house line, that is a ball "
        "standing in the house.",
    ),
    _C(
        "P1з",
        "с руки — удар не из дома",
        "При игре с руки удар сделан не из дома, а с противоположной стороны стола. Играющий с руки "
        "вправе спросить судью, с какой стороны бить.",
        "from hand, not from the house",
        "Playing from hand, the stroke is made from the opposite end instead of the house. A player "
        "playing from hand may ask the referee which end to play from.",
    ),
    _C(
        "P1и",
        "удар до остановки шаров",
        "Удар сделан, когда шары, приведённые в движение прошлым ударом, ещё не остановились.",
        "a stroke before the balls stopped",
        "The stroke is made while balls set moving by the previous stroke have not stopped.",
    ),
    _C(
        "P2",
        "штраф — пять очков",
        "За штрафной удар у нарушителя вычитается пять очков, а его партнёру прибавляется пять.",
        "five points from the offender to the partner",
        "A penalty stroke costs five points: they are taken from the offender's score and added to "
        "the partner's.",
    ),
    _C(
        "P3",
        "партнёру нужно меньше на полученные штрафные очки",
        "Если оштрафованный не положит ни одного шара, его партнёру нужно набрать шарами не 71 очко, "
        "а меньше на полученные штрафные очки: 66 после одного штрафа, 61 после двух и так далее.",
        "the partner needs fewer by the penalty points received",
        "If the offender pockets nothing, his partner needs from balls not 71 points but 71 less the "
        "penalty points received: 66 after one penalty, 61 after two, and so on.",
    ),
    _C(
        "P4",
        "несколько нарушений — один штраф",
        "Если за один удар нарушено несколько правил, штраф не растёт: пять очков один раз. Например, "
        "промах и биток в лузе, или касание шара и промах.",
        "several violations, one penalty",
        "Several violations in one stroke cost one penalty of five points, not more: say, a miss with "
        "the cue ball pocketed, or a touched ball with a miss.",
    ),
    _C(
        "P5",
        "при штрафе упавший шар выставляется",
        "При любом штрафном ударе положенный шар не засчитывается и выставляется на стол на общих "
        "основаниях.",
        "on a penalty a fallen ball is put back",
        "On any penalty stroke a pocketed ball does not count and is put back on the table on the "
        "usual terms.",
    ),
    _C(
        "P6",
        "игра не своим шаром: упавший выставляется, прочие остаются",
        "Кто сыграл не своим шаром, получает штраф. Упавший при этом шар выставляется на стол на общих "
        "основаниях, а остальные шары остаются там, где остановились после неправильного удара.",
        "another's ball: the fallen one put back, the rest stay",
        "Playing a ball not one's own is penalised. A ball that fell on that stroke is put back on the "
        "usual terms; every other ball stays where the wrong stroke left it.",
    ),
    _C(
        "P7",
        "не своим шаром после предупреждения: можно восстановить положение",
        "Если игрок сыграл не своим шаром, хотя судья его предупредил, то, кроме штрафа, судья по "
        "своему усмотрению, но не в ущерб партнёру, восстанавливает прежнее положение шаров.",
        "another's ball after a warning: positions may be restored",
        "If a player plays a ball not his own despite the referee's warning, the referee, besides the "
        "penalty, may at his discretion, but not to the partner's harm, restore the previous position.",
    ),
    _C(
        "P8",
        "касание после замечания: можно восстановить положение",
        "Если игрок, готовясь к удару, коснулся своего или другого шара и, несмотря на замечание судьи, "
        "поспешил ударить, то, кроме штрафа, судья вправе по своему усмотрению восстановить прежнее "
        "положение шаров.",
        "touching after a remark: positions may be restored",
        "If a player touches his own or another ball while preparing the stroke and, despite the "
        "referee's remark, hurries to strike, the referee, besides the penalty, may restore the "
        "previous position of the balls.",
    ),
    # -- policies: where the text is silent or open -----------------------------------------
    _C(
        "Q1",
        "счёт ниже нуля после штрафа",
        "Вопрос: может ли счёт стать отрицательным после штрафа? Правило P2 читается буквально: у "
        "нарушителя вычитается пять очков (до −5, −10 и ниже), партнёру прибавляется пять; P3 лишь "
        "говорит партнёру, сколько ему ещё набрать шарами. Так считают и в классических правилах "
        "пирамиды. Настройка матча: счёт не опускается ниже нуля (партнёр всё равно получает пять).",
        "a score below zero after a penalty",
        "Can a score go below zero after a penalty? P2 is read literally: five points are taken from the "
        "offender (down to −5, −10 and lower) and five added to the partner; P3 only tells the partner "
        "how many he still needs from balls. Classic pyramid rules count the same way. Match setting: "
        "no score below zero (the partner still gets five).",
        ("P2", "P3"),
    ),
    _C(
        "Q2",
        "насколько точно названа луза",
        "Вопрос: что нужно сказать о лузе, чтобы заказ был определённым (C9)? У угловой лузы нужно "
        "назвать сторону — левая или правая; дальняя или ближняя — по желанию. Средней лузе достаточно "
        "слов «в середину». Заказ, где луза названа слабее, не принимается как неопределённый. "
        "Основание: образец заказа в правилах кончается словами «прямо в середину». Настройка матча: "
        "принимать и «в угол» без стороны.",
        "pocket precision",
        "How much of the pocket must be named for a definite call (C9)? A corner needs its side, left or "
        "right; far or near is optional. A middle pocket needs only «в середину». A call that names less "
        "is refused as not definite. Ground: the rules' own model call ends «прямо в середину». Match "
        "setting: accept «в угол» without a side.",
        ("C2", "C9"),
    ),
    _C(
        "Q3",
        "кто бьёт следующим",
        "Вопрос: кто делает следующий удар? Правила об этом молчат. Как принято в игре: если заказ "
        "выполнен и штрафа нет, игрок бьёт снова; иначе очередь переходит к партнёру. Если биток упал "
        "в лузу или вылетел за борт, следующий играет с руки.",
        "who strikes next",
        "Who makes the next stroke? The rules are silent. As is usual: a player whose call was fulfilled "
        "without a penalty strikes again; otherwise the turn passes to the partner. After the cue ball "
        "fell into a pocket or left the table, the next player plays from hand.",
    ),
    _C(
        "Q4",
        "стоимость шаров",
        "Вопрос: сколько очков стоит шар? Отрывок правил этого не говорит. Как в классической пирамиде "
        "на 71 очко: туз (шар 1) стоит 11 очков, шары от 2 до 15 — свой номер, а кто положит последний "
        "шар на столе, получает ещё 10 очков. Всего 140, и 70 на 70 — ровно половина (E2). Настройка "
        "матча: каждый шар стоит свой номер, без добавки за последний (всего 120).",
        "ball values",
        "What is each ball worth? The fragment of the rules does not say. As in the classic 71-point "
        "pyramid: ball 1 (туз) is worth 11, balls 2 to 15 their number, and whoever pockets the last ball "
        "on the table gets 10 more. 140 in all, so 70 to 70 is exactly half (E2). Match setting: each "
        "ball its number, no last-ball bonus (120 in all).",
        ("E1", "E2"),
    ),
    _C(
        "Q5",
        "стол пуст, а 71 нет ни у кого",
        "Вопрос: что, если шаров на столе не осталось, никто не набрал 71 и счёт не 70 на 70? При "
        "стоимости шаров по умолчанию так не бывает, только при другой настройке. Правила молчат; у кого "
        "больше очков, тот выиграл, при равном счёте — ничья.",
        "cleared table: higher score wins, equal draws",
        "What if the table is cleared, nobody has 71 and the score is not 70 to 70? Under the default "
        "ball values this cannot happen, only under another setting. The rules are silent; the higher "
        "score wins, equal scores draw.",
        ("E1", "E2", "E3"),
    ),
    _C(
        "Q6",
        "шар выставляется на стол",
        "Вопрос: что значит «выставляется на стол на общих основаниях» (C6, C10, P5, P6)? Как в "
        "классических правилах: шар возвращается на стол и снова в игре. Ставят его на третью точку, "
        "а если она занята — на ближайшее свободное место на продольной оси стола в сторону дальнего "
        "короткого борта. Где стоят шары, программа знает, только если это сказано в исходе удара.",
        "the ball goes back on the table",
        "What does «put back on the table on the usual terms» mean (C6, C10, P5, P6)? As in the classic "
        "rules: the ball returns to the table and is in play again. It goes on the third point or, if "
        "that is taken, on the nearest free place along the table's long axis toward the far short "
        "cushion. The program knows where balls stand only when the outcome of a stroke says so.",
        ("C6", "C10", "P5", "P6"),
    ),
    _C(
        "Q7",
        "заказ закончен до удара",
        "Вопрос: когда заказ сказан «до удара» (C10)? Каждое слово заказа должно закончиться раньше, "
        "чем кий ударил по битку. Заказ, который ещё договаривается в момент удара, не считается.",
        "the call ends before the strike",
        "When is a call made «before the stroke» (C10)? Every word of it must end before the cue strikes "
        "the cue ball. A call still being spoken at the strike does not count.",
        ("C10",),
    ),
    _C(
        "Q8",
        "незаконченный второй заказ",
        "Вопрос: что, если после полного заказа игрок начал следующий и не договорил? Такой заказ неясен "
        "и не принимается (C9, C4): судья не станет угадывать, что имелось в виду. Слова, которые к "
        "заказу не относятся («ну», «так»), пропускаются.",
        "an unfinished second call",
        "What if, after a complete call, the player starts another and does not finish it? The call is "
        "unclear and refused (C9, C4): a referee would not guess what was meant. Words that belong to no "
        "call («ну», «так») are skipped.",
        ("C4", "C9"),
    ),
    _C(
        "Q9",
        "вид заказа по умолчанию",
        "Вопрос: какой вид заказа (C1) действует, если о нём не договорились? Чистое назначение, как в "
        "официальных соревнованиях (C11). Настройка матча: «шар и луза».",
        "the default call mode",
        "Which call mode (C1) applies when none was agreed? Clean designation, as in official "
        "competitions (C11). Match setting: ball and pocket.",
        ("C1", "C11"),
    ),
    _C(
        "Q10",
        "чистый заказ судится строго",
        "Вопрос: насколько строго судить чистый заказ? Строго: каждое заявленное касание должно "
        "случиться, и в заявленном порядке, а заказанный шар на пути от удара по нему до лузы не должен "
        "коснуться ничего, что не было заявлено. Основание: правила требуют назвать способ «точно, "
        "определённо и ясно» (C2).",
        "a clean call is judged strictly",
        "How strictly is a clean call judged? Strictly: every declared contact must happen, in the "
        "declared order, and the called ball touches nothing undeclared between being struck and the "
        "pocket. Ground: the rules ask for the way «exactly, definitely and clearly» (C2).",
        ("C2",),
    ),
    _C(
        "Q11",
        "абриколь — от одного или нескольких бортов",
        "Вопрос: подходит ли под «абриколем» удар, где биток до первого шара коснулся двух бортов? Да: "
        "абриколь — это биток от одного или нескольких бортов до первого шара; число бортов входит в "
        "заказ, только если его назвали («абриколем от двух бортов»). Основание: в описаниях абриколя "
        "число бортов не указано, а строгость Q10 относится к заказанному шару.",
        "абриколь off one cushion or more",
        "Does «абриколем» cover the cue ball off two cushions before its first ball? Yes: абриколь is the "
        "cue ball off one or more cushions before its first ball; the number is part of the call only "
        "when said («абриколем от двух бортов»). Ground: descriptions of абриколь give no count, and the "
        "strictness of Q10 is about the called ball.",
        ("C2", "C3", "Q10"),
    ),
    _C(
        "Q12",
        "касание губки своей лузы — не борт",
        "Вопрос: считается ли бортом касание губки той лузы, куда шар падает? Нет: шар, задевший по "
        "пути губку своей лузы, просто упал, и борт ему не записывают. Касание любого другого борта "
        "или губки — борт. Иначе почти ни один «чистый» шар в тесную лузу пирамиды не был бы выполнен "
        "по Q10.",
        "a touch of the pocket's jaw is no cushion",
        "Is a touch of the jaw of the pocket a ball falls into a cushion? No: a ball that touches a jaw "
        "of its pocket on the way in simply falls, and no cushion is recorded. A touch of any other "
        "cushion or jaw is a cushion. Otherwise nearly every «чисто» into a tight pyramid pocket would "
        "fail Q10.",
        ("C2", "Q10"),
    ),
    _C(
        "Q13",
        "удар не услышан — заказ взят по вводу исхода",
        "Вопрос: что засчитать, если голосовой судья не услышал удара, а маркёр уже вводит исход? "
        "Заказ, который стоял к этому времени (последний, договорённый до конца, принятый или не "
        "принятый), относится к этому удару, с пометкой «удар не услышан — заказ взят по вводу "
        "исхода»; заказ, начатый после последнего звука стола, не берётся. Основание: миг удара "
        "только выбирает между заказами (Q7); маркёр, не заметивший удара, взял бы заказ, который "
        "слышал до того, как покатились шары. Отказать в заказе значило бы наказать игрока за слух "
        "судьи.",
        "strike not heard: the call taken when the outcome is entered",
        "What counts when the voice referee did not hear the strike and the marker enters the "
        "outcome? The call standing by then (the last one finished, accepted or refused) is the "
        "stroke's, marked «удар не услышан — заказ взят по вводу исхода»; a call begun after the "
        "table's last sound is not taken. Ground: the strike's instant only chooses between calls "
        "(Q7); a marker who missed the strike would take the call he heard before the balls moved. "
        "Refusing the call would punish the player for the referee's ears.",
        ("C9", "C10", "Q7"),
    ),
    _C(
        "Q14",
        "маркёр снимает ложный удар",
        "Вопрос: что делать, если судья «услышал» удар, которого не было (согласный звук, стук "
        "кием по борту)? Маркёр снимает его: удар недействителен, заказ, который он сделал "
        "запоздалым, снова стоит и относится к следующему удару; в записи удар остаётся с пометкой, "
        "что маркёр его снял. Основание: удар, которого не было, не может сделать заказ "
        "запоздалым (Q7), а маркёр у стола — последнее слово судейства.",
        "the marker takes back a false strike",
        "What if the referee heard a strike that was not one (a consonant, a cue knocked on the "
        "rail)? The marker takes it back: the strike is void, the call it made late stands again "
        "for the next strike, and the record keeps the strike, marked taken back by the marker. "
        "Ground: a strike that never happened cannot make a call late (Q7), and the marker at the "
        "table is the referee's last word.",
        ("Q7",),
    ),
)

BY_CODE: dict[str, Clause] = {c.code: c for c in TABLE}

# code → (ru title, en title): what verdicts and tests have always used.
CLAUSES: dict[str, tuple[str, str]] = {c.code: (c.title_ru, c.title_en) for c in TABLE}


def title(clause: str, lang: str = "ru") -> str:
    return BY_CODE[clause].title(lang)


def text(clause: str, lang: str = "ru") -> str:
    return BY_CODE[clause].text(lang)


# -- reading a code as a person types it -------------------------------------------------------

_CYR_TO_LAT = str.maketrans({"С": "C", "Е": "E", "Р": "P", "с": "C", "е": "E", "р": "P"})
_LAT_LETTERS = {
    "a": "а",
    "b": "б",
    "v": "в",
    "g": "г",
    "d": "д",
    "e": "е",
    "zh": "ж",
    "z": "з",
    "i": "и",
}


def normalize(code: str) -> str | None:
    """A code as typed («c2», «С2» in Cyrillic, «p1b», «P1Б») → the table's code, or None."""
    s = code.strip()
    if not s:
        return None
    head = s[0].translate(_CYR_TO_LAT).upper()
    m = re.fullmatch(r"(\d+)(.*)", s[1:])
    if head not in SECTIONS or m is None:
        return None
    number, letter = m.group(1), m.group(2).lower()
    letter = _LAT_LETTERS.get(letter, letter)
    found = f"{head}{int(number)}{letter}"
    return found if found in BY_CODE else None


def ranges(lang: str = "ru") -> str:
    """What exists, compactly: «C1–C11, E1–E6, P1–P8 (P1а–P1и), Q1–Q14»."""
    parts = []
    for sec in SECTIONS:
        nums = [int(c.code[1:]) for c in TABLE if c.section == sec and c.code[1:].isdigit()]
        parts.append(f"{sec}{min(nums)}–{sec}{max(nums)}")
    letters = [c.code for c in TABLE if c.code.startswith("P1") and len(c.code) == 3]
    p = parts.index(next(x for x in parts if x.startswith("P")))
    parts[p] += f" ({letters[0]}–{letters[-1]})"
    return ", ".join(parts)


def lookup(codes: list[str] | tuple[str, ...]) -> tuple[list[Clause], list[str]]:
    """The clauses asked for (all when none is asked), and the codes that name nothing."""
    if not codes:
        return list(TABLE), []
    found, unknown = [], []
    for raw in codes:
        code = normalize(raw)
        if code is None:
            unknown.append(raw)
        elif BY_CODE[code] not in found:
            found.append(BY_CODE[code])
    return found, unknown


def unknown_message(codes: str | Iterable[str], lang: str = "ru") -> str:
    """Why codes that name nothing are refused, with what exists."""
    codes = [codes] if isinstance(codes, str) else list(codes)
    named = ", ".join(f"«{c}»" for c in codes)
    message = (
        N_("there is no clause {named}; the clauses are {ranges}")
        if len(codes) == 1
        else N_("there are no clauses {named}; the clauses are {ranges}")
    )
    return trl(lang, message).format(named=named, ranges=ranges(lang))


# -- the clauses as played: a match to another target or with another penalty ------------------

DEFAULT_TARGET = 71
DEFAULT_PENALTY = 5


def _ochki(n: int, po: bool = False) -> str:
    """«71 очко», «2 очка», «11 очков»; after «по» (``po``) «по 21 очку», «по 10 очков»: the
    catalog's plural forms."""
    if po:
        return trn("{n} point each", "{n} points each", n, "ru").format(n=n)
    return trn("{n} point", "{n} points", n, "ru").format(n=n)


def _played_words(target: int, penalty: int) -> dict[str, list[tuple[str, str]]]:
    """For each clause that names the target (71) or the penalty (five points): its words in the
    rules' text → the words for the match as played, in the order they are replaced."""
    t, d, p = target, target - 1, penalty
    return {
        "E1": [("71 очко", _ochki(t)), ("to 71", f"to {t}"), ("reach 71", f"reach {t}")],
        "E2": [("по 70 очков", _ochki(d, po=True)), ("has 70 points", f"has {d} points")],
        "E3": [("70 на 70", f"{d} на {d}"), ("70 to 70", f"{d} to {d}")],
        "P2": [
            ("пять очков", _ochki(p)),
            ("прибавляется пять", f"прибавляется {p}"),
            ("five points", f"{p} points"),
        ],
        "P3": [
            ("не 71 очко", "не " + _ochki(t)),
            ("66 после", f"{t - p} после"),
            ("61 после", f"{t - 2 * p} после"),
            ("not 71 points but 71 less", f"not {t} points but {t} less"),
            ("66 after", f"{t - p} after"),
            ("61 after", f"{t - 2 * p} after"),
        ],
        "P4": [("пять очков", _ochki(p)), ("of five points", f"of {p} points")],
        "Q5": [
            ("а 71 нет", f"а {t} нет"),
            ("набрал 71", f"набрал {t}"),
            ("70 на 70", f"{d} на {d}"),
            ("has 71", f"has {t}"),
            ("70 to 70", f"{d} to {d}"),
        ],
    }


def as_played(code: str, target: int = DEFAULT_TARGET, penalty: int = DEFAULT_PENALTY) -> Clause:
    """The clause as it reads in a match played to ``target`` points with a ``penalty`` of that
    many points (settings): «победа — 11 очков» in a short game; the book's text by default."""
    c = BY_CODE[code]
    if (target, penalty) == (DEFAULT_TARGET, DEFAULT_PENALTY) or code not in _played_words(
        target, penalty
    ):
        return c
    texts = [c.title_ru, c.text_ru, c.title_en, c.text_en]
    for old, new in _played_words(target, penalty)[code]:
        texts = [x.replace(old, new) for x in texts]
    return Clause(c.code, texts[0], texts[1], texts[2], texts[3], settles=c.settles)


def cited(
    codes: Iterable[str],
    lang: str = "ru",
    target: int = DEFAULT_TARGET,
    penalty: int = DEFAULT_PENALTY,
) -> str:
    """The clauses a verdict cites, each with its title: «C2 — чистое назначение…; Q3 — кто бьёт следующим»
    (as played: ``target`` and ``penalty`` are the match's settings)."""
    return "; ".join(
        f"{c} — {as_played(c, target, penalty).title(lang)}" for c in codes if c in BY_CODE
    )


def explained(
    codes: Sequence[str],
    lang: str = "ru",
    target: int = DEFAULT_TARGET,
    penalty: int = DEFAULT_PENALTY,
) -> list[str]:
    """Each cited clause in full, a line each: «C2. Чистое назначение: …. При чистом назначении …»
    (as played: ``target`` and ``penalty`` are the match's settings)."""
    out = []
    lettered = any(code.startswith("P1") and len(code) == 3 for code in codes)
    for code in codes:
        c = as_played(code, target, penalty) if code in BY_CODE else None
        if c is not None:
            t = c.title(lang)
            # P1 lists every case; when the verdict names its case (P1б), that one is enough
            body = "" if code == "P1" and lettered else " " + c.text(lang)
            out.append(f"{c.code}. {t[0].upper()}{t[1:]}.{body}")
    return out
