#!/usr/bin/env python3
"""How far each true strike of the benchmark stands above the rest of the mix: a look the
detector cannot take, at what it has to work with.

    python corpora/audio/strike_snr.py DIR [--seed S] [--conditions C …]

DIR holds the benchmark's sessions kept by ``seq_eval.py collect DIR --seed S`` (traces and
audio). Each session is mixed again from its seed with the mixer's stems (checked against the
audio kept), so the strike alone and everything else heard with it (calls, talk, the table's
other sounds, the café, through the room) are known apart. For each true strike, the strike's
energy against the rest's, in six octave bands (:data:`BANDS`, 60 Hz–8 kHz) and in
each of :data:`WINDOWS_S` from its onset; its **SNR** is the best of them: as generous as a
detector that knew in which band and how long to listen. A strike under 0 dB in every band and
window is **buried**: the rest of the mix is louder than it wherever it is heard.

The shipped decision is then replayed on the traces (``seq_eval.replay``, each fold fitted
without its sources, RNNoise's measures as the detector weighs them) and the strikes are
counted found (the benchmark's match: within 40 ms) or missed by their SNR, per condition.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from pyramid_referee.voice.onsets import SPECTRUM_BANDS as BANDS  # noqa: E402

# (the bands (Hz) a strike's energy is set against the rest's in: the detector's own octaves,
# 60 Hz–8 kHz; the shortest window resolves 100 Hz)

WINDOWS_S = (0.01, 0.02, 0.04)
"""The stretches from the onset it is measured over."""

CLASSES = ((-np.inf, 0.0, "buried"), (0.0, 6.0, "0–6 dB"), (6.0, np.inf, "≥ 6 dB"))
"""The SNR classes of the table: (from, to, label)."""


def band_energies(x: np.ndarray, rate: int) -> np.ndarray:
    """The energy of ``x`` in each of :data:`BANDS` (a Hann window, zero-padded to 1,024)."""
    n = max(1024, 1 << int(np.ceil(np.log2(len(x)))))
    spec = np.abs(np.fft.rfft(x * np.hanning(len(x)), n)) ** 2
    f = np.fft.rfftfreq(n, 1.0 / rate)
    return np.array([spec[(f >= lo) & (f < hi)].sum() for lo, hi in BANDS])


def strike_snr(strike: np.ndarray, rest: np.ndarray, onset: int, rate: int) -> tuple[float, str]:
    """(the best SNR in dB of ``strike`` against ``rest`` over :data:`BANDS` and
    :data:`WINDOWS_S` from sample ``onset``, where: "band Hz, window ms"). The two are the same
    length and on the same clock (the strike alone, and the mix less it)."""
    best, where = -np.inf, ""
    for w in WINDOWS_S:
        b = onset + int(round(w * rate))
        if onset < 0 or b > len(strike):
            continue
        s = band_energies(strike[onset:b], rate)
        r = band_energies(rest[onset:b], rate)
        db = 10 * np.log10(np.maximum(s, 1e-30) / np.maximum(r, 1e-30))
        i = int(np.argmax(db))
        if db[i] > best:
            best, where = float(db[i]), f"{BANDS[i][0]}–{BANDS[i][1]} Hz, {w * 1000:.0f} ms"
    return best, where


def snr_class(snr: float) -> str:
    return next(label for lo, hi, label in CLASSES if lo <= snr < hi)


def session_snrs(x: np.ndarray, truth: dict, stems: dict, rate: int) -> list[float]:
    """The SNR of each of the session's true strikes (``truth["strokes"]`` order)."""
    strike = stems["strikes_wet"] * truth["gain"]
    rest = x - strike
    return [
        strike_snr(strike, rest, int(round(st["strike"] * rate)), rate)[0]
        for st in truth["strokes"]
    ]


def measure(traces_dir: Path, seed: int, conditions=None) -> dict:
    """{condition: {class: [found, missed]}} over the traces in ``traces_dir``."""
    import seq_eval as se
    import strike_eval as ev
    import table_mix as tm

    traces = se.load_traces(traces_dir)
    if not traces:
        raise SystemExit(f"no traces in {traces_dir} (make them with seq_eval.py collect)")
    bank, speech = ev.load_inputs()
    folds = ev.folds(bank, speech)
    conds = list(ev.CONDITIONS)
    wanted = {(d["fold"], d["condition"]) for d in traces}
    snrs: dict = {}
    for fi, fold in enumerate(folds):
        mine = [d for d in traces if d["fold"] == fold["name"]]
        cs = [c for c in conds if (fold["name"], c) in wanted and c in (conditions or conds)]
        if not cs:
            continue
        sessions = 1 + max(int(d["path"].stem.split("_")[2]) for d in mine)
        strokes = max(len(d["truth"]["strokes"]) for d in mine)
        for cname, k, _rv, x, truth, stems in ev.fold_sessions(
            bank, speech, fold, fi, cs, sessions, strokes, seed, stems=True
        ):
            path = traces_dir / f"{fi:02d}_{conds.index(cname)}_{k}.npy"
            if not path.exists():
                continue
            kept = np.load(path)
            if len(kept) != len(x) or not np.allclose(kept, x, atol=1e-4):
                raise SystemExit(
                    f"{path.name} is not the session mixed with seed {seed}: give the seed "
                    "its traces were collected with (--seed)"
                )
            snrs[path.stem] = session_snrs(x, truth, stems, tm.RATE)
        print(f"\r{fold['name']}: stems mixed again", end=" " * 20, file=sys.stderr)
    print(file=sys.stderr)
    held = se.groups(traces, 0)
    by: dict = {}
    for d in traces:
        if d["path"].stem not in snrs:
            continue
        m = se.fold_model(held[d["fold"]], se.HERE / "decisions.csv.gz")
        measures = se.measures_from(d["path"])
        rep, _ = se.replay(d, m, measures=measures)
        measures.save()
        true = [st["strike"] for st in d["truth"]["strokes"]]
        found = ev.match(rep, true)
        for i, snr in enumerate(snrs[d["path"].stem]):
            for key in (d["condition"], "all"):
                cell = by.setdefault(key, {}).setdefault(snr_class(snr), [0, 0])
                cell[0 if i in found else 1] += 1
    return by


def print_table(by: dict) -> None:
    labels = [label for _, _, label in CLASSES]
    print("| condition | strikes | " + " | ".join(f"{c}: found / missed" for c in labels) + " |")
    print("|---|---:|" + "---:|" * len(labels))
    for cond, cells in sorted(by.items(), key=lambda kv: kv[0] == "all"):  # (all last)
        n = sum(a + b for a, b in cells.values())
        parts = ["{} / {}".format(*cells[label]) if label in cells else "–" for label in labels]
        print(f"| {cond} | {n} | " + " | ".join(parts) + " |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path, help="traces kept by seq_eval.py collect")
    ap.add_argument("--seed", type=int, default=2026, help="the seed they were collected with")
    ap.add_argument("--conditions", nargs="*", default=None)
    args = ap.parse_args(argv)
    import strike_eval as ev

    ev.require_this_tree()
    print_table(measure(args.dir, args.seed, args.conditions))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
