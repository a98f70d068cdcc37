"""``pyramid-referee serve`` on the command line: what it prints, what it refuses
(exit 2, in Russian)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("uvicorn")

from web_server import Server  # noqa: E402

CMD = [sys.executable, "-m", "pyramid_referee"]


def _run(*args, timeout=30):
    return subprocess.run(CMD + list(args), capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--pin", "12"], "--pin: от 4 до 64 букв"),
        (["--pin", "12 34"], "--pin: от 4 до 64 букв"),
        (["--port", "70000"], "порт — целое число от 0 до 65535"),
        (["--match", "x"], "целое число"),
        (["--players", "Иван"], "--players"),
    ],
)
def test_bad_options_are_one_russian_line_and_exit_2(tmp_path, args, expected):
    out = _run("serve", "--db", str(tmp_path / "m.db"), *args)
    assert out.returncode == 2, out
    assert expected in out.stderr
    assert not (tmp_path / "m.db").exists() or args[0] == "--players"


def test_no_match_to_serve_is_said_and_no_database_is_made(tmp_path):
    out = _run("serve", "--db", str(tmp_path / "m.db"))
    assert out.returncode == 2 and "pyramid-referee: ошибка" in out.stderr
    assert not (tmp_path / "m.db").exists()


def test_port_0_takes_a_free_port_and_prints_the_urls_and_the_pin(tmp_path):
    srv = Server(tmp_path / "m.db", "--players", "Иван", "Пётр")
    try:
        text = "\n".join(srv.lines)
        port = int(re.search(r":(\d+)/$", srv.base + "/").group(1))
        assert port != 0 and srv.base.startswith("http://127.0.0.1:")
        assert (
            "табло: http://127.0.0.1" in text
            and f"пульт маркёра: {srv.base}/pad#pin={srv.pin}" in text
        )
        assert f"учебная страница: {srv.base}/learn" in text
        with urllib.request.urlopen(srv.base + "/api/state") as r:
            assert json.loads(r.read())["players"] == ["Иван", "Пётр"]
    finally:
        srv.stop()


def test_a_random_pin_is_printed_when_none_is_given(tmp_path):
    proc = subprocess.Popen(
        CMD + ["serve", "--db", str(tmp_path / "m.db"), "--players", "А", "Б", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        pin = re.search(r"ПИН-код: (\d{6})", "".join(lines))
        assert pin, lines
        assert f"#pin={pin.group(1)}" in "".join(lines)
    finally:
        proc.terminate()
        proc.wait(10)


def test_on_the_network_the_pad_url_is_printed_as_a_qr_code_in_english_with_lang_en(tmp_path):
    srv = Server(
        tmp_path / "m.db", "--players", "Ivan", "Petr", "--host", "0.0.0.0", "--lang", "en"
    )
    try:
        lines = srv.lines
        text = "\n".join(lines)
        assert "scoreboard: http://" in text and "127.0.0.1" not in srv.base
        assert "the pad's QR code" in text
        qr = [line for line in lines if "█" in line or "▀" in line or "▄" in line]
        assert len(qr) > 10  # the QR code, drawn in the terminal
        with urllib.request.urlopen(
            srv.base.replace(srv.base.split("//")[1].split(":")[0], "127.0.0.1") + "/"
        ) as r:
            assert 'lang="en"' in r.read().decode()
    finally:
        srv.stop()


def test_ctrl_c_stops_the_server_at_once_with_scoreboards_open(tmp_path):
    import signal
    import time

    srv = Server(tmp_path / "m.db", "--players", "Иван", "Пётр")
    streams = [urllib.request.urlopen(srv.base + "/api/events", timeout=10) for _ in range(3)]
    try:
        for s in streams:
            assert s.readline().startswith(b"event: state")
        t0 = time.monotonic()
        srv.proc.send_signal(signal.SIGINT)
        assert srv.proc.wait(10) == 130  # the CLI's status for an interrupt, as in play
        assert time.monotonic() - t0 < 3  # not the graceful-shutdown timeout of streams left open
        assert "Traceback" not in srv.proc.stderr.read()
    finally:
        for s in streams:
            s.close()
        srv.stop()


def test_300_guessed_pins_on_a_real_server_are_held_back_and_the_log_says_someone_is_guessing(
    tmp_path,
):
    import urllib.error

    srv = Server(tmp_path / "m.db", "--players", "Иван", "Пётр")
    import time

    statuses, waits = [], set()
    t0 = time.monotonic()
    try:
        for n in range(300):  # what took 0.49 s on the loopback with no limit
            req = urllib.request.Request(
                srv.base + "/api/pin",
                data=b"{}",
                method="POST",
                headers={"Authorization": f"Bearer {n:06d}"},
            )
            try:
                urllib.request.urlopen(req, timeout=10)
                statuses.append(204)
            except urllib.error.HTTPError as exc:
                statuses.append(exc.code)
                if exc.code == 429:
                    waits.add(exc.headers["Retry-After"])
        elapsed = time.monotonic() - t0
        state = srv.state()
    finally:
        log = srv.stop()
    looked_at = statuses.count(401)
    # five free, then one more for each hold (1 s, 2 s, 4 s …) that ran out while
    # the guesser hammered
    holds, extra = 1.0, 0
    while holds <= elapsed + 1:
        extra, holds = extra + 1, holds + 2 ** (extra + 1)
    assert 5 <= looked_at <= 5 + extra, (statuses, elapsed)
    assert statuses.count(429) == 300 - looked_at and 204 not in statuses
    assert waits and all(w.isdigit() and int(w) >= 1 for w in waits)
    assert "кто-то с адреса 127.0.0.1 подбирает ПИН-код: 5 неверных ПИН-кодов" in log
    assert state["pin_alert"]["clients"] == ["127.0.0.1"]
