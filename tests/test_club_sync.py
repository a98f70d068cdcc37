"""The club server, against a real PostgreSQL cluster started by the test session
(tests/pg_cluster.py): the schema from empty, registering a table, replication that is
local first, in order, idempotent and survives an outage, two tables at once, and a key
that writes only its own table's rows."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg", reason="psycopg (3) is not installed")

from cli_run import run  # noqa: E402
from club_helpers import (  # noqa: E402
    local_strokes as _local,
    login as _login,
    register_table as _register,
    register_unreachable as _register_unreachable,
    server_strokes as _server,
    strike as _strike,
    wait_for as _wait,
)

from pyramid_referee.club import schema  # noqa: E402
from pyramid_referee.club.sync import (  # noqa: E402
    ClubError,
    ClubSync,
    find_link,
    load_link,
    pending,
    save_link,
    server_id,
)
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402


def test_the_club_schema_is_built_from_empty_and_a_second_migration_changes_nothing(club_url):
    with psycopg.connect(club_url, autocommit=True) as con:
        assert schema.version(con) == 0
        assert schema.migrate(con) == 0
        assert schema.version(con) == schema.SCHEMA_VERSION
        assert schema.migrate(con) == schema.SCHEMA_VERSION == 4  # already there: nothing applied
        names = {
            r[0]
            for r in con.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
        assert {
            "club_schema",
            "club_tables",
            "club_matches",
            "club_strokes",
            "club_conflicts",
        } <= names


def test_register_prints_the_key_once_keeps_it_by_the_store_refuses_a_second_table_of_that_name(
    club_url, db, capsys, monkeypatch
):
    rc, out, err = run(
        capsys, monkeypatch, "club", "register", "--club", club_url, "--name", "Стол 3", "--db", db
    )
    assert rc == 0, err
    with Store(db, create=False) as store:
        table_id, name, key = load_link(store, club_url)
    assert name == "Стол 3" and key in out
    with psycopg.connect(club_url, autocommit=True) as con:  # the server keeps only the key's hash
        assert (
            con.execute("SELECT key_hash FROM club_tables WHERE id = %s", (table_id,)).fetchone()[
                0
            ]
            == schema.key_hash(key)
            != key
        )
    rc, out, err = run(
        capsys,
        monkeypatch,
        "club",
        "register",
        "--club",
        club_url,
        "--name",
        "Стол 3",
        "--db",
        str(db) + "2",
    )
    assert rc == 2 and "Стол 3" in err
    assert not Path(
        str(db) + "2"
    ).exists()  # the refused table's store was not there before: none is left


def test_a_refused_registration_leaves_no_store_behind_but_keeps_one_that_was_there(
    club_url, tmp_path, capsys, monkeypatch
):
    unreachable = (
        "postgresql:///nowhere?host=" + str(tmp_path / "no-server") + "&connect_timeout=1"
    )
    fresh = tmp_path / "fresh.sqlite"
    rc, out, err = run(
        capsys,
        monkeypatch,
        "club",
        "register",
        "--club",
        unreachable,
        "--name",
        "Стол 1",
        "--db",
        str(fresh),
    )
    assert rc == 2 and err and not list(tmp_path.glob("fresh.sqlite*"))
    kept = tmp_path / "kept.sqlite"
    with Store(kept) as store:
        Session.create(store, ["Аня", "Боря"]).enter("-", "биток 3")
    rc, out, err = run(
        capsys,
        monkeypatch,
        "club",
        "register",
        "--club",
        unreachable,
        "--name",
        "Стол 1",
        "--db",
        str(kept),
    )
    assert rc == 2
    with Store(kept, create=False) as store:
        assert (
            store.con.execute("SELECT count(*) FROM strokes").fetchone()[0] == 1
        )  # its strokes untouched


def test_play_with_club_replicates_the_match_and_club_status_shows_the_table(
    club_url, db, capsys, monkeypatch
):
    table_id = _register(club_url, db, "Стол 1")
    lines = "".join(f"- | биток {b}\n" for b in (3, 5, 7, 9)) + "undo\n"
    rc, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--db",
        db,
        "--club",
        club_url,
        "--json",
        stdin=lines,
    )
    assert rc == 0, err
    assert '"club": {"online"' in out  # every stroke says where the sync stands
    # play stops its worker on leaving after one last drain: the server holds the table's strokes
    assert _wait(lambda: sorted(_server(club_url, table_id)) == sorted(_local(db)))
    assert sorted(s for *_, s in _server(club_url, table_id)) == ["active"] * 3 + ["undone"]
    rc, out, err = run(capsys, monkeypatch, "club", "status", "--club", club_url, "--json")
    assert rc == 0, err
    import json

    (table,) = json.loads(out)["tables"]
    assert (
        table["name"] == "Стол 1"
        and table["last_stroke"]["match"] == 1
        and table["lag_s"] is not None
    )
    assert (
        table["last_stroke"]["seq"] == 4 and table["strokes"] == 3
    )  # the last one changed (undone); 3 in play


def test_a_stroke_sent_twice_is_stored_once(club_url, db):
    table_id = _register(club_url, db, "Стол 1")
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        for n in range(5):
            _strike(s, n)
    sync = ClubSync(db, club_url)
    assert sync.drain()
    with Store(db) as store:  # as if the table was killed before it noted what was sent
        store.con.execute("DELETE FROM club_sent")
    assert sync.drain()
    assert sorted(_server(club_url, table_id)) == sorted(_local(db))
    assert len(_server(club_url, table_id)) == 5


def test_a_server_outage_mid_partia_loses_and_doubles_nothing_and_never_blocks_a_stroke(
    club_url, db, pg_cluster
):
    table_id = _register(club_url, db, "Стол 1")
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        sync = ClubSync(db, club_url, retry_s=0.2).start()
        try:
            for n in range(4):
                _strike(s, n)
                sync.notify()
            assert _wait(lambda: sync.status().online and sync.status().queued == 0)
            pg_cluster.stop("immediate")  # the club server dies in the middle of the partia
            try:
                started = time.monotonic()
                for n in range(4, 10):
                    _strike(s, n)
                    sync.notify()
                s.undo()
                sync.notify(change=True)
                s.undo()
                sync.notify(change=True)
                _strike(s, 10)
                sync.notify()  # the undone strokes are discarded: a new line of play
                assert time.monotonic() - started < 2.0  # play went on at local speed
                assert _wait(lambda: sync.status().online is False)
                # 7 strokes and 2 undos wait: an undo is not a stroke
                assert sync.status().queued >= 7 and sync.status().changes >= 2
                assert "нет связи" in sync.status().text()
            finally:
                pg_cluster.start()
            assert _wait(lambda: sync.status().online and sync.status().queued == 0)
        finally:
            sync.stop()
    server = _server(club_url, table_id)
    assert len(server) == len(set(server))  # nothing doubled
    assert set(server) == _local(db)  # nothing lost; undone and discarded as on the table
    assert sorted(st for *_, st in server).count("discarded") == 2


def test_two_tables_replicate_at_once_each_into_its_own_rows(club_url, tmp_path):
    dbs = [str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")]
    ids = [_register(club_url, d, f"Стол {i}") for i, d in enumerate(dbs, 1)]
    syncs = [ClubSync(d, club_url, retry_s=0.1).start() for d in dbs]
    try:
        with Store(dbs[0]) as a, Store(dbs[1]) as b:
            sa, sb = Session.create(a, ["Аня", "Боря"]), Session.create(b, ["Вера", "Глеб"])
            for n in range(8):
                _strike(sa, n)
                syncs[0].notify()
                _strike(sb, n + 3)
                syncs[1].notify()
        assert _wait(lambda: all(x.status().online and x.status().queued == 0 for x in syncs))
    finally:
        for x in syncs:
            x.stop()
    for d, table_id in zip(dbs, ids):
        assert sorted(_server(club_url, table_id)) == sorted(_local(d))
        assert len(_server(club_url, table_id)) == 8


def test_a_key_for_table_a_cannot_write_table_b_and_the_tables_role_cannot_touch_rows_directly(
    club_url, tmp_path
):
    db_a, db_b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    _register(club_url, db_a, "Стол A")
    table_b = _register(club_url, db_b, "Стол B")
    with Store(db_a) as store, psycopg.connect(club_url, autocommit=True) as con:
        _, _, key_a = load_link(store, club_url)
        Session.create(store, ["Аня", "Боря"]).enter("-", "биток 3")
        save_link(
            store, club_url, table_b, "Стол B", key_a, con
        )  # table A poses as table B with its own key
    with pytest.raises(
        ClubError
    ) as exc:  # a store whose table number and key disagree: refused at start
        ClubSync(db_a, club_url)
    assert "номер стола 2" in str(exc.value) and "не подходят друг к другу" in str(exc.value)
    sync = ClubSync(db_a, club_url, check=False)  # and were it not: the server refuses its strokes
    assert not sync.drain()
    assert sync.status().online is False and "key" in sync.status().error
    assert _server(club_url, table_b) == []
    with Store(db_a, create=False) as store:
        assert (
            pending(store.con, sync.server) == 1
        )  # refused, so still queued: nothing marked sent
    with psycopg.connect(club_url, autocommit=True) as con:
        con.execute("CREATE ROLE table_login LOGIN IN ROLE pyramid_table")
    login = club_url.replace("user=postgres", "user=table_login")
    with psycopg.connect(login, autocommit=True) as con:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute(
                "SELECT club_put_match(%s, %s, 1, '[]', '{}', 1, 'open', NULL, 'x', 'x', 1)",
                (table_b, key_a),
            )
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("SELECT * FROM club_strokes")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute(
                "INSERT INTO club_matches(table_id, match_id, players, settings, to_wins, status, "
                "created, updated, action_id) VALUES (%s, 9, '[]', '{}', 1, 'open', 'x', 'x', 1)",
                (table_b,),
            )


def test_a_table_registered_by_the_club_login_plays_with_a_login_that_holds_only_the_tables_role(
    club_url, db, capsys, monkeypatch
):
    table_id = _register(
        club_url, db, "Стол 1"
    )  # the club's own login registers the table (it may create it)
    with psycopg.connect(club_url, autocommit=True) as con:
        con.execute("CREATE ROLE stol1 LOGIN IN ROLE pyramid_table")
    table_login = club_url.replace("user=postgres", "user=stol1")  # what the table then runs with
    rc, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--db",
        db,
        "--club",
        table_login,
        stdin="- | биток 3\n- | биток 5\n",
    )
    assert rc == 0, err
    assert (
        _wait(lambda: sorted(_server(club_url, table_id)) == sorted(_local(db)))
        and len(_local(db)) == 2
    )


def test_the_club_server_is_named_by_host_port_and_database_not_by_who_logs_in():
    assert server_id("postgresql://club:secret@192.0.2.10/pyramid") == server_id(
        "postgresql://stol1@192.0.2.10/pyramid"
    )
    assert "secret" not in server_id("postgresql://club:secret@192.0.2.10/pyramid")
    names = {
        server_id(u)
        for u in (
            "postgresql://a@192.0.2.10/pyramid",
            "postgresql://a@192.0.2.11/pyramid",
            "postgresql://a@192.0.2.10:5433/pyramid",
            "postgresql://a@192.0.2.10/other",
        )
    }
    assert len(names) == 4  # another host, port or database is another server


def test_a_link_saved_under_the_older_name_of_the_server_is_taken_over_with_what_was_sent(
    club_url, db
):
    table_id = _register(club_url, db, "Стол 1")
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        s.enter("-", "биток 3")
    assert ClubSync(db, club_url).drain()
    import psycopg.conninfo

    parts = psycopg.conninfo.conninfo_to_dict(club_url)
    older = " ".join(
        f"{k}={parts[k]}" for k in sorted(parts)
    )  # how an earlier version named it: login included
    with Store(db) as store, store._tx():
        new = find_link(store, club_url).server
        store.con.execute("UPDATE club_link SET server = ? WHERE server = ?", (older, new))
        store.con.execute("UPDATE club_sent SET server = ? WHERE server = ?", (older, new))
        store.con.execute("DROP TABLE club_alias")  # an earlier version kept no addresses
    with Store(db) as store, psycopg.connect(club_url, autocommit=True) as con:
        assert (
            load_link(store, club_url, con)[0] == table_id
        )  # found under its older name, and renamed
        assert pending(store.con, new) == 0  # what was sent stays sent: nothing goes twice
        assert [r[0] for r in store.con.execute("SELECT server FROM club_link")] == [new]
        s = Session.open(store, s.id)
        s.enter("-", "биток 5")
    assert ClubSync(db, club_url).drain()
    assert sorted(_server(club_url, table_id)) == sorted(_local(db))


def test_one_club_server_however_its_address_is_written_localhost_127_0_0_1_or_its_socket(
    pg_cluster, club_url, db, capsys, monkeypatch
):
    by_ip, by_name = (
        pg_cluster.tcp_url(club_url, "127.0.0.1"),
        pg_cluster.tcp_url(club_url, "localhost"),
    )
    rc, out, err = run(
        capsys, monkeypatch, "club", "register", "--club", by_ip, "--name", "Стол 1", "--db", db
    )
    assert rc == 0, err
    rc, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--db",
        db,
        "--club",
        by_name,
        stdin="- | биток 3\n- | биток 5\n",
    )
    assert rc == 0 and "не зарегистрирован" not in err, err
    with Store(db, create=False) as store:
        (server,) = [r[0] for r in store.con.execute("SELECT server FROM club_link")]
        table_id = load_link(store, by_name)[0]
    assert server.startswith("pg:") and server.endswith(
        "/" + club_url.split("///")[1].split("?")[0]
    )
    assert (
        _wait(lambda: sorted(_server(club_url, table_id)) == sorted(_local(db)))
        and len(_local(db)) == 2
    )
    for other in (
        by_name,
        club_url,
    ):  # another spelling is not a second registration of this table
        rc, out, err = run(
            capsys,
            monkeypatch,
            "club",
            "register",
            "--club",
            other,
            "--name",
            "Стол 2",
            "--db",
            db,
        )
        assert rc == 2 and "уже зарегистрирован" in err and "Стол 1" in err
    with psycopg.connect(club_url, autocommit=True) as con:
        assert [r[0] for r in con.execute("SELECT name FROM club_tables")] == ["Стол 1"]


def test_a_link_an_older_version_saved_under_one_spelling_is_taken_over_with_its_sent_marks(
    pg_cluster, club_url, db
):
    by_ip, by_name = (
        pg_cluster.tcp_url(club_url, "127.0.0.1"),
        pg_cluster.tcp_url(club_url, "localhost"),
    )
    table_id = _register(by_ip, db, "Стол 1")
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        for n in range(3):
            _strike(s, n)
    assert ClubSync(db, by_ip).drain()
    with (
        Store(db) as store,
        store._tx(),
    ):  # as an earlier version kept it: under the address it was given
        ident = find_link(store, by_ip).server
        store.con.execute(
            "UPDATE club_link SET server = ? WHERE server = ?", (server_id(by_ip), ident)
        )
        store.con.execute(
            "UPDATE club_sent SET server = ? WHERE server = ?", (server_id(by_ip), ident)
        )
        store.con.execute("DROP TABLE club_alias")
    sync = ClubSync(
        db, by_name
    )  # the same server written otherwise: its key is valid there, so it is this link
    with Store(db, create=False) as store:
        assert (
            pending(store.con, sync.server) == 0 and sync.server == ident
        )  # what was sent stays sent
    with Store(db) as store:
        _strike(Session.open(store, s.id), 3)
    assert sync.drain()
    sync.close()
    server = _server(club_url, table_id)
    assert len(server) == len(set(server)) == 4 and set(server) == _local(db)


def test_a_table_that_reached_the_server_by_an_address_starts_by_it_while_the_server_is_away(
    pg_cluster, club_url, db
):
    by_name = pg_cluster.tcp_url(club_url, "localhost")
    _register(club_url, db, "Стол 1")
    ClubSync(db, by_name).close()  # it reached the server once as «localhost»
    pg_cluster.stop("immediate")
    try:
        offline = ClubSync(
            db, by_name
        )  # the server away: the address it was reached by names the link
        assert offline.name == "Стол 1"
        with pytest.raises(
            ClubError
        ) as exc:  # an address never used: the table cannot tell which server it is
            ClubSync(db, pg_cluster.tcp_url(club_url, "127.0.0.1"))
        text = str(exc.value)
        assert "не узнать, какой это сервер (сервер не отвечает" in text, text
        assert "известные адреса: " in text and f"localhost:{pg_cluster.port}/" in text, (
            text
        )  # reached by it
    finally:
        pg_cluster.start()


def test_play_with_club_refuses_a_table_that_is_not_registered(club_url, db, capsys, monkeypatch):
    rc, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--db",
        db,
        "--club",
        club_url,
        stdin="- | биток 3\n",
    )
    assert rc == 2 and "club register" in err
    assert not Path(db).exists()  # refused before the match (and its database) was created


def test_play_with_club_from_the_default_store_replicates_it(
    club_url, tmp_path, capsys, monkeypatch
):
    default = tmp_path / "default.sqlite"
    monkeypatch.setenv("PYRAMID_REFEREE_DB", str(default))  # no --db: the user's default store
    table_id = _register(club_url, str(default), "Стол у окна")
    rc, out, err = run(
        capsys,
        monkeypatch,
        "play",
        "--players",
        "Аня",
        "Боря",
        "--club",
        club_url,
        stdin="- | биток 3\n",
    )
    assert rc == 0, err
    assert _wait(
        lambda: sorted(_server(club_url, table_id)) == sorted(_local(str(default)))
    ) and _local(str(default))


def test_a_table_killed_during_sync_loses_nothing_and_the_next_start_sends_the_rest_once(
    club_url, db
):
    import json
    import os
    import signal
    import subprocess
    import sys

    table_id = _register(club_url, db, "Стол 1")
    env = dict(os.environ, PYRAMID_REFEREE_CLUB=club_url)  # the club from the environment
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pyramid_referee",
            "play",
            "--players",
            "Аня",
            "Боря",
            "--db",
            db,
            "--json",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
        env=env,
    )
    try:
        for n in range(12):
            p.stdin.write(f"- | биток {1 + n % 15}\n")
            p.stdin.flush()
            answer = json.loads(p.stdout.readline())
            while answer.get("type") != "stroke":  # the match's opening lines
                answer = json.loads(p.stdout.readline())
            assert answer["seq"] == n + 1 and "club" in answer
            if n == 5:  # let the worker send some of it
                _wait(lambda: len(_server(club_url, table_id)) >= 3, timeout=10)
    finally:
        os.kill(p.pid, signal.SIGKILL)  # mid-sync: no last drain, no goodbye
        p.wait()
        for f in (p.stdin, p.stdout, p.stderr):
            try:
                f.close()
            except BrokenPipeError:
                pass
    assert len(_local(db)) == 12  # every stroke shown is in the table's store
    sync = ClubSync(db, club_url)  # the table starts again
    assert sync.drain()
    server = _server(club_url, table_id)
    assert len(server) == len(set(server)) == 12 and set(server) == _local(db)


def test_a_version_1_club_schema_with_strokes_is_upgraded_and_the_table_reads_back_only_its_own(
    club_url, tmp_path
):
    with psycopg.connect(club_url, autocommit=True) as con:
        assert schema.migrate(con, to=1) == 0
        assert schema.version(con) == 1
    db_a, db_b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    with psycopg.connect(club_url, autocommit=True) as con:  # registered on the old schema
        ids, keys = zip(*(schema.register(con, n) for n in ("Стол A", "Стол B")))
    for d, t, k, n in zip((db_a, db_b), ids, keys, ("Стол A", "Стол B")):
        with Store(d) as store:
            save_link(store, club_url, t, n, k)
            s = Session.create(store, ["Аня", "Боря"])
            _strike(s, 1)
            _strike(s, 2)
    assert ClubSync(db_a, club_url).drain()  # written by version 1's functions
    with psycopg.connect(club_url, autocommit=True) as con:
        assert schema.migrate(con) == 1
        assert schema.version(con) == schema.SCHEMA_VERSION
        mine = con.execute(
            "SELECT match_id, local_id, seq, status FROM club_table_strokes(%s, %s)",
            (ids[0], keys[0]),
        ).fetchall()
        assert set(mine) == _local(db_a)  # kept through the upgrade
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("SELECT * FROM club_table_strokes(%s, %s)", (ids[1], keys[0]))
    assert ClubSync(db_b, club_url).drain()  # and the new schema takes strokes as the old one did
    assert sorted(_server(club_url, ids[1])) == sorted(_local(db_b))


def test_the_club_status_line_says_in_russian_if_the_server_is_there_and_how_many_strokes_wait():
    from pyramid_referee.club.sync import SyncStatus

    assert SyncStatus(True, 0).text() == "клуб: на связи"
    assert SyncStatus(False, 12).text() == "клуб: нет связи, в очереди 12 ударов"
    assert SyncStatus(False, 2).text() == "клуб: нет связи, в очереди 2 удара"
    assert SyncStatus(False, 1).text() == "клуб: нет связи, в очереди 1 удар"
    assert SyncStatus(None, 3).text() == "клуб: соединяемся, в очереди 3 удара"
    assert SyncStatus(False, 0).text() == "клуб: нет связи, неотправленных ударов нет"


def test_an_undo_or_a_redo_waiting_is_not_counted_as_a_stroke_in_the_club_line():
    from pyramid_referee.club.sync import SyncStatus

    assert SyncStatus(False, 2, changes=1).text() == (
        "клуб: нет связи, в очереди 2 удара и 1 изменение (отмена или возврат удара)"
    )
    assert SyncStatus(True, 0, changes=2).text() == (
        "клуб: на связи, в очереди 2 изменения (отмены или возвраты ударов)"
    )
    assert SyncStatus(None, 1, changes=5).text("en") == (
        "club: connecting, 1 stroke and 5 changes (undos or redos) in the queue"
    )
    refused = SyncStatus(False, 0, refused=True, changes=1)
    assert refused.text().endswith("в очереди 1 изменение (отмена или возврат удара)")
    assert "удар в очереди" not in refused.text() and "0 ударов" not in refused.text()
    assert (SyncStatus(False, 3, changes=2).waiting, SyncStatus(False, 0).waiting) == (5, 0)


def test_the_live_club_line_counts_strokes_and_undos_apart_as_the_table_commits_them(club_url, db):
    gone = _register_unreachable(club_url, db, "Стол 1")  # an address where no server answers
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        for n in range(3):
            _strike(s, n)
        s.undo()
        s.undo()
        s.redo()
    sync = ClubSync(db, gone, lang="en")
    assert not sync.drain()  # the server away: the queue is counted from the store
    st = sync.status()
    assert (st.online, st.queued, st.changes) == (False, 3, 3)
    assert st.text("en") == (
        "club: not connected, 3 strokes and 3 changes (undos or redos) in the queue"
    )
    assert "не отправлен" not in st.error and "server" in st.error  # its reason: in English too
    sync.notify()  # what the table commits next is counted at once, each by what it is
    sync.notify(change=True)
    assert (sync.status().queued, sync.status().changes) == (4, 4)
    assert sync.status().text("ru") == (
        "клуб: нет связи, в очереди 4 удара и 4 изменения (отмены или возвраты ударов)"
    )
    sync.close()


def test_a_stroke_committed_before_the_drain_counts_and_notified_after_it_is_counted_once(
    club_url, db
):
    """The table commits a stroke, the sync's drain counts the queue from the store, and only
    then does the table's notification come (the race a club board once showed as «в очереди
    2 удара» for one): the stroke is counted once, and the next one is counted at once."""
    gone = _register_unreachable(club_url, db, "Стол 1")  # an address where no server answers
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        sync = ClubSync(db, gone)
        _strike(s, 0)  # committed …
        assert not sync.drain()  # … counted by the drain (the server away) …
        assert sync.status().queued == 1
        sync.notify()  # … and notified after it
        assert sync.status().queued == 1
        _strike(s, 1)  # the next: committed and notified, no drain yet
        sync.notify()
        assert sync.status().queued == 2
        assert not sync.drain()
        assert sync.status().queued == 2
        assert sync.status().text() == "клуб: нет связи, в очереди 2 удара"
    sync.close()


def test_club_sync_once_sends_a_store_written_by_another_program_and_says_so(
    club_url, db, capsys, monkeypatch
):
    table_id = _register(club_url, db, "Стол 1")
    with Store(
        db
    ) as store:  # as serve or listen would have written it, with no --club of their own
        s = Session.create(store, ["Аня", "Боря"])
        for n in range(3):
            _strike(s, n)
    rc, out, err = run(
        capsys, monkeypatch, "club", "sync", "--club", club_url, "--db", db, "--once"
    )
    assert rc == 0, err
    assert out.strip() == "клуб: на связи"
    assert sorted(_server(club_url, table_id)) == sorted(_local(db))


def test_club_sync_once_with_the_server_away_exits_1_and_keeps_the_queue(
    club_url, db, capsys, monkeypatch
):
    _register(club_url, db, "Стол 1")
    with Store(db) as store:
        _strike(Session.create(store, ["Аня", "Боря"]), 1)
    gone = club_url.split("?")[0] + "?host=/nonexistent&user=postgres"
    with Store(db) as store:  # the same table, registered under the unreachable address
        table_id, name, key = load_link(store, club_url)
        save_link(store, gone, table_id, name, key)
    rc, out, err = run(capsys, monkeypatch, "club", "sync", "--club", gone, "--db", db, "--once")
    assert rc == 1
    assert out.startswith("клуб: нет связи, в очереди 1 удар")


def test_club_sync_running_beside_another_writer_sends_its_strokes_as_they_come(club_url, db):
    import os
    import signal
    import subprocess
    import sys

    from club_helpers import as_at_a_terminal

    table_id = _register(club_url, db, "Стол 1")
    p = subprocess.Popen(
        [sys.executable, "-m", "pyramid_referee", "club", "sync", "--club", club_url, "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_at_a_terminal,
    )
    try:
        with Store(db) as store:  # the pad or the voice referee writing the same store
            s = Session.create(store, ["Аня", "Боря"])
            for n in range(4):
                _strike(s, n)
                time.sleep(0.1)
            s.undo()
        assert _wait(lambda: sorted(_server(club_url, table_id)) == sorted(_local(db)))
    finally:
        os.kill(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert "клуб: на связи" in out


@pytest.mark.parametrize("old", range(1, schema.SCHEMA_VERSION))
def test_every_earlier_club_schema_is_upgraded_keeping_its_strokes_and_the_board_hears_the_table(
    club_url, db, old
):
    from pyramid_referee.club import board

    with psycopg.connect(club_url, autocommit=True) as con:
        assert schema.migrate(con, to=old) == 0
        table_id, key = schema.register(con, "Стол 1")
    with Store(db) as store:
        save_link(store, club_url, table_id, "Стол 1", key)
        s = Session.create(store, ["Аня", "Боря"])
        _strike(s, 1)
        _strike(s, 2)
    assert ClubSync(
        db, club_url
    ).drain()  # an old server: the table cannot report in, and replicates all the same
    with psycopg.connect(club_url, autocommit=True) as con:
        assert con.execute("SELECT count(*) FROM club_strokes").fetchone()[0] == 2
        assert schema.migrate(con) == old
        assert schema.version(con) == schema.SCHEMA_VERSION
        con.execute(f"LISTEN {schema.NOTIFY_CHANNEL}")
        with Store(db) as store:
            _strike(Session.open(store), 3)
        assert ClubSync(db, club_url).drain()
        assert {n.payload for n in con.notifies(timeout=0.5)} == {str(table_id)}
        (t,) = board.tables(con, "ru")
        assert (
            t["seq"] == 3 and t["sync"]["line"] == "на связи"
        )  # it reported in on the new schema
    assert sorted(_server(club_url, table_id)) == sorted(_local(db))


def test_an_unreachable_server_missing_database_unknown_login_bad_address_each_say_what_to_check(
    club_url, tmp_path
):
    from pyramid_referee.club.sync import ClubError, connect

    def refusal(url: str) -> str:
        with pytest.raises(ClubError) as exc:
            connect(url)
        return str(exc.value)

    base, query = club_url.split("?")
    assert "сервер не отвечает: проверьте сервер и порт" in refusal(
        f"{base}?host={tmp_path}/nowhere&user=postgres"
    )
    assert "на сервере нет такой базы" in refusal(
        club_url.replace(base, "postgresql:///no_such_club")
    )
    assert "сервер не принял этот логин или его пароль" in refusal(
        club_url.replace("user=postgres", "user=no_such_login")
    )
    assert "адрес не распознан" in refusal("http://192.0.2.10/pyramid")


def test_register_refuses_a_store_already_registered_on_that_server_and_keeps_its_first_link(
    club_url, db, capsys, monkeypatch
):
    first = _register(club_url, db, "Стол 1")
    rc, out, err = run(
        capsys, monkeypatch, "club", "register", "--club", club_url, "--name", "Стол 9", "--db", db
    )
    assert rc == 2 and "уже зарегистрирован" in err and "Стол 1" in err
    with Store(db, create=False) as store:
        assert load_link(store, club_url)[:2] == (first, "Стол 1")
    with psycopg.connect(club_url, autocommit=True) as con:
        assert [r[0] for r in con.execute("SELECT name FROM club_tables")] == ["Стол 1"]


def test_register_with_a_login_that_may_not_build_the_schema_says_which_to_use_and_builds_nothing(
    club_url, tmp_path, capsys, monkeypatch
):
    url = _login(club_url, None)  # may connect, not create tables nor roles (PostgreSQL 15+)
    with psycopg.connect(club_url, autocommit=True) as con:
        con.execute(
            "REVOKE CREATE ON SCHEMA public FROM PUBLIC"
        )  # the default before PostgreSQL 15
    db = str(tmp_path / "t.sqlite")
    rc, out, err = run(
        capsys, monkeypatch, "club", "register", "--club", url, "--name", "Стол 1", "--db", db
    )
    assert rc == 2 and "CREATEROLE" in err and "Traceback" not in err
    with psycopg.connect(url, autocommit=True) as con:
        assert (
            schema.version(con) == 0
        )  # the migration was one transaction: nothing half-built is left
    assert not Path(db).exists()  # nor a store on the table's side


def test_club_status_reads_with_the_boards_login_and_tells_a_tables_login_which_login_to_use(
    club_url, db, capsys, monkeypatch
):
    _register(club_url, db, "Стол 1")
    rc, out, err = run(
        capsys, monkeypatch, "club", "status", "--club", _login(club_url, "pyramid_board")
    )
    assert rc == 0 and "Стол 1" in out, err
    rc, out, err = run(
        capsys, monkeypatch, "club", "status", "--club", _login(club_url, "pyramid_table")
    )
    assert rc == 2 and "pyramid_board" in err and "Traceback" not in err


def test_a_login_without_the_tables_role_is_shown_on_the_table_as_refused_not_as_an_outage(
    club_url, db
):
    _register(club_url, db, "Стол 1")
    board_login = _login(club_url, "pyramid_board")  # the board's login, given to a table
    with Store(db) as store:
        _strike(Session.create(store, ["Аня", "Боря"]), 1)
    sync = ClubSync(db, board_login)
    assert not sync.drain()
    sync.close()
    assert sync.status().refused and sync.status().queued == 1
    assert sync.status().text() == (
        "клуб: сервер не принимает логин этого стола (нужны его пароль и роль "
        "«pyramid_table»), в очереди 1 удар"
    )
    nowhere = club_url.split("?")[0] + "?host=/nonexistent&user=postgres"
    with Store(db) as store:  # the same table under an address where no server answers: an outage
        table_id, name, key = load_link(store, club_url)
        save_link(store, nowhere, table_id, name, key)
    gone = ClubSync(db, nowhere)
    assert not gone.drain()
    gone.close()
    assert (
        not gone.status().refused and gone.status().text() == "клуб: нет связи, в очереди 1 удар"
    )
    stranger = ClubSync(
        db, club_url.replace("user=postgres", "user=no_such_login")
    )  # a login mistyped
    assert not stranger.drain()
    stranger.close()
    assert stranger.status().refused


def test_club_status_shows_each_stroke_at_the_clubs_local_time_and_the_lag_in_tenths(
    club_url, db, capsys, monkeypatch
):
    from datetime import datetime

    _register(club_url, db, "Стол 1")
    with Store(db) as store:
        _strike(Session.create(store, ["Аня", "Боря"]), 1)
        stamp = store.con.execute("SELECT time FROM strokes").fetchone()[0]
    sync = ClubSync(db, club_url)
    assert sync.drain()
    sync.close()
    monkeypatch.setenv(
        "TZ", "Asia/Yekaterinburg"
    )  # the club: UTC+5, whatever the table stored (UTC)
    time.tzset()
    try:
        rc, out, err = run(capsys, monkeypatch, "club", "status", "--club", club_url)
        local = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
        clock = (
            local.strftime("%H:%M:%S")
            if local.date() == datetime.now().astimezone().date()
            else local.strftime("%d.%m.%Y %H:%M:%S")
        )
    finally:
        monkeypatch.undo()
        time.tzset()
    assert rc == 0, err
    assert (
        out.startswith(f"1. Стол 1: матч 1, удар 1 в {clock}, отставание ")
        and "T" not in out.split(" в ")[1]
    )
    lag = out.rsplit("отставание ", 1)[1].split()[0]
    assert len(lag.split(",")[1]) == 1  # tenths, with the Russian decimal comma


def test_register_trims_the_tables_name_and_refuses_an_empty_one_before_touching_anything(
    club_url, tmp_path, capsys, monkeypatch
):
    db = tmp_path / "t.sqlite"
    rc, out, err = run(
        capsys,
        monkeypatch,
        "club",
        "register",
        "--club",
        club_url,
        "--name",
        "  ",
        "--db",
        str(db),
    )
    assert rc == 2 and "имя стола пустое" in err and not db.exists()
    rc, out, err = run(
        capsys,
        monkeypatch,
        "club",
        "register",
        "--club",
        club_url,
        "--name",
        " Стол  2 ",
        "--db",
        str(db),
    )
    assert rc == 0, err
    rc, out, err = run(
        capsys,
        monkeypatch,
        "club",
        "register",
        "--club",
        club_url,
        "--name",
        "Стол 2",
        "--db",
        str(tmp_path / "other.sqlite"),
    )
    assert rc == 2 and "уже зарегистрирован" in err  # the same name, not a look-alike second table
    with psycopg.connect(club_url, autocommit=True) as con:
        assert [r[0] for r in con.execute("SELECT name FROM club_tables")] == ["Стол 2"]


def test_a_table_removed_on_the_server_says_so_and_registered_again_sends_its_strokes_to_a_new_id(
    club_url, db, capsys, monkeypatch
):
    old = _register(club_url, db, "Стол 1")
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        for n in range(2):
            _strike(s, n)
    sync = ClubSync(db, club_url)
    assert sync.drain()
    with psycopg.connect(
        club_url, autocommit=True
    ) as con:  # the manager clears the table out on the server
        con.execute("DELETE FROM club_strokes WHERE table_id = %s", (old,))
        con.execute("DELETE FROM club_matches WHERE table_id = %s", (old,))
        con.execute("DELETE FROM club_tables WHERE id = %s", (old,))
    with Store(db) as store:
        _strike(Session(store, 1), 2)
    assert not sync.drain()
    sync.close()
    assert sync.status().unknown_key and sync.status().text() == (
        "клуб: сервер не знает ключа этого стола (его удалили на сервере?): зарегистрируйте стол "
        "заново, в очереди 1 удар"
    )
    rc, out, err = run(
        capsys, monkeypatch, "club", "register", "--club", club_url, "--name", "Стол 1", "--db", db
    )
    assert rc == 0, err
    with Store(db, create=False) as store:
        new = load_link(store, club_url)[0]
    assert new != old
    again = ClubSync(db, club_url)
    assert again.drain()
    again.close()
    server = _server(club_url, new)
    assert len(server) == len(set(server)) == 3 and set(server) == _local(db)


def test_table_numbers_stay_1_2_3_after_refused_registrations(
    club_url, tmp_path, capsys, monkeypatch
):
    def register(name: str, db: str) -> int:
        rc, out, err = run(
            capsys,
            monkeypatch,
            "club",
            "register",
            "--club",
            club_url,
            "--name",
            name,
            "--db",
            str(tmp_path / db),
        )
        return rc

    assert register("Стол 1", "a.sqlite") == 0
    for n in range(5):  # the same name again and again: refused, and no number used up
        assert register("Стол 1", f"x{n}.sqlite") == 2
    assert register("Стол 2", "b.sqlite") == 0
    assert register("Стол 2", "y.sqlite") == 2
    assert register("Стол 3", "c.sqlite") == 0
    with psycopg.connect(club_url, autocommit=True) as con:
        assert con.execute("SELECT id, name FROM club_tables ORDER BY id").fetchall() == [
            (1, "Стол 1"),
            (2, "Стол 2"),
            (3, "Стол 3"),
        ]


def test_play_leaving_with_strokes_unsent_says_how_many_and_that_the_next_run_or_sync_sends_them(
    pg_cluster, club_url, db, capsys, monkeypatch
):
    table_id = _register(club_url, db, "Стол 1")
    pg_cluster.stop("immediate")  # the club server is down for the whole партия
    try:
        lines = "".join(f"- | биток {b}\n" for b in (3, 5, 7, 9)) + "undo\n"
        rc, out, err = run(
            capsys,
            monkeypatch,
            "play",
            "--players",
            "Аня",
            "Боря",
            "--db",
            db,
            "--club",
            club_url,
            stdin=lines,
        )
        assert rc == 0, err
        # an undo is not a «удар»: it is counted apart
        assert (
            "клуб: 4 удара и 1 изменение (отмена или возврат удара) не отправлены на сервер "
            "клуба; они сохранены в базе этого стола и уйдут при следующем запуске с «--club» или "
            "командой «pyramid-referee club sync»"
        ) in err
    finally:
        pg_cluster.start()
    rc, out, err = run(
        capsys, monkeypatch, "club", "sync", "--club", club_url, "--db", db, "--once"
    )
    assert rc == 0 and out.strip() == "клуб: на связи" and "не отправлен" not in err, err
    assert sorted(_server(club_url, table_id)) == sorted(_local(db))


def test_the_leaving_line_agrees_with_one_stroke_and_with_many(club_url, db):
    from pyramid_referee.club.sync import leaving_text

    gone = _register_unreachable(club_url, db, "Стол 1")  # an address where no server answers
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        _strike(s, 1)
        assert leaving_text(db, gone).startswith(
            "клуб: 1 удар не отправлен на сервер клуба; он сохранён"
        )
        for n in range(2, 6):
            _strike(s, n)
        assert leaving_text(db, gone).startswith(
            "клуб: 5 ударов не отправлены на сервер клуба; они сохранены"
        )
        s.undo()
        s.undo()
        assert leaving_text(db, gone).startswith(
            "клуб: 5 ударов и 2 изменения (отмены или возвраты ударов) не отправлены"
        )
    assert ClubSync(db, club_url).drain()
    assert leaving_text(db, club_url) is None  # all sent: nothing to say


@pytest.mark.parametrize(
    "command",
    [
        ("club", "status"),
        ("club", "sync", "--once"),
        ("play", "--players", "Аня", "Боря"),
        ("serve", "--port", "0"),
    ],
)
def test_an_address_not_understood_is_one_russian_line_with_the_right_form_and_no_libpq_text(
    command, db, capsys, monkeypatch
):
    store = () if command == ("club", "status") else ("--db", db)  # club status reads no store
    rc, out, err = run(
        capsys,
        monkeypatch,
        *command,
        "--club",
        "stol1:secret@localhost:5432/club",
        *store,
        stdin="- | биток 3\n",
    )
    assert rc == 2, err
    line = err.strip()
    assert "\n" not in line and "Traceback" not in err, (
        err
    )  # one line: no stray line break from libpq
    assert (
        "«postgresql://ЛОГИН@СЕРВЕР:ПОРТ/БАЗА»" in line
        and "например «postgresql://stol1@192.0.2.10/pyramid»" in line
    )
    assert "missing" not in line and "connection info" not in line and "secret" not in line, line
    assert not Path(db).exists()  # refused before anything was written


def test_a_server_that_does_not_answer_is_said_in_russian_with_what_exactly_failed(
    pg_cluster, club_url, tmp_path
):
    import socket

    from pyramid_referee.club.sync import ClubError, connect

    with socket.socket() as sock:  # a port no one listens on
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    with pytest.raises(ClubError) as exc:
        connect(f"postgresql://stol1@127.0.0.1:{closed}/pyramid")
    text = str(exc.value)
    assert text == (
        "нет связи с сервером клуба: сервер не отвечает: проверьте сервер и порт в адресе, что "
        "сервер запущен и что этот компьютер в сети клуба (компьютер ответил, но на этом порту "
        "нет сервера баз данных)"
    ), text
    with pytest.raises(ClubError) as exc:
        connect(f"postgresql:///x?host={tmp_path}/nowhere&user=postgres")
    assert "(на этом компьютере нет сервера с таким сокетом)" in str(exc.value)
    assert "No such file" not in str(exc.value) and "\n" not in str(exc.value)


def test_a_refused_privilege_is_named_in_russian_not_in_postgresqls_english(
    club_url, db, capsys, monkeypatch
):
    _register(club_url, db, "Стол 1")
    rc, out, err = run(
        capsys, monkeypatch, "club", "status", "--club", _login(club_url, "pyramid_table")
    )
    assert rc == 2 and "сервер баз данных не даёт этой учётной записи прав на «club_" in err, err
    assert "permission denied" not in err
