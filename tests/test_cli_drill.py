"""The drill command: from a pipe, with --json, bad options, languages."""

import io
import json

import pytest

from pyramid_referee.cli import main


class Stdin(io.StringIO):
    def __init__(self, text, tty=False):
        super().__init__(text)
        self._tty = tty

    def isatty(self):
        return self._tty


def run(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr("sys.stdin", Stdin(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def handout(capsys, monkeypatch, *extra):
    status, out, _ = run(
        capsys, monkeypatch, ["drill", "--show", "4", "--seed", "21", "--json", *extra]
    )
    assert status == 0
    return [json.loads(line) for line in out.splitlines()]


def test_show_prints_exercises_with_their_answers(capsys, monkeypatch):
    items = handout(capsys, monkeypatch, "--level", "3")
    assert len(items) == 4 and all(i["exercise"]["level"] == 3 for i in items)
    status, out, _ = run(
        capsys, monkeypatch, ["drill", "--show", "2", "--seed", "21", "--level", "3"]
    )
    assert status == 0 and out.count("Ответ: «") == 2 and "Упражнение 1 (уровень 3)" in out


def test_json_from_a_pipe_grades_each_answer(capsys, monkeypatch):
    items = handout(capsys, monkeypatch, "--level", "2")
    answers = [items[0]["canonical"], "тройку в лузу", "?", "ответ", items[3]["canonical"]]
    status, out, _ = run(
        capsys,
        monkeypatch,
        ["drill", "--count", "4", "--seed", "21", "--level", "2", "--json"],
        "\n".join(answers) + "\n",
    )
    assert status == 0
    lines = [json.loads(line) for line in out.splitlines()]
    first, second, hint, revealed, last, summary = lines
    assert first["correct"] is True and first["got"] == first["expected"] == items[0]["expected"]
    assert first["differences"] == [] and first["exercise"]["index"] == 1
    assert set(first) >= {"exercise", "answer", "correct", "expected", "got", "differences"}
    assert second["correct"] is False and second["got"]["code"] == "pocket_not_definite"
    assert second["differences"][0]["kind"] == "refused"
    assert hint["exercise"] == 3 and hint["hint"]
    assert revealed == {
        "exercise": 3,
        "revealed": items[2]["canonical"],
        "expected": items[2]["expected"],
    }
    assert last["correct"] is True
    assert summary["summary"]["right"] == 2 and summary["summary"]["asked"] == 4
    assert summary["summary"]["revealed"] == 1 and summary["summary"]["seed"] == 21
    assert summary["summary"]["mistakes"] == {
        "не принят: луза названа неточно (pocket_not_definite)": 1
    }


def test_text_from_a_pipe_without_prompt_noise_and_quit(capsys, monkeypatch):
    items = handout(capsys, monkeypatch)
    status, out, err = run(
        capsys,
        monkeypatch,
        ["drill", "--count", "3", "--seed", "21"],
        f"{items[0]['canonical']}\nподсказка\nвыход\n",
    )
    assert status == 0 and err == ""
    assert "> " not in out and "зерно" not in out
    assert "Верно.\nПравильно сказать: «" in out and "Подсказка: шар: " in out
    assert out.rstrip().endswith("Верно: 1 из 1.")  # the third exercise was never shown


def test_end_of_input_ends_with_a_summary(capsys, monkeypatch):
    status, out, _ = run(
        capsys, monkeypatch, ["drill", "--count", "5", "--seed", "1"], "тройку чисто\n"
    )
    assert status == 0 and "Неверно." in out and "Верно: 0 из 1." in out and "Ошибки:" in out


def test_interactive_prompt(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", Stdin("", tty=True))
    answers = iter(["?", "ответ"])

    def fake_input(prompt):
        print(prompt, end="")
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    assert main(["drill", "--count", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "зерно 4" in out and "> Подсказка:" in out and "> Ответ: «" in out
    assert "Подсмотрено ответов: 1." in out and "Верно: 0 из 1." in out


def test_english(capsys, monkeypatch):
    status, out, _ = run(
        capsys, monkeypatch, ["drill", "--count", "1", "--seed", "2", "--lang", "en"], "x\n"
    )
    assert (
        status == 0
        and "Exercise 1 (level 1)" in out
        and "Not right." in out
        and "Right: 0 of 1." in out
    )


def test_ball_and_pocket_mode(capsys, monkeypatch):
    items = handout(capsys, monkeypatch, "--mode", "ball-and-pocket", "--level", "3")
    assert all(
        i["expected"]["route"] is None and i["exercise"]["mode"] == "ball_and_pocket"
        for i in items
    )


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--count", "0"], "--count"),
        (["--count", "5000"], "--count"),
        (["--show", "-1"], "--show"),
        (["--level", "4"], "--level"),
        (["--seed", "x"], "--seed"),
        (["--mode", "pool"], "--mode"),
        (["--pocket-precision", "loose"], "--pocket-precision"),
    ],
)
def test_bad_options_exit_2(capsys, monkeypatch, argv, needle):
    monkeypatch.setattr("sys.stdin", Stdin(""))
    try:
        status = main(["drill", *argv])
    except SystemExit as exc:  # argparse's own errors
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2 and needle in err and "Traceback" not in err
    assert "ошибка" in err


def test_answer_not_utf8_is_reported_and_the_exercise_stays(capsys, monkeypatch):
    items = handout(capsys, monkeypatch)
    status, out, _ = run(
        capsys,
        monkeypatch,
        ["drill", "--count", "1", "--seed", "21"],
        f"тройку \udcff\n{items[0]['canonical']}\n",
    )
    assert status == 0 and "не в UTF-8" in out and "Верно: 1 из 1." in out


def test_a_real_pipe(tmp_path):
    """The installed entry point, its stdin a real pipe (not a TTY)."""
    import subprocess
    import sys

    show = subprocess.run(
        [
            sys.executable,
            "-m",
            "pyramid_referee",
            "drill",
            "--show",
            "1",
            "--seed",
            "8",
            "--level",
            "3",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    canonical = json.loads(show.stdout)["canonical"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pyramid_referee",
            "drill",
            "--count",
            "1",
            "--seed",
            "8",
            "--level",
            "3",
            "--json",
        ],
        input=canonical + "\n",
        capture_output=True,
        text=True,
    )
    graded, summary = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and graded["correct"] is True and summary["summary"]["right"] == 1
