"""The JSON API of ``serve`` (docs/serve.md), through Starlette's TestClient.

What a pad or another program may do, what it may not (no PIN, a wrong PIN, another site,
bad input), and that whatever it does lands in the same store as ``play`` writes.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from pyramid_referee.i18n import set_lang  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402
from pyramid_referee.web.app import create_app  # noqa: E402

PIN = "4321"
AUTH = {"Authorization": f"Bearer {PIN}"}
FAR_RIGHT = {"kind": "corner", "side": "right", "end": "far"}
CALL = "тройку чисто в правый дальний угол"
AS_CALLED = {"events": [{"type": "pocket", "ball": 3, "pocket": FAR_RIGHT}], "route_ok": True}
LATIN_OUTSIDE_QUOTES = re.compile(r"(?<![«\w])[A-Za-z]{2,}(?![\w»])")


@pytest.fixture(autouse=True)
def _russian():
    set_lang("ru")
    yield
    set_lang("ru")


def _match(db, players=("Иван", "Пётр"), **kw) -> int:
    with Store(db) as store:
        return Session.create(store, list(players), lang="ru", **kw).id


@pytest.fixture
def served(tmp_path):
    db = tmp_path / "m.db"
    mid = _match(db)
    with TestClient(create_app(db, mid, pin=PIN)) as client:
        yield client, db, mid


def _stored(db, mid) -> list:
    with Store(db, create=False) as store:
        return store.strokes(mid)


def test_state_has_every_key_of_the_contract_and_speaks_russian(served):
    client, _, mid = served
    st = client.get("/api/state").json()
    for key in (
        "players",
        "scores",
        "to_play",
        "on_table",
        "standing_call",
        "last_verdict",
        "result",
        "history",
    ):
        assert key in st, key
    assert st["players"] == ["Иван", "Пётр"] and st["scores"] == {"Иван": 0, "Пётр": 0}
    assert st["needs"] == {"Иван": 71, "Пётр": 71} and st["target"] == 71
    assert st["match"] == mid and st["on_table"] == list(range(1, 16))
    assert st["games"][0]["line"].startswith("партия 1")


def test_a_stroke_without_the_pin_is_refused_and_nothing_is_recorded(served):
    client, db, mid = served
    r = client.post("/api/strokes", json={"call": CALL, "outcome": AS_CALLED})
    assert r.status_code == 401 and "ПИН" in r.json()["error"]
    r = client.post(
        "/api/strokes",
        json={"call": CALL, "outcome": AS_CALLED},
        headers={"Authorization": "Bearer 0000"},
    )
    assert r.status_code == 401 and r.json()["error"] == "неверный ПИН-код"
    for path in ("/api/undo", "/api/redo", "/api/call", "/api/new"):
        assert client.post(path, json={}).status_code == 401, path
    assert _stored(db, mid) == []
    assert client.get("/api/state").json()["seq"] == 0


def test_a_post_from_another_site_is_refused_even_with_the_pin(served):
    client, db, mid = served
    r = client.post(
        "/api/strokes",
        json={"call": CALL, "outcome": AS_CALLED},
        headers={**AUTH, "Origin": "http://evil.example"},
    )
    assert r.status_code == 403 and "другого сайта" in r.json()["error"]
    assert _stored(db, mid) == []
    same = client.post(
        "/api/strokes",
        json={"call": CALL, "outcome": AS_CALLED},
        headers={**AUTH, "Origin": "http://testserver"},
    )
    assert same.status_code == 200


def test_a_stroke_with_the_pin_is_judged_committed_and_marked_shown(served):
    client, db, mid = served
    r = client.post("/api/strokes", json={"call": CALL, "outcome": AS_CALLED}, headers=AUTH)
    assert r.status_code == 200, r.text
    v = r.json()
    for key in ("points", "penalty", "respotted", "fulfilled", "next", "clauses", "message"):
        assert key in v, key
    assert v["seq"] == 1 and v["fulfilled"] is True and v["points"]["Пётр"] == 0
    won = v["points"]["Иван"]
    assert won > 0
    rows = _stored(db, mid)
    assert len(rows) == 1 and rows[0].record.call_text == CALL
    with Store(db, create=False) as store:
        assert store.unshown(mid) == []  # answered and broadcast: a resume will not name it
    st = client.get("/api/state").json()
    assert st["scores"] == {"Иван": won, "Пётр": 0} and st["needs"]["Иван"] == 71 - won
    assert 3 not in st["on_table"] and st["to_play"] == "Иван"
    assert st["last_verdict"]["seq"] == 1 and st["history"][0]["call_text"] == CALL
    assert all(c["title"] for c in st["last_verdict"]["clauses"])  # the clause titles, in Russian


@pytest.mark.parametrize(
    "body, expected",
    [
        ({"call": CALL, "outcome": {"events": [{"type": "boom"}]}}, "исход"),
        ({"call": CALL}, "исход"),
        ({"call": 5, "outcome": AS_CALLED}, "заказ"),
        ({"call": "тройку в првый угол", "outcome": AS_CALLED}, "опечатк"),
        ({"call": None, "outcome": {"events": [], "fouls": ["щ"]}}, "исход"),
        ({"call": None, "outcome": "биток в никуда"}, "исход"),
    ],
)
def test_bad_input_gets_422_with_a_russian_message_and_nothing_is_recorded(served, body, expected):
    client, db, mid = served
    r = client.post("/api/strokes", json=body, headers=AUTH)
    assert r.status_code == 422, r.text
    message = r.json()["error"]
    assert expected in message
    assert not LATIN_OUTSIDE_QUOTES.search(message), message
    assert _stored(db, mid) == [] and client.get("/api/state").json()["seq"] == 0


def test_a_refused_typed_outcome_is_quoted_from_the_markers_text_on_the_pad(served):
    # the pad's 422 is the same error play shows: the item as typed, not the engine's
    # «событие 2, …»
    client, db, mid = served
    r = client.post(
        "/api/strokes", json={"call": CALL, "outcome": "биток 3, 3 в правый угол"}, headers=AUTH
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("исход, столбец 10, «3 в правый угол»: ")
    assert "событие" not in r.json()["error"] and _stored(db, mid) == []


@pytest.mark.parametrize(
    "raw", [b"{not json", b"[1, 2]", b"\xff\xfe", b"{" + b'"a":' * 40000 + b"}"]
)
def test_a_body_that_is_no_json_object_gets_422(served, raw):
    client, db, mid = served
    r = client.post(
        "/api/strokes", content=raw, headers={**AUTH, "Content-Type": "application/json"}
    )
    assert r.status_code == 422
    assert re.search("[а-я]", r.json()["error"])
    assert _stored(db, mid) == []


def test_the_outcome_may_be_typed_in_the_notation_as_in_play(served):
    client, _, _ = served
    r = client.post("/api/strokes", json={"call": None, "outcome": "биток 6"}, headers=AUTH)
    assert r.status_code == 200, r.text
    assert r.json()["call_status"] == "none"


def test_the_standing_call_is_shown_as_accepted_or_not_and_a_stroke_takes_it(served):
    client, db, mid = served
    r = client.post("/api/call", json={"call": "тройку в правый угол"}, headers=AUTH)
    assert r.status_code == 200
    sc = client.get("/api/state").json()["standing_call"]
    assert sc["status"] == "refused" and sc["line"].startswith("заказ не принят: ")
    r = client.post("/api/call", json={"call": CALL}, headers=AUTH)
    sc = client.get("/api/state").json()["standing_call"]
    assert sc["status"] == "accepted" and sc["line"] == "заказ принят: " + sc["canonical"]
    r = client.post(
        "/api/strokes", json={"outcome": AS_CALLED}, headers=AUTH
    )  # no "call": the standing one
    assert r.status_code == 200 and r.json()["fulfilled"] is True
    assert _stored(db, mid)[0].record.call_text == CALL
    assert client.get("/api/state").json()["standing_call"] is None


def test_a_typo_in_the_call_is_not_made_the_standing_call(served):
    client, _, _ = served
    r = client.post("/api/call", json={"call": "тройку в првый угол"}, headers=AUTH)
    assert r.status_code == 422 and "опечатк" in r.json()["error"]
    assert client.get("/api/state").json()["standing_call"] is None


def test_undo_and_redo_move_the_store_and_the_board(served):
    client, db, mid = served
    client.post("/api/strokes", json={"call": CALL, "outcome": AS_CALLED}, headers=AUTH)
    assert client.post("/api/undo", headers=AUTH).json() == {"seq": 1}
    st = client.get("/api/state").json()
    assert (
        st["scores"]["Иван"] == 0
        and st["can_redo"]
        and not st["can_undo"]
        and st["last_verdict"] is None
    )
    assert _stored(db, mid) == []
    assert client.post("/api/undo", headers=AUTH).json() == {"seq": None}
    assert client.post("/api/redo", headers=AUTH).json() == {"seq": 1}
    assert client.get("/api/state").json()["scores"]["Иван"] > 0 and len(_stored(db, mid)) == 1


def test_new_game_starts_a_match_with_the_same_players_and_keeps_the_old_one(served):
    client, db, mid = served
    client.post("/api/strokes", json={"call": CALL, "outcome": AS_CALLED}, headers=AUTH)
    new = client.post("/api/new", headers=AUTH).json()["match"]
    assert new != mid
    st = client.get("/api/state").json()
    assert st["match"] == new and st["seq"] == 0 and st["players"] == ["Иван", "Пётр"]
    assert len(_stored(db, mid)) == 1


def test_pages_are_russian_by_default_and_carry_no_outside_asset(served):
    client, _, _ = served
    for path in ("/", "/pad"):
        html = client.get(path).text
        assert 'lang="ru"' in html
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), path  # no CDN
    assert "Табло" in client.get("/").text and "Записать удар" in client.get("/pad").text
    for asset in ("/static/board.css", "/static/board.js", "/static/pad.css", "/static/pad.js"):
        assert client.get(asset).status_code == 200, asset


def test_a_player_name_cannot_inject_markup(tmp_path):
    db = tmp_path / "m.db"
    mid = _match(db, players=("</script><script>alert(1)</script>", "Пётр"))
    with TestClient(create_app(db, mid, pin=PIN)) as client:
        html = client.get("/").text
    assert "</script><script>alert(1)" not in html
    assert json.loads(re.search(r'<script id="initial"[^>]*>(.*?)</script>', html, re.S).group(1))[
        "players"
    ][0].startswith("</script>")


def test_english_with_lang_en(tmp_path):
    db = tmp_path / "m.db"
    mid = _match(db)
    with TestClient(create_app(db, mid, pin=PIN, lang="en")) as client:
        assert "Scoreboard" in client.get("/").text
        r = client.post(
            "/api/strokes",
            json={"call": CALL, "outcome": {"events": [{"type": "boom"}]}},
            headers=AUTH,
        )
        assert r.status_code == 422 and r.json()["error"].startswith("outcome: ")


def test_the_route_picture_of_a_call_is_served_as_svg_and_a_refused_one_says_why(served):
    client, _, _ = served
    r = client.get("/api/diagram.svg", params={"call": CALL})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<svg") and 'data-ok="false"' not in r.text
    r = client.get("/api/diagram.svg", params={"call": "тройку в угол"})  # refused: which corner
    assert r.status_code == 200 and 'data-ok="false"' in r.text
    assert client.get("/api/diagram.svg").status_code == 422  # no call given
    assert 'id="diagram"' in client.get("/").text  # the scoreboard shows it


def test_a_match_started_in_play_continues_through_the_api_and_back(tmp_path):
    db = tmp_path / "m.db"
    cmd = [sys.executable, "-m", "pyramid_referee"]
    out = subprocess.run(
        cmd + ["play", "--db", str(db), "--players", "Иван", "Пётр", "--json"],
        input=f"{CALL} | биток 3, 3 в правый дальний угол\n",
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    with TestClient(create_app(db, 1, pin=PIN)) as client:
        st = client.get("/api/state").json()
        assert st["seq"] == 1 and st["scores"]["Иван"] > 0  # play's stroke is on the board
        r = client.post(
            "/api/strokes",
            json={
                "call": "пятого чисто в левую середину",
                "outcome": {"events": [], "route_ok": False},
            },
            headers=AUTH,
        )
        assert r.status_code == 200, r.text
    out = subprocess.run(
        cmd + ["play", "--db", str(db), "--match", "1", "--json"],
        input="счёт\n",
        capture_output=True,
        text=True,
    )
    start = json.loads(out.stdout.splitlines()[0])
    assert (
        start["seq"] == 2 and start["unshown"] == []
    )  # the pad's stroke, seen by play; nothing unshown


def test_a_stroke_entered_by_another_program_reaches_the_board_within_a_second(served):
    import time

    client, db, mid = served
    with Store(db, create=False) as store:  # `play` in another terminal, on the same match
        Session(store, mid, lang="ru").enter(CALL, json.dumps(AS_CALLED))
    deadline = time.monotonic() + 1.5
    while client.get("/api/state").json()["seq"] != 1:
        assert time.monotonic() < deadline, "the board never saw the other program's stroke"
        time.sleep(0.05)
    r = client.post("/api/strokes", json={"call": None, "outcome": "биток 6"}, headers=AUTH)
    assert r.status_code == 200 and r.json()["seq"] == 2  # and the pad goes on after it


def test_a_stroke_stored_but_never_shown_is_named_when_the_server_starts(tmp_path):
    db = tmp_path / "m.db"
    mid = _match(db)
    with Store(db) as store:  # committed, then a kill before the screen: never marked shown
        Session(store, mid, lang="ru").enter(CALL, json.dumps(AS_CALLED))
    with TestClient(create_app(db, mid, pin=PIN)) as client:
        notices = client.get("/api/state").json()["notices"]
    assert len(notices) == 1 and notices[0].startswith("удар 1 записан до остановки")
    with Store(db, create=False) as store:
        assert store.unshown(mid) == []


def test_the_end_of_a_game_is_said_on_the_board_with_the_winner(tmp_path):
    db = tmp_path / "m.db"
    with Store(db) as store:  # picked up from a score sheet: one ball left, Иван needs it
        mid = Session.create(
            store,
            ["Иван", "Пётр"],
            None,
            {"scores": {"Иван": 70, "Пётр": 49}, "on_table": [1], "to_play": "Иван"},
            lang="ru",
        ).id
    with TestClient(create_app(db, mid, pin=PIN)) as client:
        assert client.get("/api/state").json()["game_over_line"] == ""
        r = client.post(
            "/api/strokes",
            json={
                "call": "чисто в правый дальний угол",
                "outcome": {
                    "events": [{"type": "pocket", "ball": 1, "pocket": FAR_RIGHT}],
                    "route_ok": True,
                },
            },
            headers=AUTH,
        )
        assert r.status_code == 200, r.text
        st = client.get("/api/state").json()
        assert st["result"] == {"winner": "Иван"} and st["decided"]
        assert re.fullmatch(r"партия окончена: победитель — Иван, \d+ : 49", st["game_over_line"])
        assert st["match_line"].startswith("матч окончен")
        r = client.post("/api/strokes", json={"call": None, "outcome": "биток 6"}, headers=AUTH)
        assert r.status_code == 422 and "матч окончен" in r.json()["error"]


def test_a_finished_game_stays_on_the_board_until_the_next_one_starts(tmp_path):
    db = tmp_path / "m.db"
    with Store(db) as store:
        mid = Session.create(
            store,
            ["Иван", "Пётр"],
            None,
            {"scores": {"Иван": 70, "Пётр": 49}, "on_table": [1], "to_play": "Иван"},
            lang="ru",
            to_wins=2,
        ).id
    with TestClient(create_app(db, mid, pin=PIN)) as client:
        client.post(
            "/api/strokes",
            json={
                "call": "чисто в правый дальний угол",
                "outcome": {
                    "events": [{"type": "pocket", "ball": 1, "pocket": FAR_RIGHT}],
                    "route_ok": True,
                },
            },
            headers=AUTH,
        )
        st = client.get("/api/state").json()
        assert st["board_on_table"] == [] and len(st["history"]) == 1  # game 1 as it ended
        assert (
            st["on_table"] == list(range(1, 16)) and st["to_play"] == "Пётр"
        )  # the pad's next stroke: game 2
        assert "следующую разбивает Пётр" in st["next_game_note"] and not st["decided"]
        client.post("/api/strokes", json={"call": None, "outcome": "биток 6"}, headers=AUTH)
        st = client.get("/api/state").json()
        assert (
            len(st["history"]) == 1 and st["history"][0]["seq"] == 2 and st["game_over_line"] == ""
        )
        assert [g["number"] for g in st["games"]] == [1, 2]


def test_a_locked_database_is_503_not_the_markers_fault(served):
    import sqlite3

    client, db, mid = served
    other = sqlite3.connect(db, timeout=0)
    other.execute("BEGIN EXCLUSIVE")  # another program holds the database
    try:
        r = client.post("/api/strokes", json={"call": CALL, "outcome": AS_CALLED}, headers=AUTH)
    finally:
        other.rollback()
        other.close()
    assert r.status_code == 503 and re.search("[а-я]", r.json()["error"])
    assert client.get("/api/state").json()["seq"] == 0  # taken back in memory too
    r = client.post("/api/strokes", json={"call": CALL, "outcome": AS_CALLED}, headers=AUTH)
    assert r.status_code == 200 and r.json()["seq"] == 1


# -- the standing call lives in the store ---------------------------------------------------------


def test_the_standing_call_survives_a_restart_of_the_server(tmp_path):
    db = tmp_path / "m.db"
    mid = _match(db)
    with TestClient(create_app(db, mid, pin=PIN)) as client:
        assert client.post("/api/call", json={"call": CALL}, headers=AUTH).status_code == 200
    with TestClient(
        create_app(db, mid, pin=PIN)
    ) as client:  # the server restarted on the same store
        sc = client.get("/api/state").json()["standing_call"]
        assert sc["status"] == "accepted" and sc["text"] == CALL and sc["source"] == "pad"
        r = client.post("/api/strokes", json={"outcome": AS_CALLED}, headers=AUTH)
        assert r.status_code == 200 and r.json()["fulfilled"] is True
        assert client.get("/api/state").json()["standing_call"] is None
    assert _stored(db, mid)[0].record.call_text == CALL


def test_a_call_heard_by_another_program_reaches_the_board_within_a_second(served):
    client, db, mid = served
    with Store(db, create=False) as store:  # `listen --pad` in another process, on the same match
        other = Session(store, mid, lang="ru")
        other.set_standing(other.read_call(CALL), source="listen", strike=4.25)
    import time

    deadline = time.monotonic() + 1.5  # watch() looks every 0.5 s (in the server's own thread)
    while (sc := client.get("/api/state").json()["standing_call"]) is None:
        assert time.monotonic() < deadline, (
            "the board never saw the call heard by the other program"
        )
        time.sleep(0.05)
    assert sc["status"] == "accepted" and sc["source"] == "listen" and sc["strike"] == 4.25
    assert sc["heard_line"] == "услышан голосовым судьёй, удар на 4.25 с"


# -- an empty pad is no outcome -------------------------------------------------------------------

PLAY_EMPTY = (
    "исход не указан (пустой исход — «ничего» или «-»)"  # play's refusal of an empty outcome
)


@pytest.mark.parametrize(
    "outcome",
    [
        {},
        {"events": [], "fouls": []},
        {"events": [], "fouls": [], "from_hand": None, "warned": False},
        {"events": [], "route_ok": None},
        "",
        "   ",
    ],
)
def test_an_empty_outcome_is_refused_as_play_refuses_it_and_nothing_is_recorded(served, outcome):
    client, db, mid = served
    client.post("/api/call", json={"call": CALL}, headers=AUTH)
    before = client.get("/api/state").json()
    r = client.post("/api/strokes", json={"outcome": outcome}, headers=AUTH)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == PLAY_EMPTY
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pyramid_referee",
            "play",
            "--db",
            str(db.parent / "p.db"),
            "--players",
            "Иван",
            "Пётр",
        ],
        input=f"{CALL} | \n",
        capture_output=True,
        text=True,
    )
    assert PLAY_EMPTY in out.stdout + out.stderr  # the same words as play's
    after = client.get("/api/state").json()
    assert _stored(db, mid) == [] and after == before  # the standing call is kept, nothing moved


def test_a_default_never_becomes_a_stroke_but_an_explicit_miss_or_nothing_does(served):
    client, db, mid = served
    r = client.post(
        "/api/strokes", json={"call": None, "outcome": {"events": [], "fouls": []}}, headers=AUTH
    )
    assert r.status_code == 422 and _stored(db, mid) == []
    r = client.post(
        "/api/strokes",
        json={"call": None, "outcome": {"events": [], "fouls": [], "route_ok": False}},
        headers=AUTH,
    )  # «мимо», tapped: said by the marker
    assert r.status_code == 200, r.text
    r = client.post(
        "/api/strokes", json={"call": None, "outcome": "ничего"}, headers=AUTH
    )  # as in play
    assert r.status_code == 200, r.text
    assert [row.seq for row in _stored(db, mid)] == [1, 2]


def test_docs_serve_md_names_the_pads_buttons_as_the_pad_does(served):
    from html import unescape
    from pathlib import Path

    client, _, _ = served
    html = client.get("/pad").text
    buttons = {unescape(b).strip() for b in re.findall(r"<button[^>]*>([^<]+)</button>", html)}
    doc = (Path(__file__).resolve().parents[1] / "docs" / "serve.md").read_text(encoding="utf-8")
    section = doc[doc.index("## ПИН-код") : doc.index("### Голосовой судья")]
    named = set(
        re.findall(r"«([А-ЯЁ][^»]*)»", section)
    )  # a capitalised «…» there is a button's name
    assert {"Записать удар", "Новый матч", "Сменить ПИН-код", "Очистить"} <= named
    assert named <= buttons, named - buttons
    for word in ("по заказу", "мимо", "за борт"):  # and the ones written small
        assert f"«{word}»" in section and word in buttons, word
    assert "Новая партия" not in doc


def test_the_favicon_is_served_not_a_404(served):
    client, _, _ = served
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg")
    for path in ("/", "/pad"):
        assert 'rel="icon" href="/favicon.ico"' in client.get(path).text


# --- Q13: a missed strike never costs the call; Q14: the marker takes back a false strike --------

NOT_HEARD = "удар не услышан — заказ взят по вводу исхода"


def _heard(db, mid, reading=None, strike=None):
    """What `listen --pad` writes (another process, the same match): the call heard, and the
    strike's time when one was heard."""
    with Store(db, create=False) as store:
        other = Session(store, mid, lang="ru")
        other.set_standing(reading or other.read_call(CALL), source="listen", strike=strike)


