"""Exports of a stored match (match/report.py): JSON, the CSV a spreadsheet opens, the replay
script in the players' own words, the written game record."""

from __future__ import annotations

import csv
import io
import json

import pytest

from pyramid_referee.cli.play import Play
from pyramid_referee.i18n import set_lang
from pyramid_referee.match.report import (
    CSV_BOM,
    csv_number,
    export_csv,
    export_json,
    export_record,
    export_script,
)
from pyramid_referee.match.session import Session
from pyramid_referee.match.store import Store


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "m.sqlite") as s:
        yield s


def play(store, lines, players=("Аня", "Боря"), settings=None, to_wins=1):
    s = Session.create(store, list(players), settings, lang="ru", to_wins=to_wins)
    it = iter(lines)
    Play(
        s,
        out=io.StringIO(),
        err=io.StringIO(),
        json_mode=True,
        interactive=False,
        lang="ru",
        resumed=False,
    ).run(lambda prompt: next(it, None))
    return s


# Аня pockets 3 (C2), then 5 (said as a player says it: «пятёрку»);
# misses 7 (Q3); Боря touches a ball (P1 г); then a call refused for its pocket (Q2).
GAME = [
    "тройку чисто в правый угол | биток 3, 3 в правый дальний угол",
    "пятёрку чисто в левую середину | биток 5; 5 в левую середину",
    "семерку чисто в правый угол | биток 7",
    "- | биток 9; фол г",
    "тройку в угол | биток 6",
]


def _csv_rows(text):
    assert text.startswith(CSV_BOM)
    return list(csv.reader(io.StringIO(text[len(CSV_BOM) :]), delimiter=";"))


def test_export_json_keeps_the_undone_strokes_apart(store):
    s = play(store, GAME + ["undo"])
    data = export_json(store, s.id)
    assert data["match"]["players"] == ["Аня", "Боря"]
    assert [x["seq"] for x in data["strokes"]] == [1, 2, 3, 4]
    assert [x["seq"] for x in data["undone"]] == [5]
    assert data["final"] == store.strokes(s.id)[-1].record.state


def test_csv_opens_in_russian_excel_as_is(store):
    # Excel reads UTF-8 only after a BOM and splits at «;» in a Russian locale.
    s = play(store, GAME)
    text = export_csv(store, s.id)
    rows = _csv_rows(text)
    head = rows[0]
    assert head[:5] == ["матч", "удар", "время", "бьёт", "заказ"]
    assert "счёт Боря" in head and "вердикт" in head
    assert len(rows) == 6 and all(len(r) == len(head) for r in rows)
    row = dict(zip(head, rows[4]))
    assert (
        row["штраф платит"] == "Боря"
        and row["фолы"] == "касание шара (P1г)"
        and row["счёт Боря"] == "-5"
    )
    assert row["заказ принят"] == "без заказа" and row["исход"] == "биток 9; фол г"
    refused = dict(zip(head, rows[5]))
    assert (
        refused["заказ принят"] == "нет" and "луза названа неточно" in refused["почему не принят"]
    )
    assert dict(zip(head, rows[1]))["заказ выполнен"] == "да"
    assert "\r\n" in text  # Excel's own line ends


def test_csv_headers_follow_the_language_given_not_the_command_lines(store):
    s = play(store, GAME[:1])
    head = _csv_rows(export_csv(store, s.id, "en"))[0]  # the command line's is Russian here
    assert head[:5] == ["match", "stroke", "time", "striker", "call"] and "score Боря" in head
    set_lang("en")
    try:
        head = _csv_rows(export_csv(store, s.id))[0]  # none given: the store's (Russian)
    finally:
        set_lang("ru")
    assert head[:2] == ["матч", "удар"]


# A match to 2 won games (партии) to 11 points: Аня wins the first with the ace (11), Боря breaks
# the second (E4: the break alternates), Аня wins it too and with it the match.
ACE = "туза чисто в правый угол | биток 1, 1 в правый дальний угол"
SHORT_MATCH = [ACE, "- | биток 5", ACE]


def test_csv_names_the_game_of_every_stroke_in_a_match_of_several(store):
    s = play(store, SHORT_MATCH, settings={"target": 11}, to_wins=2)
    head, *rows = _csv_rows(export_csv(store, s.id))
    assert head[-1] == "партия" and [r[-1] for r in rows] == ["1", "2", "2"]
    assert all(len(r) == len(head) for r in rows)


