"""The club board as a club sees it: real ``serve --club`` processes, a real PostgreSQL cluster
(tests/pg_cluster.py) and headless Chromium (Debian's, driven by Playwright).

Стол 1 is a real ``serve --club`` (its pad's API plays); Стол 2 is a store replicated by the
real ``ClubSync``; the manager's computer runs ``serve --club`` with no registered store, so it
serves the board alone. Screenshots are saved under the test's tmp dir
(``club-1920x1080.png``, ``club-768x1024.png``).
"""

from __future__ import annotations

import json
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg", reason="psycopg (3) is not installed")

from cli_run import run  # noqa: E402
from club_helpers import register_table as _register  # noqa: E402
from web_server import Server  # noqa: E402

from pyramid_referee.club import schema  # noqa: E402
from pyramid_referee.club.sync import ClubSync  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(
        "no chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True
    )
pytest.importorskip("playwright.sync_api", reason="playwright for Python is not installed")

pytestmark = pytest.mark.slow

FAR_RIGHT = {"kind": "corner", "side": "right", "end": "far"}
CALL = "тройку чисто в правый дальний угол"
POCKET3 = {
    "call": CALL,
    "outcome": {"events": [{"type": "pocket", "ball": 3, "pocket": FAR_RIGHT}], "route_ok": True},
}


@pytest.fixture
def club(club_url, tmp_path):
    """Стол 1 served with --club (players with long names), Стол 2 replicated once, and the
    manager's board; every server stopped at the end."""
    started: list[Server] = []

    def serve(db, *args):
        s = Server(db, *args)
        started.append(s)
        return s

    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    _register(club_url, one, "Стол 1")
    _register(club_url, two, "Стол 2")
    with Store(two) as store:
        s = Session.create(store, ["Вера", "Глеб"])
        s.enter(CALL, "биток 3; 3 в правый дальний угол")
    assert ClubSync(two, club_url).drain()
    table = serve(one, "--club", club_url, "--players", "Константин Константинопольский", "Пётр")
    yield {"url": club_url, "table": table, "serve": serve, "two": two, "tmp": tmp_path}
    for s in started:
        s.stop()


def _manager(club, *args) -> Server:
    return club["serve"](club["tmp"] / "manager.sqlite", "--club", club["url"], *args)


def _card(page, name: str):
    return page.locator(".table-card", has=page.locator(".table-name", has_text=name))


def _wait_text(page, name: str, selector: str, text: str, timeout: float = 20_000) -> None:
    page.wait_for_function(
        """([name, sel, text]) => [...document.querySelectorAll('.table-card')]
             .some(c => c.querySelector('.table-name').textContent === name &&
                        (c.querySelector(sel) || {}).textContent?.includes(text))""",
        arg=[name, selector, text],
        timeout=timeout,
    )


def test_a_table_served_with_club_replicates_and_says_so_on_its_scoreboard(club, browser):
    table = club["table"]
    assert any("табло клуба: " in line and line.endswith("/club") for line in table.lines)
    table.post("/api/strokes", POCKET3)
    end = time.monotonic() + 20
    while time.monotonic() < end and table.state().get("club", {}).get("line") != "клуб: на связи":
        time.sleep(0.1)
    assert table.state()["club"]["line"] == "клуб: на связи"
    with urllib.request.urlopen(
        table.base + "/club", timeout=10
    ) as r:  # the board beside the table's pages
        assert "Табло клуба" in r.read().decode()
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(table.base + "/")
    page.wait_for_function("document.getElementById('club-line').textContent === 'клуб: на связи'")
    assert page.locator("a[href='/club']").count() == 1  # the scoreboard links to the board
    page.close()
    with psycopg.connect(club["url"], autocommit=True) as con:
        end = time.monotonic() + 20
        while (
            time.monotonic() < end
            and not con.execute(
                "SELECT count(*) FROM club_strokes s JOIN club_tables t"
                " ON t.id = s.table_id WHERE t.name = 'Стол 1'"
            ).fetchone()[0]
        ):
            time.sleep(0.1)
        assert con.execute(
            "SELECT seq, status FROM club_strokes s JOIN club_tables t ON t.id = s.table_id"
            " WHERE t.name = 'Стол 1'"
        ).fetchall() == [(1, "active")]


