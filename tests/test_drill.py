"""drill.py: exercises for learners, graded by comparing parsed Calls (never strings)."""

import random
from collections import Counter

import pytest

from pyramid_referee.grammar import Call, Pocket, Refusal, parse
from pyramid_referee.grammar.render import decompose, phrase_blocks
from pyramid_referee.teach.drill import (
    LEVELS,
    MODES,
    PRECISIONS,
    Exercise,
    generate,
    grade,
    summarize,
    summary_text,
)

MIDDLE_R = Pocket("middle", "right")
COMBO = (("cue", 6), (6, 11), (11, 3), (3, "pocket"))


def exercise(
    route=COMBO,
    ball=3,
    pocket=MIDDLE_R,
    balls=(3, 6, 11, 14),
    mode="clean",
    precision="side_for_corners",
):
    shot = Call(ball, pocket, route)
    expected = shot if mode == "clean" else Call(ball, pocket, None)
    return Exercise(1, 3, "phrase", mode, precision, balls, shot, expected)


def kinds(g):
    return [d.kind for d in g.differences]


ALL = [(lvl, mode, pp) for lvl in LEVELS for mode in MODES for pp in PRECISIONS]


def test_generator_is_deterministic_per_seed():
    assert generate(5, 3, 20) == generate(5, 3, 20)
    assert generate(5, 3, 20) != generate(6, 3, 20)
    assert [e.prompt() for e in generate(9, 2, 10)] == [e.prompt() for e in generate(9, 2, 10)]


@pytest.mark.parametrize("level,mode,precision", ALL)
def test_every_canonical_answer_is_graded_correct(level, mode, precision):
    """The descriptions, the expected calls and the grammar agree (C2, C5, C7, Q2)."""
    for seed in range(4):
        for ex in generate(seed, level, 25, mode, precision):
            g = grade(ex, ex.canonical)
            assert g.correct, (ex.prompt(), ex.canonical, g.differences)
            assert g.canonical == ex.canonical and isinstance(g.got, Call)


@pytest.mark.parametrize("level,mode,precision", ALL)
def test_free_word_order_is_graded_correct(level, mode, precision):
    rng = random.Random(level)
    for ex in generate(11, level, 25, mode, precision):
        blocks = phrase_blocks(ex.expected)
        rng.shuffle(blocks)
        assert grade(ex, " ".join(blocks)).correct, (blocks, ex.canonical)


def test_levels_cover_their_shapes():
    seen = {lvl: Counter() for lvl in LEVELS}
    for lvl in LEVELS:
        for ex in generate(1, lvl, 200):
            parts = decompose(ex.shot)
            seen[lvl].update(
                {
                    "straight": not any(parts.values()),
                    "abricole": parts["abricole"],
                    "carom": bool(parts["caroms"]),
                    "driver": len(parts["drivers"]) == 1,
                    "drivers": len(parts["drivers"]) > 1,
                    "cushion": parts["own"].count("cushion") == 1,
                    "cushions": parts["own"].count("cushion") > 1,
                    "off_ball": any(isinstance(x, int) for x in parts["own"]),
                    "last_ball": ex.expected.ball is None,
                    "fix": ex.kind == "fix",
                    "list": ex.style == "list",
                }
            )
    assert set(+seen[1]) == {"straight", "fix", "list"}
    assert {"abricole", "cushion", "off_ball", "fix", "list"} == set(+seen[2])
    assert {"carom", "driver", "drivers", "cushions", "last_ball", "fix"} <= set(+seen[3])


def test_descriptions_do_not_give_the_call_phrasing_away():
    call_words = (
        "чисто",
        "прямо",
        "абриколем",
        "карамболем",
        "шаром ",
        "шарами",
        "середину",
        " угол",
        "от шара",
    )
    for lvl in LEVELS:
        for ex in generate(3, lvl, 60):
            text = ex.description()
            assert not any(w in text for w in call_words), text
            assert isinstance(parse(text), Refusal)


