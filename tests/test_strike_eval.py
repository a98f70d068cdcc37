"""The strike benchmark's metric (corpora/audio/strike_eval.py): calls decided right, and where
each false strike falls, judged on hand-built truths (no audio needed).

The truth below is one session: a call (two words) then its strike and cascade, a call with no
stroke after it, then a second call and stroke; chatter and a rack with no call standing.
"""

from __future__ import annotations

import json
import math

import pytest
import strike_eval as ev  # corpora/audio/strike_eval.py (path set in conftest.py)


def session_truth() -> dict:
    calls = [
        {"start": 1.0, "end": 2.0, "words": [[1.0, 1.4], [1.5, 2.0]], "stroke": 0},
        {"start": 7.0, "end": 8.0, "words": [[7.0, 8.0]], "stroke": None, "kind": "no_stroke"},
        {"start": 10.0, "end": 11.2, "words": [[10.0, 10.5], [10.7, 11.2]], "stroke": 1},
    ]
    strokes = [
        {
            "i": 0,
            "call": 0,
            "call_start": 1.0,
            "call_end": 2.0,
            "words": calls[0]["words"],
            "strike": 3.0,
            "cascade_end": 5.0,
            "sound": "cue_x_1.wav",
        },
        {
            "i": 1,
            "call": 2,
            "call_start": 10.0,
            "call_end": 11.2,
            "words": calls[2]["words"],
            "strike": 12.0,
            "cascade_end": 14.0,
            "sound": "cue_x_1.wav",
        },
    ]
    sounds = [
        {"t": 3.4, "kind": "ball", "stroke": 0},
        {"t": 4.6, "kind": "pocket", "stroke": 0},
        {"t": 15.5, "kind": "rack"},
        {"t": 12.8, "kind": "ball", "stroke": 1},
    ]
    chatter = [{"start": 5.5, "end": 6.5, "kind": "chatter"}]
    return {
        "calls": calls,
        "strokes": strokes,
        "sounds": sounds,
        "chatter": chatter,
        "duration": 17.0,
        "strikes": [3.0, 12.0],
    }


@pytest.mark.parametrize(
    "t,place",
    [
        (1.2, "in_call"),  # inside the call's first word
        (1.45, "in_call"),  # the pause between its two words is still the call
        (2.01, "in_call"),  # within the 20 ms slack at the last word's end
        (2.5, "call_to_strike"),  # after the call's end, before its strike
        (8.5, "call_to_strike"),  # after a call with no stroke, before the next call begins
        (3.5, "cascade"),  # between the strike and the end of its cascade
        (4.99, "cascade"),
        (5.7, "no_call"),  # chatter after the stroke: no call standing
        (15.5, "no_call"),  # a rack after the last stroke
        (0.5, "no_call"),  # before any call
    ],
)
def test_false_strike_is_placed_by_where_it_falls(t, place):
    assert ev.where(t, session_truth()) == place


def test_false_strike_names_the_nearest_placed_sound():
    tr = session_truth()
    assert ev.nearest_sound(3.41, tr) == "ball"
    assert ev.nearest_sound(15.53, tr) == "rack"
    assert ev.nearest_sound(5.9, tr) == "speech"  # inside the chatter
    assert ev.nearest_sound(16.5, tr) == "unplaced"  # nothing the session put there


def test_a_stroke_is_right_only_with_its_strike_and_nothing_false_since_its_call():
    tr = session_truth()
    o = ev.decide([3.01, 12.0], tr)
    assert (o.strokes, o.found, o.decided_right, o.n_false) == (2, 2, 2, 0)
    assert o.stray_calls == 1 and o.stray_kept == 1

    # a false strike inside the first call's words: found, but the call is not decided right
    o = ev.decide([1.2, 3.0, 12.0], tr)
    assert (o.found, o.decided_right) == (2, 1)
    assert o.false_where == {"in_call": 1, "call_to_strike": 0, "cascade": 0, "no_call": 0}
    assert o.wrong[0][1] == 0 and "in_call" in o.wrong[0][3]

    # between the second call's end and its strike: that call is lost
    o = ev.decide([3.0, 11.6, 12.0], tr)
    assert o.decided_right == 1 and o.false_where["call_to_strike"] == 1 and o.wrong[0][1] == 1

    # during the first stroke's cascade and with no call standing: both calls still decided right
    o = ev.decide([3.0, 3.4, 5.8, 12.0, 15.5], tr)
    assert o.decided_right == 2
    assert o.false_where == {"in_call": 0, "call_to_strike": 0, "cascade": 1, "no_call": 2}
    assert o.false_kind == {"ball": 1, "speech": 1, "rack": 1}


