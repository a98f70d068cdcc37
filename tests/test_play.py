"""The scorer (cli/play.py) and the session under it (match/session.py), in process.

The real path: call text → the grammar's parser, outcome notation → the rules
engine, each stroke committed to a real SQLite store, then restored by replay.
"""

from __future__ import annotations

import io
import json
import re
import sqlite3

import pytest

from pyramid_referee.cli.play import Play, help_text
from pyramid_referee.i18n import set_lang
from pyramid_referee.match.report import route_kinds, stats
from pyramid_referee.match.session import Session
from pyramid_referee.match.store import Store, StoreError


def run_play(store, lines, *, match_id=None, players=("Аня", "Боря"), settings=None, lang="ru"):
    set_lang(lang)  # the shell's language, as --lang sets it
    s = (
        Session(store, match_id, lang=lang)
        if match_id
        else Session.create(store, list(players), settings, lang=lang)
    )
    out, err = io.StringIO(), io.StringIO()
    play = Play(
        s,
        out=out,
        err=err,
        json_mode=True,
        interactive=False,
        lang=lang,
        resumed=match_id is not None,
    )
    it = iter(lines)
    rc = play.run(lambda prompt: next(it, None))
    set_lang("ru")
    msgs = [json.loads(x) for x in out.getvalue().splitlines()]
    return s, rc, msgs


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "m.sqlite") as s:
        yield s


# A short game fragment. Аня breaks (from hand), pockets 3 clean (C2), then 5 clean;
# misses 7 (the turn passes, Q3); Боря touches a ball (P1 г: −5 / +5, P2).
GAME = [
    "тройку чисто в правый угол | биток 3, 3 в правый дальний угол",
    "пятерку чисто в левую середину | биток 5; 5 в левую середину",
    "семерку чисто в правый угол | биток 7",
    "- | биток 9; фол г",
]


def test_strokes_are_judged_stored_and_shown(store):
    s, rc, msgs = run_play(store, GAME)
    assert rc == 0
    strokes = [m for m in msgs if m["type"] == "stroke"]
    assert [m["seq"] for m in strokes] == [1, 2, 3, 4]
    assert [m["verdict"]["fulfilled"] for m in strokes] == [True, True, False, False]
    assert strokes[-1]["state"]["scores"] == {"Аня": 8 + 5, "Боря": -5}  # P2, Q1
    assert strokes[-1]["verdict"]["penalty"]["player"] == "Боря"
    rows = store.strokes(s.id)
    assert [r.record.verdict for r in rows] == [m["verdict"] for m in strokes]
    assert rows[0].record.call == {
        "ball": 3,
        "pocket": {"kind": "corner", "side": "right", "end": None},
        "route": [["cue", 3], [3, "pocket"]],
    }
    assert rows[3].record.call_status == "none" and rows[3].record.outcome["fouls"] == ["г"]


def test_replaying_the_store_gives_the_state_that_was_shown(store):
    s, _, msgs = run_play(store, GAME)
    shown = [m for m in msgs if m["type"] == "stroke"][-1]["state"]
    again = Session(store, s.id)
    assert again.mismatches == []
    assert again.state.to_json() == shown
    assert again.seq == 4


def test_malformed_outcome_changes_nothing_and_names_line_and_column(store):
    s, rc, msgs = run_play(
        store,
        GAME[:1]
        + [
            "- | биток 6; 6 в дальнюю середину",  # notation: a middle pocket has no far end
            "- | биток 3",  # engine: ball 3 is no longer on the table
            '- | {"events": 1}',  # outcome JSON: field named
            "- |",  # no outcome
            "- | биток 6",  # fine
        ],
    )
    assert rc == 1  # from a pipe: some line was rejected
    errors = [m for m in msgs if m["type"] == "error"]
    assert [e["line"] for e in errors] == [2, 3, 4, 5]
    assert "строка 2" in errors[0]["message"] and "исход: столбец 14" in errors[0]["message"]
    assert errors[1]["message"] == "строка 3: исход, столбец 1, «биток 3»: шара 3 нет на столе"
    assert "события: ожидался список" in errors[2]["message"]
    assert [r.seq for r in store.strokes(s.id)] == [1, 2]
    assert store.strokes(s.id)[1].record.outcome_text == "биток 6"


def test_two_line_entry_last_call_counts_C9(store):
    s, _, msgs = run_play(
        store,
        [
            "заказ: пятерку в угол",  # refused: the corner's side is not said (Q2)
            "заказ: тройку чисто в правый угол",  # the last call before the stroke counts (C9)
            "исход: биток 3, 3 в правый ближний угол",
        ],
    )
    calls = [m for m in msgs if m["type"] == "call"]
    assert [c["call_status"] for c in calls] == ["refused", "accepted"]
    assert calls[0]["refusal"]["code"] == "pocket_not_definite"
    (stroke,) = [m for m in msgs if m["type"] == "stroke"]
    assert stroke["call"]["ball"] == 3 and stroke["verdict"]["fulfilled"] is True


