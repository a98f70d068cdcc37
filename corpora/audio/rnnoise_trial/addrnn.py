"""Scratch: the 540 training traces (seed 31, as `fit_decision.py sessions` makes them) with
fit_decision.add_rnn's measures from their audio (the npy saved beside them), as `sessions` now
writes them, into /work/tr/tr2."""
import os, sys, pickle
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd
OUT = Path("/work/tr/tr2")
def job(p):
    p = Path(p); out = OUT / p.name
    if out.exists(): return 0
    d = pickle.loads(p.read_bytes())
    n = fd.add_rnn(d, np.load(p.with_suffix(".npy")))
    out.write_bytes(pickle.dumps(d)); return n
if __name__ == "__main__":
    from multiprocessing import Pool
    paths = sorted(Path("/work/tr/data/train").glob("*.pickle"))
    with Pool(2) as pool:
        for i, n in enumerate(pool.imap_unordered(job, paths, chunksize=4)):
            if i % 50 == 0: print(i, n, flush=True)
    print("done", flush=True)
