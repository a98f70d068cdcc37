"""Two stores with one table's key (a restored backup, a second laptop), against the throw-away
PostgreSQL (tests/pg_cluster.py): the server refuses a stroke it holds with other content and keeps
both versions, the table says «конфликт», `club status` lists it, and one command resolves it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg", reason="psycopg (3) is not installed")

from cli_run import run  # noqa: E402
from club_helpers import (  # noqa: E402
    local_strokes as _local,
    register_table as _register,
    server_strokes as _server,
    wait_for as _wait,
)

from pyramid_referee.club import schema  # noqa: E402
from pyramid_referee.club.process import ClubSyncProcess  # noqa: E402
from pyramid_referee.club.sync import ClubSync, load_link  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402


def _copy(src: str, dst: str) -> None:
    """A copy of a store as a backup restores it (SQLite's online backup: the WAL included)."""
    a, b = sqlite3.connect(src), sqlite3.connect(dst)
    try:
        a.backup(b)
    finally:
        a.close()
        b.close()


def _contents(db) -> dict:
    """Every stroke of a store by (match, local id): what it says, not only where it stands."""
    with Store(db, create=False) as store:
        return {
            (m, i): (seq, status, outcome_text, call_text)
            for m, i, seq, status, outcome_text, call_text in store.con.execute(
                "SELECT match_id, id, seq, status, outcome_text, call_text FROM strokes"
            )
        }


def _server_contents(url: str, table_id: int) -> dict:
    with psycopg.connect(url, autocommit=True) as con:
        return {
            (m, i): (seq, status, outcome_text, call_text)
            for m, i, seq, status, outcome_text, call_text in con.execute(
                "SELECT match_id, local_id, seq, status, outcome_text, call_text FROM club_strokes"
                " WHERE table_id = %s",
                (table_id,),
            )
        }


@pytest.fixture
def two_stores(club_url, tmp_path):
    """Table 1 played three strokes and sent them; its store was copied; then each store entered a
    different fourth stroke, and the original sent its own: (table id, original, copy)."""
    original, copy = str(tmp_path / "table.sqlite"), str(tmp_path / "copy.sqlite")
    table_id = _register(club_url, original, "Стол 1")
    with Store(original) as store:
        s = Session.create(store, ["Аня", "Боря"])
        for ball in (3, 5, 7):
            s.enter("-", f"биток {ball}")
    assert ClubSync(original, club_url).drain()
    _copy(original, copy)
    with Store(original) as store:
        Session.open(store, s.id).enter("-", "биток 9")
    with Store(copy) as store:
        Session.open(store, s.id).enter(
            "-", "биток 11"
        )  # the copy's stroke #4: the same id, another stroke
    assert ClubSync(original, club_url).drain()
    return table_id, original, copy


def test_two_stores_one_key_different_strokes_are_refused_on_the_server_and_say_conflict_there(
    club_url, two_stores, capsys, monkeypatch
):
    table_id, original, copy = two_stores
    held = _server_contents(club_url, table_id)
    assert held == _contents(original)
    sync = ClubSync(copy, club_url)
    assert not sync.drain()  # refused: the server holds stroke 4 otherwise
    sync.close()
    st = sync.status()
    assert st.conflict == (1, 4) and st.queued == 1
    assert st.text().startswith(
        "клуб: конфликт с сервером клуба: удар 4 матча 1 записан там иначе"
    )
    assert "club resolve --keep-server" in st.text()
    assert _server_contents(club_url, table_id) == held  # nothing overwritten
    with psycopg.connect(
        club_url, autocommit=True
    ) as con:  # both versions are kept: the copy's beside the server's
        ((kind, seq, copy_row),) = con.execute(
            "SELECT kind, seq, copy FROM club_conflicts WHERE table_id = %s", (table_id,)
        ).fetchall()
        assert (kind, seq, copy_row["outcome_text"]) == ("stroke", 4, "биток 11")
        assert (
            con.execute(
                "SELECT outcome_text FROM club_strokes WHERE table_id = %s AND seq = 4",
                (table_id,),
            ).fetchone()[0]
            == "биток 9"
        )
    # the server itself refuses the copy's stroke, whoever sends it
    with Store(copy, create=False) as store:
        _, _, key = load_link(store, club_url)
        row = store.con.execute(
            "SELECT id, seq, status, call_text, call, refusal, call_status, outcome_text, outcome,"
            " verdict, state, lang, time FROM strokes WHERE seq = 4"
        ).fetchone()
    with psycopg.connect(club_url, autocommit=True) as con:
        with pytest.raises(psycopg.Error) as refused:
            con.execute(
                "SELECT club_put_stroke(%s, %s, 1, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, "
                "%s::jsonb, %s::jsonb, %s::jsonb, %s, %s, 999999)",
                (table_id, key, *row),
            )
        assert refused.value.sqlstate == schema.CONFLICT_STATE
    assert _server_contents(club_url, table_id) == held
    rc, out, err = run(
        capsys, monkeypatch, "club", "status", "--club", club_url
    )  # the manager sees it
    assert rc == 0, err
    assert "конфликт: удар 4 матча 1 пришёл из другой базы с ключом этого стола" in out
    rc, out, err = run(capsys, monkeypatch, "club", "status", "--club", club_url, "--json")
    assert [(c["match"], c["seq"]) for c in json.loads(out)["tables"][0]["conflicts"]] == [(1, 4)]


def test_the_table_running_the_copy_shows_the_conflict_in_its_club_line(club_url, two_stores):
    table_id, original, copy = two_stores
    sync = ClubSyncProcess(
        copy, club_url, retry_s=0.2
    ).start()  # the sync as play and listen run it
    try:
        sync.notify()
        assert _wait(lambda: sync.status().conflict is not None, timeout=20)
        assert "клуб: конфликт с сервером клуба: удар 4 матча 1" in sync.status().text()
    finally:
        sync.stop()


def test_keep_server_takes_the_servers_strokes_into_the_copy_and_keeps_the_copys_on_the_server(
    club_url, two_stores, capsys, monkeypatch
):
    table_id, original, copy = two_stores
    assert not ClubSync(copy, club_url).drain()
    rc, out, err = run(
        capsys, monkeypatch, "club", "resolve", "--club", club_url, "--db", copy, "--keep-server"
    )
    assert rc == 0, err
    assert "матч 1: в этой базе теперь версия сервера клуба" in out
    assert _contents(copy) == _contents(original) == _server_contents(club_url, table_id)
    with Store(original, create=False) as store:
        position = Session.open(store, 1).state.to_json()
    with Store(copy) as store:  # the match plays on from the server's position
        s = Session.open(store, 1)
        assert s.state.to_json() == position
        s.enter("-", "биток 13")
    sync = ClubSync(copy, club_url)
    assert sync.drain() and sync.status().conflict is None  # sending again, nothing refused
    sync.close()
    assert set(_server(club_url, table_id)) == _local(copy)
    with psycopg.connect(club_url, autocommit=True) as con:
        ((resolved, resolution, copy_row),) = con.execute(
            "SELECT resolved, resolution, copy FROM club_conflicts"
        ).fetchall()
        assert (
            resolved is not None
            and resolution == "server"
            and copy_row["outcome_text"] == "биток 11"
        )
    rc, out, err = run(capsys, monkeypatch, "club", "status", "--club", club_url)
    assert rc == 0 and "конфликт" not in out


def test_new_table_registers_the_copy_under_the_next_number_and_sends_all_of_it_there(
    club_url, two_stores, capsys, monkeypatch
):
    table_id, original, copy = two_stores
    assert not ClubSync(copy, club_url).drain()
    rc, out, err = run(
        capsys, monkeypatch, "club", "resolve", "--club", club_url, "--db", copy, "--new-table"
    )
    assert rc == 2 and "--name" in err  # the new table needs a name: nothing done
    rc, out, err = run(
        capsys,
        monkeypatch,
        "club",
        "resolve",
        "--club",
        club_url,
        "--db",
        copy,
        "--new-table",
        "--name",
        "Стол 2",
    )
    assert rc == 0, err
    assert "эта база теперь стол Стол 2 на сервере клуба, номер 2" in out
    sync = ClubSync(copy, club_url)
    assert sync.drain()
    sync.close()
    assert _server_contents(club_url, 2) == _contents(
        copy
    )  # all of the copy, under its own number
    assert _server_contents(club_url, table_id) == _contents(
        original
    )  # the first table's untouched
    rc, out, err = run(capsys, monkeypatch, "club", "status", "--club", club_url)
    assert rc == 0 and "конфликт" not in out and "2. Стол 2" in out


def test_play_refuses_at_start_a_store_whose_table_number_and_key_disagree_and_records_nothing(
    club_url, tmp_path, capsys, monkeypatch
):
    mine, other = str(tmp_path / "mine.sqlite"), str(tmp_path / "other.sqlite")
    _register(club_url, mine, "Стол 1")
    other_id = _register(club_url, other, "Стол 2")
    with Store(mine) as store:  # its link names table 2, its key is table 1's
        store.con.execute("UPDATE club_link SET table_id = ?", (other_id,))
    rc, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--db",
        mine,
        "--club",
        club_url,
        stdin="- | биток 3\n",
    )
    assert (
        rc == 2 and "номер стола 2 («Стол 1») и ключ в этой базе не подходят друг к другу" in err
    ), err
    with Store(mine, create=False) as store:
        assert store.con.execute("SELECT count(*) FROM strokes").fetchone()[0] == 0
        assert store.con.execute("SELECT count(*) FROM matches").fetchone()[0] == 0
    assert _server(club_url, other_id) == []
    assert Path(mine).exists()


