"""The one way every front end opens its match (``Session.open_or_create``) and the
strokes it names on resuming (``Session.resume_notices``): play, match, listen and serve
all go through them."""

from __future__ import annotations

import json
import sqlite3

import pytest

from pyramid_referee.i18n import UserError
from pyramid_referee.match.session import NewMatch, Session
from pyramid_referee.match.store import Store, StoreError

STROKE = ("тройку чисто в правый угол", "биток 3, 3 в правый дальний угол")


def test_a_new_match_is_created_with_its_database_and_the_session_owns_the_store(tmp_path):
    db = tmp_path / "m.sqlite"
    s = Session.open_or_create(
        db, new=NewMatch(["Аня", "Боря"], {"mode": "ball_and_pocket"}, None, 3)
    )
    with s.store:
        assert db.exists() and s.players == ["Аня", "Боря"] and s.to_wins == 3
        assert s.settings.mode == "ball_and_pocket" and s.seq == 0
    with pytest.raises(sqlite3.ProgrammingError):  # closed with the session's store
        s.store.con.execute("SELECT 1")


def test_a_bad_new_match_creates_nothing_not_even_the_database(tmp_path):
    db = tmp_path / "m.sqlite"
    with pytest.raises(UserError):
        Session.open_or_create(db, new=NewMatch(["Аня", "Боря"], {"mode": "loose"}))
    assert not db.exists()


def test_a_stored_match_is_opened_by_number_or_else_the_latest_unfinished_one(tmp_path):
    db = tmp_path / "m.sqlite"
    with Store(db, create=True) as store:
        first = Session.create(store, ["Аня", "Боря"]).id
        second = Session.create(store, ["Вера", "Гоша"]).id
    for asked, got in ((first, first), (None, second)):
        s = Session.open_or_create(db, asked)
        with s.store:
            assert s.id == got


def test_opening_never_creates_a_database_and_says_what_is_missing(tmp_path):
    db = tmp_path / "none.sqlite"
    with pytest.raises(StoreError):
        Session.open_or_create(db, None)
    assert not db.exists()
    with Store(db, create=True):
        pass
    with pytest.raises(StoreError, match="pyramid-referee match new"):  # no unfinished match
        Session.open_or_create(db, None)


def test_a_stroke_stored_but_never_shown_is_named_on_resuming_until_marked_shown(tmp_path):
    db = tmp_path / "m.sqlite"
    s = Session.open_or_create(db, new=NewMatch(["Аня", "Боря"], {}))
    with s.store:
        seq = s.enter(*STROKE).seq  # committed; a kill before its verdict reached the screen
    again = Session.open_or_create(db, s.id)
    with again.store:
        assert [r.seq for r in again.resume_notices()] == [seq]
        again.mark_shown(seq)
        assert again.resume_notices() == []


def test_a_record_that_disagrees_with_its_replay_names_no_stroke_to_resume(tmp_path):
    db = tmp_path / "m.sqlite"
    s = Session.open_or_create(db, new=NewMatch(["Аня", "Боря"], {}))
    with s.store:
        s.enter(*STROKE)
        forged = json.dumps(
            {**s.store.strokes(s.id)[0].record.verdict, "points": {"Аня": 50, "Боря": 0}}
        )
    con = sqlite3.connect(db)
    con.execute("UPDATE strokes SET verdict = ? WHERE match_id = ? AND seq = 1", (forged, s.id))
    con.commit()
    con.close()
    again = Session.open_or_create(db, s.id)
    with again.store:
        assert again.mismatches and [r.seq for r in again.unshown()] == [1]
        assert again.resume_notices() == []  # such a match is not resumed: nothing to name
