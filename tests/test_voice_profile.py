"""Table profiles (voice/profile.py): fitting the tip threshold and levels, saving, loading,
errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pyramid_referee.voice import profile as prof
from pyramid_referee.voice.onsets import FEATURES
from pyramid_referee.voice.sound_class import CLASSES
from pyramid_referee.voice.strike import Sound, StrikeParams


class ToyModel:
    """A test double for the sound model: the tip's logit is feature 0, the ball's feature 1, every
    other class −10 (so no sound here is speech or a clap)."""

    classes = CLASSES

    def tip_index(self) -> int:
        return CLASSES.index("tip")

    def logits(self, x) -> np.ndarray:
        lg = np.full(len(CLASSES), -10.0)
        lg[CLASSES.index("tip")], lg[CLASSES.index("ball")] = x[0], x[1]
        return lg


def toy_model() -> ToyModel:
    return ToyModel()


def sound(tip_logit: float, ball_logit: float = 0.0) -> Sound:
    f = [0.0] * len(FEATURES)
    f[0], f[1] = tip_logit, ball_logit
    return Sound(0.0, "tip", 0.5, (), "heard", "", True, tuple(f))


ENV = [np.array([-20.0, -18, -25, -30, -35, -40, -45, -50] + [-60.0] * 112)]


def fit(strikes, collisions, **kw):
    return prof.fit(
        [sound(v) for v in strikes],
        [sound(v) for v in collisions],
        strikes_asked=len(strikes),
        background_db=-70.0,
        strike_envelopes=ENV * max(1, len(strikes)),
        model=toy_model(),
        **kw,
    )


def test_defaults_that_already_work_are_left_alone():
    """Strikes clearly tip-like, collisions clearly ball-on-ball: nothing to change."""
    p = fit([3.0, 4.0, 5.0], [-3.0, -2.0])
    assert (
        p.tip_bias == 0.0
        and p.separable
        and p.strikes_sure_before == 3
        and p.collisions_as_strikes == 0
    )


def test_weak_strikes_raise_the_tip_and_collisions_stay_out():
    """Strikes the model finds only faintly tip-like (tip share 0.18–0.31 among the knocks: taken,
    but not sure) on a table whose collisions are clearly clacks: the smallest bias that makes
    every strike sure (share ≥ 0.4: bias ≥ 1.1 → 1.25 on the grid) keeps the collisions out."""
    p = fit([-1.5, -1.0, -0.8], [-4.0, -3.5])
    assert p.tip_bias == 1.25
    assert p.separable and p.strikes_sure_before == 0 and p.collisions_as_strikes == 0


def test_overlapping_strikes_and_collisions_are_said_to_overlap():
    """A strike that sounds like a clack and a collision that sounds like a tip: no bias takes
    every strike and leaves out every collision; the strikes come first."""
    p = fit([-2.5, 2.0], [0.5])
    assert not p.separable
    assert p.collisions_as_strikes == 1


def test_levels_and_room_measures():
    p = fit([3.0], [])
    assert p.strike_level_db == pytest.approx(-18.0)
    assert p.min_level_db == pytest.approx(-38.0)  # 20 dB under the quietest strike
    assert p.strike_decay_ms == pytest.approx(4.0)  # 20 dB under the peak at window 5
    assert p.background_db == -70.0


def test_a_profile_adjusts_the_detector_settings():
    p = fit([-1.5], [-4.0])
    params = p.apply(StrikeParams())
    assert params.tip_bias == p.tip_bias and params.min_level_db == p.min_level_db


def test_save_and_load_round_trip(tmp_path, monkeypatch):
    monkeypatch.setenv(prof.ENV_DIR, str(tmp_path / "profiles"))
    p = fit([3.0], [])
    path = prof.save(p)
    assert path == tmp_path / "profiles" / "default.json"
    assert prof.load("default") == p
    assert prof.load(str(path)) == p
    assert prof.load_default() == p


def test_missing_and_broken_profiles_are_named(tmp_path, monkeypatch):
    monkeypatch.setenv(prof.ENV_DIR, str(tmp_path))
    assert prof.load_default() is None
    with pytest.raises(prof.ProfileError, match="профиль стола не найден"):
        prof.load("table9")
    with pytest.raises(prof.ProfileError, match="not found"):
        prof.load("table9", lang="en")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(prof.ProfileError, match="это не профиль стола"):
        prof.load(str(bad))
    bad.write_text(json.dumps({"name": "x"}), encoding="utf-8")
    with pytest.raises(prof.ProfileError, match="missing fields"):
        prof.load(str(bad))


def test_a_profile_keeps_the_timbre_of_its_strikes_and_clacks(tmp_path, monkeypatch):
    """The calibration's strikes and collisions are kept (their first-look features), saved and
    read back; a detector made with the profile starts with them as this table's strikes and
    clacks, as if heard in earlier strokes."""
    from pyramid_referee.voice.strike import StrikeDetector

    monkeypatch.setenv(prof.ENV_DIR, str(tmp_path))
    p = fit([3.0, 4.0, 5.0], [-3.0, -2.0])
    assert len(p.strike_timbre) == 3 and len(p.clack_timbre) == 2
    assert p.strike_timbre[0][0] == 3.0 and len(p.strike_timbre[0]) == len(FEATURES)
    assert prof.load(str(prof.save(p))) == p
    det = StrikeDetector(profile=p)
    known = det.session(0.0)
    assert [h.features[0] for h in known.strikes] == [3.0, 4.0, 5.0]
    assert [h.features[0] for h in known.clacks] == [-3.0, -2.0]
    assert StrikeDetector().session(0.0).strikes == ()


def test_a_profile_saved_before_timbre_was_kept_still_loads(tmp_path):
    """A profile file without the timbre fields (made by an earlier version) loads, with none."""
    p = fit([3.0], [])
    data = p.to_json()
    del data["strike_timbre"], data["clack_timbre"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    old = prof.load(str(path))
    assert old.strike_timbre == () and old.clack_timbre == () and old.tip_bias == p.tip_bias


def test_a_profile_whose_timbre_rows_are_not_features_is_named(tmp_path):
    """A timbre row that is not a sound's features (a number, words, the wrong length) is a
    broken profile, said so on loading, not an error in the middle of a stroke."""
    data = fit([3.0], []).to_json()
    path = tmp_path / "bad.json"
    for rows in (5, [["a"] * len(FEATURES)], [[1.0, 2.0]]):
        path.write_text(json.dumps({**data, "strike_timbre": rows}), encoding="utf-8")
        with pytest.raises(prof.ProfileError, match="это не профиль стола"):
            prof.load(str(path))
    with pytest.raises(prof.ProfileError, match=f"each row needs {len(FEATURES)} numbers"):
        prof.load(str(path), lang="en")
