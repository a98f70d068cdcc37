"""`pyramid-referee export` (cli_export.py): the format from -o's extension, refusals that name
what is accepted, and the formats people open: the CSV for Excel and the game record."""

from __future__ import annotations

import json

import pytest
from cli_run import run

STROKES = (
    "тройку чисто в правый угол | биток 3, 3 в правый дальний угол\n"
    "пятёрку чисто в левую середину | биток 5; 5 в левую середину\n"
    "семерку чисто в правый угол | биток 7\n"
    "- | биток 9; фол г\n"
    "тройку в угол | биток 6\n"
)


@pytest.fixture
def match(capsys, monkeypatch, db):
    rc, out, _ = run(
        capsys, monkeypatch, "match", "new", "--players", "Аня", "Боря", "--db", db, "--json"
    )
    mid = json.loads(out)["match"]
    rc, _, err = run(capsys, monkeypatch, "play", "--match", str(mid), "--db", db, stdin=STROKES)
    assert rc == 0, err
    return str(mid)


def test_export_json_to_stdout_by_default(capsys, monkeypatch, db, match):
    rc, out, _ = run(capsys, monkeypatch, "export", match, "--db", db)
    data = json.loads(out)
    assert (
        rc == 0
        and len(data["strokes"]) == 5
        and data["final"]["scores"] == {"Аня": 13, "Боря": -5}
    )


@pytest.mark.parametrize(
    "name, starts",
    [
        ("m.json", "{"),
        ("m.jsonl", '{"settings"'),
        ("m.csv", "\ufeffматч;удар;"),
        ("m.record", "# Запись партии"),
        ("m.txt", "# Запись партии"),
        ("m.партия", "# Запись партии"),
        ("M.CSV", "\ufeffматч;"),
    ],
)
def test_the_extension_of_o_names_the_format(
    capsys, monkeypatch, db, match, tmp_path, name, starts
):
    target = tmp_path / name
    rc, out, err = run(capsys, monkeypatch, "export", match, "-o", str(target), "--db", db)
    assert rc == 0 and out == "" and err == ""
    assert target.read_text(encoding="utf-8").startswith(starts)


def test_an_unknown_extension_is_refused_naming_the_accepted_ones(
    capsys, monkeypatch, db, match, tmp_path
):
    target = tmp_path / "m.xlsx"
    rc, out, err = run(capsys, monkeypatch, "export", match, "-o", str(target), "--db", db)
    assert rc == 2 and out == "" and not target.exists()
    assert (
        "расширение «.xlsx» не знакомо; знакомы: «.json», «.csv», «.jsonl», «.record», «.партия», "
        "«.txt»" in err
    )
    rc, out, err = run(capsys, monkeypatch, "export", match, "-o", str(tmp_path / "m"), "--db", db)
    assert rc == 2 and "у файла нет расширения" in err and not (tmp_path / "m").exists()


def test_an_explicit_format_wins_over_an_unknown_extension(
    capsys, monkeypatch, db, match, tmp_path
):
    target = tmp_path / "protocol.dat"
    rc, _, _ = run(
        capsys, monkeypatch, "export", match, "--format", "record", "-o", str(target), "--db", db
    )
    assert rc == 0 and "Игроки: Аня, Боря" in target.read_text(encoding="utf-8")


def test_a_format_that_contradicts_the_extension_is_refused(
    capsys, monkeypatch, db, match, tmp_path
):
    target = tmp_path / "m.csv"
    rc, out, err = run(
        capsys, monkeypatch, "export", match, "--format", "json", "-o", str(target), "--db", db
    )
    assert rc == 2 and not target.exists()
    assert "расширение «.csv» — это формат «csv», а указан «--format json»" in err
    rc, _, _ = run(
        capsys, monkeypatch, "export", match, "--format", "csv", "-o", str(target), "--db", db
    )
    assert rc == 0 and target.exists()  # the same format twice is no contradiction


def test_a_refused_output_opens_no_database(capsys, monkeypatch, tmp_path):
    db = tmp_path / "none.sqlite"
    rc, _, err = run(
        capsys, monkeypatch, "export", "1", "-o", str(tmp_path / "m.xlsx"), "--db", str(db)
    )
    assert rc == 2 and "«.xlsx»" in err and not db.exists()


def test_export_to_an_unwritable_place_says_why_in_russian(
    capsys, monkeypatch, db, match, tmp_path
):
    rc, out, err = run(
        capsys, monkeypatch, "export", match, "-o", str(tmp_path), "--format", "json", "--db", db
    )
    assert rc == 2 and out == "" and "не удаётся записать (это каталог, а не файл)" in err
    rc, out, err = run(
        capsys, monkeypatch, "export", match, "-o", str(tmp_path / "no" / "m.json"), "--db", db
    )
    assert rc == 2 and "нет такого файла или каталога" in err and "No such file" not in err


def test_the_csv_is_for_russian_excel_and_english_on_request(
    capsys, monkeypatch, db, match, tmp_path
):
    target = tmp_path / "m.csv"
    run(capsys, monkeypatch, "export", match, "-o", str(target), "--db", db)
    raw = target.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM that makes Excel read UTF-8
    head = raw.decode("utf-8-sig").splitlines()[0].split(";")
    assert "счёт Аня" in head and "штраф платит" in head
    rc, out, _ = run(
        capsys, monkeypatch, "--lang", "en", "export", match, "--format", "csv", "--db", db
    )
    assert rc == 0 and out.lstrip("\ufeff").startswith("match;stroke;time;striker;call;")


def test_an_exported_record_validates_clean_and_replays_to_the_stored_score(
    capsys, monkeypatch, db, match, tmp_path
):
    target = tmp_path / "m.record"
    assert run(capsys, monkeypatch, "export", match, "-o", str(target), "--db", db)[0] == 0
    rc, out, _ = run(capsys, monkeypatch, "validate", str(target))
    assert rc == 0 and "ошибок 0; счёт Аня 13 : −5 Боря" in out
    rc, out, _ = run(capsys, monkeypatch, "replay", str(target), "--json")
    final = json.loads(out.splitlines()[-1])
    rc2, shown, _ = run(capsys, monkeypatch, "match", "show", match, "--db", db, "--json")
    assert rc == 0 and final["scores"] == json.loads(shown)["state"]["scores"] == {
        "Аня": 13,
        "Боря": -5,
    }


def test_an_exported_script_replays_with_the_players_own_words(
    capsys, monkeypatch, db, match, tmp_path
):
    target = tmp_path / "m.jsonl"
    run(capsys, monkeypatch, "export", match, "-o", str(target), "--db", db)
    rc, out, _ = run(capsys, monkeypatch, "replay", str(target))
    assert rc == 0 and "Удар 2 (строка 3), Аня: «пятёрку чисто в левую середину»" in out
    assert "Счёт: Аня 13 : −5 Боря." in out
