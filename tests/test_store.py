"""The match store (pyramid_referee/store.py): records, undo/redo, durability, errors.

These tests use the store alone with hand-made records (verdict/state dicts are
test doubles: the store keeps JSON, it does not judge). The real path — strokes
judged by the rules engine, stored, restored by replay — is in test_play.py.
"""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import settings as h_settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from pyramid_referee.match.store import (
    SCHEMA_VERSION,
    StandingRecord,
    Store,
    StoredStroke,
    StoreError,
    default_db_path,
)


def rec(n: int, **kw) -> StoredStroke:
    base = dict(
        call_text=f"call {n}",
        call=None,
        refusal=None,
        call_status="none",
        outcome_text="ничего",
        outcome={"events": [], "n": n},
        verdict={"fulfilled": False, "n": n},
        state={"strokes": n},
        lang="ru",
    )
    base.update(kw)
    return StoredStroke(**base)


@pytest.fixture(autouse=True)
def russian():
    """The store's messages are read in Russian here, whatever test ran before
    (--lang en sets it)."""
    from pyramid_referee.i18n import set_lang

    set_lang("ru")
    yield


@pytest.fixture
def db(tmp_path):
    return tmp_path / "m.sqlite"


def test_schema_wal_and_version(db):
    with Store(db) as s:
        assert s.con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.con.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert s.con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_round_trip_across_reopen(db):
    with Store(db) as s:
        mid = s.new_match(["Аня", "Борис"], {"mode": "clean"}, {"scores": {"Аня": 0, "Борис": 0}})
        for n in range(1, 4):
            assert s.add_stroke(mid, rec(n, call={"ball": n})) == n
    with Store(db) as s:
        m = s.get_match(mid)
        assert (m.players, m.settings, m.status, m.strokes, m.undone) == (
            ["Аня", "Борис"],
            {"mode": "clean"},
            "open",
            3,
            0,
        )
        assert m.start == {"scores": {"Аня": 0, "Борис": 0}}
        rows = s.strokes(mid)
        assert [r.seq for r in rows] == [1, 2, 3]
        assert rows[1].record == rec(2, call={"ball": 2})
        assert [r.seq for r in s.iter_strokes(mid)] == [1, 2, 3]


def test_undo_redo_survive_reopen_and_new_stroke_discards_redo(db):
    with Store(db) as s:
        mid = s.new_match(["A", "B"], {}, None)
        for n in range(1, 5):
            s.add_stroke(mid, rec(n))
        assert s.undo(mid) == 4
        assert s.undo(mid) == 3
    with Store(db) as s:  # the position survives closing (and a crash: each op is one commit)
        m = s.get_match(mid)
        assert (m.strokes, m.undone) == (2, 2)
        assert s.redo(mid) == 3
    with Store(db) as s:
        assert [r.seq for r in s.strokes(mid)] == [1, 2, 3]
        assert s.add_stroke(mid, rec(99)) == 4  # the redo branch (old 4) is discarded
        assert s.redo(mid) is None
    with Store(db) as s:
        rows = s.strokes(mid)
        assert [r.record.verdict["n"] for r in rows] == [1, 2, 3, 99]
        discarded = s.strokes(mid, statuses=("discarded",))
        assert [(r.seq, r.record.verdict["n"]) for r in discarded] == [(4, 4)]
        assert [a for a, _, _ in s.actions(mid)] == [
            "new",
            "stroke",
            "stroke",
            "stroke",
            "stroke",
            "undo",
            "undo",
            "redo",
            "discard",
            "stroke",
        ]


def test_undo_on_empty_match_is_none(db):
    with Store(db) as s:
        mid = s.new_match(["A", "B"], {}, None)
        assert s.undo(mid) is None and s.redo(mid) is None


def test_result_sets_status_and_undo_reopens(db):
    with Store(db) as s:
        mid = s.new_match(["A", "B"], {}, None)
        s.add_stroke(mid, rec(1), result={"winner": "A"})
        assert s.get_match(mid).status == "finished" and s.get_match(mid).result == {"winner": "A"}
        assert s.latest_open() is None
        s.undo(mid, result=None)
        assert s.get_match(mid).status == "open" and s.latest_open() == mid


def test_latest_open_is_the_last_changed(db):
    with Store(db) as s:
        a = s.new_match(["A", "B"], {}, None)
        b = s.new_match(["C", "D"], {}, None)
        assert s.latest_open() == b
        s.add_stroke(a, rec(1))
        assert s.latest_open() == a
        assert [m.id for m in s.list_matches()] == [a, b]


