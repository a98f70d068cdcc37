"""`pyramid-referee replay MATCH.jsonl [--json] [--lang]` (a stable contract)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pyramid_referee.cli import main

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "matches"


def test_json_lines_one_verdict_a_stroke_then_final(capsys):
    path = CORPUS / "C2_Q10_seed_carambole.jsonl"
    assert main(["replay", str(path), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 5
    for v in lines[:4]:
        for key in (
            "points",
            "penalty",
            "respotted",
            "fulfilled",
            "next",
            "clauses",
            "call_text",
            "call_status",
            "message",
        ):
            assert key in v
    assert lines[0]["call"]["route"] == [["cue", 6], ["cue", 11], [11, 3], [3, "pocket"]]
    assert lines[0]["points"] == {"A": 3, "B": 0}
    assert lines[-1] == {
        "final": True,
        "scores": {"A": 3, "B": 4},
        "result": None,
        "on_table": [1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        "to_play": "A",
        "phase": "normal",
    }


def test_readable_report_in_russian_and_english(capsys):
    path = CORPUS / "E1_first_to_71.jsonl"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Удар 1 (строка 2), A: «пятнадцатый чисто в левый ближний угол»" in out
    assert "Счёт: A 79 : 24 B. Победитель — A." in out
    assert main(["replay", str(path), "--lang", "en"]) == 0
    assert "Score: A 79 : 24 B. A wins." in capsys.readouterr().out


def test_the_report_shows_each_strokes_outcome(capsys):
    path = CORPUS / "C3_combinations_and_abricol.jsonl"
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[4:8] == [
        "Удар 2 (строка 2), A: «тройку чисто в середину»",
        "  исход: биток борт; биток 3; 3 в левую середину",
        "  Заказ не выполнен: абриколь не был заказан; шар 3 выставляется на стол; бьёт B "
        "(C2, Q10, C3, Q3, Q6).",
        "    Пункты правил: C2 — чистое назначение: шар, луза и способ; Q10 — чистый заказ "
        "судится строго; C3 — любая комбинация, абриколь при участии других шаров не обязателен; "
        "Q3 — кто бьёт следующим; Q6 — шар выставляется на стол.",
    ]
    assert main(["--lang", "en", "replay", str(path)]) == 0
    assert "  outcome: биток борт; биток 3; 3 в левую середину" in capsys.readouterr().out


def test_refused_call_in_the_report(capsys):
    assert main(["replay", str(CORPUS / "C4_C9_Q8_refused_calls.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "не принят: после заказа начат другой и не закончен" in out


def test_malformed_line_exit_2_names_line_and_field_and_prints_nothing(capsys):
    path = CORPUS / "bad" / "bad_E6_removed.jsonl"
    assert main(["replay", str(path), "--json"]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    assert "строка 3: исход, событие 1, тип события" in cap.err and "E6" in cap.err


def test_missing_file(capsys, tmp_path):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "файл не найден" in capsys.readouterr().err


def test_not_json_and_a_directory_are_told_in_the_users_language(capsys, tmp_path):
    bad = tmp_path / "m.jsonl"
    bad.write_text('{"call": null, "outcome": \n', encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    assert (
        "строка 1: столбец 26: строка не читается: ожидалось значение" in capsys.readouterr().err
    )
    assert main(["--lang", "en", "replay", str(bad)]) == 2
    assert "line 1: column 26: not JSON: Expecting value" in capsys.readouterr().err
    assert main(["replay", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "это каталог, а не файл" in err and "Is a directory" not in err


def test_an_empty_script_is_refused_not_judged_as_a_game(capsys, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n", encoding="utf-8")
    assert main(["replay", str(empty), "--json"]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and "запись пуста" in cap.err


def test_stdin_that_is_not_utf8_is_told_as_such():
    r = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "replay", "-"],
        input=b'{"call": "\xff", "outcome": {}}\n',
        capture_output=True,
    )
    assert r.returncode == 2 and r.stdout == b""
    assert (
        r.stderr.decode().strip()
        == "pyramid-referee: ошибка: стандартный ввод:1: не текст UTF-8 (байт 10)"
    )


def test_real_entry_point_exit_status(tmp_path):
    bad = tmp_path / "m.jsonl"
    bad.write_text(
        '{"call": null, "outcome": {"events": [{"type": "hit", "a": "cue", "b": 16}]}}\n',
        encoding="utf-8",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "replay", str(bad), "--json", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert (
        "line 1: outcome.events[0].b: 16 is not a ball" in proc.stderr
        and "Traceback" not in proc.stderr
    )


def test_why_expands_each_cited_clause_to_its_full_text(capsys):
    path = CORPUS / "C3_combinations_and_abricol.jsonl"
    assert main(["replay", str(path), "--why"]) == 0
    out = capsys.readouterr().out
    assert (
        "    C3. Любая комбинация, абриколь при участии других шаров не обязателен. Можно "
        "заказать любую" in out
    )
    assert "Пункты правил:" not in out
    assert main(["--lang", "en", "replay", str(path), "--why"]) == 0
    assert "    Q10. A clean call is judged strictly. How strictly" in capsys.readouterr().out


RECORD = (
    "Игроки: Иван, Пётр\n"
    "Иван: тройку чисто в правый угол | биток 3, 3 в правый дальний угол | 3:0\n"
    "Иван: тройку в угол (не принят) | биток 5 | 3:0\n"
    "Пётр: без заказа | биток 9; фол г\n"
)


def test_a_game_record_replays_with_the_same_verdicts_as_its_json_lines(tmp_path, capsys):
    rec = tmp_path / "p.record"
    rec.write_text(RECORD, encoding="utf-8")
    from pyramid_referee.rules.notation import parse_outcome

    script = tmp_path / "p.jsonl"
    script.write_text(
        "\n".join(
            json.dumps(x, ensure_ascii=False)
            for x in [
                {"players": ["Иван", "Пётр"]},
                {
                    "call": "тройку чисто в правый угол",
                    "outcome": parse_outcome("биток 3, 3 в правый дальний угол"),
                },
                {"call": "тройку в угол", "outcome": parse_outcome("биток 5")},
                {"call": None, "outcome": parse_outcome("биток 9; фол г")},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    assert main(["replay", str(script), "--json"]) == 0
    from_json = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert main(["replay", str(rec), "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rows == from_json  # the same lines, the same verdicts
    assert [r["line"] for r in rows[:-1]] == [2, 3, 4]
    assert [r["call_status"] for r in rows[:-1]] == ["accepted", "refused", "none"]
    assert rows[1]["refusal"]["code"] == "pocket_not_definite"
    assert rows[-1]["final"] and rows[-1]["scores"] == {"Иван": 8, "Пётр": -5}
    assert main(["replay", str(rec)]) == 0
    out = capsys.readouterr().out
    assert "Удар 2 (строка 3), Иван: «тройку в угол» не принят: луза названа неточно" in out
    assert out.endswith("Счёт: Иван 8 : −5 Пётр. Партия не окончена; бьёт Иван.\n")


def test_a_record_with_a_problem_is_not_replayed_and_the_problem_is_named(tmp_path, capsys):
    rec = tmp_path / "p.record"
    rec.write_text(
        RECORD.replace("(не принят) ", "").replace("3:0\nПётр", "4:0\nПётр"), encoding="utf-8"
    )
    assert main(["replay", str(rec)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(
        f"pyramid-referee: ошибка: {rec}:3:14: заказ не принят: луза названа неточно"
    )
    assert f"ещё ошибок: 1, все покажет «validate {rec}»" in err


def test_an_empty_record_is_refused_not_a_traceback(tmp_path, capsys):
    rec = tmp_path / "p.record"
    rec.write_text("# только комментарий\n", encoding="utf-8")
    assert main(["replay", str(rec)]) == 2
    assert "p.record:1:1: запись пуста: нет ни заголовка, ни ударов" in capsys.readouterr().err


def test_the_report_of_a_match_of_several_games_ends_with_the_match_score(tmp_path, capsys):
    five = {
        "call": "пятерку чисто в правый угол",
        "outcome": {
            "events": [
                {"type": "hit", "a": "cue", "b": 5},
                {
                    "type": "pocket",
                    "ball": 5,
                    "pocket": {"kind": "corner", "side": "right", "end": "far"},
                },
            ]
        },
    }
    lines = [{"settings": {"target": 5}, "players": ["A", "B"], "to_wins": 2}] + [five] * 3
    f = tmp_path / "m.jsonl"
    f.write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8"
    )
    assert main(["replay", str(f)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("Матч до 2 побед: партии A 2 : 1 B; победитель матча — A.")
    f.write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in lines[:2]) + "\n", encoding="utf-8"
    )
    assert main(["replay", str(f)]) == 0
    assert "следующую партию разбивает B" in capsys.readouterr().out
