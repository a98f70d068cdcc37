"""Input longer than any real call, outcome or record line is refused with the limit
named, at every door (``play``, the pad's JSON API, a written record, the outcome
notation), and nothing is stored."""

from __future__ import annotations

import io
import json

import pytest

from pyramid_referee.cli.play import Play
from pyramid_referee.i18n import set_lang
from pyramid_referee.match.bounds import MAX_CALL_CHARS, MAX_CALL_WORDS, MAX_RECORD_LINE_CHARS
from pyramid_referee.match.record import check_record
from pyramid_referee.match.session import Session
from pyramid_referee.match.store import Store
from pyramid_referee.rules import Outcome, RulesInputError
from pyramid_referee.rules.notation import MAX_OUTCOME_CHARS, NotationError, parse_outcome
from pyramid_referee.rules.outcome import MAX_EVENTS

GOOD_CALL = "тройку чисто в правый угол"
GOOD_OUTCOME = "биток 3, 3 в правый дальний угол"
LONG_CALL = "тройку " * 60  # 60 words, 420 characters
MANY_EVENTS = ", ".join(["биток 3"] * (MAX_EVENTS + 1))


@pytest.fixture(autouse=True)
def _russian():
    set_lang("ru")
    yield
    set_lang("ru")


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "m.sqlite") as s:
        yield s


def run_play(store, lines):
    s = Session.create(store, ["Аня", "Боря"], lang="ru")
    out, err = io.StringIO(), io.StringIO()
    play = Play(s, out=out, err=err, json_mode=True, interactive=False, lang="ru")
    it = iter(lines)
    rc = play.run(lambda prompt: next(it, None))
    return s, rc, [json.loads(x) for x in out.getvalue().splitlines()]


def test_the_limits_are_above_any_real_call_and_outcome():
    assert len(GOOD_CALL) < MAX_CALL_CHARS and len(GOOD_CALL.split()) < MAX_CALL_WORDS
    longest_call = "не тройку, а пятёрку от борта через биток в правый дальний угол от своего шара"
    assert len(longest_call) < MAX_CALL_CHARS // 2
    assert len(parse_outcome(", ".join(["биток 3"] * MAX_EVENTS))["events"]) == MAX_EVENTS


@pytest.mark.parametrize(
    "call, limit", [(LONG_CALL, "300"), ("а " * 45, "40"), ("я" * 150_000, "300")]
)
def test_play_refuses_a_call_longer_than_any_call_naming_the_limit_and_stores_nothing(
    store, call, limit
):
    s, rc, msgs = run_play(store, [f"{call} | {GOOD_OUTCOME}", f"заказ: {call}", call])
    errors = [m for m in msgs if m["type"] == "error"]
    assert len(errors) == 3 and all(f"не больше {limit}" in e["message"] for e in errors)
    assert all(len(e["message"]) < 300 for e in errors)  # the text itself is not echoed back
    assert store.strokes(s.id) == [] and rc == 1
    assert not [m for m in msgs if m["type"] == "call"]


def test_play_refuses_an_outcome_with_more_parts_than_a_stroke_can_have(store):
    s, rc, msgs = run_play(
        store, [f"{GOOD_CALL} | {MANY_EVENTS}", f"{GOOD_CALL} | " + "биток 3, " * 200]
    )
    errors = [m for m in msgs if m["type"] == "error"]
    assert f"не больше {MAX_EVENTS}" in errors[0]["message"]
    assert f"не больше {MAX_OUTCOME_CHARS}" in errors[1]["message"]
    assert store.strokes(s.id) == []


def test_the_caret_under_a_long_outcome_shows_a_stretch_of_it_not_all(store):
    s = Session.create(store, ["Аня", "Боря"], lang="ru")
    out, err = io.StringIO(), io.StringIO()
    play = Play(s, out=out, err=err, json_mode=False, interactive=False, lang="ru")
    play.feed(f"{GOOD_CALL} | " + "биток 3, " * 200)
    assert len(err.getvalue()) < 600 and "^" in err.getvalue()


def test_the_outcome_json_with_more_events_than_a_stroke_can_have_is_refused():
    data = {"events": [{"type": "hit", "a": "cue", "b": 3}] * (MAX_EVENTS + 1)}
    with pytest.raises(RulesInputError) as exc:
        Outcome.from_json(data)
    assert str(MAX_EVENTS) in exc.value.ru


def test_the_notation_refuses_too_many_parts_at_the_first_part_too_many():
    with pytest.raises(NotationError) as exc:
        parse_outcome(MANY_EVENTS)
    assert exc.value.column == MANY_EVENTS.index("биток 3", len("биток 3, ") * MAX_EVENTS) + 1


def test_the_json_api_refuses_an_over_long_call_and_outcome_and_stores_nothing(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from pyramid_referee.web.app import create_app

    db = tmp_path / "m.db"
    with Store(db) as st:
        mid = Session.create(st, ["Иван", "Пётр"], lang="ru").id
    auth = {"Authorization": "Bearer 4321"}
    with TestClient(create_app(db, mid, pin="4321")) as client:
        r1 = client.post(
            "/api/strokes", json={"call": LONG_CALL, "outcome": GOOD_OUTCOME}, headers=auth
        )
        r2 = client.post(
            "/api/strokes", json={"call": GOOD_CALL, "outcome": MANY_EVENTS}, headers=auth
        )
        events = [{"type": "hit", "a": "cue", "b": 3}] * (MAX_EVENTS + 1)
        r3 = client.post(
            "/api/strokes", json={"call": GOOD_CALL, "outcome": {"events": events}}, headers=auth
        )
        r4 = client.post("/api/call", json={"call": LONG_CALL}, headers=auth)
    assert [r.status_code for r in (r1, r2, r3, r4)] == [422] * 4
    assert (
        "не больше 300" in r1.text
        and f"не больше {MAX_EVENTS}" in r2.text
        and str(MAX_EVENTS) in r3.text
    )
    with Store(db, create=False) as st:
        assert st.strokes(mid) == []


def test_a_record_names_an_over_long_line_and_an_over_long_call():
    lines = [
        "Игроки: Аня, Боря",
        f"Аня: {LONG_CALL}| {GOOD_OUTCOME}",
        "Боря: - | " + "биток 9, " * (MAX_RECORD_LINE_CHARS // 8),
    ]
    checked = check_record(lines)
    by_line = {p.line: p.message("ru") for p in checked.problems}
    assert "не больше 300" in by_line[2]
    assert f"не больше {MAX_RECORD_LINE_CHARS}" in by_line[3]


def test_a_match_script_for_replay_refuses_an_over_long_call_naming_its_line():
    from pyramid_referee.match.replay import ReplayError, replay_lines

    lines = [
        '{"players": ["Аня", "Боря"]}',
        json.dumps(
            {"call": LONG_CALL, "outcome": {"events": [{"type": "hit", "a": "cue", "b": 3}]}},
            ensure_ascii=False,
        ),
    ]
    with pytest.raises(ReplayError) as exc:
        replay_lines(lines)
    assert exc.value.line == 2 and "не больше 300" in exc.value.text("ru")
