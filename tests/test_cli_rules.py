"""`pyramid-referee rules [CODE…]`: the text of the clauses verdicts cite, one, several or all."""

from __future__ import annotations

import json
import re

from pyramid_referee.cli import main
from pyramid_referee.rules.clauses import TABLE


def test_one_clause_is_printed_with_its_title_and_text(capsys):
    assert main(["rules", "C2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "C2. Чистое назначение: шар, луза и способ.\n   При чистом назначении игрок называет"
    )
    assert "Q10" not in out.split("\n")[0]


def test_several_clauses_in_the_order_asked_and_codes_in_any_case(capsys):
    assert main(["rules", "q10", "p1б", "С5"]) == 0  # «С» in Cyrillic too
    heads = [
        line.split(".")[0]
        for line in capsys.readouterr().out.splitlines()
        if line and not line.startswith(" ")
    ]
    assert heads == ["Q10", "P1б", "C5"]


def test_a_policy_says_which_clauses_it_settles(capsys):
    assert main(["rules", "Q1"]) == 0
    assert "   Уточняет пункты: P2, P3." in capsys.readouterr().out


def test_all_clauses_under_their_section_headings(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for c in TABLE:
        assert f"\n{c.code}. " in "\n" + out, c.code
    assert (
        out.index("УСЛОВИЯ ИГРЫ")
        < out.index("КОНЕЦ ИГРЫ")
        < out.index("ШТРАФНЫЕ УДАРЫ")
        < out.index("РЕШЕНИЯ")
    )


def test_an_unknown_code_is_refused_with_what_exists(capsys):
    assert main(["rules", "C2", "C99"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "нет такого пункта «C99»; есть C1–C11, E1–E6, P1–P8 (P1а–P1и), Q1–Q14" in err
    assert "unknown_clause" not in err  # the code belongs in --json, not in the human line


def test_an_unknown_code_in_json_names_the_code_and_the_refusal(capsys):
    assert main(["rules", "Z1", "--json"]) == 2
    got = json.loads(capsys.readouterr().out)
    assert (
        got["ok"] is False
        and got["error"]["code"] == "unknown_clause"
        and got["error"]["unknown"] == ["Z1"]
    )


def test_json_gives_one_line_a_clause(capsys):
    assert main(["rules", "C5", "Q2", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["code"] for r in rows] == ["C5", "Q2"]
    assert rows[0]["title"] == "последний шар можно не называть" and rows[1]["settles"] == [
        "C2",
        "C9",
    ]
    assert rows[0]["section"] == "Условия игры (заказ)"


def test_english_with_lang_en(capsys):
    assert main(["--lang", "en", "rules", "E1"]) == 0
    assert (
        capsys.readouterr().out
        == "E1. The first to 71 wins.\n   The first player to reach 71 points wins, and the "
        "game is over.\n"
    )
    assert main(["rules", "C99", "--lang", "en"]) == 2
    assert "there is no clause «C99»" in capsys.readouterr().err


def test_russian_output_has_no_latin_words_but_clause_codes(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    words = set(re.findall(r"[A-Za-z][A-Za-z0-9]*", out))
    assert words <= {c.code for c in TABLE}, words - {c.code for c in TABLE}


def test_play_with_why_shows_each_verdicts_clauses_in_full(capsys, monkeypatch, tmp_path):
    import io
    import sys

    strokes = (
        "тройку чисто в правый угол | биток 3; 3 в правый дальний угол\n- | биток 7; биток в "
        "лузе\n"
    )
    db = str(tmp_path / "m.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO(strokes))
    assert main(["play", "--players", "Иван", "Пётр", "--db", db, "--why"]) == 0
    out = capsys.readouterr().out
    assert "   Q10. Чистый заказ судится строго. Вопрос: насколько строго" in out
    assert "   P1б. Биток в лузе. Свой шар, биток, упал в лузу." in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(strokes))
    assert main(["play", "--players", "Иван", "Пётр", "--db", str(tmp_path / "n.db")]) == 0
    assert "Q10. " not in capsys.readouterr().out  # without --why the verdict line alone


def test_match_show_with_why_prints_each_strokes_clauses_in_full(capsys, monkeypatch, tmp_path):
    import io
    import sys

    db = str(tmp_path / "m.db")
    monkeypatch.setattr(sys, "stdin", io.StringIO("- | биток 7; биток в лузе\n"))
    assert main(["play", "--players", "Иван", "Пётр", "--db", db]) == 0
    capsys.readouterr()
    assert main(["match", "show", "1", "--db", db, "--why"]) == 0
    out = capsys.readouterr().out
    assert "\n   C10. Заказ — до удара. Заказ произносят до удара." in out
    assert main(["match", "show", "1", "--db", db]) == 0
    assert "C10. " not in capsys.readouterr().out


def test_listen_offers_why():
    from pyramid_referee.cli import build_parser

    args = build_parser().parse_args(["listen", "--why"])
    assert args.why is True


def test_every_code_the_engine_or_the_shell_can_cite_is_printed_by_rules(capsys):
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    codes = set()
    for folder in ("rules", "grammar", "pyramid_referee"):
        for path in (root / folder).glob("*.py"):
            if path.name != "clauses.py":
                codes |= set(
                    re.findall(r'"((?:C|E|P|Q)\d+[а-и]?)"', path.read_text(encoding="utf-8"))
                )
    assert len(codes) > 20
    assert main(["rules", *sorted(codes)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert all(f"{c}. " in out for c in codes)


def test_several_unknown_codes_are_all_named(capsys):
    assert main(["rules", "C99", "Q2", "X"]) == 2
    assert "нет таких пунктов: «C99», «X»; есть C1–C11" in capsys.readouterr().err


def test_a_short_game_shows_its_own_target_under_the_verdict(capsys, monkeypatch, tmp_path):
    import io
    import sys

    db = str(tmp_path / "m.db")
    monkeypatch.setattr(
        sys, "stdin", io.StringIO("туза чисто в правый угол | биток 1; 1 в правый дальний угол\n")
    )
    assert (
        main(
            [
                "play",
                "--players",
                "Иван",
                "Пётр",
                "--db",
                db,
                "--settings",
                '{"target": 11}',
                "--why",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert (
        "   E1. Победа — 11 очков. Кто первым наберёт 11 очков, тот выиграл" in out
        and "наберёт 71" not in out
    )
    assert main(["match", "show", "1", "--db", db, "--why"]) == 0
    assert "E1. Победа — 11 очков." in capsys.readouterr().out


def test_replay_of_a_short_game_record_names_its_target_in_the_clause_titles(capsys, tmp_path):
    record = tmp_path / "short.record"
    record.write_text(
        "Игроки: Иван, Пётр\nДо: 11\n"
        "Иван: туза чисто в правый угол | биток 1; 1 в правый дальний угол | 11:0\n",
        encoding="utf-8",
    )
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "E1 — победа — 11 очков" in out and "71" not in out


def test_a_lettered_case_of_p1_is_given_with_its_lead_that_it_is_a_five_point_penalty(capsys):
    assert main(["rules", "P1б"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "P1б. Биток в лузе."
    assert "штрафного удара (P1)" in lines[1] and "5 очков" in lines[1] and "(P2)" in lines[1]
    assert lines[2] == "   Свой шар, биток, упал в лузу."
    assert main(["--lang", "en", "rules", "p1b", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "penalty stroke (P1)" in data["lead"] and "5 points" in data["lead"]


def test_a_clause_that_is_no_lettered_case_has_no_lead(capsys):
    assert main(["rules", "P2", "--json"]) == 0
    assert "lead" not in json.loads(capsys.readouterr().out)