def test_prose_description_names_every_contact():
    ex = exercise()
    assert ex.description() == (
        "Биток бьёт шестёрку, шестёрка бьёт одиннадцатый шар, одиннадцатый шар бьёт "
        "тройку, и тройка без других касаний падает в правую среднюю лузу."
    )
    assert "ball 11 hits ball 3" in ex.description("en")
    call = Call(3, MIDDLE_R, COMBO)
    listed = Exercise(
        1, 3, "phrase", "clean", "side_for_corners", (3, 6, 11), call, call, style="list"
    )
    assert listed.description().startswith("1) биток → шестёрка; 2) шестёрка → одиннадцатый шар;")


def test_fix_exercises_show_a_refused_call_and_accept_the_fix():
    fixes = [ex for lvl in LEVELS for ex in generate(2, lvl, 80) if ex.kind == "fix"]
    assert {ex.broken_code for ex in fixes} >= {
        "pocket_not_definite",
        "no_route",
        "contradiction",
        "count_mismatch",
    }
    for ex in fixes:
        refused = parse(
            ex.broken, mode=ex.mode, balls_left=ex.balls_left, pocket_precision=ex.pocket_precision
        )
        assert isinstance(refused, Refusal) and refused.code == ex.broken_code
        assert f"«{ex.broken}»" in ex.prompt() and "не принят" in ex.prompt()
        assert grade(ex, ex.canonical).correct
        g = grade(ex, ex.broken)
        assert not g.correct and g.differences[0].code == ex.broken_code
        assert refused.message()[1:] in ex.hint()


def test_wrong_ball_is_named():
    g = grade(
        exercise(),
        "двумя шарами шестёркой и одиннадцатым четырнадцатый шар чисто в правую середину",
    )
    assert kinds(g) == ["ball"] and "сказан 14, а играется 3" in g.differences[0].message


def test_wrong_side_end_and_kind_of_pocket():
    assert kinds(
        grade(exercise(), "двумя шарами шестёркой и одиннадцатым тройку в левую середину")
    ) == ["pocket_side"]
    g = grade(exercise(), "двумя шарами шестёркой и одиннадцатым тройку в правый угол")
    assert (
        kinds(g) == ["pocket_kind"] and "сказан угол, а нужна середина" in g.differences[0].message
    )
    far = exercise(route=(("cue", 3), (3, "pocket")), pocket=Pocket("corner", "left", "far"))
    g = grade(far, "тройку чисто в левый ближний угол")
    assert kinds(g) == ["pocket_end"] and "ближняя, а нужна дальняя" in g.differences[0].message


def test_a_less_precise_pocket_the_rules_accept_is_right_Q2():
    g = grade(exercise(), "двумя шарами шестёркой и одиннадцатым тройку в середину")
    assert g.correct and "менее точно" in g.notes[0]
    far = exercise(route=(("cue", 3), (3, "pocket")), pocket=Pocket("corner", "left", "far"))
    assert grade(far, "тройку чисто в левый угол").correct
    assert grade(far, "тройку чисто в угол").differences[0].code == "pocket_not_definite"
    anyside = exercise(
        route=(("cue", 3), (3, "pocket")), pocket=Pocket("corner", "left", "far"), precision="any"
    )
    assert grade(anyside, "тройку чисто в угол").correct


def test_missing_and_extra_cushion_C2():
    duplet = exercise(route=(("cue", 3), (3, "cushion"), (3, "pocket")))
    g = grade(duplet, "тройку чисто в правую середину")
    assert kinds(g) == ["route_missing"] and "от борта" in g.differences[0].message
    two = exercise(route=(("cue", 3), (3, "cushion"), (3, "cushion"), (3, "pocket")))
    assert kinds(grade(two, "тройку от борта в правую середину")) == ["route_missing"]
    assert kinds(grade(duplet, "тройку от двух бортов в правую середину")) == ["route_extra"]


def test_drivers_in_the_wrong_order_C2():
    g = grade(exercise(), "двумя шарами одиннадцатым и шестёркой тройку чисто в правую середину")
    assert kinds(g) == ["route_order"]
    assert "сказано 11 → 6, а нужно 6 → 11" in g.differences[0].message


