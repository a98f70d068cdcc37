"""Build the call-language lexicon (``data/lexicon.json``) from real morphology.

Every word form the call language knows, with its tags, generated with
pymorphy3 (noun and adjective paradigms) and unicode-rbnf (ordinal and cardinal
numbers in every case) -- not typed in by hand. Jargon words that the
dictionaries do not know (абриколем, контр-ку, круазе...) are listed with the
forms players use (the call words: docs/calls.md).

Run ``python -m pyramid_referee.grammar.lexicon_build`` to rewrite the shipped
file; ``tests/test_grammar_lexicon.py`` checks that the shipped file equals a
fresh generation.

Tags (the lexer turns them into grammar terminals, see ``calls.lark``):

- ``B_NOM:n``   ball n as the called ball (nominative / accusative)
- ``B_GEN:n``   ball n in the genitive (after «от»)
- ``B_INS:n``   ball n in the instrumental (a ball that drives the called ball)
- ``B_BARE:n``  a case-less number word («двенадцать»): the called ball, or a
                ball named after «от шара», «шаром», «номер»
- ``NUM_GEN:n`` a count in the genitive («от двух бортов»)
- ``NUM_ELL:n`` a count of 1-3 that may stand for «от n бортов» with the noun left
  out («тройку от двух в середину»: ball 2, or two cushions?)
- ``COUNT_INS:n`` a count in the instrumental («тремя шарами»)
- pocket words ``V``, ``CORNER``, ``MIDDLE``, ``LUZA``, ``SIDE:left|right``,
  ``END:near|far``; ``MASC`` on a side word in the masculine («левый», «правый»):
  of the pocket nouns only «угол» agrees with it, so with no noun it says corner
- route words ``OT``, ``CLEAN``, ``BORTA``, ``BORTOV``, ``CUSHIONS:n``,
  ``ABRIK``, ``KARAMBOL``, ``KONTRKU``, ``SHARA``, ``SHAROM``, ``SHARAMI``
- ``OBJ`` an object ball without a number (C5), ``CUE`` the cue ball (биток,
  битком, своим шаром: says nothing of the call, but a contact said right after
  it is the cue ball's), ``STROKE`` (удар, ударом: likewise; «удар от борта» may
  be the cue ball's cushion), ``PLACEHOLDER`` (такой-то),
  ``TECH`` (stroke technique: not binding), ``FILLER`` (ignored), ``CORR``
  (a correction, «нет», «вернее»: what follows replaces the same part of the call,
  C9; ``CORR:reset`` «отмена» takes the whole call back), ``NOT`` («не тройку, а
  пятёрку»: the part after «не» is replaced by the same part after «а»)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("data") / "lexicon.json"
VERSION = 2  # 2: the «beyond» numbers (no ball has them)

# Numbers said as words that no ball has: 0 and 16-20, the tens and 100, in every ordinal and
# cardinal form. They are no call words: a call that names one is refused saying that there
# is no such ball («шестнадцатый» → «шара 16 нет»), and «двадцать первый» is 21 (the lexer
# joins a ten and a unit word).
BEYOND = (0, 16, 17, 18, 19, 20, 30, 40, 50, 60, 70, 80, 90, 100)

# Balls 1-10 have nouns («тройка», «десятка»); 11-15 have none. Ball 1 is said «туз» (the last
# noun: what render says), «единица» and «единичка» are read too.
BALL_NOUNS = {
    1: ("единица", "единичка", "туз"),
    2: ("двойка",),
    3: ("тройка",),
    4: ("четвёрка",),
    5: ("пятёрка",),
    6: ("шестёрка",),
    7: ("семёрка",),
    8: ("восьмёрка",),
    9: ("девятка",),
    10: ("десятка",),
}

# Adjective and noun lexemes for pockets (all singular forms of each).
POCKET_LEXEMES = {
    "левый": "SIDE:left",
    "правый": "SIDE:right",
    "дальний": "END:far",
    "ближний": "END:near",
    "угловой": "CORNER",
    "угол": "CORNER",
    "средний": "MIDDLE",
    "центральный": "MIDDLE",
    "середина": "MIDDLE",
    "центр": "MIDDLE",
    "серединка": "MIDDLE",
    "уголок": "CORNER",  # «в серединку», «в левый уголок»
    "луза": "LUZA",
}

# Jargon and function words, as players say them. Words a
# dictionary inflects are expanded with pymorphy3 below where marked.
FIXED = {
    "в": ["V"],
    "во": ["V"],
    "от": ["OT"],
    "чисто": ["CLEAN"],
    "прямо": ["CLEAN"],
    "прямой": ["CLEAN"],
    "напрямую": ["CLEAN"],
    "прямым": ["CLEAN"],
    "чистым": ["CLEAN"],  # «чистым ударом»
    "борта": ["BORTA"],
    "бортов": ["BORTOV"],
    "борт": ["BORTA"],
    "дуплет": ["CUSHIONS:1"],
    "дуплетом": ["CUSHIONS:1"],
    "триплет": ["CUSHIONS:2"],
    "триплетом": ["CUSHIONS:2"],
    "труабан": ["CUSHIONS:3"],
    "труабаном": ["CUSHIONS:3"],
    "круазе": ["CUSHIONS:1"],
    "абриколь": ["ABRIK"],
    "абриколем": ["ABRIK"],
    "абрикольно": ["ABRIK"],
    "абриколью": ["ABRIK"],
    "карамболь": ["KARAMBOL"],
    "карамболем": ["KARAMBOL"],
    "карамбольно": ["KARAMBOL"],
    "контр-ку": ["KONTRKU"],
    "контрку": ["KONTRKU"],
    "шара": ["SHARA"],
    "шаром": ["SHAROM"],
    "шарами": ["SHARAMI"],
    # an object ball without a number (C5)
    "чужой": ["OBJ"],
    "чужого": ["OBJ"],
    "прицельный": ["OBJ"],
    "прицельного": ["OBJ"],
    # stroke technique: accepted and ignored, not binding
    "резка": ["TECH"],
    "резку": ["TECH"],
    "резкой": ["TECH"],
    "режу": ["TECH"],
    "клапштос": ["TECH"],
    "клапштосом": ["TECH"],
    "накат": ["TECH"],
    "накатом": ["TECH"],
    "оттяжка": ["TECH"],
    "оттяжку": ["TECH"],
    "оттяжкой": ["TECH"],
    "винт": ["TECH"],
    "винтом": ["TECH"],
    "боковик": ["TECH"],
    "боковиком": ["TECH"],
    # fillers: ignored
    "ну": ["FILLER"],
    "так": ["FILLER"],
    "давай": ["FILLER"],
    "давайте": ["FILLER"],
    "заказываю": ["FILLER"],
    "заказ": ["FILLER"],
    "кладу": ["FILLER"],
    "играю": ["FILLER"],
    "играем": ["FILLER"],
    "шар": ["FILLER"],
    "шары": ["FILLER"],
    "номер": ["FILLER"],
    "и": ["FILLER"],
    "а": ["FILLER"],
    "вот": ["FILLER"],
    "это": ["FILLER"],
    "значит": ["FILLER"],
    # corrections (C9): what follows replaces the same part of the call said before it
    "нет": ["CORR"],
    "вернее": ["CORR"],
    "точнее": ["CORR"],
    "лучше": ["CORR"],
    "ой": ["CORR"],
    "отмена": ["CORR:reset"],  # takes the whole call back: what follows is a new call
    # «не тройку, а пятёрку»: the part after «не» is replaced by the same part after «а»
    "не": ["NOT"],
    "пожалуйста": ["FILLER"],
    "теперь": ["FILLER"],
    "сейчас": ["FILLER"],
    "я": ["FILLER"],
    "бью": ["FILLER"],
    "положу": ["FILLER"],
    # the cue ball: not the called ball, and «битком от борта» is its cushion
    "биток": ["CUE"],
    "битком": ["CUE"],
    "своим": ["CUE"],
    "хорошо": ["FILLER"],
    "ладно": ["FILLER"],
    "внимание": ["FILLER"],
    "буду": ["FILLER"],
    "играть": ["FILLER"],
    "класть": ["FILLER"],
    "№": ["FILLER"],
    # «в дальний угол слева»: the side said as an adverb, before or after the pocket noun
    "слева": ["SIDE:left"],
    "справа": ["SIDE:right"],
    # the stroke: says nothing, but «удар от борта» is the cue ball off the cushion in
    # some players' glossaries, so a contact right after it is unclear
    "удар": ["STROKE"],
    "ударом": ["STROKE"],
}

# Several words read as one (spaces between them; the lexer matches the
# longest one first). A three-word phrase cut anywhere leaves a word that is no
# call word (tests/test_grammar_lexicon.py), so a phrase said in part is refused
# as an unknown word, never read as something else.
PHRASES = {
    "в лоб": ["CLEAN"],
    # «через борт»: the called ball banks, as «от борта» (a named shot, like «дуплетом»)
    "через борт": ["CUSHIONS:1"],
    "через два борта": ["CUSHIONS:2"],
    "через три борта": ["CUSHIONS:3"],
    "контр ку": ["KONTRKU"],
    "оборотный дуплет": ["CUSHIONS:1"],
    "оборотным дуплетом": ["CUSHIONS:1"],
    "оборотний дуплет": ["CUSHIONS:1"],
    "оборотним дуплетом": ["CUSHIONS:1"],
    "в резку": ["TECH"],
    "с винтом": ["TECH"],
    "с боковиком": ["TECH"],
    "с накатом": ["TECH"],
    "с оттяжкой": ["TECH"],
    "к себе": ["END:near"],
    # the near / far end in the words players use (from the striker's view)
    "со стороны игрока": ["END:near"],
    "на противоположной стороне": ["END:far"],
    "под номером": ["FILLER"],
    "то есть": ["CORR"],
    "своим шаром": ["CUE"],
    "свой шар": ["CUE"],  # the cue ball
    # «свой угол»: the corner on the striker's side; «свой» alone is the cue ball
    "свой угол": ["CORNER", "END:near"],
    # «свой левый (угол)», «свою правую (лузу)»: the near end and a side (an end says corner)
    "свой левый": ["END:near", "SIDE:left"],
    "свой правый": ["END:near", "SIDE:right"],
    "свою левую": ["END:near", "SIDE:left"],
    "свою правую": ["END:near", "SIDE:right"],
    "свою лузу": ["END:near", "LUZA"],
    # «в свою середину»: «свою» is the near end (as «свой угол»), and a middle pocket has
    # none: read as said, so the call is refused saying so, never as an unknown word
    "свою середину": ["END:near", "MIDDLE"],
    "свою серединку": ["END:near", "MIDDLE"],
}

# Placeholders from the rules' template call («шарами такими-то, от шара такого-то»).
PLACEHOLDER_LEMMA = "такой"


def _yo_variants(morph: Any, form: str) -> set[str]:
    """The ё-spellings pymorphy3 knows for an е-spelled form (rbnf writes е)."""
    out = {form}
    for p in morph.parse(form):
        if (
            p.tag.POS not in ("NOUN", "ADJF", "NUMR")
            or {"Name", "Surn", "Patr", "Geox"} & p.tag.grammemes
        ):
            continue
        for f in p.lexeme:
            if f.word.replace("ё", "е") == form.replace("ё", "е"):
                out.add(f.word)
    return out


def _names_a_pocket(tag: Any) -> bool:
    """Only the forms a pocket takes in a call: «в левый угол», «левую середину»,
    «угловая луза» (nominative or accusative, masculine inanimate or feminine). Other
    cases belong to other nouns: «от борта левого в угол» is the left cushion, not
    the left corner; «от дальнего борта», «в левом углу» (where a ball lies) too."""
    if tag.case not in ("nomn", "accs") or tag.gender == "neut":
        return False
    # «левого»: the animate accusative (also of the noun «левый», a person)
    return "anim" not in tag


def _noun_forms(morph: Any, word: str, gender: str) -> dict[str, set[str]]:
    """Singular nominative/accusative, genitive and instrumental forms of a noun."""
    parse = next(
        p
        for p in morph.parse(word)
        if p.tag.POS == "NOUN" and "inan" in p.tag and gender in p.tag and p.normal_form == word
    )
    roles: dict[str, set[str]] = {"nom": set(), "gen": set(), "ins": set()}
    for f in parse.lexeme:
        if "sing" not in f.tag:
            continue
        case = f.tag.case
        if case in ("nomn", "accs"):
            roles["nom"].add(f.word)
        elif case in ("gent", "gen2"):
            roles["gen"].add(f.word)
        elif case == "ablt":
            roles["ins"].add(f.word)
    return roles


def build() -> dict[str, Any]:
    """The lexicon: every form of the words of a call with its tags, the number words
    beyond the balls, and the forms ``render`` uses."""
    import pymorphy3  # deferred: the dictionaries load only to build the lexicon
    from unicode_rbnf import RbnfEngine  # deferred: as pymorphy3, build time only

    morph = pymorphy3.MorphAnalyzer()
    rbnf = RbnfEngine.for_language("ru")
    words: dict[str, set[str]] = {}

    def add(form: str, *tags: str) -> None:
        for variant in _yo_variants(morph, form.lower()):
            words.setdefault(variant, set()).update(tags)

    _add_balls(add, morph, rbnf)
    _add_pockets(add, morph)
    placeholder = next(p for p in morph.parse(PLACEHOLDER_LEMMA) if p.tag.POS == "ADJF")
    for f in placeholder.lexeme:
        if f.tag.POS == "ADJF":
            add(f.word + "-то", "PLACEHOLDER")
    for form, tags in FIXED.items():
        add(form, *tags)
    beyond = _beyond_words(morph, rbnf, words)
    return {
        "version": VERSION,
        "beyond": dict(sorted(beyond.items())),
        "render": _render_forms(morph, rbnf),
        "words": {w: sorted(t) for w, t in sorted(words.items())},
        "phrases": {p: sorted(t) for p, t in sorted(PHRASES.items())},
    }


def _add_balls(add: Callable[..., None], morph: Any, rbnf: Any) -> None:
    """Every form that names a ball 1-15: ordinals, cardinals, counts and the balls' nouns."""
    from unicode_rbnf import FormatPurpose  # deferred: build time only

    for n in range(1, 16):
        ordinal = rbnf.format_number(n, FormatPurpose.ORDINAL).text_by_ruleset
        add(ordinal["spellout-ordinal-masculine"], f"B_NOM:{n}")
        # genitive, and the animate-style accusative players use («двенадцатого в угол»)
        add(ordinal["spellout-ordinal-masculine-genitive"], f"B_GEN:{n}", f"B_NOM:{n}")
        add(ordinal["spellout-ordinal-masculine-ablative"], f"B_INS:{n}")
        cardinal = rbnf.format_number(n, FormatPurpose.CARDINAL).text_by_ruleset
        add(cardinal["spellout-numbering"], f"B_BARE:{n}")
        for gen in ("spellout-cardinal-masculine-genitive", "spellout-cardinal-feminine-genitive"):
            add(cardinal[gen], f"B_GEN:{n}", f"NUM_GEN:{n}")
            if (
                n <= 3
            ):  # «от двух» may be «от двух бортов» said short (one to three cushions: труабан)
                add(cardinal[gen], f"NUM_ELL:{n}")
        if n >= 2:  # «одним шаром» is not a count of balls
            add(cardinal["spellout-cardinal-masculine-ablative"], f"COUNT_INS:{n}")
        for noun in BALL_NOUNS.get(n, ()):
            gender = "masc" if noun == "туз" else "femn"
            roles = _noun_forms(morph, noun, gender)
            for f in roles["nom"]:
                add(f, f"B_NOM:{n}")
            for f in roles["gen"]:
                add(f, f"B_GEN:{n}")
                if noun == "туз":  # «туза в угол»: animate accusative, as in cards
                    add(f, f"B_NOM:{n}")
            for f in roles["ins"]:
                add(f, f"B_INS:{n}")
    # rbnf has a wrong dative for 3 («третьому»); it is not used. The
    # masculine forms above are the ones a ball («шар», masculine) takes.


