"""The rules text inside the project: every clause and policy, in Russian and English, and every
code a verdict can cite resolves to its text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pyramid_referee.rules import clauses
from pyramid_referee.rules.clauses import BY_CODE, CLAUSES, TABLE, explained, lookup, normalize

ROOT = Path(__file__).resolve().parent.parent
CODE_RE = re.compile(r'"((?:C|E|P|Q)\d+[а-и]?)"')


def _codes_cited_in(*folders: str) -> set[str]:
    found: set[str] = set()
    for folder in folders:
        for path in (ROOT / folder).glob("*.py"):
            if path.name == "clauses.py":
                continue  # the table itself: what is cited must be found elsewhere
            found |= set(CODE_RE.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_clause_and_policy_of_the_rules_has_a_text():
    expected = (
        [f"C{i}" for i in range(1, 12)]
        + [f"E{i}" for i in range(1, 7)]
        + ["P1"]
        + [f"P1{x}" for x in "абвгдежзи"]
        + [f"P{i}" for i in range(2, 9)]
        + [f"Q{i}" for i in range(1, 15)]
    )
    assert [c.code for c in TABLE] == expected  # in the order of the rules
    for c in TABLE:
        assert c.title_ru and c.title_en and len(c.text_ru) > 20 and len(c.text_en) > 20, c.code
        assert c.text_ru.endswith(".") and c.text_en.endswith("."), c.code


def test_every_code_a_verdict_or_refusal_can_cite_resolves_with_rules():
    cited = _codes_cited_in("rules", "grammar", "pyramid_referee")
    assert {"C2", "Q10", "P1б", "Q3", "E4"} <= cited  # the scan sees what the judge cites
    missing = {c for c in cited if normalize(c) != c}
    assert not missing, f"codes without a text: {sorted(missing)}"


def test_refusal_codes_rest_on_clauses_that_have_a_text():
    from pyramid_referee.grammar.refusal import CLAUSES as REFUSAL_CLAUSES

    assert set(REFUSAL_CLAUSES.values()) <= set(BY_CODE)


def test_russian_texts_hold_no_latin_words_but_clause_codes():
    for c in TABLE:
        for t in (c.title_ru, c.text_ru):
            words = re.findall(r"[A-Za-z][A-Za-z0-9]*", t)
            assert all(w in BY_CODE for w in words), (c.code, words)


def test_titles_hold_no_semicolon_so_a_list_of_them_reads_clearly():
    assert not [c.code for c in TABLE if ";" in c.title_ru or ";" in c.title_en]


def test_every_policy_says_what_it_settles_or_that_the_rules_are_silent():
    for c in TABLE:
        if c.section == "Q":
            assert c.settles or "молчат" in c.text_ru, c.code
            assert all(s in BY_CODE for s in c.settles)
            assert c.text_ru.startswith("Вопрос:"), c.code


@pytest.mark.parametrize(
    "typed, code",
    [
        ("C2", "C2"),
        ("c2", "C2"),
        ("С2", "C2"),
        ("q10", "Q10"),
        ("P1б", "P1б"),
        ("p1Б", "P1б"),
        ("P1b", "P1б"),
        ("p1zh", "P1ж"),
        ("Е4", "E4"),
        ("Р5", "P5"),
    ],
)
def test_codes_are_read_as_people_type_them(typed, code):
    assert normalize(typed) == code


@pytest.mark.parametrize("typed", ["C99", "C0", "Q15", "P1ы", "X1", "", "C", "2", "P9"])
def test_codes_that_name_nothing_are_not_guessed(typed):
    assert normalize(typed) is None


def test_lookup_gives_all_when_nothing_is_asked_and_reports_unknown_codes():
    assert lookup([]) == (list(TABLE), [])
    found, unknown = lookup(["c2", "C2", "C99"])
    assert [c.code for c in found] == ["C2"] and unknown == ["C99"]


def test_the_unknown_code_message_lists_what_exists():
    assert (
        clauses.unknown_message("C99")
        == "нет такого пункта «C99»; есть C1–C11, E1–E6, P1–P8 (P1а–P1и), Q1–Q14"
    )
    assert "there is no clause «C99»" in clauses.unknown_message("C99", "en")


def test_explained_gives_each_clause_in_full_and_p1_only_by_its_case():
    lines = explained(("C10", "P1", "P1б", "P2"))
    assert lines[0].startswith("C10. Заказ — до удара. Заказ произносят до удара.")
    assert lines[1] == "P1. Штрафной удар."
    assert lines[2] == "P1б. Биток в лузе. Свой шар, биток, упал в лузу."
    assert explained(("P1",))[0].startswith(
        "P1. Штрафной удар. Штраф назначается, если: а) промах"
    )


def test_the_old_title_table_still_maps_every_code():
    assert CLAUSES["Q2"] == (BY_CODE["Q2"].title_ru, BY_CODE["Q2"].title_en)
    assert clauses.title("C5", "en") == "the last ball need not be named"


def test_a_short_game_names_its_own_target_in_E1():
    e1 = clauses.as_played("E1", target=11)
    assert e1.title("ru") == "победа — 11 очков" and "наберёт 11 очков" in e1.text("ru")
    assert e1.title("en") == "the first to 11 wins" and "reach 11 points" in e1.text("en")
    assert "71" not in e1.title("ru") + e1.text("ru") + e1.title("en") + e1.text("en")


def test_the_draw_score_and_the_partners_need_follow_the_target_and_the_penalty():
    assert "по 10 очков" in clauses.as_played("E2", target=11).text("ru")
    assert "по 21 очку" in clauses.as_played("E2", target=22).text("ru")
    assert "— 10 на 10 —" in clauses.as_played("E3", target=11).text("ru")
    p3 = clauses.as_played("P3", target=31, penalty=3).text("ru")
    assert "не 31 очко" in p3 and "28 после одного штрафа, 25 после двух" in p3
    assert clauses.as_played("P2", penalty=3).title("ru") == "штраф — 3 очка"


def test_the_rule_book_text_is_what_a_71_point_game_shows():
    for c in TABLE:
        assert clauses.as_played(c.code) is c
    assert explained(["E1"], "ru", 71, 5) == explained(["E1"], "ru")


@pytest.mark.parametrize(
    "n, word",
    [
        (1, "1 очко"),
        (2, "2 очка"),
        (5, "5 очков"),
        (11, "11 очков"),
        (21, "21 очко"),
        (22, "22 очка"),
        (71, "71 очко"),
        (112, "112 очков"),
    ],
)
def test_points_agree_with_their_number_in_russian(n, word):
    assert clauses._ochki(n) == word