def test_missing_match_is_a_clear_error(db):
    with Store(db) as s:
        with pytest.raises(StoreError, match="42"):
            s.get_match(42)
        with pytest.raises(StoreError):
            s.add_stroke(42, rec(1))


def test_failed_write_changes_nothing(db):
    with Store(db) as s:
        mid = s.new_match(["A", "B"], {}, None)
        s.add_stroke(mid, rec(1))
        with pytest.raises(ValueError):
            s.add_stroke(mid, rec(2, call_status="maybe"))
        with pytest.raises(TypeError):  # not JSON-serialisable: the transaction rolls back
            s.add_stroke(mid, rec(2, verdict={"x": object()}))
        assert [r.seq for r in s.strokes(mid)] == [1]
        assert not s.con.in_transaction


def test_corrupt_file(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not an sqlite database at all" * 100)
    with pytest.raises(StoreError, match="повреждён|corrupt"):
        Store(bad)


def test_foreign_sqlite_database(tmp_path):
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="не база матчей|not a match database"):
        Store(other)


def test_newer_schema_refused(db):
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="новее|newer"):
        Store(db)


def test_missing_directory_and_directory_path(tmp_path):
    with pytest.raises(StoreError, match="нет|does not exist"):
        Store(tmp_path / "no" / "such" / "m.sqlite")
    with pytest.raises(StoreError, match="каталог|directory"):
        Store(tmp_path)


def test_locked_database(db):
    s = Store(db)
    mid = s.new_match(["A", "B"], {}, None)
    blocker = sqlite3.connect(db, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        s.con.execute("PRAGMA busy_timeout=100")  # do not wait the default 2 s
        with pytest.raises(StoreError, match="занята|locked"):
            s.add_stroke(mid, rec(1))
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert s.strokes(mid) == []
    s.close()


@pytest.mark.skipif(
    __import__("os").geteuid() == 0, reason="root writes into a read-only directory"
)
def test_read_only_directory_is_named_as_the_reason(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(StoreError) as exc:
            Store(ro / "m.sqlite")
    finally:
        ro.chmod(0o755)
    assert f"нет прав на запись в каталог {ro}" in str(exc.value)


def test_unwritable_place_is_named_as_the_reason(tmp_path, monkeypatch):
    # Test double: SQLite refusing to open, and the directory not writable, as for a user who may
    # not write there (the test above does it for real where the tests do not run as root).
    import os

    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if str(p) == str(tmp_path) else real_access(p, mode)
    )

    def refuse(*a, **k):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite3, "connect", refuse)
    with pytest.raises(StoreError) as exc:
        Store(tmp_path / "m.sqlite")
    assert f"нет прав на запись в каталог {tmp_path}" in str(exc.value) and "--db" in str(
        exc.value
    )


def test_a_directory_names_where_the_path_came_from(tmp_path, monkeypatch):
    monkeypatch.setenv("PYRAMID_REFEREE_DB", str(tmp_path))
    with pytest.raises(StoreError) as exc:
        Store()
    assert str(exc.value).startswith(f"PYRAMID_REFEREE_DB {tmp_path}: это каталог")
    with pytest.raises(StoreError) as exc:
        Store(tmp_path)
    assert str(exc.value).startswith(f"--db {tmp_path}: это каталог")


def test_default_path_env_and_platformdirs(monkeypatch, tmp_path):
    monkeypatch.setenv("PYRAMID_REFEREE_DB", str(tmp_path / "x.sqlite"))
    assert default_db_path() == tmp_path / "x.sqlite"
    monkeypatch.delenv("PYRAMID_REFEREE_DB")
    import platformdirs

    assert default_db_path().parent.as_posix() == platformdirs.user_data_dir("pyramid-referee")
    assert default_db_path().name == "matches.sqlite"


# ------------------------------------------------------------ stateful: store + session vs a model


