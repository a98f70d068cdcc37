"""A refused call: the code (DESIGN.md), where (char span), and the reason a referee gives.

Messages and hints are Russian by default and English with ``lang="en"``.
Codes: the DESIGN.md set (empty, unknown_word, no_ball, no_pocket,
pocket_not_definite, no_route, several_calls_unclear, contradiction, ambiguous,
count_mismatch, ball_not_on_table, incomplete) plus two added here: ``too_long``
(over 60 words, refused at once) and ``unexpected_word`` (a known word where no
phrase of a call can use it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CODES = (
    "empty", "unknown_word", "no_ball", "no_pocket", "pocket_not_definite", "no_route",
    "several_calls_unclear", "contradiction", "ambiguous", "count_mismatch",
    "ball_not_on_table", "incomplete", "too_long", "unexpected_word",
)

# The clause each refusal rests on (RULES.md).
CLAUSES = {
    "empty": "C9", "unknown_word": "C4", "no_ball": "C2", "no_pocket": "C2",
    "pocket_not_definite": "Q2", "no_route": "C2", "several_calls_unclear": "Q8",
    "contradiction": "C9", "ambiguous": "C9", "count_mismatch": "C2",
    "ball_not_on_table": "C2", "incomplete": "C9", "too_long": "C4", "unexpected_word": "C4",
}

# (code, reason) → (ru message, en message, ru hint, en hint); reason "" is the default.
# Fields in braces come from the refusal's params.
TEXTS: dict[tuple[str, str], tuple[str, str, str, str]] = {
    ("empty", ""): (
        "заказа нет: не сказано ни шара, ни лузы",
        "there is no call: no ball and no pocket were said",
        "назовите шар, лузу и как он упадёт, например: «{example}»",
        "name the ball, the pocket and the way, e.g. «{example}»",
    ),
    ("too_long", ""): (
        "заказ слишком длинный (больше {limit} слов): судья такой не примет (C4)",
        "the call is too long (over {limit} words): a referee would not take it (C4)",
        "скажите заказ коротко: шар, луза и как он упадёт, например: «{example}»",
        "say it briefly: ball, pocket and way, e.g. «{example}»",
    ),
    ("unknown_word", ""): (
        "неизвестное слово «{word}» (слово {position})",
        "unknown word «{word}» (word {position})",
        "в заказе бывают только номера шаров, лузы и способ: например, «{example}»",
        "a call holds only ball numbers, pockets and the way: e.g. «{example}»",
    ),
    ("unknown_word", "no_such_ball"): (
        "«{word}» (слово {position}): шара с таким номером нет, шары от 1 до 15",
        "«{word}» (word {position}): there is no such ball; balls are 1 to 15",
        "назовите шар от 1 до 15, например: «{example}»",
        "name a ball from 1 to 15, e.g. «{example}»",
    ),
    ("unexpected_word", ""): (
        "слово «{word}» (слово {position}) здесь ни к чему не относится",
        "the word «{word}» (word {position}) belongs to nothing here",
        "скажите, например: «{example}»",
        "say, for example: «{example}»",
    ),
    ("incomplete", ""): (
        "заказ не закончен: после «{word}» не хватает: {expected}",
        "the call is not finished: after «{word}» {expected_en} was expected",
        "договорите, например: «{example}»",
        "finish it, e.g. «{example}»",
    ),
    ("incomplete", "placeholder"): (
        "«{word}» — это не номер шара: в образце из правил на этом месте называют шар",
        "«{word}» is not a ball number: in the rules' template a ball is named here",
        "назовите шары, например: «{example}»",
        "name the balls, e.g. «{example}»",
    ),
    ("incomplete", "count_without_balls"): (
        "сказано «{word}», но не сказано, какими именно шарами (C2)",
        "«{word}» was said, but not which balls (C2)",
        "назовите каждый шар, например: «{example}»",
        "name each ball, e.g. «{example}»",
    ),
    ("incomplete", "retracted"): (
        "заказ отменён словом «{word}», а новый не сказан (C9)",
        "the call was taken back with «{word}» and no new one was said (C9)",
        "скажите заказ заново, например: «{example}»",
        "say the call again, e.g. «{example}»",
    ),
    ("incomplete", "not_without_but"): (
        "сказано «{word}», но не сказано, что вместо этого: поправку говорят «не …, а …» (C9)",
        "«{word}» was said, but not what instead: a correction is «не …, а …» (C9)",
        "скажите, например: «не тройку, а пятёрку чисто в левый угол»",
        "say, e.g. «не тройку, а пятёрку чисто в левый угол»",
    ),
    ("incomplete", "correction_unplaced"): (
        "поправка «{word}» ничего не заменяет: после «не» и «а» называют одно и то же — шар, лузу "
        "или способ (C9)",
        "the correction «{word}» replaces nothing: «не» and «а» are followed by the same part, "
        "the ball, the pocket or the way (C9)",
        "скажите, например: «не тройку, а пятёрку чисто в левый угол» или «пятёрку, а не тройку, "
        "чисто в левый угол»",
        "say, e.g. «не тройку, а пятёрку чисто в левый угол» or «пятёрку, а не тройку, чисто в левый угол»",
    ),
    ("unknown_word", "obj_form"): (
        "«{word}» (слово {position}): «чужой» в заказе значит прицельный шар, а лузу так не называют",
        "«{word}» (word {position}): «чужой» in a call means an object ball; it does not name a pocket",
        "дальнюю лузу называют «дальний», свою — «ближний» или «свой угол»: «в левый дальний угол»",
        "say the far pocket with «дальний», your own with «ближний» or «свой угол»: «в левый дальний угол»",
    ),
    ("incomplete", "v_without_pocket"): (
        "после «в» не названа луза",
        "no pocket is named after «в»",
        "назовите лузу: «в левый угол», «в правый дальний угол», «в середину»",
        "name the pocket: «в левый угол», «в правый дальний угол», «в середину»",
    ),
    ("no_ball", ""): (
        "не назван шар (C2)",
        "no ball is named (C2)",
        "назовите номер шара, например: «{example}»",
        "name the ball's number, e.g. «{example}»",
    ),
    ("no_ball", "obj"): (
        "шар без номера («{word}») можно заказать, только когда на столе остался один шар (C5)",
        "a ball without a number («{word}») may be called only when one ball is left (C5)",
        "назовите номер шара, например: «{example}»",
        "name the ball's number, e.g. «{example}»",
    ),
    ("no_ball", "cue"): (
        "«{word}» — это свой шар (биток), его не заказывают: не назван прицельный шар (C2, C5)",
        "«{word}» is the cue ball, which is never called: no object ball is named (C2, C5)",
        "назовите прицельный шар, например: «{example}»",
        "name the object ball, e.g. «{example}»",
    ),
    ("no_pocket", ""): (
        "не названа луза (C2)",
        "no pocket is named (C2)",
        "добавьте лузу, например: «{example}»",
        "add the pocket, e.g. «{example}»",
    ),
    ("pocket_not_definite", ""): (
        "луза названа неточно: «{word}»: не сказано, левый угол или правый (Q2)",
        "the pocket is not definite: «{word}»: it is not said whether the corner is the left or the right one (Q2)",
        "скажите {options}",
        "say {options_en}",
    ),
    # a side and no kind: the corner and the middle pocket on that side both fit
    ("pocket_not_definite", "side_only"): (
        "«{word}»: так называют и угол, и середину на этой стороне (Q2)",
        "«{word}» names both the corner and the middle pocket on that side (Q2)",
        "скажите {options}",
        "say {options_en}",
    ),
    # no kind, no side, no end («в лузу»)
    ("pocket_not_definite", "no_kind"): (
        "не сказано, угол это или середина: «{word}» (Q2)",
        "it is not said whether the pocket is a corner or a middle one: «{word}» (Q2)",
        "скажите {options}",
        "say {options_en}",
    ),
    # «чужой» is an object ball (C5), never a pocket's end
    ("incomplete", "obj_as_pocket"): (
        "«{word}» — это прицельный шар, а не луза: после «в» луза не названа",
        "«{word}» means an object ball, not a pocket: no pocket is named after «в»",
        "дальнюю лузу называют «дальний», свою — «ближний» или «свой угол»: «в левый дальний угол»",
        "say the far pocket with «дальний», your own with «ближний» or «свой угол»: «в левый дальний угол»",
    ),
    ("no_route", ""): (
        "не сказано, как упадёт шар: при чистом назначении это обязательно (C2)",
        "the way the ball falls is not said: clean designation requires it (C2)",
        "добавьте способ, например: «{example}» (или играйте «шар и луза»)",
        "add the way, e.g. «{example}» (or play ball-and-pocket)",
    ),
    ("several_calls_unclear", ""): (
        "после заказа начат другой и не закончен: «{word}» (Q8, C9)",
        "after a call another one was started and not finished: «{word}» (Q8, C9)",
        "повторите весь заказ целиком, например: «{example}»",
        "say the whole call again, e.g. «{example}»",
    ),
    ("contradiction", "two_balls"): (
        "в одном заказе два шара: {first} и {second} (C9)",
        "two balls in one call: {first} and {second} (C9)",
        "заказывается один шар: «{example}»",
        "one ball is called: «{example}»",
    ),
    ("contradiction", "two_pockets"): (
        "в одном заказе две лузы (C9; шар заказывают в одну лузу)",
        "two pockets in one call (C9; a ball is called into one pocket)",
        "назовите одну лузу: «{example}»",
        "name one pocket: «{example}»",
    ),
    ("contradiction", "pocket_words"): (
        "луза описана противоречиво: «{word}»",
        "the pocket words contradict each other: «{word}»",
        "назовите одну лузу: «в левый угол», «в правую середину»",
        "name one pocket: «в левый угол», «в правую середину»",
    ),
    ("contradiction", "middle_end"): (
        "у средней лузы нет ближней и дальней: «{word}»",
        "a middle pocket has no near or far end: «{word}»",
        "скажите {options}",
        "say {options_en}",
    ),
    ("contradiction", "self"): (
        "шар {ball} не может играть сам себя (C9)",
        "ball {ball} cannot play itself (C9)",
        "назовите другой шар, например: «{example}»",
        "name another ball, e.g. «{example}»",
    ),
    ("contradiction", "repeated"): (
        "шар {ball} назван в пути дважды (C9)",
        "ball {ball} is named twice in the way (C9)",
        "назовите каждый шар один раз, например: «{example}»",
        "name each ball once, e.g. «{example}»",
    ),
    ("contradiction", "clean_and_contact"): (
        "«{word}» (прямо в лузу) противоречит касанию {contact} (C9)",
        "«{word}» (straight in) contradicts the contact {contact} (C9)",
        "скажите одно из двух, например: «{example}»",
        "say one of the two, e.g. «{example}»",
    ),
    ("ambiguous", ""): (
        "заказ можно понять по-разному: {readings} (C9)",
        "the call can be read in different ways: {readings} (C9)",
        "скажите так, чтобы прочтение было одно, например: «{example}»",
        "say it so that it has one reading, e.g. «{example}»",
    ),
    ("ambiguous", "whose_contact"): (
        "непонятно, чьё это касание: «{word}» сказано вплотную к «{contact}», "
        "это может быть путь того шара (или битка), а не заказанного (C9)",
        "it is unclear whose contact «{word}» is: said right next to «{contact}», it may be "
        "that ball's (or the cue ball's) way, not the called ball's (C9)",
        "скажите касание сразу после заказанного шара, например: «{example}»",
        "say the contact right after the called ball, e.g. «{example}»",
    ),
    ("ambiguous", "cushions_twice"): (
        "«{word}» и «{contact}»: это одни и те же борта или разные? (C9)",
        "«{word}» and «{contact}»: the same cushions or more of them? (C9)",
        "назовите борта один раз: «тройку от борта в середину», «тройку от двух бортов в середину»",
        "name the cushions once: «тройку от борта в середину», «тройку от двух бортов в середину»",
    ),
    ("ambiguous", "too_many"): (
        "слишком много прочтений: судья не разберётся (C4)",
        "too many readings: a referee could not follow it (C4)",
        "скажите проще, например: «{example}»",
        "say it more simply, e.g. «{example}»",
    ),
    ("count_mismatch", ""): (
        "сказано «{word}» ({count}), а шаров названо {named} (C2)",
        "«{word}» ({count}) was said, but {named} ball(s) are named (C2)",
        "число шаров должно совпадать с названными: «{example}»",
        "the count must match the balls named: «{example}»",
    ),
    ("ball_not_on_table", ""): (
        "шара {ball} нет на столе (C2)",
        "ball {ball} is not on the table (C2)",
        "на столе: {on_table}",
        "on the table: {on_table}",
    ),
}

EXPECTED = {
    "ball": ("номер шара", "a ball number"),
    "ball_or_cushion": ("шар или борт («от шестёрки», «от борта»)", "a ball or a cushion"),
    "of_ball": ("«от» и шар («карамболем от шестёрки»)", "«от» and a ball"),
    "cushions": ("«бортов»", "«бортов» (cushions)"),
    "balls": ("«шарами» и какие шары", "«шарами» and which balls"),
    "more": ("продолжение заказа", "more of the call"),
}


MAX_QUOTE = 60  # longer words are cut in messages (the span still covers them)


@dataclass(frozen=True)
class Refusal:
    """A refused call: ``code``, ``span`` (char offsets in the input) and params."""

    code: str
    span: tuple[int, int]
    reason: str = ""
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown refusal code {self.code!r}")

    @property
    def clause(self) -> str:
        return CLAUSES[self.code]

    def _texts(self) -> tuple[str, str, str, str]:
        return TEXTS.get((self.code, self.reason)) or TEXTS[(self.code, "")]

    def _fill(self, template: str, lang: str) -> str:
        params = dict(self.params)
        for key in ("word", "first", "second", "contact"):
            value = params.get(key)
            if isinstance(value, str):
                if len(value) > MAX_QUOTE:
                    value = value[:MAX_QUOTE] + "…"
                # control and other unprintable characters are shown escaped
                params[key] = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in value)
        params.setdefault("example", "тройку чисто в левый угол")
        expected = EXPECTED.get(params.get("expected_key", "more"), EXPECTED["more"])
        params.setdefault("expected", expected[0])
        params.setdefault("expected_en", expected[1])
        if lang == "en":
            for key in ("readings", "options"):
                if f"{key}_en" in params:
                    params[key] = params[f"{key}_en"]
        try:
            return template.format(**params)
        except (KeyError, IndexError):  # a param a template needs is missing
            return template

    def message(self, lang: str = "ru") -> str:
        ru, en, _, _ = self._texts()
        return self._fill(en if lang == "en" else ru, lang)

    def hint(self, lang: str = "ru") -> str:
        _, _, ru, en = self._texts()
        return self._fill(en if lang == "en" else ru, lang)

    def to_json(self, lang: str = "ru") -> dict:
        return {
            "code": self.code,
            "message": self.message(lang),
            "span": [self.span[0], self.span[1]],
            "hint": self.hint(lang),
        }
