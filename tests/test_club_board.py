"""The club board's reads (``club/board.py``) and what schema v3 gives it, against a real
PostgreSQL cluster (tests/pg_cluster.py): tables replicated by the real ``ClubSync``, NOTIFY
heard by a real LISTEN, the read-only role tried with a real login."""

from __future__ import annotations

import time

import pytest

psycopg = pytest.importorskip("psycopg", reason="psycopg (3) is not installed")

from club_helpers import register_table as _register, wait_for as _wait  # noqa: E402

from pyramid_referee.club import board, schema, sync as sync_module  # noqa: E402
from pyramid_referee.club.sync import ClubSync  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402

CALL3 = "тройку чисто в правый дальний угол"
POCKET3 = "биток 3; 3 в правый дальний угол"
CALL5 = "пятерку чисто в правый дальний угол"
POCKET5 = "биток 5; 5 в правый дальний угол"


def _snapshot(url: str, lang: str = "ru", **kw) -> dict:
    with psycopg.connect(url, autocommit=True) as con:
        return board.snapshot(con, lang, **kw)


def _table(snap: dict, name: str) -> dict:
    (t,) = [t for t in snap["tables"] if t["name"] == name]
    return t


@pytest.fixture
def two_tables(club_url, tmp_path):
    """Стол 1 (Аня–Боря, to 20): a foul by Аня, two calls by Боря, the last one undone.
    Стол 2 (Вера–Глеб, to 3): Вера wins the партия with one call. Both replicated."""
    a, b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    ids = _register(club_url, a, "Стол 1"), _register(club_url, b, "Стол 2")
    with Store(a) as store:
        s = Session.create(store, ["Аня", "Боря"], {"target": 20})
        s.enter(None, "биток 6; касание")  # P1г: Аня's penalty, Боря +5
        s.enter(CALL3, POCKET3)
        s.enter(CALL5, POCKET5)
        s.undo()
    with Store(b) as store:
        Session.create(store, ["Вера", "Глеб"], {"target": 3}).enter(CALL3, POCKET3)
    for d in (a, b):
        assert ClubSync(d, club_url).drain()
    return a, b, ids


def test_two_replicated_tables_show_their_players_scores_needs_and_last_verdict_in_russian(
    club_url, two_tables
):
    snap = _snapshot(club_url)
    one, two = _table(snap, "Стол 1"), _table(snap, "Стол 2")
    assert one["players"] == ["Аня", "Боря"] and one["scores"] == {"Аня": -5, "Боря": 8}
    assert (
        one["needs"] == {"Аня": 25, "Боря": 12} and one["to_play"] == "Боря"
    )  # E1: target − score (P3 in it)
    assert one["last_verdict"]["line"].startswith("#2 Боря: Заказ выполнен; Боря +3 (шар 3)")
    assert (
        two["scores"] == {"Вера": 3, "Глеб": 0}
        and two["result_line"] == "партия окончена: победитель — Вера, 3 : 0"
    )
    assert two["wins"] == {"Вера": 1, "Глеб": 0} and two["finished"]
    assert one["sync"]["online"] and one["sync"]["line"] == "на связи"


def test_an_undone_stroke_no_longer_counts_and_the_board_says_it_was_undone(club_url, two_tables):
    a, _, _ = two_tables
    one = _table(_snapshot(club_url), "Стол 1")
    assert one["seq"] == 2 and one["undone_line"] == "удар 3 отменён"
    with Store(
        a
    ) as store:  # a new line of play: the undone stroke 3 is discarded, the new 3 counts
        Session.open(store).enter(None, "биток 7")
    assert ClubSync(a, club_url).drain()
    snap = _snapshot(club_url)
    one = _table(snap, "Стол 1")
    assert one["seq"] == 3 and one["undone_line"] == "" and one["scores"] == {"Аня": -5, "Боря": 8}
    (borya,) = [p for p in snap["players"] if p["name"] == "Боря"]
    assert borya["calls_accepted"] == 1  # the discarded call (ball 5) is not counted
    with psycopg.connect(
        club_url, autocommit=True
    ) as con:  # it is on the server, though, as on the table
        assert (
            con.execute("SELECT count(*) FROM club_strokes WHERE status = 'discarded'").fetchone()[
                0
            ]
            == 1
        )


def test_the_day_lists_finished_partii_and_matches_and_players_have_club_statistics(
    club_url, two_tables
):
    snap = _snapshot(club_url)
    assert [g["line"] for g in snap["day"]["games"]] == [
        "Стол 2: Вера 3 : 0 Глеб, победитель — Вера"
    ]
    assert [m["line"] for m in snap["day"]["matches"]] == [
        "Стол 2: Вера — Глеб, матч: победитель — Вера"
    ]
    stats = {p["name"]: p for p in snap["players"]}
    assert stats["Вера"] == {
        "name": "Вера",
        "games": 1,
        "won": 1,
        "points": 3,
        "points_per_game": 3.0,
        "penalties": 0,
        "calls_accepted": 1,
        "calls_refused": 0,
    }
    assert (stats["Глеб"]["games"], stats["Глеб"]["won"]) == (1, 0)
    assert stats["Аня"]["penalties"] == 1 and stats["Аня"]["games"] == 0  # her партия is not over
    assert snap["players"][0]["name"] == "Вера"  # ranked by партии won