def test_the_managers_board_shows_both_tables_and_follows_strokes_and_undo_without_a_reload(
    club, browser
):
    board = _manager(club)
    assert any("только табло клуба" in line for line in board.lines)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(board.base + "/")
    _wait_text(page, "Стол 2", ".pscore", "3")
    _wait_text(page, "Стол 1", ".pname", "Константин Константинопольский")
    assert "Заказ выполнен" in _card(page, "Стол 2").locator(".verdict-line").inner_text()
    page.evaluate("window.notReloaded = true")
    club["table"].post("/api/strokes", POCKET3)  # a stroke on Стол 1's pad
    _wait_text(
        page, "Стол 1", ".verdict-line", "#1 Константин Константинопольский: Заказ выполнен"
    )
    assert _card(page, "Стол 1").locator(".pscore").all_inner_texts() == ["3", "0"]
    club["table"].post("/api/undo", {})
    _wait_text(page, "Стол 1", ".undone-line", "удар 1 отменён")
    assert _card(page, "Стол 1").locator(".pscore").all_inner_texts() == ["0", "0"]
    assert (
        page.evaluate("window.notReloaded") is True
    )  # the same page, updated by the server's events
    state = json.loads(urllib.request.urlopen(board.base + "/api/club/state", timeout=10).read())
    assert [t["name"] for t in state["tables"]] == ["Стол 1", "Стол 2"] and state["server"][
        "online"
    ]
    page.close()


def test_the_board_keeps_updating_after_the_postgresql_server_restarts(club, browser, pg_cluster):
    board = _manager(club)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(board.base + "/club")
    _wait_text(page, "Стол 2", ".pscore", "3")
    pg_cluster.stop("immediate")
    try:
        page.wait_for_function(
            "document.getElementById('server-line').textContent.includes('нет связи')",
            timeout=20_000,
        )
        club["table"].post("/api/strokes", POCKET3)  # the table plays on: local first
    finally:
        pg_cluster.start()
    # the table's sync sends it once the server is back; the board has listened again and shows it
    _wait_text(page, "Стол 1", ".verdict-line", "#1 ", timeout=30_000)
    page.wait_for_function(
        "document.getElementById('server-line').textContent.includes('на связи')"
    )
    with Store(club["two"]) as store:  # and a later change is heard too
        Session.open(store).enter(None, "биток 5")
    assert ClubSync(club["two"], club["url"]).drain()
    _wait_text(page, "Стол 2", ".verdict-line", "#2 ")
    page.close()


def test_a_table_gone_silent_shows_as_not_connected(club, browser):
    board = _manager(club)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(board.base + "/")
    _wait_text(page, "Стол 2", ".sync", "на связи")
    with psycopg.connect(
        club["url"], autocommit=True
    ) as con:  # Стол 2 last heard of 10 minutes ago
        con.execute(
            "UPDATE club_matches SET received = now() - interval '10 minutes'"
            " WHERE table_id = (SELECT id FROM club_tables WHERE name = 'Стол 2')"
        )
        con.execute(
            "UPDATE club_tables SET seen = now() - interval '10 minutes' WHERE name = 'Стол 2'"
        )
    _wait_text(page, "Стол 2", ".sync", "нет связи с ")
    assert "offline" in _card(page, "Стол 2").locator(".sync").get_attribute("class")
    page.close()


LAYOUT_JS = """() => {
  // a long name may end in '…' (as on the scoreboard); scores, lines and figures may not be cut
  const clipped = [...document.querySelectorAll(
      '.pscore, .sync, .pneeds, .top h1, #stats th, #stats td:not(:first-child)')]
    .filter(e => e.scrollWidth > e.clientWidth + 1)
    .map(e => e.className || e.tagName + ' ' + e.textContent);
  const spill = [];
  for (const box of document.querySelectorAll('.table-card, .day, .stats')) {
    const b = box.getBoundingClientRect();
    for (const e of box.querySelectorAll('*')) { const r = e.getBoundingClientRect();
      if (r.width && (r.left < b.left - 1 || r.right > b.right + 1))
        spill.push(box.className + ' > ' + (e.className || e.tagName)); }
  }
  const stats = document.querySelector('.stats').getBoundingClientRect();
  for (const row of document.querySelectorAll('#stats tr'))
    if (row.getBoundingClientRect().bottom > stats.bottom + 1) spill.push('a stats row cut off');
  const outside = [...document.querySelectorAll('.top, .tables, .lower, .table-card')]
    .filter(e => { const r = e.getBoundingClientRect();
                   return r.right > innerWidth + 1 || r.bottom > innerHeight + 1; })
    .map(e => e.className);
  const size = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
  return {clipped, spill, outside, score: size('.pscore'), name: size('.table-name'),
          verdict: size('.verdict-line'),
          scrollW: document.documentElement.scrollWidth,
          scrollH: document.documentElement.scrollHeight,
          w: innerWidth, h: innerHeight};
}"""