def test_a_call_said_again_where_the_outcome_is_expected_replaces_the_first_C9(store):
    s, rc, msgs = run_play(
        store, ["заказ: пятого в середину", "пятерку чисто в середину", "биток 5, 5 в середину"]
    )
    assert rc == 0 and [m["type"] for m in msgs] == ["start", "call", "call", "stroke", "end"]
    assert msgs[1]["call_status"] == "refused" and msgs[2]["call_status"] == "accepted"
    assert msgs[3]["call_status"] == "accepted" and msgs[3]["verdict"]["fulfilled"] is True


def test_an_outcome_the_rules_refuse_is_not_taken_for_a_call(store):
    # «биток 16» is outcome notation (a ball that does not exist): an error, never a new call.
    s, rc, msgs = run_play(store, ["заказ: пятерку чисто в середину", "биток 16", "непонятно что"])
    assert rc == 1 and [m["type"] for m in msgs] == ["start", "call", "error", "error", "end"]
    assert store.strokes(s.id) == []


def test_prefixes_allowed_on_one_line(store):
    s, _, msgs = run_play(
        store, ["заказ: тройку чисто в правый угол | исход: биток 3, 3 в правый дальний угол"]
    )
    (stroke,) = [m for m in msgs if m["type"] == "stroke"]
    assert stroke["call_status"] == "accepted" and stroke["verdict"]["fulfilled"] is True


def test_refused_call_is_stored_with_its_refusal_C4(store):
    s, _, msgs = run_play(store, ["тройку в угол | биток 3, 3 в правый дальний угол"])
    (row,) = store.strokes(s.id)
    assert row.record.call_status == "refused" and row.record.call is None
    assert row.record.refusal["code"] == "pocket_not_definite"
    assert row.record.verdict["counted"] == [] and row.record.verdict["respotted"] == [3]


def test_undo_redo_persist_across_reopen(store):
    s, _, msgs = run_play(store, GAME + ["undo", "undo", "redo"])
    kinds = [m["type"] for m in msgs]
    assert kinds.count("undo") == 2 and kinds.count("redo") == 1
    again = Session(store, s.id)
    assert again.seq == 3 and again.mismatches == []
    assert again.state.to_json() == store.strokes(s.id)[-1].record.state
    # redo after reopening puts back stroke 4, re-judged and checked
    _, _, msgs = run_play(store, ["redo"], match_id=s.id)
    assert [m for m in msgs if m["type"] == "redo"][0]["stroke"] == 4
    assert Session(store, s.id).seq == 4
    # a new stroke after undo discards the redo branch durably
    _, _, msgs = run_play(store, ["undo", "- | биток 12"], match_id=s.id)
    assert store.redo(s.id) is None
    again = Session(store, s.id)
    assert again.seq == 4 and store.strokes(s.id)[-1].record.outcome_text == "биток 12"


def test_undo_withdraws_a_pending_call_first(store):
    s, _, msgs = run_play(
        store, GAME[:1] + ["заказ: пятерку чисто в левую середину", "undo", "- | биток 5"]
    )
    assert [m for m in msgs if m["type"] == "undo"][0]["call"] is True
    assert [r.record.call_status for r in store.strokes(s.id)] == ["accepted", "none"]


def test_a_tampered_record_is_reported_not_fixed(store):
    s, _, _ = run_play(store, GAME)
    con = sqlite3.connect(store.path)
    forged = json.dumps(
        {**store.strokes(s.id)[1].record.verdict, "points": {"Аня": 50, "Боря": 0}}
    )
    con.execute("UPDATE strokes SET verdict = ? WHERE match_id = ? AND seq = 2", (forged, s.id))
    con.commit()
    con.close()
    again = Session(store, s.id)
    assert [(m.seq, m.part) for m in again.mismatches] == [(2, "verdict")]
    assert "points" in again.mismatches[0].describe("ru")
    assert json.loads(forged) == store.strokes(s.id)[1].record.verdict  # left as stored
    with pytest.raises(StoreError):  # play refuses to continue on a record that disagrees
        run_play(store, ["- | биток 6"], match_id=s.id)


def test_game_over_is_recorded_and_further_strokes_refused(store):
    # Picked up from a score sheet: 60:41 with 14 and 15 on the table (balls off: 101, Q4).
    start = {"scores": {"Аня": 60, "Боря": 41}, "on_table": [14, 15], "to_play": "Аня"}
    s = Session.create(store, ["Аня", "Боря"], {}, start)
    _, _, msgs = run_play(
        store,
        [
            "14 чисто в правый угол | биток 14, 14 в правый дальний угол",
            "15 чисто в правый угол | биток 15",
        ],
        match_id=s.id,
    )
    kinds = [m["type"] for m in msgs]
    assert kinds == ["start", "stroke", "error", "end"]
    assert msgs[1]["state"]["result"] == {"winner": "Аня"}  # E1: 74 >= 71
    assert store.get_match(s.id).status == "finished" and store.latest_open() is None
    assert "матч окончен" in msgs[2]["message"]
    run_play(store, ["undo"], match_id=s.id)
    assert store.get_match(s.id).status == "open"


