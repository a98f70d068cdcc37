"""The match commands on the command line (cli/match.py): output, exit codes, messages.

Run in process through ``cli.main`` (the same parser and error handling as the
installed script); one subprocess test checks the real entry point.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest
from cli_run import run

from pyramid_referee.cli import main

STROKES = (
    "тройку чисто в правый угол | биток 3, 3 в правый дальний угол\n"
    "пятерку чисто в левую середину | биток 5; 5 в левую середину\n"
    "семерку чисто в правый угол | биток 7\n"
    "- | биток 9; фол г\n"
)


def new_match(capsys, monkeypatch, db):
    rc, out, _ = run(
        capsys, monkeypatch, "match", "new", "--players", "Аня", "Боря", "--db", db, "--json"
    )
    assert rc == 0
    return json.loads(out)["match"]


def test_new_list_play_show(capsys, monkeypatch, db):
    mid = new_match(capsys, monkeypatch, db)
    rc, out, err = run(capsys, monkeypatch, "play", "--match", str(mid), "--db", db, stdin=STROKES)
    assert rc == 0, err
    assert "Заказ выполнен" in out and "счёт: Аня 13 : −5 Боря" in out
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    (m,) = json.loads(out)["matches"]
    assert (m["id"], m["strokes"], m["status"]) == (mid, 4, "open")
    rc, out, _ = run(capsys, monkeypatch, "match", "show", str(mid), "--db", db, "--json")
    data = json.loads(out)
    assert rc == 0 and data["mismatches"] == []
    assert data["state"]["scores"] == {"Аня": 13, "Боря": -5}
    assert [s["seq"] for s in data["strokes"]] == [1, 2, 3, 4]
    rc, out, _ = run(capsys, monkeypatch, "match", "show", str(mid), "--db", db)
    assert (
        rc == 0 and "биток 3, 3 в правый дальний угол" in out
    )  # the outcome as the marker typed it


def test_undo_redo_commands_default_to_latest(capsys, monkeypatch, db):
    mid = new_match(capsys, monkeypatch, db)
    run(capsys, monkeypatch, "play", "--match", str(mid), "--db", db, stdin=STROKES)
    rc, out, _ = run(capsys, monkeypatch, "undo", "--db", db, "--json")
    assert rc == 0 and json.loads(out)["stroke"] == 4
    rc, out, _ = run(capsys, monkeypatch, "undo", str(mid), "--db", db)
    assert rc == 0 and "удар 3 отменён" in out
    rc, out, _ = run(capsys, monkeypatch, "redo", "--db", db, "--json")
    assert json.loads(out)["stroke"] == 3 and json.loads(out)["state"]["to_play"] == "Боря"
    rc, out, _ = run(capsys, monkeypatch, "match", "show", str(mid), "--db", db, "--json")
    data = json.loads(out)
    assert [s["seq"] for s in data["strokes"]] == [1, 2, 3] and [
        s["seq"] for s in data["undone"]
    ] == [4]


def test_resume_defaults_to_latest_unfinished(capsys, monkeypatch, db):
    a = new_match(capsys, monkeypatch, db)
    b = new_match(capsys, monkeypatch, db)
    run(capsys, monkeypatch, "play", "--match", str(a), "--db", db, stdin="- | биток 4\n")
    rc, out, _ = run(
        capsys, monkeypatch, "match", "resume", "--db", db, "--json", stdin="- | биток 6\n"
    )
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["match"] == a and lines[0]["resumed"] and lines[0]["seq"] == 1
    assert lines[1]["type"] == "stroke" and lines[1]["seq"] == 2
    assert b != a


def test_show_speaks_the_language_asked_for_not_the_one_the_strokes_were_entered_in(
    capsys, monkeypatch, db
):
    mid = new_match(capsys, monkeypatch, db)
    run(
        capsys, monkeypatch, "--lang", "en", "play", "--match", str(mid), "--db", db, stdin=STROKES
    )
    rc, out, _ = run(capsys, monkeypatch, "match", "show", str(mid), "--db", db)
    assert rc == 0
    lines = out.splitlines()
    assert lines[1].startswith("#1 Аня: тройку чисто в правый угол |") and lines[1].endswith(
        "→ Заказ выполнен; Аня +3 (шар 3); снова бьёт Аня (C2, Q10, Q4, Q3)."
    )
    assert lines[4].startswith("#4 Боря: без заказа | ")
    assert "Call fulfilled" not in out
    rc, out, _ = run(capsys, monkeypatch, "--lang", "en", "match", "show", str(mid), "--db", db)
    assert "→ Call fulfilled; Аня +3 (ball 3)" in out and "#4 Боря: no call | " in out


def test_show_into_a_pipe_keeps_the_scoreboard_on_one_line(capsys, monkeypatch, db):
    rc, out, _ = run(
        capsys,
        monkeypatch,
        "match",
        "new",
        "--players",
        "Анастасия Владимировна",
        "Борис Константинович",
        "--db",
        db,
        "--json",
    )
    mid = json.loads(out)["match"]
    rc, out, _ = run(capsys, monkeypatch, "match", "show", str(mid), "--db", db)
    assert rc == 0
    assert out.splitlines()[0] == (
        "счёт: Анастасия Владимировна 0 : 0 Борис Константинович; на столе: "
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; бьёт Анастасия Владимировна с руки"
    )


def test_stats_names_the_kinds_of_call_in_russian(capsys, monkeypatch, db):
    mid = new_match(capsys, monkeypatch, db)
    run(
        capsys,
        monkeypatch,
        "play",
        "--match",
        str(mid),
        "--db",
        db,
        stdin="абриколем пятерку в середину | биток борт 5, 5 в левую середину\n",
    )
    rc, out, _ = run(capsys, monkeypatch, "stats", str(mid), "--db", db)
    assert rc == 0 and "абриколь" in out and "abricole" not in out
    rc, out, _ = run(capsys, monkeypatch, "--lang", "en", "stats", str(mid), "--db", db)
    assert "abricole" in out


def test_stats_command(capsys, monkeypatch, db):
    mid = new_match(capsys, monkeypatch, db)
    run(capsys, monkeypatch, "play", "--match", str(mid), "--db", db, stdin=STROKES)
    rc, out, _ = run(capsys, monkeypatch, "stats", str(mid), "--db", db, "--json")
    st = json.loads(out)["stats"]
    assert (
        st["Аня"]["calls"] == 3
        and st["Аня"]["fulfilled"] == 2
        and st["Аня"]["high_run"]["points"] == 8
    )
    assert st["Боря"]["fouls"] == {"г": 1}
    rc, out, _ = run(capsys, monkeypatch, "stats", str(mid), "--db", db)
    assert rc == 0 and "Аня" in out and "P1г" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "show", "99"],
        ["export", "99"],
        ["stats", "99"],
        ["undo", "99"],
        ["match", "resume", "99"],
    ],
)
def test_missing_match_exit_2(capsys, monkeypatch, db, argv):
    new_match(capsys, monkeypatch, db)
    rc, out, err = run(capsys, monkeypatch, *argv, "--db", db)
    assert rc == 2 and "99" in err and "Traceback" not in err
    assert err.startswith("pyramid-referee: ошибка:")


def test_bad_db_paths_exit_2(capsys, monkeypatch, tmp_path):
    rc, _, err = run(
        capsys, monkeypatch, "match", "new", "--db", str(tmp_path / "no" / "dir" / "m.sqlite")
    )
    assert rc == 2 and str(tmp_path / "no" / "dir") in err and "нет" in err
    rc, _, err = run(capsys, monkeypatch, "match", "list", "--db", str(tmp_path))
    assert rc == 2 and "каталог" in err
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"garbage" * 1000)
    rc, _, err = run(capsys, monkeypatch, "match", "list", "--db", str(junk), "--lang", "en")
    assert rc == 2 and "corrupt" in err


def test_locked_db_exit_2(capsys, monkeypatch, db):
    mid = new_match(capsys, monkeypatch, db)
    import pyramid_referee.match.store as store_mod

    monkeypatch.setattr(store_mod, "BUSY_TIMEOUT_S", 0.1)
    blocker = sqlite3.connect(db, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        rc, out, err = run(
            capsys, monkeypatch, "play", "--match", str(mid), "--db", db, stdin="- | биток 4\n"
        )
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert rc == 2 and ("занята" in err or "locked" in err)


def test_nothing_to_undo_and_no_open_match(capsys, monkeypatch, db):
    mid = new_match(capsys, monkeypatch, db)
    rc, _, err = run(capsys, monkeypatch, "undo", str(mid), "--db", db)
    assert rc == 2 and "нечего отменять" in err
    assert run(capsys, monkeypatch, "match", "delete", str(mid), "--yes", "--db", db)[0] == 0
    rc, _, err = run(capsys, monkeypatch, "match", "resume", "--db", db)
    assert rc == 2 and "незаконченных матчей нет" in err


def test_bad_settings_and_start(capsys, monkeypatch, db):
    rc, _, err = run(
        capsys,
        monkeypatch,
        "match",
        "new",
        "--players",
        "A",
        "B",
        "--settings",
        "{bad",
        "--db",
        db,
    )
    assert rc == 2 and "--settings" in err
    rc, _, err = run(
        capsys,
        monkeypatch,
        "match",
        "new",
        "--players",
        "A",
        "B",
        "--settings",
        '{"target": 0}',
        "--db",
        db,
    )
    assert (
        rc == 2
        and err == "pyramid-referee: ошибка: --settings, «target»: 0 — нужно целое число ≥ 1\n"
    )
    rc, _, err = run(capsys, monkeypatch, "match", "new", "--players", "A", "A", "--db", db)
    assert (
        rc == 2
        and err
        == "pyramid-referee: ошибка: --players: у игроков должны быть разные имена (оба «A»)\n"
    )
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    assert json.loads(out)["matches"] == []  # nothing was written


def test_names_and_settings_that_are_not_utf8_are_refused_not_a_traceback(capsys, monkeypatch, db):
    rc, _, err = run(
        capsys, monkeypatch, "match", "new", "--players", "Аня\udcff", "Боря", "--db", db
    )
    assert (
        rc == 2
        and err
        == "pyramid-referee: ошибка: --players: текст не в UTF-8: проверьте кодировку терминала\n"
    )
    rc, _, err = run(capsys, monkeypatch, "play", "--settings", '{"mode": "\udcff"}', "--db", db)
    assert rc == 2 and "--settings: текст не в UTF-8" in err
    rc, _, err = run(capsys, monkeypatch, "match", "new", "--settings", '{"mode": ', "--db", db)
    assert rc == 2 and err.strip().endswith(
        "--settings: неверный JSON (ожидалось значение, столбец 10)"
    )
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    assert json.loads(out) == {"matches": []}  # nothing was created


def test_list_shows_the_winner_and_a_local_time_to_the_minute(capsys, monkeypatch, db):
    run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--db",
        db,
        "--start",
        '{"scores": {"Аня": 68, "Боря": 55}, "on_table": [3, 4], "to_play": "Аня"}',
        stdin="тройку чисто в правый угол | биток 3, 3 в правый дальний угол\n",
    )
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db)
    assert rc == 0 and "победитель — Аня" in out
    assert __import__("re").search(r"\b20\d\d-\d\d-\d\d \d\d:\d\d\b", out) and "Z" not in out


def test_mode_and_env_db(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("PYRAMID_REFEREE_DB", str(tmp_path / "env.sqlite"))
    rc, out, _ = run(
        capsys,
        monkeypatch,
        "match",
        "new",
        "--players",
        "A",
        "B",
        "--mode",
        "ball-and-pocket",
        "--json",
    )
    assert rc == 0 and json.loads(out)["settings"]["mode"] == "ball_and_pocket"
    assert (tmp_path / "env.sqlite").exists()


def test_bad_line_from_a_pipe_exit_1_and_named(capsys, monkeypatch, db):
    mid = new_match(capsys, monkeypatch, db)
    rc, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--match",
        str(mid),
        "--db",
        db,
        stdin="- | биток 4\n- | биток 44\n",
    )
    assert rc == 1 and "строка 2: исход: столбец 7: шара 44 нет" in err


def test_entry_point_subprocess(tmp_path):
    db = str(tmp_path / "m.sqlite")
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "pyramid_referee",
            "play",
            "--players",
            "Аня",
            "Боря",
            "--db",
            db,
            "--json",
        ],
        input="- | биток 4\nquit\n- | биток 5\n",
        capture_output=True,
        text=True,
    )
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert p.returncode == 0 and [x["type"] for x in lines] == ["start", "stroke", "end"]


# -- a mistake changes nothing: databases ---------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "show", "1"],
        ["match", "resume"],
        ["match", "delete", "1", "--yes"],
        ["undo"],
        ["redo"],
        ["stats", "1"],
        ["export", "1"],
        ["play", "--match", "1"],
    ],
)
def test_commands_that_only_read_never_create_a_database(capsys, monkeypatch, tmp_path, argv):
    db = tmp_path / "none.sqlite"
    rc, _, err = run(capsys, monkeypatch, *argv, "--db", str(db))
    assert rc == 2 and f"базы матчей {db} нет" in err and "match new" in err
    assert list(tmp_path.iterdir()) == []


def test_list_on_a_missing_database_says_so_and_creates_nothing(capsys, monkeypatch, tmp_path):
    db = tmp_path / "none.sqlite"
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", str(db))
    assert rc == 0 and f"базы матчей {db} нет" in out
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", str(db), "--json")
    assert rc == 0 and json.loads(out) == {"matches": []}
    assert list(tmp_path.iterdir()) == []


def test_a_refused_new_match_creates_no_database(capsys, monkeypatch, tmp_path):
    db = tmp_path / "m.sqlite"
    rc, _, err = run(capsys, monkeypatch, "play", "--players", "A", "A", "--db", str(db))
    assert rc == 2 and not db.exists()


@pytest.mark.parametrize("content", [b"", "Иван — Пётр 71:40\n".encode() * 20])
def test_a_file_that_is_no_match_database_is_refused_and_left_alone(
    capsys, monkeypatch, tmp_path, content
):
    f = tmp_path / "notes.txt"
    f.write_bytes(content)
    for argv in (
        ["match", "new", "--players", "A", "B"],
        ["play", "--players", "A", "B"],
        ["match", "list"],
    ):
        rc, _, err = run(capsys, monkeypatch, *argv, "--db", str(f), stdin="- | биток 3\n")
        assert rc == 2 and ("не база матчей" in err or "не является базой матчей" in err)
        assert "Traceback" not in err
    assert f.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


# -- match delete ---------------------------------------------------------------------------------


def test_delete_from_a_pipe_needs_yes(capsys, monkeypatch, db):
    mid = new_match(capsys, monkeypatch, db)
    rc, _, err = run(capsys, monkeypatch, "match", "delete", str(mid), "--db", db)
    assert rc == 2 and "--yes" in err
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    assert [m["id"] for m in json.loads(out)["matches"]] == [mid]
    rc, out, _ = run(capsys, monkeypatch, "match", "delete", str(mid), "--yes", "--db", db)
    assert rc == 0 and f"матч {mid} удалён" in out
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    assert json.loads(out)["matches"] == []


@pytest.mark.parametrize(
    "lines, deleted, asked_times",
    [
        (["д"], True, 1),
        (["да"], True, 1),
        ([" Да "], True, 1),
        (["н"], False, 1),
        (["нет"], False, 1),
        (["", "д"], True, 2),
        (["дальше", "н"], False, 2),
        (["y"], False, 2),
    ],
)  # «y» is English: asked again, then EOF
def test_delete_on_the_terminal_takes_a_whole_line_answer_and_asks_again_on_anything_else(
    capsys, monkeypatch, db, lines, deleted, asked_times
):
    import builtins

    import pyramid_referee.cli.match as cm

    mid = new_match(capsys, monkeypatch, db)
    asked = []
    answers = iter(lines)

    def typed(prompt):  # the marker's lines at the terminal, then end of input
        asked.append(prompt)
        line = next(answers, None)
        if line is None:
            raise EOFError
        return line

    monkeypatch.setattr(cm, "_interactive", lambda: True)
    monkeypatch.setattr(builtins, "input", typed)
    rc, out, _ = run(capsys, monkeypatch, "match", "delete", str(mid), "--db", db)
    assert "Удалить матч" in asked[0] and "Аня — Боря" in asked[0]
    assert len(asked) == asked_times
    if "дальше" in lines:
        assert "«дальше» — не ответ" in out
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    assert (json.loads(out)["matches"] == []) is deleted


# -- options take one form everywhere -------------------------------------------------------------


@pytest.mark.parametrize("players", [["Иван", "Пётр"], ["Иван,Пётр"]])
def test_players_are_given_the_same_way_in_play_and_match_new(capsys, monkeypatch, db, players):
    for argv in (["match", "new"], ["play"]):
        rc, out, err = run(capsys, monkeypatch, *argv, "--players", *players, "--db", db, "--json")
        assert rc == 0, err
        assert json.loads(out.splitlines()[0])["players"] == ["Иван", "Пётр"]


@pytest.mark.parametrize("players", [["Иван"], ["Иван", "Пётр", "Сидор"], ["Иван,"]])
def test_a_wrong_number_of_players_states_what_is_accepted(capsys, monkeypatch, db, players):
    rc, _, err = run(capsys, monkeypatch, "match", "new", "--players", *players, "--db", db)
    assert rc == 2 and "нужны ровно два имени, например: --players Иван Пётр" in err


# -- a match of several games (партии) ------------------------------------------------------------

FIVE = "пятерку чисто в правый угол | биток 5, 5 в правый дальний угол\n"


def test_match_show_lists_the_games_and_the_match_score(capsys, monkeypatch, db):
    rc, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--to-wins",
        "2",
        "--settings",
        '{"target": 5}',
        "--db",
        db,
        stdin=FIVE + "- | биток 4\n",
    )
    assert rc == 0, err
    rc, out, _ = run(capsys, monkeypatch, "match", "show", "1", "--db", db)
    assert "партия 1 (удар 1, первый удар — Аня): победитель — Аня, 5 : 0" in out
    assert "партия 2 (удар 2, первый удар — Боря): идёт, 0 : 0" in out
    assert "матч до 2 побед: партии Аня 1 : 0 Боря" in out
    rc, out, _ = run(capsys, monkeypatch, "match", "show", "1", "--db", db, "--json")
    series = json.loads(out)["series"]
    assert series["to_wins"] == 2 and [g["number"] for g in series["games"]] == [1, 2]
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    assert json.loads(out)["matches"][0]["to_wins"] == 2


def test_match_new_keeps_its_length_and_a_one_game_match_is_the_default(capsys, monkeypatch, db):
    rc, out, _ = run(
        capsys,
        monkeypatch,
        "match",
        "new",
        "--players",
        "Аня",
        "Боря",
        "--to-wins",
        "3",
        "--db",
        db,
        "--json",
    )
    data = json.loads(out)
    assert data["settings"]["to_wins"] == 3 and data["series"]["wins"] == {"Аня": 0, "Боря": 0}
    rc, out, _ = run(capsys, monkeypatch, "match", "new", "--players", "Аня", "Боря", "--db", db)
    assert out.splitlines()[0] == "матч 2: Аня — Боря"


@pytest.mark.parametrize("value", ["0", "100", "два"])
def test_to_wins_outside_its_range_says_the_range(capsys, monkeypatch, db, value):
    with pytest.raises(SystemExit) as exc:  # a usage error: argparse's exit
        main(["match", "new", "--to-wins", value, "--db", db])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"нужно целое число от 1 до 99, а не «{value}»" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "show", "x"],
        ["match", "show", "0"],
        ["play", "--match", "-1"],
        ["match", "delete", "1.5"],
    ],
)
def test_a_match_number_that_is_none_says_what_is_accepted(capsys, monkeypatch, db, argv):
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--db", db])
    assert exc.value.code == 2 and "номер матча — целое число от 1" in capsys.readouterr().err


# -- Russian messages carry no Latin words outside what the user types ----------------------------


def _latin_outside_quotes(text: str, *paths) -> list[str]:
    import re

    for p in sorted(map(str, paths), key=len, reverse=True):
        text = text.replace(p, "")
    text = re.sub(r"«[^»]*»", "", text)  # quoted input and commands as typed
    text = re.sub(r"--[a-z-]+", "", text)  # option names
    text = re.sub(r"строка \d+: ", "", text)
    lines = [
        ln
        for ln in text.splitlines()
        if not ln.lstrip().startswith(("использование:", "[")) and not ln.startswith(" ")
    ]  # argparse's usage block
    text = "\n".join(
        ln.replace("pyramid-referee match new:", "").replace("pyramid-referee:", "")
        for ln in lines
    )
    return re.findall(r"[A-Za-z][A-Za-z-]*", text)


def test_every_match_error_in_russian_is_free_of_latin_words(capsys, monkeypatch, tmp_path):
    db = tmp_path / "m.sqlite"
    text, empty, other = tmp_path / "t.txt", tmp_path / "e.sqlite", tmp_path / "o.sqlite"
    text.write_text("заметки\n" * 100)
    empty.write_bytes(b"")
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    cases = [
        (["match", "list", "--db", str(db)], ""),
        (["match", "show", "1", "--db", str(db)], ""),
        (["undo", "--db", str(db)], ""),
        (["stats", "1", "--db", str(db)], ""),
        (["match", "list", "--db", str(text)], ""),
        (["match", "list", "--db", str(empty)], ""),
        (["match", "list", "--db", str(other)], ""),
        (["match", "new", "--players", "Аня", "--db", str(db)], ""),
        (["match", "new", "--players", "Аня", "Аня", "--db", str(db)], ""),
        (["match", "new", "--settings", '{"target": 0}', "--db", str(db)], ""),
        (["match", "new", "--settings", '{"foo": 1}', "--db", str(db)], ""),
        (["match", "new", "--start", '{"scores": {}}', "--db", str(db)], ""),
        (
            ["play", "--players", "Аня", "Боря", "--db", str(db)],
            'тройку чисто в правый угал | биток 3\n- | биток 44\n- | {"events": \n',
        ),
        (["match", "delete", "1", "--db", str(db)], ""),
        (["match", "show", "7", "--db", str(db)], ""),
        (["match", "resume", "--db", str(db)], "quit\n"),
    ]
    for argv, stdin in cases:
        rc, out, err = run(capsys, monkeypatch, *argv, stdin=stdin)
        found = _latin_outside_quotes(out + err, db, text, empty, other, tmp_path)
        assert not found, (argv, found, out + err)


def test_play_with_no_players_beside_an_unfinished_match_names_it_and_makes_no_stray_match(
    capsys, monkeypatch, db
):
    rc, _, _ = run(
        capsys, monkeypatch, "play", "--players", "Иван", "Пётр", "--db", db, stdin="- | биток 4\n"
    )
    assert rc == 0
    rc, out, err = run(capsys, monkeypatch, "play", "--db", db, stdin="счёт\n")
    assert rc == 2 and "матч 1 (Иван — Пётр) не окончен" in err and "match resume 1" in err
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    assert [m["id"] for m in json.loads(out)["matches"]] == [1]


def test_stats_name_each_foul_in_words_with_its_clause(capsys, monkeypatch, db):
    run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--db",
        db,
        stdin="- | биток 9; фол г\n",
    )
    rc, out, _ = run(capsys, monkeypatch, "stats", "1", "--db", db)
    assert rc == 0 and "касание шара (P1г)" in out


@pytest.mark.parametrize("argv", [["Иван,", "Пётр"], ["Иван,Пётр"], ["Иван", ",Пётр"]])
def test_players_separated_by_a_comma_are_two_names_without_it(capsys, monkeypatch, db, argv):
    rc, out, _ = run(capsys, monkeypatch, "match", "new", "--players", *argv, "--db", db, "--json")
    assert rc == 0 and json.loads(out)["players"] == ["Иван", "Пётр"]


@pytest.mark.parametrize("name", ["Пётр #2", "Иван: старший", "А|Б"])
def test_a_name_the_game_record_cannot_hold_is_refused_before_anything_is_stored(
    capsys, monkeypatch, db, name
):
    rc, _, err = run(capsys, monkeypatch, "match", "new", "--players", "Иван", name, "--db", db)
    assert rc == 2 and "в имени не может быть" in err
    from pathlib import Path

    assert not Path(db).exists()


def test_match_new_with_no_players_beside_an_unfinished_match_names_it(capsys, monkeypatch, db):
    run(capsys, monkeypatch, "match", "new", "--players", "Иван", "Пётр", "--db", db)
    rc, _, err = run(capsys, monkeypatch, "match", "new", "--db", db)
    assert rc == 2 and "матч 1 (Иван — Пётр) не окончен" in err


def test_an_empty_player_name_is_named_as_empty(capsys, monkeypatch, db):
    rc, _, err = run(capsys, monkeypatch, "match", "new", "--players", "", "Пётр", "--db", db)
    assert rc == 2 and "имя не может быть пустым" in err


def test_play_help_in_russian_names_the_russian_commands_first(capsys):
    from pyramid_referee.cli import main

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert out.index("«отмена»") < out.index("«undo»") and out.index("«выход»") < out.index(
        "«quit»"
    )


def test_match_new_says_how_to_start_scoring_it(capsys, monkeypatch, db):
    rc, out, _ = run(
        capsys,
        monkeypatch,
        "match",
        "new",
        "--players",
        "Аня",
        "Боря",
        "--to-wins",
        "2",
        "--db",
        db,
    )
    first, second = out.splitlines()
    assert rc == 0 and first == "матч 1: Аня — Боря, до 2 побед"
    assert (
        second == f"вести счёт: «pyramid-referee match resume 1 --db {db}»"
    )  # the store it was made in


def test_match_show_keeps_the_markers_word_for_a_miss_not_nothing(capsys, monkeypatch, db):
    # «промах» and «ничего» read the same (no event), but «ничего» beside a miss penalty confuses
    mid = new_match(capsys, monkeypatch, db)
    run(
        capsys,
        monkeypatch,
        "play",
        "--match",
        str(mid),
        "--db",
        db,
        stdin='- | промах\n- | {"events": []}\n',
    )
    rc, out, _ = run(capsys, monkeypatch, "match", "show", str(mid), "--db", db)
    lines = [ln for ln in out.splitlines() if ln.startswith("#")]
    assert rc == 0 and lines[0].startswith("#1 Аня: без заказа | промах → ")
    assert lines[1].startswith(
        "#2 Боря: без заказа | ничего → "
    )  # typed as JSON: written in the notation


# -- every hint names the store that was used -----------------------------------------------------


def test_every_hint_names_the_store_that_was_used(capsys, monkeypatch, tmp_path):
    monkeypatch.delenv("PYRAMID_REFEREE_DB", raising=False)
    db = str(tmp_path / "клуб стол 2.sqlite")  # a space in it: the hint quotes it for the shell
    quoted = f"--db '{db}'"
    rc, out, _ = run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--db",
        db,
        stdin="тройку чисто в правый угол | биток 3, 3 в правый дальний угол\n",
    )
    assert rc == 0
    rc, out, err = run(
        capsys, monkeypatch, "play", "--db", db
    )  # a second play on the unfinished match
    assert rc == 2 and f"«pyramid-referee match resume 1 {quoted}»" in err
    rc, out, _ = run(capsys, monkeypatch, "match", "new", "--players", "Вика", "Гена", "--db", db)
    assert f"match resume 2 {quoted}" in out
    missing = str(tmp_path / "нет.sqlite")
    rc, out, err = run(capsys, monkeypatch, "match", "resume", "--db", missing)
    assert rc == 2 and f"match new --db {missing} --players" in err


def test_the_resume_hint_at_the_terminal_names_the_store(tmp_path):
    from pyramid_referee.match.store import Store, db_option

    with Store(tmp_path / "x.sqlite") as st:
        assert db_option(st.path) == f" --db {st.path}"
    assert db_option(None) == ""


def test_a_conflict_between_two_programs_names_the_store_to_resume_from(tmp_path):
    from pyramid_referee.match.session import Session
    from pyramid_referee.match.store import Store, StoreConflict

    db = tmp_path / "x.sqlite"
    with Store(db) as a, Store(db) as b:
        first = Session.create(a, ["Аня", "Боря"], lang="ru")
        second = Session(b, first.id, lang="ru")
        first.enter("тройку чисто в правый угол", "биток 3, 3 в правый дальний угол")
        with pytest.raises(StoreConflict) as exc:
            second.enter("-", "биток 9")
    assert f"match resume {first.id} --db {db}" in str(exc.value)


# -- match import: a written record into the store ------------------------------------------------

RECORD = """\
# Стол 2, 3 декабря
Игроки: Иван, Пётр
Иван: без заказа | биток 9 | 0:0
Пётр: тройку чисто в правый угол | биток 3; 3 в правый дальний угол | 0:3
Пётр: пятёрку в угол (не принят) | биток 5; 5 в правый ближний угол | 0:3
Иван: туза чисто в левый угол | биток 1; 1 в левый дальний угол | 11:3
"""


def test_a_written_record_is_imported_and_can_be_played_on_exported_and_counted(
    capsys, monkeypatch, db, tmp_path
):
    path = tmp_path / "стол2.record"
    path.write_text(RECORD, encoding="utf-8")
    rc, out, err = run(capsys, monkeypatch, "match", "import", str(path), "--db", db)
    assert rc == 0, err
    assert "матч 1 загружен" in out and f"match resume 1 --db {db}" in out
    rc, out, err = run(
        capsys, monkeypatch, "match", "resume", "1", "--db", db, "--json", stdin="- | биток 7\n"
    )  # played on from where the record ends: Иван to play
    assert rc == 0, err
    stroke = [json.loads(x) for x in out.splitlines() if '"stroke"' in x][0]
    assert stroke["seq"] == 5 and stroke["verdict"]["striker"] == "Иван"
    rc, out, _ = run(capsys, monkeypatch, "export", "1", "--format", "csv", "--db", db)
    assert rc == 0 and "туза чисто в левый угол" in out and "пятёрку в угол" in out
    rc, out, _ = run(capsys, monkeypatch, "stats", "1", "--db", db, "--json")
    st = json.loads(out)["stats"]
    assert (
        st["Иван"]["strokes"] == 3 and st["Пётр"]["refused"] == 1 and st["Пётр"]["fulfilled"] == 1
    )
    rc, out, _ = run(capsys, monkeypatch, "match", "show", "1", "--db", db, "--json")
    assert json.loads(out)["state"]["scores"] == {"Иван": 11, "Пётр": 3}


def test_a_record_with_problems_is_refused_like_validate_and_nothing_is_stored(
    capsys, monkeypatch, db, tmp_path
):
    bad = tmp_path / "плохая.record"
    bad.write_text(
        RECORD.replace("| 11:3", "| 12:3"), encoding="utf-8"
    )  # a score that does not add up
    rc, out, err = run(capsys, monkeypatch, "match", "import", str(bad), "--db", db)
    assert rc == 1
    assert f"{bad}:6:" in err and "счёт не сходится" in err and "ничего не сохранено" in err
    from pathlib import Path

    assert not Path(db).exists()  # no store made for nothing
    run(capsys, monkeypatch, "match", "new", "--players", "Аня", "Боря", "--db", db)
    rc, out, err = run(capsys, monkeypatch, "match", "import", str(bad), "--db", db)
    assert rc == 1
    rc, out, _ = run(capsys, monkeypatch, "match", "list", "--db", db, "--json")
    assert [m["players"] for m in json.loads(out)["matches"]] == [["Аня", "Боря"]]


def test_import_refuses_a_file_that_is_no_record(capsys, monkeypatch, db, tmp_path):
    path = tmp_path / "calls.txt"
    path.write_text("тройку чисто в правый угол\n", encoding="utf-8")
    rc, out, err = run(capsys, monkeypatch, "match", "import", str(path), "--db", db)
    assert rc == 2 and "не запись партии" in err


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_help_of_match_names_every_subcommand(capsys, lang):
    from pyramid_referee.cli import main

    with pytest.raises(SystemExit):
        main(["--lang", lang, "--help"])
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("match "))
    for name in ("new", "list", "show", "resume", "import", "delete"):
        assert name in line


def test_match_show_writes_the_pads_strokes_as_people_read_them(capsys, monkeypatch, db):
    from pyramid_referee.match.session import Session
    from pyramid_referee.match.store import Store

    with Store(
        db
    ) as st:  # two strokes as the pad sends them: «мимо» with nothing fallen, and a miss
        s = Session.create(st, ["Аня", "Боря"], lang="ru")
        s.enter(None, json.dumps({"events": [], "fouls": [], "route_ok": False}))
        s.enter(None, json.dumps({"events": [], "fouls": ["а"], "route_ok": False}))
    rc, out, _ = run(capsys, monkeypatch, "match", "show", "1", "--db", db)
    lines = [x for x in out.splitlines() if x.startswith("#")]
    assert lines[0].startswith("#1 Аня: без заказа | ничего не упало →")
    assert lines[1].startswith("#2 Боря: без заказа | промах →")


def test_match_show_does_not_print_a_runaway_call_stored_before_the_limit_whole(
    capsys, monkeypatch, db
):
    import sqlite3

    from pyramid_referee.match.session import Session
    from pyramid_referee.match.store import Store

    with Store(db) as st:
        s = Session.create(st, ["Аня", "Боря"], lang="ru")
        s.enter("пятерку чисто в угол", "биток 5")  # refused (Q2), as the 150 KB call was stored
    con = sqlite3.connect(db)  # the store as an older version left it: the whole paste as the call
    con.execute("UPDATE strokes SET call_text = ?", ("пятерку " * 20_000,))
    con.commit()
    con.close()
    rc, out, _ = run(capsys, monkeypatch, "match", "show", "1", "--db", db)
    assert len(out) < 2000 and "(160000 знаков, целиком не показан)" in out
