"""Hand-annotated calls, in a compact notation; ``python corpora/calls/annotations.py``
writes them out as the JSONL files beside it (the corpus the tests run).

Every expectation here was reasoned out by hand from the call's JSON contract
(grammar/call.py) and the rules (docs/rules.md), not copied from the parser.
Notation of a line: TEXT | EXPECT [| OPTIONS]

- EXPECT a call: ``BALL POCKET ROUTE`` — BALL a number or ``_`` (unnamed, C5);
  POCKET ``CL``/``CR`` (+ ``N``/``F`` near/far) or ``M``/``ML``/``MR``; a corner
  without its side (pocket_precision "any", Q2) ``C``, ``C_N``, ``C_F``;
  ROUTE ``-`` (null) or contacts ``a>b`` with ``c`` the cue ball, ``b`` a
  cushion, ``k`` contre-coup, ``p`` the pocket, ``_`` the unnamed ball.
- EXPECT a refusal: ``!code``.
- OPTIONS: ``bp`` (ball and pocket mode), ``left=1,2`` (balls on the table),
  ``any`` (the match setting pocket_precision "any", Q2; default side_for_corners).
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent

SEED = """
Карамболем от шестерки одиннадцатым шаром тройка прямо в середину | 3 M c>6 c>11 11>3 3>p
Тремя шарами такими-то, от шара такого-то, 12-й шар в левый угол | !incomplete
Тремя шарами пятым, девятым и вторым, от шара седьмого, двенадцатый шар в левый угол | 12 CL c>5 5>9 9>2 2>12 12>7 12>p
тремя шарами: пятёркой, девяткой и двойкой, от семёрки, двенадцатый шар в левый угол | 12 CL c>5 5>9 9>2 2>12 12>7 12>p
карамболем от шестёрки одиннадцатым шаром тройку чисто в середину | 3 M c>6 c>11 11>3 3>p
тройка прямо в середину карамболем от шестерки одиннадцатым шаром | 3 M c>6 c>11 11>3 3>p
в середину тройка прямо одиннадцатым шаром карамболем от шестерки | 3 M c>6 c>11 11>3 3>p
одиннадцатым шаром карамболем от шестерки тройку в середину прямо | 3 M c>6 c>11 11>3 3>p
двенадцатый шар в левый угол от шара седьмого тремя шарами пятым, девятым и вторым | 12 CL c>5 5>9 9>2 2>12 12>7 12>p
Карамболем от шестерки одиннадцатым шаром тройка прямо в середину | 3 M - | bp
Карамболем от шестерки одиннадцатым шаром тройка прямо в середину | !ball_not_on_table | left=3,6,7
Карамболем от шестерки одиннадцатым шаром тройка прямо в середину | 3 M c>6 c>11 11>3 3>p | left=3,6,11,15
"""

# The called ball in every form: «… чисто в левый угол» → ball N, straight in.
ORDINALS = ["первый", "второй", "третий", "четвёртый", "пятый", "шестой", "седьмой", "восьмой",
            "девятый", "десятый", "одиннадцатый", "двенадцатый", "тринадцатый", "четырнадцатый",
            "пятнадцатый"]
ORDINALS_ACC_ANIM = ["первого", "второго", "третьего", "четвертого", "пятого", "шестого", "седьмого",
                     "восьмого", "девятого", "десятого", "одиннадцатого", "двенадцатого", "тринадцатого",
                     "четырнадцатого", "пятнадцатого"]
CARDINALS = ["один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять",
             "одиннадцать", "двенадцать", "тринадцать", "четырнадцать", "пятнадцать"]
NOUNS = {1: ["единица", "единицу", "туз", "туза"], 2: ["двойка", "двойку"], 3: ["тройка", "тройку"],
         4: ["четвёрка", "четверку"], 5: ["пятёрка", "пятерку"], 6: ["шестёрка", "шестерку"],
         7: ["семёрка", "семерку"], 8: ["восьмёрка", "восьмерку"], 9: ["девятка", "девятку"],
         10: ["десятка", "десятку"]}

BALL_FORMS = []
for n, w in enumerate(ORDINALS, 1):
    BALL_FORMS.append(f"{w} шар чисто в левый угол | {n} CL c>{n} {n}>p")
for n, w in enumerate(ORDINALS_ACC_ANIM, 1):
    BALL_FORMS.append(f"{w} чисто в левый угол | {n} CL c>{n} {n}>p")
for n, w in enumerate(CARDINALS, 1):
    BALL_FORMS.append(f"шар номер {w} чисто в левый угол | {n} CL c>{n} {n}>p")
for n, ws in NOUNS.items():
    for w in ws:
        BALL_FORMS.append(f"{w} чисто в левый угол | {n} CL c>{n} {n}>p")

# Every ball in the genitive (off ball N: [B, N]) and the instrumental (N drives B).
GEN_ORDINALS = ["первого", "второго", "третьего", "четвёртого", "пятого", "шестого", "седьмого",
                "восьмого", "девятого", "десятого", "одиннадцатого", "двенадцатого", "тринадцатого",
                "четырнадцатого", "пятнадцатого"]
GEN_CARDINALS = ["одного", "двух", "трёх", "четырёх", "пяти", "шести", "семи", "восьми", "девяти",
                 "десяти", "одиннадцати", "двенадцати", "тринадцати", "четырнадцати", "пятнадцати"]
GEN_NOUNS = {1: "единицы", 2: "двойки", 3: "тройки", 4: "четвёрки", 5: "пятёрки", 6: "шестёрки",
             7: "семёрки", 8: "восьмёрки", 9: "девятки", 10: "десятки"}
INS_ORDINALS = ["первым", "вторым", "третьим", "четвёртым", "пятым", "шестым", "седьмым", "восьмым",
                "девятым", "десятым", "одиннадцатым", "двенадцатым", "тринадцатым", "четырнадцатым",
                "пятнадцатым"]
INS_NOUNS = {1: "единицей", 2: "двойкой", 3: "тройкой", 4: "четвёркой", 5: "пятёркой", 6: "шестёркой",
             7: "семёркой", 8: "восьмёркой", 9: "девяткой", 10: "десяткой"}
COUNTS = {2: "двумя", 3: "тремя", 4: "четырьмя", 5: "пятью"}

CASES = []
for n in range(1, 16):
    b = 15 if n != 15 else 14  # the called ball, never the ball it plays off
    CASES.append(f"{ORDINALS[b - 1]} шар от {GEN_ORDINALS[n - 1]} шара в правый угол | {b} CR c>{b} {b}>{n} {b}>p")
    # «от одного / двух / трёх» may be «от … бортов» said short: ball n or n cushions? (C9)
    CASES.append(f"{ORDINALS[b - 1]} от {GEN_CARDINALS[n - 1]} в правый угол | "
                 + ("!ambiguous" if n <= 3 else f"{b} CR c>{b} {b}>{n} {b}>p"))
    CASES.append(f"{INS_ORDINALS[n - 1]} шаром {ORDINALS[b - 1]} шар чисто в левую середину | "
                 f"{b} ML c>{n} {n}>{b} {b}>p")
    if n in GEN_NOUNS:
        CASES.append(f"{ORDINALS[b - 1]} от {GEN_NOUNS[n]} в правый угол | {b} CR c>{b} {b}>{n} {b}>p")
        CASES.append(f"{INS_NOUNS[n]} {ORDINALS[b - 1]} в середину | {b} M c>{n} {n}>{b} {b}>p")
for k, word in COUNTS.items():
    balls = list(range(1, k + 1))
    chain = " ".join(f"{x}>{y}" for x, y in zip(balls, balls[1:]))
    names = ", ".join(INS_ORDINALS[x - 1] for x in balls)
    CASES.append(f"{word} шарами {names} пятнадцатый в левый угол | 15 CL c>1 {chain} {k}>15 15>p")
    CASES.append(f"{word} шарами {names}, {INS_ORDINALS[k]} пятнадцатый в левый угол | !count_mismatch")

DIGITS = """
12 чисто в левый угол | 12 CL c>12 12>p
12-й чисто в левый угол | 12 CL c>12 12>p
12й шар чисто в правый угол | 12 CR c>12 12>p
№12 чисто в левый угол | 12 CL c>12 12>p
№ 12 чисто в левый угол | 12 CL c>12 12>p
шар № 7 напрямую в правую середину | 7 MR c>7 7>p
номер 15 прямо в середину | 15 M c>15 15>p
шар номер 1 чисто в правый угол | 1 CR c>1 1>p
шар 9 чисто в правый угол | 9 CR c>9 9>p
9 шар чисто в правый угол | 9 CR c>9 9>p
12-го чисто в левый угол | 12 CL c>12 12>p
шар двенадцатый чисто в левый угол | 12 CL c>12 12>p
16 чисто в левый угол | !unknown_word
0 чисто в левый угол | !unknown_word
шар номер 20 в угол | !unknown_word
# a bare number before «бортов» is the count of cushions, as «от двух бортов»
тройку от 2 бортов в середину | 3 M c>3 3>b 3>b 3>p
тройку от 3 бортов в правый угол | 3 CR c>3 3>b 3>b 3>b 3>p
тройку от 1 борта в середину | 3 M c>3 3>b 3>p
тройку от 2 в середину | 3 M c>3 3>2 3>p
"""

# Genitive after «от»: the called ball goes off ball X ([B, X]).
KISS = """
тройку от шестёрки в левый угол | 3 CL c>3 3>6 3>p
тройку от шестерки в левый угол | 3 CL c>3 3>6 3>p
тройку от шара шестого в левый угол | 3 CL c>3 3>6 3>p
тройку от шестого шара в левый угол | 3 CL c>3 3>6 3>p
тройку от шара номер шесть в левый угол | 3 CL c>3 3>6 3>p
тройку от шара 6 в левый угол | 3 CL c>3 3>6 3>p
тройку от 6 в левый угол | 3 CL c>3 3>6 3>p
тройку от 6-го в левый угол | 3 CL c>3 3>6 3>p
тройку от шести в левый угол | 3 CL c>3 3>6 3>p
тройку от туза в левый угол | 3 CL c>3 3>1 3>p
тройку от единицы в левый угол | 3 CL c>3 3>1 3>p
тройку от двенадцатого в левый угол | 3 CL c>3 3>12 3>p
от одиннадцатого шара тройку в правый угол | 3 CR c>3 3>11 3>p
тройку от шестёрки и семёрки в левый угол | 3 CL c>3 3>6 3>7 3>p
двенадцатый от седьмого в дальний правый угол | 12 CRF c>12 12>7 12>p
от десятки пятнадцатый в середину | 15 M c>15 15>10 15>p
от шестёрки от борта тройку в правую середину | 3 MR c>3 3>6 3>b 3>p
от борта от шестёрки тройку в правую середину | 3 MR c>3 3>b 3>6 3>p
"""

# Instrumental: a ball that drives the called ball (cue → X → B).
DRIVERS = """
шестёркой тройку чисто в левый угол | 3 CL c>6 6>3 3>p
шестеркой тройку чисто в левый угол | 3 CL c>6 6>3 3>p
шестёркою тройку чисто в левый угол | 3 CL c>6 6>3 3>p
шестым шаром тройку чисто в левый угол | 3 CL c>6 6>3 3>p
шаром шестым тройку чисто в левый угол | 3 CL c>6 6>3 3>p
шестым тройку чисто в левый угол | 3 CL c>6 6>3 3>p
шаром номер шесть тройку чисто в левый угол | 3 CL c>6 6>3 3>p
шаром 6 тройку чисто в левый угол | 3 CL c>6 6>3 3>p
6-м шаром тройку чисто в левый угол | 3 CL c>6 6>3 3>p
6 шаром тройку чисто в левый угол | 3 CL c>6 6>3 3>p
тузом тройку в левый угол | 3 CL c>1 1>3 3>p
единицей тройку в левый угол | 3 CL c>1 1>3 3>p
десяткой пятнадцатый в середину | 15 M c>10 10>15 15>p
одиннадцатым шаром тройку в середину | 3 M c>11 11>3 3>p
тройку одиннадцатым шаром в середину | 3 M c>11 11>3 3>p
тройку в середину одиннадцатым шаром | 3 M c>11 11>3 3>p
шестёркой и семёркой тройку в левый угол | 3 CL c>6 6>7 7>3 3>p
шестёркой тройку семёркой в левый угол | !ambiguous
двумя шарами шестёркой и семёркой тройку чисто в левую середину | 3 ML c>6 6>7 7>3 3>p
шарами шестёркой и семёркой тройку в левую середину | 3 ML c>6 6>7 7>3 3>p
шестёркой и семёркой двумя шарами тройку в левую середину | 3 ML c>6 6>7 7>3 3>p
тремя шарами шестеркой, семеркой, тройку в левый угол | !count_mismatch
двумя шарами шестеркой, семеркой и восьмеркой тройку в левый угол | !count_mismatch
четырьмя шарами первым, вторым, четвертым и пятым тройку в правый угол | 3 CR c>1 1>2 2>4 4>5 5>3 3>p
3-мя шарами пятым, девятым и вторым двенадцатый в левый угол | 12 CL c>5 5>9 9>2 2>12 12>p
тремя шарами тройку чисто в левый угол | !incomplete
шарами тройку в левый угол | !incomplete
одиннадцатым шаром 12 в левый угол | 12 CL c>11 11>12 12>p
шестеркой 12 шаром тройку в левый угол | 3 CL c>6 6>12 12>3 3>p
"""

ROUTE_WORDS = """
тройку чисто в левый угол | 3 CL c>3 3>p
тройку прямо в левый угол | 3 CL c>3 3>p
тройку прямой в левый угол | 3 CL c>3 3>p
тройку напрямую в левый угол | 3 CL c>3 3>p
тройку в лоб в левый угол | 3 CL c>3 3>p
в лоб тройку в левый угол | 3 CL c>3 3>p
тройку от борта в середину | 3 M c>3 3>b 3>p
тройку от двух бортов в середину | 3 M c>3 3>b 3>b 3>p
тройку от трёх бортов в середину | 3 M c>3 3>b 3>b 3>b 3>p
тройку от трех бортов в середину | 3 M c>3 3>b 3>b 3>b 3>p
тройку от четырёх бортов в левый угол | 3 CL c>3 3>b 3>b 3>b 3>b 3>p
тройку от одного борта в середину | 3 M c>3 3>b 3>p
тройку от 2-х бортов в середину | 3 M c>3 3>b 3>b 3>p
тройку дуплетом в середину | 3 M c>3 3>b 3>p
дуплет тройку в середину | 3 M c>3 3>b 3>p
тройку триплетом в середину | 3 M c>3 3>b 3>b 3>p
тройку триплет в правый угол | 3 CR c>3 3>b 3>b 3>p
тройку труабаном в середину | 3 M c>3 3>b 3>b 3>b 3>p
труабан тройку в середину | 3 M c>3 3>b 3>b 3>b 3>p
тройку круазе в середину | 3 M c>3 3>b 3>p
тройку оборотным дуплетом в середину | 3 M c>3 3>b 3>p
оборотный дуплет тройку в середину | 3 M c>3 3>b 3>p
оборотний дуплет тройку в левую середину | 3 ML c>3 3>b 3>p
абриколь тройку в левый угол | 3 CL c>b c>3 3>p
абриколем тройку в левый угол | 3 CL c>b c>3 3>p
абрикольно тройку чисто в левый угол | 3 CL c>b c>3 3>p
# «абриколем от борта» is one phrase (the cue ball off the cushion): the 3 off a
# cushion too is only one reading of it, and a strict judge (Q10) would then fail
# a 3 that went straight in. Which ball takes the cushion is unclear (C9).
тройку абриколем от борта в середину | !ambiguous
абриколем от борта тройку в левый угол | !ambiguous
абриколем шестёркой тройку в левый угол | 3 CL c>b c>6 6>3 3>p
карамболем от шестёрки тройку в левый угол | 3 CL c>6 c>3 3>p
карамболь от шестёрки тройку чисто в левый угол | 3 CL c>6 c>3 3>p
карамболем от шестого шара тройку чисто в левый угол | 3 CL c>6 c>3 3>p
карамболем от шара номер 6 тройку чисто в левый угол | 3 CL c>6 c>3 3>p
карамболем от шестёрки и семёрки тройку чисто в левый угол | 3 CL c>6 c>7 c>3 3>p
тройку от контр-ку в середину | 3 M c>3 3>k 3>p
тройку от контрку в середину | 3 M c>3 3>k 3>p
тройку от контр ку в середину | 3 M c>3 3>k 3>p
тройку контр-ку в середину | 3 M c>3 3>k 3>p
от контр-ку тройку от борта в середину | !ambiguous
тройку от контр-ку от борта в середину | 3 M c>3 3>k 3>b 3>p
# a cushion said again around the ball: the same one, or a second? (C9)
от борта тройку от борта в середину | !ambiguous
тройку от борта от борта в середину | !ambiguous
тройку от борта от двух бортов в середину | !ambiguous
тройку от борта от шестёрки от борта в середину | 3 M c>3 3>b 3>6 3>b 3>p
тройку от борта в середину от борта | !ambiguous
тройку от борта в середину от борта пятёрку в левый угол | 5 CL c>5 5>b 5>p
карамболем от семёрки тройку карамболем от шестёрки в середину | !ambiguous
тройку от борта в середину от шестёрки | !ambiguous
тройку чисто в резку в левый угол | 3 CL c>3 3>p
тройку в резку чисто в левый угол | 3 CL c>3 3>p
режу тройку чисто в левый угол | 3 CL c>3 3>p
тройку накатом чисто в левый угол | 3 CL c>3 3>p
тройку с винтом чисто в левый угол | 3 CL c>3 3>p
тройку винтом чисто в левый угол | 3 CL c>3 3>p
клапштосом тройку чисто в левый угол | 3 CL c>3 3>p
тройку с оттяжкой чисто в левый угол | 3 CL c>3 3>p
тройку оттяжкой чисто в левый угол | 3 CL c>3 3>p
тройку с боковиком прямо в середину | 3 M c>3 3>p
боковиком резка тройку прямо в середину | 3 M c>3 3>p
тройку резка в середину | !no_route
тройку накатом в правый угол | !no_route
"""

POCKETS = """
тройку чисто в правый угол | 3 CR c>3 3>p
тройку чисто в левый дальний угол | 3 CLF c>3 3>p
тройку чисто в дальний левый угол | 3 CLF c>3 3>p
тройку чисто в правый ближний угол | 3 CRN c>3 3>p
тройку чисто в ближний правый угол | 3 CRN c>3 3>p
тройку чисто в правый дальний угол | 3 CRF c>3 3>p
тройку чисто в левый ближний угол | 3 CLN c>3 3>p
тройку чисто в угол левый | 3 CL c>3 3>p
тройку чисто в угол правый дальний | 3 CRF c>3 3>p
тройку чисто левый угол | 3 CL c>3 3>p
тройку чисто в левый угол к себе | 3 CLN c>3 3>p
тройку чисто в свой угол левый | 3 CLN c>3 3>p
двенадцатого к себе в правый угол чисто | 12 CRN c>12 12>p
двенадцатого чисто дальний в правый угол | 12 CRF c>12 12>p
тройку чисто в правый угол, дальний | 3 CRF c>3 3>p
тройку чисто в свой угол | !pocket_not_definite
прямым ударом тройку в правый угол | 3 CR c>3 3>p
тройку чисто в середину | 3 M c>3 3>p
тройку чисто в левую середину | 3 ML c>3 3>p
тройку чисто в правую середину | 3 MR c>3 3>p
тройку чисто в среднюю | 3 M c>3 3>p
тройку чисто в среднюю лузу | 3 M c>3 3>p
тройку чисто в левую среднюю лузу | 3 ML c>3 3>p
тройку чисто в центральную лузу | 3 M c>3 3>p
тройку чисто в центр | 3 M c>3 3>p
тройку чисто в правую центральную | 3 MR c>3 3>p
тройку чисто в левую угловую лузу | 3 CL c>3 3>p
тройку чисто в правую угловую | 3 CR c>3 3>p
тройку чисто в дальнюю левую угловую лузу | 3 CLF c>3 3>p
тройку чисто в правый угол дальний | 3 CRF c>3 3>p
тройку чисто во левый угол | 3 CL c>3 3>p
тройку чисто в ближнюю левую угловую лузу | 3 CLN c>3 3>p
тройку чисто в правую ближнюю угловую | 3 CRN c>3 3>p
тройку чисто в правый угол со стороны игрока | 3 CRN c>3 3>p
тройку чисто в левый угол на противоположной стороне | 3 CLF c>3 3>p
со стороны игрока в левый угол тройку чисто | 3 CLN c>3 3>p
двенадцатого чисто на противоположной стороне в правый угол | 12 CRF c>12 12>p
тройку чисто в правый угол, со стороны игрока | 3 CRN c>3 3>p
тройку чисто в правый угол со стороны игрока к себе | 3 CRN c>3 3>p
тройку чисто в угол со стороны игрока | !pocket_not_definite
тройку чисто в угол на противоположной стороне | !pocket_not_definite
тройку чисто в середину со стороны игрока | !contradiction
тройку чисто в правый угол со стороны игрока дальний | !contradiction
тройку чисто в правый угол на противоположной стороне к себе | !contradiction
тройку чисто в правый угол со стороны | !unknown_word
тройку чисто в левый угол на стороне | !unknown_word
# «в свой левый угол»: the near left corner («свой угол» = near), as players say it
тройку чисто в свой левый угол | 3 CLN c>3 3>p
в свой правый угол тройку от борта | 3 CRN c>3 3>b 3>p
тройку чисто в свой дальний угол | !unknown_word
тройку чисто в свой левый дальний угол | !contradiction
# pocket words only in the pocket's own forms: «левого», «дальнего» agree with «борта»,
# not with a pocket, so «от борта левого в угол» is never the left corner
тройку от борта левого в угол | !unknown_word
тройку от левого борта в правый угол | !unknown_word
тройку от дальнего борта в левый угол | !unknown_word
тройку чисто в левом углу | !unknown_word
тройку чисто в угол | !pocket_not_definite
тройку чисто в дальний угол | !pocket_not_definite
тройку чисто в ближний угол | !pocket_not_definite
тройку чисто в угловую лузу | !pocket_not_definite
тройку чисто в лузу | !pocket_not_definite
тройку чисто в левую лузу | !pocket_not_definite
тройку чисто в левую | !pocket_not_definite
тройку чисто в дальнюю середину | !contradiction
тройку чисто в ближнюю левую середину | !contradiction
тройку чисто в левый правый угол | !contradiction
тройку чисто в дальний ближний левый угол | !contradiction
тройку чисто в угловую среднюю лузу | !contradiction
тройку чисто в левый угол в середину | !contradiction
тройку чисто в левый угол в правый угол | !contradiction
тройку чисто в | !incomplete
тройку в чисто левый угол | !incomplete
"""

ORDER = """
чисто тройку в левый угол | 3 CL c>3 3>p
в левый угол тройку чисто | 3 CL c>3 3>p
в левый угол чисто тройку | 3 CL c>3 3>p
чисто в левый угол тройку | 3 CL c>3 3>p
тройку в левый угол чисто | 3 CL c>3 3>p
от борта в середину тройку | 3 M c>3 3>b 3>p
в середину от двух бортов тройку | 3 M c>3 3>b 3>b 3>p
# «шестёркой от борта»: «X от борта» is X off the cushion (players' usage), so the six
# may bank into the seven; or the seven goes off the cushion. Unclear (C9).
в правый угол шестёркой от борта семёрку | !ambiguous
семёрку от борта в правый угол шестёркой | 7 CR c>6 6>7 7>b 7>p
от семёрки двенадцатый в середину | 12 M c>12 12>7 12>p
"""

FILLERS = """
ну давай тройку чисто в левый угол | 3 CL c>3 3>p
так, заказываю тройку чисто в левый угол | 3 CL c>3 3>p
кладу тройку чисто в левый угол | 3 CL c>3 3>p
играю тройку чисто в левый угол | 3 CL c>3 3>p
вот, значит, тройку чисто в левый угол, пожалуйста | 3 CL c>3 3>p
я бью тройку чисто в левый угол | 3 CL c>3 3>p
битком тройку чисто в левый угол | 3 CL c>3 3>p
Тройку, чисто, в левый угол! | 3 CL c>3 3>p
ТРОЙКУ ЧИСТО В ЛЕВЫЙ УГОЛ | 3 CL c>3 3>p
  тройку   чисто  в левый угол   | 3 CL c>3 3>p