def test_a_refused_call_is_counted_as_refused_for_its_striker(club_url, tmp_path):
    db = str(tmp_path / "c.sqlite")
    _register(club_url, db, "Стол 3")
    with Store(db) as store:
        Session.create(store, ["Дина", "Ефим"]).enter(
            "тройку", "биток 3"
        )  # no pocket: refused (no_pocket)
    assert ClubSync(db, club_url).drain()
    stats = {p["name"]: p for p in _snapshot(club_url)["players"]}
    assert (stats["Дина"]["calls_accepted"], stats["Дина"]["calls_refused"]) == (0, 1)


def test_the_board_speaks_english_with_lang_en_even_for_a_table_that_played_in_russian(
    club_url, two_tables
):
    snap = _snapshot(club_url, "en")
    one, two = _table(snap, "Стол 1"), _table(snap, "Стол 2")
    assert one["last_verdict"]["line"].startswith(
        "#2 Боря: Call fulfilled; Боря +3 (ball 3)"
    )  # judged again
    assert one["undone_line"] == "stroke 3 undone" and one["sync"]["line"] == "connected"
    assert two["result_line"] == "game over: Вера won, 3 : 0"
    assert snap["day"]["games"][0]["line"] == "Стол 2: Вера 3 : 0 Глеб, Вера won"


def test_a_table_that_goes_silent_is_shown_not_connected_since_it_was_last_heard(
    club_url, tmp_path
):
    db, never = str(tmp_path / "a.sqlite"), str(tmp_path / "n.sqlite")
    _register(club_url, db, "Стол 1")
    _register(club_url, never, "Стол 9")
    with Store(db) as store:
        Session.create(store, ["Аня", "Боря"]).enter(CALL3, POCKET3)
    sync = ClubSync(db, club_url, retry_s=0.1).start()
    try:
        assert _wait(lambda: _table(_snapshot(club_url, stale_s=1.0), "Стол 1")["sync"]["online"])
    finally:
        sync.stop()  # the table is switched off
    time.sleep(1.5)
    t = _table(_snapshot(club_url, stale_s=1.0), "Стол 1")
    assert not t["sync"]["online"] and t["sync"]["line"].startswith("нет связи с ")
    assert t["sync"]["line"][len("нет связи с ") :].replace(":", "").isdigit()  # ЧЧ:ММ of today
    assert t["scores"] == {"Аня": 3, "Боря": 0}  # what it sent is still shown
    n = _table(_snapshot(club_url), "Стол 9")
    assert (
        not n["sync"]["online"] and n["sync"]["line"] == "нет связи: стол ещё не выходил на связь"
    )
    assert n["players"] == [] and n["last_verdict"] is None


