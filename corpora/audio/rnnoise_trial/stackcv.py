import pickle, os, numpy as np
SUF = os.environ.get("SUF", "")
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score, log_loss
Z = np.load(f"/work/tr/stackZ{SUF}.npy"); y = np.load(f"/work/tr/stacky{SUF}.npy"); sources, keep = pickle.load(open(f"/work/tr/stackmeta{SUF}.pickle", "rb"))
Z, y = Z[keep], y[keep]; src = [s for s, k in zip(sources, keep) if k]
groups = sorted(set(src), key=lambda s: sorted(s))
pb = np.zeros(len(y)); ps = np.zeros(len(y))
for g in groups:
    te = np.array([s == g for s in src]); tr = np.array([not (s & g) for s in src])
    a = HistGradientBoostingClassifier(max_depth=3, max_iter=150, learning_rate=0.08, min_samples_leaf=40, random_state=0).fit(Z[tr, :1], y[tr])
    b = HistGradientBoostingClassifier(max_depth=3, max_iter=150, learning_rate=0.08, min_samples_leaf=40, random_state=0).fit(Z[tr], y[tr])
    pb[te] = a.predict_proba(Z[te, :1])[:, 1]; ps[te] = b.predict_proba(Z[te])[:, 1]
p0 = 1 / (1 + np.exp(-Z[:, 0]))
for name, p in (("raw oof", p0), ("recal logit", pb), ("stack", ps)):
    pred = p >= 0.6
    print(f"{name:12s} AUC {roc_auc_score(y, p):.4f} ll {log_loss(y, np.clip(p,1e-6,1-1e-6)):.4f} TP {int((pred&(y==1)).sum())} FP {int((pred&(y==0)).sum())} FN {int((~pred&(y==1)).sum())}")
tp0 = int(((p0 >= 0.6) & (y == 1)).sum())
for th in (0.3, 0.35, 0.4, 0.45, 0.5, 0.55):
    pred = ps >= th
    print(f"stack th {th}: TP {int((pred&(y==1)).sum())} FP {int((pred&(y==0)).sum())} (raw TP {tp0})")