тройку — чисто — в левый угол | 3 CL c>3 3>p
«Тройку чисто в левый угол» | 3 CL c>3 3>p
"""

# Every route, technique and filler word of the lexicon, each in a call.
VOCAB = """
а тройку чисто в левый угол | 3 CL c>3 3>p
тройку абриколью в левый угол | 3 CL c>b c>3 3>p
биток, тройку чисто в левый угол | 3 CL c>3 3>p
своим шаром тройку чисто в левый угол | 3 CL c>3 3>p
свой шар, тройку чисто в левый угол | 3 CL c>3 3>p
тройку боковик чисто в левый угол | 3 CL c>3 3>p
тройку от борт в левый угол | 3 CL c>3 3>b 3>p
буду играть тройку чисто в левый угол | 3 CL c>3 3>p
тройку винт прямо в середину | 3 M c>3 3>p
внимание, заказ: тройку чисто в левый угол | 3 CL c>3 3>p
давайте тройку чисто в левый угол | 3 CL c>3 3>p
играем тройку чисто в левый угол | 3 CL c>3 3>p
карамбольно от шестёрки тройку чисто в левый угол | 3 CL c>6 c>3 3>p
клапштос тройку чисто в левый угол | 3 CL c>3 3>p
класть буду тройку чисто в левый угол | 3 CL c>3 3>p
ладно, тройку чисто в левый угол | 3 CL c>3 3>p
накат, тройку чисто в левый угол | 3 CL c>3 3>p
тройку, оттяжка, чисто в левый угол | 3 CL c>3 3>p
оттяжку и тройку чисто в левый угол | 3 CL c>3 3>p
тройку резкой чисто в левый угол | 3 CL c>3 3>p
положу тройку чисто в левый угол | 3 CL c>3 3>p
сейчас тройку, теперь чисто в левый угол | 3 CL c>3 3>p
хорошо, это тройку чисто в левый угол | 3 CL c>3 3>p
шары: тройку чисто в левый угол | 3 CL c>3 3>p
удар тройку чисто в левый угол | 3 CL c>3 3>p
тройку с накатом чисто в левый угол | 3 CL c>3 3>p
тройку оборотним дуплетом в левую середину | 3 ML c>3 3>b 3>p
шар под номером 12 чисто в левый угол | 12 CL c>12 12>p
чужого чисто в правый угол | _ CR c>_ _>p | left=7
"""

# «туз» is ball 1 in every role: the called ball (nominative, and the
# animate accusative «туза» as in cards), the driver «тузом», «от туза».
TUZ = """
туз от борта в правый угол | 1 CR c>1 1>b 1>p
туза от тройки в середину | 1 M c>1 1>3 1>p
туза тройкой в середину | 1 M c>3 3>1 1>p
туза в правую середину | 1 MR - | bp
тузом тройку в середину | 3 M c>1 1>3 3>p
тузом шаром тройку в середину | 3 M c>1 1>3 3>p
двумя шарами тузом и двойкой тройку в середину | 3 M c>1 1>2 2>3 3>p
от туза тройку в середину | 3 M c>3 3>1 3>p
тройку от шара туза в середину | 3 M c>3 3>1 3>p
карамболем от туза тройку чисто в середину | 3 M c>1 c>3 3>p
тройку туза в середину | !contradiction
туза от туза в середину | !contradiction
тузом туза в середину | !contradiction
туза в середину | !ball_not_on_table | bp left=3,5
"""

REFUSALS = """
 | !empty
    | !empty
