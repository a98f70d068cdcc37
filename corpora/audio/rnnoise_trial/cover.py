import pickle, sys, glob
import numpy as np
sys.path.insert(0, "/work/main")
from pyramid_referee.voice.sequence import Heard
from pyramid_referee.voice.sound_class import load_model
from pyramid_referee.voice.strike import class_proba, Look
m = load_model()
def cover(times, end, pre=1.5, post=0.32):
    iv = sorted((max(0, t - pre), min(end, t + post)) for t in times)
    tot, cs, ce = 0.0, None, None
    for a, b in iv:
        if cs is None or a > ce:
            if cs is not None: tot += ce - cs
            cs, ce = a, b
        else: ce = max(ce, b)
    if cs is not None: tot += ce - cs
    return tot
res = {}
for p in sorted(glob.glob("/work/tr/data/ev2026/*.pickle")):
    d = pickle.loads(open(p, "rb").read())
    hs = [Heard(t, f, pk) for t, f, pk in d["heard"]]
    end = d["end"]
    allt = [h.time for h in hs]
    sal = [h.time for h in hs if h.salient]
    nv = [h.time for h in hs if Look.of(class_proba(m, h.features), m.classes).p_voice < 0.5 and h.peak_db >= -75]
    nvs = [h.time for h in hs if h.salient and Look.of(class_proba(m, h.features), m.classes).p_voice < 0.5]
    c = d["condition"]
    r = res.setdefault(c, np.zeros(6))
    r += [end, cover(allt, end), cover(sal, end), cover(nv, end), cover(nvs, end), len(allt)]
tot = sum(res.values())
for c, r in list(res.items()) + [("all", tot)]:
    print(f"{c:28s} dur {r[0]:7.0f}s  all {r[1]/r[0]:.2f} salient {r[2]/r[0]:.2f} nonvoice {r[3]/r[0]:.2f} nv+sal {r[4]/r[0]:.2f}  cands/s {r[5]/r[0]:.1f}")
