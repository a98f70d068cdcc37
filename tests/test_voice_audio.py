"""Audio in: WAV files of any rate, channel count and sample type → 16 kHz mono
frames on one clock."""

from __future__ import annotations

import dataclasses
import re
import shutil
import struct
import subprocess
import wave

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.io import wavfile

from pyramid_referee.voice import audio
from pyramid_referee.voice.audio import (
    RATE,
    AudioFileError,
    array_frames,
    cut_short_note,
    file_frames,
    read_wav,
    read_wav_info,
    to_pcm16,
)


def sine(freq: float, rate: int, seconds: float = 0.5, amp: float = 0.5) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return amp * np.sin(2 * np.pi * freq * t)


def dominant_freq(x: np.ndarray, rate: int = RATE) -> float:
    spec = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    return float(np.fft.rfftfreq(len(x), 1 / rate)[np.argmax(spec)])


def write_pcm(path, x: np.ndarray, rate: int, width: int, channels: int = 1) -> None:
    """Write integer PCM with the stdlib ``wave`` module (8-bit unsigned, 16/24/32-bit signed)."""
    if channels > 1:
        x = np.repeat(x[:, None], channels, axis=1)
    x = np.clip(x, -1, 1)
    if width == 1:
        raw = np.round(x * 127 + 128).astype(np.uint8).tobytes()
    elif width == 3:
        v = np.round(x * (2**23 - 1)).astype("<i4").reshape(-1)
        raw = np.stack([(v >> s) & 0xFF for s in (0, 8, 16)], axis=1).astype(np.uint8).tobytes()
    else:
        dt = {2: "<i2", 4: "<i4"}[width]
        raw = np.round(x * (2 ** (8 * width - 1) - 1)).astype(dt).tobytes()
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(raw)


