"""The teaching page of ``serve`` (``/learn``) and its read-only API, through Starlette's
TestClient.

A typed call comes back read, phrased right and drawn; a drill is the same for the same seed,
and its answer is graded by drill.py; bad parameters are 422 in Russian; nothing needs the PIN
and nothing reaches the match's store.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from pyramid_referee.i18n import set_lang  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402
from pyramid_referee.teach import drill  # noqa: E402
from pyramid_referee.web.app import create_app  # noqa: E402

PIN = "4321"
QUOTED = re.compile(r"«[^«»]*»")
LATIN = re.compile(r"[A-Za-z]{2,}")
DRILL = {"seed": 7, "level": 1, "n": 1}


@pytest.fixture(autouse=True)
def _russian():
    set_lang("ru")
    yield
    set_lang("ru")


def _client(tmp_path, lang="ru"):
    db = tmp_path / "m.db"
    with Store(db) as store:
        mid = Session.create(store, ["Иван", "Пётр"], lang="ru").id
    return TestClient(create_app(db, mid, pin=PIN, lang=lang)), db, mid


@pytest.fixture
def client(tmp_path):
    c, _, _ = _client(tmp_path)
    with c:
        yield c


def test_a_typed_call_comes_back_read_phrased_right_and_drawn(client):
    r = client.get("/api/learn", params={"call": "тройку от борта в правый дальний угол"})
    assert r.status_code == 200
    d = r.json()
    assert d["ok"] is True and d["canonical"] == "тройку от борта в правый дальний угол"
    assert d["call"]["route"] == [["cue", 3], [3, "cushion"], [3, "pocket"]]
    assert any(line.startswith("Заказан: шар 3") for line in d["reading"])
    assert d["svg"].startswith("<svg") and 'data-ok="true"' in d["svg"]
    assert d["svg"].count('class="contact"') == 3  # one arrow a contact
    assert r.headers["cache-control"] == "no-store"


def test_a_refused_call_is_an_answer_with_its_reason_and_how_to_say_it(client):
    d = client.get("/api/learn", params={"call": "тройку в угол"}).json()
    assert d["ok"] is False and d["canonical"] is None
    assert d["error"]["code"] == "pocket_not_definite"
    assert d["reading"][0].startswith("Не принят: луза названа неточно")
    assert d["fix"] == "Как сказать: скажите «в левый угол» или «в правый угол»"
    assert 'data-ok="false"' in d["svg"]


def test_a_call_with_markup_stays_text_in_the_picture(client):
    d = client.get("/api/learn", params={"call": "<script>alert(1)</script> тройку & <b>"}).json()
    assert d["ok"] is False and d["error"]["code"] == "unknown_word"
    assert "<script" not in d["svg"] and "<b>" not in d["svg"]
    assert (
        d["text"] == "<script>alert(1)</script> тройку & <b>"
    )  # JSON carries it; the page sets it as text


def test_the_teaching_api_speaks_english_with_lang_en(tmp_path):
    c, _, _ = _client(tmp_path, lang="en")
    with c:
        d = c.get("/api/learn", params={"call": "тройку в угол"}).json()
        assert d["fix"].startswith("How to say it:")
        ex = c.get("/api/drill", params=DRILL).json()
        assert ex["prompt"][0].startswith("Exercise 1 (level 1)")
        bad = c.get("/api/drill", params={"seed": "x"}).json()["error"]
        assert bad == "«seed» must be a whole number from 0 to 1000000000"
        assert "Learning to call" in c.get("/learn").text


def test_the_same_seed_gives_the_same_drill_and_the_next_one_another(client):
    first = client.get("/api/drill", params=DRILL).json()
    again = client.get("/api/drill", params=DRILL).json()
    second = client.get("/api/drill", params={**DRILL, "n": 2}).json()
    assert first == again
    assert second["index"] == 2 and second["shot"] != first["shot"]
    expected = drill.generate(7, 1, 1)[0]
    assert first["answer"] == expected.canonical == "пятёрку чисто в левый дальний угол"
    assert first["prompt"][-1] == "Закажите этот удар."
    assert first["hint"].startswith("шар: пятёрка")


def test_a_drills_picture_shows_the_shot_not_its_call(client):
    ex = client.get("/api/drill", params=DRILL).json()
    assert 'data-ok="true"' in ex["svg"] and ex["svg"].count('class="contact"') == 2
    assert ex["answer"] not in ex["svg"]
    assert "Упражнение 1" in ex["svg"]


def test_a_right_drill_answer_is_right_and_a_wrong_one_says_what_is_wrong(client):
    right = client.get(
        "/api/drill/check", params={**DRILL, "answer": "пятёрку чисто в левый дальний угол"}
    ).json()
    assert right["correct"] is True and right["differences"] == []
    assert right["canonical"] == "пятёрку чисто в левый дальний угол"
    wrong = client.get(
        "/api/drill/check", params={**DRILL, "answer": "пятёрку чисто в правый дальний угол"}
    ).json()
    assert (
        wrong["correct"] is False and wrong["canonical"] is None
    )  # the answer is the «ответ» button's
    assert [d["kind"] for d in wrong["differences"]] == ["pocket_side"]
    assert wrong["differences"][0]["message"] == "луза: сказана правая, а нужна левая"
    refused = client.get("/api/drill/check", params={**DRILL, "answer": "пятёрку в угол"}).json()
    assert refused["correct"] is False and refused["differences"][0]["kind"] == "refused"


@pytest.mark.parametrize(
    ("path", "params", "error"),
    [
        ("/api/learn", {}, "укажите заказ: «?call=…» (не длиннее 300 знаков)"),
        ("/api/learn", {"call": "   "}, "укажите заказ: «?call=…» (не длиннее 300 знаков)"),
        ("/api/learn", {"call": "тройку " * 60}, "заказ слишком длинный: не больше 300 знаков"),
        ("/api/drill", {}, "укажите «seed»: целое число от 0 до 1000000000"),
        ("/api/drill", {"seed": "-1"}, "«seed» должно быть целым числом от 0 до 1000000000"),
        ("/api/drill", {"seed": "1e3"}, "«seed» должно быть целым числом от 0 до 1000000000"),
        ("/api/drill", {"seed": "٣"}, "«seed» должно быть целым числом от 0 до 1000000000"),
        ("/api/drill", {"seed": 1, "level": 4}, "«level» должно быть целым числом от 1 до 3"),
        ("/api/drill", {"seed": 1, "n": 101}, "«n» должно быть целым числом от 1 до 100"),
        (
            "/api/drill",
            {"seed": 1, "mode": "../../etc/passwd"},
            "режим — «clean» или «ball_and_pocket»",
        ),
        ("/api/drill/check", {"seed": 1}, "укажите заказ: «?answer=…» (не длиннее 300 знаков)"),
        ("/learn", {"seed": "abc"}, "«seed» должно быть целым числом от 0 до 1000000000"),
    ],
)
def test_bad_parameters_are_422_with_a_russian_error(client, path, params, error):
    r = client.get(path, params=params)
    assert r.status_code == 422
    message = r.json()["error"]
    assert message == error
    assert not LATIN.findall(QUOTED.sub("", message))


def test_learning_needs_no_pin_and_changes_no_stored_match(tmp_path):
    c, db, mid = _client(tmp_path)
    with c:
        before = c.get("/api/state").json()
        for path, params in (
            ("/api/learn", {"call": "тройку чисто в правый дальний угол"}),
            ("/api/drill", DRILL),
            ("/api/drill/check", {**DRILL, "answer": "пятёрку"}),
            ("/learn", {}),
        ):
            assert c.get(path, params=params).status_code == 200, path
        assert (
            c.post("/api/learn", params={"call": "тройку"}).status_code == 405
        )  # read-only: no POST
        assert c.get("/api/state").json() == before
    with Store(db, create=False) as store:
        assert store.strokes(mid) == []


def test_the_page_is_russian_local_and_starts_on_the_seed_asked_for(client):
    r = client.get("/learn", params={"seed": 42, "level": 2})
    html = r.text
    assert r.status_code == 200 and '<html lang="ru">' in html
    assert "Учимся заказывать" in html and "Правильно сказать" in html and "Подсказка" in html
    assert '"seed": 42' in html and '"level": 2' in html
    assert not re.search(r'(src|href)="(https?:)?//', html)  # no CDN: a club may have no internet
    for asset in ("/static/learn.css", "/static/learn.js"):
        assert asset in html and client.get(asset).status_code == 200


def test_a_page_without_a_seed_gets_a_fresh_one(client):
    seeds = {re.search(r'"seed": (\d+)', client.get("/learn").text).group(1) for _ in range(3)}
    assert len(seeds) > 1


def test_the_scoreboard_and_the_pad_link_to_the_teaching_page(client):
    for path in ("/", "/pad"):
        assert 'href="/learn"' in client.get(path).text, path


def test_the_pages_exercises_are_the_command_lines_for_the_same_seed_and_level(client):
    """``/learn?seed=7&level=2`` repeats ``pyramid-referee drill --seed
    7 --level 2`` (docs/play.md)."""
    cli = drill.generate(7, 2, 10)
    for n in (1, 4, 10):
        ex = client.get("/api/drill", params={"seed": 7, "level": 2, "n": n}).json()
        assert ex["answer"] == cli[n - 1].canonical and ex["shot"] == cli[n - 1].shot.to_json()
