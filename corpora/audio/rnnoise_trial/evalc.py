"""Scratch: the cascade (plain decision, then the decision with RNNoise's measures for candidates
the plain one gives ≥ GATE) replayed leave-one-source-out on the evaluation traces, RNNoise's
measures computed on demand from the audio (voice/denoise.measures_at) and cached."""
import os, sys, pickle, json
os.environ.setdefault("OMP_NUM_THREADS", "1")
from pathlib import Path
import numpy as np
sys.path.insert(0, "/work/main/corpora/audio"); sys.path.insert(0, "/work/main")
import fit_decision as fd
MODELS = Path("/work/tr/models"); MODELS.mkdir(exist_ok=True, parents=True)
RNN_TABLE = Path("/work/main/corpora/audio/decisions_rnn.csv.gz")
_tab = {}

def table(path):
    if str(path) not in _tab:
        _tab[str(path)] = fd.read_table(path)
    return _tab[str(path)]

def plain_model(fold, excluded, rs=0):
    p = MODELS / f"plain_{fold}_{rs}.pickle"
    if p.exists():
        return pickle.loads(p.read_bytes())
    from pyramid_referee.voice.sequence import SEQ_FEATURES
    names, y, src, X = table(fd.DECISIONS_CSV)
    m = fd._fit(SEQ_FEATURES, X, y, src, excluded, rs)
    p.write_bytes(pickle.dumps(m)); return m

STACK = os.environ.get("STACK")
SUF = os.environ.get("SUF", "")
FULL = int(os.environ.get("FULL", "0"))

class Stacker:
    def __init__(self, clf): self.clf = clf
    def p(self, logit, rnn):
        return float(self.clf.predict_proba(np.array([[logit, *rnn]]))[0, 1])

def stack_model(fold, excluded, rs=0):
    p = MODELS / f"stack{STACK}{SUF}_{fold}_{rs}.pickle"
    if p.exists():
        return pickle.loads(p.read_bytes())
    from sklearn.ensemble import HistGradientBoostingClassifier
    Z = np.load(f"/work/tr/stackZ{SUF}.npy"); y = np.load(f"/work/tr/stacky{SUF}.npy"); sources, keep = pickle.load(open(f"/work/tr/stackmeta{SUF}.pickle", "rb"))
    tr = keep & np.array([not (s & excluded) for s in sources])
    clf = HistGradientBoostingClassifier(max_depth=3, max_iter=150, learning_rate=0.08, min_samples_leaf=40, random_state=rs).fit(Z[tr], y[tr])
    m = Stacker(clf); p.write_bytes(pickle.dumps(m)); return m

def rnn_model(fold, excluded, rs=0):
    if STACK:
        return stack_model(fold, excluded, rs)
    p = MODELS / f"rnn_{fold}_{rs}.pickle"
    if p.exists():
        return pickle.loads(p.read_bytes())
    m = fd.fit_rnn(excluded, RNN_TABLE, table(RNN_TABLE), rs)
    p.write_bytes(pickle.dumps(m)); return m

WITH = int(os.environ.get("WITH", "0"))

MINE = os.environ.get("MINE")

def with_model(fold, excluded, rs=0):
    if MINE:
        return pickle.loads((MODELS / f"mine_{MINE}_{fold}_{rs}.pickle").read_bytes())
    p = MODELS / f"with{WITH}_{fold}_{rs}.pickle"
    if p.exists():
        return pickle.loads(p.read_bytes())
    from pyramid_referee.voice.sequence import SEQ_FEATURES
    from dn_branch import RNN_FEATURES
    names, y, src, X = table(fd.DECISIONS_CSV)
    R = np.nan_to_num(np.load(f"/work/tr/full_rows{WITH}.npy").astype(np.float64), nan=-99.0)
    m = fd._fit(SEQ_FEATURES + RNN_FEATURES, np.hstack([X, R]), y, src, excluded, rs)
    p.write_bytes(pickle.dumps(m)); return m

def prob(model, f):
    lg = model.logits(f); return float(1 / (1 + np.exp(-(lg[-1] - lg[0]))))

