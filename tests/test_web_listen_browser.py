"""The tablet's ears in a real browser: Debian's Chromium, its fake microphone playing a WAV.

Chromium runs with ``--use-fake-ui-for-media-stream --use-fake-device-for-media-stream
--use-file-for-fake-audio-capture=FILE.wav``, so a recorded table plays into the pad's
microphone; the pad's AudioWorklet resamples it to 16 kHz s16le and streams it to a real
``serve`` over ``WS /api/listen``. The strikes the server reports must be those ``strikes FILE
--json`` finds, within 20 ms, on the stream the browser sent (the test records the frames the
page hands to its WebSocket, writes them as FILE.wav and runs ``strikes`` on it). Against the
original recording they must agree after one constant shift (the capture starts at an unknown
point of the file). Chromium's fake capture is driven by a timer: on this loaded machine it was
seen to skip seconds of the file at once (and to repeat its last 10 ms at the end of a
``%noloop`` file), so the check against the original counts the strikes one shift explains.

The pad is opened as a tablet would: under a non-loopback name (``table.local``, mapped to the
loopback by ``--host-resolver-rules``), over ``serve --https`` with the certificate it made
(trusted by its key's hash, ``--ignore-certificate-errors-spki-list``), so the page is a secure
context only because of HTTPS; over plain HTTP under that name the pad gives the https address.

The WAV is made at test time from a recorded strike of the shared sound folder (read in place,
never copied into the repository); skipped where it, Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from web_server import Server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(
        "no chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright for Python is not installed"
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def table_wav(tmp_path_factory) -> Path:
    """Three recorded strikes on a quiet table, 4.2 s apart, after 1 s of room noise, and 3 s of
    room noise after them."""
    import table_mix

    try:
        x, _ = table_mix.strike_sample()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    rng = np.random.default_rng(7)
    noise = lambda s: (1e-3 * rng.standard_normal(int(s * 16000))).astype(np.float32)  # noqa: E731
    parts = [noise(1.0)]
    for _ in range(3):
        parts += [x[:16000], noise(3.2)]
    parts.append(noise(3.0))
    path = tmp_path_factory.mktemp("ears") / "table.wav"
    table_mix.write_wav(path, np.concatenate(parts))
    return path


def _strikes_cli(path: Path) -> list[float]:
    out = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "strikes", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["strikes"]


# Test-only: keep every binary frame the page sends (the production script is not changed).
RECORD_SENT = """(() => { const send = WebSocket.prototype.send; window.__sent = [];
  WebSocket.prototype.send = function (d) {
    if (d instanceof ArrayBuffer) window.__sent.push(Array.from(new Int16Array(d)));
    return send.call(this, d); }; })()"""


def _chromium(p, wav: Path | None, spki: str | None = None):
    args = [
        "--no-sandbox",
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        "--autoplay-policy=no-user-gesture-required",
        "--host-resolver-rules=MAP table.local 127.0.0.1",
    ]
    if wav is not None:
        args.append(f"--use-file-for-fake-audio-capture={wav}%noloop")
    if spki is not None:
        args.append(f"--ignore-certificate-errors-spki-list={spki}")
    return p.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)


def _https_server(tmp_path, *args) -> tuple[Server, str]:
    tls = tmp_path / "tls"
    srv = Server(
        tmp_path / "m.db",
        "--players",
        "Иван",
        "Пётр",
        "--https",
        "--cert-name",
        "table.local",
        "--model",
        str(tmp_path / "no-model"),
        *args,
        env={"PYRAMID_REFEREE_TLS_DIR": str(tls)},
    )
    spki = next(line.rsplit(" ", 1)[1] for line in srv.lines if "SPKI" in line)
    return srv, spki


def _port(srv: Server) -> int:
    return int(re.search(r":(\d+)$", srv.base).group(1))


@pytest.mark.long  # 29 s, at real time on 2 cores
def test_strikes_streamed_from_the_browser_over_https_under_a_lan_name_are_those_of_the_file(
    tmp_path, table_wav
):
    want = _strikes_cli(table_wav)
    assert len(want) == 3, want
    srv, spki = _https_server(tmp_path)
    try:
        assert srv.base.startswith("https://")
        import hashlib
        import ssl

        served = ssl.PEM_cert_to_DER_cert(ssl.get_server_certificate(("127.0.0.1", _port(srv))))
        printed = next(line.rsplit(" ", 1)[1] for line in srv.lines if "SHA-256" in line)
        assert (
            printed.replace(":", "").lower() == hashlib.sha256(served).hexdigest()
        )  # the fingerprint is the served one
        pad = f"https://table.local:{_port(srv)}/pad#pin={srv.pin}"
        with sync_api.sync_playwright() as p:
            browser = _chromium(p, table_wav, spki)
            page = browser.new_page()
            page.add_init_script(RECORD_SENT)
            page.goto(pad)
            assert page.evaluate("window.isSecureContext") is True  # secure only because of HTTPS
            assert page.locator("#listen-switch").is_visible()
            page.locator("#listen-switch").click()
            page.wait_for_function(
                "document.body.dataset.listen === 'nomodel' || "
                "document.body.dataset.listen === 'on'",
                timeout=15000,
            )
            assert "модель речи не найдена" in page.locator("#listen-line").inner_text()
            try:
                page.wait_for_function(
                    "window.pyramidListen.strikes.filter(s => !s.provisional && "
                    "!s.taken_back).length >= 3 || (window.pyramidListen.sent || 0) >= 50 * 18",
                    timeout=40000,
                )
            except sync_api.TimeoutError:
                pass  # said below, with what the page did receive
            log = page.evaluate("window.pyramidListen")
            sent = np.array(page.evaluate("window.__sent.flat()"), np.int16)
            board = (
                browser.new_page()
            )  # the scoreboard shows that the table listens, and the strike
            board.goto(f"https://table.local:{_port(srv)}/")
            board.wait_for_function("document.body.dataset.listening === 'on'", timeout=10000)
            assert board.locator("#listening").inner_text().startswith("слушает планшет маркёра")
            page.locator("#listen-switch").click()
            browser.close()
    finally:
        srv.stop()
    got = [s["t"] for s in log["strikes"] if not s["provisional"] and not s["taken_back"]]
    streamed = tmp_path / "streamed.wav"  # the test's own copy of what the browser sent
    from scipy.io import wavfile

    wavfile.write(str(streamed), 16000, sent)
    assert len(sent) / 16000 > 8.0, len(sent)
    on_stream = [t for t in _strikes_cli(streamed) if t < len(sent) / 16000 - 0.5]
    assert len(got) == len(on_stream) and all(
        abs(a - b) <= 0.020 for a, b in zip(got, on_stream)
    ), json.dumps({"server": got, "strikes on the stream": on_stream, "log": log})
    shifts = [
        w0 - g0 for g0 in got for w0 in want
    ]  # each pairing of a streamed strike with a file's
    explained = max(
        ((sum(any(abs((w - g) - d) <= 0.020 for w in want) for g in got), d) for d in shifts),
        key=lambda e: (e[0], -abs(e[1])),
    )
    assert got and explained[0] >= 2, json.dumps(
        {"server": got, "file": want}
    )  # one shift, two strikes at least
    assert abs(explained[1]) < 3.0, explained  # the capture and the stream begin within seconds
    assert not log["errors"], log["errors"]


def test_the_pad_over_plain_http_under_a_lan_name_gives_the_https_address_instead_of_a_switch(
    tmp_path,
):
    srv = Server(tmp_path / "m.db", "--players", "Иван", "Пётр")
    try:
        url = f"http://table.local:{_port(srv)}/pad#pin={srv.pin}"
        with sync_api.sync_playwright() as p:
            browser = _chromium(p, None)
            page = browser.new_page()
            page.goto(url)
            page.wait_for_function("document.body.dataset.listen === 'https'")
            line = page.locator("#listen-line").inner_text()
            assert "микрофон доступен только по https" in line
            assert f"https://table.local:{_port(srv)}/pad" in line
            assert not page.locator("#listen-switch").is_visible()
            browser.close()
    finally:
        srv.stop()


def test_a_tablet_that_refuses_the_microphone_says_no_microphone(tmp_path):
    """Chromium without the fake-UI flag and with the permission denied: «нет микрофона»."""
    srv = Server(tmp_path / "m.db", "--players", "Иван", "Пётр")
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=[
                    "--no-sandbox",
                    "--use-fake-device-for-media-stream",
                    "--deny-permission-prompts",
                ],
            )
            page = browser.new_page()
            page.goto(srv.pad_url)
            page.locator("#listen-switch").click()
            page.wait_for_function("document.body.dataset.listen === 'nomic'", timeout=15000)
            assert page.locator("#listen-line").inner_text().startswith("нет микрофона")
            browser.close()
    finally:
        srv.stop()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_when_serve_is_killed_mid_session_the_pad_says_so_reconnects_and_nothing_confirmed_is_lost(
    tmp_path, table_wav
):
    """``serve`` killed (SIGKILL) while the pad listens: the pad says the link is lost and that it
    reconnects; ``serve`` started again on the same port and store, the pad listens again by
    itself, and the stroke committed before the kill is still in the record."""
    port = str(_free_port())
    db = tmp_path / "m.db"
    srv = Server(
        db, "--players", "Иван", "Пётр", "--port", port, "--model", str(tmp_path / "no-model")
    )
    try:
        srv.post(
            "/api/strokes",
            {"call": None, "outcome": {"events": [], "fouls": ["а"], "route_ok": False}},
        )
        with sync_api.sync_playwright() as p:
            browser = _chromium(p, table_wav)
            page = browser.new_page()
            page.goto(srv.pad_url.replace(f":{_port(srv)}/", f":{port}/"))
            page.locator("#listen-switch").click()
            page.wait_for_function("window.pyramidListen.ready === 1", timeout=15000)
            srv.kill9()
            page.wait_for_function("document.body.dataset.listen === 'lost'", timeout=15000)
            assert (
                page.locator("#listen-line").inner_text()
                == "связь с сервером потеряна — переподключаюсь"
            )
            srv = Server(db, "--port", port, "--model", str(tmp_path / "no-model"))
            page.wait_for_function(
                "window.pyramidListen.ready === 1 && document.body.dataset.listen !== 'lost'",
                timeout=20000,
            )
            state = srv.state()
            assert state["listening"]["on"] is True and state["seq"] == 1, state
            browser.close()
    finally:
        srv.stop()


class CuttingProxy:
    """Test double for the club's Wi-Fi between the tablet and ``serve``: a TCP proxy on the
    loopback that passes every connection through, and ``cut()`` resets (RST, no close frame) the
    connections that carry ``GET /api/listen``, as a dropped network drops a WebSocket; ``serve``
    and the page's other connections go on."""

    def __init__(self, upstream_port: int) -> None:
        import socket
        import threading

        self.upstream = upstream_port
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = self.server.getsockname()[1]
        self.listen_pairs: list = []
        self.dead: list = []  # serve's side of the links cut
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            up = socket.create_connection(("127.0.0.1", self.upstream))
            threading.Thread(target=self._first, args=(client, up), daemon=True).start()

    def _first(self, client, up) -> None:
        import threading

        try:
            head = client.recv(65536)
        except OSError:
            return
        if head.startswith(b"GET /api/listen"):
            with self.lock:
                self.listen_pairs.append((client, up))
        up.sendall(head)
        threading.Thread(target=self._pump, args=(up, client), daemon=True).start()
        self._pump(client, up)

    def _pump(self, a, b) -> None:
        try:
            while data := a.recv(65536):
                if a in self.dead or b in self.dead:
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            if s not in self.dead:  # serve's side of a cut link stays open, silent
                try:
                    s.close()
                except OSError:
                    pass

    def cut(self) -> int:
        """Drop every listening socket now, as a Wi-Fi drop does: the tablet's side is shut (its
        browser sees the link die, no close frame), ``serve``'s side is left open and silent (a
        dropped network tells the server nothing). How many were cut."""
        import socket

        with self.lock:
            pairs, self.listen_pairs = self.listen_pairs, []
            self.dead += [up for _, up in pairs]
        for client, _ in pairs:
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return len(pairs)

    def close(self) -> None:
        self.server.close()
        for s in self.dead:
            s.close()


