#!/usr/bin/env python3
"""Fit the strike decision (voice/data/strike_model.npz and strike_model_rnn.npz) on whole mixed
table sessions.

    python corpora/audio/fit_decision.py sessions DIR [--sessions N] [--seed S]   # traces
    python corpora/audio/fit_decision.py table DIR … [--out decisions.csv.gz]       # the rows
    python corpora/audio/fit_decision.py fit [--holdout SRC …]                     # → the models

**The sessions** (``sessions``) are mixed as the benchmark mixes its own (``strike_eval``'s
folds and conditions: one table source, one recorded voice and one recorded room noise a fold;
clean, 20/10/5 dB of café noise, reverberation, talk over the stroke, the next call while balls
roll, a call with no stroke, the strike 1 s after the call), with other seeds than the
benchmark's, and three changes that make a fitted decision lean on the stroke rather than on one
source's sound:

- **another table's timbre** in seven sessions of ten (``table_mix.draw_timbre``: each kind of
  recording resampled 0.6–1.6× and tilted ±12 dB above a corner of 0.4–3 kHz, each kind alone,
  so that a strike may come out brighter than its clacks);
- **a phone's microphone** in one session of four: its band edges and its automatic gain;
- **a random level**, the session's peak from -30 to -1 dBFS.

Each session is run through the product's detector and kept as a **trace** (every candidate
sound's shape, the voice activity's speech layer, RNNoise's measures of every candidate from one
pass over the session (``add_rnn``), the truth's strikes and the sources the session used): the
rows are computed from traces, so a change of the decision's features is a new ``table``, not
new audio.

**The rows** (``table``): every candidate with the features of ``voice/sequence.py`` and
RNNoise's measures (``voice/denoise.py``), labelled strike (the candidate nearest a true strike,
within 25 ms) or not, computed twice a session:

- with the **true strikes** as the strikes decided so far (the seconds since the stroke began,
  the timbre of the session's strikes and their clacks), and
- with the strikes a detector would have decided had it **erred**: one true strike in five
  missed, up to three other loud sounds taken for strikes. At the table the decision reads its
  own past decisions; fitted on the truth alone it learned that a strike never follows another
  within 2.5 s (the mixer's own spacing), and one false strike in a call cost the next stroke too.

**The fit** (``fit``): gradient-boosted trees (scikit-learn's HistGradientBoostingClassifier,
depth 5, strikes weighted to half the rows) on every row whose session used no held-out source
(table recording, recorded voice or recorded noise: ``--holdout``), exported as plain arrays
(numpy applies them at run time): twice, on the features alone (``strike_model.npz``, the
decision every candidate gets) and with RNNoise's measures too (``strike_model_rnn.npz``, for
the candidates the first gives at least ``StrikeParams.denoise_from_p``).
``fit_sound_model.fit`` attaches the pair to the second-look model, so a leave-one-source-out
refit carries a decision fitted without that source too.

Tried and not kept: every row again as if nobody had spoken before it, so that a strike would
need no call. It taught the model that a word's first consonant after a pause is a strike; a
strike with no call before it is found without those rows.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import pickle
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

DECISIONS_CSV = HERE / "decisions.csv.gz"
STRIKES_PER_SESSION = 4
TIMBRE_P = 0.7  # sessions given another table's timbre
PHONE_P = 0.25  # … heard through a phone's microphone
MATCH_S = 0.025  # the candidate within this of a true strike is the strike
MISS_P = 0.2  # the erring clock: a true strike missed …
PHANTOMS = (0, 3)  # … and this many other loud sounds taken for strikes
RNN_MISSING = -99.0  # a measure of RNNoise's whose frames fall outside the session
MIN_GAP_S = 0.3  # the detector decides nothing this soon after a strike (StrikeParams.min_gap_s)
FIT = dict(
    max_depth=5, max_iter=250, learning_rate=0.08, l2_regularization=1.0, min_samples_leaf=30
)


# ----------------------------------------------------------------------------------------------
# Sessions and traces


def phone(x: np.ndarray, rng) -> np.ndarray:
    """A phone microphone: band 150–400 to 3000–5000 Hz and its automatic gain (a soft compressor
    with a 50 ms attack / 0.5 s release)."""
    from scipy.ndimage import uniform_filter1d
    from scipy.signal import butter, sosfilt

    lo, hi = rng.uniform(150, 400), rng.uniform(3000, 5000)
    y = sosfilt(butter(2, (lo, hi), btype="bandpass", fs=16000, output="sos"), x)
    env = np.sqrt(np.convolve(y**2, np.ones(800) / 800, mode="same")) + 1e-6
    target = np.sqrt(np.mean(y**2)) * rng.uniform(1.5, 3.0)
    g = uniform_filter1d(np.minimum(target / env, 4.0), 8000)
    return y * g


def trace_session(x: np.ndarray, truth: dict) -> dict:
    """The product's detector run over ``x`` (250 ms blocks: its features do not depend on the
    block length), every candidate kept: what the decision's features are computed from."""
    from pyramid_referee.voice.audio import array_frames
    from pyramid_referee.voice.strike import StrikeDetector

    det = StrikeDetector(collect=True, strike_clock=lambda t: np.inf)
    for fr in array_frames(x.astype(np.float32), 250):
        det.feed(fr.samples, fr.t0)
    det.flush()
    vad = det.vad
    return {
        "heard": [(h.time, h.features, h.peak_db) for h in det._heard],
        "long": det.long_of,
        "band": det.band_of,
        "speech": (list(vad.speech), list(vad.speech_db), list(vad.foreground)),
        "end": len(x) / 16000,
        "strikes": sorted(s["strike"] for s in truth["strokes"]),
        "truth": {k: v for k, v in truth.items() if k != "room"},
    }


