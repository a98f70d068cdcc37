"""Scratch: RNNoise over each whole session (one state, the session's peak at -6 dBFS): its 10 ms
frames (ein, eout, eres, vad), for the full-stream variant of the measures."""
import os, sys
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/main")
from pyramid_referee.voice import denoise as dn
OUT = Path("/work/tr/full")
def job(p):
    p = Path(p); out = OUT / p.parent.name / (p.stem + ".npz")
    if out.exists(): return 0
    x = np.load(p).astype(np.float64)
    w = dn.window_frames(dn.load(), x, 16000)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, ein=w.ein.astype(np.float32), eout=w.eout.astype(np.float32), eres=w.eres.astype(np.float32), vad=w.vad.astype(np.float32))
    return 1
if __name__ == "__main__":
    from multiprocessing import Pool
    paths = [p for k in ("train", "ev2026", "ev2027") for p in sorted((Path("/work/tr/data") / k).glob("*.npy"))]
    n = 0
    with Pool(2) as pool:
        for c in pool.imap_unordered(job, paths, chunksize=4):
            n += 1
            if n % 100 == 0: print(n, len(paths), flush=True)
    print("done", flush=True)