def test_when_only_the_websocket_drops_mid_session_the_pad_reconnects_and_nothing_is_lost(
    tmp_path, table_wav
):
    """The tablet's WebSocket is reset mid-session (the network drops it; ``serve`` runs on): the
    pad says the link is lost and reconnects by itself; the server marks the gap, listens again,
    and the stroke committed and the strike confirmed before the drop are still there."""
    srv = Server(tmp_path / "m.db", "--players", "Иван", "Пётр", "--model", str(tmp_path / "none"))
    proxy = CuttingProxy(_port(srv))
    try:
        srv.post(
            "/api/strokes",
            {"call": None, "outcome": {"events": [], "fouls": ["а"], "route_ok": False}},
        )
        with sync_api.sync_playwright() as p:
            browser = _chromium(p, table_wav)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{proxy.port}/pad#pin={srv.pin}")
            page.locator("#listen-switch").click()
            page.wait_for_function(
                "window.pyramidListen.strikes.some(s => !s.provisional && !s.taken_back)",
                timeout=40000,
            )
            before = page.evaluate("window.pyramidListen.strikes.slice()")
            sent_before = page.evaluate("window.pyramidListen.sent")
            assert srv.state()["listening"]["on"] is True
            assert proxy.cut() == 1
            page.wait_for_function("document.body.dataset.listen === 'lost'", timeout=15000)
            assert (
                page.locator("#listen-line").inner_text()
                == "связь с сервером потеряна — переподключаюсь"
            )
            try:
                page.wait_for_function(
                    "window.pyramidListen.ready === 1 && document.body.dataset.listen !== 'lost'",
                    timeout=20000,
                )
            except sync_api.TimeoutError:
                raise AssertionError(
                    json.dumps(
                        {
                            "page": page.evaluate("window.pyramidListen"),
                            "line": page.locator("#listen-line").inner_text(),
                            "server": srv.state()["listening"],
                        },
                        ensure_ascii=False,
                    )[:3000]
                ) from None
            resumed = page.evaluate("window.pyramidListen.sent")
            page.wait_for_function(f"window.pyramidListen.sent > {resumed} + 25", timeout=10000)
            after = page.evaluate("window.pyramidListen.strikes")
            state = srv.state()
            browser.close()
    finally:
        proxy.close()
        srv.stop()
    assert resumed >= sent_before  # the page's audio goes on after the drop
    assert state["listening"]["on"] is True and state["seq"] == 1, state
    (gap,) = state["listening"]["gaps"]  # the server knows the audio of the drop is lost
    assert gap[1] >= gap[0]
    confirmed = [s for s in before if not s["provisional"] and not s["taken_back"]]
    assert all(s in after for s in confirmed)  # what the pad was told stays told
    assert all(s["t"] < gap[0] for s in confirmed), (confirmed, gap)


