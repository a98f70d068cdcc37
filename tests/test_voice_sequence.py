"""The strike decision's context features (voice/sequence.py), on hand-built sessions: what follows
a knock against this session's clacks, and a knock against the room's usual knock.

The sounds are plain :class:`Heard` records (their first-look features set by hand); the voice
activity is empty (nobody talks), so every salient sound is a knock."""

from __future__ import annotations

import pytest

from pyramid_referee.voice.onsets import BAND_FEATURES, FEATURES, LONG_FEATURES, VoiceActivity
from pyramid_referee.voice.sequence import (
    CLACKLIKE,
    NONE,
    SEQ_FEATURES,
    Heard,
    Session,
    context_features,
)

STRIKE = {"log_centroid": 7.6, "high3k": 0.30, "decay_db": 20.0}
CLACK = {"log_centroid": 6.6, "high3k": 0.05, "decay_db": 6.0}


def sound(t: float, timbre: dict, level: float = 20.0) -> Heard:
    f = dict.fromkeys(FEATURES, 0.0)
    f.update(level_db=level, flux_db=15.0, **timbre)
    return Heard(t, tuple(f[n] for n in FEATURES), peak_db=-30.0)


def features(c: Heard, heard: list[Heard], strikes=(), clacks=()) -> dict:
    vad = VoiceActivity()
    s = Session(heard, [h.time for h in heard], vad, tuple(strikes), tuple(clacks))
    long = (0.0,) * len(LONG_FEATURES)
    band = (0.0,) * len(BAND_FEATURES)
    return dict(zip(SEQ_FEATURES, context_features(c, long, band, s, since_strike=20.0)))


def test_a_clack_after_a_knock_that_sounds_like_this_tables_clacks_counts():
    old = [sound(1.0, STRIKE), sound(1.5, CLACK)]
    c, after = sound(10.0, STRIKE), sound(10.4, CLACK)
    f = features(c, [*old, c, after], strikes=old[:1], clacks=old[1:])
    assert f["after_to_clacks"] == pytest.approx(0.0)
    assert f["after_clacklike"] == 1.0
    assert f["after_to_strikes"] > CLACKLIKE  # what followed is no strike
    # the same knock followed by a sound unlike every clack of this table
    other = sound(10.4, {"log_centroid": 8.2, "high3k": 0.6, "decay_db": 30.0})
    g = features(c, [*old, c, other], strikes=old[:1], clacks=old[1:])
    assert g["after_to_clacks"] > CLACKLIKE and g["after_clacklike"] == 0.0


def test_what_follows_is_unmeasured_before_any_clack_is_known():
    c, after = sound(10.0, STRIKE), sound(10.4, CLACK)
    f = features(c, [c, after])
    assert f["after_to_clacks"] == f["after_clacklike"] == f["after_to_strikes"] == NONE
    assert f["before_to_strikes"] == NONE


def test_a_strike_like_sound_just_before_is_measured():
    s0 = sound(9.4, STRIKE)
    c = sound(10.0, CLACK)
    f = features(c, [s0, c], strikes=[sound(1.0, STRIKE)])
    assert f["before_to_strikes"] == pytest.approx(0.0)


def test_a_knock_stands_against_the_rooms_usual_knock_of_the_last_20_s():
    room = [sound(t, CLACK) for t in (2.0, 4.0, 6.0, 8.0, 9.0)]
    c = sound(10.0, STRIKE)
    f = features(c, [*room, c])
    assert f["centroid_rel_room"] == pytest.approx(1.0)
    assert f["decay_rel_room"] == pytest.approx(14.0)
    assert f["timbre_to_room"] > CLACKLIKE
    like = features(sound(10.0, CLACK), [*room, sound(10.0, CLACK)])
    assert like["timbre_to_room"] == pytest.approx(0.0)
    # the same knocks 22-28 s before: none in the last 20 s, nothing to stand against
    late = sound(30.0, STRIKE)
    assert features(late, [*room, late])["timbre_to_room"] == NONE