@pytest.mark.parametrize("width, height", [(1920, 1080), (768, 1024)])
def test_the_board_fits_a_tv_and_a_tablet_with_nothing_overflowing(club, browser, width, height):
    board = _manager(club)
    club["table"].post("/api/strokes", POCKET3)
    club["table"].post(
        "/api/strokes",
        {"call": None, "outcome": {"events": [], "fouls": ["г"], "route_ok": False}},
    )
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(board.base + "/")
    _wait_text(page, "Стол 1", ".verdict-line", "#2 ")
    page.wait_for_function(
        "[...document.querySelectorAll('#stats td')].some(e => e.textContent === 'Пётр')"
    )
    page.wait_for_function(
        "window.clubState.players.some(p => p.penalties === 1)"
    )  # the statistics follow within 2 s
    shot = club["tmp"] / f"club-{width}x{height}.png"
    page.screenshot(path=str(shot))
    m = page.evaluate(LAYOUT_JS)
    assert m["scrollW"] <= m["w"] and m["scrollH"] <= m["h"], m
    assert not m["clipped"] and not m["spill"] and not m["outside"], m
    assert (
        m["score"] >= (90 if width > 1000 else 48) and m["score"] > m["name"] > m["verdict"] >= 15
    ), m
    assert shot.stat().st_size > 10_000
    page.close()


def test_the_board_speaks_english_with_lang_en(club, browser):
    board = _manager(club, "--lang", "en")
    assert any("serving the club board alone" in line for line in board.lines)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(board.base + "/")
    _wait_text(page, "Стол 2", ".verdict-line", "Call fulfilled")
    assert page.locator("h1").inner_text() == "Club board"
    assert _card(page, "Стол 2").locator(".sync").inner_text() == "connected"
    assert "today's games" in page.locator(".lower").inner_text()
    page.close()


def test_the_board_is_read_only_and_needs_no_pin(club):
    board = _manager(club)
    for path in ("/", "/club", "/api/club/state"):
        with urllib.request.urlopen(board.base + path, timeout=10) as r:
            assert r.status == 200
    for path in ("/api/club/state", "/club", "/api/strokes", "/api/undo"):
        req = urllib.request.Request(
            board.base + path, data=b"{}", method="POST", headers={"Authorization": "Bearer 2468"}
        )
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(req, timeout=10)
        assert exc.value.code in (404, 405)


def test_serve_club_with_players_on_an_unregistered_store_is_refused_and_starts_nothing(
    club_url, db, capsys, monkeypatch
):
    rc, out, err = run(
        capsys,
        monkeypatch,
        "serve",
        "--club",
        club_url,
        "--players",
        "Аня",
        "Боря",
        "--db",
        db,
        "--port",
        "0",
    )
    assert rc == 2 and "club register" in err and not Path(db).exists()


def test_serve_club_alone_says_when_the_club_server_cannot_be_reached(
    db, capsys, monkeypatch, tmp_path
):
    gone = f"postgresql:///x?host={tmp_path}/nowhere&user=postgres"
    rc, out, err = run(capsys, monkeypatch, "serve", "--club", gone, "--db", db, "--port", "0")
    assert rc == 2 and "нет связи с сервером клуба" in err