def _add_pockets(add: Callable[..., None], morph: Any) -> None:
    """Every singular form of the pocket words (POCKET_LEXEMES) that names a pocket."""
    for lemma, tag in POCKET_LEXEMES.items():
        # every paradigm of the lemma: «угловой» is both an adjective and a noun
        for parse in morph.parse(lemma):
            if parse.normal_form != lemma or parse.tag.POS not in ("ADJF", "NOUN"):
                continue
            for f in parse.lexeme:
                if (
                    "sing" in f.tag
                    and "Supr" not in f.tag
                    and f.tag.POS in ("ADJF", "NOUN")
                    and _names_a_pocket(f.tag)
                ):
                    add(f.word, tag)
                    if tag.startswith("SIDE:") and f.tag.gender == "masc":
                        # «в правый»: середина and луза are feminine, so only «угол» agrees
                        add(f.word, "MASC")


def _beyond_words(morph: Any, rbnf: Any, words: dict[str, set[str]]) -> dict[str, int]:
    """One-word numbers beyond the balls (BEYOND) that are no word of the lexicon → n."""
    from unicode_rbnf import FormatPurpose  # deferred: build time only

    beyond: dict[str, int] = {}
    for n in BEYOND:
        for purpose in (FormatPurpose.ORDINAL, FormatPurpose.CARDINAL):
            for form in rbnf.format_number(n, purpose).text_by_ruleset.values():
                if " " not in form and form not in words:
                    for variant in _yo_variants(morph, form):
                        beyond.setdefault(variant, n)
    return beyond


