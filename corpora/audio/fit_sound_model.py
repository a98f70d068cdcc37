#!/usr/bin/env python3
"""Fit the sound model of the strike detector (voice/data/sound_model.json) on recorded billiards sounds.

    python corpora/audio/fit_sound_model.py features [--sessions N] [--seed S]   # → features.csv.gz
    python corpora/audio/fit_sound_model.py speech                               # + other talk
    python corpora/audio/fit_sound_model.py fit [--holdout SRC …] [--out PATH]  # → the models

(The strike decision, which ``fit`` also writes, is fitted by ``fit_decision.py``.)

``features`` builds table audio with ``table_mix`` (recorded cue strikes, collisions, cushions and
pocket drops from ``$PYRAMID_SOUNDS_DIR``, read in place; espeak-ng calls; claps; room noise and
reverberation), runs the onset detector of ``voice/onsets.py`` over it exactly as the product
does, and labels each impulsive sound it finds from the mixer's truth: the strike → ``tip``, a
stroke's own sounds → ``ball`` / ``cushion`` / ``pocket``, a rack, a break or a chalked cue →
``other``, a clap → ``clap``, an onset inside a call (or its echo, 0.3 s after it) with no table
sound near it, or anywhere in a room full of background talk (babble noise) → ``speech``.
Every row keeps the **source recording** (the repository the sound came from; ``speech`` and
``clap`` rows are ``espeak`` / ``synthetic``). The table is written to ``features.csv.gz`` next to
this script (committed: the model can be refitted without the recordings).

``fit`` fits gradient-boosted trees (scikit-learn's HistGradientBoostingClassifier, depth 4,
balanced class weights) on every row whose source is not held out, and writes the trees as plain
arrays (numpy applies them at run time; scikit-learn is needed only here). ``split.json`` lists the
sources; ``bench/bench_strike.py`` refits once per held-out source (leave-one-source-out) so
that every figure it prints is on recordings the model never saw.
"""

from __future__ import annotations

import argparse
import csv
import functools
import gzip
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

FEATURES_CSV = HERE / "features.csv.gz"
SPLIT_JSON = HERE / "split.json"
SEED = 7

LABEL_TOL_S = 0.02  # an onset within this of a placed sound's onset is that sound


class _Onset:
    """An onset with both looks' features (what the detector sees at 18 ms and at 180 ms)."""

    def __init__(self, o, long):
        self.time, self.features, self.long = o.time, o.features, long


def _onsets(x: np.ndarray):
    """Every onset the product's detector finds in ``x`` (10 ms blocks), with its long features."""
    from pyramid_referee.voice.audio import RATE
    from pyramid_referee.voice.onsets import OnsetDetector

    det = OnsetDetector(RATE)
    out, waiting = [], []
    for i in range(0, len(x), 160):
        waiting += det.feed(x[i : i + 160])
        still = []
        for o in waiting:
            lf = det.long_features(o)
            if lf is None:
                still.append(o)
            else:
                out.append(_Onset(o, lf))
        waiting = still
    return out


def _source(name: str) -> str:
    return name.split("_")[1]


def truth_events(truth: dict) -> list[tuple[float, str, str]]:
    """(onset time, label, source) of every table sound, clap and rack knock a session placed."""
    ev = []
    for t, name in zip(truth["strikes"], truth["strike_sounds"]):
        ev.append((t, "tip", _source(name)))
    for key in ("stroke_sounds", "late_sounds", "rack", "other"):
        for s in truth.get(key, []):
            # a rack is set from ball clacks (kind "ball") and the rack recording ("rack");
            # "other" is a chalked cue: neither is a stroke's, both are table sounds
            label = s["kind"] if s["kind"] in ("ball", "cushion", "pocket") else "other"
            ev.append((s["t"], label, _source(s["name"])))
    for s in truth.get("claps", []):
        ev.append((s["t"], "clap", "synthetic"))
    return sorted(ev)