class StoreMachine(RuleBasedStateMachine):
    """Random strokes, undo, redo and reopen; the stored match always equals an
    in-memory ``Match`` driven the same way (the rules engine is the model)."""

    def __init__(self):
        super().__init__()
        import tempfile

        from pyramid_referee.match.session import Session
        from pyramid_referee.rules import Match, Settings

        self.dir = tempfile.TemporaryDirectory()
        self.store = Store(f"{self.dir.name}/m.sqlite")
        self.session = Session.create(self.store, ["A", "B"], {})
        self.model = Match(Settings(), ["A", "B"])
        self.Session = Session
        self.redo_stack = 0

    @rule(kind=st.sampled_from(["plain", "foul", "pot", "refused"]), pick=st.integers(0, 14))
    def stroke(self, kind, pick):
        from pyramid_referee.rules import Outcome
        from pyramid_referee.rules.notation import parse_outcome

        table = sorted(self.model.state.on_table)
        b = table[pick % len(table)]
        call, outcome = {
            "plain": ("-", f"биток {b}"),
            "foul": ("-", f"биток {b}; фол г"),
            "pot": (f"{b} чисто в правый угол", f"биток {b}, {b} в правый дальний угол"),
            "refused": (f"{b} чисто в угол", f"биток {b}"),
        }[kind]
        if self.model.state.result is not None:
            return
        rec = self.session.enter(call, outcome).record
        from pyramid_referee.grammar.call import Call

        self.model.stroke(
            None if rec.call is None else Call.from_json(rec.call),
            Outcome.from_json(parse_outcome(outcome)),
            call_status=rec.call_status,
        )
        assert rec.state == self.model.state.to_json()
        self.redo_stack = 0

    @rule()
    def undo(self):
        seq = self.session.undo()
        assert (seq is not None) == self.model.can_undo
        if seq is not None:
            self.model.undo()
            self.redo_stack += 1

    @rule()
    def redo(self):
        seq = self.session.redo()
        assert (seq is not None) == self.model.can_redo
        if seq is not None:
            self.model.redo()
            self.redo_stack -= 1

    @rule()
    def reopen(self):  # a crash or a quit, then match resume
        self.store.close()
        self.store = Store(f"{self.dir.name}/m.sqlite")
        self.session = self.Session(self.store, self.session.id)
        assert self.session.mismatches == []

    @invariant()
    def same_position(self):
        assert self.session.state.to_json() == self.model.state.to_json()
        m = self.store.get_match(self.session.id)
        assert m.strokes == len(self.model.history)
        assert m.undone == self.redo_stack

    def teardown(self):
        self.store.close()
        self.dir.cleanup()


TestStoreMachine = StoreMachine.TestCase
TestStoreMachine.settings = h_settings(max_examples=10, stateful_step_count=25, deadline=None)


# -- a mistake changes nothing: files that are not a match database, a missing one ----------------


