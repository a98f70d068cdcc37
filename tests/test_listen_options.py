"""``listen`` below the command line gets plain values (``ListenOptions``), never argparse's
Namespace; the profile it names is read by the voice package (``profile.load_spec``)."""

from __future__ import annotations

import dataclasses

import pytest

from pyramid_referee import cli
from pyramid_referee.cli.voice import listen_options
from pyramid_referee.i18n import UserError
from pyramid_referee.referee.options import ListenOptions
from pyramid_referee.voice import profile as prof


def parsed(*argv):
    return cli.build_parser().parse_args(["listen", *argv])


def test_listen_options_are_plain_frozen_values_with_the_mode_as_the_setting_spells_it():
    opts = listen_options(parsed("--players", "Аня,Боря", "--mode", "ball-and-pocket", "--to-wins", "3"))
    assert isinstance(opts, ListenOptions) and opts.players == ["Аня", "Боря"]
    assert opts.mode == "ball_and_pocket" and opts.to_wins == 3  # C1
    with pytest.raises(dataclasses.FrozenInstanceError):  # nothing below the command line sets it
        opts.count = 9
    assert (opts.count, opts.collisions, opts.name, opts.from_files) == (5, 3, None, None)  # --calibrate


def test_every_listen_option_reaches_the_live_run():
    args = parsed("--strike", "key", "--pad", "--why", "--speak", "--device", "2", "--db", "x.sqlite",
                  "--profile", "none", "--calibrate", "--alternatives", "5", "--block-ms", "20")
    opts = listen_options(args)
    for name in ("strike", "pad", "why", "speak", "device", "db", "profile", "calibrate", "alternatives",
                 "block_ms", "model", "verbose", "club", "match"):
        assert getattr(opts, name) == getattr(args, name), name


def test_bad_players_are_refused_before_anything_and_ignored_beside_a_stored_match():
    with pytest.raises(UserError, match="--players"):
        listen_options(parsed("--players", "Аня", "Аня"))
    assert listen_options(parsed("--match", "3", "--players", "Аня", "Аня")).players is None


def test_the_profile_a_command_names_is_the_default_none_or_a_name(tmp_path, monkeypatch):
    monkeypatch.setenv(prof.ENV_DIR, str(tmp_path))
    assert prof.load_spec(None) is None  # no default saved
    assert prof.load_spec("none") is None and prof.load_spec("НЕТ") is None
    with pytest.raises(prof.ProfileError, match="strikes calibrate"):
        prof.load_spec("table3")