def test_a_strike_more_than_40_ms_off_is_a_miss_and_a_false_strike():
    tr = session_truth()
    o = ev.decide([3.041, 12.039], tr)
    assert o.found == 1 and o.decided_right == 1
    assert o.false_where["cascade"] == 1  # 3.041 s: after the strike, in its cascade
    o = ev.decide([2.959, 12.0], tr)  # 41 ms early: between the call and the strike
    assert o.found == 1 and o.decided_right == 1 and o.false_where["call_to_strike"] == 1
    assert "missed" in o.wrong[0][3] and "call_to_strike" in o.wrong[0][3]


def test_one_report_finds_one_strike_only():
    tr = session_truth()
    tr["strokes"][1]["strike"] = 3.03  # two true strikes 30 ms apart (a hand-built edge case)
    o = ev.decide([3.015], tr)
    assert o.found == 1


def test_a_call_with_no_stroke_is_kept_only_if_no_strike_takes_it():
    tr = session_truth()
    o = ev.decide([3.0, 7.5, 12.0], tr)
    assert o.stray_calls == 1 and o.stray_kept == 0
    assert o.false_where["in_call"] == 1
    o = ev.decide([3.0, 9.0, 12.0], tr)
    assert o.stray_kept == 0 and o.false_where["call_to_strike"] == 1
    # the second stroke's own call starts at 10.0: a false strike at 9.0 does not touch it
    assert o.decided_right == 2


def test_candidate_recall_and_latency_come_from_what_was_observed():
    tr = session_truth()
    o = ev.decide(
        [3.0, 12.0],
        tr,
        candidates=[1.2, 3.02, 11.5],
        final={3.0: 3.4, 12.0: 13.5},
        first={3.0: 3.03, 12.0: 12.03},
    )
    assert o.candidates == 1 and o.candidates_known
    assert o.latency == [pytest.approx(0.4), pytest.approx(1.5)]
    assert o.first_latency == [pytest.approx(0.03), pytest.approx(0.03)]
    o2 = ev.decide([3.0, 12.0], tr)
    assert not o2.candidates_known
    total = ev.Outcome().add(o).add(o2)
    assert total.strokes == 4 and total.decided_right == 4 and not total.candidates_known
    assert total.per100("in_call") == 0.0
    assert math.isnan(ev.Outcome().rate("found"))


def test_strike_recall_is_counted_by_the_strike_level_against_its_call():
    """Each stroke falls in the band of its strike's level (``strike_rel_db``, the mixer's),
    found or not; a truth without levels (a recorded session) gives no bands."""
    tr = session_truth() | {"strike_rel_db": [-12.5, -3.0]}
    o = ev.decide([3.0], tr)
    assert o.by_level == {"-15…-10 dB": [1, 1], "-5…0 dB": [0, 1]}
    total = ev.Outcome().add(o).add(ev.decide([3.0, 12.0], tr))
    assert total.by_level == {"-15…-10 dB": [2, 2], "-5…0 dB": [1, 2]}
    assert ev.decide([3.0], session_truth()).by_level == {}
    assert ev.level_band(-10.0) == "-10…-5 dB" and ev.level_band(0.0) == "-5…0 dB"


def test_false_strikes_inside_calls_are_counted_by_the_voice_that_said_the_call():
    """A false strike inside a call counts against the kind of voice that said it (a call with no
    engine is espeak-ng's, the mixer's default), beside how many calls each kind said; a false
    strike outside every call counts against none."""
    tr = session_truth()
    tr["calls"][0]["engine"] = "real"
    tr["calls"][2]["engine"] = "festival"
    o = ev.decide([1.2, 3.0, 7.5, 10.2, 12.0, 5.7], tr)
    assert o.in_call_by_voice == {"recorded": [1, 1], "espeak-ng": [1, 1], "Festival": [1, 1]}
    clean = ev.decide([3.0, 12.0], tr)
    assert clean.in_call_by_voice == {"recorded": [0, 1], "espeak-ng": [0, 1], "Festival": [0, 1]}
    total = ev.Outcome().add(o).add(clean)
    assert total.in_call_by_voice["recorded"] == [1, 2]
    assert "recorded 1 in 2 calls (50.0 per 100)" in total.in_call_text()


