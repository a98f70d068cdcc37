"""`strikes calibrate` (pyramid_referee/referee/calibrate.py): hear strikes and collisions,
save the profile.

The calibration audio is made of recordings ($PYRAMID_SOUNDS_DIR, read in place): the strikes a
player was asked for, one at a time, and a ball rolled into another.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from pyramid_referee.cli import main

RATE = 16000


def scene(bank, names_at, seconds, seed=0):
    import table_mix

    x = table_mix.pink(np.random.default_rng(seed), int(seconds * RATE)) * 0.002
    x[: RATE // 2] *= np.linspace(0.0, 1.0, RATE // 2)  # no step where playback starts
    for name, at, peak in names_at:
        s, onset = table_mix.strike_sample(name, bank=bank, peak=peak)
        k = int(round((at - onset) * RATE))
        x[k : k + len(s)] += s[: len(x) - k]
    return x


@pytest.fixture()
def recordings(tmp_path, bank):
    import table_mix

    cues = [
        "cue_vrcbce_1.wav",
        "cue_rxn7_1.wav",
        "cue_vrcbce_1.wav",
        "cue_sinuca_1.wav",
        "cue_vrcbce_1.wav",
    ]
    strikes = scene(bank, [(n, 1.0 + 2.5 * i, 0.5 + 0.05 * i) for i, n in enumerate(cues)], 14.0)
    balls = ["ball_vrcbce_1.wav", "ball_vrcbce_4.wav", "ball_8ballypool_2.wav"]
    collisions = scene(bank, [(n, 1.0 + 2.0 * i, 0.4) for i, n in enumerate(balls)], 7.5, seed=1)
    s, c = tmp_path / "strikes.wav", tmp_path / "collisions.wav"
    table_mix.write_wav(s, strikes)
    table_mix.write_wav(c, collisions)
    return s, c, [1.0 + 2.5 * i for i in range(5)]


@pytest.fixture()
def profiles(tmp_path, monkeypatch):
    d = tmp_path / "profiles"
    monkeypatch.setenv("PYRAMID_REFEREE_PROFILES", str(d))
    return d


def test_calibration_from_recordings_finds_every_strike_and_saves_the_profile(
    recordings, profiles, capsys
):
    s, c, _ = recordings
    assert main(["strikes", "calibrate", "--from", str(s), str(c)]) == 0
    out = capsys.readouterr().out
    assert "найдено 5 ударов из 5" in out and "столкновений услышано: 3" in out
    assert "профиль «default» сохранён" in out
    saved = json.loads((profiles / "default.json").read_text(encoding="utf-8"))
    assert saved["strikes_found"] == 5 and saved["collisions_heard"] == 3
    assert saved["collisions_as_strikes"] == 0
    assert -75 < saved["min_level_db"] < saved["strike_level_db"] < 0


def test_the_saved_profile_is_used_by_strikes(recordings, profiles, capsys):
    s, c, truth = recordings
    assert (
        main(["strikes", "calibrate", "--from", str(s), str(c), "--name", "table2", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["saved"].endswith("table2.json") and data["profile"]["name"] == "table2"
    # strikes 2.5 s apart with no call between: the table counts as quiet after 2 s here
    assert main(["strikes", str(s), "--json", "--profile", "table2", "--stroke-window", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["strikes"] == pytest.approx(truth, abs=0.040)
    assert main(["strikes", str(s), "--profile", "nosuch"]) == 2
    assert "профиль стола не найден" in capsys.readouterr().err


def test_a_calibration_that_heard_too_few_strikes_saves_nothing(recordings, profiles, capsys):
    s, c, _ = recordings
    assert main(["strikes", "calibrate", "--from", str(s), "--count", "6", "--lang", "en"]) == 1
    captured = capsys.readouterr()
    assert "found 5 strikes of 6" in captured.out
    assert (
        "no profile saved: heard 5 strikes of 6 (at 1.0, 3.5, 6.0, 8.5, 11.0 s); 1 is missing"
        in captured.err
    )
    assert not profiles.exists() or not any(profiles.iterdir())


def test_too_few_strikes_are_told_in_russian_with_the_right_plural_and_which_were_heard(
    recordings, profiles, capsys
):
    """Never «услышано 3 ударов, а просили 5»: the count agrees with its noun, the strikes heard
    are named by their times, and what is missing is said."""
    s, c, _ = recordings
    assert main(["strikes", "calibrate", "--from", str(s), "--count", "7"]) == 1
    err = capsys.readouterr().err
    assert "услышано 5 ударов из 7 (в 1,0, 3,5, 6,0, 8,5, 11,0 с); не хватает 2" in err
    assert "профиль не сохранён" in err and "ударов, а просили" not in err
    assert not profiles.exists() or not any(profiles.iterdir())


@pytest.mark.parametrize(
    "args, expect",
    [
        (["--count", "0"], "--count"),
        (["--collisions", "-1"], "--collisions"),
        (["--from", "a.wav", "b.wav", "c.wav"], "не больше двух"),
    ],
)
def test_bad_calibration_options_are_named(args, expect, profiles, capsys):
    assert main(["strikes", "calibrate", *args]) == 2
    assert expect in capsys.readouterr().err
    assert not profiles.exists()


def test_from_outside_calibration_is_refused(recordings, capsys):
    s, _, _ = recordings
    assert main(["strikes", str(s), "--from", str(s)]) == 2
    assert "calibrate" in capsys.readouterr().err


CALIBRATE_LIVE = """
import sys
from pyramid_referee.cli import main
sys.exit(main(["strikes", "calibrate", "--count", "5", "--collisions", "0", "--seconds", "30",
               "--device", "default"]))