def replay(d, name, kind, plain, rnn, gate, second=None, strike_p=0.6, min_gap_s=0.3, min_level_db=-75.0, rolling_s=3.0):
    from pyramid_referee.voice.onsets import BAND_FEATURES
    from pyramid_referee.voice.sequence import HORIZON_S, Session, context_features
    import dn_branch as dn
    cache_p = Path(f"/work/tr/rnncache{FULL or ''}") / kind / name
    cache = pickle.loads(cache_p.read_bytes()) if cache_p.exists() else {}
    n0 = len(cache)
    x = None
    heard, times, vad = fd.restore(d)
    last = -np.inf; out = []; strikes = []; zero = (0.0,) * len(BAND_FEATURES); ngated = 0
    for h in heard:
        if d["long"].get(h.time) is None or h.time - last < min_gap_s or h.peak_db < min_level_db:
            continue
        if h.time - last < rolling_s and vad.foreground_between(last + 0.05, h.time - 0.05) == 0:
            continue
        end = d["end"] if h.time + HORIZON_S + 0.035 > d["end"] else None
        session = Session.at(h.time, heard, times, vad, strikes[-8:])
        f = context_features(h, d["long"][h.time], d["band"].get(h.time, zero), session, h.time - last, HORIZON_S, end)
        if MINE == "plain" and os.environ.get("CASC"):
            p = prob(plain, f)
            if p >= float(os.environ["CASC"]):
                ngated += 1
                if os.environ.get("WINP"):
                    import dn_branch as dn
                    if x is None:
                        x = np.load(Path("/work/tr/data") / kind / name.replace(".pickle", ".npy")).astype(np.float32).astype(np.float64)
                    r = dn.measures_at(dn.load(), x, h.time, 16000)
                elif os.environ.get("WIN"):
                    import dn_branch as dn
                    if x is None:
                        x = np.load(Path("/work/tr/data") / kind / name.replace(".pickle", ".npy")).astype(np.float32).astype(np.float64)
                    warm = int(os.environ["WIN"])
                    k = int(np.floor(h.time * 100 + 1e-9)); a = (k - 100 - warm) * 160; b = (k + 35) * 160
                    w = dn.window_frames(dn.load(), dn.slice_padded(x, a, b), 16000)
                    dn.BASE_FRAMES = 100
                    r = dn.measures(w, 100 + warm)
                    dn.BASE_FRAMES = 50
                else:
                    from mkfull import full_measures
                    if x is None:
                        x = np.load(Path("/work/tr/full") / kind / name.replace(".pickle", ".npz"))
                    r = np.nan_to_num(np.array(full_measures(x, h.time, int(os.environ.get("FB", "100")))), nan=-99.0)
                p = prob(second, tuple(f) + tuple(r))
        elif MINE == "plain":
            p = prob(plain, f)
        elif WITH:
            from mkfull import full_measures
            if x is None:
                x = np.load(Path("/work/tr/full") / kind / name.replace(".pickle", ".npz"))
            p = prob(plain, tuple(f) + tuple(np.nan_to_num(np.array(full_measures(x, h.time, WITH)), nan=-99.0)))
        else:
            p = prob(plain, f)
        if rnn is not None and p >= gate and not WITH:
            ngated += 1
            if h.time not in cache and FULL:
                from mkfull import full_measures
                if x is None:
                    x = np.load(Path("/work/tr/full") / kind / name.replace(".pickle", ".npz"))
                cache[h.time] = full_measures(x, h.time, FULL)
            if h.time not in cache:
                if x is None:
                    x = np.load(Path("/work/tr/data") / kind / name.replace(".pickle", ".npy")).astype(np.float32).astype(np.float64)
                cache[h.time] = dn.measures_at(dn.load(), x, h.time, 16000)
            if isinstance(rnn, Stacker):
                lg = plain.logits(f); p = rnn.p(float(lg[-1] - lg[0]), cache[h.time])
                th = float(os.environ.get("STACK_P", "0.6"))
                p = 0.6 * p / th if p < th else 0.6 + 0.4 * (p - th) / (1 - th)
            else:
                p = prob(rnn, tuple(f) + tuple(cache[h.time]))
        if p >= strike_p:
            last = h.time; strikes.append(h); out.append(round(h.time, 4))
    if len(cache) > n0:
        cache_p.parent.mkdir(parents=True, exist_ok=True); cache_p.write_bytes(pickle.dumps(cache))
    return out, ngated

def fold_job(args):
    fold, kind, gate, rs = args
    import strike_eval as ev
    paths = sorted((Path("/work/tr/data") / kind).glob("*.pickle"))
    res = {}
    plain = rnn = None
    ng = 0
    for p in paths:
        d = pickle.loads(p.read_bytes())
        if d["fold"] != fold:
            continue
        ex = frozenset(d["sources"])
        if plain is None:
            second = pickle.loads((MODELS / f"mine_with{os.environ.get('WSUF', '')}_{fold}_{rs}.pickle").read_bytes()) if os.environ.get("CASC") else None
            plain = with_model(fold, ex, rs) if (WITH or MINE) else plain_model(fold, ex, rs)
            rnn = rnn_model(fold, ex, rs) if gate is not None else None
        rep, n = replay(d, p.name, kind, plain, rnn, gate if gate is not None else 2.0, second)
        ng += n
        o = ev.decide(rep, d["truth"], candidates=[t for t, _, _ in d["heard"]], tag=f"{fold}/{d['condition']}")
        res[p.name] = (d["condition"], o)
    return fold, res, ng

if __name__ == "__main__":
    from multiprocessing import Pool
    import strike_eval as ev
    kind = sys.argv[1]; gate = None if sys.argv[2] == "none" else float(sys.argv[2]); rs = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    folds = sorted({pickle.loads(p.read_bytes())["fold"] for p in (Path("/work/tr/data") / kind).glob("*_0_0.pickle")})
    by = {}; per = {}; ng = 0
    with Pool(int(os.environ.get("PROCS", "2"))) as pool:
        for fold, res, n in pool.imap_unordered(fold_job, [(f, kind, gate, rs) for f in folds]):
            ng += n
            for name, (c, o) in res.items():
                for key in (c, "all"):
                    by.setdefault(key, ev.Outcome()).add(o)
                per.setdefault(fold, ev.Outcome()).add(o)
            print(fold, "done", flush=True)
    print(f"{kind} gate={gate} rs={rs} gated={ng}")
    import seq_eval
    seq_eval.print_table(by)
    for f, o in sorted(per.items()):
        print(f, o.decided_right, o.strokes)
