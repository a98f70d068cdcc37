"""Match scripts (corpora/matches) through replay.py: every clause and policy has a
script with its hand-computed final state; bad scripts name the line and field.
The calls are Russian text parsed by the real grammar."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyramid_referee.match.replay import ReplayError, read_script, replay_lines, run

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "matches"
SCRIPTS = sorted(CORPUS.glob("*.jsonl"))
BAD = sorted((CORPUS / "bad").glob("*.jsonl"))


def expect_of(path: Path) -> dict:
    return json.loads(
        path.with_name(path.name[: -len(".jsonl")] + ".expect.json").read_text(encoding="utf-8")
    )


def test_corpus_covers_every_clause_and_policy_id():
    ids = " ".join(p.stem for p in SCRIPTS)
    for clause in [
        "C1",
        "C2",
        "C3",
        "C4",
        "C5",
        "C6",
        "C7",
        "C8",
        "C9",
        "C10",
        "E1",
        "E2",
        "E3",
        "E4",
        "E5",
        "P1",
        "P2",
        "P3",
        "P4",
        "P5",
        "P6",
        "P7",
        "P8",
        "Q1",
        "Q2",
        "Q3",
        "Q4",
        "Q5",
        "Q6",
        "Q7",
        "Q9",
        "Q10",
    ]:
        assert f"{clause}_" in ids, clause
    assert any("E6" in p.stem for p in BAD)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_match_script_reaches_its_expected_final_state(path):
    expect = expect_of(path)
    result = replay_lines(path.read_text(encoding="utf-8").splitlines())
    assert result.final_json() == expect["final"]
    cited = {c for row in result.rows for c in row.verdict.clauses}
    assert set(expect["clauses"]) <= cited, set(expect["clauses"]) - cited


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_script_names_line_and_field(path):
    expect = expect_of(path)["error"]
    with pytest.raises(ReplayError) as e:
        replay_lines(path.read_text(encoding="utf-8").splitlines())
    assert (e.value.line, e.value.field) == (expect["line"], expect["field"]), str(e.value)
    assert e.value.text("ru").startswith(f"строка {expect['line']}: ")


def test_refused_call_keeps_the_refusal_and_its_clause():
    lines = [
        '{"call": "тройку чисто в середину двенадцатый", "outcome": {"events": [{"type": "hit", '
        '"a": "cue", "b": 3}]}}'
    ]
    row = replay_lines(lines).rows[0]
    assert row.call_status == "refused" and row.refusal["code"] == "several_calls_unclear"
    assert row.refusal["clause"] == "Q8" and row.to_json()["call_text"].startswith("тройку")


def test_a_refusal_in_ball_and_pocket_keeps_the_clause_of_that_mode():  # C7, not C2
    lines = [
        '{"settings": {"mode": "ball_and_pocket"}, "players": ["A", "B"]}',
        '{"call": "тройку чисто", "outcome": {"events": [{"type": "hit", "a": "cue", "b": 3}]}}',
    ]
    row = replay_lines(lines).rows[0]
    assert row.refusal["code"] == "no_pocket" and row.refusal["clause"] == "C7"
    assert "«тройку в левый угол»" in row.refusal["hint"]


def test_call_parsed_against_the_balls_on_the_table():
    lines = [
        '{"call": "тройку чисто в середину", "outcome": {"events": [{"type": "hit", "a": "cue", '
        '"b": 3}, {"type": "pocket", "ball": 3, "pocket": {"kind": "middle", "side": "left", '
        '"end": null}}]}}',
        '{"call": "тройку чисто в середину", "outcome": {"events": [{"type": "hit", "a": "cue", '
        '"b": 5}]}}',
    ]
    rows = replay_lines(lines).rows
    assert rows[0].call_status == "accepted" and rows[1].call_status == "refused"
    assert rows[1].refusal["code"] == "ball_not_on_table"


def test_call_as_json_object_and_a_parse_double():
    # A test double for the parser (named as one): the real-grammar path is covered above.
    seen = []

    def fake_parse(text, *, mode, balls_left, pocket_precision):
        seen.append((text, mode, tuple(balls_left), pocket_precision))
        from pyramid_referee.grammar.call import Call, Pocket

        return Call(4, Pocket("middle"), None)

    lines = [
        '{"settings": {"mode": "ball_and_pocket"}}',
        '{"call": {"ball": 3, "pocket": {"kind": "middle"}, "route": null}, "outcome": {"events": '
        '[{"type": "hit", "a": "cue", "b": 3}, {"type": "pocket", "ball": 3, "pocket": {"kind": '
        '"middle", "side": "left"}}]}}',
        '{"call": "что угодно", "outcome": {"events": [{"type": "hit", "a": "cue", "b": 4}]}}',
    ]
    res = run(read_script(lines), fake_parse)
    assert res.rows[0].verdict.fulfilled and res.rows[1].call.ball == 4
    assert seen == [
        (
            "что угодно",
            "ball_and_pocket",
            tuple(b for b in range(1, 16) if b != 3),
            "side_for_corners",
        )
    ]


def test_header_only_on_the_first_line():
    with pytest.raises(ReplayError) as e:
        read_script(['{"call": null, "outcome": {}}', '{"players": ["A", "B"]}'])
    assert e.value.line == 2


def test_blank_lines_are_skipped_and_line_numbers_kept():
    with pytest.raises(ReplayError) as e:
        read_script(["", '{"call": 5, "outcome": {}}'])
    assert (e.value.line, e.value.field) == (2, "call")


def _row(call_text, events, header=None):
    lines = ([header] if header else []) + [
        '{"call": '
        + json.dumps(call_text, ensure_ascii=False)
        + ', "outcome": {"events": '
        + json.dumps(events)
        + "}}"
    ]
    return replay_lines(lines).rows[0]


HIT3_POT3 = [
    {"type": "hit", "a": "cue", "b": 3},
    {"type": "pocket", "ball": 3, "pocket": {"kind": "middle", "side": "left"}},
]


def test_C9_the_last_of_several_calls_counts():
    row = _row("тройку чисто в середину, нет, пятёрку чисто в правый угол", HIT3_POT3)
    assert row.call_status == "accepted" and row.call.ball == 5
    assert not row.verdict.fulfilled and row.verdict.respotted == (
        3,
    )  # 3 was not the call that counted


def test_Q8_unfinished_second_call_is_refused_and_counts_nothing():
    row = _row("тройку чисто в середину двенадцатый", HIT3_POT3)
    assert row.call_status == "refused" and row.refusal["clause"] == "Q8"
    assert row.verdict.points == {"A": 0, "B": 0} and row.verdict.respotted == (3,)


def test_Q9_default_clean_mode_refuses_a_call_without_its_way():
    row = _row("тройку в середину", HIT3_POT3)
    assert row.call_status == "refused" and row.refusal["code"] == "no_route"
    row = _row("тройку в середину", HIT3_POT3, '{"settings": {"mode": "ball_and_pocket"}}')
    assert row.call_status == "accepted" and row.verdict.fulfilled and row.verdict.points["A"] == 3


def test_Q2_pocket_precision_setting_reaches_the_call_parser():
    # Q2 is a match setting: with "any", «в угол» without a side is a definite call.
    call = '"тройку чисто в угол"'
    stroke = (
        '{"call": '
        + call
        + ', "outcome": {"events": [{"type": "hit", "a": "cue", "b": 3}, {"type": "pocket", '
        '"ball": 3, "pocket": {"kind": "corner", "side": "left", "end": "far"}}]}}'
    )
    strict = run(read_script([stroke]))
    assert strict.rows[0].call_status == "refused"
    loose = run(read_script(['{"settings": {"pocket_precision": "any"}}', stroke]))
    assert loose.rows[0].call_status == "accepted" and loose.rows[0].verdict.fulfilled


# -- a script of a match of several games (партии): the header's "to_wins" ------------------------

FIVE = {
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


def _script(header, n):
    return [json.dumps(header, ensure_ascii=False)] + [json.dumps(FIVE, ensure_ascii=False)] * n


def test_a_match_script_to_two_wins_plays_its_games_with_the_break_alternating_E4():
    header = {"settings": {"target": 5}, "players": ["A", "B"], "to_wins": 2}
    result = replay_lines(_script(header, 3))
    # each game is one pot of the 5 from a full rack: A breaks game 1, B game 2, A game 3
    assert [r.verdict.striker for r in result.rows] == ["A", "B", "A"]
    final = result.final_json()
    assert final["series"]["wins"] == {"A": 2, "B": 1} and final["series"]["decided"]
    with pytest.raises(ReplayError) as e:  # the match is decided: no stroke may follow
        replay_lines(_script(header, 4))
    assert e.value.line == 5


def test_without_to_wins_a_script_is_one_game_and_ends_with_it():
    result = replay_lines(_script({"settings": {"target": 5}, "players": ["A", "B"]}, 1))
    assert "series" not in result.final_json() and result.state.result.winner == "A"
    with pytest.raises(ReplayError):
        replay_lines(_script({"settings": {"target": 5}, "players": ["A", "B"]}, 2))


@pytest.mark.parametrize("bad", [0, 100, "2", True])
def test_a_bad_to_wins_in_the_header_names_its_line_and_range(bad):
    with pytest.raises(ReplayError) as e:
        read_script(_script({"players": ["A", "B"], "to_wins": bad}, 1))
    assert e.value.line == 1 and e.value.field == "to_wins" and "99" in e.value.text("ru")
