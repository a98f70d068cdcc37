"""`pyramid-referee strikes FILE.wav [--json]`: the strike detector from the command line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.io import wavfile

from pyramid_referee.cli import main

ROOT = Path(__file__).resolve().parents[1]


TRUTH = [1.25, 5.5]


@pytest.fixture(scope="module")
def table_wav(tmp_path_factory, bank):
    """Two recorded strikes (cue_vrcbce_1) with a collision and a cushion after the first, in
    low pink noise, written at 44.1 kHz stereo."""
    import table_mix

    rng = np.random.default_rng(11)
    x = table_mix.pink(rng, int(7 * 16000)) * 0.002
    for name, at, peak in (
        ("cue_vrcbce_1.wav", TRUTH[0], 0.5),
        ("ball_vrcbce_3.wav", TRUTH[0] + 0.4, 0.5),
        ("cushion_poolbattle_1.wav", TRUTH[0] + 0.9, 0.3),
        ("cue_vrcbce_1.wav", TRUTH[1], 0.5),
    ):
        snd, onset = table_mix.strike_sample(name, bank=bank, peak=peak)
        k = int(round((at - onset) * 16000))
        x[k : k + len(snd)] += snd[: len(x) - k]
    from pyramid_referee.voice.audio import resample

    y = resample(x, 16000, 44100)
    p = tmp_path_factory.mktemp("cli") / "table.wav"
    wavfile.write(p, 44100, (np.stack([y, y], axis=1) * 32767).astype(np.int16))
    return p


def test_json_output(table_wav, capsys):
    assert main(["strikes", str(table_wav), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["strikes"]
    assert out["strikes"] == pytest.approx(TRUTH, abs=0.003)
    assert all(round(t, 3) == t for t in out["strikes"])  # rounded to ms


def test_text_output_russian_and_english(table_wav, capsys):
    assert main(["strikes", str(table_wav)]) == 0
    out = capsys.readouterr().out
    assert "2 удара (" in out and "удар 1: 1.25" in out  # the count in its Russian form
    assert main(["strikes", str(table_wav), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "2 strikes (" in out and "strike 2: 5.5" in out


def test_stroke_window_option(table_wav, capsys):
    """Every sound in the 10 s after a strike is that stroke's own: the second strike (4.25 s
    after the first) is the first stroke's: the option reaches the detector."""
    assert main(["strikes", str(table_wav), "--json", "--stroke-window", "10"]) == 0
    assert json.loads(capsys.readouterr().out)["strikes"] == pytest.approx(TRUTH[:1], abs=0.003)


