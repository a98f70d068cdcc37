"""The microphone: a dead or missing device, overflow reporting, rate conversion, and
the real path.

The real path: the test starts its own PulseAudio daemon (the ``pulse`` fixture,
tests/conftest.py) with a null sink whose monitor is the default source; PortAudio records it
through ALSA's pulse plugin (libasound2-plugins) while ``paplay`` plays a WAV with two strikes into
the sink. It skips, saying why, where the daemon or the tools are missing. The recording runs in a
subprocess so that PortAudio starts with the test daemon's environment.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import make_audio  # corpora/audio/make_audio.py (path set in conftest.py)
import numpy as np
import pytest

from pyramid_referee.voice.audio import RATE, read_wav, resample, write_wav
from pyramid_referee.voice.errors import AudioDeviceError
from pyramid_referee.voice.mic import MicrophoneSource, StreamResampler, list_devices
from pyramid_referee.voice.strike import detect_strikes

ROOT = Path(__file__).resolve().parents[1]


# --- dead or missing device --------------------------------------------------------------------


def test_nonexistent_device_index_is_a_clear_error():
    with pytest.raises(AudioDeviceError) as e:
        with MicrophoneSource(device=12345, lang="en"):
            pass
    msg = str(e.value)
    assert ("12345" in msg and "not found" in msg) or "PortAudio" in msg


def test_nonexistent_device_name_is_a_clear_error_in_russian():
    with pytest.raises(AudioDeviceError) as e:
        MicrophoneSource(device="no-such-microphone-xyz").start()
    msg = str(e.value)
    assert ("no-such-microphone-xyz" in msg and "не найден" in msg) or "PortAudio" in msg


def test_iterating_a_dead_device_raises_not_hangs():
    src = MicrophoneSource(device="99", lang="en")
    assert src.device == 99  # a digit string is an index
    with pytest.raises(AudioDeviceError):
        next(iter(src))


def test_list_devices_gives_exactly_the_input_devices():
    sd = pytest.importorskip("sounddevice")
    inputs = [d["index"] for d in sd.query_devices() if d["max_input_channels"] > 0]
    devices = list_devices()
    assert [d.index for d in devices] == inputs
    for d in devices:
        assert d.max_input_channels > 0 and d.name


# --- reporting (real sounddevice status flags, no stream) ---------------------------------------


def test_input_overflow_is_counted_and_reported():
    sd = pytest.importorskip("sounddevice")
    src = MicrophoneSource(lang="en")
    flags = sd.CallbackFlags()
    flags.input_overflow = True
    block = np.zeros((160, 1), np.float32)
    src._callback(block, 160, None, flags)
    src._callback(block, 160, None, sd.CallbackFlags())
    assert src.overflows == 1 and src.status_log == ["input overflow"]
    assert "input overflows 1" in src.problems()
    assert src._queue.qsize() == 2  # the audio itself is still delivered


def test_full_queue_drops_and_reports():
    src = MicrophoneSource(lang="en", max_queue_s=0.04, block_ms=10)
    block = np.zeros((160, 1), np.float32)
    for _ in range(10):
        src._callback(block, 160, None, None)
    assert src.dropped == 6 and "blocks dropped 6" in src.problems()


def test_no_problem_no_report():
    assert MicrophoneSource().problems() is None


# --- rate conversion for devices that refuse 16 kHz ---------------------------------------------


@pytest.mark.parametrize("rate_in", [44100, 48000, 8000])
def test_stream_resampler_matches_whole_signal_and_ignores_block_edges(rate_in):
    t = np.arange(int(rate_in * 1.0)) / rate_in
    x = 0.5 * np.sin(2 * np.pi * 440 * t)
    rs = StreamResampler(rate_in, RATE)
    rng = np.random.default_rng(0)
    parts, pos = [], 0
    while pos < len(x):
        n = int(rng.integers(1, 2000))
        parts.append(rs.process(x[pos : pos + n]))
        pos += n
    y = np.concatenate(parts)
    assert abs(len(y) - RATE) <= 1
    rs2 = StreamResampler(rate_in, RATE)
    assert np.allclose(rs2.process(x)[: len(y)], y, atol=1e-9)  # block cuts change nothing
    mid = slice(2000, 14000)  # past the low-pass's start-up
    spec = np.abs(np.fft.rfft(y[mid] * np.hanning(12000)))
    assert np.fft.rfftfreq(12000, 1 / RATE)[np.argmax(spec)] == pytest.approx(440, abs=3)
    assert np.abs(y[mid]).max() == pytest.approx(0.5, abs=0.02)
    # Same waveform as the offline polyphase resampler, up to the causal filter's small delay.
    ref = resample(x, rate_in, RATE)[mid]
    best = max(np.corrcoef(y[mid.start + k : mid.stop + k], ref)[0, 1] for k in range(0, 30))
    assert best > 0.995


# --- the real path: PulseAudio null sink → ALSA pulse plugin → PortAudio → MicrophoneSource ------

# ``pulse`` (tests/conftest.py): the test's own PulseAudio daemon with a null sink.


RECORD = textwrap.dedent("""
    import json, subprocess, sys, numpy as np
    from pyramid_referee.voice.mic import MicrophoneSource, list_devices
    wav, out, device = sys.argv[1], sys.argv[2], sys.argv[3]
    names = [d.name for d in list_devices()]
    chunks, player, t_play, t_done = [], None, None, None
    with MicrophoneSource(device=device, block_ms=10) as mic:
        for frame in mic:
            chunks.append(frame.samples)
            if player is None and frame.t1 >= 0.3:
                player = subprocess.Popen(["paplay", wav])
                t_play = frame.t1
            if player is not None and t_done is None and player.poll() is not None:
                t_done = frame.t1
            if t_done is not None and frame.t1 >= t_done + 0.5 or frame.t1 > 30:
                break
        info = {"t_play": t_play, "t_done": t_done, "overflows": mic.overflows,
                "dropped": mic.dropped, "device": mic.device_name, "devices": names,
                "rate": mic.device_rate}
    np.save(out, np.concatenate(chunks))
    print(json.dumps(info))