def test_stats_on_a_known_match(store):
    s, _, _ = run_play(
        store,
        GAME
        + [
            "- | биток 9",  # Аня, no call
            # Боря: ball 3 is already off the table, so the call is refused (ball_not_on_table)
            "карамболем от шестерки одиннадцатым шаром тройку прямо в середину | биток 6",
        ],
    )
    m = store.get_match(s.id)
    data = stats(m, store.strokes(s.id))["stats"]
    a, b = data["Аня"], data["Боря"]
    assert (a["strokes"], a["calls"], a["fulfilled"], a["no_call"]) == (4, 3, 2, 1)
    assert a["by_route"] == {"clean": {"made": 3, "fulfilled": 2}}
    assert a["high_run"] == {"calls": 2, "points": 8}
    assert (b["strokes"], b["penalties"], b["fouls"]) == (2, 1, {"г": 1})
    assert (b["calls"], b["refused"], b["no_call"]) == (0, 1, 1)


def test_route_kinds():
    assert route_kinds(None) == ()
    assert route_kinds({"ball": 3, "pocket": {}, "route": None}) == ("ball_and_pocket",)
    assert route_kinds({"ball": 3, "route": [["cue", 3], [3, "pocket"]]}) == ("clean",)
    assert route_kinds(
        {"ball": 3, "route": [["cue", 6], ["cue", 11], [11, 3], [3, "pocket"]]}
    ) == ("combination", "carom")
    assert route_kinds({"ball": 3, "route": [["cue", "cushion"], ["cue", 3], [3, "pocket"]]}) == (
        "abricole",
    )
    assert route_kinds({"ball": 3, "route": [["cue", 3], [3, "cushion"], [3, "pocket"]]}) == (
        "bank",
    )
    assert route_kinds({"ball": 3, "route": [["cue", 3], [3, 8], [3, "pocket"]]}) == ("kiss",)
    assert route_kinds({"ball": 3, "route": [["cue", 3], [3, "contre_coup"], [3, "pocket"]]}) == (
        "contre_coup",
    )


def test_help_documents_the_notation():
    text = help_text("ru")
    for word in (
        "биток",
        "промах",
        "по заказу",
        "с руки",
        "в доме",
        "касание",
        "undo",
        "предупреждение",
    ):
        assert word in text
    assert "Items are separated" in help_text("en")
    assert "ЗАКАЗ | ИСХОД" in text


def _interactive(store, reader, lang="ru"):
    set_lang(lang)
    s = Session.create(store, ["Аня", "Боря"], None, lang=lang)
    out, err = io.StringIO(), io.StringIO()
    play = Play(s, out=out, err=err, json_mode=False, interactive=True, lang=lang)
    try:
        rc = play.run(reader)
    finally:
        set_lang("ru")
    return s, rc, out.getvalue()


def test_ctrl_c_at_the_prompt_keeps_the_strokes_and_says_how_to_resume(store):
    lines = iter([GAME[0], "заказ: пятерку чисто в левую середину"])

    def reader(prompt):  # the terminal: two lines typed, then Ctrl-C
        line = next(lines, None)
        if line is None:
            raise KeyboardInterrupt
        return line

    s, rc, out = _interactive(store, reader)
    assert rc == 130
    assert "Traceback" not in out
    last = out.rstrip().splitlines()
    assert last[-2] == "заказ без исхода не записан"
    assert last[-1] == (
        f"матч {s.id} сохранён (ударов: 1); продолжить: «pyramid-referee match resume {s.id} "
        f"--db {store.path}»"
    )
    assert len(store.strokes(s.id)) == 1  # the stroke typed before Ctrl-C is kept


def test_ctrl_d_leaves_with_the_resume_hint(store):
    s, rc, out = _interactive(store, lambda prompt: None, lang="en")
    assert rc == 0
    assert out.rstrip().splitlines()[-1] == (
        f"match {s.id} saved (0 strokes); "
        f"to go on: pyramid-referee match resume {s.id} --db {store.path}"
    )


def test_a_line_that_is_not_utf8_is_rejected_and_stores_nothing(store):
    # From a pipe Python hands undecodable bytes over as lone surrogates; SQLite cannot store them.
    s, rc, msgs = run_play(store, ["тройку\udcff | ничего", GAME[0]])
    assert rc == 1
    assert msgs[1] == {
        "type": "error",
        "line": 1,
        "message": "строка 1: строка не в UTF-8: проверьте кодировку терминала или файла",
    }
    assert [m["seq"] for m in msgs if m["type"] == "stroke"] == [1]
    assert len(store.strokes(s.id)) == 1


