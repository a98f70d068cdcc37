"""Generate the parts of docs/ that must never drift from the code.

- ``docs/rules.md``: every clause and policy, from the table in ``rules/clauses.py``
  (the same text ``pyramid-referee rules`` prints);
- ``docs/calls.md``: the words and phrases of a call, from the lexicon
  (``grammar/data/lexicon.json``) and the phrase grammar (``grammar/calls.lark``);
- ``docs/refusals.md``: what every refusal code means, with the clause it rests on.

Run ``.venv/bin/python scripts/gen_docs.py`` after changing any of them;
``tests/test_docs.py`` fails while a committed file differs from a fresh generation.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

NOTICE = (
    "<!-- Создано программой scripts/gen_docs.py; не правьте этот файл руками: "
    "правьте источник и запустите программу снова. -->"
)


# -- docs/rules.md ---------------------------------------------------------------------------


def rules_md() -> str:
    from pyramid_referee.cli.rules import clause_lead
    from pyramid_referee.i18n import set_lang
    from pyramid_referee.rules.clauses import SECTIONS, TABLE

    set_lang("ru")

    out = [
        NOTICE,
        "",
        "# Правила русской пирамиды на 71 очко",
        "",
        "Каждый вердикт программы кончается кодами пунктов, которые его решили, например "
        "«(C2, Q10, Q4, Q3)». Здесь собраны все пункты: условия игры (C), конец игры (E), "
        "штрафные удары (P, с буквами P1а–P1и) — пересказ старых правил пирамиды на 71 очко — и "
        "решения (Q), которыми программа пользуется там, где правила молчат или допускают два "
        "прочтения. Каждое решение говорит, какие пункты оно уточняет; где его можно изменить, "
        "сказано «настройка матча».",
        "",
        "Тот же текст печатает команда `pyramid-referee rules` (все пункты) или `pyramid-referee "
        "rules C2 Q10` (только названные); `--why` у команд `play`, `listen`, `match resume`, "
        "`match show` и `replay` печатает под каждым вердиктом полный текст его пунктов.",
        "",
    ]
    contents = [f"- [{title}](#{sec.lower()})" for sec, (title, _) in SECTIONS.items()]
    out += ["## Разделы", "", *contents, ""]
    section = None
    for c in TABLE:
        if c.section != section:
            section = c.section
            out += [f'<a id="{section.lower()}"></a>', "", f"## {SECTIONS[section][0]}", ""]
        title = c.title_ru[0].upper() + c.title_ru[1:]
        out += [f'<a id="{c.code}"></a>', "", f"### {c.code}. {title}", ""]
        if clause_lead(
            c.code
        ):  # a lettered case of P1: what it is a case of, as `rules P1б` says it
            out += [f"*{clause_lead(c.code)}*", ""]
        out += [c.text_ru, ""]
        if c.settles:
            links = ", ".join(f"[{s}](#{s})" for s in c.settles)
            out += [f"*Уточняет пункты: {links}.*", ""]
    return "\n".join(out)


# -- docs/calls.md ---------------------------------------------------------------------------

# What each kind of phrase (a rule of calls.lark) is, in a player's words.
PHRASES_RU = {
    "called": ("заказанный шар", "номер шара, который кладут в лузу"),
    "obj": ("шар без номера", "можно, только когда на столе остался один шар (C5)"),
    "pocket": ("луза", "куда падает шар; слова лузы — в таблице ниже"),
    "clean": ("чисто", "шар идёт в лузу сам, ничего не задев"),
    "kiss": (
        "от шара",
        "заказанный шар идёт в лузу от другого шара (или от нескольких по очереди)",
    ),
    "cushion": ("от борта", "заказанный шар идёт в лузу от борта (от одного, двух, трёх)"),
    "contre": ("от контр-ку", "слово из правил; записывается как сказано"),
    "abricole": ("абриколем", "биток сначала в борт, потом в шар"),
    "carom": ("карамболем", "биток сначала от другого шара, потом в следующий"),
    "driver": ("каким шаром", "шар, который гонит заказанный (комбинация, C3)"),
    "count": ("сколькими шарами", "число шаров комбинации; дальше их называют"),
    "cue": ("биток", "свой шар; то, что сказано сразу после него, относится к битку"),
    "stroke": ("удар", "ничего не добавляет к заказу"),
}

# How each grammar terminal is said: a label and the lexicon tag whose words fill it.
TERMINALS_RU = {
    "B_NOM": ("шар (кого? что?)", "B_NOM"),
    "B_BARE": ("номер (числом)", "B_BARE"),
    "B_GEN": ("шар (от кого?)", "B_GEN"),
    "B_INS": ("шар (кем? чем?)", "B_INS"),
    "OBJ": ("", "OBJ"),
    "POCKET": ("слова лузы", None),
    "CLEAN": ("", "CLEAN"),
    "OT": ("", "OT"),
    "BORTA": ("", "BORTA"),
    "BORTOV": ("", "BORTOV"),
    "NUM_GEN": ("сколько (от скольких?)", "NUM_GEN"),
    "NUM_ELL": ("сколько (без слова «бортов»)", "NUM_ELL"),
    "CUSHIONS": ("", "CUSHIONS"),
    "KONTRKU": ("", "KONTRKU"),
    "ABRIK": ("", "ABRIK"),
    "KARAMBOL": ("", "KARAMBOL"),
    "SHARA": ("", "SHARA"),
    "SHAROM_PRE": ("", "SHAROM"),
    "SHAROM_POST": ("", "SHAROM"),
    "COUNT_INS": ("сколькими", "COUNT_INS"),
    "SHARAMI": ("", "SHARAMI"),
    "CUE": ("", "CUE"),
    "STROKE": ("", "STROKE"),
}

# Words that are no phrase of their own.
OTHER_TAGS_RU = {
    "FILLER": "не нужны и пропускаются",
    "TECH": "как бить (резка, винт…): не часть заказа, не обязывают",
    "CORR": "поправка: то, что после неё, заменяет сказанное до неё (C9)",
    "CORR:reset": "отмена всего заказа: то, что после неё, — новый заказ (C9)",
    "NOT": "«не тройку, а пятёрку»: поправка до того, как сказано главное",
    "PLACEHOLDER": "слова образца из правил («такой-то»): вместо них называют шар",
}

POCKET_TAGS_RU = {
    "V": "предлог перед лузой",
    "CORNER": "угловая луза",
    "MIDDLE": "средняя луза",
    "LUZA": "луза (какая — говорят другие слова)",
    "SIDE:left": "левая, как видит бьющий",
    "SIDE:right": "правая, как видит бьющий",
    "END:far": "дальняя от бьющего",
    "END:near": "ближняя к бьющему",
    "MASC": "без слова лузы — угол: из «угол», «середина», «луза» с ними согласуется только "
    "«угол» («в правый» — правый угол; «в правую» — угол или середина, не принимается)",
}

ROLE_RU = {
    "B_NOM": "кого? что?",
    "B_GEN": "от кого?",
    "B_INS": "кем? чем?",
    "B_BARE": "число",
    "COUNT_INS": "сколькими (шарами)",
    "NUM_GEN": "от скольких (бортов)",
    "NUM_ELL": "от скольких (бортов)",
}

# One example word for each slot that stands for many words (checked against the lexicon).
SLOT_EXAMPLES = {
    "B_NOM": "тройку",
    "B_BARE": "двенадцать",
    "B_GEN": "шестёрки",
    "B_INS": "шестёркой",
    "NUM_GEN": "двух",
    "NUM_ELL": "двух",
    "COUNT_INS": "тремя",
}


def _lexicon() -> dict:
    import json

    from pyramid_referee.grammar.lexicon import DATA_FILE

    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def _by_tag(lex: dict) -> dict[str, list[str]]:
    """tag (with its value, «B_NOM:3») → the words and phrases that carry it, sorted."""
    got: dict[str, set[str]] = defaultdict(set)
    for table in ("words", "phrases"):
        for word, tags in lex[table].items():
            for tag in tags:
                got[tag].add(word)
    return {t: sorted(ws) for t, ws in got.items()}


def _words_of(by_tag: dict, kind: str) -> list[str]:
    """Every word of a tag kind («B_NOM») over all its values, examples first."""
    values = sorted({t.split(":", 1)[1] for t in by_tag if t.startswith(kind + ":")}, key=_num_key)
    if not values:
        return by_tag.get(kind, [])
    return [w for v in values for w in by_tag[f"{kind}:{v}"]]


def _num_key(v: str):
    return (0, int(v)) if v.isdigit() else (1, v)


def _q(words) -> str:
    return ", ".join(f"«{w}»" for w in words)


def _slot(symbol: str, by_tag: dict) -> str:
    if symbol.startswith("__"):
        return "(и ещё шары)"
    if symbol in ("ball_gen", "more_gen"):
        symbol = "B_GEN"
    label, tag = TERMINALS_RU.get(symbol, (symbol.lower(), symbol))
    if tag is None:
        return label
    if label:
        example = SLOT_EXAMPLES.get(tag)
        if example is None:
            return label
        if example not in _words_of(by_tag, tag):
            raise SystemExit(
                f"gen_docs: the example «{example}» is no longer a {tag} word of the lexicon"
            )
        return f"{label} «{example}»"
    return " / ".join(f"«{w}»" for w in _words_of(by_tag, tag))


def _phrase_rules() -> list[tuple[str, list[list[str]]]]:
    """The phrases a call is made of, in calls.lark's order, each with its word patterns."""
    from lark import Lark

    from pyramid_referee.grammar.lark_table import GRAMMAR_FILE as _GRAMMAR_FILE

    lark = Lark(_GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr")
    items = [r.expansion[0].name for r in lark.rules if r.origin.name == "_item"]
    shapes: dict[str, list[list[str]]] = defaultdict(list)
    for r in lark.rules:
        if r.origin.name in items:
            shape = [s.name for s in r.expansion]
            if shape not in shapes[r.origin.name]:
                shapes[r.origin.name].append(shape)
    # «от X» and «от X (и ещё шары)»: the longer says both
    for name, got in shapes.items():
        shapes[name] = [
            sh for sh in got if not any(o[:-1] == sh and o[-1].startswith("__") for o in got)
        ]
    return [(name, shapes[name]) for name in items]


def calls_md() -> str:
    from pyramid_referee.grammar.lexicon import DIGIT_SUFFIX

    lex = _lexicon()
    by_tag = _by_tag(lex)
    out = [
        NOTICE,
        "",
        "# Слова заказа",
        "",
        "Что программа понимает в заказе. Таблицы созданы из её словаря и грамматики, так что "
        "здесь ровно те слова, которые она знает. Части заказа говорят в любом порядке: "
        "«тройку чисто в правый угол» и «в правый угол тройку чисто» — один заказ. "
        'Проверить, как понят заказ, можно командой `pyramid-referee explain "ваш заказ"`.',
        "",
    ]

    out += ["## Части заказа", "", "| часть | что значит | как сказать |", "|---|---|---|"]
    for name, shapes in _phrase_rules():
        title, meaning = PHRASES_RU.get(name, (name, ""))
        ways = "; ".join(" + ".join(_slot(s, by_tag) for s in shape) for shape in shapes)
        out.append(f"| {title} | {meaning} | {ways} |")
    out.append("")

    out += [
        "## Шары",
        "",
        "Шар называют по-разному в зависимости от роли: заказанный (кого? что?), тот, от которого "
        "идёт шар (от кого?), и тот, которым играют (кем? чем?). Туз — шар 1.",
        "",
        "| шар | кого? что? | от кого? | кем? чем? | числом |",
        "|---|---|---|---|---|",
    ]
    for n in range(1, 16):
        cells = [
            ", ".join(by_tag.get(f"{k}:{n}", [])) or "—"
            for k in ("B_NOM", "B_GEN", "B_INS", "B_BARE")
        ]
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    out.append("")
    roles: dict[str, list[str]] = {role: [] for role in ROLE_RU.values()}
    for suffix, tags in DIGIT_SUFFIX.items():
        for t in tags:
            form = "12" if suffix is None else f"12-{suffix}"
            if t in ROLE_RU and form not in roles[ROLE_RU[t]]:
                roles[ROLE_RU[t]].append(form)
    roles = {role: forms for role, forms in roles.items() if forms}
    out += [
        "Цифрами тоже можно (и с «№»): "
        + "; ".join(f"{role}: {', '.join(forms)}" for role, forms in roles.items())
        + ".",
        "",
    ]
    counts = [
        f"{n}: {', '.join(by_tag[f'COUNT_INS:{n}'])}"
        for n in range(2, 16)
        if f"COUNT_INS:{n}" in by_tag
    ]
    out += ["Сколькими шарами: " + "; ".join(counts) + ".", ""]

    out += [
        "## Лузы",
        "",
        "Лузы называют так, как их видит бьющий. У угловой лузы нужна сторона (Q2); дальняя или "
        "ближняя — по желанию. Для средней достаточно «в середину». Слова лузы идут в любом "
        "порядке, «в» — перед любым из них («к себе в левый», «в дальний угол слева»). У средней "
        "лузы нет ближней и дальней, поэтому «в свою середину» не принимается, с объяснением. "
        "«Чужой» — это прицельный шар, а не луза: «в чужой угол» не принимается, в любом порядке "
        "слов; «слева» или «справа» сразу после «от борта» не принимаются (сторона борта или "
        "лузы?).",
        "",
        "| слова | что значат |",
        "|---|---|",
    ]
    for tag, meaning in POCKET_TAGS_RU.items():
        if tag in by_tag:
            out.append(f"| {_q(by_tag[tag])} | {meaning} |")
    out.append("")

    out += ["## Способ", "", "| слова | что значат |", "|---|---|"]
    way = [
        ("CLEAN", "чисто: шар идёт в лузу сам"),
        ("OT", "«от»: от шара, от борта, от контр-ку"),
        ("BORTA", "борт (после «от» или числа)"),
        ("BORTOV", "бортов (после числа)"),
        ("ABRIK", "абриколь: биток сначала в борт"),
        ("KARAMBOL", "карамболь: биток от другого шара"),
        ("KONTRKU", "от контр-ку, как в правилах"),
        ("CUE", "биток, свой шар"),
        ("OBJ", "шар без номера: только когда на столе остался один шар (C5)"),
        ("SHARA", "«шара» (от шара номер…)"),
        ("SHAROM", "«шаром» (каким шаром)"),
        ("SHARAMI", "«шарами» (сколькими шарами)"),
    ]
    for tag, meaning in way:
        if tag in by_tag:
            out.append(f"| {_q(by_tag[tag])} | {meaning} |")
    for n in ("1", "2", "3"):
        if f"CUSHIONS:{n}" in by_tag:
            out.append(f"| {_q(by_tag[f'CUSHIONS:{n}'])} | бортов: {n} |")
    out.append("")

    out += ["## Слова, которые не меняют заказ", "", "| слова | что с ними |", "|---|---|"]
    for tag, meaning in OTHER_TAGS_RU.items():
        if tag in by_tag:
            out.append(f"| {_q(by_tag[tag])} | {meaning} |")
    out.append("")

    known = (
        set(POCKET_TAGS_RU)
        | set(OTHER_TAGS_RU)
        | {t for t, _ in way}
        | {"CUSHIONS", "STROKE"}
        | set(ROLE_RU)
    )
    rest = sorted(
        w
        for t, ws in by_tag.items()
        if t.split(":")[0] not in known and t not in known
        for w in ws
    )
    if rest:
        out += ["## Другие слова", "", _q(sorted(set(rest))), ""]
    return "\n".join(out)


# -- docs/refusals.md ------------------------------------------------------------------------

# Every refusal code, in one line of Russian: what was wrong with the call.
REFUSALS_RU = {
    "empty": "заказа нет: не сказано ни шара, ни лузы.",
    "unknown_word": "в заказе слово, которого программа не знает (или шар с номером больше 15).",
    "unexpected_word": "знакомое слово стоит там, где оно ни к чему не относится.",
    "no_ball": "не назван заказанный шар (без номера можно, только когда на столе один шар).",
    "no_pocket": "не названа луза.",
    "pocket_not_definite": (
        "луза названа неточно: у угла нет стороны, или слова подходят к разным лузам."
    ),
    "no_route": "при чистом назначении не сказано, как шар упадёт (чисто, от борта, от шара…).",
    "several_calls_unclear": "после полного заказа начат новый и не договорён.",
    "contradiction": (
        "заказ противоречит сам себе: два шара, две лузы, «чисто» и «от борта» сразу."
    ),
    "ambiguous": (
        "заказ можно понять двумя способами, и они дают разные заказы: судья не угадывает."
    ),
    "count_mismatch": "сказано «тремя шарами», а названо другое число шаров.",
    "ball_not_on_table": "заказан шар, которого уже нет на столе.",
    "incomplete": (
        "заказ оборван: после последнего слова чего-то не хватает (например, лузы после «в»)."
    ),
    "too_long": "заказ длиннее {words} слов или {chars} знаков: судья такой не примет.",
}
# Refusals that come from the shell, not from the call language.
OTHER_REFUSALS_RU = {
    "late": "заказ договорён уже после удара (или во время него) и не считается (C10).",
    "unknown_clause": "команда `rules`: такого пункта правил нет; названы те, что есть.",
}


def refusals_md() -> str:
    from pyramid_referee.grammar.lexicon import MAX_CHARS, MAX_WORDS
    from pyramid_referee.grammar.refusal import BALL_AND_POCKET, CLAUSES, CODES, MODE_CLAUSES
    from pyramid_referee.rules.clauses import title

    missing = [c for c in CODES if c not in REFUSALS_RU]
    if missing:
        raise SystemExit(
            f"gen_docs: no Russian line for refusal codes {missing}: add them to REFUSALS_RU"
        )
    out = [
        NOTICE,
        "",
        "# Почему заказ не принят",
        "",
        "Не принятый заказ программа объясняет по-русски: что не так и как сказать правильно. "
        "Для программ, которые читают её ответы (`--json`), у каждого отказа есть код; "
        "здесь — что каждый код значит и на каком пункте правил он основан "
        "(текст пункта: `pyramid-referee rules КОД` или [правила](rules.md)).",
        "",
        "| код | что не так | пункт правил |",
        "|---|---|---|",
    ]
    for code in CODES:
        clause = CLAUSES[code]
        cited = f"[{clause}](rules.md#{clause}) — {title(clause)}"
        own = MODE_CLAUSES[BALL_AND_POCKET].get(code)
        if own:  # ball and pocket: the call is the ball and the pocket (C7), not clean designation
            cited += f"; в игре «шар и луза» — [{own}](rules.md#{own}) — {title(own)}"
        what = REFUSALS_RU[code].format(words=MAX_WORDS, chars=MAX_CHARS)
        out.append(f"| `{code}` | {what[0].upper()}{what[1:]} | {cited} |")
    out += ["", "Кроме того:", "", "| код | что не так |", "|---|---|"]
    for code, text in OTHER_REFUSALS_RU.items():
        out.append(f"| `{code}` | {text[0].upper()}{text[1:]} |")
    out.append("")
    return "\n".join(out)


GENERATED = {"rules.md": rules_md, "calls.md": calls_md, "refusals.md": refusals_md}


def main(argv: list[str] | None = None) -> int:
    DOCS.mkdir(exist_ok=True)
    for name, make in GENERATED.items():
        (DOCS / name).write_text(make(), encoding="utf-8")
        print(f"wrote docs/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
