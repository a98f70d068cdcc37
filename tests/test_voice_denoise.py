"""RNNoise's measures (voice/denoise.py): the library loads from the wheel, it keeps speech and
takes noise away, the measures depend only on the audio around a knock, and without the library
the detector still decides (without them) and says why."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from pyramid_referee.voice import denoise as dn
from pyramid_referee.voice.audio import read_wav


@pytest.fixture
def fresh_loader(monkeypatch):
    """The process's denoiser forgotten for the test (and restored after it)."""
    monkeypatch.setattr(dn, "_LOADED", None)


def test_library_loads_from_the_wheel(monkeypatch, fresh_loader):
    monkeypatch.delenv(dn.LIBRARY_ENV, raising=False)
    den = dn.load()
    assert den.path.exists() and den.path.parent.name == "pyrnnoise"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_keeps_speech_and_takes_noise_away(tmp_path):
    """The real library on real synthetic speech: of a Russian call it keeps most; of white
    noise as loud it keeps almost nothing; its voice probability says which is which."""
    wav = tmp_path / "call.wav"
    subprocess.run(
        ["espeak-ng", "-v", "ru", "-w", str(wav), "двенадцатый шар в левый угол"], check=True
    )
    speech = read_wav(wav).astype(np.float64)  # (16 kHz mono, as the pipeline hears)
    noise = np.random.default_rng(0).normal(0, np.std(speech), len(speech))
    den = dn.load()
    kept = {}
    for name, sig in (("speech", speech), ("noise", noise)):
        w = dn.window_frames(den, sig, 16000)
        loud = w.ein > np.percentile(w.ein, 50)  # the frames that carry the sound
        kept[name] = (w.eout[loud].sum() / w.ein[loud].sum(), w.vad[loud].mean())
    assert kept["speech"][0] > 0.3 and kept["noise"][0] < 0.05, kept
    assert kept["speech"][1] > 0.6 and kept["noise"][1] < 0.2, kept


def knock_in_noise(seed=1, n=16000 * 3, at=1.5):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 0.003, n)
    i = int(at * 16000)
    t = np.arange(400) / 16000
    x[i : i + 400] += 0.5 * np.exp(-t / 0.004) * np.sin(2 * np.pi * 900 * t)
    return x


def test_a_knock_stands_out_in_what_it_removes():
    """A tip-like knock (a decaying 900 Hz burst) in steady noise: RNNoise takes most of it away,
    so what it removes at the onset rises far over what it removed before."""
    m = dict(zip(dn.RNN_FEATURES, dn.measures_at(dn.load(), knock_in_noise(), 1.5, 16000)))
    assert m["rnn_res_rise_pre"] > 20 and m["rnn_res_rise_bg"] > 20, m
    assert m["rnn_keep_on"] < -3, m


def test_measures_depend_only_on_the_audio_around_the_knock():
    """The same knock with other audio more than the window away gives the same measures, and
    the stream before its first sample counts as silence."""
    den = dn.load()
    x = knock_in_noise()
    y = x.copy()
    y[: int(0.2 * 16000)] = 0.3  # far before the window (1.5 − 1.1 s)
    y[int(2.5 * 16000) :] = -0.3  # far after it
    a = dn.measures_at(den, x, 1.5, 16000)
    assert a == dn.measures_at(den, y, 1.5, 16000)
    # near the start: the window reaches before the first sample
    early = dn.measures_at(den, x[int(1.2 * 16000) :], 0.3, 16000)
    lo, _hi, _hop = dn.window_bounds(0.3, 16000)
    assert lo < 0 and all(np.isfinite(early))


def test_tape_keeps_the_last_seconds_by_index():
    rng = np.random.default_rng(3)
    x = rng.normal(size=16000 * 12)
    tape = dn.Tape(16000, keep_s=2.0)
    i = 0
    while i < len(x):
        n = int(rng.integers(1, 5000))
        tape.append(x[i : i + n])
        i += n
        a = max(0, tape.end - 32000)
        assert np.array_equal(tape.get(a, tape.end), x[a : tape.end])
    assert np.array_equal(tape.get(len(x) - 100, len(x) + 50)[100:], np.zeros(50))
    with pytest.raises(ValueError, match="no longer kept"):
        tape.get(0, 100)
    short = dn.Tape(16000, keep_s=1.0)
    short.append(x[:100])
    assert np.array_equal(short.get(-50, 100)[:50], np.zeros(50))


