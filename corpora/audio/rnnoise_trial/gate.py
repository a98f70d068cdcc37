import pickle, sys, glob
import numpy as np
sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd
from pyramid_referee.voice.sound_class import load_seq_model
from cover import cover
m = load_seq_model()
taus = (0.01, 0.02, 0.05, 0.1, 0.2)
dur = 0; cnt = np.zeros(len(taus)); cov = np.zeros(len(taus)); miss = np.zeros(len(taus)); nstr = 0
for p in sorted(glob.glob("/work/tr/data/ev2026/*.pickle"))[:120]:
    d = pickle.loads(open(p, "rb").read())
    dur += d["end"]
    rows = []
    heard, times, vad = fd.restore(d)
    for (lab, f) in fd.decision_rows(d):
        lg = m.logits(f); rows.append((lab, 1/(1+np.exp(-(lg[-1]-lg[0])))))
    # times: recompute order via decision_rows yields in heard order w/ skips; get times separately
    ts = []
    from bisect import bisect_left
    labs = np.array([r[0] for r in rows]); ps = np.array([r[1] for r in rows])
    nstr += labs.sum()
    # approximate times: rerun to collect times
    tt = []
    true, decided = fd.decided_strikes(heard, d["strikes"])
    dtimes = [heard[j].time for j in decided]
    for j, h in enumerate(heard):
        if d["long"].get(h.time) is None: continue
        k = bisect_left(dtimes, h.time - 0.05); since = h.time - dtimes[k-1] if k else 1e9
        if since < fd.MIN_GAP_S: continue
        if j not in true and np.any(np.abs(np.array([heard[i].time for i in true]) - h.time) < 0.04): continue
        tt.append(h.time)
    tt = np.array(tt); assert len(tt) == len(ps)
    for i, tau in enumerate(taus):
        g = ps >= tau
        cnt[i] += g.sum(); cov[i] += cover(list(tt[g]), d["end"]); miss[i] += (labs[~g]).sum()
print(f"audio {dur:.0f}s strikes {nstr}")
for i, tau in enumerate(taus):
    print(f"tau {tau}: gated/s {cnt[i]/dur:.2f}  fresh-window cost {cnt[i]*1.82/dur:.2f}  union cover {cov[i]/dur:.2f}  strikes below gate {miss[i]:.0f}")