def _late(db, mid, strike):
    from pyramid_referee.match.session import CallReading

    _heard(
        db,
        mid,
        CallReading(
            text=CALL,
            status="refused",
            refusal={
                "code": "late",
                "message": "заказ недействителен: его ещё договаривали в момент удара (C10)",
                "span": [0, len(CALL)],
                "hint": None,
            },
        ),
        strike,
    )


def _wait_for(client, check):
    import time

    deadline = time.monotonic() + 2.0  # watch() looks every 0.5 s
    while not check(st := client.get("/api/state").json()):
        assert time.monotonic() < deadline, st["standing_call"]
        time.sleep(0.05)
    return st


def test_Q13_an_outcome_entered_on_the_pad_with_no_strike_heard_takes_the_heard_call_marked(
    served,
):
    client, db, mid = served
    _heard(db, mid)  # the call heard, no strike heard after it
    sc = _wait_for(client, lambda st: st["standing_call"] is not None)["standing_call"]
    assert sc["source"] == "listen" and sc["strike"] is None and sc["strike_heard"] is False
    assert sc["can_take_back"] is False  # no strike to take back
    r = client.post("/api/strokes", json={"outcome": AS_CALLED}, headers=AUTH)
    assert r.status_code == 200, r.text
    assert r.json()["fulfilled"] is True  # the player keeps his call
    [row] = _stored(db, mid)
    assert row.record.call_status == "accepted" and row.record.strike["heard"] is False
    assert row.record.strike["note"] == NOT_HEARD
    st = client.get("/api/state").json()
    assert st["history"][0]["strike_marks"] == [NOT_HEARD] and st["standing_call"] is None


