"""Scratch: add RNNoise's measures (fit_decision.add_rnn, the committed code) to the traces mixed
by mix.py, from their audio: training traces gated (RNN_GATE), evaluation traces every candidate."""
import os, sys, pickle
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd
OUT = Path("/work/tr/rnn")

def job(path):
    path = Path(path)
    out = OUT / path.parent.name / path.name
    if out.exists():
        return 0
    d = pickle.loads(path.read_bytes())
    x = np.load(path.with_suffix(".npy"))
    n = fd.add_rnn(d, x, path.name, fd.RNN_GATE if path.parent.name == "train" else None)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pickle.dumps(d))
    return n

if __name__ == "__main__":
    from multiprocessing import Pool
    kinds = sys.argv[1:] or ["ev2026", "ev2027", "train"]
    paths = [p for k in kinds for p in sorted((Path("/work/tr/data") / k).glob("*.pickle"))]
    n = done = 0
    with Pool(int(os.environ.get("PROCS", "2"))) as pool:
        for c in pool.imap_unordered(job, paths, chunksize=2):
            n += c; done += 1
            if done % 20 == 0: print(done, len(paths), n, flush=True)
    print("done", done, n, flush=True)