def test_english_messages(store):
    s, _, msgs = run_play(store, ["- | биток 6; 6 в дальнюю середину"], lang="en")
    (err,) = [m for m in msgs if m["type"] == "error"]
    assert (
        err["message"].startswith("line 1: outcome: column") and "middle pocket" in err["message"]
    )


def run_play_text(store, lines, *, lang="ru"):
    """``play`` as a marker reads it (not --json): what it wrote to stdout and to stderr."""
    set_lang(lang)
    s = Session.create(store, ["Аня", "Боря"], None, lang=lang)
    out, err = io.StringIO(), io.StringIO()
    play = Play(s, out=out, err=err, json_mode=False, interactive=False, lang=lang)
    it = iter(lines)
    play.run(lambda prompt: next(it, None))
    set_lang("ru")
    return s, out.getvalue(), err.getvalue()


# An outcome the rules refuse in its third item: ball 3 fell twice.
FELL_TWICE = "тройку чисто в правый угол | биток 3, 3 в середину, 3 в левую дальнюю лузу"


def test_refused_outcome_points_into_the_markers_text_not_the_engine_fields(store):
    s, _, err = run_play_text(store, [FELL_TWICE])
    assert err.splitlines() == [
        "строка 1: исход, столбец 24, «3 в левую дальнюю лузу»: шара 3 уже нет на столе",
        "    биток 3, 3 в середину, 3 в левую дальнюю лузу",
        "                           ^",
    ]
    assert "событие" not in err and store.strokes(s.id) == []


def test_refused_outcome_points_into_the_markers_text_in_english(store):
    _, _, err = run_play_text(store, [FELL_TWICE], lang="en")
    assert (
        err.splitlines()[0]
        == "line 1: outcome, column 24, «3 в левую дальнюю лузу»: 3 already left the table"
    )
    assert err.splitlines()[2] == " " * 27 + "^"


def test_refused_pocket_of_the_called_ball_quotes_the_pocket_words(store):
    # the call names the far corner; the outcome does not say which end: the item is quoted
    _, _, err = run_play_text(
        store, ["тройку чисто в правый дальний угол | биток 3, 3 в правый угол"]
    )
    first, text, caret = err.splitlines()
    assert first.startswith("строка 1: исход, столбец 10, «3 в правый угол»: ")
    assert "конец лузы" not in first and "событие" not in first
    assert caret.index("^") - 4 == text.index("3 в правый угол") - 4 == 9


def test_unreadable_outcome_gets_a_caret_under_the_column(store):
    _, _, err = run_play_text(store, ["- | биток 3, 3 в праввый угол"])
    first, text, caret = err.splitlines()
    assert first.startswith("строка 1: исход: столбец 14: непонятно: «праввый»")
    assert text == "    биток 3, 3 в праввый угол" and caret == "    " + " " * 13 + "^"


def test_refused_outcome_in_json_carries_its_column(store):
    _, _, msgs = run_play(store, [FELL_TWICE])
    (err,) = [m for m in msgs if m["type"] == "error"]
    assert err["column"] == 24 and "«3 в левую дальнюю лузу»" in err["message"]


def test_two_processes_on_one_match_conflict_not_corrupt(store, tmp_path):
    from pyramid_referee.match.store import StoreConflict

    s, _, _ = run_play(store, GAME[:1])
    with Store(store.path) as other_store:
        other = Session(other_store, s.id)  # a second scorer opened the same match
        other.enter("-", "биток 5")
    with pytest.raises(StoreConflict):  # this one is now behind: nothing is written
        s.enter("-", "биток 6")
    with pytest.raises(StoreConflict):
        s.undo()
    assert [r.record.outcome_text for r in store.strokes(s.id)] == [
        "биток 3, 3 в правый дальний угол",
        "биток 5",
    ]
    assert s.state.to_json() == store.strokes(s.id)[0].record.state  # memory taken back too
    assert Session(store, s.id).mismatches == []


def test_a_damaged_record_is_a_clear_error(store):
    s, _, _ = run_play(store, GAME)
    con = sqlite3.connect(store.path)
    con.execute("UPDATE strokes SET outcome = '{not json' WHERE match_id = ? AND seq = 3", (s.id,))
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="удар 3: запись повреждена"):
        Session(store, s.id)


# -- a mistake changes nothing ---------------------------------------------------


def run_interactive(store, lines, answers, *, match_id=None):
    """play as on a terminal, the marker's one-key answers given in order."""
    set_lang("ru")
    s = (
        Session(store, match_id, lang="ru")
        if match_id
        else Session.create(store, ["Аня", "Боря"], lang="ru")
    )
    out, err = io.StringIO(), io.StringIO()
    asked: list[str] = []
    keys = iter(answers)

    def confirm(question: str) -> bool:
        asked.append(question)
        return next(keys)

    play = Play(s, out=out, err=err, json_mode=False, interactive=True, lang="ru", confirm=confirm)
    play._console = __import__("rich.console", fromlist=["Console"]).Console(
        file=out, force_terminal=False, highlight=False, width=200
    )
    it = iter(lines)
    play.run(lambda prompt: next(it, None))
    return s, out.getvalue(), err.getvalue(), asked


