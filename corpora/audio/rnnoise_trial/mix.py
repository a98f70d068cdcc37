"""Scratch: mix the training (seed 31, 4/fold×cond, like fit_decision.decision_sessions) and
evaluation sessions (seeds 2026/2027, 2/fold×cond, like seq_eval.collect), keep each as a trace
(without RNNoise) and its audio (float32 npy), so the RNNoise measures can be computed later."""
import os, sys, pickle
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd, strike_eval as ev

OUT = Path("/work/tr/data")
NTRAIN = int(os.environ.get("NTRAIN", "2"))

def job(args):
    kind, seed, fi = args
    bank, speech = ev.load_inputs()
    every = ev.folds(bank, speech)
    fold = every[fi]
    out = OUT / kind; out.mkdir(parents=True, exist_ok=True)
    if kind == "train":
        made = ev.fold_sessions(bank, speech, fold, fi, list(ev.CONDITIONS), NTRAIN, fd.STRIKES_PER_SESSION, seed, timbre_p=fd.TIMBRE_P)
    else:
        made = ev.fold_sessions(bank, speech, fold, fi, list(ev.CONDITIONS), 2, 4, seed)
    n = 0
    for cname, k, reverb, x, truth in made:
        ci = list(ev.CONDITIONS).index(cname)
        name = f"{seed}_{fi:02d}_{ci}_{k}" if kind == "train" else f"{fi:02d}_{ci}_{k}"
        path = out / f"{name}.pickle"
        if path.exists():
            continue
        if kind == "train":
            rng = np.random.default_rng([seed, fi, ci, k, 1])
            if rng.uniform() < fd.PHONE_P:
                x = fd.phone(x, rng)
            x = x / (np.abs(x).max() + 1e-9) * 10 ** (rng.uniform(-30, -1) / 20)
        np.save(out / f"{name}.npy", np.asarray(x, np.float32))
        fd.save_trace(path, x, truth, fold, cname, reverb=reverb)
        n += 1
    return kind, fi, n

if __name__ == "__main__":
    from multiprocessing import Pool
    jobs = [(k, s, fi) for k, s in (("ev2026", 2026), ("ev2027", 2027), ("train", 31)) for fi in range(15)]
    with Pool(2) as pool:
        for r in pool.imap_unordered(job, jobs):
            print(r, flush=True)