def save_trace(
    path: Path,
    x: np.ndarray,
    truth: dict,
    fold: dict,
    condition: str,
    rnn: bool = False,
    **extra,
) -> None:
    """:func:`trace_session` of ``x``, with the fold, the condition and the sources the session
    used, pickled to ``path``; ``rnn``: with RNNoise's measures (:func:`add_rnn`)."""
    import strike_eval as ev

    trace = trace_session(x, truth)
    if rnn:
        add_rnn(trace, x)
    trace.update(
        fold=fold["name"],
        condition=condition,
        sources=sorted(ev.held_out(fold)),
        **extra,
    )
    path.write_bytes(pickle.dumps(trace))


def decision_sessions(out: Path, sessions: int, seed: int, folds=None, conditions=None) -> int:
    """``sessions`` sessions of each benchmark condition (or of ``conditions``) for every fold,
    as traces in ``out`` (one pickle a session; a session already there is skipped)."""
    import strike_eval as ev

    unknown = sorted(set(conditions or ()) - set(ev.CONDITIONS))
    if unknown:
        raise SystemExit(
            f"no such condition: {', '.join(unknown)} (there are: {', '.join(ev.CONDITIONS)})"
        )
    inputs = ev.load_inputs()
    if inputs is None:
        raise SystemExit(1)
    bank, speech = inputs
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    every = ev.folds(bank, speech)
    for fi, fold in enumerate(every):
        if folds and fold["name"] not in folds:
            continue
        made = ev.fold_sessions(
            bank,
            speech,
            fold,
            fi,
            list(conditions or ev.CONDITIONS),
            sessions,
            STRIKES_PER_SESSION,
            seed,
            timbre_p=TIMBRE_P,
        )
        for cname, k, _reverb, x, truth in made:
            ci = list(ev.CONDITIONS).index(cname)
            path = out / f"{seed}_{fi:02d}_{ci}_{k}.pickle"
            if path.exists():
                continue
            rng = np.random.default_rng([seed, fi, ci, k, 1])
            if rng.uniform() < PHONE_P:
                x = phone(x, rng)
            x = x / (np.abs(x).max() + 1e-9) * 10 ** (rng.uniform(-30, -1) / 20)
            save_trace(path, x, truth, fold, cname, rnn=True)
            n += 1
            print(f"\r{n} sessions", end="", file=sys.stderr)
    print(file=sys.stderr)
    return n


