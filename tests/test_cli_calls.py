"""The calls subcommands: parse, validate, explain."""

import json
import subprocess
import sys

import pytest

from pyramid_referee.cli import main

SEED = "Карамболем от шестерки одиннадцатым шаром тройка прямо в середину"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_parse_json_accepted(capsys):
    status, out, _ = run(capsys, "parse", SEED, "--json")
    assert status == 0
    data = json.loads(out)
    assert data["ok"] is True
    assert data["call"]["route"] == [["cue", 6], ["cue", 11], [11, 3], [3, "pocket"]]
    assert data["canonical"] == "карамболем от шестёрки одиннадцатым шаром тройку чисто в середину"


def test_parse_json_refused(capsys):
    status, out, _ = run(capsys, "parse", "тройку в угол", "--json", "--lang", "en")
    assert status == 1
    data = json.loads(out)
    assert data == {
        "ok": False,
        "error": {
            "code": "pocket_not_definite",
            "message": data["error"]["message"],
            "span": [7, 13],
            "hint": data["error"]["hint"],
        },
    }
    assert "not definite" in data["error"]["message"]


def test_parse_json_names_the_latin_look_alike_letters_it_read_as_cyrillic(capsys):
    """As explain does: a call typed with a Latin «о» and «у» is read, and JSON says so."""
    status, out, _ = run(capsys, "parse", "пятый чисто в левый yг\u006fл", "--json")
    data = json.loads(out)
    assert status == 0 and data["ok"] is True
    assert data["lookalikes"] == [
        {"word": "yгoл", "read_as": "угол", "letters": ["y", "o"], "span": [20, 24]}
    ]
    _, explained, _ = run(capsys, "explain", "пятый чисто в левый yг\u006fл", "--json")
    assert json.loads(explained)["lookalikes"] == data["lookalikes"]
    _, clean, _ = run(capsys, "parse", "пятый чисто в левый угол", "--json")
    assert "lookalikes" not in json.loads(clean)


def test_parse_modes_and_balls_left(capsys):
    status, out, _ = run(
        capsys,
        "parse",
        "в правый угол",
        "--mode",
        "ball-and-pocket",
        "--balls-left",
        "7",
        "--json",
    )
    assert status == 0 and json.loads(out)["call"] == {
        "ball": None,
        "pocket": {"kind": "corner", "side": "right", "end": None},
        "route": None,
    }


def test_parse_human_output(capsys):
    status, out, _ = run(capsys, "parse", "тройку в угол")
    # the refusal code is for tools (--json); the human line says it in words
    assert (
        status == 1
        and out.startswith("не принят: луза названа неточно")
        and "pocket_not_definite" not in out
    )


def test_bad_balls_left_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["parse", "тройку", "--balls-left", "1,99"])
    assert exc.value.code == 2
    assert "99" in capsys.readouterr().err


def test_validate_report(tmp_path, capsys):
    f = tmp_path / "calls.txt"
    f.write_text(
        "# comments and blank lines are skipped\n\nтройку чисто в левый угол\n"
        "  тройку в угол\nабракадабра\n",
        encoding="utf-8",
    )
    status, out, _ = run(capsys, "validate", str(f))
    assert status == 1
    lines = out.splitlines()
    assert (
        lines[0]
        == f"{f}:4:10: луза названа неточно: «в угол»: не сказано, левый угол или правый (Q2)"
    )
    assert lines[2].strip() == "^~~~~~"
    assert lines[3].lstrip().startswith("как сказать:")
    assert f"{f}:5:1: неизвестное слово «абракадабра»" in out and "unknown_word" not in out
    assert lines[-1].endswith("проверено заказов: 3, принято: 1, не принято: 2")