def test_false_strikes_inside_calls_are_counted_by_the_calls_place_and_at_its_end():
    """A session's first call apart from the later ones (before any strike the detector knows
    nothing of the table), and those within 0.1 s of the call's end (a recorded excerpt cut right
    after a burst)."""
    tr = session_truth()
    o = ev.decide([1.95, 3.0, 7.5, 12.0], tr)  # 1.95: first call, 50 ms before its end
    assert o.in_call_by_place == {"first call": [1, 1], "later call": [1, 2]}
    assert o.in_call_at_end == 1
    total = ev.Outcome().add(o).add(ev.decide([1.2, 3.0, 12.0], tr))
    assert total.in_call_by_place == {"first call": [2, 2], "later call": [1, 4]}
    assert total.in_call_at_end == 1
    assert total.in_call_place_text() == (
        "first call 2 in 2 calls (100.0 per 100); later call 1 in 4 calls (25.0 per 100); "
        "within 0.1 s of the call's end 1"
    )


def test_cli_json_is_scored_from_its_strikes_list_only(tmp_path):
    """The held-out checker's path reads the ``strikes`` list of ``strikes FILE --json``; strikes
    that the same JSON lists as taken back are reported alongside, never dropped by the scorer."""
    tr = session_truth()
    doc = {
        "strikes": [1.2, 3.0, 12.0],
        "sounds": [
            {"time": 1.2, "decision": "strike"},
            {"time": 5.0, "decision": "retracted"},
            {"time": 3.0, "decision": "strike"},
            {"time": 12.0, "decision": "strike"},
        ],
    }
    strikes, listed_taken_back = ev.strikes_from_json(json.dumps(doc))
    assert strikes == [1.2, 3.0, 12.0] and listed_taken_back == 0
    doc["strikes"].append(5.0)  # a taken-back strike left in the strikes list
    strikes, listed_taken_back = ev.strikes_from_json(json.dumps(doc))
    assert listed_taken_back == 1
    o = ev.decide(strikes, tr)
    assert o.false_where["in_call"] == 1 and o.false_where["cascade"] == 1
    with pytest.raises(ValueError, match="strikes"):
        ev.strikes_from_json('{"sounds": []}')


