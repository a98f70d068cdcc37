"""The strike decision's fitting (corpora/audio/fit_decision.py): its sessions as traces with
RNNoise's measures, its rows with the true and with an erring clock, and the fit's leave-out by
source.

The traces come from real mixed sessions (the recorded table sounds and voices, read in place);
the fit runs on the committed table."""

from __future__ import annotations

import fit_decision as fd
import numpy as np
import pytest

from pyramid_referee.voice import denoise
from pyramid_referee.voice.sequence import SEQ_FEATURES, Heard
from pyramid_referee.voice.sound_class import RNN_SEQ_FEATURES


@pytest.fixture(scope="module")
def trace(bank, speech):
    import strike_eval as ev

    folds = ev.folds(bank, speech)
    fold = next(f for f in folds if f["name"] == "vrcbce")
    made = ev.fold_sessions(bank, speech, fold, 13, ["clean"], 1, 4, 7, timbre_p=1.0)
    _, _, _, x, truth = next(made)
    t = fd.trace_session(x, truth)
    t.update(sources=sorted(fold["repos"] | {fold["speech"], fold["noise"]}))
    try:
        fd.add_rnn(t, x)
    except denoise.DenoiserUnavailable as e:
        pytest.skip(f"RNNoise cannot be loaded here: {e}")
    return t


def test_a_trace_holds_every_candidate_and_the_truth(trace):
    heard = trace["heard"]
    assert len(trace["strikes"]) == 4
    assert set(trace["long"]) == {t for t, _, _ in heard} == set(trace["band"])
    speech, _, foreground = trace["speech"]
    assert speech and set(foreground) <= set(speech)


def test_every_candidate_has_rnnoises_measures_from_the_whole_session(trace):
    """One pass over the session: a candidate whose frames fall outside it (its first 1 s)
    has them missing, every other one has nine numbers; a strike's onset keeps less of its
    input than the speech around it does (what RNNoise takes for speech it keeps)."""
    rnn = trace["rnn"]
    assert set(rnn) == set(trace["long"])
    missing = [t for t, m in rnn.items() if m[0] == fd.RNN_MISSING]
    assert all(t < 1.0 or t > trace["end"] - 0.33 for t in missing)
    assert all(
        len(m) == len(denoise.RNN_FEATURES) and np.all(np.isfinite(m)) for m in rnn.values()
    )
    keep_on = denoise.RNN_FEATURES.index("rnn_keep_on")
    strikes = [rnn[t][keep_on] for t in rnn if min(abs(t - s) for s in trace["strikes"]) < 0.025]
    assert len(strikes) == 4
    others = [m[keep_on] for t, m in rnn.items() if m[0] != fd.RNN_MISSING]
    assert np.median(strikes) < np.median(others)


def test_a_trace_made_without_the_measures_is_refused(trace):
    old = {k: v for k, v in trace.items() if k != "rnn"}
    with pytest.raises(SystemExit, match="without RNNoise's measures"):
        list(fd.decision_rows(old))


def test_the_true_clock_labels_one_candidate_a_strike(trace):
    rows = list(fd.decision_rows(trace))
    assert sum(label for label, _ in rows) == 4  # each strike proposed, matched once
    assert all(len(f) == len(RNN_SEQ_FEATURES) for _, f in rows)
    since = SEQ_FEATURES.index("since_strike")
    known = SEQ_FEATURES.index("strikes_known")
    strikes = [f for label, f in rows if label]
    assert [f[known] for f in strikes] == [0, 1, 2, 3]  # the strikes before each one
    assert all(f[since] >= 2.5 for f in strikes[1:])  # the mixer's spacing


def test_an_erring_clock_misses_strikes_and_takes_others():
    """The erring clock drops true strikes and adds loud sounds that are not strikes; the true
    strikes stay the labels."""
    heard = [Heard(t, tuple([0.0] * 14 + [30.0, 30.0] + [0.0] * 3), -20.0) for t in range(40)]
    strikes = [5.0, 15.0, 25.0, 35.0]
    true, decided = fd.decided_strikes(heard, strikes)
    assert true == {5, 15, 25, 35} and decided == [5, 15, 25, 35]
    missed = added = 0
    for seed in range(200):
        true, decided = fd.decided_strikes(heard, strikes, np.random.default_rng(seed))
        assert true == {5, 15, 25, 35}
        missed += len(true - set(decided))
        added += len(set(decided) - true)
    assert 0.1 < missed / 800 < 0.3 and 0.8 < added / 200 < 2.2


def test_the_fit_leaves_out_every_session_of_a_held_out_source(tmp_path, trace, monkeypatch):
    """A table of two sessions' rows: fitted without one's sources, the model has only the
    other's rows."""
    import pickle

    other = dict(trace, sources=["someone_else"])
    paths = []
    for name, t in (("a.pickle", trace), ("b.pickle", other)):
        p = tmp_path / name
        p.write_bytes(pickle.dumps(t))
        paths.append(p)
    out = tmp_path / "t.csv.gz"
    n = fd.write_table(paths, out)
    full = fd.fit_sequence(path=out)
    part = fd.fit_sequence({"vrcbce"}, path=out)
    _, _, sources, _ = fd.read_table(out)
    others = sum(1 for s in sources if s == {"someone_else"})
    assert 0 < others < n and full.meta["rows"] == n and part.meta["rows"] == others
    assert part.meta["held_out"] == ["vrcbce"] and full.features == SEQ_FEATURES
    # the decision with RNNoise's measures rides on it, fitted on the same rows
    assert full.companion.features == RNN_SEQ_FEATURES and full.companion.meta["rows"] == n
    assert part.companion.meta["rows"] == others
    other_state = fd.fit_sequence(path=out, random_state=1)  # the loop's noise floor
    assert full.meta["random_state"] == 0 and other_state.meta["random_state"] == 1
    assert other_state.meta["rows"] == n