def label(onsets, truth: dict) -> list[tuple[str, str, object]]:
    """(label, source, onset) for every onset that can be labelled; the others are left out."""
    ev = truth_events(truth)
    times = np.array([e[0] for e in ev]) if ev else np.zeros(0)
    spans = [(c["start"], c["end"]) for c in truth.get("calls", []) + truth.get("chatter", [])]
    rows = []
    for o in onsets:
        if len(times):
            j = int(np.argmin(np.abs(times - o.time)))
            dt = o.time - times[j]
            if abs(dt) <= LABEL_TOL_S:
                rows.append((ev[j][1], ev[j][2], o))
                continue
            if np.min(np.abs(times - o.time)) < 0.25:
                continue  # a later knock of a placed sound (its ring, a rattle): unlabelled
        if any(a - 0.02 <= o.time <= b + 0.3 for a, b in spans):
            rows.append(("speech", "espeak", o))  # a call, other talk, or its echo in the room
        elif truth.get("noise") in ("babble", "mix"):
            rows.append(("speech", "espeak", o))  # the room's background talk
    return rows


def make_features(sessions: int, seed: int, out: Path = FEATURES_CSV) -> int:
    import table_mix

    from pyramid_referee.voice.onsets import LONG_FEATURES

    bank = table_mix.load_bank()
    rng = np.random.default_rng(seed)
    conds = [
        (None, "pink", False),
        (20, "pink", True),
        (20, "babble", False),
        (10, "hum", True),
        (10, "mix", False),
        (5, "babble", True),
        (5, "pink", False),
        (None, "pink", True),
    ]
    n = 0
    with gzip.open(out, "wt", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["label", "source", "session", *LONG_FEATURES])
        for k in range(sessions):
            snr, noise, reverb = conds[k % len(conds)]
            x, truth = table_mix.make_session(
                rng,
                bank,
                n_strokes=5,
                snr_db=snr,
                noise=noise,
                reverb=reverb,
                rolling_p=0.3,
                rack_p=0.3,
                clap_p=0.3,
                chatter_p=0.4,
                spoken_over_p=0.2,
                call_inside_stroke_p=0.2,
            )
            for lab, src, o in label(_onsets(x), truth):
                w.writerow([lab, src, k, *(f"{v:.5g}" for v in o.long)])
                n += 1
            print(f"\rsessions {k + 1}/{sessions}, rows {n}", end="", file=sys.stderr)
    print(file=sys.stderr)
    split = {
        "sources": sorted(table_mix.load_bank().sources()),
        "how": "leave-one-source-out: bench/bench_strike.py refits without each source in turn "
        "and reports on audio built only from that source's recordings",
        "features_from": {"sessions": sessions, "seed": seed},
    }
    SPLIT_JSON.write_text(json.dumps(split, indent=1) + "\n", encoding="utf-8")
    return n


OTHER_SPEECH = {  # talk in the room that is no call: other languages' consonants, word by word
    "ko": [
        "안녕하세요",
        "서울",
        "셋",
        "넷",
        "여섯",
        "여덟",
        "아홉",
        "열",
        "전화",
        "오른쪽",
        "왼쪽",
        "비행기",
        "음악",
    ],
    "en": ["good shot", "take it", "what a kick", "pocket", "back to back", "top spin", "check"],
    "de": ["guter Stoß", "Tasche", "zurück", "Kugel", "Punkt"],
    "ru": ["так", "тук", "пак", "кот", "ток", "бак", "дуб", "пуп", "кап", "пат"],
}


