"""The pad's PIN cannot be guessed: a client giving wrong PINs is held back (429 with Retry-After,
a delay doubling after five wrong ones), the log and the pad say that someone is guessing, and the
marker changes the PIN from the pad without a restart.

Time is the guard's clock, given here as ``FakeClock`` (a test double): no assertion depends on
how fast this machine is; what is counted is which tries the server looked at and which it refused.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from pyramid_referee.i18n import set_lang  # noqa: E402
from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402
from pyramid_referee.web.app import create_app  # noqa: E402
from pyramid_referee.web.pin import FREE_TRIES, MAX_DELAY, PinGuard  # noqa: E402

PIN = "4321"
CALL = "тройку чисто в правый дальний угол"


class FakeClock:
    """A test double for the guard's monotonic clock: it moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def _russian():
    set_lang("ru")
    yield
    set_lang("ru")


@pytest.fixture
def guarded(tmp_path):
    db = tmp_path / "m.db"
    with Store(db) as store:
        mid = Session.create(store, ["Иван", "Пётр"], lang="ru").id
    clock, log = FakeClock(), []
    with TestClient(create_app(db, mid, pin=PIN, clock=clock, log=log.append)) as client:
        yield client, clock, log


def _try(client, pin: str, path: str = "/api/pin", body: dict | None = None):
    return client.post(path, json=body or {}, headers={"Authorization": f"Bearer {pin}"})


def test_five_wrong_pins_are_looked_at_then_the_guesser_is_held_back_with_retry_after(guarded):
    client, clock, _ = guarded
    answers = [_try(client, f"{n:06d}") for n in range(300)]  # as fast as the loopback answers
    looked_at = [r for r in answers if r.status_code == 401]
    held = [r for r in answers if r.status_code == 429]
    assert len(looked_at) == FREE_TRIES and len(held) == 300 - FREE_TRIES
    assert looked_at[-1].headers["Retry-After"] == "1"  # the fifth wrong PIN starts the hold
    assert "следующая попытка через 1 с" in looked_at[-1].json()["error"]
    assert all(r.headers["Retry-After"] == "1" for r in held)
    assert (
        held[0].json()["error"]
        == "слишком много неверных ПИН-кодов с этого устройства: попробуйте снова через 1 с"
    )


def test_the_delay_doubles_after_each_further_wrong_pin_up_to_a_minute(guarded):
    client, clock, _ = guarded
    for _ in range(FREE_TRIES):
        r = _try(client, "0000")
    waits = [int(r.headers["Retry-After"])]
    for _ in range(10):
        assert (
            _try(client, "0000").status_code == 429
        )  # tried again at once: refused, not looked at
        clock.advance(waits[-1])
        r = _try(client, "0000")  # the hold is over: looked at, wrong, a longer hold
        assert r.status_code == 401
        waits.append(int(r.headers["Retry-After"]))
    assert waits[:7] == [1, 2, 4, 8, 16, 32, 60] and set(waits[7:]) == {int(MAX_DELAY)}


def test_a_guesser_who_waits_as_told_gets_few_tries_an_hour(guarded):
    # the best a guesser can do: try again the moment Retry-After allows, and hammer in between
    client, clock, _ = guarded
    start, looked_at = clock.now, 0
    while clock.now - start < 3600:
        r = _try(client, "9999")
        if r.status_code == 401:
            looked_at += 1
        wait = int(r.headers.get("Retry-After", "0"))
        if wait:
            assert (
                _try(client, "9998").status_code == 429
            )  # hammering in the hold is never looked at
        clock.advance(max(wait, 0.1))
    assert looked_at <= 70  # 5 free, 1+2+…+32 s, then one a minute; 10^6 PINs would take years
    assert looked_at >= FREE_TRIES


def test_the_right_pin_is_not_checked_during_the_hold_and_clears_the_count_after_it(guarded):
    client, clock, _ = guarded
    for _ in range(FREE_TRIES):
        _try(client, "0000")
    r = _try(client, PIN)
    assert r.status_code == 429  # a guess is never checked early, not even the right one
    clock.advance(1)
    assert _try(client, PIN).status_code == 204
    assert [_try(client, "0000").status_code for _ in range(FREE_TRIES)] == [
        401
    ] * FREE_TRIES  # afresh


def test_a_stroke_with_the_right_pin_waits_out_the_hold_too_and_nothing_is_recorded(guarded):
    client, clock, _ = guarded
    for _ in range(FREE_TRIES):
        _try(client, "0000", "/api/strokes", {"call": CALL, "outcome": "ничего"})
    r = _try(client, PIN, "/api/strokes", {"call": None, "outcome": "ничего"})
    assert r.status_code == 429 and client.get("/api/state").json()["seq"] == 0


def test_someone_guessing_is_said_in_the_log_and_on_the_pad(guarded):
    client, clock, log = guarded
    for _ in range(FREE_TRIES - 1):
        _try(client, "0000")
    assert (
        log == [] and client.get("/api/state").json()["pin_alert"] is None
    )  # a typo or two: nothing said
    _try(client, "0000")
    assert log == [
        "кто-то с адреса testclient подбирает ПИН-код: 5 неверных ПИН-кодов; "
        "следующая попытка — через 1 с"
    ]
    alert = client.get("/api/state").json()["pin_alert"]
    assert alert["wrong"] == 5 and alert["clients"] == ["testclient"]
    assert alert["line"].startswith(
        "кто-то подбирает ПИН-код: 5 неверных ПИН-кодов с адреса testclient"
    )


def test_the_marker_changes_the_pin_from_the_pad_without_a_restart(guarded):
    client, clock, log = guarded
    for _ in range(FREE_TRIES):
        _try(client, "0000")
    clock.advance(1)
    assert (
        client.post("/api/pin/change", json={"pin": "5555"}).status_code == 401
    )  # the current PIN is needed
    r = _try(client, PIN, "/api/pin/change", {"pin": "12"})
    assert (
        r.status_code == 422
        and r.json()["error"] == "ПИН-код — от 4 до 64 букв, цифр, «-» или «_»"
    )
    r = _try(client, PIN, "/api/pin/change", {"pin": PIN})
    assert r.status_code == 422 and "совпадает" in r.json()["error"]
    assert _try(client, PIN).status_code == 204  # refusals changed nothing
    assert _try(client, PIN, "/api/pin/change", {"pin": "a-new_pin"}).status_code == 204
    assert _try(client, PIN).status_code == 401  # the old PIN is no longer the PIN
    assert _try(client, "a-new_pin").status_code == 204
    assert client.get("/api/state").json()["pin_alert"] is None  # the alert is answered
    assert (
        log[-1] == "ПИН-код изменён с пульта testclient; пульты со старым ПИН-кодом спросят новый"
    )


def test_each_client_has_its_own_count_and_a_quiet_one_is_forgotten():
    clock = FakeClock()
    guard = PinGuard(PIN, clock=clock)
    for _ in range(FREE_TRIES):
        guard.check("10.0.0.66", "0000")
    assert guard.check("10.0.0.66", PIN).kind == "held"
    assert (
        guard.check("10.0.0.5", PIN).kind == "ok"
    )  # the marker's tablet is not held back by the guesser
    clock.advance(16 * 60)  # quiet for longer than FORGET_AFTER
    assert [guard.check("10.0.0.66", "0000").kind for _ in range(FREE_TRIES - 1)] == ["wrong"] * (
        FREE_TRIES - 1
    )
    assert guard.check("10.0.0.66", "0000").retry_after == 1