def test_without_the_library_the_detector_decides_and_says_why(monkeypatch, fresh_loader):
    monkeypatch.setenv(dn.LIBRARY_ENV, "/nonexistent/librnnoise.so")
    with pytest.raises(dn.DenoiserUnavailable, match="/nonexistent/librnnoise.so"):
        dn.load()
    from pyramid_referee.voice.strike import StrikeDetector

    det = StrikeDetector()
    assert det.rnn_model is None and "/nonexistent" in str(det.denoise_error)
    x = knock_in_noise().astype(np.float32)
    det.feed(x, 0.0)
    det.flush()  # decides, without the measures


def test_the_cli_says_when_rnnoise_is_missing(monkeypatch, fresh_loader, tmp_path, capsys):
    from scipy.io import wavfile

    from pyramid_referee.cli import main

    wav = tmp_path / "knock.wav"
    wavfile.write(wav, 16000, (knock_in_noise() * 32767).astype(np.int16))
    monkeypatch.setenv(dn.LIBRARY_ENV, "/nonexistent/librnnoise.so")
    assert main(["strikes", str(wav)]) == 0
    err = capsys.readouterr().err
    assert "RNNoise" in err and "/nonexistent/librnnoise.so" in err


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_detector_weighs_the_knocks_it_may_take_with_the_measures(bank, monkeypatch):
    """A mixed session (recorded strikes and their strokes, espeak-ng calls, café-like noise at
    20 dB) through the shipped detector: the knocks the first decision gives at least
    ``denoise_from_p`` are decided again with the measures (``denoised``), the others are not;
    the strikes are found, and the same audio in other blocks gives the same decisions, and the
    same probabilities to the last digit for the knocks weighed with the measures (each window
    is read from the tape on the stream's own grid). (In blocks longer than the decision's
    horizon the decision without the measures may differ in the last digits for a faint knock:
    the talk heard by the time it is decided differs.)"""
    import table_mix

    from pyramid_referee.voice.audio import array_frames
    from pyramid_referee.voice.strike import StrikeDetector

    x, truth = table_mix.make_session(
        np.random.default_rng(4), bank, n_strokes=4, snr_db=20, noise="pink", reverb=False
    )
    x = x.astype(np.float32)

    def run(block_ms):
        det = StrikeDetector()
        assert det.rnn_model is not None, det.denoise_error
        for fr in array_frames(x, block_ms):
            det.feed(fr.samples, fr.t0)
        det.flush()
        return det

    det = run(10)
    weighed = [s for s in det.sounds if s.denoised]
    assert weighed and len(weighed) < len(det.sounds)
    true = sorted(s["strike"] for s in truth["strokes"])
    found = [t for t in true if any(abs(s.time - t) <= 0.04 for s in det.strikes)]
    assert len(found) >= 3, (true, [s.time for s in det.strikes])
    assert all(s.denoised for s in det.strikes)  # a strike is always weighed (p ≥ 0.6)

    def seen(d):
        return [
            (s.time, s.decision, s.denoised, s.p_strike if s.denoised else 0) for s in d.sounds
        ]

    for other in (7.3, 1300):
        assert seen(run(other)) == seen(det)
    # a window runs a slice a block (``denoise_frames_per_s``: 40 frames a 40 ms block heard,
    # ``hear_block_s``), so no block waits for a whole one, and its knock is decided with the
    # block after its last slice: the same decisions as when each window runs whole in the
    # block that decides its knock, 0.2 s later
    slices = []
    step = dn.WindowRun.step

    def logged(run, frames=None):
        before = run._i
        done = step(run, frames)
        slices.append(run._i - before)
        return done

    monkeypatch.setattr(dn.WindowRun, "step", logged)
    decided = {}
    for rate in (1e9, StrikeDetector().params.denoise_frames_per_s):
        slices.clear()
        other = StrikeDetector(denoise_frames_per_s=rate)
        at = decided.setdefault(rate, {})
        for fr in array_frames(x, 10):
            for t in other.feed(fr.samples, fr.t0):
                at.setdefault(t, fr.t1)
        other.flush()
        assert seen(other) == seen(det)
        per_block = round(rate * other.params.hear_block_s)
        assert slices and max(slices) == min(145, per_block), slices
    whole, sliced = decided.values()
    assert sorted(whole) == sorted(sliced) == sorted(round(s.time, 4) for s in det.strikes)
    assert all(whole[t] <= t + 1.32 for t in whole)  # … the 40 ms block after it decides
    assert all(whole[t] < sliced[t] <= whole[t] + 0.2 for t in whole)  # … 0.15–0.2 s later
