"""What an impulsive sound is: cue tip, ball-ball clack, cushion, pocket, clap, speech or other.

A small model reads the shape of a sound (:data:`.onsets.FEATURES`) and gives a probability for
each class: gradient-boosted decision trees (depth ≤ 4), fitted by
``corpora/audio/fit_sound_model.py`` (scikit-learn) on audio mixed from recorded billiards sounds,
with the split by source recording written beside it (``corpora/audio/split.json``; see
``corpora/audio/README.md``). The model is plain arrays, ``voice/data/sound_model.npz``: applying
it is a few vectorized numpy steps, no scikit-learn at run time.

Why these classes: the strike is the cue tip on the cue ball (a dull thock, centroid ≈ 0.5–1.4
kHz, most energy below 1 kHz, tens of ms of ringing); a ball-ball clack is sharp and bright
(centroid ≈ 1.8–2.6 kHz, under a fifth below 1 kHz); cushion hits and pocket drops are duller
still; a hand clap is a short burst shaped by the air pocket between the palms (0.8–2.5 kHz); a
plosive in speech rises into a vowel. Neither "sharp" nor "dull" alone is a strike: the model
weighs every feature at once, and the strike detector adds what the table's state says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from .denoise import RNN_FEATURES
from .onsets import FEATURES, LONG_FEATURES
from .sequence import SEQ_FEATURES

CLASSES = ("tip", "ball", "cushion", "pocket", "clap", "speech", "other")
"""The sound classes, in the model's order."""

MODEL_PATH = Path(__file__).resolve().parent / "data" / "sound_model.npz"
LONG_MODEL_PATH = Path(__file__).resolve().parent / "data" / "sound_model_long.npz"
SEQ_MODEL_PATH = Path(__file__).resolve().parent / "data" / "strike_model.npz"
RNN_MODEL_PATH = Path(__file__).resolve().parent / "data" / "strike_model_rnn.npz"
RNN_SEQ_FEATURES = SEQ_FEATURES + RNN_FEATURES
"""The inputs of the decision with RNNoise's measures (:mod:`.denoise`)."""


@dataclass(frozen=True)
class SoundModel:
    """Gradient-boosted decision trees over :data:`FEATURES` (one tree per class and round, as
    scikit-learn's HistGradientBoostingClassifier fits them), as plain arrays.

    Every tree is padded to the same number of nodes; ``logits(x)`` walks all trees at once, one
    vectorized step per level (depth ≤ 8), and sums each class's leaves onto its baseline.
    """

    classes: tuple[str, ...]
    features: tuple[str, ...]
    baseline: np.ndarray  # (classes,)
    tree_class: np.ndarray  # (trees,) the class each tree adds to
    feature: np.ndarray  # (trees, nodes) feature index of a split
    threshold: np.ndarray  # (trees, nodes) go left when x[feature] <= threshold
    left: np.ndarray  # (trees, nodes)
    right: np.ndarray  # (trees, nodes)
    leaf: np.ndarray  # (trees, nodes) bool
    value: np.ndarray  # (trees, nodes) a leaf's value
    depth: int
    meta: dict
    companion: SoundModel | None = (
        None  # the decision model fitted with this one (see fit_sound_model)
    )

    ARRAYS = ("baseline", "tree_class", "feature", "threshold", "left", "right", "leaf", "value")

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            **{k: getattr(self, k) for k in self.ARRAYS},
            info=np.array(
                json.dumps(
                    {
                        "classes": self.classes,
                        "features": self.features,
                        "depth": self.depth,
                        "meta": self.meta,
                    }
                )
            ),
        )

    @classmethod
    def load(cls, path: Path) -> SoundModel:
        with np.load(path, allow_pickle=False) as z:
            info = json.loads(str(z["info"]))
            arrays = {k: z[k] for k in cls.ARRAYS}
        feats = tuple(info["features"])

        if feats not in (FEATURES, LONG_FEATURES, SEQ_FEATURES, RNN_SEQ_FEATURES):
            raise ValueError(f"the sound model was fitted on other features: {feats}")
        return cls(
            tuple(info["classes"]), feats, depth=int(info["depth"]), meta=info["meta"], **arrays
        )

    @cached_property
    def _flat(self) -> tuple[np.ndarray, ...]:
        """Each tree's first node in the flattened arrays, and the arrays flattened (one index
        a node: half the cost of indexing by tree and node)."""
        base = np.arange(len(self.tree_class)) * self.feature.shape[1]
        arrays = (self.feature, self.threshold, self.left, self.right, self.leaf, self.value)
        return (base, *(a.ravel() for a in arrays))

    def logits(self, x) -> np.ndarray:
        x = np.asarray(x, float)
        if x.ndim == 2:
            return np.array([self.logits(row) for row in x])
        base, feature, threshold, left, right, leaf, value = self._flat
        node = np.zeros(len(base), dtype=np.intp)
        for _ in range(self.depth):
            at = base + node
            go_left = x[feature[at]] <= threshold[at]
            node = np.where(leaf[at], node, np.where(go_left, left[at], right[at]))
        return self.baseline + np.bincount(
            self.tree_class, weights=value[base + node], minlength=len(self.classes)
        )

    def proba(self, x) -> np.ndarray:
        """Class probabilities for one feature vector (or a matrix of them, one row a sound)."""
        lg = self.logits(x)
        lg = lg - lg.max(axis=-1, keepdims=True)
        p = np.exp(lg)
        return p / p.sum(axis=-1, keepdims=True)

    def tip_index(self) -> int:
        return self.classes.index("tip")

    def p_last(self, x) -> float:
        """A two-class model's probability of its last class (the strike decision's: strike)."""
        lg = self.logits(x)
        return float(1.0 / (1.0 + np.exp(-float(lg[-1] - lg[0]))))


@lru_cache(maxsize=4)
def _load(path: str) -> SoundModel:
    return SoundModel.load(Path(path))


def load_model(path: str | Path | None = None) -> SoundModel:
    """The shipped first-look model (or the one at ``path``)."""
    return _load(str(path or MODEL_PATH))


def load_seq_model(path: str | Path | None = None) -> SoundModel:
    """The shipped strike decision model (classes ``other``, ``strike``;
    :data:`.sequence.SEQ_FEATURES`)."""
    return _load(str(path or SEQ_MODEL_PATH))


def load_rnn_model(path: str | Path | None = None) -> SoundModel:
    """The shipped strike decision with RNNoise's measures (:data:`RNN_SEQ_FEATURES`): it
    decides the knocks the decision without them gives ``StrikeParams.denoise_from_p``."""
    return _load(str(path or RNN_MODEL_PATH))


def load_long_model(path: str | Path | None = None) -> SoundModel:
    """The shipped second-look model (150 ms after the onset), or the one at ``path``."""
    return _load(str(path or LONG_MODEL_PATH))