def test_serve_club_alone_with_a_login_that_may_not_read_the_club_says_so(
    club_url, db, capsys, monkeypatch
):
    with psycopg.connect(club_url, autocommit=True) as con:
        schema.migrate(con)
        con.execute("CREATE ROLE stranger LOGIN")  # not in pyramid_board
    rc, out, err = run(
        capsys,
        monkeypatch,
        "serve",
        "--club",
        club_url.replace("user=postgres", "user=stranger"),
        "--db",
        db,
        "--port",
        "0",
    )
    assert rc == 2 and "не даёт этой учётной записи читать табло" in err


def test_a_table_served_with_club_starts_and_plays_while_the_club_server_is_down(
    club_url, tmp_path, pg_cluster
):
    db = tmp_path / "t.sqlite"
    _register(club_url, db, "Стол 1")
    pg_cluster.stop("immediate")
    table = None
    try:
        table = Server(db, "--club", club_url, "--players", "Аня", "Боря")
        verdict = table.post(
            "/api/strokes", POCKET3
        )  # local first: judged and stored with no club server
        assert verdict["seq"] == 1
        end = time.monotonic() + 20
        while time.monotonic() < end and table.state()["club"]["online"] is not False:
            time.sleep(0.1)
        assert table.state()["club"]["line"] == "клуб: нет связи, в очереди 1 удар"
        with urllib.request.urlopen(table.base + "/api/club/state", timeout=10) as r:
            assert json.loads(r.read())["server"]["online"] is False
    finally:
        pg_cluster.start()
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and table.state()["club"]["line"] != "клуб: на связи":
            time.sleep(0.1)
        assert table.state()["club"]["line"] == "клуб: на связи"
        with psycopg.connect(club_url, autocommit=True) as con:
            assert con.execute("SELECT seq, status FROM club_strokes").fetchall() == [
                (1, "active")
            ]
    finally:
        if table is not None:
            table.stop()


@pytest.mark.parametrize("width, height", [(1920, 1080), (768, 1024)])
def test_eight_tables_share_a_tv_and_a_tablet_with_nothing_overflowing(
    club, browser, width, height
):
    for i in range(3, 9):  # six more tables, one of them a match to two wins, each with a stroke
        db = club["tmp"] / f"t{i}.sqlite"
        _register(club["url"], db, f"Стол {i}")
        with Store(db) as store:
            s = Session.create(
                store,
                [f"Игрок {i}А с длинной фамилией", f"Игрок {i}Б"],
                to_wins=2 if i == 5 else 1,
            )
            s.enter(CALL, "биток 3; 3 в правый дальний угол")
        assert ClubSync(db, club["url"]).drain()
    board = _manager(club)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(board.base + "/")
    page.wait_for_function("document.querySelectorAll('.table-card').length === 8")
    _wait_text(page, "Стол 8", ".pscore", "3")
    page.screenshot(path=str(club["tmp"] / f"club8-{width}x{height}.png"))
    m = page.evaluate(LAYOUT_JS)
    assert m["scrollW"] <= m["w"] and m["scrollH"] <= m["h"], m
    assert not m["clipped"] and not m["spill"] and not m["outside"], m
    assert m["score"] >= (60 if width > 1000 else 36) and m["score"] > m["name"], (
        m
    )  # a tablet is read at arm's length
    page.close()


DAY_JS = """() => [...document.querySelectorAll('.day li:not(.none)')].map(e => ({
  text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1,
  spill: e.getBoundingClientRect().right
         > e.closest('.day').getBoundingClientRect().right + 1}))"""


@pytest.mark.parametrize("width, height", [(1920, 1080), (768, 1024)])
def test_a_finished_partia_is_read_on_the_board_to_its_winner_on_a_tv_and_a_tablet(
    club, browser, width, height
):
    three = club["tmp"] / "three.sqlite"
    _register(club["url"], three, "Стол 3")
    with Store(three) as store:  # a game to 3: one call finishes it
        Session.create(store, ["Вероника", "Ольга"], {"target": 3}).enter(
            CALL, "биток 3; 3 в правый дальний угол"
        )
    assert ClubSync(three, club["url"]).drain()
    board = _manager(club)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(board.base + "/")
    page.wait_for_function(
        "[...document.querySelectorAll('.day li')].some(e => e.textContent.includes('Стол 3'))"
    )
    lines = [d for d in page.evaluate(DAY_JS) if "Стол 3" in d["text"]]
    assert lines and all(d["text"].endswith("победитель — Вероника") for d in lines), lines
    assert not any(d["cut"] or d["spill"] for d in lines), lines
    m = page.evaluate(LAYOUT_JS)  # and the rest of the board still fits
    assert m["scrollW"] <= m["w"] and m["scrollH"] <= m["h"] and not m["outside"], m
    page.close()