"""


@pytest.mark.long  # 19 s, at real time on 2 cores
def test_calibration_through_the_microphone(pulse, recordings, tmp_path):
    """The real microphone path: the strikes played into a PulseAudio null sink whose monitor is
    the default input; the calibration hears them as they come and stops at the fifth."""
    s, _, _ = recordings
    env = dict(pulse, PYRAMID_REFEREE_PROFILES=str(tmp_path / "live"))
    proc = subprocess.Popen(
        [sys.executable, "-c", CALIBRATE_LIVE],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = proc.stderr.readline()  # the prompt comes once the microphone is open: strike after it
    assert "слушаю до 30 с" in first, first
    subprocess.run(["paplay", str(s)], env=pulse, check=True, timeout=30)
    out, err = proc.communicate(timeout=60)
    err = first + err
    assert proc.returncode == 0, err[-2000:]
    assert "услышано: 5 из 5" in err and "Калибровка: сделайте 5 ударов" in err
    assert "найдено 5 ударов из 5" in out
    assert (tmp_path / "live" / "default.json").exists()


@pytest.mark.long  # 45 s, at real time: three rounds of 11 s
def test_calibration_on_a_muted_microphone_says_so_and_saves_nothing(pulse, tmp_path):
    """Nothing played into the null sink: its monitor is a muted microphone. Each round of
    listening says the microphone hears nothing (10 s in: it may be unmuted between rounds),
    then that no strike was heard; no profile."""
    env = dict(pulse, PYRAMID_REFEREE_PROFILES=str(tmp_path / "muted"))
    proc = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "strikes", "calibrate", "--count", "3"]
        + ["--collisions", "0", "--seconds", "11", "--device", "default"],
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    rounds = proc.stderr.count("(слушаю до 11 с")
    assert rounds >= 1
    assert proc.stderr.count("pyramid-referee: микрофон ничего не слышит (самый громкий") == rounds
    assert "не хватает 3" in proc.stderr
    assert not (tmp_path / "muted").exists() or not list((tmp_path / "muted").glob("*.json"))


def test_calibration_report_counts_in_russian_plurals_and_never_says_minus_zero_db():
    from types import SimpleNamespace

    from pyramid_referee.i18n import set_lang
    from pyramid_referee.referee.calibrate import report

    p = SimpleNamespace(
        strikes_found=3,
        strikes_asked=5,
        strikes_sure_before=1,
        collisions_heard=0,
        collisions_as_strikes=0,
        separable=True,
        strike_level_db=-0.3,
        background_db=-41.6,
        strike_decay_ms=40.0,
        direct_to_late_db=-0.4,
        tip_bias=0.0,
        min_level_db=-0.2,
    )
    set_lang("ru")
    lines = report(p)
    assert lines[0].startswith("найдено 3 удара из 5")  # not «3 ударов»
    assert "−0" not in lines[-1] and "-0 " not in lines[-1] and "уровень ударов 0 дБ" in lines[-1]
    p.strikes_found = 1
    assert report(p)[0].startswith("найден 1 удар из 5")
