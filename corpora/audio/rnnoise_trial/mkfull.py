"""Scratch: training traces with the full-stream measures (same candidates as the windowed ones)."""
import sys, pickle
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/main")
import dn_branch as dn
BASE = 50
def full_measures(fr, t, base=None):
    base = base or BASE
    k = int(np.floor(t * 100 + 1e-9))
    m = len(fr["ein"])
    if k - max(base, 30) < 0 or k + 31 >= m:
        return (float("nan"),) * 9
    w = dn.WindowFrames(*(fr[n].astype(np.float64) for n in ("ein", "eout", "eres", "vad")))
    old = dn.BASE_FRAMES
    dn.BASE_FRAMES = base
    try:
        return dn.measures(w, k)
    finally:
        dn.BASE_FRAMES = old
if __name__ == "__main__":
    BASE = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    out = Path(f"/work/tr/rnnfull{BASE}/train"); out.mkdir(parents=True, exist_ok=True)
    for p in sorted(Path("/work/tr/rnn/train").glob("*.pickle")):
        d = pickle.loads(p.read_bytes())
        fr = np.load(Path("/work/tr/full/train") / (p.stem + ".npz"))
        d["rnn"] = {t: full_measures(fr, t) for t in d["rnn"]}
        (out / p.name).write_bytes(pickle.dumps(d))
    print("ok")
