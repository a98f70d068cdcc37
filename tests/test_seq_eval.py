"""The decision's tuning loop (corpora/audio/seq_eval.py): its fold models are cached by what
they were fitted from, the random state included, so a refit with another state (the loop's
noise floor) is a real refit and the same state is not fitted twice; a replay carries a
table's memory as the detector does."""

from __future__ import annotations

import fit_decision as fd
import seq_eval as se


def test_fold_models_are_cached_by_held_out_sources_and_random_state(tmp_path, monkeypatch):
    fits = []

    def fake_fit(holdout, path, table, random_state=0):  # a stand-in fit: records its call
        fits.append((tuple(sorted(holdout)), random_state))
        return {"held_out": sorted(holdout), "random_state": random_state}

    monkeypatch.setattr(fd, "fit_sequence", fake_fit)
    monkeypatch.setattr(fd, "read_table", lambda path: "rows")
    monkeypatch.setattr(se, "_fit_cache", {})
    monkeypatch.setattr(se, "_tables", {})
    table = tmp_path / "t.csv.gz"
    table.write_bytes(b"rows")
    a = se.fold_model(frozenset({"vrcbce"}), table, tmp_path)
    b = se.fold_model(frozenset({"vrcbce"}), table, tmp_path, random_state=1)
    assert a == {"held_out": ["vrcbce"], "random_state": 0} and b["random_state"] == 1
    monkeypatch.setattr(se, "_fit_cache", {})  # a new process: read back from the disk cache
    assert se.fold_model(frozenset({"vrcbce"}), table, tmp_path, random_state=1) == b
    assert se.fold_model(frozenset({"badpool"}), table, tmp_path)["held_out"] == ["badpool"]
    assert fits == [(("vrcbce",), 0), (("vrcbce",), 1), (("badpool",), 0)]


def test_the_relative_rule_takes_only_a_candidate_over_all_its_neighbours():
    assert se.stands_out(0.35, 0.3, [0.1, 0.2], [0.05])
    assert not se.stands_out(0.25, 0.3, [], [])  # under θ
    assert not se.stands_out(0.35, 0.3, [0.4], [])  # a surer one before it
    assert not se.stands_out(0.35, 0.3, [], [0.35])  # as sure a one after it


def test_a_replay_carries_a_tables_memory_as_the_detector_does(bank):
    """``replay(…, carry=…)``: the session's memory at its end is what the product's detector
    keeps (``StrikeDetector.table_memory``: its last strikes' timbre and their clacks'), and a
    replay given it starts with it, which changes how the session's candidates are weighed
    (the shipped decision model, on a real mixed session's trace)."""
    import shutil

    import numpy as np
    import pytest
    import table_mix

    from pyramid_referee.voice.sequence import Session
    from pyramid_referee.voice.strike import MEMORY_STRIKES, StrikeDetector, TableMemory

    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed: the calls cannot be made")
    x, truth = table_mix.make_session(
        np.random.default_rng(43), bank, sources={"tailuge"}, n_strokes=4, snr_db=20
    )
    d = fd.trace_session(x, truth)
    model = StrikeDetector().seq_model
    carry: dict = {}
    rep, cold = se.replay(d, model, carry=carry)
    mem = carry["memory"]
    assert isinstance(mem, TableMemory) and len(rep) >= 2
    heard, times, vad = fd.restore(d)
    by_time = {round(h.time, 4): h for h in heard}
    assert mem.strike_timbre == tuple(tuple(by_time[t].features) for t in rep[-MEMORY_STRIKES:])
    s = Session.at(np.inf, heard, times, vad, [by_time[t] for t in rep])
    assert mem.clack_timbre == tuple(tuple(h.features) for h in s.clacks[-20:])
    again: dict = {"memory": mem}
    _, warm = se.replay(d, model, carry=again)
    assert [t for t, _ in warm][:3] == [t for t, _ in cold][:3]
    assert [p for _, p in warm] != [p for _, p in cold]  # the memory is read