# ----------------------------------------------------------------------------------------------
# Rows


def restore(trace: dict):
    """(sounds heard, their times, a voice activity holding the trace's speech layer)."""
    from pyramid_referee.voice.onsets import VoiceActivity
    from pyramid_referee.voice.sequence import Heard

    vad = VoiceActivity()
    vad.speech, vad.speech_db, vad.foreground = (list(v) for v in trace["speech"])
    heard = [Heard(t, f, pk) for t, f, pk in trace["heard"]]
    return heard, [h.time for h in heard], vad


def decided_strikes(heard, strikes, rng=None) -> tuple[set[int], list[int]]:
    """(indices of the candidates that are the true strikes, indices of the strikes taken as
    decided): the true ones, or with ``rng`` an erring detector's (some missed, some other loud
    sounds taken)."""
    times = np.array([h.time for h in heard])
    true = set()
    for T in strikes:
        if len(times):
            j = int(np.argmin(np.abs(times - T)))
            if abs(times[j] - T) <= MATCH_S:
                true.add(j)
    if rng is None:
        return true, sorted(true)
    decided = [j for j in sorted(true) if rng.uniform() >= MISS_P]
    others = [j for j, h in enumerate(heard) if j not in true and h.salient]
    k = min(int(rng.integers(PHANTOMS[0], PHANTOMS[1] + 1)), len(others))
    if k:
        decided += [int(j) for j in rng.choice(others, size=k, replace=False)]
    return true, sorted(set(decided))


def _rows(trace: dict, rng=None):
    """``(label, time, features)`` of every candidate the detector would decide in this session
    (:data:`SEQ_FEATURES`), with the strikes decided so far true (``rng`` None) or erring (see
    :func:`decided_strikes`)."""
    from bisect import bisect_left

    from pyramid_referee.voice.onsets import BAND_FEATURES
    from pyramid_referee.voice.sequence import HORIZON_S, Session, context_features

    heard, times, vad = restore(trace)
    true, decided = decided_strikes(heard, trace["strikes"], rng)
    dtimes = [heard[j].time for j in decided]
    true_times = np.array([heard[j].time for j in true])
    zero_band = (0.0,) * len(BAND_FEATURES)
    for j, h in enumerate(heard):
        long = trace["long"].get(h.time)
        if long is None:
            continue
        k = bisect_left(dtimes, h.time - 0.05)
        since = h.time - dtimes[k - 1] if k else 1e9
        if since < MIN_GAP_S:
            continue  # the detector takes the stroke's own sounds without a decision
        if j not in true and np.any(np.abs(true_times - h.time) < 0.04):
            continue  # (a second onset of the strike itself)
        session = Session.at(h.time, heard, times, vad, [heard[i] for i in decided[:k]])
        end = trace["end"] if h.time + HORIZON_S + 0.035 > trace["end"] else None
        band = trace["band"].get(h.time, zero_band)
        feats = context_features(h, long, band, session, since, HORIZON_S, end)
        yield int(j in true), h.time, feats


def decision_rows(trace: dict, rng=None):
    """``(label, features)`` of every candidate the detector would decide in this session: the
    features of :data:`SEQ_FEATURES`, then RNNoise's measures (:data:`RNN_FEATURES`, from
    :func:`add_rnn`), with the strikes decided so far true (``rng`` None) or erring (see
    :func:`decided_strikes`)."""
    rnn = trace.get("rnn")
    if rnn is None:
        raise SystemExit(
            "a trace without RNNoise's measures (made before they were added): "
            "make the sessions again with `sessions`"
        )
    for label, t, feats in _rows(trace, rng):
        yield label, tuple(feats) + tuple(rnn[t])


def erring_rng(name: str):
    """The erring clock of the trace named ``name`` (its own seed: the table is reproducible)."""
    import hashlib

    seed = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")
    return np.random.default_rng(seed)