""")


def test_microphone_records_the_strikes_played_into_a_null_sink(pulse, bank, tmp_path):
    """Recorded strikes (and a stroke's collision and pocket drop) played into the sink, recorded
    through PortAudio: the detector finds the two strikes, on the recording's clock."""
    import table_mix

    make = make_audio
    rng = np.random.default_rng(3)
    x = np.zeros(int(6.5 * RATE))
    if not make.espeak_available():
        pytest.skip(
            "espeak-ng is not installed (apt-get install espeak-ng): the calls cannot be made"
        )
    # a call before each strike (the second call ends the first stroke: players call when the
    # balls have stopped)
    for text, start in (("Тройка дуплетом в середину", 0.2), ("Пятый в угол", 4.0)):
        speech = make.speak(text)[: int(1.2 * RATE)]
        x[int(start * RATE) : int(start * RATE) + len(speech)] += 0.4 * speech
    truth = [2.0, 5.5]

    def place(name, at, peak):
        s, onset = table_mix.strike_sample(name, bank=bank, peak=peak)
        k = int(round((at - onset) * RATE))
        x[k : k + len(s)] += s[: len(x) - k]

    place("cue_vrcbce_1.wav", truth[0], 0.6)
    place("ball_vrcbce_2.wav", 2.4, 0.5)
    place("pocket_leslieyippool_1.wav", 3.0, 0.4)
    place("cue_vrcbce_1.wav", truth[1], 0.6)
    x += make.colored_noise(rng, len(x), 1.0) * 0.003
    x[: RATE // 5] *= np.linspace(0.0, 1.0, RATE // 5)  # no step where playback starts
    wav = tmp_path / "table.wav"
    write_wav(wav, x)
    assert detect_strikes(read_wav(wav)) == pytest.approx(truth, abs=0.003)

    rec = tmp_path / "recorded.npy"
    proc = subprocess.run(
        [sys.executable, "-c", RECORD, str(wav), str(rec), "default"],
        env=pulse,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "default" in info["devices"] or "pulse" in info["devices"]
    y = np.load(rec)
    assert len(y) / RATE >= 6.5
    assert np.abs(y).max() > 0.1, "the recording is silent"
    found = detect_strikes(y)
    assert len(found) == 2, f"found {found} in the recording (played at {info['t_play']} s)"
    # When playback really started, on the recording's clock: about when paplay was launched
    # (server buffering moves it by some tens of ms either way; paplay takes a moment to start).
    offset = found[0] - truth[0]
    assert info["t_play"] - 0.1 <= offset <= info["t_play"] + 1.5
    assert found[1] - offset == pytest.approx(truth[1], abs=0.030)
    assert info["overflows"] == 0 and info["dropped"] == 0


LATENCY = textwrap.dedent("""
    import json, time
    from pyramid_referee.voice.mic import MicrophoneSource
    t0 = time.monotonic()
    with MicrophoneSource(device="default", block_ms=10, lang="en") as src:
        next(iter(src))
        print(json.dumps({"latency": src.latency, "first_block_s": time.monotonic() - t0}))
""")


def test_microphone_asks_for_low_input_latency(pulse):
    """The strike is reported 7 ms + one block after the click on the stream clock; the device's
    input buffering comes on top of that in real time. PortAudio's default for input is its
    "high" latency (40 ms through the ALSA pulse plugin here, and ~1.5 s before the first block);
    the live referee asks for "low" (the device's declared latency, not a timing)."""
    proc = subprocess.run(
        [sys.executable, "-c", LATENCY], env=pulse, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    assert info["latency"] is not None and info["latency"] <= 0.025, info


SLOW_READER = textwrap.dedent("""
    import json, time
    from pyramid_referee.voice.mic import MicrophoneSource
    src = MicrophoneSource(device="default", block_ms=10, max_queue_s=0.1, lang="en")
    with src:
        next(iter(src))          # wait for the stream to run
        time.sleep(1.0)          # a reader that falls behind
        print(json.dumps({"dropped": src.dropped, "problems": src.problems()}))
""")


def test_slow_reader_is_reported_not_hidden(pulse):
    proc = subprocess.run(
        [sys.executable, "-c", SLOW_READER], env=pulse, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    assert info["dropped"] > 0 and "blocks dropped" in info["problems"]


def test_strikes_mic_says_when_the_microphone_hears_nothing(pulse):
    """The null sink's monitor with nothing played is a muted microphone: ``strikes --mic`` says
    so on stderr 10 s in, once, and stdout stays the strikes' (none)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "strikes", "--mic", "--seconds", "11"]
        + ["--device", "default", "--json", "--lang", "en"],
        env=pulse,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout == ""
    assert proc.stderr.count("pyramid-referee: the microphone hears nothing (its loudest") == 1
    assert "muted, or another device (--list-devices)?" in proc.stderr


def test_missing_sounddevice_package_is_a_clear_error(monkeypatch):
    """Stand-in for a machine without the package: the import itself
    fails (sys.modules entry None)."""
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    with pytest.raises(AudioDeviceError, match="sounddevice"):
        MicrophoneSource(lang="en").start()
    with pytest.raises(AudioDeviceError, match="sounddevice"):
        list_devices(lang="en")