def test_a_typed_call_with_an_unknown_word_records_nothing_and_asks_again(store):
    s, rc, msgs = run_play(
        store,
        [
            "тройку чисто в правый угал | биток 3, 3 в правый дальний угол",
            "заказ: тройку чисто в правый угал",
            "тройку чисто в правый угол | биток 3, 3 в правый дальний угол",
        ],
    )
    errors = [m for m in msgs if m["type"] == "error"]
    assert len(errors) == 2 and all(
        "опечатку" in e["message"] and "угал" in e["message"] for e in errors
    )
    assert not [m for m in msgs if m["type"] == "call"]  # the typo was never taken as the call
    assert [r.record.call_text for r in store.strokes(s.id)] == ["тройку чисто в правый угол"]
    assert rc == 1  # from a pipe a rejected line still says so in the exit status


def test_a_typo_on_the_terminal_is_not_a_stroke_and_asks_nothing(store):
    s, out, err, asked = run_interactive(store, ["тройку чисто в правый угал | биток 3"], [])
    assert store.strokes(s.id) == [] and asked == []
    assert "наберите заказ заново" in err


def test_a_refused_call_is_recorded_only_when_the_marker_confirms(store):
    # refused for what the player said: the corner's side (Q2)
    line = "пятерку чисто в угол | биток 5"
    s, out, err, asked = run_interactive(store, [line, line], [False, True])
    assert len(asked) == 2 and "Записать удар с непринятым заказом?" in asked[0]
    assert "удар не записан" in out
    rows = store.strokes(s.id)
    assert len(rows) == 1 and rows[0].record.call_status == "refused"


def play_on_a_pty(tmp_path, typed: str, *extra: str) -> tuple[str, list]:
    """``play`` as a real process on a pseudo-terminal, everything in ``typed`` written at once
    (the marker typing ahead of the program), echo off so the output is the program's alone;
    then the output and the strokes stored."""
    import os
    import select
    import subprocess
    import sys

    pty = pytest.importorskip("pty")
    termios = pytest.importorskip("termios")
    db = tmp_path / "pty.sqlite"
    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    env = {**os.environ, "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "200"}
    env.pop("PYRAMID_REFEREE_DB", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pyramid_referee",
            "play",
            "--db",
            str(db),
            "--players",
            "Аня",
            "Боря",
            *extra,
        ],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    os.write(master, typed.encode())
    out = b""
    try:
        while select.select([master], [], [], 20)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the program ended: the terminal is closed
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(master)
        proc.wait(20)
    with Store(db) as st:
        rows = st.strokes(1)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.decode()), rows


REFUSED_LINE = (
    "пятерку чисто в угол | биток 5\n"  # refused for what the player said (Q2): the question comes
)
QUESTION = "Записать удар с непринятым заказом? [д/н] "


def test_the_answer_is_a_whole_line_and_a_stroke_typed_ahead_is_not_taken_for_yes(tmp_path):
    # the marker types the next stroke while the question waits: «девятку…» begins with «д»,
    # and was «yes»
    out, rows = play_on_a_pty(
        tmp_path, REFUSED_LINE + "девятку чисто в правый угол | биток 9\nд\n\x04"
    )
    assert out.count(QUESTION) == 2  # the typed-ahead line is no answer: asked again
    assert "«девятку чисто в правый угол | биток 9» — не ответ и не записано" in out
    assert [r.record.call_status for r in rows] == [
        "refused"
    ]  # only the «д» answered; nothing else entered
    assert "заказ (Боря)> заказ (Боря)>" not in out


def test_a_fast_no_leaves_nothing_over_to_answer_later_questions_and_the_prompt_comes_once(
    tmp_path,
):
    out, rows = play_on_a_pty(tmp_path, REFUSED_LINE + "н\n" + REFUSED_LINE + "нет\n\x04")
    assert out.count(QUESTION) == 2 and out.count("удар не записан") == 2
    assert rows == []
    assert (
        out.count("заказ (Аня)> ") == 3
    )  # at the start and after each «no»: never twice for one line
    assert "заказ (Аня)> заказ (Аня)>" not in out


def test_the_answer_words_follow_the_language(tmp_path):
    out, rows = play_on_a_pty(tmp_path, REFUSED_LINE + "д\nyes\n\x04", "--lang", "en")
    assert out.count("[y/n] ") == 2 and "«д» is no answer" in out
    assert [r.record.call_status for r in rows] == ["refused"]


def test_an_empty_call_is_still_a_stroke_without_a_call_when_nothing_was_asked(store):
    s, out, err, asked = run_interactive(store, ["", "биток 9"], [])
    assert [r.record.call_status for r in store.strokes(s.id)] == ["none"]


