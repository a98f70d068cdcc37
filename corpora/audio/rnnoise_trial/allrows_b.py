"""Scratch: every row (both clocks) of the 540 training traces with the plain features and the
full-stream RNNoise measures (1 s baseline), one npz a trace."""
import os, sys, pickle
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/tr"); sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd
from mkfull import full_measures
BASE = int(os.environ.get("BASE", "100")); OUT = Path(f"/work/tr/allrows{BASE if BASE != 100 else ''}")
def job(p):
    p = Path(p); out = OUT / (p.stem + ".npz")
    if out.exists(): return 0
    d = pickle.loads(p.read_bytes())
    fr = np.load(Path("/work/tr/full/train") / (p.stem + ".npz"))
    X, R, y = [], [], []
    for rng in (None, fd.erring_rng(p.name)):
        for lab, t, f in fd._rows(d, rng):
            X.append(f); R.append(full_measures(fr, t, BASE)); y.append(lab)
    OUT.mkdir(exist_ok=True)
    np.savez(out, X=np.array(X), R=np.array(R), y=np.array(y), sources=np.array("+".join(d["sources"])))
    return len(y)
if __name__ == "__main__":
    from multiprocessing import Pool
    paths = sorted(Path("/work/tr/data/train").glob("*.pickle"))
    n = 0
    with Pool(2) as pool:
        for i, c in enumerate(pool.imap_unordered(job, paths, chunksize=4)):
            n += c
            if i % 50 == 0: print(i, n, flush=True)
    print("done", n, flush=True)