@pytest.mark.long  # 18 s, at real time on 2 cores
def test_calibration_is_started_and_ended_from_the_pad_and_a_short_one_saves_nothing(
    tmp_path, table_wav
):
    """With no profile the pad says how to make one; «Калибровка» asks for 5 strikes; the recording
    plays 3, so «Готово» gives the failure and no profile is saved."""
    profiles = tmp_path / "profiles"
    srv = Server(
        tmp_path / "m.db",
        "--players",
        "Иван",
        "Пётр",
        "--model",
        str(tmp_path / "no-model"),
        env={"PYRAMID_REFEREE_PROFILES": str(profiles)},
    )
    try:
        with sync_api.sync_playwright() as p:
            browser = _chromium(p, table_wav)
            page = browser.new_page()
            page.goto(srv.pad_url)
            page.locator("#listen-switch").click()
            page.wait_for_function("window.pyramidListen.ready === 1", timeout=15000)
            # no profile saved yet: the pad says how to make one, before any strike is heard
            hint = page.locator("#listen-heard").inner_text()
            page.locator("#listen-calibrate").click()
            page.wait_for_function(
                "document.getElementById('listen-heard').textContent"
                ".startsWith('Калибровка: сделайте 5 ударов')",
                timeout=10000,
            )
            page.wait_for_function("(window.pyramidListen.sent || 0) >= 50 * 15", timeout=40000)
            page.locator("#listen-calibrate").click()
            page.wait_for_function("window.pyramidListen.calibrated", timeout=30000)
            result = page.evaluate("window.pyramidListen.calibrated")
            browser.close()
    finally:
        srv.stop()
    assert result["ok"] is False and result["asked"] == 5 and 1 <= result["found"] <= 3, result
    assert result["message"].startswith("калибровка не удалась")
    assert hint.startswith("Профиль стола не задан") and "«Калибровка»" in hint, hint
    assert not profiles.exists() or not list(profiles.glob("*.json"))