@pytest.mark.parametrize("rate", [8000, 11025, 16000, 22050, 44100, 48000])
@pytest.mark.parametrize("width", [1, 2, 3, 4])
def test_int_pcm_any_rate_and_width_is_16k_mono_float(tmp_path, rate, width):
    p = tmp_path / f"s_{rate}_{width}.wav"
    write_pcm(p, sine(440, rate), rate, width)
    x, info = read_wav_info(p)
    assert info.rate == rate and info.channels == 1
    assert x.dtype == np.float32 and x.ndim == 1
    assert abs(len(x) - RATE * 0.5) <= 1
    assert dominant_freq(x) == pytest.approx(440, abs=4)
    mid = x[len(x) // 4 : 3 * len(x) // 4]  # away from the resampler's edges
    tol = 0.02 if width == 1 else 0.005
    assert np.abs(mid).max() == pytest.approx(0.5, abs=tol)


def test_8k_stereo_is_averaged_to_mono(tmp_path):
    left, right = sine(300, 8000, amp=0.6), sine(300, 8000, amp=0.2)
    p = tmp_path / "st.wav"
    wavfile.write(p, 8000, (np.stack([left, right], axis=1) * 32767).astype(np.int16))
    x, info = read_wav_info(p)
    assert info.channels == 2 and info.rate == 8000
    mid = x[len(x) // 4 : 3 * len(x) // 4]
    assert np.abs(mid).max() == pytest.approx(0.4, abs=0.01)  # (0.6 + 0.2) / 2
    assert dominant_freq(x) == pytest.approx(300, abs=4)


def test_opposite_channels_cancel(tmp_path):
    s = sine(300, 16000, amp=0.5)
    p = tmp_path / "anti.wav"
    wavfile.write(p, 16000, (np.stack([s, -s], axis=1) * 32767).astype(np.int16))
    assert np.abs(read_wav(p)).max() < 1e-4


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_wav(tmp_path, dtype):
    p = tmp_path / "f.wav"
    wavfile.write(p, 48000, sine(1000, 48000, amp=0.25).astype(dtype))
    x = read_wav(p)
    assert dominant_freq(x) == pytest.approx(1000, abs=4)
    assert np.abs(x[2000:-2000]).max() == pytest.approx(0.25, abs=0.005)


def test_six_channel_44k(tmp_path):
    p = tmp_path / "six.wav"
    data = np.repeat(sine(500, 44100)[:, None], 6, axis=1)
    wavfile.write(p, 44100, (data * 32767).astype(np.int16))
    x, info = read_wav_info(p)
    assert info.channels == 6 and dominant_freq(x) == pytest.approx(500, abs=4)


@pytest.mark.skipif(shutil.which("sox") is None, reason="sox is not installed")
def test_extensible_24bit_wav_made_by_sox(tmp_path):
    p = tmp_path / "ext.wav"
    subprocess.run(
        [
            "sox",
            "-n",
            "-r",
            "48000",
            "-c",
            "2",
            "-b",
            "24",
            "-e",
            "signed-integer",
            str(p),
            "synth",
            "0.5",
            "sine",
            "700",
            "vol",
            "0.5",
        ],
        check=True,
    )
    x, info = read_wav_info(p)
    assert info.channels == 2 and info.rate == 48000
    assert dominant_freq(x) == pytest.approx(700, abs=4)
    assert np.abs(x[2000:-2000]).max() == pytest.approx(0.5, abs=0.01)


# --- bad files: a clear message naming the file and the problem -----------------------------


def test_missing_file(tmp_path):
    p = tmp_path / "nope.wav"
    with pytest.raises(AudioFileError) as e:
        read_wav(p, lang="en")
    assert str(p) in str(e.value) and "no such file" in str(e.value)


def test_missing_file_russian_by_default(tmp_path):
    with pytest.raises(AudioFileError, match="файл не найден"):
        read_wav(tmp_path / "nope.wav")


def test_empty_file(tmp_path):
    p = tmp_path / "empty.wav"
    p.write_bytes(b"")
    with pytest.raises(AudioFileError, match="empty") as e:
        read_wav(p, lang="en")
    assert str(p) in str(e.value)


def test_wav_with_no_samples(tmp_path):
    p = tmp_path / "zero.wav"
    wavfile.write(p, 16000, np.zeros(0, np.int16))
    with pytest.raises(AudioFileError, match="no audio"):
        read_wav(p, lang="en")


def test_not_a_wav(tmp_path):
    p = tmp_path / "notes.wav"
    p.write_text("this is text, not audio\n" * 10)
    with pytest.raises(AudioFileError, match="not a WAV"):
        read_wav(p, lang="en")


@pytest.mark.parametrize("keep", [12, 16, 20, 30, 36, 40])
def test_truncated_wav_is_told_as_truncated_in_russian_by_default(tmp_path, keep):
    """A WAV cut inside its header (``head -c 30 x.wav``): scipy says "unpack requires a buffer
    of 16 bytes" or "Unexpected end of file"; the user reads that the file is cut or damaged."""
    p = tmp_path / "cut.wav"
    wavfile.write(p, 16000, (sine(440, 16000) * 32767).astype(np.int16))
    p.write_bytes(p.read_bytes()[:keep])  # 30: cut in the middle of the fmt chunk
    with pytest.raises(AudioFileError) as e:
        read_wav(p)
    msg = str(e.value)
    assert msg.startswith(f"{p}: ") and "обрезан или повреждён" in msg and f"{keep} байт" in msg
    assert "unpack" not in msg and "buffer" not in msg and "end of file" not in msg
    with pytest.raises(AudioFileError, match="truncated or damaged") as e:
        read_wav(p, lang="en")
    assert str(p) in str(e.value) and not re.search("[а-яё]", str(e.value), re.I)


def test_wav_cut_inside_its_samples_is_read_as_far_as_it_goes(tmp_path):
    """A recording cut off in its data chunk keeps the samples that are there (scipy warns)."""
    p = tmp_path / "cut.wav"
    wavfile.write(p, 16000, (sine(440, 16000) * 32767).astype(np.int16))
    p.write_bytes(p.read_bytes()[: 44 + 2 * 8000])
    assert len(read_wav(p)) == 8000


@pytest.mark.parametrize("bits", [16, 24, 32])
def test_a_wav_cut_off_says_how_much_its_header_promised(tmp_path, bits):
    """A recording cut off (the phone died) is read as far as it goes, and the reader learns
    how much of it the header promised: about, by the file's sizes, whatever the sample width
    (scipy widens 24-bit samples to 32)."""
    p = tmp_path / "cut.wav"
    x = sine(440, 16000, seconds=2.0)
    if bits == 24:
        pcm = (x * 2**23).astype("<i4").view(np.uint8).reshape(-1, 4)[:, :3].tobytes()
        fmt = struct.pack("<HHIIHH", 1, 1, 16000, 16000 * 3, 3, 24)
        body = b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
        body += b"data" + struct.pack("<I", len(pcm)) + pcm
        p.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    else:
        wavfile.write(
            p, 16000, (x * 32767).astype(np.int16) if bits == 16 else x.astype(np.float32)
        )
    whole = p.read_bytes()
    x, info = read_wav_info(p)
    assert info.missing_s == 0.0 and cut_short_note(p, info) is None  # a whole file says nothing
    p.write_bytes(whole[: len(whole) // 4])
    x, info = read_wav_info(p)
    assert 0.45 < info.seconds < 0.5 and len(x) == info.frames
    assert info.missing_s == pytest.approx(1.5, abs=0.02)
    assert cut_short_note(p, info, lang="en") == (
        f"{p}: the file is shorter than its header says (0.5 s of about 2.0 s): "
        "a recording cut off? Only what is there is heard"
    )
    assert "файл короче, чем сказано в его заголовке (0.5 с из примерно 2.0 с)" in cut_short_note(
        p, info
    )


@pytest.mark.parametrize("extra", [1, 2, 3])
def test_a_wav_cut_inside_its_last_frame_reads_the_whole_frames_before_it(tmp_path, extra):
    """Cut after a sample's first byte, or after the left channel's sample of a stereo frame:
    scipy cannot shape such a tail ("buffer size must be a multiple of element size", "cannot
    reshape"), which once refused the whole recording as broken."""
    p = tmp_path / "cut.wav"
    left = (sine(440, 16000, seconds=1.0) * 32767).astype(np.int16)
    wavfile.write(p, 16000, np.stack([left, left], axis=1))
    p.write_bytes(p.read_bytes()[: 44 + 4 * 4000 + extra])  # 4,000 whole frames and a part
    x, info = read_wav_info(p)
    assert info.frames == 4000 and info.channels == 2 and len(x) == 4000
    np.testing.assert_allclose(x, left[:4000] / 32768.0, atol=1e-4)
    assert info.missing_s == pytest.approx(0.75, abs=0.01)


def test_a_recording_quieter_than_the_detector_was_fitted_on_is_told(tmp_path):
    """Peaks under −30 dBFS: the same sessions played back quieter lose strikes (the
    measurement in QUIET_PEAK_DB's text). Silence says nothing: it is its own story."""
    x = sine(440, 16000) * 10 ** (-40 / 20) / 0.5  # peak −40 dBFS
    p = tmp_path / "quiet.wav"
    assert audio.quiet_note(p, x, lang="en") == (
        f"{p}: a quiet recording (its loudest sound -40 dBFS): strikes are heard less surely "
        "under -30 dBFS; record with more microphone gain"
    )
    assert "тихая запись (самый громкий звук -40 дБ от полной шкалы)" in audio.quiet_note(p, x)
    assert audio.quiet_note(p, x * 10 ** (15 / 20)) is None  # −25 dBFS
    assert audio.quiet_note(p, np.zeros(1600, np.float32)) is None
    assert audio.quiet_note(p, np.zeros(0, np.float32)) is None
    wavfile.write(p, 16000, (x * 32767).astype(np.int16))
    samples, info = read_wav_info(p)
    assert audio.file_notes(p, samples, info, lang="en") == [
        audio.quiet_note(p, samples, lang="en")
    ]


def _room(seconds: float, db: float, seed: int = 0) -> np.ndarray:
    """Room noise at ``db`` dBFS RMS, in 10 ms blocks."""
    x = np.random.default_rng(seed).normal(0.0, 10 ** (db / 20), int(RATE * seconds))
    return x.astype(np.float32)


def _watch(x: np.ndarray, **kw) -> list[tuple[float, str]]:
    w = audio.LevelWatch(lang="en", **kw)
    n = RATE // 100
    return [(i / RATE, note) for i in range(0, len(x), n) if (note := w.feed(x[i : i + n]))]


def test_a_microphone_that_hears_nothing_is_told_once_after_ten_seconds():
    [(t, note)] = _watch(np.zeros(RATE * 30, np.float32))
    assert t == pytest.approx(9.99, abs=0.011)
    assert note == (
        "the microphone hears nothing (its loudest sound in 10 s: silence): is it muted, or "
        "another device (--list-devices)?"
    )
    [(_, note)] = _watch(_room(15, -100))  # a dead input's dither, not a room
    assert "hears nothing" in note and "-8" in note and "dBFS" in note
    [(_, note)] = _watch(np.zeros(RATE * 11, np.float32), tablet=True)  # the pad's: no devices
    assert note == (
        "the tablet's microphone hears nothing (its loudest sound in 10 s: silence): is it "
        "muted, or taken by another app?"
    )


def test_a_quiet_microphone_is_told_once_something_stands_out_of_the_room():
    """The room alone says nothing of the gain (nobody spoke yet): the watch waits for a voice or
    a knock, and tells when even that stays under −30 dBFS."""
    x = _room(30, -62)
    assert _watch(x) == []  # a quiet room, nothing standing out: nothing to say yet
    ring = np.arange(RATE // 10)  # a knock ringing down over 100 ms, its peak −40 dBFS
    knock = (np.exp(-ring / 400.0) * np.sin(ring * 0.6) * 10 ** (-40 / 20)).astype(np.float32)
    x[RATE * 20 : RATE * 20 + len(knock)] += knock
    [(t, note)] = _watch(x)
    assert 20.0 <= t < 20.05
    peak = int(note.split("its loudest sound ")[1].split(" dBFS")[0])
    assert -41 <= peak <= -39 and note.startswith("the microphone hears quietly (")
    assert note.endswith("turn its gain up")
    [(_, note)] = _watch(x, tablet=True)
    assert note.endswith("put the tablet nearer the table")
    assert _watch(x * 10 ** (25 / 20)) == []  # the same at −15 dBFS: loud enough
    assert _watch(_room(200, -62), give_up_s=60.0) == []  # and it stops watching


def test_a_whole_wav_whose_header_overstates_it_by_a_few_bytes_is_not_called_cut_off(tmp_path):
    """Some writers count in the RIFF size a few bytes they never write (a trailing chunk's
    header): the samples are all there, and nothing is said of a cut."""
    p = tmp_path / "whole.wav"
    wavfile.write(p, 16000, (sine(440, 16000) * 32767).astype(np.int16))
    b = bytearray(p.read_bytes())
    b[4:8] = struct.pack("<I", len(b) - 8 + 8)
    p.write_bytes(bytes(b))
    x, info = read_wav_info(p)
    assert len(x) == 8000 and info.missing_s == 0.0 and cut_short_note(p, info) is None


def test_a_streamed_wav_with_no_size_yet_is_not_called_cut_off(tmp_path):
    """A stream's writer puts a placeholder size (0xFFFFFFFF) in the header until it ends: the
    samples there are the whole recording so far, not a cut one."""
    p = tmp_path / "stream.wav"
    wavfile.write(p, 16000, (sine(440, 16000) * 32767).astype(np.int16))
    b = bytearray(p.read_bytes())
    b[4:8] = struct.pack("<I", 0xFFFFFFFF)
    p.write_bytes(bytes(b))
    x, info = read_wav_info(p)
    assert len(x) == 8000 and info.missing_s == 0.0 and cut_short_note(p, info) is None


def _wav_bytes(fmt_body: bytes, fmt_size: int | None = None) -> bytes:
    fmt = b"fmt " + struct.pack("<I", len(fmt_body) if fmt_size is None else fmt_size) + fmt_body
    body = b"WAVE" + fmt + b"data" + struct.pack("<I", 4) + b"\0\0\0\0"
    return b"RIFF" + struct.pack("<I", len(body)) + body


@pytest.mark.parametrize(
    "fmt_body",
    [
        b"\x01\x00\x01\x00\x80\x3e\x00\x00",  # fmt chunk too short
        struct.pack("<HHIIHH", 1, 1, 16000, 1234, 2, 16),  # byte rate != rate × block align
    ],
    ids=["short-fmt", "bad-byte-rate"],
)
def test_damaged_header_is_told_in_the_users_language(tmp_path, fmt_body):
    p = tmp_path / "bad.wav"
    p.write_bytes(_wav_bytes(fmt_body))
    with pytest.raises(AudioFileError, match="повреждён: неверный заголовок"):
        read_wav(p)
    with pytest.raises(AudioFileError, match="damaged: its header"):
        read_wav(p, lang="en")


def test_an_unforeseen_reader_failure_names_the_file_and_says_the_detail_is_scipys(
    tmp_path, monkeypatch
):
    from scipy.io import wavfile as wf

    p = tmp_path / "odd.wav"
    wavfile.write(p, 16000, np.zeros(10, np.int16))

    def refuse(*a, **k):
        raise ValueError("something new")

    monkeypatch.setattr(wf, "read", refuse)
    with pytest.raises(AudioFileError) as e:
        read_wav(p)
    assert str(e.value) == (
        f"{p}: повреждённый или неподдерживаемый WAV "
        "(подробности от библиотеки чтения: «something new»)"
    )


def test_unsupported_encoding(tmp_path):
    """A WAV with a format the reader does not decode (here μ-law): refused, not misread."""
    p = tmp_path / "ulaw.wav"
    if shutil.which("sox") is None:
        pytest.skip("sox is not installed")
    subprocess.run(
        ["sox", "-n", "-r", "8000", "-e", "u-law", str(p), "synth", "0.2", "sine", "440"],
        check=True,
    )
    with pytest.raises(AudioFileError, match=r"unsupported sound encoding in the WAV \(MULAW\)"):
        read_wav(p, lang="en")
    with pytest.raises(AudioFileError, match="неподдерживаемая кодировка"):
        read_wav(p)


def test_directory(tmp_path):
    with pytest.raises(AudioFileError, match="directory"):
        read_wav(tmp_path, lang="en")


def test_file_frames_fails_at_once(tmp_path):
    with pytest.raises(AudioFileError):
        file_frames(tmp_path / "nope.wav")


# --- frames and their clock ------------------------------------------------------------------


def test_file_frames_clock(tmp_path):
    p = tmp_path / "s.wav"
    x = sine(440, 16000, seconds=1.1)[:16080]
    wavfile.write(p, 16000, (x * 32767).astype(np.int16))
    frames = list(file_frames(p, block_ms=20))
    assert [len(f.samples) for f in frames[:-1]] == [320] * (len(frames) - 1)
    assert len(frames[-1].samples) == 16080 % 320
    assert [f.t0 for f in frames[:3]] == [0.0, 0.02, 0.04]
    assert frames[-1].t1 == pytest.approx(16080 / 16000)
    assert np.array_equal(np.concatenate([f.samples for f in frames]), read_wav(p))


def test_frame_unpacks_as_feed_arguments():
    f = next(array_frames(np.zeros(1000, np.float32), 10))
    samples, t0 = f
    assert len(samples) == 160 and t0 == 0.0


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 5000), block_ms=st.sampled_from([1, 5, 10, 20, 32, 50]))
def test_frames_cover_the_signal_on_one_clock(n, block_ms):
    x = np.arange(n, dtype=np.float32)
    frames = array_frames(x, block_ms)
    got = list(frames)
    assert frames.samples_read == n and frames.time == n / RATE
    if n:
        assert np.array_equal(np.concatenate([f.samples for f in got]), x)
    for f in got:  # each block's start time is its first sample's index / RATE
        assert f.t0 == pytest.approx(f.samples[0] / RATE)


def test_to_pcm16_round_trip():
    x = np.array([0.0, 0.5, -0.5, 1.0, -1.0, 2.0], np.float32)
    back = np.frombuffer(to_pcm16(x), "<i2")
    assert back.tolist() == [0, 16384, -16384, 32767, -32767, 32767]


def test_write_wav_read_back(tmp_path):
    x = sine(440, RATE).astype(np.float32)
    audio.write_wav(tmp_path / "w.wav", x)
    assert np.abs(read_wav(tmp_path / "w.wav") - x).max() < 1e-4


# --- a long recording is read a piece at a time ------------------------------------------------


def _noise_wav(path, rate: int, channels: int, dtype, seconds: float = 3.3, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((int(rate * seconds) + 7, channels)) * 0.2
    x[rate // 2 :: rate // 3] += 0.7  # clicks: edges the resampling filter must carry over
    x = np.clip(x, -1, 1)
    if np.dtype(dtype).kind == "f":
        data = x.astype(dtype)
    elif dtype == np.uint8:
        data = np.round(x * 127 + 128).astype(np.uint8)
    else:
        data = np.round(x * (np.iinfo(dtype).max - 1)).astype(dtype)
    wavfile.write(path, rate, data[:, 0] if channels == 1 else data)


@pytest.mark.parametrize("rate", [8000, 11025, 16000, 44100, 48000, 96000])
@pytest.mark.parametrize("channels", [1, 2])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.float32, np.float64])
def test_a_long_wav_read_a_piece_at_a_time_gives_the_same_samples(
    tmp_path, monkeypatch, rate, channels, dtype
):
    """Over ``STREAM_BYTES`` a WAV's samples stay in the file and are made 16 kHz mono a chunk at
    a time (an evening's recording: 4.5 GB of memory for an hour at 44.1 kHz stereo before,
    see bench/bench_long_file.py). Small chunks here, so that every file is cut many times."""
    p = tmp_path / "long.wav"
    _noise_wav(p, rate, channels, dtype)
    whole = read_wav(p)  # under STREAM_BYTES: read whole, as before
    monkeypatch.setattr(audio, "STREAM_BYTES", 0)
    monkeypatch.setattr(audio, "CHUNK_FRAMES", 5000)
    got_rate, data, short = audio._load(str(p), "en")
    assert isinstance(data, audio.FileSamples) and got_rate == rate and short == 1.0
    x, info = read_wav_info(p)
    assert (info.rate, info.channels, info.frames) == (rate, channels, data.shape[0])
    assert info.dtype == str(np.dtype(dtype)) and info.missing_s == 0.0
    assert x.dtype == np.float32 and x.shape == whole.shape
    np.testing.assert_allclose(x, whole, atol=1e-6)


@pytest.mark.parametrize("rate", [11025, 22050, 44100, 48000])
def test_resampling_in_chunks_is_resampling_the_whole(rate):
    """Each chunk carries enough of its neighbours for the filter, from a frame where both clocks
    meet: no seam at the joins (a click right on one included)."""
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(rate * 2 + 13) * 0.1).astype(np.float32)
    x[len(x) // 2] = 0.9
    whole = audio.resample(x, rate)
    for chunk in (999, 7_000, len(x) // 2):
        got = audio.to_pipeline_rate(x, rate, chunk=chunk)
        assert got.shape == whole.shape
        np.testing.assert_allclose(got, whole, atol=1e-6)


def _riff(
    fmt: bytes, pcm: bytes, *, big=False, before=b"", after=b"", riff_extra=0, data_size=None
):
    """A WAV byte by byte: ``fmt`` the fmt chunk's body, chunks ``before`` and ``after`` the
    data chunk, the RIFF size overstated by ``riff_extra``, the data size given as ``data_size``
    (a stream's 0xFFFFFFFF)."""
    o = ">" if big else "<"
    body = b"WAVE" + b"fmt " + struct.pack(o + "I", len(fmt)) + fmt + before
    n = len(pcm) if data_size is None else data_size
    body += b"data" + struct.pack(o + "I", n) + pcm + (b"\0" if len(pcm) % 2 else b"") + after
    size = min(len(body) + riff_extra, 0xFFFFFFFF)
    return (b"RIFX" if big else b"RIFF") + struct.pack(o + "I", size) + body


def _pcm_fmt(tag, channels, rate, width, bits, big=False, extensible=False):
    o = ">" if big else "<"
    core = struct.pack(
        o + "HHIIHH",
        0xFFFE if extensible else tag,
        channels,
        rate,
        rate * channels * width,
        channels * width,
        bits,
    )
    if not extensible:
        return core
    guid = struct.pack(o + "H", tag) + audio._SUBTYPE_TAIL
    return core + struct.pack(o + "HHI", 22, bits, 0) + guid


def _samples(n: int, channels: int, width: int, big: bool, seed: int = 4) -> bytes:
    rng = np.random.default_rng(seed)
    v = rng.integers(-(2 ** (8 * width - 2)), 2 ** (8 * width - 2), size=n * channels)
    v[::97] = 2 ** (8 * width - 1) - 1  # full scale now and then
    b = v.astype(">i8" if big else "<i8").view(np.uint8).reshape(-1, 8)
    return (b[:, -width:] if big else b[:, :width]).tobytes()


_LIST = b"LIST" + struct.pack("<I", 10) + b"INFOISFT\0\0"

_LAYOUTS = {
    # name: (fmt, pcm, _riff keywords)
    "16-bit stereo": lambda: (_pcm_fmt(1, 2, 44100, 2, 16), _samples(9000, 2, 2, False), {}),
    "24-bit mono": lambda: (_pcm_fmt(1, 1, 48000, 3, 24), _samples(9000, 1, 3, False), {}),
    "24-bit stereo extensible": lambda: (
        _pcm_fmt(1, 2, 37800, 3, 24, extensible=True),
        _samples(9000, 2, 3, False),
        {},
    ),
    "20-bit in 3 bytes": lambda: (_pcm_fmt(1, 2, 22050, 3, 20), _samples(9000, 2, 3, False), {}),
    "32-bit": lambda: (_pcm_fmt(1, 1, 8000, 4, 32), _samples(9000, 1, 4, False), {}),
    "8-bit 3 channels": lambda: (
        _pcm_fmt(1, 3, 11025, 1, 8),
        np.arange(27000, dtype=np.uint8).tobytes(),
        {},
    ),
    "float 32": lambda: (
        _pcm_fmt(3, 1, 16000, 4, 32),
        (np.sin(np.arange(9000) / 7) * 0.5).astype("<f4").tobytes(),
        {},
    ),
    "RIFX 16-bit": lambda: (
        _pcm_fmt(1, 2, 44100, 2, 16, big=True),
        _samples(9000, 2, 2, True),
        {"big": True},
    ),
    "RIFX 24-bit": lambda: (
        _pcm_fmt(1, 1, 44100, 3, 24, big=True),
        _samples(9000, 1, 3, True),
        {"big": True},
    ),
    "LIST before and after": lambda: (
        _pcm_fmt(1, 1, 44100, 2, 16),
        _samples(9000, 1, 2, False),
        {"before": _LIST, "after": _LIST},
    ),
    "header overstating by 50 kB": lambda: (
        _pcm_fmt(1, 1, 44100, 2, 16),
        _samples(9000, 1, 2, False),
        {"riff_extra": 50_000},
    ),
    "streamed, no size yet": lambda: (
        _pcm_fmt(1, 2, 48000, 2, 16),
        _samples(9000, 2, 2, False),
        {"riff_extra": 1 << 40, "data_size": 0xFFFFFFFF},
    ),
}


@pytest.mark.parametrize("layout", sorted(_LAYOUTS))
@pytest.mark.parametrize("cut", [0, 4000, 4001, 4003])
def test_a_long_wav_read_a_piece_at_a_time_is_the_whole_read_in_every_layout(
    tmp_path, monkeypatch, layout, cut
):
    """Every layout a long recording comes in, whole and cut off (``cut`` bytes gone from its
    end, some inside a frame: the phone died): read a piece at a time it gives the same samples,
    the same description and the same notes as the whole read (the old way, the oracle)."""
    fmt, pcm, kw = _LAYOUTS[layout]()
    p = tmp_path / "long.wav"
    raw = _riff(fmt, pcm, **kw)
    p.write_bytes(raw[: len(raw) - cut] if cut else raw)
    monkeypatch.setattr(audio, "STREAM_BYTES", 1 << 62)
    whole, whole_info = read_wav_info(p, lang="en")
    whole_notes = audio.file_notes(p, whole, whole_info, lang="en")
    monkeypatch.setattr(audio, "STREAM_BYTES", 0)
    monkeypatch.setattr(audio, "CHUNK_FRAMES", 1000)
    assert isinstance(audio._load(str(p), "en")[1], audio.FileSamples)
    x, info = read_wav_info(p, lang="en")
    np.testing.assert_array_equal(x, whole)
    # how much is missing is "about" (by sizes): a frame cut in the middle counts a little apart
    assert info == dataclasses.replace(whole_info, missing_s=info.missing_s)
    assert info.missing_s == pytest.approx(whole_info.missing_s, abs=1e-3)
    assert audio.file_notes(p, x, info, lang="en") == whole_notes
    if cut >= 4000 and layout != "streamed, no size yet":
        assert info.missing_s > 0 and "shorter than its header says" in whole_notes[0]


def _fmt16(**change) -> bytes:
    f = dict(tag=1, channels=1, rate=16000, byte_rate=32000, block=2, bits=16) | change
    return struct.pack("<HHIIHH", *f.values())


_PCM = bytes(range(256)) * 24  # 3,072 frames of 16-bit mono
_NOT_PLAIN = {
    # files the piece reader leaves to the whole read (found by an adversarial review)
    "ADPCM": lambda: _riff(_fmt16(tag=2), _PCM),
    "a block not of frames": lambda: _riff(_fmt16(channels=2, block=3), _PCM),
    "16-bit float": lambda: _riff(_fmt16(tag=3), _PCM),
    "a PCM byte rate that is not rate × block": lambda: _riff(_fmt16(byte_rate=12345), _PCM),
    "0 bits a sample": lambda: _riff(_fmt16(bits=0, block=1, byte_rate=16000), _PCM),
    "extensible with cbSize 0": lambda: _riff(
        _pcm_fmt(1, 1, 16000, 2, 16, extensible=True)[:16]
        + struct.pack("<H", 0)
        + _pcm_fmt(1, 1, 16000, 2, 16, extensible=True)[18:],
        _PCM,
    ),
    "RIFX extensible": lambda: _riff(
        _pcm_fmt(1, 1, 16000, 2, 16, big=True, extensible=True), _PCM, big=True
    ),
    "a RIFF size that ends before the data": lambda: (
        b"RIFF" + struct.pack("<I", 28) + _riff(_fmt16(), _PCM)[8:]
    ),
    "a second data chunk after the samples": lambda: _riff(
        _fmt16(), _PCM, after=b"data" + struct.pack("<I", 20) + bytes(20)
    ),
    "a fmt chunk after the samples": lambda: _riff(
        _fmt16(), _PCM, after=b"fmt " + struct.pack("<I", 16) + _fmt16(rate=8000)
    ),
    "a chunk after the samples cut off": lambda: _riff(
        _fmt16(), _PCM, after=b"LIST" + struct.pack("<I", 1000) + bytes(10), riff_extra=990
    ),
    "a few stray bytes after the samples": lambda: _riff(_fmt16(), _PCM, after=b"LIST\x01"),
}


@pytest.mark.parametrize("layout", sorted(_NOT_PLAIN))
def test_a_long_wav_the_piece_reader_does_not_know_goes_the_whole_way_and_is_told(
    tmp_path, monkeypatch, layout
):
    p = tmp_path / "odd.wav"
    p.write_bytes(_NOT_PLAIN[layout]())

    def outcome():
        try:
            return read_wav(p, lang="en")
        except AudioFileError as exc:
            return str(exc)

    monkeypatch.setattr(audio, "STREAM_BYTES", 1 << 62)
    expected = outcome()
    monkeypatch.setattr(audio, "STREAM_BYTES", 0)
    assert audio._left_in_file(str(p), p.stat().st_size) is None
    got = outcome()
    assert type(got) is type(expected)
    if isinstance(got, str):
        assert got == expected
    else:
        np.testing.assert_array_equal(got, expected)


def test_a_recording_of_many_channels_cut_inside_its_last_frame_is_read_both_ways(
    tmp_path, monkeypatch
):
    """24 channels of 32-bit samples (a field recorder's multitrack): a frame of 96 bytes, cut
    16 bytes short. The whole read gave up past 63 bytes of a frame (scipy's «cannot reshape»)."""
    p = tmp_path / "multitrack.wav"
    raw = _riff(_pcm_fmt(1, 24, 48000, 4, 32), _samples(200, 24, 4, False))
    p.write_bytes(raw[:-16])
    monkeypatch.setattr(audio, "STREAM_BYTES", 1 << 62)
    whole, whole_info = read_wav_info(p)
    monkeypatch.setattr(audio, "STREAM_BYTES", 0)
    x, info = read_wav_info(p)
    assert whole_info.frames == info.frames == 199 and whole_info.channels == 24
    np.testing.assert_array_equal(x, whole)


def test_file_samples_take_plain_slices_only(tmp_path):
    p = tmp_path / "s.wav"
    p.write_bytes(_riff(_fmt16(), _PCM))
    data = audio._left_in_file(str(p), p.stat().st_size)[1]
    assert len(data[3000:3100]) == 72 and len(data[-5:]) == 5
    for bad in (slice(0, 10, 2), slice(None, None, -1), 3):
        with pytest.raises(TypeError, match="plain slice"):
            data[bad]


def test_a_long_wav_that_shrinks_while_it_is_read_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(audio, "STREAM_BYTES", 0)
    p = tmp_path / "long.wav"
    _noise_wav(p, 16000, 1, np.int16)
    rate, data, _ = audio._load(str(p), "en")
    p.write_bytes(p.read_bytes()[: 44 + 1000])  # another program cut it meanwhile
    monkeypatch.setattr(audio, "_load", lambda path, lang: (rate, data, 1.0))
    with pytest.raises(AudioFileError, match=r"long\.wav: the file changed while it was read"):
        read_wav(p, lang="en")
    with pytest.raises(AudioFileError, match=r"long\.wav: файл изменился, пока его читали"):
        read_wav(p)


# --- a phone's or a recorder's file that is not a WAV -----------------------------------------


@pytest.mark.parametrize(
    "ext, fmt, kind",
    [
        ("ogg", "vorbis", "Ogg Vorbis"),
        ("flac", "flac", "FLAC"),
        ("amr", "amr-nb", "AMR"),
        ("aiff", "aiff", "AIFF"),
        ("caf", "caf", "CAF"),
    ],
)
def test_a_recording_in_another_format_is_named_and_the_conversion_given(tmp_path, ext, fmt, kind):
    """Made by a real encoder (sox; skipped where this sox lacks the format). Nothing is read."""
    if shutil.which("sox") is None:
        pytest.skip("sox is not installed")
    p = tmp_path / f"voice note.{ext}"
    made = subprocess.run(
        ["sox", "-n", "-r", "8000", "-c", "1", "-t", fmt, str(p), "synth", "0.5", "sine", "440"],
        capture_output=True,
    )
    if made.returncode != 0:
        pytest.skip(f"this sox cannot write {fmt}")
    with pytest.raises(AudioFileError) as err:
        read_wav(p, lang="en")
    wav = tmp_path / "voice note.wav"
    assert str(err.value) == (
        f"{p}: this is a {kind} recording, not a WAV file; convert it first, e.g. with ffmpeg: "
        f"ffmpeg -i '{p}' -ac 1 -ar 16000 '{wav}'"
    )
    with pytest.raises(AudioFileError, match=f"это запись {kind}, а не WAV"):
        read_wav(p)
    named_wav = tmp_path / "voice note.wav"  # an app that names what it records .wav
    named_wav.write_bytes(p.read_bytes())
    with pytest.raises(AudioFileError) as err:
        read_wav(named_wav, lang="en")
    assert str(err.value).endswith(
        f"ffmpeg -i '{named_wav}' -ac 1 -ar 16000 '{tmp_path}/voice note-16k.wav'"
    )


@pytest.mark.parametrize(
    "head, kind",
    [
        (b"OggS\x00\x02" + bytes(22) + b"OpusHead\x01\x01", "Ogg Opus"),
        (b"\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00", "MP4/M4A (AAC)"),
        (b"\x00\x00\x00\x1cftyp3gp4\x00\x00\x00\x00", "3GP"),
        (b"ID3\x04\x00\x00\x00\x00\x00\x00", "MP3"),
        (b"\xff\xfb\x90\x64\x00\x00\x00\x00", "MP3"),
        (b"\xff\xf3\x48\xc4\x00\x00\x00\x00", "MP3"),
        (b"\xff\xf1\x50\x80\x02\x1f\xfc\x00", "AAC"),
        (b"\x1aE\xdf\xa3\x9fB\x86\x81\x01", "WebM/Matroska"),
    ],
)
def test_the_kinds_sox_cannot_write_are_told_by_their_first_bytes(head, kind):
    """The formats phones record in (M4A, Opus, 3GP) and MP3: their headers as the
    specifications give them (no encoder for them on this machine's sox)."""
    assert audio.recording_kind(head + bytes(64)) == kind


@pytest.mark.parametrize(
    "head",
    [b"RIFF\x24\x00\x00\x00WAVEfmt ", b"this is text, not audio", bytes(64), b"\xff\xd8\xff"],
)
def test_a_wav_or_something_that_is_no_recording_is_not_given_a_kind(head):
    assert audio.recording_kind(head) is None