def test_a_table_that_reports_a_queue_is_shown_connected_with_it(club_url, db):
    table_id = _register(club_url, db, "Стол 1")
    with Store(db, create=False) as store:
        key = store.con.execute("SELECT key FROM club_link").fetchone()[0]
    with psycopg.connect(club_url, autocommit=True) as con:
        con.execute("SELECT club_table_seen(%s, %s, 3)", (table_id, key))
    t = _table(_snapshot(club_url), "Стол 1")
    assert (
        t["sync"]["online"]
        and t["sync"]["queued"] == 3
        and t["sync"]["line"] == "на связи, в очереди 3 удара"
    )
    with (
        psycopg.connect(club_url, autocommit=True) as con,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        con.execute(
            "SELECT club_table_seen(%s, %s, 0)", (table_id, key + "x")
        )  # another key is refused


def _notifies(con, timeout: float = 0.5) -> list[str]:
    return [n.payload for n in con.notifies(timeout=timeout)]


def test_a_batch_of_strokes_notifies_the_board_once_with_the_tables_id(club_url, db):
    table_id = _register(club_url, db, "Стол 1")
    with Store(db) as store:
        s = Session.create(store, ["Аня", "Боря"])
        for ball in (3, 5, 7, 9, 11):
            s.enter(None, f"биток {ball}")
    with psycopg.connect(club_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {schema.NOTIFY_CHANNEL}")
        assert ClubSync(db, club_url).drain()  # one transaction: the match and five strokes
        heard = _notifies(listener)
    # the batch once, and the table reporting in (a new connection) once: 6 rows
    # changed, 2 notifications
    assert heard == [str(table_id), str(table_id)]


def test_the_table_reports_in_on_a_new_connection_and_then_only_every_ten_seconds(
    club_url, db, monkeypatch
):
    table_id = _register(club_url, db, "Стол 1")

    def seen():
        with psycopg.connect(club_url, autocommit=True) as con:
            return con.execute(
                "SELECT seen FROM club_tables WHERE id = %s", (table_id,)
            ).fetchone()[0]

    sync = ClubSync(db, club_url)
    try:
        assert seen() is None
        assert sync.drain()
        first = seen()
        assert first is not None
        for _ in range(3):  # an idle table drains every second: no write each time
            assert sync.drain()
        assert seen() == first
        monkeypatch.setattr(sync_module, "SEEN_EVERY_S", 0.0)  # ten seconds later
        assert sync.drain()
        assert seen() > first
    finally:
        sync.close()


def test_the_board_role_reads_the_board_and_cannot_write_anything(club_url, two_tables):
    _, _, (id1, _) = two_tables
    with psycopg.connect(club_url, autocommit=True) as con:
        con.execute("CREATE ROLE board_login LOGIN IN ROLE pyramid_board")
    login = club_url.replace("user=postgres", "user=board_login")
    with psycopg.connect(login, autocommit=True) as con:
        snap = board.snapshot(con, "ru")  # everything the board shows, read with that login
        assert {t["name"] for t in snap["tables"]} == {"Стол 1", "Стол 2"} and snap["players"]
        con.execute(f"LISTEN {schema.NOTIFY_CHANNEL}")
        for sql in (
            "INSERT INTO club_tables(name, key_hash) VALUES ('Стол X', 'x')",
            "UPDATE club_strokes SET status = 'undone'",
            "DELETE FROM club_matches",
            "UPDATE club_tables SET seen = now()",
            "SELECT key_hash FROM club_tables",  # not even the key hashes
            f"SELECT club_table_seen({id1}, 'guess', 0)",
            f"SELECT club_put_match({id1}, 'guess', 9, '[]', '{{}}', 1, 'open', NULL, "
            "'x', 'x', 1)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                con.execute(sql)
    assert len(_snapshot(club_url)["tables"]) == 2


def test_times_on_the_board_are_the_clubs_local_time_whatever_zone_the_server_keeps(
    club_url, db, monkeypatch
):
    from datetime import datetime, timedelta, timezone

    _register(club_url, db, "Стол 1")
    monkeypatch.setenv("TZ", "Asia/Yekaterinburg")  # the club: UTC+5
    time.tzset()
    try:
        with psycopg.connect(club_url, autocommit=True) as con:
            con.execute("SET TIME ZONE 'Pacific/Kiritimati'")  # the server's sessions: UTC+14
            heard = con.execute(
                "UPDATE club_tables SET seen = now() - interval '5 minutes' RETURNING seen"
            ).fetchone()[0]
            line = board.tables(con, "ru")[0]["sync"]["line"]
        local = heard.astimezone(timezone(timedelta(hours=5)))
        expected = (
            local.strftime("%H:%M")
            if local.date() == datetime.now().astimezone().date()
            else local.strftime("%d.%m.%Y %H:%M")
        )
        assert line == f"нет связи с {expected}"
    finally:
        monkeypatch.undo()
        time.tzset()


def _offline_line(feed) -> str:
    """Run the board's feed until it says the server is not there; its top line then."""
    import json

    feed.start(None)
    try:
        assert _wait(lambda: json.loads(feed.payload())["server"]["online"] is False)
        return json.loads(feed.payload())["server"]["line"]
    finally:
        feed.stop()


def test_the_boards_top_line_says_in_russian_it_reconnects_and_what_to_check_the_server_away(
    tmp_path,
):
    from pyramid_referee.web.club import BoardFeed

    line = _offline_line(
        BoardFeed(f"postgresql:///x?host={tmp_path}/nowhere&user=postgres", "ru", retry_s=0.1)
    )
    # the essential part first: a narrow screen cuts the line's end
    assert line.startswith("нет связи с сервером клуба; переподключаемся… сервер не отвечает")
    assert "connection" not in line


def test_a_tables_login_on_the_board_is_told_it_needs_the_boards_role_not_that_the_server_is_away(
    club_url, db
):
    from club_helpers import login

    from pyramid_referee.web.club import BoardFeed

    _register(club_url, db, "Стол 1")
    line = _offline_line(
        BoardFeed(login(club_url, "pyramid_table"), "ru", retry_s=0.1)
    )  # a table's serve: /club
    assert line == "этому логину нельзя читать табло клуба: нужна роль «pyramid_board»"


def test_a_listening_board_feed_stops_at_once_not_after_its_tick(club_url, db):
    """An idle LISTEN wait is not woken by a cancel: stop() must still end the thread promptly
    (serve's Ctrl-C waited 3 s for it, and every board page held the server that long)."""
    import json

    from pyramid_referee.web import club as web_club

    _register(club_url, db, "Стол 1")
    feed = web_club.BoardFeed(club_url, "ru")
    feed.start(None)
    assert _wait(lambda: json.loads(feed.payload())["server"]["online"] is True)
    time.sleep(0.3)  # well inside the feed's TICK_S wait
    feed.stop()
    assert not feed._thread.is_alive()  # stop() joins for up to 3 s: alive means it timed out