def test_csv_keeps_the_columns_other_tools_read_in_their_order(store):
    s = play(store, GAME[:1])
    head = _csv_rows(export_csv(store, s.id))[0]
    assert head[:-1] == [
        "матч",
        "удар",
        "время",
        "бьёт",
        "заказ",
        "заказ принят",
        "почему не принят",
        "исход",
        "заказ выполнен",
        "очки Аня",
        "очки Боря",
        "штраф платит",
        "фолы",
        "засчитаны шары",
        "выставлены шары",
        "счёт Аня",
        "счёт Боря",
        "бьёт следующим",
        "итог",
        "пункты правил",
        "вердикт",
    ]


def test_csv_next_player_after_a_game_is_the_next_games_breaker_and_empty_at_the_match_end(store):
    s = play(store, SHORT_MATCH, settings={"target": 11}, to_wins=2)
    head, *rows = _csv_rows(export_csv(store, s.id))
    nxt = [dict(zip(head, r))["бьёт следующим"] for r in rows]
    assert [dict(zip(head, r))["бьёт"] for r in rows] == ["Аня", "Боря", "Аня"]
    assert nxt == [
        "Боря",
        "Аня",
        "",
    ]  # Боря breaks game 2 (E4); after the match's last stroke nobody


def test_csv_next_player_is_empty_when_a_one_game_match_ends(store):
    s = play(store, [ACE], settings={"target": 11})
    head, row = _csv_rows(export_csv(store, s.id))
    assert (
        dict(zip(head, row))["итог"] == "победитель — Аня"
        and dict(zip(head, row))["бьёт следующим"] == ""
    )
    assert row[-1] == "1"


def test_csv_numbers_use_the_decimal_comma():
    assert csv_number(2.5) == "2,5" and csv_number(-0.25) == "-0,25"
    assert csv_number(3.0) == "3" and csv_number(-5) == "-5" and csv_number(True) == "1"


def test_exported_script_replays_to_the_stored_state_in_the_players_own_words(store):
    from pyramid_referee.match.replay import replay_lines

    s = play(store, GAME + ["- | биток 8", "undo"])
    text = export_script(store, s.id)
    calls = [json.loads(x)["call"] for x in text.splitlines()[1:]]
    assert calls == [
        "тройку чисто в правый угол",
        "пятёрку чисто в левую середину",
        "семерку чисто в правый угол",
        None,
        "тройку в угол",
    ]  # as said, not canonical («пятёрку», not «пятый»)
    result = replay_lines(text.splitlines())
    rows = store.strokes(s.id)
    assert [r.verdict.to_json("ru") for r in result.rows] == [r.record.verdict for r in rows]
    assert result.state.to_json() == rows[-1].record.state


def test_exported_record_checks_clean_and_replays_to_the_stored_score(store):
    from pyramid_referee.match.record import check_record

    s = play(store, GAME, settings={"target": 31, "penalty": 3})
    text = export_record(store, s.id)
    assert "Игроки: Аня, Боря" in text and "До: 31" in text and "Штраф: 3" in text
    assert "Аня: пятёрку чисто в левую середину | биток 5; 5 в левую середину | 8:0" in text
    assert "Боря: без заказа | биток 9; фол г | 11:−3" in text
    assert "Аня: тройку в угол (не принят) | биток 6 | 11:−3" in text
    checked = check_record(text.splitlines())
    assert checked.problems == []
    assert checked.result.state.to_json() == store.strokes(s.id)[-1].record.state


def test_exported_record_keeps_a_start_from_a_score_sheet(store):
    from pyramid_referee.match.record import check_record

    start = {
        "scores": {"Аня": 20, "Боря": 7},
        "on_table": [2, 4, 6, 7, 9, 10, 11, 12, 13, 14, 15],
        "to_play": "Боря",
    }
    s = Session.create(store, ["Аня", "Боря"], None, start, lang="ru")
    it = iter(["шестерку чисто в левую середину | биток 6; 6 в левую середину"])
    Play(
        s,
        out=io.StringIO(),
        err=io.StringIO(),
        json_mode=True,
        interactive=False,
        lang="ru",
        resumed=False,
    ).run(lambda prompt: next(it, None))
    text = export_record(store, s.id)
    assert "Счёт: Аня 20, Боря 7" in text and "Бьёт: Боря" in text
    checked = check_record(text.splitlines())
    assert checked.problems == [] and checked.result.state.scores == (20, 13)


def test_a_name_a_record_cannot_hold_is_refused_not_written_wrong(store):
    from pyramid_referee.i18n import UserError

    s = play(store, GAME[:1], players=("Иван: капитан", "Пётр"))
    with pytest.raises(UserError, match="«Иван: капитан» не записать в запись партии"):
        export_record(store, s.id)


