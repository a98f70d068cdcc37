"""A table's memory (voice/strike.py: ``TableMemory``, ``table_memory``, ``remember``): what one
detector learned of its table, given to a fresh one for the same table.

The detector reads each candidate against this table's strikes and their strokes' clacks. A
fresh detector knows none, and its first strokes are decided worse; the pad's stream starts a
fresh one after every gap. What the memory is worth is measured by
``bench/bench_strike.py --carry`` (docs/dev/benchmarks.md); these tests hold what it is.
"""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest
import table_mix

from pyramid_referee.voice.audio import array_frames
from pyramid_referee.voice.onsets import FEATURES
from pyramid_referee.voice.profile import TableProfile
from pyramid_referee.voice.strike import (
    MEMORY_CLACKS,
    MEMORY_STRIKES,
    StrikeDetector,
    TableMemory,
    run_detector,
)


@pytest.fixture(scope="module")
def heard(bank):
    """A detector that heard a mixed session of six strokes at 20 dB (real strikes and their
    cascades, espeak-ng calls)."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed: the calls cannot be made")
    x, truth = table_mix.make_session(
        np.random.default_rng(41), bank, sources={"tailuge"}, n_strokes=6, snr_db=20
    )
    det = StrikeDetector()
    list(run_detector(array_frames(x, 10.0), det))
    return det, truth


def _features(sounds) -> list[tuple[float, ...]]:
    return [tuple(h.features) for h in sounds]


def test_the_memory_holds_the_strikes_and_clacks_the_next_decision_would_read(heard):
    det, truth = heard
    assert len(det.strikes) >= 3, "the session's strikes were not found: nothing to remember"
    mem = det.table_memory()
    known = det.session(math.inf)
    assert mem.strike_timbre == tuple(_features(known.strikes[-MEMORY_STRIKES:]))
    assert len(mem.strike_timbre) == min(MEMORY_STRIKES, len(det.strikes))
    # the last strike remembered is the last one decided, by its first look's features
    assert [round(s.time, 4) for s in det.strikes][-1] == round(known.strikes[-1].time, 4)
    assert mem.clack_timbre and len(mem.clack_timbre) <= MEMORY_CLACKS
    assert all(len(f) == len(FEATURES) for f in mem.strike_timbre + mem.clack_timbre)


def test_a_fresh_detector_that_remembers_starts_where_the_other_left_off(heard):
    det, _ = heard
    mem = det.table_memory()
    fresh = StrikeDetector()
    assert not fresh.table_memory()  # a fresh detector knows nothing of the table
    fresh.remember(mem)
    assert fresh.table_memory() == mem
    start = fresh.session(0.0)
    assert _features(start.strikes) == list(mem.strike_timbre)
    assert _features(start.clacks) == list(mem.clack_timbre)
    assert all(h.time < 0 for h in start.strikes + start.clacks)  # heard before the stream


def test_what_a_detector_remembers_changes_its_decisions_not_its_clock(heard, bank):
    """The same session decided by a fresh detector and by one that remembers the table: the
    candidates are the same sounds at the same times (the memory changes only how they are
    weighed), and the memory's strikes are never reported."""
    det, _ = heard
    x, _ = table_mix.make_session(
        np.random.default_rng(42), bank, sources={"tailuge"}, n_strokes=3, snr_db=10
    )
    cold = StrikeDetector()
    list(run_detector(array_frames(x, 10.0), cold))
    warm = StrikeDetector()
    warm.remember(det.table_memory())
    list(run_detector(array_frames(x, 10.0), warm))
    assert [s.time for s in warm.sounds] == [s.time for s in cold.sounds]
    assert all(0.0 <= s.time <= len(x) / 16000 for s in warm.strikes)
    assert [s.p_strike for s in warm.sounds] != [s.p_strike for s in cold.sounds]


def test_a_detector_with_a_profile_remembers_the_profile_until_its_own_strikes_push_it_out():
    """Nothing heard yet: the memory is the profile's timbre, so a fresh detector with the same
    profile that remembers it starts the same; an empty memory changes nothing."""
    p = profile_with([3.0, 4.0, 5.0], [-3.0, -2.0])
    det = StrikeDetector(profile=p)
    mem = det.table_memory()
    assert (mem.strike_timbre, mem.clack_timbre) == (p.strike_timbre, p.clack_timbre)
    assert mem.strike_times == (None, None, None)
    again = StrikeDetector(profile=p)
    again.remember(mem)
    assert again.table_memory() == mem
    kept = StrikeDetector(profile=p)
    kept.remember(TableMemory())
    assert kept.table_memory() == mem


def test_a_detector_that_has_heard_audio_refuses_a_memory():
    det = StrikeDetector()
    det.feed(np.zeros(160, np.float32), 0.0)
    with pytest.raises(RuntimeError, match="before it hears anything"):
        det.remember(TableMemory(((0.0,) * len(FEATURES),), ()))


def profile_with(strikes: list[float], clacks: list[float]) -> TableProfile:
    """A calibrated profile whose strikes and clacks differ in their first feature."""

    def look(v):
        return (float(v),) + (0.0,) * (len(FEATURES) - 1)

    return TableProfile(
        name="t",
        tip_bias=0.0,
        min_level_db=-60.0,
        background_db=-70.0,
        strike_level_db=-10.0,
        strike_decay_ms=40.0,
        direct_to_late_db=3.0,
        strikes_asked=len(strikes),
        strikes_found=len(strikes),
        strikes_sure_before=len(strikes),
        collisions_heard=len(clacks),
        collisions_as_strikes=0,
        separable=True,
        created="2026-12-07T00:00:00+00:00",
        strike_timbre=tuple(look(v) for v in strikes),
        clack_timbre=tuple(look(v) for v in clacks),
    )


def test_a_strike_forgotten_is_no_longer_one_of_the_tables_strikes_even_after_a_gap(heard):
    """Q14: the marker took a strike back. The detector forgets it (its timbre and the clacks
    after it), here and, through the onset the memory keeps, in a fresh detector that remembers
    the table; what was reported stays; an unknown time or a profile's strike is not matched."""
    det, _ = heard
    mem = det.table_memory()
    assert len(mem.strike_times) == len(mem.strike_timbre)
    t = mem.strike_times[-1]
    assert t == pytest.approx(det.strikes[-1].time)
    fresh = StrikeDetector()
    fresh.remember(mem)
    assert not fresh.forget(t + 0.5)
    assert fresh.forget(t + 0.001)  # the pad's strike time, rounded
    after = fresh.table_memory()
    assert t not in after.strike_times and len(after.strike_timbre) == len(mem.strike_timbre) - 1
    assert after.strike_timbre == mem.strike_timbre[:-1]
    assert not fresh.forget(t)  # already forgotten
    p = profile_with([3.0], [])
    with_profile = StrikeDetector(profile=p)
    assert with_profile.table_memory().strike_times == (None,)
    assert not with_profile.forget(-1e9) and with_profile.table_memory().strike_timbre