def test_validate_json_lines(tmp_path, capsys):
    f = tmp_path / "calls.txt"
    f.write_text("тройку чисто в левый угол\nтройку в угол\n", encoding="utf-8")
    status, out, _ = run(capsys, "validate", str(f), "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert status == 1 and [r["ok"] for r in rows] == [True, False]
    assert (
        rows[1]["line"] == 2
        and rows[1]["col"] == 8
        and rows[1]["error"]["code"] == "pocket_not_definite"
    )


def test_validate_all_accepted(tmp_path, capsys):
    f = tmp_path / "calls.txt"
    f.write_text("\ufeffтройку чисто в левый угол\n", encoding="utf-8")  # a BOM is fine
    status, _, _ = run(capsys, "validate", str(f))
    assert status == 0


@pytest.mark.parametrize(
    "content, message", [(None, "файл не найден"), (b"\xff\xfe\x00", "UTF-8")]
)
def test_validate_unreadable_file(tmp_path, capsys, content, message):
    f = tmp_path / "calls.txt"
    if content is not None:
        f.write_bytes(content)
    status, out, err = run(capsys, "validate", str(f))
    assert status == 2 and message in err and "Traceback" not in err


def test_explain(capsys):
    status, out, _ = run(capsys, "explain", "тройку от контр-ку в середину")
    assert status == 0 and "контр-ку" in out and "Правильно сказать" in out
    status, out, _ = run(capsys, "explain", "тройку в угол", "--json")
    assert status == 1 and json.loads(out)["error"]["code"] == "pocket_not_definite"


def test_whole_process_exit_statuses(tmp_path):
    """The installed entry point: exit 1 for a refusal, 2 for a missing file, no traceback."""
    cmd = [sys.executable, "-m", "pyramid_referee"]
    r = subprocess.run(cmd + ["parse", "тройку в угол", "--json"], capture_output=True, text=True)
    assert r.returncode == 1 and json.loads(r.stdout)["ok"] is False
    r = subprocess.run(
        cmd + ["validate", str(tmp_path / "missing.txt")], capture_output=True, text=True
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.strip()


def test_validate_ball_and_pocket_with_balls_left(tmp_path, capsys):
    f = tmp_path / "calls.txt"
    f.write_text("тройку в левый угол\nв правый угол\n", encoding="utf-8")
    status, out, _ = run(capsys, "validate", str(f), "--mode", "ball-and-pocket", "--json")
    assert status == 1  # «в правый угол»: no ball named and the balls on the table unknown
    status, out, _ = run(
        capsys, "validate", str(f), "--mode", "ball-and-pocket", "--balls-left", "3", "--json"
    )
    rows = [json.loads(x) for x in out.splitlines()]
    assert status == 0  # C5: with one ball left its number may be left out
    assert rows[1]["call"] == {
        "ball": None,
        "pocket": {"kind": "corner", "side": "right", "end": None},
        "route": None,
    }


def test_pocket_precision_option_in_parse_validate_explain(tmp_path, capsys):  # Q2
    status, out, _ = run(
        capsys, "parse", "тройку чисто в угол", "--pocket-precision", "any", "--json"
    )
    data = json.loads(out)
    assert status == 0 and data["call"]["pocket"] == {"kind": "corner", "side": None, "end": None}
    assert data["canonical"] == "тройку чисто в угол"
    status, out, _ = run(
        capsys, "parse", "тройку чисто в угол", "--pocket-precision", "side_for_corners", "--json"
    )
    assert status == 1 and json.loads(out)["error"]["code"] == "pocket_not_definite"
    f = tmp_path / "calls.txt"
    f.write_text("тройку чисто в угол\nтройку в дальний угол\n", encoding="utf-8")
    status, out, _ = run(
        capsys, "validate", str(f), "--mode", "ball-and-pocket", "--pocket-precision", "any"
    )
    assert status == 0 and out.strip().endswith("принято: 2, не принято: 0")
    status, _, _ = run(capsys, "validate", str(f), "--mode", "ball-and-pocket")
    assert status == 1
    status, out, _ = run(
        capsys, "explain", "тройку чисто в свой угол", "--pocket-precision", "any", "--lang", "en"
    )
    assert status == 0 and "near corner pocket (side not named)" in out


def test_bad_pocket_precision_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["parse", "тройку чисто в угол", "--pocket-precision", "loose"])
    assert exc.value.code == 2 and "--pocket-precision" in capsys.readouterr().err


def test_validate_a_json_file_says_it_reads_text_not_json(tmp_path, capsys):
    f = tmp_path / "calls.jsonl"
    f.write_text(
        '{"text": "тройку чисто в левый угол"}\nтройку чисто в левый угол\n', encoding="utf-8"
    )
    assert main(["validate", str(f)]) == 1
    out = capsys.readouterr().out
    assert "строк, похожих на JSON: 1; «validate» читает текст заказов" in out
    g = tmp_path / "calls.txt"
    g.write_text("тройку чисто в левый угол\n", encoding="utf-8")
    assert main(["validate", str(g)]) == 0
    assert "JSON" not in capsys.readouterr().out


def test_validate_reads_stdin_and_refuses_bytes_that_are_not_utf8():
    cmd = [sys.executable, "-m", "pyramid_referee", "validate", "-"]
    r = subprocess.run(cmd, input="тройку в угол\n".encode(), capture_output=True)
    assert r.returncode == 1 and r.stdout.decode().startswith("<stdin>:1:8: луза названа неточно")
    r = subprocess.run(
        cmd, input="тройку чисто в правый угол\n".encode() + b"\xff\n", capture_output=True
    )
    assert r.returncode == 2 and r.stdout == b""
    assert (
        r.stderr.decode().strip()
        == "pyramid-referee: ошибка: стандартный ввод:2: не текст UTF-8 (байт 49)"
    )


def test_a_call_that_is_not_utf8_is_told_not_misread():
    r = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "parse", "тройку".encode() + b"\xff"],
        capture_output=True,
    )
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    assert "не в UTF-8" in r.stderr.decode()


RECORD = (
    "# Партия в клубе\n"
    "Игроки: Иван, Пётр\n"
    "Иван: тройку чисто в правый угол | биток 3, 3 в правый дальний угол | 3:0\n"
    "Иван: пятёрку в угол | биток 5; 5 в левую середину | 8:0\n"
    "Иван: семерку чисто в правый угол | биток 7\n"
)