def test_an_empty_file_is_refused_and_left_empty(tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(StoreError, match="пуст"):
        Store(empty)
    assert empty.read_bytes() == b""


def test_a_text_file_is_refused_and_left_as_it_was(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("Иван — Пётр, 71:40\n" * 50, encoding="utf-8")
    before = notes.read_bytes()
    with pytest.raises(StoreError, match="не является базой матчей"):
        Store(notes)
    assert notes.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # no journal left beside it


def test_another_programs_database_is_refused_before_anything_is_written(tmp_path):
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    before = other.read_bytes()
    with pytest.raises(StoreError, match="другой программы"):
        Store(other)
    assert other.read_bytes() == before  # not switched to WAL, no tables added


def test_an_empty_sqlite_database_of_another_program_is_refused_too(tmp_path):
    other = tmp_path / "blank.sqlite"
    con = sqlite3.connect(other)
    con.execute("PRAGMA page_size=4096")
    con.execute("VACUUM")
    con.close()
    assert other.stat().st_size > 0
    with pytest.raises(StoreError, match="не база матчей"):
        Store(other)


def test_opening_without_create_never_makes_a_file(tmp_path):
    from pyramid_referee.match.store import StoreMissing

    path = tmp_path / "none.sqlite"
    with pytest.raises(StoreMissing) as exc:
        Store(path, create=False)
    assert f"базы матчей {path} нет" in str(exc.value) and "match new" in str(exc.value)
    assert list(tmp_path.iterdir()) == []


def test_a_new_database_leaves_no_temporary_file(db):
    Store(db).close()
    assert sorted(
        p.name for p in db.parent.iterdir() if not p.name.endswith(("-wal", "-shm"))
    ) == [db.name]
    with Store(db, create=False) as s:
        assert s.list_matches() == []


def test_store_messages_in_russian_carry_no_english_library_words(tmp_path):
    import re

    notes = tmp_path / "notes.txt"
    notes.write_text("not a database " * 100)
    with pytest.raises(StoreError) as exc:
        Store(notes)
    text = str(exc.value).replace(str(notes), "")
    assert not re.search(r"[A-Za-z]", text), text


# -- the schema: version 1 databases open and are migrated ----------------------------------------

V1_SCHEMA = """
CREATE TABLE matches (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL,
    players TEXT NOT NULL, settings TEXT NOT NULL, start TEXT,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished')),
    result TEXT, updated TEXT NOT NULL);
CREATE TABLE strokes (id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL CHECK (seq >= 1), call_text TEXT, call TEXT, refusal TEXT,
    call_status TEXT NOT NULL CHECK (call_status IN ('accepted', 'refused', 'none')),
    outcome_text TEXT, outcome TEXT NOT NULL, verdict TEXT NOT NULL, state TEXT NOT NULL,
    lang TEXT NOT NULL, time TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded')));
CREATE UNIQUE INDEX strokes_live ON strokes(match_id, seq) WHERE status != 'discarded';
CREATE INDEX strokes_position ON strokes(match_id, status, seq);
CREATE TABLE actions (id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    action TEXT NOT NULL CHECK (action IN ('new', 'stroke', 'undo', 'redo', 'discard')),
    seq INTEGER, time TEXT NOT NULL);
CREATE INDEX actions_match ON actions(match_id, id);
"""


def _v1_database(path):
    con = sqlite3.connect(path)
    con.executescript(V1_SCHEMA)
    con.execute(
        "INSERT INTO matches(created, players, settings, status, updated) VALUES "
        "('2026-01-01T00:00:00.000Z', '[\"Аня\",\"Боря\"]', '{}', 'open', "
        "'2026-01-01T00:00:00.000Z')"
    )
    con.execute(
        "INSERT INTO strokes(match_id, seq, call_text, call_status, outcome_text, outcome, "
        "verdict, state, lang, time) VALUES (1, 1, NULL, 'none', 'биток 4', '{\"events\":[]}', "
        "'{}', '{}', 'ru', '2026-01-01T00:00:01.000Z')"
    )
    con.execute("PRAGMA user_version=1")
    con.commit()
    con.close()


def test_a_version_1_database_is_migrated_and_keeps_its_strokes(db):
    _v1_database(db)
    with Store(db) as s:
        assert s.con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert [r.seq for r in s.strokes(1)] == [1]
        assert s.unshown(1) == []  # strokes stored before the mark existed were shown
        assert s.get_match(1).to_wins == 1  # a match was one game
        assert s.add_stroke(1, rec(2)) == 2
    with Store(db) as s:
        assert [r.seq for r in s.strokes(1)] == [1, 2]


def _v2_database(path):
    """A version 2 database (before the standing call was stored): v1 migrated to v2 by hand."""
    _v1_database(path)
    con = sqlite3.connect(path)
    con.executescript(
        "ALTER TABLE strokes ADD COLUMN shown INTEGER NOT NULL DEFAULT 1;"
        "ALTER TABLE matches ADD COLUMN to_wins INTEGER NOT NULL DEFAULT 1;"
    )
    con.execute("PRAGMA user_version=2")
    con.commit()
    con.close()


def test_a_version_2_database_is_migrated_keeps_its_strokes_and_then_stores_a_standing_call(db):
    _v2_database(db)
    with Store(db) as s:
        assert s.con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert [r.seq for r in s.strokes(1)] == [1]
        assert s.standing(1) == (0, None)  # no call stood before the migration
        s.set_standing(
            1,
            StandingRecord(
                "тройку в угол",
                "refused",
                refusal={"message": "нет лузы"},
                source="listen",
                strike=12.5,
            ),
        )
    with Store(db) as s:
        version, standing = s.standing(1)
        assert version == 1 and standing.source == "listen" and standing.strike == 12.5
        assert standing.refusal == {"message": "нет лузы"}
        assert s.add_stroke(1, rec(2)) == 2


def test_a_stroke_clears_the_standing_call_and_every_change_raises_its_version(db):
    with Store(db) as s:
        mid = s.new_match(["A", "B"], {}, None)
        v1 = s.set_standing(mid, StandingRecord(None, "none", source="listen", strike=3.0))
        assert s.standing(mid)[1].status == "none"  # «без заказа» heard is a standing call too
        s.add_stroke(mid, rec(1))
        v2, standing = s.standing(mid)
        assert standing is None and v2 > v1
        v3 = s.set_standing(mid, StandingRecord("x", "accepted", call={"ball": 3}))
        assert v3 > v2 and s.set_standing(mid, None) > v3 and s.standing(mid)[1] is None
        s.delete_match(mid)  # its standing call goes with it
        assert s.standing(mid) == (0, None)


# -- a stroke stored but never shown --------------------------------------------------------------


def test_a_stroke_is_unshown_until_marked(db):
    with Store(db) as s:
        mid = s.new_match(["A", "B"], {}, None)
        s.add_stroke(mid, rec(1))
        s.mark_shown(mid, 1)
        s.add_stroke(mid, rec(2))
        assert [r.seq for r in s.unshown(mid)] == [2]
        s.undo(mid)
        assert s.unshown(mid) == []  # taken back: nothing to warn about


# -- match delete ---------------------------------------------------------------------------------


def test_delete_match_removes_it_whole_and_leaves_the_others(db):
    with Store(db) as s:
        a = s.new_match(["A", "B"], {}, None)
        b = s.new_match(["C", "D"], {}, None)
        s.add_stroke(a, rec(1))
        s.add_stroke(b, rec(1))
        s.delete_match(a)
        assert [m.id for m in s.list_matches()] == [b]
        assert (
            s.con.execute("SELECT count(*) FROM strokes WHERE match_id = ?", (a,)).fetchone()[0]
            == 0
        )
        assert (
            s.con.execute("SELECT count(*) FROM actions WHERE match_id = ?", (a,)).fetchone()[0]
            == 0
        )
        with pytest.raises(StoreError, match="нет"):
            s.delete_match(a)


def _v3_database(path):
    """A version 3 database (before the club sync's tables): v2 migrated to v3 by hand."""
    from pyramid_referee.match.store import _MIGRATIONS

    _v2_database(path)
    con = sqlite3.connect(path)
    con.executescript(_MIGRATIONS[2])
    con.execute("PRAGMA user_version=3")
    con.commit()
    con.close()


def test_a_version_3_database_migrated_keeps_its_strokes_then_the_club_link_and_position(
    db,
):
    _v3_database(db)
    with Store(db) as s:
        assert s.con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert [r.seq for r in s.strokes(1)] == [1]
        assert (
            s.con.execute("SELECT count(*) FROM club_link").fetchone()[0] == 0
        )  # registered nowhere yet
        s.con.execute("INSERT INTO club_link VALUES ('host=club', 3, 'Стол 3', 'k')")
        s.con.execute("INSERT INTO club_sent VALUES ('host=club', 1, 2)")
        assert s.add_stroke(1, rec(2)) == 2
    with Store(db) as s:
        assert s.con.execute("SELECT table_id, name FROM club_link").fetchall() == [(3, "Стол 3")]
        assert s.con.execute("SELECT match_id, action_id FROM club_sent").fetchall() == [(1, 2)]


def _v4_database(path):
    """A version 4 database (before the voice referee's note of the strike):
    v3 migrated by hand."""
    from pyramid_referee.match.store import _MIGRATIONS

    _v3_database(path)
    con = sqlite3.connect(path)
    con.executescript(_MIGRATIONS[3])
    con.execute(
        "INSERT INTO standing(match_id, present, text, status, source, strike, time, version)"
        " VALUES (1, 1, 'тройку', 'refused', 'listen', 4.5, '2026-01-01T00:00:02.000Z', 3)"
    )
    con.execute("PRAGMA user_version=4")
    con.commit()
    con.close()


def test_Q13_Q14_a_version_4_database_is_migrated_and_keeps_the_strike_notes_from_then_on(db):
    _v4_database(db)
    with Store(db) as s:
        assert s.con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        [old] = s.strokes(1)
        assert (
            old.record.strike is None and old.to_json()["strike"] is None
        )  # no voice referee then
        version, standing = s.standing(1)
        assert version == 3 and standing.strike == 4.5 and standing.taken_back == ()
        s.take_back_strike(1, 4.5, StandingRecord("тройку", "refused", source="listen"))
        assert s.standing(1)[1].taken_back == (4.5,)
        note = {
            "heard": False,
            "outcome": None,
            "note": "удар не услышан — заказ взят по вводу исхода",
            "taken_back": [4.5],
        }
        assert s.add_stroke(1, rec(2, strike=note)) == 2
        assert s.standing(1)[1] is None
    with Store(db) as s:
        assert (
            s.strokes(1)[1].record.strike == note and s.strokes(1)[1].to_json()["strike"] == note
        )
        s.set_standing(1, StandingRecord("x", "none", source="listen", strike=9.0))
        assert s.standing(1)[1].taken_back == ()  # the stroke took them with the call