def _two_games_to_two_wins(store):
    """A match to 2 won games of 5 points: Аня wins game 1, Боря (who breaks it, E4) game 2."""
    return play(
        store,
        ["пятёрку чисто в правый угол | биток 5, 5 в правый дальний угол"] * 2,
        settings={"target": 5},
        to_wins=2,
    )


def test_a_match_of_several_games_exported_as_a_script_replays_to_the_same_match_score(store):
    from pyramid_referee.match.replay import replay_lines
    from pyramid_referee.match.report import export_script

    s = _two_games_to_two_wins(store)
    script = export_script(store, s.id)
    assert json.loads(script.splitlines()[0])["to_wins"] == 2
    result = replay_lines(script.splitlines())
    # game 1 to Аня, game 2 (broken by Боря, E4) to Боря: one all, the match goes on
    assert result.final_json()["series"]["wins"] == {"Аня": 1, "Боря": 1}
    assert [r.verdict.striker for r in result.rows] == ["Аня", "Боря"]


def test_a_match_of_several_games_exported_as_a_record_checks_clean_and_replays_the_same(store):
    from pyramid_referee.match.record import check_record
    from pyramid_referee.match.report import export_record

    s = _two_games_to_two_wins(store)
    text = export_record(store, s.id)
    assert "Матч до побед: 2" in text and text.startswith("# Запись матча")
    checked = check_record(text.splitlines())
    assert checked.problems == []
    assert checked.result.final_json()["series"]["wins"] == {"Аня": 1, "Боря": 1}


def test_csv_in_english_says_the_verdicts_in_english_too(store):
    s = play(store, GAME)
    rows = _csv_rows(export_csv(store, s.id, "en"))
    verdicts = [dict(zip(rows[0], r))["verdict"] for r in rows[1:]]
    assert verdicts[0].startswith("Call fulfilled") and not any("Заказ" in v for v in verdicts)
    refused = dict(zip(rows[0], rows[5]))["why refused"]  # «тройку в угол»: which corner
    assert refused.startswith("the pocket is not definite"), refused


def test_csv_keeps_the_ascii_minus_excel_reads_as_a_number(store):
    s = play(store, ["- | биток 9; фол г"])
    head, row = _csv_rows(export_csv(store, s.id))
    assert dict(zip(head, row))["счёт Аня"] == "-5" and dict(zip(head, row))["очки Аня"] == "-5"


def test_csv_outcome_is_the_markers_words_when_they_read_as_stored(store):
    s = play(store, ["- | промах", "- | биток 9; касание"])
    head, *rows = _csv_rows(export_csv(store, s.id))
    assert [dict(zip(head, r))["исход"] for r in rows] == ["промах", "биток 9; касание"]


# -- exports people read -------------------------------------------------------------------------

PAD_NOTHING = json.dumps(
    {"events": [], "fouls": [], "route_ok": False}
)  # «Записать удар» after «мимо»
PAD_MISS = json.dumps({"events": [], "fouls": ["а"], "route_ok": False})


def test_csv_writes_one_word_for_no_call_however_it_was_typed(store):
    s = play(store, ["- | биток 9", "без заказа | биток 8", "| биток 7"])
    head, *rows = _csv_rows(export_csv(store, s.id))
    assert [dict(zip(head, r))["заказ"] for r in rows] == ["без заказа"] * 3


def test_csv_names_the_fouls_not_their_bare_letters(store):
    s = play(store, ["тройку чисто в правый угол | биток 3; биток в правый дальний угол; фол г"])
    head, *rows = _csv_rows(export_csv(store, s.id))
    fouls = dict(zip(head, rows[0]))["фолы"]
    assert fouls == "биток в лузе (P1б), касание шара (P1г)"


def test_csv_writes_the_pads_strokes_as_people_read_them(store):
    s = Session.create(store, ["Аня", "Боря"], lang="ru")
    s.enter(None, PAD_NOTHING)
    s.enter(None, PAD_MISS)
    reading = s.read_call("тройку чисто в правый угол")
    s.enter(
        reading.text, json.dumps({"events": [], "fouls": [], "route_ok": False}), reading=reading
    )
    head, *rows = _csv_rows(export_csv(store, s.id))
    assert [dict(zip(head, r))["исход"] for r in rows] == [
        "ничего не упало",
        "промах",
        "ничего не упало",
    ]
    assert all("по заказу" not in ";".join(r) for r in rows[:2])
