"""How far a true strike stands above the rest of the mix (corpora/audio/strike_snr.py): the
measure on made-up signals whose answer is known, and on a real mixed session's stems (the
mixer's strikes through the room, and the mix less them)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import strike_snr as ss  # corpora/audio/strike_snr.py (path set in conftest.py)

RATE = 16000


def _click(n: int, at: int, rate: int = RATE) -> np.ndarray:
    """A decaying 3 kHz burst from sample ``at``: a knock's energy in one octave."""
    t = np.arange(n - at) / rate
    x = np.zeros(n)
    x[at:] = np.sin(2 * np.pi * 3000 * t) * np.exp(-t / 0.004)
    return x


def test_the_snr_follows_the_strikes_level_in_its_own_band():
    rng = np.random.default_rng(1)
    n, at = RATE, RATE // 2
    rest = rng.normal(0, 0.01, n)
    click = _click(n, at)
    snr, where = ss.strike_snr(click, rest, at, RATE)
    louder, _ = ss.strike_snr(click * 10 ** (10 / 20), rest, at, RATE)
    assert where.startswith("2000–4000 Hz")
    assert louder - snr == pytest.approx(10.0, abs=0.01)
    # white noise 10 dB up: the same 10 dB less, whatever window wins
    quieter, _ = ss.strike_snr(click, rest * 10 ** (10 / 20), at, RATE)
    assert snr - quieter == pytest.approx(10.0, abs=0.01)


def test_a_strike_under_the_rest_in_every_band_is_buried():
    rng = np.random.default_rng(2)
    n, at = RATE, RATE // 2
    rest = rng.normal(0, 1.0, n)
    click = _click(n, at) * 0.01
    snr, _ = ss.strike_snr(click, rest, at, RATE)
    assert snr < 0 and ss.snr_class(snr) == "buried"
    assert ss.snr_class(0.0) == "0–6 dB" and ss.snr_class(6.0) == "≥ 6 dB"
    # nothing at all: buried, not an error
    assert ss.snr_class(ss.strike_snr(np.zeros(n), rest, at, RATE)[0]) == "buried"


@pytest.mark.parametrize("reverb", [False, True])
def test_a_real_sessions_strikes_stand_clear_without_noise_and_less_in_it(bank, reverb):
    """The mixer's ``strikes_wet`` is the strikes as the microphone gets them (through the room
    when there is one): in a session with no noise every strike stands well clear; the same
    session in 0 dB of noise puts each one lower. Asking for the stems changes no sample."""
    import table_mix as tm

    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed: the calls cannot be made")
    kw = dict(sources={"tailuge"}, n_strokes=3, reverb=reverb, noise="pink")
    x0, t0, st0 = tm.make_session(
        np.random.default_rng(5), bank, snr_db=None, with_stems=True, **kw
    )
    x1, t1, st1 = tm.make_session(np.random.default_rng(5), bank, snr_db=0, with_stems=True, **kw)
    same, _ = tm.make_session(np.random.default_rng(5), bank, snr_db=0, **kw)
    assert np.array_equal(same, x1)
    assert (np.abs(st0["strikes_wet"] - st0["strikes"]).max() > 1e-3) == reverb
    clean = ss.session_snrs(x0, t0, st0, tm.RATE)
    noisy = ss.session_snrs(x1, t1, st1, tm.RATE)
    assert len(clean) == len(t0["strokes"]) == 3
    assert min(clean) > 20
    assert all(b < a - 10 for a, b in zip(clean, noisy))
