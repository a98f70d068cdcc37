import os, sys, pickle
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/tr"); sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd, strike_eval as ev
from pyramid_referee.voice.sequence import SEQ_FEATURES
from pyramid_referee.voice.denoise import RNN_FEATURES
RS = int(os.environ.get("RS", "0"))
Xs, Rs, ys, ss = [], [], [], []
for p in sorted(Path(os.environ.get("ROWS", "/work/tr/allrows")).glob("*.npz")):
    z = np.load(p); n = len(z["y"])
    if n == 0: continue
    Xs.append(z["X"]); Rs.append(z["R"]); ys.append(z["y"]); ss += [frozenset(str(z["sources"]).split("+"))] * n
X = np.vstack(Xs); R = np.nan_to_num(np.vstack(Rs), nan=-99.0); y = np.concatenate(ys)
XR = np.hstack([X, R])
print(X.shape, y.sum(), flush=True)
def job(args):
    fold, ex, kind = args
    out = Path(f"/work/tr/models/mine_{kind}{os.environ.get('WSUF', '')}_{fold}_{RS}.pickle")
    if out.exists(): return fold, kind
    m = fd._fit(SEQ_FEATURES, X, y, ss, ex, RS) if kind == "plain" else fd._fit(SEQ_FEATURES + RNN_FEATURES, XR, y, ss, ex, RS)
    out.write_bytes(pickle.dumps(m)); return fold, kind
if __name__ == "__main__":
    from multiprocessing import Pool
    bank, speech = ev.load_inputs()
    jobs = [(f["name"], frozenset(ev.held_out(f)), k) for f in ev.folds(bank, speech) for k in os.environ.get("KINDS", "plain with").split()]
    with Pool(2) as pool:
        for r in pool.imap_unordered(job, jobs):
            print(r, flush=True)
