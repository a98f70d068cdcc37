"""Scratch: the second decision as a stacker on [the plain decision's out-of-fold logit, RNNoise's
nine measures], fitted on the rnn rows whose out-of-fold p >= GATE; per evaluation fold F without
F's sources. Rows' oof logit: the plain model fitted without the row's own fold's sources."""
import os, sys, pickle
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/tr"); sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd, strike_eval as ev, evalc
from pyramid_referee.voice.sequence import SEQ_FEATURES
GATE = float(os.environ.get("GATE", "0.02"))
TABLE = Path(os.environ.get("TABLE", str(fd.DECISIONS_RNN_CSV))); SUF = os.environ.get("SUF", "")
names, y, sources, X = fd.read_table(TABLE)
bank, speech = ev.load_inputs()
folds = ev.folds(bank, speech)
byset = {frozenset(ev.held_out(f)): f["name"] for f in folds}
nS = len(SEQ_FEATURES)
oof = np.zeros(len(y))
for src, fname in byset.items():
    idx = np.array([s == src for s in sources])
    m = evalc.plain_model(fname, src, 0)
    lg = m.logits(X[idx, :nS]); oof[idx] = lg[:, -1] - lg[:, 0]
print("rows", len(y), "unmatched", sum(1 for s in sources if s not in byset))
Z = np.column_stack([oof, X[:, nS:]])
keep = 1 / (1 + np.exp(-oof)) >= GATE
print("gated rows", keep.sum(), "strikes", y[keep].sum())
np.save(f"/work/tr/stackZ{SUF}.npy", Z); np.save(f"/work/tr/stacky{SUF}.npy", y); pickle.dump((sources, keep), open(f"/work/tr/stackmeta{SUF}.pickle", "wb"))
from sklearn.metrics import roc_auc_score
for j, n in enumerate(["oof_logit"] + list(names[nS:])):
    ok = keep & np.isfinite(Z[:, j]); a = roc_auc_score(y[ok], Z[ok, j]); print(f"{n:20s} AUC {max(a, 1-a):.3f}")