def add_other_speech(seed: int = SEED, path: Path = FEATURES_CSV) -> int:
    """Append ``speech`` rows from words in other languages and short plosive words, each said
    alone (espeak-ng pads them with digital silence) and then joined, as the tests' Korean
    stand-in speech is made: every onset in them is speech."""
    import subprocess
    import tempfile

    from pyramid_referee.voice.audio import read_wav

    rng = np.random.default_rng(seed)
    rows = 0
    with (
        tempfile.TemporaryDirectory() as tmp,
        gzip.open(path, "at", encoding="utf-8", newline="") as fh,
    ):
        w = csv.writer(fh)
        for rep in range(3):
            for lang, words in OTHER_SPEECH.items():
                parts = [np.zeros(8000)]
                for word in words:
                    wav = Path(tmp) / "w.wav"
                    speed = int(rng.integers(120, 190))
                    subprocess.run(
                        [
                            "espeak-ng",
                            "-v",
                            lang,
                            "-s",
                            str(speed),
                            "-p",
                            str(int(rng.integers(30, 70))),
                            "-w",
                            str(wav),
                            word,
                        ],
                        check=True,
                        capture_output=True,
                    )
                    x = read_wav(wav).astype(float) * rng.uniform(0.3, 0.9)
                    parts += [x, np.zeros(int(rng.uniform(0.0, 0.3) * 16000))]
                x = np.concatenate(parts + [np.zeros(8000)])
                if rep:
                    x = x + rng.standard_normal(len(x)) * 10 ** (rng.uniform(-75, -45) / 20)
                for o in _onsets(x):
                    w.writerow(["speech", "espeak", f"{lang}{rep}", *(f"{v:.5g}" for v in o.long)])
                    rows += 1
    return rows