def test_validate_checks_a_game_record_like_a_compiler(tmp_path, capsys):
    f = tmp_path / "партия.txt"  # recognised by its «Игроки:» line, not only by the extension
    f.write_text(RECORD, encoding="utf-8")
    assert main(["validate", str(f)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert (
        out[0] == f"{f}:4:15: заказ не принят: луза названа неточно: «в угол»: не сказано, левый "
        "угол или правый (Q2)"
    )
    assert out[1] == "    Иван: пятёрку в угол | биток 5; 5 в левую середину | 8:0"
    assert out[2] == "    " + " " * 14 + "^"
    assert out[3].startswith("    подсказка: скажите «в левый угол» или «в правый угол»")
    assert f"{f}:4:54: счёт не сходится: записано 8:0, по правилам 3:0" in out
    assert f"{f}:5:1: сейчас бьёт Пётр, а не Иван" in out
    assert (
        out[-1]
        == f"{f}: запись партии: ударов 3, проверено по правилам 3, ошибок 3; счёт Иван 3 : 0 Пётр"
    )


def test_validate_a_record_gives_json_for_tools_and_english_on_request(tmp_path, capsys):
    f = tmp_path / "p.record"
    f.write_text(RECORD, encoding="utf-8")
    assert main(["validate", str(f), "--json"]) == 1
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["line"], r["col"], r["kind"]) for r in rows[:-1]] == [
        (4, 15, "call"),
        (4, 54, "score"),
        (5, 1, "player"),
    ]
    assert rows[0]["code"] == "pocket_not_definite" and rows[0]["ok"] is False
    assert rows[-1] == {
        "file": str(f),
        "record": True,
        "ok": False,
        "strokes": 3,
        "judged": 3,
        "problems": 3,
        "scores": {"Иван": 3, "Пётр": 0},
    }
    assert main(["validate", str(f), "--lang", "en"]) == 1
    assert f"{f}:5:1: Пётр is to play, not Иван" in capsys.readouterr().out


def test_validate_a_clean_record_exits_0(tmp_path, capsys):
    f = tmp_path / "p.record"
    f.write_text(
        RECORD.replace("пятёрку в угол", "пятёрку в угол (не принят)")
        .replace("| 8:0", "| 3:0")
        .replace("Иван: семерку", "Пётр: семерку"),
        encoding="utf-8",
    )
    assert main(["validate", str(f)]) == 0
    assert capsys.readouterr().out.endswith("ошибок 0; счёт Иван 3 : 0 Пётр\n")


def test_validate_help_describes_the_record(capsys):
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    out = capsys.readouterr().out
    assert "Игроки: Иван, Пётр" in out and "(не принят)" in out and ".партия" in out


def test_validate_a_record_refuses_options_its_header_sets(tmp_path, capsys):
    f = tmp_path / "p.record"
    f.write_text(RECORD, encoding="utf-8")
    assert main(["validate", str(f), "--mode", "ball-and-pocket"]) == 2
    out, err = capsys.readouterr()
    assert (
        out == ""
        and "это запись партии: режим, точность лузы и шары на столе в ней задают строки заголовка"
        in err
    )


def test_validate_of_a_record_of_a_match_of_several_games_says_the_games_won(tmp_path, capsys):
    f = tmp_path / "m.record"
    f.write_text(
        "Игроки: Иван, Пётр\nДо: 5\nМатч до побед: 2\n"
        "Иван: пятёрку чисто в правый угол | биток 5; 5 в правый дальний угол | 5:0\n"
        "Пётр: пятёрку чисто в правый угол | биток 5; 5 в правый дальний угол | 0:5\n",
        encoding="utf-8",
    )
    assert main(["validate", str(f)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("; партии Иван 1 : 1 Пётр (матч до 2 побед)")


def test_explain_says_which_latin_letters_were_read_as_russian(capsys):
    status, out, _ = run(capsys, "explain", "тройку чиcто в левый угол")  # a Latin «c»
    assert status == 0 and "в слове «чиcто» латинская «c» прочитана как русская" in out
    status, out, _ = run(capsys, "explain", "тройку чиcто в левый угол", "--json")
    data = json.loads(out)
    assert data["ok"] is True and data["canonical"] == "тройку чисто в левый угол"
    assert data["lookalikes"] == [
        {"word": "чиcто", "read_as": "чисто", "letters": ["c"], "span": [7, 12]}
    ]


def test_a_typo_and_a_ball_no_table_has_are_refused_with_what_to_say(capsys):
    status, out, _ = run(capsys, "parse", "четырнадцатй чисто в левый угол", "--json")
    error = json.loads(out)["error"]
    assert (
        status == 1
        and error["code"] == "unknown_word"
        and error["hint"].startswith("«четырнадцатый»?")
    )
    status, out, _ = run(capsys, "parse", "шестнадцатый чисто в левый угол", "--json")
    error = json.loads(out)["error"]
    assert status == 1 and "шара 16 нет" in error["message"]


def test_a_call_over_300_characters_is_refused_naming_the_limit(capsys):
    status, out, _ = run(capsys, "parse", "тройку чисто в левый угол " + "ну " * 100, "--json")
    error = json.loads(out)["error"]
    assert status == 1 and error["code"] == "too_long" and "300" in error["message"]