def test_an_accepted_call_needs_no_confirmation(store):
    s, out, err, asked = run_interactive(store, [GAME[0]], [])
    assert asked == [] and len(store.strokes(s.id)) == 1


def test_a_stroke_shown_is_marked_so_a_resume_names_none(store):
    s, rc, msgs = run_play(store, GAME)
    assert store.unshown(s.id) == []
    _, _, again = run_play(store, [], match_id=s.id)
    assert again[0]["unshown"] == []


def test_resume_names_a_stroke_stored_but_never_shown(store):
    s = Session.create(store, ["Аня", "Боря"], lang="ru")
    e = s.enter(
        "тройку чисто в правый угол", "биток 3, 3 в правый дальний угол"
    )  # a kill before the screen
    _, _, msgs = run_play(store, [], match_id=s.id)
    (named,) = msgs[0]["unshown"]
    assert named["seq"] == e.seq == 1 and named["call_text"] == "тройку чисто в правый угол"
    assert named["verdict"] == e.record.verdict
    _, _, msgs = run_play(store, [], match_id=s.id)
    assert msgs[0]["unshown"] == []  # named once: it is on the screen now


def test_resume_on_the_terminal_says_do_not_enter_it_again(store):
    s = Session.create(store, ["Аня", "Боря"], lang="ru")
    s.enter("тройку чисто в правый угол", "биток 3, 3 в правый дальний угол")
    _, out, _, _ = run_interactive(store, [], [], match_id=s.id)
    assert "удар 1 уже записан" in out and "не вводите его заново" in out and "#1 " in out


# -- a match is a series of games (партии) --------------------------------------------------------

# with target 5: a game in one stroke
FIVE = "пятерку чисто в правый угол | биток 5, 5 в правый дальний угол"


def test_a_match_to_two_wins_goes_on_to_a_new_game_with_the_other_player_breaking(store):
    s = Session.create(store, ["Аня", "Боря"], {"target": 5}, lang="ru", to_wins=2)
    _, rc, msgs = run_play(store, [FIVE, "- | биток 4", FIVE], match_id=s.id)
    strokes = [m for m in msgs if m["type"] == "stroke"]
    assert [m["game"] for m in strokes] == [1, 2, 2]
    assert [m["verdict"]["striker"] for m in strokes] == [
        "Аня",
        "Боря",
        "Аня",
    ]  # game 2 broken by Боря (E4)
    assert (
        strokes[0]["series"]["wins"] == {"Аня": 1, "Боря": 0}
        and not strokes[0]["series"]["decided"]
    )
    assert (
        strokes[2]["series"]["wins"] == {"Аня": 2, "Боря": 0} and strokes[2]["series"]["decided"]
    )
    m = store.get_match(s.id)
    assert m.status == "finished" and m.result == {"winner": "Аня", "wins": {"Аня": 2, "Боря": 0}}


def test_a_match_in_progress_between_games_is_open_and_resumes_with_the_next_breaker(store):
    s = Session.create(store, ["Аня", "Боря"], {"target": 5}, lang="ru", to_wins=2)
    run_play(store, [FIVE], match_id=s.id)
    assert store.get_match(s.id).status == "open"
    again = Session(store, s.id, lang="ru")
    assert (
        again.mismatches == []
        and again.upcoming.striker == "Боря"
        and 5 in again.upcoming.on_table
    )
    assert (
        again.read_call("пятерку чисто в правый угол").status == "accepted"
    )  # the new rack has the 5 again


def test_the_screen_says_which_game_ended_and_who_breaks_the_next(store):
    s = Session.create(store, ["Аня", "Боря"], {"target": 5}, lang="ru", to_wins=2)
    _, out, _, _ = run_interactive(store, [FIVE], [], match_id=s.id)
    assert (
        "партия 1 окончена; матч до 2 побед: партии Аня 1 : 0 Боря; партию 2 разбивает Боря с руки"
        in out
    )


def test_undo_of_a_new_games_first_stroke_returns_to_the_ended_game(store):
    s = Session.create(store, ["Аня", "Боря"], {"target": 5}, lang="ru", to_wins=2)
    run_play(store, [FIVE, "- | биток 4", "undo"], match_id=s.id)
    again = Session(store, s.id, lang="ru")
    assert again.state.result is not None and again.seq == 1 and again.upcoming.striker == "Боря"


def test_the_scoreboard_never_shows_minus_zero():
    from pyramid_referee.match.text import _penalties

    assert [_penalties(0, 0), _penalties(5, 0), _penalties(0, 10), _penalties(5, 10)] == [
        "—",
        "+5",
        "−10",
        "+5 −10",
    ]


def test_the_score_command_gives_the_match_score_in_games(store):
    s = Session.create(store, ["Аня", "Боря"], {"target": 5}, lang="ru", to_wins=3)
    _, _, msgs = run_play(store, [FIVE, "score"], match_id=s.id)
    (score,) = [m for m in msgs if m["type"] == "score"]
    assert score["series"]["wins"] == {"Аня": 1, "Боря": 0} and score["series"]["to_wins"] == 3
    _, out, _, _ = run_interactive(store, ["счёт"], [], match_id=s.id)
    assert "матч до 3 побед: партии Аня 1 : 0 Боря" in out