STALE_JS = """() => {
  const cut = (e) => e.scrollWidth > e.clientWidth + 1;
  const cards = [...document.querySelectorAll('.table-card')];
  const line = document.getElementById('server-line'), r = line.getBoundingClientRect();
  const cutDown = (e) => e.scrollHeight > e.clientHeight + 1 || cut(e);
  return {cards: cards.map(c => ({name: c.querySelector('.table-name').textContent,
                                  nameCut: cut(c.querySelector('.table-name')),
                                  playersCut: [...c.querySelectorAll('.pname')].filter(cutDown)
                                    .map(e => e.textContent),
                                  stale: c.classList.contains('stale'),
                                  sync: c.querySelector('.sync').textContent,
                                  syncCut: cut(c.querySelector('.sync')),
                                  filter: getComputedStyle(c).filter,
                                  opacity: parseFloat(getComputedStyle(c).opacity)})),
          line: line.textContent,
          lineCut: cut(line) || r.right > innerWidth + 1 || r.bottom > innerHeight + 1,
          lineSize: parseFloat(getComputedStyle(line).fontSize)};
}"""


def test_in_an_outage_every_card_says_data_as_of_and_is_greyed_nothing_cut_with_three_tables(
    club, browser, pg_cluster
):
    three = club["tmp"] / "three.sqlite"
    _register(club["url"], three, "Стол у окна")
    with Store(three) as store:
        Session.create(store, ["Вероника Александровна", "Ольга"]).enter(
            CALL, "биток 3; 3 в правый дальний угол"
        )
    assert ClubSync(three, club["url"]).drain()
    board = _manager(club)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(board.base + "/")
    page.wait_for_function("document.querySelectorAll('.table-card').length === 3")
    _wait_text(page, "Стол у окна", ".pscore", "3")
    page.screenshot(path=str(club["tmp"] / "club3-online-1920x1080.png"))
    m = page.evaluate(STALE_JS)
    assert not any(
        c["nameCut"] or c["syncCut"] or c["stale"] or c["playersCut"] for c in m["cards"]
    ), m
    pg_cluster.stop("immediate")
    try:
        page.wait_for_function(
            "document.querySelectorAll('.table-card.stale').length === 3", timeout=20_000
        )
        state = json.loads(
            urllib.request.urlopen(board.base + "/api/club/state", timeout=10).read()
        )
        page.screenshot(path=str(club["tmp"] / "club3-outage-1920x1080.png"))
        m = page.evaluate(STALE_JS)
    finally:
        pg_cluster.start()
    assert state["server"]["online"] is False and state["server"]["as_of"]
    at = state["server"]["as_of"]
    assert [t["sync"]["line"] for t in state["tables"]] == [f"данные на {at}"] * 3
    assert [t["scores"] for t in state["tables"]] and all(
        t["sync"]["stale"] for t in state["tables"]
    )
    assert [c["sync"] for c in m["cards"]] == [f"данные на {at}"] * 3, m
    assert all(c["filter"] == "grayscale(1)" and c["opacity"] < 0.7 for c in m["cards"]), (
        m
    )  # greyed out
    assert sorted(c["name"] for c in m["cards"]) == ["Стол 1", "Стол 2", "Стол у окна"]
    assert not any(c["nameCut"] or c["syncCut"] or c["playersCut"] for c in m["cards"]), (
        m
    )  # «Стол у окна», not «Сто…»
    assert m["line"].startswith("нет связи с сервером клуба") and not m["lineCut"], (
        m
    )  # the whole outage line
    assert m["lineSize"] >= 20, m
    layout = page.evaluate(LAYOUT_JS)
    assert (
        layout["scrollW"] <= layout["w"]
        and layout["scrollH"] <= layout["h"]
        and not layout["outside"]
    ), layout
    page.wait_for_function(
        "document.querySelectorAll('.table-card.stale').length === 0", timeout=30_000
    )  # back
    page.close()