def _inflect(morph: Any, word: str, pos: str, *grammemes: str) -> str:
    parse = next(p for p in morph.parse(word) if p.tag.POS == pos and p.normal_form == word)
    return str(parse.inflect(set(grammemes)).word)


def _with_yo(morph: Any, form: str) -> str:
    """The ё-spelling of a form, where the dictionary has one («трех» → «трёх»)."""
    variants = sorted(v for v in _yo_variants(morph, form) if "ё" in v)
    return variants[0] if variants else form


def _render_forms(morph: Any, rbnf: Any) -> dict[str, Any]:
    """The forms ``render`` uses, inflected here so that rendering needs no dictionary."""
    from unicode_rbnf import FormatPurpose  # deferred: build time only

    balls = {}
    for n in range(1, 16):
        if n in BALL_NOUNS:
            # ball 1 is «туз» in a billiards room, never «единица»; called «туза»
            # (the animate accusative, as in cards: «туза в угол»)
            noun = BALL_NOUNS[n][-1]
            acc = _inflect(morph, noun, "NOUN", "sing", "gent" if noun == "туз" else "accs")
            gen = _inflect(morph, noun, "NOUN", "sing", "gent")
            ins = _inflect(morph, noun, "NOUN", "sing", "ablt")
            balls[n] = {"acc": acc, "gen": gen, "ins": ins, "ins_short": ins}
        else:
            o = rbnf.format_number(n, FormatPurpose.ORDINAL).text_by_ruleset
            shar = {c: _inflect(morph, "шар", "NOUN", "sing", c) for c in ("accs", "gent", "ablt")}
            balls[n] = {
                "acc": f"{o['spellout-ordinal-masculine']} {shar['accs']}",
                "gen": f"{o['spellout-ordinal-masculine-genitive']} {shar['gent']}",
                "ins": f"{o['spellout-ordinal-masculine-ablative']} {shar['ablt']}",
                "ins_short": o["spellout-ordinal-masculine-ablative"],
            }
    cardinals = {
        n: rbnf.format_number(n, FormatPurpose.CARDINAL).text_by_ruleset for n in range(1, 16)
    }
    nouns = {"corner": ("угол", "masc"), "middle": ("середина", "femn")}
    pockets = {}
    for kind, (noun, gender) in nouns.items():
        agree = ("sing", gender, "accs") + (
            ("inan",) if gender == "masc" else ()
        )  # «в левый угол»
        pockets[kind] = {
            "noun": _inflect(morph, noun, "NOUN", "sing", "accs"),
            "left": _inflect(morph, "левый", "ADJF", *agree),
            "right": _inflect(morph, "правый", "ADJF", *agree),
            "near": _inflect(morph, "ближний", "ADJF", *agree),
            "far": _inflect(morph, "дальний", "ADJF", *agree),
        }
    return {
        "ball": {str(n): f for n, f in balls.items()},
        "count_ins": {
            str(n): c["spellout-cardinal-masculine-ablative"]
            for n, c in cardinals.items()
            if n >= 2
        },
        "num_gen": {
            str(n): _with_yo(morph, c["spellout-cardinal-masculine-genitive"])
            for n, c in cardinals.items()
        },
        "pocket": pockets,
        "balls_ins_plural": _inflect(morph, "шар", "NOUN", "plur", "ablt"),
        "cushion_gen": _inflect(morph, "борт", "NOUN", "sing", "gent"),
        "cushions_gen": _inflect(morph, "борт", "NOUN", "plur", "gent"),
    }


def dumps(lexicon: dict[str, Any]) -> str:
    return json.dumps(lexicon, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def main() -> None:
    DATA_FILE.parent.mkdir(exist_ok=True)
    DATA_FILE.write_text(dumps(build()), encoding="utf-8")
    print(f"wrote {DATA_FILE}")


if __name__ == "__main__":
    main()
