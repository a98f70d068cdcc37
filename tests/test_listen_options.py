"""``listen`` below the command line gets plain values (``ListenOptions``), never argparse's
Namespace; the profile it names is read by the voice package (``profile.load_spec``)."""

from __future__ import annotations

import dataclasses
import io

import pytest

from pyramid_referee import cli
from pyramid_referee.cli.voice import listen_options
from pyramid_referee.i18n import UserError
from pyramid_referee.referee.options import ListenOptions
from pyramid_referee.voice import profile as prof


def parsed(*argv):
    return cli.build_parser().parse_args(["listen", *argv])


def test_listen_options_are_plain_frozen_values_with_the_mode_as_the_setting_spells_it():
    opts = listen_options(
        parsed("--players", "Аня,Боря", "--mode", "ball-and-pocket", "--to-wins", "3")
    )
    assert isinstance(opts, ListenOptions) and opts.players == ["Аня", "Боря"]
    assert opts.mode == "ball_and_pocket" and opts.to_wins == 3  # C1
    with pytest.raises(dataclasses.FrozenInstanceError):  # nothing below the command line sets it
        opts.count = 9

    from pyramid_referee.referee.calibrate import CalibrateOptions

    calibration = CalibrateOptions(
        device=opts.device, block_ms=opts.block_ms
    )  # listen --calibrate's
    assert (
        calibration.count,
        calibration.collisions,
        calibration.name,
        calibration.from_files,
        calibration.seconds,
    ) == (5, 3, None, None, None)


def test_every_listen_option_reaches_the_live_run():
    args = parsed(
        "--strike",
        "key",
        "--pad",
        "--why",
        "--speak",
        "--device",
        "2",
        "--db",
        "x.sqlite",
        "--profile",
        "none",
        "--calibrate",
        "--alternatives",
        "5",
        "--block-ms",
        "20",
    )
    opts = listen_options(args)
    for name in (
        "strike",
        "pad",
        "why",
        "speak",
        "device",
        "db",
        "profile",
        "calibrate",
        "alternatives",
        "block_ms",
        "model",
        "verbose",
        "club",
        "match",
    ):
        assert getattr(opts, name) == getattr(args, name), name


def test_bad_players_are_refused_before_anything_and_ignored_beside_a_stored_match():
    with pytest.raises(UserError, match="--players"):
        listen_options(parsed("--players", "Аня", "Аня"))
    assert listen_options(parsed("--match", "3", "--players", "Аня", "Аня")).players is None


def test_the_profile_a_command_names_is_the_default_none_or_a_name(tmp_path, monkeypatch):
    monkeypatch.setenv(prof.ENV_DIR, str(tmp_path))
    assert prof.load_spec(None) is None  # no default saved
    assert prof.load_spec("none") is None and prof.load_spec("НЕТ") is None
    assert prof.asks_for_none("НЕТ") and not prof.asks_for_none(None)
    assert not prof.asks_for_none("стол 3")  # (listen's greeting: no hint when none was asked)
    with pytest.raises(prof.ProfileError, match="strikes calibrate"):
        prof.load_spec("table3")


def test_listen_calibrate_asks_five_strikes_and_three_collisions_on_its_own_microphone(
    monkeypatch,
):
    # Test double: the calibration itself (it would record from the microphone); it hears all it
    # was asked, so nothing is refused, and the profile is saved through a double too.
    from rich.console import Console

    from pyramid_referee.referee import calibrate, live

    asked = []

    class HeardAll:
        strikes_found = strikes_asked = 5

    monkeypatch.setattr(
        calibrate, "calibrate_profile", lambda opts: asked.append(opts) or (HeardAll(), None, None)
    )
    monkeypatch.setattr(calibrate, "report", lambda profile, lang: [])
    monkeypatch.setattr(prof, "save", lambda profile: "saved.json")
    opts = listen_options(parsed("--calibrate", "--device", "3", "--block-ms", "20"))
    assert isinstance(live.strike_profile(opts, Console(file=io.StringIO())), HeardAll)
    (got,) = asked
    assert isinstance(got, calibrate.CalibrateOptions) and (got.device, got.block_ms) == (
        "3",
        20.0,
    )
    assert (got.count, got.collisions, got.name, got.from_files, got.seconds) == (
        5,
        3,
        None,
        None,
        None,
    )


def test_strikes_calibrate_passes_its_options_as_plain_values(capsys):
    assert (
        cli.main(["strikes", "calibrate", "--count", "0"]) == 2
    )  # checked below the command line
    assert "--count" in capsys.readouterr().err
