"""The record keeps what the voice referee heard of each strike (match.session, match.store).

Q13: an outcome entered with no strike heard takes the standing call, marked «удар не услышан —
заказ взят по вводу исхода». Q14: the marker takes back a strike that voided a call; the call
counts again and the record keeps the strike, «снят маркёром». Pure: a store in a temporary
folder, the real call parser, no audio.
"""

from __future__ import annotations

import json

import pytest

from pyramid_referee import cli
from pyramid_referee.i18n import set_lang
from pyramid_referee.match.session import CallReading, Session, StrokeInputError, strike_marks
from pyramid_referee.match.store import Store

NOT_HEARD = "удар не услышан — заказ взят по вводу исхода"
CALL = "тройку прямо в середину"


@pytest.fixture(autouse=True)
def russian():
    set_lang("ru")
    yield
    set_lang("ru")


@pytest.fixture
def match(tmp_path):
    db = tmp_path / "m.db"
    with Store(db) as store:
        yield db, store, Session.create(store, ["Аня", "Боря"], {})


def late(session, strike):
    """The standing call as listen --pad writes it when a strike came inside the call's words."""
    return CallReading(
        text=CALL,
        refusal={
            "code": "late",
            "message": "заказ недействителен: его ещё договаривали в момент удара (C10)",
            "span": [0, 5],
            "hint": None,
        },
        status="refused",
    )


def test_Q13_the_outcome_takes_the_heard_call_with_no_strike_and_the_record_says_so(match, capsys):
    db, store, s = match
    s.set_standing(
        s.read_call(CALL), source="listen", strike=None
    )  # heard; no strike heard after it
    standing = s.standing()
    assert standing.heard_unstruck and not standing.voided_by_strike
    entered = s.enter(
        standing.reading.text,
        "биток 3, 3 в середину",
        reading=standing.reading,
        strike=standing.strike_note(),
    )
    assert entered.record.call_status == "accepted" and entered.verdict.fulfilled
    assert entered.record.strike == {"heard": False, "outcome": None, "note": NOT_HEARD}
    [row] = store.strokes(s.id)
    assert row.record.strike["note"] == NOT_HEARD and strike_marks(row.record.strike) == [
        NOT_HEARD
    ]

    assert cli.main(["match", "show", str(s.id), "--db", str(db)]) == 0
    assert f"{CALL} ({NOT_HEARD})" in capsys.readouterr().out
    assert cli.main(["match", "show", str(s.id), "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["strokes"][0]["strike"]["note"] == NOT_HEARD
    assert cli.main(["export", str(s.id), "--db", str(db), "--format", "record"]) == 0
    record = capsys.readouterr().out
    assert f"# {NOT_HEARD}" in record
    path = db.parent / "m.record"
    path.write_text(record, encoding="utf-8")
    assert (
        cli.main(["validate", str(path)]) == 0
    )  # the mark is a comment: the record reads as before


def test_Q14_the_marker_takes_back_the_strike_and_the_call_it_voided_counts_again(match, capsys):
    db, store, s = match
    s.set_standing(late(s, 2.25), source="listen", strike=2.25)
    standing = s.standing()
    assert standing.voided_by_strike
    s.take_back_strike(standing)
    again = s.standing()
    assert (again.reading.status, again.reading.call.ball, again.strike, again.source) == (
        "accepted",
        3,
        None,
        "listen",
    )
    assert again.taken_back == (2.25,)
    entered = s.enter(
        again.reading.text,
        "биток 3, 3 в середину",
        reading=again.reading,
        strike=again.strike_note(),
    )
    assert entered.record.call_status == "accepted"  # the player keeps his call
    assert (
        entered.record.strike["taken_back"] == [2.25] and entered.record.strike["heard"] is False
    )
    assert strike_marks(entered.record.strike) == ["удар 2.25 с снят маркёром", NOT_HEARD]
    assert s.standing() is None and store.standing(s.id)[1] is None
    assert cli.main(["match", "show", str(s.id), "--db", str(db)]) == 0
    assert "удар 2.25 с снят маркёром" in capsys.readouterr().out


def test_Q14_the_take_back_keeps_a_strike_heard_after_it_in_the_record(match):
    db, store, s = match
    s.set_standing(late(s, 2.25), source="listen", strike=2.25)
    s.take_back_strike(s.standing())
    s.set_standing(s.read_call(CALL), source="listen", strike=6.5)  # the real strike, heard
    st = s.standing()
    assert st.taken_back == (2.25,) and st.strike_note() == {
        "heard": True,
        "t": 6.5,
        "taken_back": [2.25],
    }
    entered = s.enter(
        st.reading.text, "биток 3, 3 в середину", reading=st.reading, strike=st.strike_note()
    )
    assert strike_marks(entered.record.strike, "en") == ["strike 2.25 s taken back by the marker"]


def test_Q14_only_a_strike_that_voided_a_call_can_be_taken_back_and_nothing_changes(match):
    db, store, s = match
    for reading, strike in ((s.read_call(CALL), 3.0), (s.read_call(CALL), None)):
        s.set_standing(reading, source="listen", strike=strike)
        version = s.standing_version()
        with pytest.raises(StrokeInputError, match="нечего снимать"):
            s.take_back_strike(s.standing())
        assert s.standing_version() == version and s.standing().taken_back == ()


def test_a_stroke_typed_with_no_voice_referee_has_no_strike_note(match):
    db, store, s = match
    entered = s.enter(CALL, "биток 3, 3 в середину")
    assert entered.record.strike is None and store.strokes(s.id)[0].to_json()["strike"] is None