def test_the_club_board_says_conflict_on_the_tables_card_until_it_is_resolved(
    club_url, two_stores, capsys, monkeypatch
):
    from pyramid_referee.club import board

    table_id, original, copy = two_stores
    assert not ClubSync(copy, club_url).drain()
    with psycopg.connect(club_url, autocommit=True) as con:
        (card,) = board.tables(con, "ru")
    assert (
        card["sync"]["conflict"] == 1
        and card["sync"]["line"] == "конфликт: другая база с ключом этого стола"
    )
    assert (
        card["seq"] == 4 and card["sync"]["online"] is False
    )  # the server's version is what the card shows
    rc, out, err = run(
        capsys, monkeypatch, "club", "resolve", "--club", club_url, "--db", copy, "--keep-server"
    )
    assert rc == 0, err
    with psycopg.connect(club_url, autocommit=True) as con:
        (card,) = board.tables(con, "ru")
    assert "conflict" not in card["sync"] and card["sync"]["line"] == "на связи"


def test_the_copys_strokes_after_the_conflicting_one_are_kept_on_the_server_taking_the_servers(
    club_url, two_stores, capsys, monkeypatch
):
    table_id, original, copy = two_stores
    with Store(copy) as store:
        Session.open(store, 1).enter(
            "-", "биток 13"
        )  # the copy played on: its stroke #5 is in no one else's store
    assert not ClubSync(copy, club_url).drain()
    with psycopg.connect(club_url, autocommit=True) as con:
        kept = con.execute(
            "SELECT kind, seq, copy->>'outcome_text' FROM club_conflicts ORDER BY seq"
        ).fetchall()
    assert kept == [("stroke", 4, "биток 11"), ("later", 5, "биток 13")]
    rc, out, err = run(capsys, monkeypatch, "club", "status", "--club", club_url)
    assert (
        out.count("конфликт:") == 1
    )  # the manager is shown the conflict, not every stroke kept with it
    rc, out, err = run(
        capsys, monkeypatch, "club", "resolve", "--club", club_url, "--db", copy, "--keep-server"
    )
    assert rc == 0, err
    assert _contents(copy) == _contents(original)
    with psycopg.connect(
        club_url, autocommit=True
    ) as con:  # the copy's own version, whole, stays on the server
        assert (
            con.execute(
                "SELECT kind, seq, copy->>'outcome_text' FROM club_conflicts WHERE resolution = "
                "'server' ORDER BY seq"
            ).fetchall()
            == kept
        )