def test_bench_tables_are_markdown_with_every_condition_given():
    """bench/bench_strike.py's tables, from hand-made outcomes: one row per condition measured,
    the headline as a count and a percentage, the profile columns only for profiles run."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import bench_strike as bs

    tr = session_truth()
    right = ev.decide([3.0, 12.0], tr, candidates=[3.0, 12.0], final={3.0: 3.2, 12.0: 12.2})
    wrong = ev.decide([1.2, 3.0], tr, candidates=[3.0], final={3.0: 3.2})
    by_cond = {
        ("clean", "none"): right,
        ("5 dB", "none"): wrong,
        ("5 dB", "3 strikes"): right,
        ("all", "none"): ev.Outcome().add(right).add(wrong),
    }
    rows = bs.cond_table(by_cond)
    assert rows[0].startswith("| condition |") and set(rows[1]) <= set("|-:")
    assert [r.split("|")[1].strip() for r in rows[2:]] == ["clean", "5 dB", "all"]
    assert (
        "**2/2 (100 %)**" in rows[2] and "**0/2 (0 %)**" in rows[3] and "**2/4 (50 %)**" in rows[4]
    )
    assert all(r.count("|") == rows[0].count("|") for r in rows)
    cal = bs.calib_table(by_cond)
    assert "3 strikes profile" in cal[0] and "5 strikes" not in cal[0]
    assert cal[2:] == ["| 5 dB | 0/2 (0 %) | 2/2 (100 %) |"]  # clean has no profile run: left out
    lv = ev.decide([3.0], tr | {"strike_rel_db": [-12.5, -3.0]})
    lev = bs.level_table({("5 dB", "none"): lv, ("clean", "none"): right})
    assert lev[2:] == ["| 5 dB | 1/1 (100 %) | – | 0/1 (0 %) |"]  # clean has no levels
    src = bs.source_table(
        {"vrcbce": {"clean": right, "all": right}},
        [{"name": "vrcbce", "speech": "tinkoff", "noise": "junehui"}],
    )
    assert src[2].startswith("| vrcbce (tinkoff, junehui) | 2/2 |") and src[2].endswith(
        "2/2 (100 %) |"
    )
    carried = bs.carry_table(
        {
            ("5 dB", "later none"): wrong,
            ("5 dB", "later carried"): right,
            ("all", "later none"): wrong,
            ("all", "later carried"): right,
        }
    )
    # the fresh detector's voiding false strike (1.2 s: inside the first call) is counted
    assert carried[2:] == [
        "| 5 dB | 2 | 0/2 (0 %) | 2/2 (100 %) | 1 / 0 |",
        "| all | 2 | 0/2 (0 %) | 2/2 (100 %) | 1 / 0 |",
    ]
    assert bs.carry_table(by_cond)[2:] == []  # not run with --carry: no rows


class ScriptedDetector:
    """Test double of the strike detector: on a script of stream times it proposes candidates,
    reports strikes provisionally, confirms or takes them back, as the real one may."""

    class _Onsets:
        def __init__(self, owner):
            self.owner = owner

        def feed(self, block, t0=None):
            return [
                type("O", (), {"time": t})()
                for t in self.owner.script.get(("cand", round(t0 * 100)), [])
            ]

    class _S:
        def __init__(self, t):
            self.time = t

    def __init__(self, script):
        self.script = script
        self.onsets = self._Onsets(self)
        self.strikes, self.provisional = [], []

    def feed(self, block, t0):
        self.onsets.feed(block, t0)
        key = round(t0 * 100)
        for t in self.script.get(("report", key), []):
            self.strikes.append(self._S(t))
            self.provisional.append(t)
        for t in self.script.get(("confirm", key), []):
            self.provisional.remove(t)
        for t in self.script.get(("retract", key), []):
            self.provisional.remove(t)
            self.strikes = [s for s in self.strikes if s.time != t]
        return []


def test_stream_reads_candidates_and_when_each_decision_became_final():
    import numpy as np

    script = {
        ("cand", 100): [1.0, 1.004],
        ("report", 102): [1.0],
        ("confirm", 120): [1.0],
        ("cand", 300): [3.0],
        ("report", 302): [3.0],
        ("retract", 317): [3.0],
        ("report", 500): [4.98],
        ("confirm", 640): [4.98],
    }
    run = ev.stream(np.zeros(16000 * 7, np.float32), lambda: ScriptedDetector(script), block_ms=10)
    assert run.candidates == [1.0, 1.004, 3.0]
    assert run.strikes == [1.0, 4.98]  # the one taken back does not stand
    assert run.first[1.0] == pytest.approx(1.03) and run.final[1.0] == pytest.approx(1.21)
    assert run.final[4.98] == pytest.approx(6.41)  # provisional for 1.4 s
    assert run.cpu_s >= 0


def test_the_scripts_refuse_a_detector_from_another_checkout(monkeypatch, tmp_path):
    """A second worktree sharing the first's .venv imports the first's detector (its editable
    install maps the package): the benchmark would measure one checkout's detector with
    another's tables. Here this checkout's detector passes, and a checkout elsewhere is refused,
    naming both."""
    ev.require_this_tree()  # the suite runs with this checkout installed
    monkeypatch.setattr(ev, "ROOT", tmp_path / "other")
    with pytest.raises(SystemExit) as stop:
        ev.require_this_tree()
    message = str(stop.value)
    assert f"this checkout is {tmp_path / 'other'}" in message
    assert "editable install" in message and "pip install -e" in message


def test_the_benchmark_says_which_code_it_measured():
    """The header names the commit, the tracked files changed since it and the threshold; a
    figure from a tree with changes says which."""
    from pyramid_referee.voice.strike import StrikeParams

    state = ev.code_state()
    assert state["strike_p"] == StrikeParams().strike_p
    if state["commit"] is not None:  # a git checkout (a clean clone in CI)
        assert len(state["commit"]) == 12 and all(c in "0123456789abcdef" for c in state["commit"])
    describe = ev.describe_code
    assert describe({"commit": "abc", "changed": [], "strike_p": 0.6}) == (
        "commit abc; strike from p 0.6"
    )
    assert describe({"commit": "abc", "changed": ["voice/strike.py"], "strike_p": 0.65}) == (
        "commit abc with changes to voice/strike.py; strike from p 0.65"
    )
    assert describe({"commit": None, "changed": [], "strike_p": 0.6}).startswith("no git checkout")


def test_the_benchmarks_choose_their_held_out_sources_by_name(bank, speech, monkeypatch, capsys):
    """``chosen_folds``: "all" is every fold, names are kept in the order given, and an unknown
    name is refused, naming it and the sources there are."""
    monkeypatch.setattr(ev, "load_inputs", lambda: (bank, speech))
    _, _, every, names = ev.chosen_folds(["all"])
    assert names == [f["name"] for f in every] and len(names) == 15
    assert ev.chosen_folds(["vrcbce", "badpool"])[3] == ["vrcbce", "badpool"]
    assert ev.chosen_folds(["vrcbce", "snooker"]) is None
    err = capsys.readouterr().err
    assert "unknown held-out source(s) ['snooker']" in err and "'vrcbce'" in err
