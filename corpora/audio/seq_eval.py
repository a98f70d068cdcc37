#!/usr/bin/env python3
"""The strike decision scored offline: the benchmark's sessions kept as traces, the decision
replayed on them with a model fitted leave-one-source-out.

    python corpora/audio/seq_eval.py collect DIR [--sessions N] [--strokes N] [--seed S]
    python corpora/audio/seq_eval.py score DIR [--table decisions.csv.gz] [--strike-p P]
                                               [--random-state N] [--relative θ [--gates]]

``collect`` mixes the sessions ``bench/bench_strike.py`` plays (the same folds, conditions and
seeds: ``strike_eval.fold_sessions``), runs the product's detector over each and keeps what the
decision's features are computed from (every candidate knock's shape, the voice activity's
speech layer: ``fit_decision.trace_session``) with the session's truth. ``score`` replays the
decision on those traces as ``voice/strike.py`` takes it from the sound alone (a candidate in
the ``min_gap_s`` after a strike is the stroke's own, and one in the ``rolling_s`` after it with
no talk since (``--rolling-s 0``: not); one too faint is dropped; otherwise the decision model's
probability against ``strike_p``, with the seconds since the last strike *decided* (a call said
since does not end the stroke here), and the timbre of the strikes decided so far), with the
decision model of each fold fitted without the fold's sources (``--groups N``: without N groups
of folds at once, a harsher split), and judges
the strikes with the benchmark's metric (``strike_eval.decide``). It is the tuning loop of the
decision: a model or feature change is scored in a minute instead of the benchmark's ten; the
figures reported are the benchmark's own, which runs the detector on the audio.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))


def collect(out: Path, sessions: int, strokes: int, seed: int, sources=None) -> int:
    import fit_decision as fd
    import strike_eval as ev

    bank, speech = ev.load_inputs()
    folds = ev.folds(bank, speech)
    names = [f["name"] for f in folds]
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for fold in folds:
        if sources and fold["name"] not in sources:
            continue
        fi = names.index(fold["name"])
        for cname, k, reverb, x, truth in ev.fold_sessions(
            bank, speech, fold, fi, list(ev.CONDITIONS), sessions, strokes, seed
        ):
            path = out / f"{fi:02d}_{list(ev.CONDITIONS).index(cname)}_{k}.pickle"
            if path.exists():
                continue
            fd.save_trace(path, x, truth, fold, cname, reverb=reverb)
            # the audio beside it: RNNoise's measures of the candidates a replay weighs with
            # them are computed from it when first needed (``measures_from``)
            np.save(path.with_suffix(".npy"), np.asarray(x, np.float32))
            n += 1
            print(f"\r{n} sessions", end="", file=sys.stderr)
    print(file=sys.stderr)
    return n


def stands_out(p: float, theta: float, before, after) -> bool:
    """The relative rule (tried, not kept: docs/dev/benchmarks.md): a candidate under the
    threshold is a strike when its probability ``p`` is at least ``theta`` and over every
    probability ``before`` it (the 3 s before) and ``after`` it (the horizon after)."""
    return p >= theta and all(q < p for q in before) and all(q < p for q in after)


def replay(
    d: dict,
    model,
    strike_p=0.6,
    min_gap_s=0.3,
    min_level_db=-75.0,
    rolling_s=3.0,
    relative: float | None = None,
    gates: bool = False,
    denoise_from_p: float | None = None,
    measures=None,
    carry: dict | None = None,
    take_back_s: float | None = None,
):
    """The strikes the detector decides on a trace: (times, probabilities of every candidate),
    as ``voice/strike.py`` decides them from the sound alone (no recognizer): a candidate in the
    ``min_gap_s`` after a strike is the stroke's own, one too faint is dropped, otherwise the
    decision model's probability against ``strike_p``, with the seconds since the last strike
    *decided* and the timbre of the strikes decided so far. ``relative``: also :func:`stands_out`
    with that θ, the candidates after it read with the audio up to its own decision time;
    ``gates``: only with no talk in the 0.3 s after it and a call said since the last strike.
    With ``measures`` (time → RNNoise's measures, :func:`measures_from`) and a model that
    carries the decision with them (``companion``), a candidate the decision gives at least
    ``denoise_from_p`` (by default the detector's, ``StrikeParams.denoise_from_p``) is decided by
    that one, as ``StrikeDetector`` decides it. ``carry``: a dict whose ``"memory"`` (a
    ``TableMemory``, if any) the session starts with, as ``StrikeDetector.remember`` does, and
    which gets the session's own memory at its end (``StrikeDetector.table_memory``).
    ``take_back_s``: the marker takes back every false strike that voided a call (Q14), and the
    detector forgets it (``StrikeDetector.forget``), that long after the stroke's true strike
    (when the outcome is entered)."""
    import fit_decision as fd
    import strike_eval as ev

    from pyramid_referee.voice.onsets import BAND_FEATURES
    from pyramid_referee.voice.sequence import HORIZON_S, Session, context_features
    from pyramid_referee.voice.strike import StrikeParams

    heard, times, vad = fd.restore(d)
    second = getattr(model, "companion", None) if measures is not None else None
    if denoise_from_p is None:
        denoise_from_p = StrikeParams().denoise_from_p
    last = -np.inf
    out, probs, strikes = [], [], []
    known_clacks: list = []
    if carry is not None and carry.get("memory"):
        strikes, known_clacks = carry["memory"].sounds()
    zero = (0.0,) * len(BAND_FEATURES)

    def weighed(h) -> bool:
        if d["long"].get(h.time) is None or h.time - last < min_gap_s:
            return False
        if h.peak_db < min_level_db:
            return False
        # nothing said since the strike: the balls still roll
        return not (
            h.time - last < rolling_s and vad.foreground_between(last + 0.05, h.time - 0.05) == 0
        )

    def prob(h, cut: float | None = None) -> float:
        end = d["end"] if h.time + HORIZON_S + 0.035 > d["end"] else None
        if cut is not None:
            end = cut if end is None else min(end, cut)
        session = Session.at(h.time, heard, times, vad, strikes[-8:], known_clacks)
        f = context_features(
            h,
            d["long"][h.time],
            d["band"].get(h.time, zero),
            session,
            h.time - last,
            HORIZON_S,
            end,
        )
        p = model.p_last(f)
        if second is not None and p >= denoise_from_p:
            p = second.p_last(tuple(f) + tuple(measures(h.time)))
        return p

    true = sorted(st["strike"] for st in d["truth"].get("strokes", []))
    to_forget: list = []  # (time the marker takes it back, the strike)
    for k, h in enumerate(heard):
        for at, g in list(to_forget):
            if h.time >= at:
                to_forget.remove((at, g))
                strikes = [x for x in strikes if x is not g]
        if not weighed(h):
            continue
        p = prob(h)
        strike = p >= strike_p
        if not strike and relative is not None and p >= relative:
            before = [q for t, q in probs if h.time - 3.0 <= t < h.time]
            cut = h.time + HORIZON_S + 0.04
            after = [
                prob(g, cut) for g in heard[k + 1 :] if g.time <= h.time + HORIZON_S and weighed(g)
            ]
            strike = stands_out(p, relative, before, after) and (
                not gates
                or (
                    vad.foreground_between(h.time + 0.02, h.time + 0.3) <= 0.05
                    and vad.foreground_between(max(last, h.time - 10.0), h.time - 0.05) >= 0.3
                )
            )
        probs.append((h.time, p))
        if strike:
            last = h.time
            strikes.append(h)
            if (
                take_back_s is not None
                and not any(abs(h.time - T) <= ev.TOL_S for T in true)
                and ev.where(h.time, d["truth"]) in ("in_call", "call_to_strike")
            ):
                nxt = [T for T in true if T > h.time]
                to_forget.append(((nxt[0] if nxt else h.time) + take_back_s, h))
            out.append(round(h.time, 4))
    if carry is not None:
        from pyramid_referee.voice.strike import MEMORY_STRIKES, TableMemory

        s = Session.at(np.inf, heard, times, vad, strikes[-MEMORY_STRIKES:], known_clacks)
        carry["memory"] = TableMemory.of(s)
    return out, probs


def load_traces(d: Path) -> list[dict]:
    out = []
    for p in sorted(d.glob("*.pickle")):
        if p.name.endswith(".rnn.pickle"):
            continue
        trace = pickle.loads(p.read_bytes())
        trace["path"] = p
        out.append(trace)
    return out


class measures_from:
    """RNNoise's measures of a trace's candidates (``voice/denoise.py``, as the detector computes
    them), from the session's audio kept beside the trace, computed when first asked and kept in
    ``NAME.rnn.pickle`` (a replay weighs a few candidates in a hundred with them)."""

    def __init__(self, trace_path: Path) -> None:
        self.audio = trace_path.with_suffix(".npy")
        self.cache_path = trace_path.with_name(trace_path.stem + ".rnn.pickle")
        self.cache = pickle.loads(self.cache_path.read_bytes()) if self.cache_path.exists() else {}
        self._x = None
        self.new = 0

    def __call__(self, t: float) -> tuple[float, ...]:
        if t not in self.cache:
            from pyramid_referee.voice import denoise

            if self._x is None:
                if not self.audio.exists():
                    raise SystemExit(f"{self.audio} is missing: collect the sessions again")
                self._x = np.load(self.audio).astype(np.float64)
            self.cache[t] = denoise.measures_at(denoise.load(), self._x, t, 16000)
            self.new += 1
        return self.cache[t]

    def save(self) -> None:
        if self.new:
            self.cache_path.write_bytes(pickle.dumps(self.cache))


_fit_cache: dict = {}
_tables: dict = {}


def fold_model(excluded: frozenset, table: Path, cache: Path | None = None, random_state: int = 0):
    import fit_decision as fd

    h = hashlib.sha256(table.read_bytes())
    h.update(Path(fd.__file__).read_bytes())
    h.update((ROOT / "voice" / "sequence.py").read_bytes())
    h.update(repr(sorted(excluded)).encode())
    if random_state:
        h.update(f"random_state={random_state}".encode())
    key = h.hexdigest()[:24]
    if key in _fit_cache:
        return _fit_cache[key]
    path = (cache or Path("/tmp/seq_eval_cache")) / f"{key}.pickle"
    if path.exists():
        m = pickle.loads(path.read_bytes())
    else:
        if str(table) not in _tables:
            _tables[str(table)] = fd.read_table(table)
        m = fd.fit_sequence(excluded, table, _tables[str(table)], random_state)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(m))
    _fit_cache[key] = m
    return m


def groups(traces: list[dict], n: int) -> dict[str, frozenset]:
    """Fold name -> what its model leaves out: with ``n`` groups, the folds in turn are put into
    ``n`` groups and a group's model leaves out every source of every fold in it (stricter than
    one source out, and ``n`` fits instead of one per source)."""
    names = sorted({d["fold"] for d in traces})
    ex = {d["fold"]: set(d["sources"]) for d in traces}
    if n <= 0:
        return {f: frozenset(ex[f]) for f in names}
    out = {}
    for g in range(n):
        members = names[g::n]
        union = frozenset(set().union(*(ex[f] for f in members)))
        out.update({f: union for f in members})
    return out


def score(
    traces: list[dict],
    table: Path,
    strike_p: float = 0.6,
    wrong: bool = False,
    n_groups=0,
    rolling_s=3.0,
    random_state=0,
    relative=None,
    gates=False,
    denoise=True,
    carry=False,
    later_only=False,
    take_back_s=None,
):
    """Calls decided right by condition. ``carry``: each session after the first of a held-out
    source and condition (the same table, room and noise, later) starts with the memory of the
    one before it, as the pad's stream does after a gap; ``later_only``: only those sessions are
    scored (the figure to set against ``carry``'s)."""
    import strike_eval as ev

    by: dict = {}
    held = groups(traces, n_groups)
    memories: dict = {}
    for d in sorted(traces, key=lambda d: d.get("path", Path()).name):
        table_key = (d["fold"], d["condition"])
        first = table_key not in memories
        mem = memories.setdefault(table_key, {})
        m = fold_model(held[d["fold"]], table, random_state=random_state)
        measures = measures_from(d["path"]) if denoise and "path" in d else None
        rep, probs = replay(
            d,
            m,
            strike_p,
            rolling_s=rolling_s,
            relative=relative,
            gates=gates,
            measures=measures,
            carry=mem if carry else None,
            take_back_s=take_back_s,
        )
        if measures is not None:
            measures.save()
        if later_only and first:
            continue
        o = ev.decide(
            rep,
            d["truth"],
            candidates=[t for t, _, _ in d["heard"]],
            tag=f"{d['fold']}/{d['condition']}",
        )
        for key in (d["condition"], "all"):
            by.setdefault(key, ev.Outcome()).add(o)
        if wrong:
            for tag, i, T, why in o.wrong:
                near = [(round(t, 3), round(p, 2)) for t, p in probs if abs(t - T) < 0.04]
                print(f"  {tag} stroke {i} at {T}: {why}; p near strike {near}")
    return by


def print_table(by: dict) -> None:
    import strike_eval as ev

    print("| condition | strokes | right | recall | in call | call→strike | cascade | no call |")
    for name in list(ev.CONDITIONS) + ["all"]:
        o = by.get(name)
        if o is None:
            continue
        print(
            f"| {name} | {o.strokes} | {o.decided_right}/{o.strokes} "
            f"({100 * o.decided_right / o.strokes:.1f} %) | {o.rate('found'):.3f} | "
            f"{o.per100('in_call'):.1f} | {o.per100('call_to_strike'):.1f} | "
            f"{o.per100('cascade'):.1f} | {o.per100('no_call'):.1f} |"
        )
    if "all" in by:
        print(f"\nfalse strikes inside calls, by voice: {by['all'].in_call_text() or '-'}")
        print(f"… by the call's place: {by['all'].in_call_place_text()}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("dir", type=Path)
    c.add_argument("--sessions", type=int, default=1)
    c.add_argument("--strokes", type=int, default=3)
    c.add_argument("--seed", type=int, default=2026)
    c.add_argument("--sources", nargs="*", default=None)
    s = sub.add_parser("score")
    s.add_argument("dir", type=Path)
    s.add_argument("--table", type=Path, default=HERE / "decisions.csv.gz")
    s.add_argument("--strike-p", type=float, default=0.6)
    s.add_argument("--wrong", action="store_true")
    s.add_argument("--groups", type=int, default=0, help="0: one fold per source")
    s.add_argument("--rolling-s", type=float, default=3.0)
    s.add_argument(
        "--random-state",
        type=int,
        default=0,
        help="the decision fit's random state (0: the shipped fit's); refits differing in it "
        "alone show the loop's noise floor: a change that moves fewer calls than they do is "
        "not measured",
    )
    s.add_argument(
        "--relative",
        type=float,
        default=None,
        metavar="THETA",
        help="also a strike under the threshold that stands over its neighbours (not kept)",
    )
    s.add_argument("--gates", action="store_true", help="--relative only with no talk after it")
    s.add_argument(
        "--carry",
        action="store_true",
        help="a source's later sessions in a condition start with the memory of the one before "
        "(the pad's stream after a gap: StrikeDetector.remember)",
    )
    s.add_argument(
        "--take-back",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the marker takes back every false strike that voided a call (Q14) this long after "
        "the stroke's strike, and the detector forgets it (StrikeDetector.forget)",
    )
    s.add_argument(
        "--later-only",
        action="store_true",
        help="score only the sessions after a source's first in a condition (against --carry)",
    )
    s.add_argument(
        "--no-denoise",
        action="store_true",
        help="the decision without RNNoise's measures only (as where the library is missing)",
    )
    args = ap.parse_args(argv)
    import strike_eval as ev

    ev.require_this_tree()
    if args.cmd == "collect":
        print(collect(args.dir, args.sessions, args.strokes, args.seed, args.sources), "traces")
        return 0
    by = score(
        load_traces(args.dir),
        args.table,
        args.strike_p,
        args.wrong,
        args.groups,
        args.rolling_s,
        args.random_state,
        args.relative,
        args.gates,
        not args.no_denoise,
        args.carry,
        args.later_only,
        args.take_back,
    )
    print_table(by)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