def test_Q14_the_pad_takes_back_the_strike_that_voided_the_call_and_the_call_counts_again(served):
    client, db, mid = served
    _late(db, mid, 2.25)
    sc = _wait_for(client, lambda st: st["standing_call"] is not None)["standing_call"]
    assert sc["can_take_back"] is True and sc["status"] == "refused" and sc["strike"] == 2.25
    assert (
        client.post("/api/strike/take-back", json={}).status_code == 401
    )  # the PIN, like every write
    r = client.post("/api/strike/take-back", json={"strike": 2.25}, headers=AUTH)
    assert r.status_code == 200, r.text
    assert r.json()["taken_back"] == 2.25
    sc = client.get("/api/state").json()["standing_call"]
    assert (sc["status"], sc["strike"], sc["can_take_back"], sc["taken_back"]) == (
        "accepted",
        None,
        False,
        [2.25],
    )
    r = client.post("/api/strokes", json={"outcome": AS_CALLED}, headers=AUTH)
    assert r.status_code == 200 and r.json()["fulfilled"] is True
    [row] = _stored(db, mid)
    assert row.record.strike["taken_back"] == [2.25] and row.record.call_status == "accepted"
    assert client.get("/api/state").json()["history"][0]["strike_marks"] == [
        "удар 2.25 с снят маркёром",
        NOT_HEARD,
    ]


@pytest.mark.parametrize(
    "setup, body",
    [
        ("none", {}),
        ("typed", {}),
        ("heard", {}),
        ("late", {"strike": 9.0}),
        ("late", {"strike": "2.25"}),
    ],
)
def test_Q14_a_take_back_with_no_strike_that_voided_the_call_is_422_and_changes_nothing(
    served, setup, body
):
    client, db, mid = served
    if setup == "typed":
        client.post("/api/call", json={"call": CALL}, headers=AUTH)
    elif setup == "heard":
        _heard(db, mid, strike=3.0)  # accepted: the strike voided nothing
    elif setup == "late":
        _late(db, mid, 2.25)
    with Store(db, create=False) as store:
        before = store.standing(mid)
    r = client.post("/api/strike/take-back", json=body, headers=AUTH)
    assert r.status_code == 422 and r.json()["error"], r.text
    with Store(db, create=False) as store:
        assert store.standing(mid) == before