def test_missing_driver_and_carom_abricole():
    assert kinds(grade(exercise(), "одиннадцатым шаром тройку чисто в правую середину")) == [
        "route_missing"
    ]
    carom = exercise(route=(("cue", 6), ("cue", 3), (3, "pocket")))
    g = grade(carom, "шестёркой тройку чисто в правую середину")
    assert sorted(kinds(g)) == ["route_extra", "route_missing"]
    assert any("карамболь от шара 6" in d.message for d in g.differences)
    abricole = exercise(route=(("cue", "cushion"), ("cue", 3), (3, "pocket")))
    assert "абриколь" in grade(abricole, "тройку чисто в правую середину").differences[0].message


def test_count_mismatch_is_a_refusal_with_its_message_C2():
    g = grade(exercise(), "тремя шарами шестёркой и одиннадцатым тройку чисто в правую середину")
    assert not g.correct and kinds(g) == ["refused"] and g.differences[0].code == "count_mismatch"
    assert "тремя шарами" in g.differences[0].message and "Как сказать" in g.differences[0].message


def test_no_route_in_clean_mode_is_refused_but_fine_under_ball_and_pocket_C7():
    assert grade(exercise(), "тройку в правую середину").differences[0].code == "no_route"
    bp = exercise(mode="ball_and_pocket")
    assert grade(bp, "тройку в правую середину").correct
    g = grade(bp, "тройку от борта в правую середину")  # a way that is not the shot's: not binding
    assert g.correct and "не обязывает" in g.notes[0]


def test_last_ball_named_or_not_C5():
    shot = Call(9, MIDDLE_R, (("cue", 9), (9, "cushion"), (9, "pocket")))
    ex = Exercise(
        1,
        3,
        "phrase",
        "clean",
        "side_for_corners",
        (9,),
        shot,
        Call(None, MIDDLE_R, (("cue", None), (None, "cushion"), (None, "pocket"))),
    )
    assert ex.canonical == "от борта в правую середину"
    assert grade(ex, "от борта в правую середину").correct
    assert grade(ex, "девятку от борта в правую середину").correct
    assert kinds(grade(ex, "девятку чисто в правую середину")) == ["route_missing"]


def test_english_messages():
    g = grade(
        exercise(), "двумя шарами одиннадцатым и шестёркой тройку в левую середину", lang="en"
    )
    text = g.render_text()
    assert text.startswith("Not right.") and "pocket: said left, needed right" in text
    assert "in another order" in text and "Say it as: «" in text
    assert "Exercise 1 (level 3)" in exercise().prompt("en")
    assert "pocket: the right middle pocket" in exercise().hint("en")


def test_summary_counts_right_answers_and_kinds_of_mistakes():
    ex = exercise()
    grades = [
        grade(ex, ex.canonical),
        grade(ex, "тройку в правую середину"),
        grade(ex, "двумя шарами шестёркой и одиннадцатым тройку в левую середину"),
    ]
    s = summarize(grades, asked=4, revealed=1)
    assert (s["right"], s["asked"], s["answers"], s["revealed"]) == (1, 4, 3, 1)
    assert s["mistakes"] == {"не принят: не назван способ (no_route)": 1, "не та сторона лузы": 1}
    assert summary_text(s).startswith("Верно: 1 из 4.")
    en = summarize(grades, 4, lang="en")
    assert (
        "Right: 1 of 4." in summary_text(en, "en")
        and "refused: no way named (no_route)" in en["mistakes"]
    )


def test_bad_generator_arguments():
    for kwargs in ({"level": 4}, {"mode": "pool"}, {"pocket_precision": "loose"}):
        with pytest.raises(ValueError):
            generate(1, **{"level": 1, **kwargs})


def test_ball_one_is_tuz_in_exercises_and_answers():
    texts = []
    for seed in range(40):
        for ex in generate(seed, 3, 5):
            texts += [ex.prompt(), grade(ex, "тройку чисто в левый угол").render_text()]
    joined = "\n".join(texts)
    assert "туз" in joined and "единиц" not in joined