def _read_table(path: Path, text_cols: int) -> tuple[list[str], list[list[str]], np.ndarray]:
    """A gzipped table of plain fields (no quoting: labels, source names and numbers): its
    header, the first ``text_cols`` fields of each row, and the rest as one float array. The
    numbers are parsed by numpy in one go (the same correctly rounded values as ``float``,
    several times faster than a ``float`` a field: the sequence table has 8 million)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        head = fh.readline().rstrip("\n").split(",")
        lines = fh.read().splitlines()
    split = [line.split(",", text_cols) for line in lines]
    width = len(head) - text_cols
    X = np.array(",".join(row[text_cols] for row in split).split(","), dtype=np.float64)
    return head, [row[:text_cols] for row in split], X.reshape(len(split), width)


@functools.lru_cache(maxsize=4)
def _read_cached(path: Path, mtime_ns: int, text_cols: int):
    head, text, X = _read_table(path, text_cols)
    X.setflags(write=False)  # shared by every caller in this process: a caller copies to change
    return head, text, X


def read_table(path: Path, text_cols: int):
    """:func:`_read_table`, read once a process while the file is unchanged (a leave-one-source-out
    run fits a model a held-out source on the same table)."""
    return _read_cached(Path(path).resolve(), Path(path).stat().st_mtime_ns, text_cols)


def read_features(path: Path = FEATURES_CSV):
    head, text, X = read_table(path, 3)
    labels = np.array([row[0] for row in text])
    sources = np.array([row[1] for row in text])
    return head[3:], labels, sources, X


def export(clf, names, meta: dict):
    """A fitted HistGradientBoostingClassifier as a :class:`SoundModel` (plain arrays)."""
    from pyramid_referee.voice.sound_class import CLASSES, SoundModel

    trees = [(k, t.nodes) for it in clf._predictors for k, t in enumerate(it)]
    n = max(len(nodes) for _, nodes in trees)
    T = len(trees)
    feat = np.zeros((T, n), np.int16)
    thr = np.zeros((T, n), np.float64)
    left = np.zeros((T, n), np.int16)
    right = np.zeros((T, n), np.int16)
    leaf = np.ones((T, n), bool)
    val = np.zeros((T, n), np.float64)
    cls = np.zeros(T, np.int16)
    order = [CLASSES.index(c) for c in clf.classes_]
    for i, (k, nodes) in enumerate(trees):
        m = len(nodes)
        cls[i] = order[k]
        feat[i, :m] = nodes["feature_idx"]
        thr[i, :m] = nodes["num_threshold"]
        left[i, :m] = nodes["left"]
        right[i, :m] = nodes["right"]
        leaf[i, :m] = nodes["is_leaf"].astype(bool)
        val[i, :m] = nodes["value"]
    base = np.full(len(CLASSES), -30.0)  # a class with no rows is never chosen
    base[order] = clf._baseline_prediction.reshape(-1)
    depth = int(max(nodes["depth"].max() for _, nodes in trees)) + 1
    return SoundModel(
        CLASSES, tuple(names), base, cls, feat, thr, left, right, leaf, val, depth, meta
    )


def fit(
    holdout: set[str] | frozenset = frozenset(),
    path: Path = FEATURES_CSV,
    with_sequence: bool = True,
    with_rnn: bool = True,
):
    """The two models fitted on every row whose source is not in ``holdout``: the first look
    (:data:`FEATURES`, 16 ms after the onset) and the second (:data:`LONG_FEATURES`, 150 ms),
    the second carrying the strike decision model (``with_sequence``: see below; ``with_rnn``
    False: without the decision with RNNoise's measures that rides on it)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from pyramid_referee.voice.onsets import FEATURES, LONG_FEATURES
    from pyramid_referee.voice.sound_class import CLASSES

    names, labels, sources, X = read_features(path)
    assert tuple(names) == LONG_FEATURES, "features.csv.gz is out of date: run `features` again"
    keep = ~np.isin(sources, list(holdout))
    X, y = X[keep], labels[keep]
    counts = {c: int((y == c).sum()) for c in CLASSES}
    models = []
    for cols in (FEATURES, LONG_FEATURES):
        clf = HistGradientBoostingClassifier(
            max_depth=4, max_iter=150, learning_rate=0.1, class_weight="balanced", random_state=0
        )
        clf.fit(X[:, : len(cols)], y)
        meta = {
            "fitted_by": "corpora/audio/fit_sound_model.py",
            "rows": counts,
            "held_out": sorted(holdout),
            "model": "HistGradientBoostingClassifier(max_depth=4, max_iter=150, learning_rate=0.1, "
            "class_weight='balanced', random_state=0)",
            "rounds": int(clf.n_iter_),
        }
        models.append(export(clf, cols, meta))
    import fit_decision

    if with_sequence and fit_decision.DECISIONS_CSV.exists():
        # the decision model rides on the second look's (so a caller that passes the pair of a
        # leave-one-source-out refit gets the decision model fitted without that source too)
        from dataclasses import replace

        models[1] = replace(models[1], companion=fit_decision.fit_sequence(holdout, rnn=with_rnn))
    return tuple(models)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("features", help="build the labelled feature table from mixed table audio")
    f.add_argument("--sessions", type=int, default=160)
    f.add_argument("--seed", type=int, default=SEED)
    sp = sub.add_parser(
        "speech", help="append speech rows from other languages' words (after `features`)"
    )
    sp.add_argument("--seed", type=int, default=SEED)
    g = sub.add_parser("fit", help="fit the model (all sources, or without --holdout ones)")
    g.add_argument("--holdout", nargs="*", default=[])
    g.add_argument(
        "--out", type=Path, default=ROOT / "voice/data", help="folder for sound_model*.npz"
    )
    args = ap.parse_args(argv)
    import strike_eval

    strike_eval.require_this_tree()  # the models are written into this checkout's voice/data
    if args.cmd == "features":
        n = make_features(args.sessions, args.seed)
        print(f"{n} rows → {FEATURES_CSV}")
        return 0
    if args.cmd == "speech":
        print(f"{add_other_speech(args.seed)} speech rows added → {FEATURES_CSV}")
        return 0
    first, second = fit(set(args.holdout))
    args.out.mkdir(parents=True, exist_ok=True)
    first.save(args.out / "sound_model.npz")
    second.save(args.out / "sound_model_long.npz")
    if second.companion is not None:
        second.companion.save(args.out / "strike_model.npz")
    print(f"models → {args.out}/sound_model.npz, sound_model_long.npz: {first.meta['rows']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
