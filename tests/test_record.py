"""The written game record (record.py, record.lark): read to plain data, checked like a compiler
(line, column, hint), and written from a stored match so that it round-trips."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pyramid_referee.match.record import (
    Record,
    StrokeLine,
    WrittenStroke,
    check_record,
    is_record,
    read_record,
    render_record,
)
from pyramid_referee.match.replay import replay_lines
from pyramid_referee.rules import Match

GOOD = """\
# Партия в клубе
Игроки: Иван, Пётр
Режим: чистое назначение

Иван: тройку чисто в правый угол | биток 3, 3 в правый дальний угол | 3:0
Иван: пятёрку чисто в левую середину | биток 5; 5 в левую середину | 8:0   # хороший удар
Иван: семерку чисто в правый угол | биток 7 | 8:0
Пётр: без заказа | биток 9; фол г | 13:-5
Иван: тройку в угол (не принят) | биток 6
"""


def lines(text: str) -> list[str]:
    return text.splitlines()


def only(problems, kind):
    got = [p for p in problems if p.kind == kind]
    assert len(got) == 1, problems
    return got[0]


def test_a_record_reads_to_plain_data_comments_and_blank_lines_skipped():
    rec, problems = read_record(lines(GOOD))
    assert problems == []
    assert (
        isinstance(rec, Record)
        and rec.players == ("Иван", "Пётр")
        and rec.settings == {"mode": "clean"}
    )
    assert rec.start is None and [s.line for s in rec.strokes] == [5, 6, 7, 8, 9]
    first, _, _, nocall, refused = rec.strokes
    assert first == StrokeLine(
        5,
        "Иван",
        1,
        "тройку чисто в правый угол",
        7,
        False,
        "биток 3, 3 в правый дальний угол",
        36,
        (3, 0),
        71,
    )
    assert nocall.call is None and nocall.score == (13, -5)
    assert refused.call == "тройку в угол" and refused.refused_mark and refused.score is None


def test_a_clean_record_is_judged_stroke_by_stroke():
    checked = check_record(lines(GOOD))
    assert checked.problems == [] and checked.judged_to is None
    assert [r.call_status for r in checked.result.rows] == [
        "accepted",
        "accepted",
        "accepted",
        "none",
        "refused",
    ]
    assert checked.result.state.scores == (13, -5) and checked.result.state.striker == "Пётр"


def test_a_refused_call_not_marked_is_named_at_its_words_with_how_to_say_it():
    checked = check_record(lines(GOOD.replace("тройку в угол (не принят)", "тройку в угол")))
    p = only(checked.problems, "call")
    assert (p.line, p.col, p.code) == (9, 14, "pocket_not_definite")  # at «в угол»
    assert (
        p.message()
        == "заказ не принят: луза названа неточно: «в угол»: не сказано, левый угол или "
        "правый (Q2)"
    )
    assert "«в левый угол»" in p.hint() and "отметьте «(не принят)»" in p.hint()


def test_a_call_marked_refused_that_the_referee_accepts_is_named():
    checked = check_record(
        lines(
            GOOD.replace(
                "семерку чисто в правый угол |", "семерку чисто в правый угол (не принят) |"
            )
        )
    )
    p = only(checked.problems, "call")
    assert (p.line, p.col) == (7, 7) and "отмечен «(не принят)»" in p.message()


def test_a_running_score_that_does_not_add_up_names_the_score_the_rules_give():
    text = GOOD.replace("| 8:0   #", "| 9:0   #")
    checked = check_record(lines(text))
    p = only(checked.problems, "score")
    assert (p.line, p.col) == (6, lines(text)[5].index("9:0") + 1)
    assert p.message() == "счёт не сходится: записано 9:0, по правилам 8:0"
    assert p.hint().startswith("вердикт удара: Заказ выполнен; Иван +5")
    assert checked.result.state.scores == (13, -5)  # the rules' score goes on, not the written one


def test_the_wrong_player_to_move_is_named_with_why():
    checked = check_record(lines(GOOD.replace("Пётр: без заказа", "Иван: без заказа")))
    p = only(checked.problems, "player")
    assert (p.line, p.col) == (8, 1) and p.message() == "сейчас бьёт Пётр, а не Иван"
    assert p.hint().startswith("после удара в строке 7: Заказ не выполнен")


def test_a_name_that_is_not_a_player_is_named():
    checked = check_record(lines(GOOD.replace("Пётр: без заказа", "Петя: без заказа")))
    p = only(checked.problems, "player")
    assert (
        p.message() == "«Петя» не играет в этой партии"
        and "играют Иван и Пётр; сейчас бьёт Пётр" in p.hint()
    )


def test_an_outcome_that_cannot_happen_is_pointed_at_and_stops_the_judging():
    text = GOOD.replace("биток 7 | 8:0", "биток 7; 7 в левый угол; 7 борт | 8:0").replace(
        "биток 6", "биток 16"
    )
    checked = check_record(lines(text))
    impossible = [p for p in checked.problems if p.line == 7]
    assert len(impossible) == 1 and impossible[0].kind == "outcome"
    assert impossible[0].message().startswith("исход не сходится с партией: ")
    assert impossible[0].col == lines(text)[6].index("7 борт") + 1
    assert checked.judged_to == 7 and len(checked.result.rows) == 2
    # later lines are not judged, but their notation is still read
    bad = [p for p in checked.problems if p.line == 9]
    assert len(bad) == 1 and bad[0].message() == "исход: шара 16 нет: номера шаров 1–15"
    assert bad[0].col == lines(text)[8].index("16") + 1


def test_a_stroke_after_the_end_of_the_game_is_named():
    text = (
        "Игроки: Иван, Пётр\nДо: 3\n"
        "Иван: тройку чисто в правый угол | биток 3, 3 в правый дальний угол | 3:0\n"
        "Пётр: без заказа | биток 5\n"
    )
    checked = check_record(lines(text))
    p = only(checked.problems, "over")
    assert p.line == 4 and p.message() == "партия уже окончена: удар лишний"


@pytest.mark.parametrize(
    "line, col, words",
    [
        ("Пётр тройку | биток 3", 13, "здесь не к месту «|»; ожидалось: «:»"),
        ("Пётр: тройку чисто (в угол) | биток 3", 20, "здесь не к месту «(в»"),
        ("Пётр: без заказа |", 19, "строка оборвана: не хватает: исход"),
        ("Пётр: без заказа | биток 3 | 3:", 32, "строка оборвана"),
    ],
)
def test_a_line_of_the_wrong_form_is_named_by_line_and_column(line, col, words):
    checked = check_record(["Игроки: Иван, Пётр", line])
    p = only(checked.problems, "syntax")
    assert (p.line, p.col) == (2, col) and p.message().startswith(words) and p.hint()


def test_a_stroke_without_the_bar_is_told_so_not_taken_for_a_header():
    checked = check_record(["Игроки: Иван, Пётр", "Иван: тройку чисто в правый угол"])
    p = only(checked.problems, "syntax")
    assert p.message() == "у удара нет «|» между заказом и исходом"


def test_players_are_written_with_a_comma_or_a_dash():
    for line in ("Игроки: Иван, Пётр", "Игроки: Иван — Пётр", "игроки:Иван - Пётр"):
        assert read_record([line])[0].players == ("Иван", "Пётр")
    assert read_record(["Игроки: Анна-Мария, Пётр"])[0].players == ("Анна-Мария", "Пётр")


def test_the_readme_example_record_checks_clean():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    example = readme.split("### The game record", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    checked = check_record(example.splitlines())
    assert checked.problems == [] and len(checked.result.rows) == 3


def test_header_words_become_settings_and_a_start_position():
    rec, problems = read_record(
        lines("""\