def test_no_strikes(tmp_path, capsys):
    p = tmp_path / "quiet.wav"
    wavfile.write(
        p, 16000, (np.random.default_rng(0).standard_normal(16000) * 300).astype(np.int16)
    )
    assert main(["strikes", str(p), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"strikes": []}
    assert main(["strikes", str(p), "--lang", "en"]) == 0
    assert "no strikes found" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content, expect",
    [
        (None, "no such file"),
        (b"", "empty"),
        (b"RIFF\x10\x00\x00\x00WAVEfmt \x10\x00\x00", "truncated or damaged"),
        (b"just some text, not a wav file at all", "not a WAV file"),
    ],
)
def test_bad_file_is_one_clear_line_exit_2(tmp_path, capsys, content, expect):
    p = tmp_path / "bad.wav"
    if content is not None:
        p.write_bytes(content)
    assert main(["strikes", str(p), "--json", "--lang", "en"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and expect in err and str(p) in err
    assert "Traceback" not in err


def test_missing_argument_and_bad_options(capsys):
    assert main(["strikes"]) == 2
    assert "нужен WAV-файл" in capsys.readouterr().err
    assert main(["strikes", "x.wav", "--block-ms", "0"]) == 2
    assert main(["strikes", "x.wav", "--mic"]) == 2


def test_dead_microphone_is_a_clear_message(capsys):
    assert main(["strikes", "--mic", "--device", "4242", "--lang", "en", "--seconds", "1"]) == 2
    err = capsys.readouterr().err
    assert ("4242" in err and "not found" in err) or "PortAudio" in err
    assert "Traceback" not in err


def test_list_devices_runs(capsys):
    assert main(["strikes", "--list-devices", "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), list)


def test_console_script_on_a_mixed_session(tmp_path, bank):
    """The installed entry point, on audio mixed from the recordings (calls, strikes, their
    collisions and drops, 20 dB pink noise): the strikes, each within 40 ms."""
    import table_mix

    exe = shutil.which("pyramid-referee", path=str(Path(sys.executable).parent))
    if shutil.which("espeak-ng") is None or exe is None:
        pytest.skip("needs espeak-ng (test audio) and the installed pyramid-referee script")
    x, truth = table_mix.make_session(
        np.random.default_rng(4),
        bank,
        sources={"vrcbce"},
        n_strokes=3,
        snr_db=20,
        noise="pink",
        reverb=False,
    )
    wav = tmp_path / "session.wav"
    table_mix.write_wav(wav, x)
    proc = subprocess.run(
        [exe, "strikes", str(wav), "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["strikes"] == pytest.approx(truth["strikes"], abs=0.040)


def test_explain_names_every_sound_and_why(table_wav, capsys):
    assert main(["strikes", str(table_wav), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Услышано стуков:" in out and "УДАР" in out and "первый стук на тихом столе" in out
    assert "за ним не было удара по шарам" in out  # what is not a strike, and why
    assert main(["strikes", str(table_wav), "--explain", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["strikes"] == pytest.approx(TRUTH, abs=0.003)
    strikes = [s for s in data["sounds"] if s["decision"] == "strike"]
    assert [s["time"] for s in strikes] == pytest.approx(TRUTH, abs=0.003)
    # the first stroke's collision and cushion are heard, and are not strikes
    assert any(1.5 < s["time"] < 2.3 for s in data["sounds"])
    assert all(s["decision"] != "strike" for s in data["sounds"] if 1.3 < s["time"] < 5.4)
    # what a screen showed: «удар?» at each onset, then confirmed
    for t in data["strikes"]:
        mine = [
            (e["provisional"], e["taken_back"]) for e in data["events"] if abs(e["t"] - t) < 0.002
        ]
        assert mine == [(True, False), (False, False)]
    for s in data["sounds"]:
        assert set(s) >= {"time", "kind", "p_tip", "decision", "reason", "centroid_hz", "low1k"}


def test_plot_writes_a_picture(table_wav, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "strikes.png"
    assert main(["strikes", str(table_wav), "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000
    assert f"рисунок: {out}" in capsys.readouterr().out
    assert main(["strikes", str(table_wav), "--plot", str(tmp_path / "no" / "dir" / "x.png")]) == 2
    assert "не удалось записать" in capsys.readouterr().err


def test_truncated_wav_is_told_in_russian_by_default(tmp_path, capsys):
    """``head -c 30 x.wav > cut.wav; pyramid-referee strikes cut.wav``: no Python detail."""
    good = tmp_path / "good.wav"
    wavfile.write(good, 16000, np.zeros(1600, np.int16))
    cut = tmp_path / "cut.wav"
    cut.write_bytes(good.read_bytes()[:30])
    assert main(["strikes", str(cut)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"pyramid-referee: ошибка: {cut}: WAV-файл обрезан или повреждён: "
        f"он обрывается внутри заголовка (в файле всего 30 байт)"
    )


def test_a_recording_cut_off_is_heard_as_far_as_it_goes_and_the_user_is_told(
    table_wav, tmp_path, capsys
):
    """The phone died mid-session: its WAV's header promises more than the file holds. The
    strikes in what is there are reported, stdout stays the answer (JSON too) and stderr
    says the file is cut."""
    whole = table_wav.read_bytes()
    cut = tmp_path / "cut.wav"
    cut.write_bytes(whole[: len(whole) // 2])
    assert main(["strikes", str(table_wav), "--json"]) == 0
    full = json.loads(capsys.readouterr().out)["strikes"]
    assert main(["strikes", str(cut), "--json"]) == 0
    out, err = capsys.readouterr()
    seconds = (len(whole) // 2 - 44) / (44100 * 2 * 2)  # 16-bit stereo: 3.5 s of 7
    assert json.loads(out)["strikes"] == [t for t in full if t < seconds] == [1.25]
    assert err.startswith(f"pyramid-referee: {cut}: файл короче, чем сказано в его заголовке (")
    assert "запись оборвалась?" in err
    assert main(["strikes", str(table_wav)]) == 0
    assert "заголовке" not in capsys.readouterr().err


def test_a_quiet_recording_is_told_and_still_heard(table_wav, tmp_path, capsys):
    """A microphone's gain left low: the user learns it on stderr; stdout stays the answer."""
    rate, x = wavfile.read(table_wav)
    quiet = tmp_path / "quiet.wav"
    wavfile.write(quiet, rate, (x * 10 ** (-35 / 20)).astype(np.int16))  # peak about −41 dBFS
    assert main(["strikes", str(quiet), "--json", "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    assert isinstance(json.loads(out)["strikes"], list)
    assert err.startswith(f"pyramid-referee: {quiet}: a quiet recording (its loudest sound -4")
    assert "record with more microphone gain" in err
    assert main(["strikes", str(table_wav), "--json"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.filterwarnings("error::RuntimeWarning")  # digital silence drew a log10(0) warning
def test_plot_legend_never_covers_the_last_seconds_and_a_cushion_is_not_the_strikes_red():
    pytest.importorskip("matplotlib")
    from types import SimpleNamespace

    import numpy as np
    from matplotlib.colors import to_rgb

    from pyramid_referee.referee.strike_report import COLORS, STRIKE_COLOR, figure

    rate, dur = 16000, 6.0
    x = np.zeros(int(rate * dur))
    x[-800:] = 0.5  # something loud in the last 50 ms, where the legend used to sit
    kinds = ["tip", "ball", "cushion", "pocket", "speech", "clap"]
    sounds = [SimpleNamespace(time=5.9, decision="strike", kind="tip", sure=True)] + [
        SimpleNamespace(time=1 + 0.5 * i, decision="not-tip", kind=k, sure=True)
        for i, k in enumerate(kinds)
    ]
    fig = figure(x, rate, sounds)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    a1 = fig.axes[0]
    legend = a1.get_legend().get_window_extent(renderer)
    for ax in fig.axes:
        data = ax.get_window_extent(renderer)
        assert (
            legend.x0 >= data.x1 or legend.y1 <= data.y0 or legend.y0 >= data.y1
        )  # outside every plot
    colours = {"strike": STRIKE_COLOR, **COLORS}
    # every kind has a colour of its own, far apart (RGB distance), not «nearly the same red»
    for a, ca in colours.items():
        for b, cb in colours.items():
            if a < b:
                assert np.linalg.norm(np.subtract(to_rgb(ca), to_rgb(cb))) > 0.3, (a, b)


def test_explain_says_a_sound_was_taken_back_for_a_word_only_when_a_word_took_it(
    table_wav, capsys
):
    """A «удар?» taken back because no stroke followed it is «снят», with that reason; «снят: это
    слово» is kept for one a recognized word took back (none here: no recognizer)."""
    from pyramid_referee.referee.strike_report import decision_name
    from pyramid_referee.voice.strike import IN_WORD, Sound

    assert main(["strikes", str(table_wav), "--explain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    taken = [line for line in lines if " снят " in line]
    assert taken and not any("снят: это слово" in line for line in lines)
    assert all("снят: " in line.split(" снят ", 1)[1] for line in taken)  # the reason follows
    word = Sound(1.0, "speech", 0.1, (0.0,) * 7, "retracted", f"{IN_WORD} (p=0.9)", True, ())
    assert decision_name(word, "ru") == "снят: это слово"


def test_explain_tells_every_sound_of_a_long_file(table_wav, capsys, monkeypatch):
    """The detector keeps only its last sounds for a live screen (``max_sounds``); a file's
    report keeps them all. Here the live bound is 3, so that this 7 s file would lose its first
    stroke's sounds from the report (an hour's café recording passes the real bound, 2,000,
    in about 4 minutes)."""
    from pyramid_referee.voice import strike

    made = []
    real_init = strike.StrikeDetector.__init__

    def small(self, *a, **k):
        real_init(self, *a, **k)
        self.max_sounds = 3
        made.append(self)

    monkeypatch.setattr(strike.StrikeDetector, "__init__", small)
    assert main(["strikes", str(table_wav), "--json"]) == 0
    capsys.readouterr()
    assert made[-1].max_sounds == 3 and len(made[-1].sounds) <= 3  # the live bound holds there
    assert main(["strikes", str(table_wav), "--json", "--explain"]) == 0
    sounds = json.loads(capsys.readouterr().out)["sounds"]
    assert len(sounds) > 3 and made[-1].max_sounds is None
    assert [s["time"] for s in sounds if s["decision"] == "strike"] == pytest.approx(
        TRUTH, abs=0.003
    )


def test_a_long_recording_shows_its_progress_on_a_terminal_only(tmp_path):
    """Run as a person runs it, on a terminal (a pseudo-terminal): a recording of a minute or more
    gets a bar on stderr that says how much is heard, gone when done; piped, nothing but the
    result."""
    import os
    import pty
    import select

    rng = np.random.default_rng(5)
    p = tmp_path / "evening.wav"
    wavfile.write(p, 16000, (rng.standard_normal(16000 * 75) * 300).astype(np.int16))
    cmd = [sys.executable, "-m", "pyramid_referee", "strikes", str(p)]
    piped = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert piped.returncode == 0 and piped.stderr == ""
    assert "ударов не найдено (75.0 с звука)" in piped.stdout
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on the terminal
        os.chdir(ROOT)
        os.execv(sys.executable, cmd)
    seen = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        seen += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    text = seen.decode("utf-8", "replace")
    assert "удары" in text and "из 1:15" in text  # the bar: «прослушано 0:40 из 1:15»
    assert "ударов не найдено (75.0 с звука)" in text


def test_a_long_recordings_picture_is_a_part_of_it_and_says_which(tmp_path, capsys, monkeypatch):
    """A picture of a whole evening is a wall of lines (and took 2.2 GB for 10 minutes): it draws
    at most PLOT_MAX_S of the recording, on the recording's own clock, says which part on
    stderr, and --plot-from picks another. Made 6 s here with a 14 s recording."""
    pytest.importorskip("matplotlib")
    from pyramid_referee.cli import strikes
    from pyramid_referee.referee import strike_report

    monkeypatch.setattr(strikes, "PLOT_MAX_S", 6)
    drawn = []
    real_figure = strike_report.figure
    monkeypatch.setattr(
        strike_report, "figure", lambda *a, **k: drawn.append(real_figure(*a, **k)) or drawn[-1]
    )
    rng = np.random.default_rng(2)
    wav = tmp_path / "evening.wav"
    wavfile.write(wav, 16000, (rng.standard_normal(16000 * 14) * 200).astype(np.int16))
    png = tmp_path / "p.png"
    assert main(["strikes", str(wav), "--plot", str(png)]) == 0
    cap = capsys.readouterr()
    assert (
        "на рисунке 0–6 с из 14 с (не больше 6 с; другой отрезок: --plot-from СЕКУНДЫ)" in cap.err
    )
    assert drawn[-1].axes[0].get_xlim() == pytest.approx((0, 6))
    assert (
        main(["strikes", str(wav), "--plot", str(png), "--plot-from", "10", "--lang", "en"]) == 0
    )
    assert "the picture draws 10–14 s of 14 s" in capsys.readouterr().err
    assert drawn[-1].axes[0].get_xlim() == pytest.approx((10, 14))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for args, said in (
        (["--plot-from", "3"], "--plot-from — только вместе с --plot"),
        (["--plot", str(tmp_path / "q.png"), "--plot-from", "14"], "запись длится всего 14.0 с"),
        (["--plot", str(tmp_path / "q.png"), "--plot-from", "-1"], "нужно число секунд"),
        (["--plot", str(tmp_path / "q.png"), "--plot-from", "13.999"], "длится всего 14.0 с"),
    ):
        assert main(["strikes", str(wav), *args]) == 2
        assert said in capsys.readouterr().err
    assert not (tmp_path / "q.png").exists()


def test_a_short_recordings_picture_is_all_of_it_and_says_nothing(table_wav, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    assert main(["strikes", str(table_wav), "--plot", str(tmp_path / "p.png")]) == 0
    assert capsys.readouterr().err == ""


def test_the_microphone_has_no_picture_and_says_so(capsys):
    for args, said in (
        (["--plot", "x.png"], "--plot рисует звуки файла; с --mic его нет"),
        (["--plot-from", "3"], "--plot-from — только вместе с --plot"),
    ):
        assert main(["strikes", "--mic", *args]) == 2
        assert said in capsys.readouterr().err
