"""The sound model (voice/sound_class.py) and how it is fitted (corpora/audio/fit_sound_model.py)."""

from __future__ import annotations

import fit_sound_model  # corpora/audio (path set in conftest.py)
import numpy as np
import pytest

from pyramid_referee.voice.onsets import FEATURES, LONG_FEATURES
from pyramid_referee.voice.sound_class import CLASSES, SoundModel, load_long_model, load_model


@pytest.fixture(scope="module")
def table():
    return fit_sound_model.read_features()


@pytest.mark.long  # 33 s on 2 cores
def test_the_shipped_models_are_what_the_fitting_script_makes(table):
    """voice/data/*.npz equal a fresh fit on the committed feature tables (deterministic): the two
    sound models, the strike decision model and the one with RNNoise's measures."""
    pytest.importorskip("sklearn")
    first, second = fit_sound_model.fit()
    from pyramid_referee.voice.sound_class import load_rnn_model, load_seq_model

    assert second.companion is not None  # the strike decision, fitted with them …
    assert second.companion.companion is not None  # … and the one with RNNoise's measures
    for shipped, fresh in (
        (load_model(), first),
        (load_long_model(), second),
        (load_seq_model(), second.companion),
        (load_rnn_model(), second.companion.companion),
    ):
        assert shipped.features == fresh.features and shipped.classes == fresh.classes
        for name in SoundModel.ARRAYS:
            assert np.array_equal(getattr(shipped, name), getattr(fresh, name)), name


def test_the_exported_trees_give_what_scikit_learn_gives(table):
    """The numpy walk over the exported trees reproduces predict_proba exactly."""
    pytest.importorskip("sklearn")
    from sklearn.ensemble import HistGradientBoostingClassifier

    names, labels, sources, X = table
    rows = np.random.default_rng(0).choice(len(X), 3000, replace=False)
    clf = HistGradientBoostingClassifier(
        max_depth=4, max_iter=30, class_weight="balanced", random_state=0
    )
    clf.fit(X[rows, : len(FEATURES)], labels[rows])
    model = fit_sound_model.export(clf, FEATURES, {})
    test = X[:400, : len(FEATURES)]
    order = [CLASSES.index(c) for c in clf.classes_]
    assert np.allclose(model.proba(test)[:, order], clf.predict_proba(test), atol=1e-12)


def test_probabilities_and_the_feature_names(table):
    model = load_model()
    _, _, _, X = table
    p = model.proba(X[0, : len(FEATURES)])
    assert p.shape == (len(CLASSES),) and abs(p.sum() - 1) < 1e-9 and (p >= 0).all()
    assert load_long_model().features == LONG_FEATURES


def test_a_model_fitted_on_other_features_is_refused(tmp_path):
    m = load_model()
    bad = SoundModel(
        m.classes,
        ("a", "b"),
        m.baseline,
        m.tree_class,
        m.feature,
        m.threshold,
        m.left,
        m.right,
        m.leaf,
        m.value,
        m.depth,
        {},
    )
    path = tmp_path / "bad.npz"
    bad.save(path)
    with pytest.raises(ValueError, match="other features"):
        SoundModel.load(path)


def test_the_table_is_labelled_by_source_recording(table):
    """Every row names the recording's source (speech and claps: espeak / synthetic), so the
    sources can be held out one at a time; every class has rows."""
    _, labels, sources, _ = table
    assert set(labels) == set(CLASSES)
    assert set(sources[labels == "speech"]) == {"espeak"} and set(sources[labels == "clap"]) == {
        "synthetic"
    }
    tip_sources = set(sources[labels == "tip"])
    assert len(tip_sources) >= 12 and "espeak" not in tip_sources


def test_labelling_onsets_from_the_truth():
    """An onset within 20 ms of a placed sound is that sound; a later knock of it (within 250 ms)
    is left out; one inside a call is speech; one elsewhere in a quiet room is left out."""

    class Onset:
        def __init__(self, t):
            self.time = t

    truth = {
        "strikes": [2.0],
        "strike_sounds": ["cue_vrcbce_1.wav"],
        "stroke_sounds": [{"t": 2.5, "kind": "ball", "name": "ball_vrcbce_2.wav"}],
        "late_sounds": [],
        "rack": [{"t": 9.0, "kind": "ball", "name": "ball_8ballypool_1.wav"}],
        "other": [],
        "claps": [{"t": 6.0}],
        "calls": [{"start": 0.5, "end": 1.6}],
        "chatter": [],
        "noise": "pink",
    }
    rows = fit_sound_model.label(
        [Onset(2.01), Onset(2.1), Onset(2.49), Onset(6.0), Onset(1.0), Onset(4.0), Onset(9.01)],
        truth,
    )
    got = [(lab, src, round(o.time, 2)) for lab, src, o in rows]
    assert got == [
        ("tip", "vrcbce", 2.01),
        ("ball", "vrcbce", 2.49),
        ("clap", "synthetic", 6.0),
        ("speech", "espeak", 1.0),
        ("ball", "8ballypool", 9.01),
    ]