def test_a_new_match_under_a_number_the_server_holds_as_another_is_a_conflict_overwriting_nothing(
    club_url, tmp_path
):
    original, copy = str(tmp_path / "table.sqlite"), str(tmp_path / "copy.sqlite")
    table_id = _register(club_url, original, "Стол 1")
    with Store(original) as store:
        Session.create(store, ["Аня", "Боря"]).enter("-", "биток 3")
    assert ClubSync(original, club_url).drain()
    _copy(original, copy)
    with Store(original) as store:  # each store opens its own match 2
        Session.create(store, ["Вера", "Глеб"])
    with Store(copy) as store:
        Session.create(store, ["Дима", "Ефим"])
    assert ClubSync(original, club_url).drain()
    sync = ClubSync(copy, club_url)
    assert not sync.drain()
    sync.close()
    assert sync.status().conflict == (2, None)
    assert (
        sync.status()
        .text()
        .startswith("клуб: конфликт с сервером клуба: матч 2 записан там иначе")
    )
    with psycopg.connect(club_url, autocommit=True) as con:
        assert con.execute(
            "SELECT players FROM club_matches WHERE table_id = %s AND match_id = 2", (table_id,)
        ).fetchone()[0] == ["Вера", "Глеб"]  # not overwritten
        assert con.execute("SELECT kind, copy->'players' FROM club_conflicts").fetchall() == [
            ("match", ["Дима", "Ефим"])
        ]