Игроки: Иван, Пётр
Режим: шар и луза
Партия до: 41
Штраф: 3
Отрицательный счёт: нет
Стоимость шаров: по номерам
Точность лузы: любая
Нужен результат: да
Счёт: Иван 20, Пётр 0
На столе: 2 4 5 6 7 8 9 10 11 12 13 14 15
Бьёт: Пётр
С руки: да
""")
    )
    assert problems == []
    assert rec.settings == {
        "mode": "ball_and_pocket",
        "target": 41,
        "penalty": 3,
        "negative_scores": False,
        "ball_values": "face",
        "pocket_precision": "any",
        "result_required": True,
    }
    assert rec.start == {
        "scores": {"Иван": 20, "Пётр": 0},
        "on_table": [2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        "to_play": "Пётр",
        "from_hand": True,
    }


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("Иван: - | биток 3", 1, "не указаны игроки"),
        ("# только комментарий\n\n", 1, "запись пуста: нет ни заголовка, ни ударов"),
        ("Игроки: Иван\nИван: - | биток 3", 1, "нужны два имени через запятую"),
        ("Игроки: Иван, Пётр\nЦвет: синий", 2, "неизвестный заголовок «Цвет»"),
        ("Игроки: Иван, Пётр\nРежим: быстрый", 2, "«быстрый» — не подходит"),
        ("Игроки: Иван, Пётр\nДо: ноль", 2, "«ноль» — нужно целое число не меньше 1"),
        (
            "Игроки: Иван, Пётр\nИван: - | биток 3\nШтраф: 3",
            3,
            "заголовок «Штраф» после первого удара",
        ),
        (
            "Игроки: Иван, Пётр\nСчёт: Иван 3, Пётр 0\nИван: - | биток 4",
            2,
            "начало с протокола задано не полностью",
        ),
        (
            "Игроки: Иван, Пётр\nСчёт: Иван 5, Пётр 0\nНа столе: 1 2 4 5 6 7 8 9 10 11 12 13 14 "
            "15\nБьёт: Пётр",
            2,
            "начало с протокола: очков в сумме 5, а шары, которых уже нет на столе, дают 3",
        ),
    ],
)
def test_a_bad_header_is_named_by_its_line(text, line, words):
    checked = check_record(lines(text))
    assert checked.result is None  # no stroke is judged against a header that does not hold
    p = checked.problems[0]
    assert p.kind == "header" and p.line == line and words in p.message(), checked.problems


def test_a_record_is_known_by_its_extension_or_its_players_line():
    assert is_record("партия.record", []) and is_record("партия.партия", [])
    assert is_record("p.txt", ["# протокол", "", "Игроки: Иван, Пётр"])
    assert not is_record("calls.txt", ["тройку чисто в правый угол"])
    assert not is_record("m.jsonl", ['{"players": ["A", "B"]}'])


_LATIN = re.compile(r"[A-Za-z]{2,}")


def _unquoted(text: str) -> str:
    return re.sub(r"«[^»]*»", "", text)


def test_russian_problems_carry_no_latin_words_outside_quotes():
    text = "\n".join(
        [
            "Игроки: Иван, Пётр",
            "Цвет: синий",
            "Иван: тройку в угол | биток 3, 3 в правый дальний угол | 9:0",
            "Пётр: - | биток 4",
            "Петя: - | биток 4",
            "Иван: тройку чисто (в угол) | биток 3",
            "Иван: - | биток 7; 7 в правый угол; 7 борт",
        ]
    )
    for p in (
        check_record(lines(text)).problems
        + check_record(lines(text)[:1] + lines(text)[2:]).problems
    ):
        for part in (p.message("ru"), p.hint("ru")):
            words = [
                w for w in _LATIN.findall(_unquoted(part)) if not re.fullmatch(r"[CEPQ]\d*", w)
            ]
            assert words == [], part


CORPUS = sorted((Path(__file__).resolve().parent.parent / "corpora" / "matches").glob("*.jsonl"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_corpus_match_written_as_a_record_checks_clean_and_ends_the_same(path):
    # Every scenario of the rules (penalties, draws, the last-ball replay, starts from a score
    # sheet, both modes) goes through the record's writer and reader and is judged the same.
    result = replay_lines(path.read_text(encoding="utf-8").splitlines())
    script = result.script
    match = Match(script.settings, list(script.players), script.start)
    written = []
    for row in result.rows:
        match.stroke(row.call, row.outcome, call_status=row.call_status)
        written.append(
            WrittenStroke(
                row.verdict.striker,
                row.call_status,
                row.call_text,
                None if row.call is None else row.call.to_json(),
                None,
                row.outcome.to_json(),
                tuple(match.state.scores),
            )
        )
    text = render_record(
        path.stem, script.players, script.settings.to_json(), script.start, written
    )
    checked = check_record(text.splitlines())
    assert checked.problems == [], (text, checked.problems)
    assert [r.verdict for r in checked.result.rows] == [r.verdict for r in result.rows]
    assert checked.result.state == result.state


def test_the_help_example_strokes_check_clean():
    from pyramid_referee.i18n import catalog
    from pyramid_referee.match.record import RECORD_HELP

    for text in (
        catalog("ru").gettext(RECORD_HELP),
        RECORD_HELP.replace("«", "").replace("»", ""),
    ):
        example = ["Игроки: Иван, Пётр"] + [
            x.strip() for x in text.splitlines() if x.startswith("  ") and "|" in x
        ]
        checked = check_record(example)
        assert checked.problems == [] and len(checked.result.rows) == 3


# -- a match of several партии: «Матч до побед: N» ------------------------------------------------

MATCH_RECORD = [
    "Игроки: Иван, Пётр",
    "До: 5",
    "Матч до побед: 2",
    "Иван: пятёрку чисто в правый угол | биток 5; 5 в правый дальний угол | 5:0",
    # game 2: Пётр breaks (E4)
    "Пётр: пятёрку чисто в правый угол | биток 5; 5 в правый дальний угол | 0:5",
    # game 3 decides the match
    "Иван: пятёрку чисто в правый угол | биток 5; 5 в правый дальний угол | 5:0",
]


def test_a_record_of_a_match_of_several_games_checks_clean_with_the_break_alternating():
    checked = check_record(MATCH_RECORD)
    assert checked.problems == []
    assert checked.result.final_json()["series"]["wins"] == {"Иван": 2, "Пётр": 1}


def test_a_stroke_after_the_match_is_decided_is_one_too_many():
    checked = check_record(MATCH_RECORD + [MATCH_RECORD[-1]])
    assert [(p.line, p.kind) for p in checked.problems] == [(7, "over")]


def test_a_bad_match_length_is_named_with_its_range():
    checked = check_record(["Игроки: Иван, Пётр", "Матч до побед: 0", MATCH_RECORD[3]])
    assert checked.problems and "99" in checked.problems[0].message("ru")


def test_after_an_outcome_that_cannot_be_the_later_calls_are_still_read():
    # line 3: ball 7 fell twice, so the game cannot be judged on; line 4's unknown word
    # is still named
    lines = [
        "Игроки: Иван, Пётр",
        "Иван: семёрку чисто в правый угол | биток 7; 7 в правый дальний угол; 7 в левую середину",
        "Пётр: тройку чисто в правый угл | биток 3",
    ]
    checked = check_record(lines)
    kinds = [(p.line, p.kind) for p in checked.problems]
    assert (2, "outcome") in kinds and (3, "call") in kinds, kinds


def test_a_line_parses_to_a_named_record():
    from pyramid_referee.match.record import HeaderLine, StrokeLine, parse_line

    header = parse_line("Игроки: Иван, Пётр")
    assert isinstance(header, HeaderLine)
    assert (header.key, header.key_col, header.value, header.value_col) == (
        "Игроки",
        1,
        "Иван, Пётр",
        9,
    )
    stroke = parse_line("Иван: тройку в угол (не принят) | биток 6 | 3 : -5")
    assert isinstance(stroke, StrokeLine)
    assert (stroke.player, stroke.call, stroke.call_col, stroke.refused_mark) == (
        "Иван",
        "тройку в угол",
        7,
        True,
    )
    assert (stroke.outcome, stroke.score) == ("биток 6", (3, -5))
    assert (
        parse_line("Пётр: без заказа | биток 9").call is None and parse_line("# a comment") is None
    )
