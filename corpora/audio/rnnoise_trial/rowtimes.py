"""Scratch: the time of every row of the committed decisions.csv.gz (write_table's order: traces
sorted by name, true clock then erring), without computing features; checked against the table's
row count and sources; then the full-stream RNNoise measures of each row -> /work/tr/full_rows{B}.npy"""
import sys, pickle
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/tr"); sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd
from mkfull import full_measures

def row_times(trace, rng):
    heard, times, vad = fd.restore(trace)
    true, decided = fd.decided_strikes(heard, trace["strikes"], rng)
    dtimes = [heard[j].time for j in decided]
    true_times = np.array([heard[j].time for j in true])
    from bisect import bisect_left
    for j, h in enumerate(heard):
        if trace["long"].get(h.time) is None:
            continue
        k = bisect_left(dtimes, h.time - 0.05)
        since = h.time - dtimes[k - 1] if k else 1e9
        if since < fd.MIN_GAP_S:
            continue
        if j not in true and np.any(np.abs(true_times - h.time) < 0.04):
            continue
        yield h.time

names, y, sources, X = fd.read_table(fd.DECISIONS_CSV)
print("table rows", len(y))
out = {50: [], 100: []}; srcs = []
for p in sorted(Path("/work/tr/data/train").glob("*.pickle")):
    d = pickle.loads(p.read_bytes())
    fr = np.load(Path("/work/tr/full/train") / (p.stem + ".npz"))
    used = frozenset(d["sources"])
    for rng in (None, fd.erring_rng(p.name)):
        for t in row_times(d, rng):
            for b in out:
                out[b].append(full_measures(fr, t, b))
            srcs.append(used)
print("my rows", len(srcs), "sources match", len(srcs) == len(sources) and all(a == b for a, b in zip(srcs, sources)))
for b in out:
    np.save(f"/work/tr/full_rows{b}.npy", np.array(out[b], dtype=np.float32))