def test_a_tablet_whose_microphone_hears_nothing_shows_it_on_the_pad(tmp_path):
    """The tablet's microphone delivers silence (muted): 10 s in, the pad's line says so."""
    from pyramid_referee.voice.audio import write_wav

    silent = tmp_path / "silent.wav"
    write_wav(silent, np.zeros(16000 * 14, np.float32))
    srv = Server(tmp_path / "m.db", "--players", "Иван", "Пётр", "--model", str(tmp_path / "no"))
    try:
        with sync_api.sync_playwright() as p:
            browser = _chromium(p, silent)
            page = browser.new_page(viewport={"width": 768, "height": 1024})
            page.goto(srv.pad_url)
            page.locator("#listen-switch").click()
            page.wait_for_function("window.pyramidListen.level", timeout=40000)
            shown = page.locator("#listen-heard").inner_text()
            page.screenshot(path=str(tmp_path / "pad-muted.png"))
            browser.close()
    finally:
        srv.stop()
    assert shown.startswith("микрофон планшета ничего не слышит (самый громкий звук за 10 с: ")
    assert shown.endswith("он выключен или занят другим приложением?"), shown


def test_a_recording_is_made_only_when_the_marker_asks_on_the_pad_and_names_the_strokes(
    tmp_path, table_wav
):
    """«Запись» on the pad (it listens, behind the PIN): the scoreboard says it records; stopped,
    a valid WAV of the stream is beside the match store with the stroke entered meanwhile in its
    index. Before the request nothing was written. Screenshots of the pad: $PYRAMID_SCREENSHOTS."""
    import wave

    db = tmp_path / "m.db"
    folder = tmp_path / "m.db-recordings"
    shots = Path(os.environ.get("PYRAMID_SCREENSHOTS") or tmp_path)  # where to look at them
    shots.mkdir(parents=True, exist_ok=True)
    srv = Server(db, "--players", "Иван", "Пётр", "--model", str(tmp_path / "none"))
    try:
        with sync_api.sync_playwright() as p:
            browser = _chromium(p, table_wav)
            page = browser.new_page(viewport={"width": 800, "height": 1000})
            page.goto(srv.pad_url)
            assert not page.locator("#listen-record").is_visible()  # only while listening
            page.locator("#listen-switch").click()
            page.wait_for_function("window.pyramidListen.ready === 1", timeout=15000)
            page.wait_for_function("(window.pyramidListen.sent || 0) >= 25", timeout=15000)
            assert not folder.exists()  # listening writes nothing
            page.locator("#listen-record").click()
            page.wait_for_function("document.body.dataset.recording === 'on'", timeout=10000)
            assert page.locator("#listen-record").inner_text() == "Остановить запись"
            assert page.locator("#listen-heard").inner_text().startswith("идёт запись")
            page.screenshot(path=str(shots / "pad-recording.png"))
            board = browser.new_page()
            board.goto(srv.base + "/")
            board.wait_for_function("document.body.dataset.recording === 'on'", timeout=10000)
            assert "идёт запись" in board.locator("#listening").inner_text()
            sent = page.evaluate("window.pyramidListen.sent")
            srv.post(
                "/api/strokes",
                {"call": None, "outcome": {"events": [], "fouls": ["а"], "route_ok": False}},
            )
            page.wait_for_function(f"window.pyramidListen.sent >= {sent} + 100", timeout=15000)
            page.locator("#listen-record").click()
            page.wait_for_function("window.pyramidListen.recorded", timeout=10000)
            done = page.evaluate("window.pyramidListen.recorded")
            assert page.locator("#listen-record").inner_text() == "Запись"
            page.screenshot(path=str(shots / "pad-recorded.png"))
            board.wait_for_function("document.body.dataset.recording === 'off'", timeout=10000)
            browser.close()
    finally:
        srv.stop()
    (wav_path,) = folder.glob("*.wav")
    assert done["file"] == wav_path.name and done["message"].startswith("запись сохранена")
    with wave.open(str(wav_path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16000)
        assert w.getnframes() / 16000 >= 100 * 0.02 * 0.9  # the frames sent while recording
    index = json.loads((folder / (wav_path.name + ".json")).read_text("utf-8"))
    assert [s["seq"] for s in index["strokes"]] == [1] and done["strokes"] == [
        s["id"] for s in index["strokes"]
    ]