def test_a_negative_score_reads_with_the_same_minus_as_the_penalty_in_the_verdict(store):
    # the verdict says «Аня −5»; the scoreboard under it must not switch to the hyphen «-5»
    _, out, _ = run_play_text(store, ["- | биток 9; фол г"])
    verdict, score = out.splitlines()[-2:]
    assert "Аня −5" in verdict and score.startswith("счёт: Аня −5 : 5 Боря")
    assert "-5" not in out


def test_json_keeps_negative_scores_as_numbers(store):
    _, _, msgs = run_play(store, ["- | биток 9; фол г"])
    stroke = next(m for m in msgs if m["type"] == "stroke")
    assert stroke["state"]["scores"]["Аня"] == -5


def test_russian_help_names_the_russian_commands_first():
    text = help_text("ru")
    for ru, en in (("«отмена»", "«undo»"), ("«повтор»", "«redo»"), ("«выход»", "«quit»")):
        assert text.index(ru) < text.index(en)


def test_the_prompt_says_the_match_is_over_instead_of_asking_for_a_call(store):
    s = Session.create(store, ["Аня", "Боря"], {"target": 11}, lang="ru")
    play = Play(
        s, out=io.StringIO(), err=io.StringIO(), json_mode=False, interactive=True, lang="ru"
    )
    assert play.prompt() == "заказ (Аня)> "
    play.feed("туза чисто в правый угол | биток 1, 1 в правый дальний угол")
    assert play.prompt().startswith(
        "матч окончен («отмена» — отменить последний удар, «выход» — выйти)"
    )
    play.feed("отмена")
    assert play.prompt() == "заказ (Аня)> "


def test_a_stroke_stored_with_older_wording_reopens_and_play_goes_on(store):
    # a catalog change rewords the verdicts («победил Аня» → «победитель — Аня»); the judgement is
    # the same, so a match stored before it is no «record that disagrees» and stays open
    s, _, _ = run_play(store, GAME)
    con = sqlite3.connect(store.path)
    reworded = json.dumps(
        {**store.strokes(s.id)[1].record.verdict, "message": "Заказ выполнен (older words)."}
    )
    con.execute("UPDATE strokes SET verdict = ? WHERE match_id = ? AND seq = 2", (reworded, s.id))
    con.commit()
    con.close()
    assert Session(store, s.id).mismatches == []
    _, rc, msgs = run_play(store, ["- | биток 6"], match_id=s.id)
    assert rc == 0 and [m["seq"] for m in msgs if m["type"] == "stroke"] == [5]
    assert (
        store.strokes(s.id)[1].record.verdict["message"] == "Заказ выполнен (older words)."
    )  # as shown


def test_undo_and_redo_back_to_a_games_end_say_who_breaks_the_next_game(store):
    set_lang("ru")
    s = Session.create(store, ["Аня", "Боря"], {"target": 11}, lang="ru", to_wins=2)
    out = io.StringIO()
    play = Play(s, out=out, err=io.StringIO(), json_mode=False, interactive=False, lang="ru")
    lines = iter(
        [
            "туза чисто в правый угол | биток 1, 1 в правый дальний угол",
            "отмена",
            "повтор",
            "счёт",
            "- | биток 5",
            "отмена",
        ]
    )
    play.run(lambda prompt: next(lines, None))
    told = [
        ln for ln in out.getvalue().splitlines() if ln.endswith("партию 2 разбивает Боря с руки")
    ]
    # after the game-ending stroke, after its redo, on «счёт» there, and after undoing
    # game 2's break
    assert len(told) == 4


@pytest.mark.parametrize("said", ["без заказа", "Без  заказа", "нет заказа", "-"])
def test_the_words_bez_zakaza_are_a_stroke_without_a_call_not_a_typo(store, said):
    # the game record writes «без заказа» for no call; a marker types the same at the table
    s, rc, msgs = run_play(store, [f"{said} | биток 9"])
    assert rc == 0 and not [m for m in msgs if m["type"] == "error"]
    (row,) = store.strokes(s.id)
    assert row.record.call_status == "none" and row.record.verdict["call_status"] == "none"


@pytest.mark.parametrize(
    "outcome",
    [
        "биток 3; 3 в правый угол; по заказу",  # contacts in the short form
        "биток 3, 3 в середину, 3 в левую дальнюю лузу",  # a ball that fell twice
        "биток 3; 3 в лузу",  # the called ball's pocket unsaid
    ],
)
def test_a_refused_typed_outcome_speaks_the_notation_not_the_json(store, outcome):
    _, _, err = run_play_text(store, [f"тройку чисто в правый угол | {outcome}"])
    first = err.splitlines()[0]
    assert first.startswith("строка 1: исход, столбец ")
    assert not re.search(r"[A-Za-z]", re.sub(r"«[^»]*»", "", first)), first
    assert not re.search(r"route_ok|pocket|off_table|hit|событие", first), first