def add_rnn(trace: dict, x: np.ndarray) -> int:
    """RNNoise's measures (``voice/denoise.py``) of every candidate of the trace, into
    ``trace["rnn"]`` (time → measures), from one pass of one RNNoise state over the whole
    session, its loudest sample set to −6 dBFS as the detector sets a window's. The detector
    computes them on each weighed knock's own window (a tenth of the cost of a whole pass, where
    it weighs one candidate in thirty); a decision fitted on the whole pass's measures decided
    as many calls right given the windows' as given the whole pass's
    (``docs/dev/benchmarks.md``). A measure whose frames fall outside the session (its first
    1 s, its last 0.32 s) is :data:`RNN_MISSING`. Returns how many candidates."""
    from pyramid_referee.voice import denoise

    x = np.asarray(x, dtype=np.float32).astype(np.float64)
    w = denoise.window_frames(denoise.load(), x, 16000)
    out = {}
    for t in trace["long"]:
        k = int(np.floor(t / denoise.FRAME_S + 1e-9))
        if k < denoise.BASE_FRAMES or k + denoise.AFTER_FRAMES > len(w.ein):
            out[t] = (RNN_MISSING,) * len(denoise.RNN_FEATURES)
        else:
            out[t] = tuple(RNN_MISSING if v != v else v for v in denoise.measures(w, k))
    trace["rnn"] = out
    return len(out)


def write_table(traces: list[Path], out: Path = DECISIONS_CSV) -> int:
    """The rows of every trace, with the true and with an erring clock (seeded by the trace's
    name), to ``out``: label, the sources the session used, then the features and RNNoise's
    measures (:data:`RNN_SEQ_FEATURES`, 3 significant digits)."""
    from pyramid_referee.voice.sound_class import RNN_SEQ_FEATURES

    n = 0
    with gzip.open(out, "wt", encoding="utf-8", newline="", compresslevel=9) as fh:
        w = csv.writer(fh)
        w.writerow(["label", "sources", *RNN_SEQ_FEATURES])
        for i, path in enumerate(traces):
            trace = pickle.loads(path.read_bytes())
            used = "+".join(trace["sources"])
            for rng in (None, erring_rng(path.name)):
                for label, f in decision_rows(trace, rng):
                    w.writerow([label, used, *(f"{v:.3g}" for v in f)])
                    n += 1
            print(f"\r{i + 1}/{len(traces)} sessions, {n} rows", end="", file=sys.stderr)
    print(file=sys.stderr)
    return n


def read_table(path: Path = DECISIONS_CSV):
    """(feature names, labels, each row's sources, features): read once a process."""
    import fit_sound_model as fsm

    head, text, X = fsm.read_table(path, 2)
    y = np.array([int(row[0]) for row in text])
    sources = [frozenset(row[1].split("+")) for row in text]
    return head[2:], y, sources, X


# ----------------------------------------------------------------------------------------------
# The fit


def export_binary(clf, names, meta: dict):
    """A fitted binary HistGradientBoostingClassifier as a :class:`SoundModel` with the classes
    ``other`` and ``strike`` (the strike's logit minus the other's is the log-odds)."""
    from pyramid_referee.voice.sound_class import SoundModel

    trees = [t.nodes for it in clf._predictors for t in it]
    n = max(len(nodes) for nodes in trees)
    T = len(trees)
    arrays = {
        "feature_idx": np.zeros((T, n), np.int16),
        "num_threshold": np.zeros((T, n), np.float64),
        "left": np.zeros((T, n), np.int16),
        "right": np.zeros((T, n), np.int16),
        "is_leaf": np.ones((T, n), bool),
        "value": np.zeros((T, n), np.float64),
    }
    for i, nodes in enumerate(trees):
        for key, a in arrays.items():
            a[i, : len(nodes)] = nodes[key]
    base = np.array([0.0, float(np.ravel(clf._baseline_prediction)[0])])
    depth = int(max(nodes["depth"].max() for nodes in trees)) + 1
    return SoundModel(
        ("other", "strike"),
        tuple(names),
        base,
        np.ones(T, np.int16),
        arrays["feature_idx"],
        arrays["num_threshold"],
        arrays["left"],
        arrays["right"],
        arrays["is_leaf"],
        arrays["value"],
        depth,
        meta,
    )