ну | !empty
ну давай, заказываю | !empty
, . ! | !empty
в резку | !empty
привет | !unknown_word
тройку чисто в левый угол пожалуйста быстро | !unknown_word
тройку through the left corner | !unknown_word
тройку через шестерку в левый угол | !unknown_word
тройку 🎱 чисто в левый угол | !unknown_word
тройку чисто в лево угол | !unknown_word
чисто в левый угол | !no_ball
от борта в середину | !no_ball
шестёркой в левый угол | !no_ball
чужой чисто в левый угол | !no_ball
прицельный чисто в левый угол | !no_ball
тройку чисто | !no_pocket
тройку от борта | !no_pocket
двенадцатый шар | !no_pocket
тройку в левый угол | !no_route
в середину двенадцатый шар | !no_route
шар номер 12 в левый угол | !no_route
тройку пятерку чисто в левый угол | !contradiction
тройку чисто в левый угол и тройку | !several_calls_unclear
тройкой тройку в середину | !contradiction
тройку от тройки в середину | !contradiction
карамболем от тройки тройку в середину | !contradiction
третьим шаром третий шар в середину | !contradiction
тройку чисто от борта в середину | !contradiction
тройку прямо от шестёрки в середину | !contradiction
тройку напрямую от контр-ку в середину | !contradiction
тройку от шестёрки от шестёрки в середину | !contradiction
шестёркой шестёркой тройку в середину | !contradiction
тройку от | !incomplete
тройку в середину от | !incomplete
тройку от шара в середину | !incomplete
карамболем тройку в середину | !incomplete
тройку в середину карамболем | !incomplete
шаром тройку в середину | !incomplete
тройку в середину шаром | !incomplete
# ball 2, or «от двух бортов» said short? (C9) «от шара двух», «от двойки» are ball 2
тройку от двух в середину | !ambiguous
тройку от 2-х в середину | !ambiguous
тройку от шара двух в середину | 3 M c>3 3>2 3>p
двойку от двух в середину | 2 M c>2 2>b 2>b 2>p
тройку от двенадцати в середину | 3 M c>3 3>12 3>p
тройку от двух в середину бортов | !unexpected_word
тремя тройку в середину | !incomplete
Тремя шарами такими-то тройку в середину | !incomplete
от шара такого-то тройку в середину | !incomplete
тройку бортов в середину | !unexpected_word
шара тройку в середину | !unexpected_word
бортов | !unexpected_word
6 шаром 11 чисто в левый угол | !ambiguous
семь шаром двенадцать чисто в правый угол | !ambiguous
12 шаром 7 от борта в середину | !ambiguous
тройку чисто в левый угол | !ball_not_on_table | left=1,2,4,5
шестёркой тройку чисто в левый угол | !ball_not_on_table | left=3,5
тройку от шестерки в левый угол | !ball_not_on_table | left=3,7
карамболем от шестерки тройку в левый угол | !ball_not_on_table | left=3
тройку чисто в левый угол | 3 CL c>3 3>p | left=3,4
"""

LONG = [
    " ".join(["ну"] * 41) + " | !too_long",
    " ".join(["тройку чисто в левый угол"] * 13) + " | !too_long",
    " ".join(["ну"] * 35) + " тройку чисто в левый угол | 3 CL c>3 3>p",  # 40 words: the limit
]

LAST_BALL = """
чисто в правый угол | _ CR c>_ _>p | left=7
прямо в середину | _ M c>_ _>p | left=15
от борта в левый угол | _ CL c>_ _>b _>p | left=7
дуплетом в правую середину | _ MR c>_ _>b _>p | left=2
абриколем в правый угол | _ CR c>b c>_ _>p | left=7
чужой чисто в правый угол | _ CR c>_ _>p | left=7
прицельного чисто в правый угол | _ CR c>_ _>p | left=7
семёрку чисто в правый угол | 7 CR c>7 7>p | left=7
тройку чисто в правый угол | !ball_not_on_table | left=7
чисто в правый угол | !no_ball | left=7,8
в правый угол | !no_route | left=7
в правый угол | _ CR - | left=7 bp
в угол | !pocket_not_definite | left=7
чисто | !no_pocket | left=7
шестеркой в правый угол | !ball_not_on_table | left=7
# the unnamed ball is the one left (C5): it cannot go off itself or drive itself
от седьмого в левый угол | !contradiction | left=7
седьмым в левый угол | !contradiction | left=7
карамболем от седьмого в левый угол | !contradiction | left=7
чужой от семёрки в правый угол | !contradiction | left=7
"""

# pocket_precision "any" (Q2, a match setting): a corner call may leave
# out its side (side null); the kind (corner or middle) is still required, and
# near/far still contradict a middle pocket. The same texts without ``any`` are
# in POCKETS above (refused as pocket_not_definite under the default).
POCKET_ANY = """
тройку чисто в угол | 3 C c>3 3>p | any
тройку чисто в угол со стороны игрока | 3 C_N c>3 3>p | any
тройку чисто в угол на противоположной стороне | 3 C_F c>3 3>p | any
тройку в дальнюю угловую лузу | 3 C_F - | bp any
тройку чисто в дальний угол | 3 C_F c>3 3>p | any
тройку чисто в ближний угол | 3 C_N c>3 3>p | any
тройку чисто в свой угол | 3 C_N c>3 3>p | any
тройку чисто в угол к себе | 3 C_N c>3 3>p | any
тройку чисто в угловую лузу | 3 C c>3 3>p | any
тройку чисто в дальнюю угловую лузу | 3 C_F c>3 3>p | any
тройку чисто в угловую | 3 C c>3 3>p | any
в угол тройку чисто | 3 C c>3 3>p | any
шестёркой тройку от борта в дальний угол | 3 C_F c>6 6>3 3>b 3>p | any
тройку чисто в правый угол | 3 CR c>3 3>p | any
тройку чисто в левый дальний угол | 3 CLF c>3 3>p | any
тройку чисто в середину | 3 M c>3 3>p | any
тройку чисто в левую середину | 3 ML c>3 3>p | any
тройку чисто в лузу | !pocket_not_definite | any
тройку чисто в левую лузу | !pocket_not_definite | any
тройку чисто в левую | !pocket_not_definite | any
тройку чисто в дальнюю середину | !contradiction | any
тройку чисто в дальний ближний угол | !contradiction | any
тройку чисто в угол в середину | !contradiction | any
тройку чисто в угол в левый угол | 3 CL c>3 3>p | any
тройку чисто в | !incomplete | any
тройку в угол | !no_route | any
тройку в угол | 3 C - | bp any
тройку в угол | !pocket_not_definite | bp
чисто в угол | _ C c>_ _>p | left=7 any
в угол | _ C - | left=7 bp any
тройку чисто в угол пятёрку чисто в середину | 5 M c>5 5>p | any
тройку чисто в угол пятёрку чисто в середину | !contradiction
тройку в угол, нет, пятёрку чисто в угол | 5 C c>5 5>p | any
тройку в угол, нет, пятёрку чисто в угол | !pocket_not_definite
"""

BALL_AND_POCKET = """
тройку в левый угол | 3 CL - | bp
тройку в середину | 3 M - | bp
двенадцатого в правый дальний угол | 12 CRF - | bp
тройку чисто в левый угол | 3 CL - | bp
тройку от борта в середину | 3 M - | bp
шестёркой тройку в левую середину | 3 ML - | bp
тройку в угол | !pocket_not_definite | bp
в левый угол | !no_ball | bp
тройку | !no_pocket | bp
тройкой тройку в середину | 3 M - | bp
тройку чисто от борта в середину | 3 M - | bp
тройку в левый угол | !ball_not_on_table | bp left=5
тройку в левый угол пятерку в середину | 5 M - | bp
тройку в левый угол пятерку | !several_calls_unclear | bp
"""

SEVERAL = """
тройку в угол, нет, пятёрку чисто в левый угол | 5 CL c>5 5>p
тройку, вернее, пятёрку чисто в левый угол | 5 CL c>5 5>p
тройку чисто в левый угол, точнее в правый | 3 CR c>3 3>p
тройку чисто в левый угол, точнее в правый угол | 3 CR c>3 3>p
тройку чисто в левый угол, то есть тройку чисто в правый угол | 3 CR c>3 3>p
тройку чисто в левый угол, лучше пятёрку от борта в середину | 5 M c>5 5>b 5>p
тройку чисто в левый угол, отмена | !incomplete
нет, тройку чисто в левый угол | 3 CL c>3 3>p
тройку чисто в левый угол нет нет | !incomplete
тройку чисто в левый угол, нет, пятёрку от борта в середину | 5 M c>5 5>b 5>p
тройку чисто в левый угол пятёрку от борта в середину | 5 M c>5 5>b 5>p
тройку чисто в левый угол, вернее, тройку чисто в правый угол | 3 CR c>3 3>p
тройку чисто в левый угол, тройку чисто в левый угол | 3 CL c>3 3>p
тройку, тройку чисто в левый угол | 3 CL c>3 3>p
тройку чисто в левый угол, в левый угол | 3 CL c>3 3>p
тройку в левый угол чисто в левый угол | !contradiction
7 шаром 12 в середину 7 шаром 12 в середину тройку | !several_calls_unclear
тройку чисто в левый угол тройку от борта | !several_calls_unclear
тройку чисто в левый угол тройку | !several_calls_unclear
тройку шестёркой в левый угол тройку в левый угол | !several_calls_unclear
тройку шестёркой в левый угол тройку в левый угол | 3 CL - | bp
тройку в левый угол тройку чисто | !contradiction
тройку чисто в левый угол тройку от борта в середину | 3 M c>3 3>b 3>p
тройку чисто в левый угол пятёрку чисто в середину семёрку от борта в правый угол | 7 CR c>7 7>b 7>p
тройку чисто в левый угол пятёрку | !several_calls_unclear
тройку чисто в левый угол, пятёрку в середину | !several_calls_unclear
тройку чисто в левый угол и в середину | !contradiction
тройку чисто в левый угол шестёркой пятёрку в середину | 5 M c>6 6>5 5>p
"""


def _target(x: str):
    if x.isdigit():
        return int(x)
    return {"c": "cue", "b": "cushion", "k": "contre_coup", "p": "pocket", "_": None}[x]


def _pocket(code: str) -> dict:
    kind = {"C": "corner", "M": "middle"}[code[0]]
    side = {"L": "left", "R": "right"}.get(code[1:2]) if len(code) > 1 else None
    end = {"N": "near", "F": "far"}.get(code[2:3]) if len(code) > 2 else None
    return {"kind": kind, "side": side, "end": end}


def expand(line: str) -> dict:
    parts = [p.strip() for p in line.split(" | ")]
    text = line.split(" | ")[0]
    text = text if text.strip() else text  # blank texts stay as they are
    expect = parts[1]
    options = parts[2].split() if len(parts) > 2 else []
    record: dict = {"text": text}
    for opt in options:
        if opt == "bp":
            record["mode"] = "ball_and_pocket"
        elif opt == "any":
            record["pocket_precision"] = "any"
        elif opt.startswith("left="):
            record["balls_left"] = [int(x) for x in opt[5:].split(",")]
        else:
            raise ValueError(f"bad option {opt!r} in {line!r}")
    if expect.startswith("!"):
        record["refusal"] = expect[1:]
        return record
    ball, pocket, *route = expect.split()
    record["call"] = {
        "ball": None if ball == "_" else int(ball),
        "pocket": _pocket(pocket),
        "route": None if route == ["-"] else [[_target(a), _target(b)] for a, b in (c.split(">") for c in route)],
    }
    return record


# Whose cushion or kiss (C9): a postposed «от борта» / «от X» belongs to the ball word
# right before it (in players' usage «X от борта» is X off the cushion). Right after a
# driving ball, a carom or «абриколем» it may be that ball's (or the cue ball's)
# contact, not the called ball's: the reader cannot tell, so it is refused. So is
# a cushion said right before a driving ball, a carom or «абриколем» («от борта
# шестёркой тройку»: as «от борта тройку» is the three's, this may be the six's).
# Right after the called ball (whatever follows) it is the called ball's. A kiss after
# the drivers stays the called ball's: that is the rules' own template (C2).
ATTACH = """
тройку шестёркой от борта в середину | !ambiguous
шестёркой от борта тройку в середину | !ambiguous
тройку шестёркой дуплетом в середину | !ambiguous
шестёркой от контр-ку тройку в середину | !ambiguous
тремя шарами пятым девятым вторым от борта тройку в середину | !ambiguous
карамболем от шестёрки от борта тройку в левый угол | !ambiguous
карамболем от шестёрки от семёрки тройку в левый угол | !ambiguous
от борта абриколем тройку в левый угол | !ambiguous
тройку от борта абриколем в левый угол | 3 CL c>b c>3 3>b 3>p
тройку абриколем от шестёрки в середину | !ambiguous
тройку от шестёрки абриколем в середину | 3 M c>b c>3 3>6 3>p
тройку от борта шестёркой в середину | 3 M c>6 6>3 3>b 3>p
шестёркой тройку от борта в середину | 3 M c>6 6>3 3>b 3>p
от борта шестёркой тройку в середину | !ambiguous
в середину от двух бортов семёркой тройку | !ambiguous
от борта карамболем от шестёрки тройку в левый угол | !ambiguous
от семёрки карамболем от шестёрки тройку в левый угол | !ambiguous
от борта битком тройку в левый угол | !ambiguous
от шестёрки семёркой тройку в середину | 3 M c>7 7>3 3>6 3>p
тройку от борта битком в левый угол | 3 CL c>3 3>b 3>p
карамболем от шестёрки тройку от борта в левый угол | 3 CL c>6 c>3 3>b 3>p
абриколем тройку от борта в левый угол | 3 CL c>b c>3 3>b 3>p
тройку от семёрки карамболем от шестёрки в левый угол | 3 CL c>6 c>3 3>7 3>p
тремя шарами пятым девятым вторым тройку от борта в середину | 3 M c>5 5>9 9>2 2>3 3>b 3>p
тройку шестёркой от борта в середину | 3 M - | bp
пятёрку чисто в левый угол, тройку шестёркой от борта в середину | !ambiguous
пятёрку чисто в левый угол, тройку от борта в середину | 3 M c>3 3>b 3>p
"""


# The cue ball named (биток, свой): never the called ball, so with one
# ball left «биток чисто в угол» names no object ball (C5 lets the number go, not the
# ball); a contact said right after it is the cue ball's (абриколь, a carom), so it
# is refused, never given to the called ball (C9). Elsewhere it says nothing.
CUE_BALL = """
биток чисто в левый угол | !no_ball | left=7
биток в левый угол | !no_ball | left=7
свой шар чисто в правый угол | !no_ball | left=7
биток чисто в левый угол | !no_ball
битком от борта тройку в левый угол | !ambiguous
тройку битком от борта в левый угол | !ambiguous
битком от шестёрки тройку в левый угол | !ambiguous
своим шаром от борта тройку в левый угол | !ambiguous
битком тройку от борта в левый угол | 3 CL c>3 3>b 3>p
битком шестёркой тройку в середину | 3 M c>6 6>3 3>p
чужой чисто в левый угол битком | _ CL c>_ _>p | left=7
битком от борта тройку в левый угол | 3 CL - | bp
# «удар от борта»: in some glossaries the cue ball off the cushion first
удар от борта тройку в левый угол | !ambiguous
тройку ударом от борта в середину | !ambiguous
тройку от борта ударом в середину | 3 M c>3 3>b 3>p
"""


# A named shot (дуплет: one cushion, триплет: two, труабан: three; круазе, оборотный
# дуплет: one) said beside «от борта» with the same count names the same cushions:
# «тройку дуплетом от борта» is one bank, never two. A different count, or the two
# said apart, leave it unclear whether they are the same cushions (C9).
SHOTS = """
тройку дуплетом от борта в середину | 3 M c>3 3>b 3>p
тройку от борта дуплетом в середину | 3 M c>3 3>b 3>p
тройку триплетом от двух бортов в середину | 3 M c>3 3>b 3>b 3>p
тройку круазе от борта в левый угол | 3 CL c>3 3>b 3>p
тройку от двух бортов дуплетом в середину | !ambiguous
дуплетом тройку от борта в середину | !ambiguous
тройку дуплетом дуплетом в середину | !ambiguous
тройку дуплетом от борта в середину | 3 M - | bp
тройку через борт в середину | 3 M c>3 3>b 3>p
тройку через два борта в левый угол | 3 CL c>3 3>b 3>b 3>p
через три борта тройку в середину | 3 M c>3 3>b 3>b 3>b 3>p
тройку через борт от борта в середину | 3 M c>3 3>b 3>p
тройку через два борта от борта в середину | !ambiguous
тройку через шестёрку в середину | !unknown_word
тройку чистым ударом в левый угол | 3 CL c>3 3>p
тройку от двух бортов дуплетом в середину | 3 M - | bp
"""



# Pockets as players name them, generated over the whole space: every
# word order of the side, the end and the noun (or none), in the forms that agree,
# with the ball and the way before or after. The expectation follows from the
# words alone (Q2): an end word says corner; a side with no
# kind («в левую лузу», «в левую») is the corner or the middle pocket: refused;
# a middle pocket has no end; a corner needs its side.
_SIDES = {"L": ("левый", "левую"), "R": ("правый", "правую")}
_ENDS = {"F": ("дальний", "дальнюю"), "N": ("ближний", "ближнюю")}
_END_PHRASES = {"N": ("к себе", "со стороны игрока"), "F": ("на противоположной стороне",)}
# noun words → (kind or None, grammatical gender for agreement: 0 masc, 1 fem)
_NOUNS = [("угол", "C", 0), ("угловую", "C", 1), ("угловую лузу", "C", 1), ("лузу", None, 1),
          ("", None, None), ("середину", "M", 1), ("среднюю", "M", 1), ("среднюю лузу", "M", 1),
          ("центральную", "M", 1), ("центральную лузу", "M", 1), ("центр", "M", 0),
          ("серединку", "M", 1), ("уголок", "C", 0)]
_CALLS = [("тройку чисто", "3", "c>3 3>p"), ("двенадцатого от борта", "12", "c>12 12>b 12>p"),
          ("шестёркой туза", "1", "c>6 6>1 1>p")]


def _expect_pocket(kind, side, end):
    if kind is None and end:
        kind = "C"
    if kind == "M" and end:
        return "!contradiction"
    if kind is None:
        return "!pocket_not_definite"
    if kind == "C" and not side:
        return "!pocket_not_definite"
    return kind + (side or "") + (end or "")


def _pocket_lines() -> list[str]:
    from itertools import permutations

    lines = []
    k = 0
    for noun, kind, gender in _NOUNS:
        for side in (None, "L", "R"):
            for end in (None, "F", "N"):
                g = 1 if gender is None else gender
                words = [w for w in ((_SIDES[side][g] if side else None), (_ENDS[end][g] if end else None),
                                     noun or None) if w]
                if not words:
                    continue
                expect = _expect_pocket(kind, side, end)
                for order in permutations(words):
                    say, ball, route = _CALLS[k % len(_CALLS)]
                    k += 1
                    pocket = "в " + " ".join(order)
                    text = f"{say} {pocket}" if k % 2 else f"{pocket} {say}"
                    lines.append(f"{text} | {expect if expect.startswith('!') else f'{ball} {expect} {route}'}")
                if end and noun != "":  # the end said as a phrase, after the pocket or before «в»
                    for phrase in _END_PHRASES[end]:
                        rest = " ".join(w for w in (_SIDES[side][g] if side else None, noun) if w)
                        say, ball, route = _CALLS[k % len(_CALLS)]
                        k += 1
                        for text in (f"{say} в {rest} {phrase}", f"{phrase} в {rest} {say}"):
                            lines.append(f"{text} | {expect if expect.startswith('!') else f'{ball} {expect} {route}'}")
    return lines


# «свой» names the near end («свой угол», «в свой левый», «в свою правую лузу»);
# «чужой» is the object ball everywhere, never a pocket.
OWN_END = """
тройку чисто в угол, в правый | 3 CR c>3 3>p
в угол в левый дальний тройку от борта | 3 CLF c>3 3>b 3>p
тройку чисто в левый угол в правый угол | !contradiction
тройку чисто в свой левый | 3 CLN c>3 3>p
тройку чисто в свою правую лузу | 3 CRN c>3 3>p
в свою левую тройку от борта | 3 CLN c>3 3>b 3>p
тройку чисто в свою лузу | !pocket_not_definite
тройку чисто в свою левую середину | !contradiction
тройку чисто в чужой угол | !incomplete
тройку чисто в чужую лузу | !unknown_word
тройку чисто в левую лузу | !pocket_not_definite
тройку чисто в левую | !pocket_not_definite
тройку чисто в левый | !pocket_not_definite
"""


# What a Russian club marker tried (the tester's report): «чужой» is the object ball in
# every word order, never a pocket's end; «слева» / «справа» are side words before or
# after the pocket noun; «свою середину» is the near end of a pocket that has none; an
# unfinished second call is Q8 however it stops; «нет, не X, а Y» replaces the pocket said.
MARKER = """
тройку чисто в правый чужой угол | !incomplete
тройку чисто в чужой правый угол | !incomplete
тройку чисто чужой в правый угол | !incomplete
в правый чужой угол тройку от борта | !incomplete
тройку чисто в правую чужую лузу | !unknown_word
тройку чисто в правый угол чужой | !several_calls_unclear
чужой чисто в правый угол | _ CR c>_ _>p | left=7
тройку чисто в дальний угол слева | 3 CLF c>3 3>p
тройку чисто слева в дальний угол | 3 CLF c>3 3>p
тройку чисто в угол справа | 3 CR c>3 3>p
справа в ближний угол тройку от борта | 3 CRN c>3 3>b 3>p
тройку чисто в середину слева | 3 ML c>3 3>p
тройку чисто в угол слева к себе | 3 CLN c>3 3>p
тройку чисто в угол слева справа | !contradiction
тройку от борта слева в угол | !ambiguous
тройку от борта в угол слева | 3 CL c>3 3>b 3>p
тройку дуплетом справа в дальний угол | !ambiguous
тройку чисто в свою середину | !contradiction
тройку чисто в свою серединку | !contradiction
тройку чисто в свою лузу | !pocket_not_definite
тройку чисто к себе в левый | 3 CLN c>3 3>p
тройку чисто в правый угол пятёрку | !several_calls_unclear
тройку чисто в левый угол и пятёрку от | !several_calls_unclear
тройку чисто в левый угол, пятёрку карамболем | !several_calls_unclear
тройку от в середину | !incomplete
тройку от в середину | 3 M - | bp
тройку чисто в правый угол, нет, от шестёрки | 3 CR c>3 3>6 3>p
тройку чисто в правый угол, нет, не в правый, а в левый | 3 CL c>3 3>p
тройку чисто в правый угол, не в правый, а в левую середину | 3 ML c>3 3>p
тройку чисто в правый дальний угол, нет, не в правый, а в левый | 3 CLF c>3 3>p
тройку чисто в правый угол, нет, не тройку, а пятёрку | 5 CR c>5 5>p
тройку от борта в правый угол, нет, не от борта, а чисто | 3 CR c>3 3>p
тройку чисто в правый угол, нет, не в левый, а в середину | !incomplete
тройку чисто в правый угол, нет, не пятёрку, а семёрку | !incomplete
"""


# Corrections (C9): a correction of the ball, the pocket or the way alone
# replaces that part and keeps the rest; «отмена» takes the whole call back; «не X,
# а Y» replaces X by Y, and with no «а» (or no Y of X's kind) it is refused.
_BASE = ("тройку", "чисто", "в правый угол")  # ball 3, straight, right corner
_FIX_BALL = [("пятёрку", "5"), ("двенадцатый шар", "12"), ("туза", "1")]
_FIX_POCKET = [("в левый", "CL"), ("в левый угол", "CL"), ("в левую середину", "ML"), ("в дальний", "CRF"),
               ("в левый дальний угол", "CLF"), ("в середину", "M"), ("в ближний", "CRN")]
_FIX_WAY = [("от борта", "{b} b"), ("шестёркой", "6 {b}"), ("от двух бортов", "{b} b b"), ("чисто", "{b}")]
_MARKERS = ["нет", "вернее", "точнее", "то есть", "ой", "лучше"]


def _route_of(ball: str, way: str) -> str:
    way = way.format(b=ball).split()
    if way[0] == ball and len(way) == 1:
        return f"c>{ball} {ball}>p"
    if way[0] == ball:  # cushions
        return f"c>{ball} " + " ".join(f"{ball}>b" for _ in way[1:]) + f" {ball}>p"
    return f"c>{way[0]} {way[0]}>{ball} {ball}>p"  # a driving ball


def _correction_lines() -> list[str]:
    lines = []
    k = 0
    for fix, ball in _FIX_BALL:
        for marker in _MARKERS[:3]:
            lines.append(f"тройку чисто в правый угол, {marker}, {fix} | {ball} CR {_route_of(ball, '{b}')}")
        lines.append(f"не тройку, а {fix} чисто в правый угол | {ball} CR {_route_of(ball, '{b}')}")
        lines.append(f"в правый угол не тройку, а {fix} чисто | {ball} CR {_route_of(ball, '{b}')}")
    for fix, pocket in _FIX_POCKET:
        marker = _MARKERS[k % len(_MARKERS)]
        k += 1
        lines.append(f"тройку чисто в правый угол, {marker} {fix} | 3 {pocket} c>3 3>p")
        lines.append(f"в правый угол тройку от борта, {marker}, {fix} | 3 {pocket} c>3 3>b 3>p")
        lines.append(f"тройку не в правый угол, а {fix} чисто | 3 {pocket} c>3 3>p")
    for fix, way in _FIX_WAY:
        marker = _MARKERS[k % len(_MARKERS)]
        k += 1
        lines.append(f"тройку чисто в правый угол, {marker}, {fix} | 3 CR {_route_of('3', way)}")
        lines.append(f"тройку в правый угол от двух бортов, {marker} {fix} | 3 CR {_route_of('3', way)}")
        lines.append(f"тройку не от трёх бортов, а {fix} в правый угол | 3 CR {_route_of('3', way)}")
    lines += [
        "тройку чисто в правый угол, вернее пятёрку в левую середину | 5 ML c>5 5>p",
        "тройку чисто в правый угол, нет, пятёрку от борта в середину | 5 M c>5 5>b 5>p",
        "тройку чисто в правый дальний угол, вернее в левый | 3 CLF c>3 3>p",
        "тройку чисто в правый угол, нет, от борта, вернее в левый | 3 CL c>3 3>b 3>p",
        "тройку чисто в правый угол отмена пятёрку чисто в середину | 5 M c>5 5>p",
        "тройку чисто в правый угол отмена в середину | !no_ball",
        "тройку чисто в правый угол, нет | !incomplete",
        "тройку чисто в правый угол, вернее | !incomplete",
        "не тройку чисто в правый угол | !incomplete",
        "не тройку, а в правый угол чисто | !incomplete",
        "тройку не в правый угол, а пятёрку чисто | !incomplete",
        "нет, тройку чисто в правый угол | 3 CR c>3 3>p",
        "тройку чисто в правый угол, вернее в лузу | !pocket_not_definite",
        "тройку чисто в правую середину, вернее в дальний | !contradiction",
        "тройку чисто в правый угол, нет, в | !incomplete",
        # «X, а не Y»: Y is what the part said right before is not
        "пятёрку, а не тройку, чисто в правый угол | 5 CR c>5 5>p",
        "в левый угол, а не в правый, тройку чисто | 3 CL c>3 3>p",
        "тройку от борта, а не чисто, в левый угол | 3 CL c>3 3>b 3>p",
        "тройку, а не в правый угол, чисто в левый угол | !incomplete",
        "тройку чисто в правый угол, а не | !incomplete",
        # a correction in the middle of the call: the rest goes on
        "тройку, вернее пятёрку, чисто в правый угол | 5 CR c>5 5>p",
        "тройку чисто, нет, от борта, в правый угол | 3 CR c>3 3>b 3>p",
        "тройку в правый, нет, в левый угол чисто | 3 CL c>3 3>p",
        "тройку чисто в правый, то есть в левый угол | 3 CL c>3 3>p",
        "тройку чисто в правую, точнее в левую середину | 3 ML c>3 3>p",
    ]
    return lines


FILES = {
    "seed.jsonl": SEED, "ball_forms.jsonl": BALL_FORMS, "ball_cases.jsonl": CASES, "digits.jsonl": DIGITS,
    "kiss.jsonl": KISS,
    "drivers.jsonl": DRIVERS, "route_words.jsonl": ROUTE_WORDS, "pockets.jsonl": POCKETS,
    "word_order.jsonl": ORDER, "fillers.jsonl": FILLERS, "refusals.jsonl": REFUSALS, "long.jsonl": LONG,
    "last_ball.jsonl": LAST_BALL, "ball_and_pocket.jsonl": BALL_AND_POCKET, "several_calls.jsonl": SEVERAL,
    "vocabulary.jsonl": VOCAB, "pocket_precision.jsonl": POCKET_ANY, "tuz.jsonl": TUZ,
    "attachment.jsonl": ATTACH, "cue_ball.jsonl": CUE_BALL,
    "named_shots.jsonl": SHOTS,
    "pocket_names.jsonl": _pocket_lines() + [x for x in OWN_END.split("\n") if " | " in x],
    "corrections.jsonl": _correction_lines(),
    "marker.jsonl": MARKER,
}


def main() -> None:
    total = 0
    for name, source in FILES.items():
        lines = source if isinstance(source, list) else [x for x in source.split("\n") if " | " in x]
        records = [expand(x) for x in lines]
        total += len(records)
        with open(HERE / name, "w", encoding="utf-8") as fh:
            for r in records:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{total} annotated calls")


if __name__ == "__main__":
    main()