def test_a_refused_mark_points_at_the_words_typed_not_the_json_field(store):
    _, _, err = run_play_text(
        store,
        [
            "- | биток 3",
            "- | биток 3; с руки",
            "- | в доме; биток 3",
            "- | биток 3; предупреждение; позиция не изменилась",
        ],
    )
    lines = err.splitlines()
    assert lines[0] == "строка 2: исход, столбец 10, «с руки»: по ходу партии биток на столе"
    assert lines[2] == "    " + " " * 9 + "^"
    assert lines[3] == "строка 3: исход, столбец 1, «в доме»: по ходу партии биток на столе"
    assert (
        lines[6]
        == "строка 4: исход, столбец 26, «позиция не изменилась»: но «биток 3» сдвинул шар"
    )
    assert "поле" not in err and "from_hand" not in err and "true" not in err


def test_the_cue_ball_gone_twice_is_named_the_cue_ball_not_cue(store):
    _, _, err = run_play_text(store, ["- | биток за бортом; биток 3"])
    assert err.splitlines()[0] == "строка 1: исход, столбец 18, «биток 3»: битка уже нет на столе"


def _play_at_a_terminal(session, club) -> tuple:
    out = io.StringIO()
    play = Play(session, out=out, err=io.StringIO(), json_mode=False, interactive=True)
    play.club = club
    return play, out


def test_at_a_terminal_the_club_line_under_a_verdict_or_undo_says_it_reached_a_server_there(
    club_url, db
):
    pytest.importorskip("psycopg", reason="psycopg (3) is not installed")
    from club_helpers import register_table, wait_for

    from pyramid_referee.club.process import ClubSyncProcess

    register_table(club_url, db, "Стол 1")
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        sync = ClubSyncProcess(db, club_url, retry_s=0.2).start()
        try:
            assert wait_for(lambda: sync.status().online)
            play, out = _play_at_a_terminal(s, sync)
            for n in range(3):
                play.feed(f"- | биток {1 + n}")
            play.feed("отмена")  # an undo is sent too, and says so
            play.feed("повтор")
        finally:
            sync.stop()
    club_lines = [line for line in out.getvalue().splitlines() if line.startswith("клуб:")]
    assert club_lines == ["клуб: на связи"] * 5, out.getvalue()


# -- the outcome is checked before any question; an outcome without «|» is not a call -------------


def test_the_outcome_is_checked_before_the_marker_is_asked_anything(store):
    # 3 is pocketed first; then a refused call with an outcome naming 3 again: the ball is gone, so
    # that is said at once, and the question about the refused call is never asked (nothing stored)
    s, out, err, asked = run_interactive(
        store, [GAME[0], "пятерку чисто в угол | биток 3"], [True]
    )
    assert asked == []
    assert "3" in err and "нет на столе" in err
    assert len(store.strokes(s.id)) == 1


def test_a_refused_call_with_a_good_outcome_is_still_asked_about(store):
    s, out, err, asked = run_interactive(store, ["пятерку чисто в угол | биток 5"], [True])
    assert len(asked) == 1 and len(store.strokes(s.id)) == 1


@pytest.mark.parametrize(
    "line", ["биток 3, 3 в правый дальний угол", "биток 9", "ничего", "промах"]
)
def test_an_outcome_typed_without_the_bar_is_named_so_and_not_taken_for_a_call(store, line):
    s, rc, msgs = run_play(store, [line, "биток 7"])
    errors = [m for m in msgs if m["type"] == "error"]
    assert "похоже на исход удара — забыли «|»?" in errors[0]["message"]
    assert not [m for m in msgs if m["type"] == "call" and m["call_text"] == line]
    assert (
        store.strokes(s.id) == [] and rc == 1
    )  # «биток 7» after it is not taken as that call's outcome


def test_a_call_on_its_own_line_is_still_a_call(store):
    s, rc, msgs = run_play(
        store, ["тройку чисто в правый угол", "биток 3, 3 в правый дальний угол"]
    )
    assert [m for m in msgs if m["type"] == "error"] == []
    assert [r.record.call_status for r in store.strokes(s.id)] == ["accepted"]


def test_checking_a_stroke_before_the_question_changes_nothing(store):
    s = Session.create(store, ["Аня", "Боря"], lang="ru")
    s.enter(*GAME[0].split(" | "))
    s.undo()
    before = (s.seq, s.state.to_json(), len(s.match.history))
    s.check(s.read_call("пятерку чисто в угол"), "биток 5")
    assert (s.seq, s.state.to_json(), len(s.match.history)) == before
    assert (
        s.redo() == 1 and len(store.strokes(s.id)) == 1
    )  # the undone stroke is still there to put back