def _fit(names, X, y, sources, holdout, random_state: int):
    from sklearn.ensemble import HistGradientBoostingClassifier

    holdout = frozenset(holdout)
    keep = np.array([not (s & holdout) for s in sources])
    X, y = X[keep], y[keep]
    w = np.where(y == 1, 0.5 * len(y) / max(1, y.sum()), 1.0)
    clf = HistGradientBoostingClassifier(random_state=random_state, **FIT)
    clf.fit(X, y, sample_weight=w)
    meta = {
        "fitted_by": "corpora/audio/fit_decision.py",
        "rows": int(len(y)),
        "strikes": int(y.sum()),
        "held_out": sorted(holdout),
        "model": f"HistGradientBoostingClassifier({FIT})",
        "random_state": random_state,
        "rounds": int(clf.n_iter_),
    }
    return export_binary(clf, names, meta)


def fit_sequence(
    holdout=frozenset(),
    path: Path = DECISIONS_CSV,
    table=None,
    random_state: int = 0,
    rnn: bool = True,
):
    """The strike decision fitted on every row whose session used no held-out source
    (``table``: :func:`read_table`'s, already read): the decision on the features alone
    (:data:`SEQ_FEATURES`), which every candidate gets, with the decision that also reads
    RNNoise's measures (:data:`RNN_SEQ_FEATURES`) riding on it as its ``companion`` (the
    detector asks it for the candidates the first gives ``StrikeParams.denoise_from_p``).
    ``random_state`` draws the tenth of the rows that early stopping holds back, its only
    randomness: fits differing in it alone moved the calls decided right by up to 15 of 1,080
    (the tuning loop's noise floor, ``seq_eval.py --random-state``); the shipped fit uses 0.
    ``rnn`` False: the first alone (the detector then decides as where RNNoise is missing)."""
    from dataclasses import replace

    from pyramid_referee.voice.sequence import SEQ_FEATURES
    from pyramid_referee.voice.sound_class import RNN_SEQ_FEATURES

    names, y, sources, X = table if table is not None else read_table(path)
    if tuple(names) != RNN_SEQ_FEATURES:
        raise SystemExit(f"{Path(path).name} is out of date: make it again with `table`")
    plain = _fit(SEQ_FEATURES, X[:, : len(SEQ_FEATURES)], y, sources, holdout, random_state)
    if not rnn:
        return plain
    return replace(plain, companion=_fit(RNN_SEQ_FEATURES, X, y, sources, holdout, random_state))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sessions", help="mix the training sessions and keep them as traces")
    s.add_argument("dir", type=Path)
    s.add_argument("--sessions", type=int, default=4, help="per fold and condition")
    s.add_argument("--seed", type=int, default=31)
    s.add_argument("--folds", nargs="*", default=None)
    s.add_argument("--conditions", nargs="*", default=None, help="only these (default: every one)")
    t = sub.add_parser("table", help="the rows of the traces in DIR … (the committed table)")
    t.add_argument("dirs", type=Path, nargs="+")
    t.add_argument("--out", type=Path, default=DECISIONS_CSV)
    f = sub.add_parser("fit", help="fit the decision (all sources, or without --holdout ones)")
    f.add_argument("--holdout", nargs="*", default=[])
    f.add_argument("--out", type=Path, default=ROOT / "voice/data/strike_model.npz")
    args = ap.parse_args(argv)
    import strike_eval

    strike_eval.require_this_tree()  # its detector makes the traces; the models go to voice/data
    if args.cmd == "sessions":
        n = decision_sessions(args.dir, args.sessions, args.seed, args.folds, args.conditions)
        print(n, "sessions")
        return 0
    if args.cmd == "table":
        traces = sorted(p for d in args.dirs for p in d.glob("*.pickle"))
        print(f"{write_table(traces, args.out)} rows → {args.out}")
        return 0
    model = fit_sequence(set(args.holdout))
    model.save(args.out)
    meta = model.meta
    print(f"decision model → {args.out}: {meta['rows']} rows, {meta['strikes']} strikes")
    out = args.out.with_name(args.out.stem + "_rnn.npz")
    model.companion.save(out)
    print(f"… with RNNoise's measures → {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
