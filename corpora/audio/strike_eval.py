"""Scoring the strike detector against a mixed session's truth (used by bench/bench_strike.py and the tests).

    python corpora/audio/strike_eval.py --out DIR [--quick] [--sources SRC …] [--conditions …]
                                        [--sessions N] [--strokes N] [--cli PROGRAM] [--keep]

**The headline: calls decided right** (``decide``): a stroke is decided right when a reported
strike lies within 40 ms of its true onset and no false strike falls between the start of its
call and that onset. False strikes are counted by where they fall (``where``). ``stream`` runs the
detector causally in 10 ms blocks and observes its candidate stage and when each decision became
final; ``judge`` scores a session that way (``bench/bench_strike.py`` uses it).

Run as a script, this is **the command-line path, as a held-out checker runs it**: it writes each
session as a WAV and its truth as JSON into ``DIR``, runs ``pyramid-referee strikes FILE --json``
on the WAV, and scores from that JSON alone (its ``strikes`` list: a strike listed there counts,
whatever else the JSON says; strikes the JSON also lists as taken back are counted and reported as
such). The sessions are those of the benchmark (``CONDITIONS``, ``folds``); the command line uses
the shipped sound model, which was fitted on every source of the development set, so these
figures check the path, not generalisation.

A true strike is **found** when a reported strike lies within ``TOL_S`` (40 ms) of its onset; every
other report is a **false strike**, put down to what made it: the nearest placed sound within
50 ms (a ball clack, a cushion, a pocket drop, a late sound of rolling balls, a rack, a clap, a
chalked cue), else speech when it falls inside a call or other talk, else "other". Leave-one-
source-out: ``model_without((source,))`` fits the sound model on every row of ``features.csv.gz``
whose recording came from another source.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the checkout
sys.path.insert(0, str(HERE))

TOL_S = 0.040


def require_this_tree() -> None:
    """Stop unless ``pyramid_referee`` (the detector these scripts measure and fit for) is this
    checkout's. An editable install of another checkout (a second worktree sharing the first's
    ``.venv``) maps the package there, whatever ``sys.path`` says: the figures would then be of
    that checkout's detector and settings, with this one's tables and scripts."""
    import pyramid_referee.voice

    used = Path(pyramid_referee.voice.__file__).resolve().parents[1]
    if used != ROOT:
        raise SystemExit(
            f"{Path(sys.argv[0]).name}: this checkout is {ROOT}, but the pyramid_referee this "
            f"Python imports is {used}'s (its editable install): run it with {ROOT}'s own "
            f"environment (python -m venv .venv && .venv/bin/pip install -e '.[test]')"
        )


def code_state() -> dict:
    """What a figure was measured on: the checkout's commit (None outside a git checkout), the
    tracked files changed since it, and the decision's threshold (``StrikeParams.strike_p``)."""
    import subprocess

    from pyramid_referee.voice.strike import StrikeParams

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=30
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout if done.returncode == 0 else None

    commit = git("rev-parse", "--short=12", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no") if commit else None
    changed = sorted(line[3:] for line in (status or "").splitlines() if line.strip())
    return {
        "commit": commit.strip() if commit else None,
        "changed": changed,
        "strike_p": StrikeParams().strike_p,
    }


def describe_code(state: dict) -> str:
    """:func:`code_state` as the benchmark's header says it."""
    if state["commit"] is None:
        where = "no git checkout"
    elif state["changed"]:
        where = f"commit {state['commit']} with changes to {', '.join(state['changed'])}"
    else:
        where = f"commit {state['commit']}"
    return f"{where}; strike from p {state['strike_p']:g}"


# ----------------------------------------------------------------------------------------------
# The benchmark's sessions: conditions and leave-one-source-out folds

# Extras every session has (the table's usual life); a condition may raise one of them to 1.
BASE = dict(
    rolling_p=0.35,
    rack_p=0.15,
    clap_p=0.1,
    chatter_p=0.3,
    chalk_p=0.2,
    spoken_over_p=0.0,
    call_inside_stroke_p=0.0,
    stray_call_p=0.0,
)

# name -> (SNR dB or None, noise, reverb: "no" | "yes" | "half", extras over BASE)
CONDITIONS = {
    "clean": (None, "cafe", "no", {}),
    "20 dB": (20, "cafe", "half", {}),
    "10 dB": (10, "cafe", "half", {}),
    "5 dB": (5, "cafe", "half", {}),
    "reverb": (None, "cafe", "yes", {}),
    "talk over the stroke": (20, "cafe", "half", {"spoken_over_p": 1.0}),
    "next call while balls roll": (
        20,
        "cafe",
        "half",
        {"call_inside_stroke_p": 1.0, "rolling_p": 0.7},
    ),
    "call with no stroke": (20, "cafe", "half", {"stray_call_p": 1.0}),
    "strike 1 s after the call": (20, "cafe", "half", {"call_gap": (0.95, 1.05)}),
}
QUICK_SOURCES = (
    "vrcbce",
    "antigravitypool",
    "sinuca",
)  # three rooms, voices and noises of the folds


def load_inputs():
    """(the recorded table sounds, the recorded voices or None) the sessions are mixed from, or
    None after saying on stderr what is missing (the bench and this script both start here)."""
    import make_audio  # the mixers: loaded where sessions are made, not by the metric's importers
    import table_mix as tm

    if not make_audio.espeak_available():
        print("espeak-ng is not installed (apt-get install espeak-ng)", file=sys.stderr)
        return None
    try:
        bank = tm.load_bank()
    except (FileNotFoundError, ValueError) as e:
        print(e, file=sys.stderr)
        return None
    try:
        speech = tm.load_speech()
    except FileNotFoundError as e:
        print(f"{e}: calls by espeak-ng and Festival only, pink noise for café", file=sys.stderr)
        speech = None
    return bank, speech


def chosen_folds(sources):
    """The recordings and the folds held out by name: ``(bank, speech, every fold, the names
    chosen)``, ``sources`` ``["all"]`` choosing every one; or None after saying on stderr what is
    missing or which source is unknown (the benchmarks start here)."""
    inputs = load_inputs()
    if inputs is None:
        return None
    bank, speech = inputs
    all_folds = folds(bank, speech)
    names = [f["name"] for f in all_folds]
    wanted = names if list(sources) == ["all"] else list(sources)
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        print(
            f"unknown held-out source(s) {unknown}; sources with a usable strike: {names}",
            file=sys.stderr,
        )
        return None
    return bank, speech, all_folds, wanted


def folds(bank, speech) -> list[dict]:
    """One fold per recording source with a usable strike (``Bank.strike_sources``), each with
    the recorded-voice and recorded-noise source it also holds out, in turn (so every voice and
    every noise source is held out by some fold)."""
    groups = bank.recording_sources()
    sp = speech.sources("speech") if speech else []
    nz = speech.sources("noise") if speech else []
    return [
        {
            "name": name,
            "repos": groups[name],
            "speech": sp[i % len(sp)] if sp else None,
            "noise": nz[i % len(nz)] if nz else None,
        }
        for i, name in enumerate(bank.strike_sources())
    ]


def held_out(fold: dict) -> frozenset[str]:
    """Every source a fold holds out: its table recordings' repositories, its recorded voice and
    its recorded noise."""
    return frozenset(set(fold["repos"]) | {fold["speech"], fold["noise"]} - {None})


def fold_sessions(
    bank,
    speech,
    fold: dict,
    fold_index: int,
    conditions,
    sessions: int,
    strokes: int,
    seed: int,
    timbre_p: float = 0.0,
    stems: bool = False,
):
    """Yield ``(condition, k, reverb, samples, truth)`` for one fold: ``sessions`` sessions of
    ``strokes`` strokes per condition, built only from the fold's held-out sources; reverberation
    on every other session where the condition says "half". The same arguments give the same
    audio (the bench and the command-line path score the same sessions). ``timbre_p``: the
    share of sessions given another table's timbre (fitting's sessions only). ``stems``: yield
    the mixer's stems after the truth (``table_mix.make_session(with_stems=True)``: the same
    audio)."""
    import table_mix as tm

    voices = tm.Voices.mixed(
        speech,
        None if fold["speech"] is None else {fold["speech"]},
        None if fold["noise"] is None else {fold["noise"]},
    )
    for ci, cname in enumerate(CONDITIONS):
        if cname not in conditions:
            continue
        snr, noise, rv, extra = CONDITIONS[cname]
        if speech is None and noise == "cafe":
            noise = "babble"
        gen = dict(BASE)
        gen.update(extra)
        for k in range(sessions):
            reverb = rv == "yes" or (rv == "half" and (k + fold_index + ci) % 2 == 1)
            rng = np.random.default_rng([seed, fold_index, ci, k])
            made = tm.make_session(
                rng,
                bank,
                sources=fold["repos"],
                n_strokes=strokes,
                snr_db=snr,
                noise=noise,
                reverb=reverb,
                voices=voices,
                timbre_p=timbre_p,
                with_stems=stems,
                **gen,
            )
            x, truth = made[:2]
            truth["condition"] = cname
            yield (cname, k, reverb, x, truth) + tuple(made[2:])


@lru_cache(maxsize=64)
def model_without(sources: tuple[str, ...] = (), rnn: bool = True):
    """The two sound models (first and second look) fitted without ``sources`` (none: on
    everything), the strike decision riding on them; ``rnn`` False: that decision without the
    one with RNNoise's measures (the detector then decides as where RNNoise is missing)."""
    import fit_sound_model

    held = frozenset(sources)
    return fit_sound_model.fit(held, with_rnn=rnn)


def cause(t: float, truth: dict) -> str:
    """What a false strike at ``t`` was made of."""
    best, what = 0.050, None
    for key, name in (
        ("stroke_sounds", None),
        ("late_sounds", "late"),
        ("rack", "rack"),
        ("claps", "clap"),
        ("other", "chalk"),
    ):
        for e in truth.get(key, []):
            d = abs(e["t"] - t)
            if d <= best:
                best, what = d, name or e["kind"]
    if what:
        return what
    for c in truth.get("calls", []) + truth.get("chatter", []):
        if c["start"] - 0.02 <= t <= c["end"] + 0.02:
            return "speech"
    return "other"


# ----------------------------------------------------------------------------------------------
# Calls decided right: the metric the referee lives by

WHERE = ("in_call", "call_to_strike", "cascade", "no_call")
WHERE_TEXT = {
    "in_call": "inside a call's words",
    "call_to_strike": "between a call's end and its strike",
    "cascade": "during a stroke's cascade",
    "no_call": "with no call standing",
}
WORD_PAD_S = (
    0.02  # a knock this close to a word's edge is taken as inside it (the onset rule's slack)
)


def where(t: float, truth: dict) -> str:
    """Where a false strike at ``t`` falls, in the order that matters at the table:

    - ``in_call``: inside a call (from its first word's start to its last word's end, 20 ms of
      slack): the call would be cut short and lose what follows;
    - ``call_to_strike``: after a call's last word and before its stroke's strike (or, for a call
      with no stroke after it, before the next call begins): the call is voided or made late;
    - ``cascade``: from a strike to the end of its stroke's own sounds;
    - ``no_call``: anywhere else (talk, racking, chalking, balls still rolling, claps).
    """
    if call_at(t, truth) is not None:
        return "in_call"
    calls = truth.get("calls", [])
    strokes = {s["call"]: s for s in truth.get("strokes", [])}
    for i, c in enumerate(calls):
        st = strokes.get(i)
        if st is not None:
            until = st["strike"]
        else:
            nxt = [d["start"] for d in calls if d["start"] > c["end"]]
            until = min(nxt) if nxt else truth.get("duration", float("inf"))
        if c["end"] < t < until:
            return "call_to_strike"
    for st in truth.get("strokes", []):
        if st["strike"] <= t <= st["cascade_end"]:
            return "cascade"
    return "no_call"


VOICE_KINDS = {"espeak": "espeak-ng", "festival": "Festival", "real": "recorded"}
"""Who says a call (``table_mix``'s ``engine``), as the report names them."""


def voice_of(call: dict) -> str:
    """The kind of voice that says a call (:data:`VOICE_KINDS`' names)."""
    return VOICE_KINDS.get(call.get("engine", "espeak"), str(call.get("engine")))


def call_at(t: float, truth: dict) -> dict | None:
    """The call a false strike at ``t`` falls inside (as :func:`where` says ``in_call``), if any."""
    for c in truth.get("calls", []):
        if c["start"] - WORD_PAD_S <= t <= c["end"] + WORD_PAD_S:
            return c
    return None


def nearest_sound(t: float, truth: dict, within: float = 0.05) -> str:
    """The kind of the placed non-strike sound nearest ``t`` (within 50 ms), else ``speech`` when
    ``t`` is inside any talk, else ``unplaced`` (noise, reverberation, nothing the session put there)."""
    best, kind = within, None
    for e in truth.get("sounds", []):
        d = abs(e["t"] - t)
        if d <= best:
            best, kind = d, e["kind"]
    if kind:
        return kind
    for c in truth.get("calls", []) + truth.get("chatter", []):
        if c["start"] - WORD_PAD_S <= t <= c["end"] + WORD_PAD_S:
            return "speech"
    return "unplaced"


def match(reported: list[float], true: list[float], tol: float = TOL_S) -> dict[int, int]:
    """One-to-one matching of reported strike times to true onsets within ``tol``: closest pairs
    first. Returns {true index: reported index}."""
    pairs = sorted(
        (abs(r - t), i, j)
        for i, t in enumerate(true)
        for j, r in enumerate(reported)
        if abs(r - t) <= tol
    )
    used_t, used_r, out = set(), set(), {}
    for _, i, j in pairs:
        if i not in used_t and j not in used_r:
            out[i] = j
            used_t.add(i)
            used_r.add(j)
    return out


@dataclass
class Outcome:
    """What a detector decided over sessions, judged against their truths (``decide``)."""

    strokes: int = 0
    decided_right: int = 0
    found: int = 0
    candidates: int = 0  # true strikes the onset stage proposed (within 40 ms)
    candidates_known: bool = True  # False when the candidate stage was not observed
    false_where: dict = field(default_factory=lambda: {w: 0 for w in WHERE})
    false_kind: dict = field(default_factory=dict)  # nearest placed sound -> count
    stray_calls: int = 0  # calls with no stroke after them
    stray_kept: int = 0  # … that no strike took
    latency: list = field(default_factory=list)  # s: decision final − true onset, found strikes
    first_latency: list = field(
        default_factory=list
    )  # s: first reported (maybe provisional) − onset
    onset_err: list = field(default_factory=list)
    audio_s: float = 0.0
    cpu_s: float = 0.0
    wrong: list = field(default_factory=list)  # (tag, stroke, why) of strokes not decided right
    by_level: dict = field(default_factory=dict)  # the strike's level band (LEVELS) ->
    # [strikes found, strikes]
    in_call_by_voice: dict = field(default_factory=dict)  # who said the call (voice_of) ->
    # [false strikes inside its calls, calls]
    in_call_by_place: dict = field(default_factory=dict)  # "first call" (a session's) or
    # "later call" -> [false strikes inside such calls, calls]
    in_call_at_end: int = 0  # false strikes inside calls within END_S of the call's end

    @property
    def n_false(self) -> int:
        return sum(self.false_where.values())

    def add(self, o: Outcome) -> Outcome:
        for k in (
            "strokes",
            "decided_right",
            "found",
            "candidates",
            "stray_calls",
            "stray_kept",
            "in_call_at_end",
        ):
            setattr(self, k, getattr(self, k) + getattr(o, k))
        self.candidates_known = self.candidates_known and o.candidates_known
        for k, v in o.false_where.items():
            self.false_where[k] = self.false_where.get(k, 0) + v
        for k, v in o.false_kind.items():
            self.false_kind[k] = self.false_kind.get(k, 0) + v
        self.latency += o.latency
        self.first_latency += o.first_latency
        self.onset_err += o.onset_err
        self.audio_s += o.audio_s
        self.cpu_s += o.cpu_s
        self.wrong += o.wrong
        for mine, theirs in (
            (self.by_level, o.by_level),
            (self.in_call_by_voice, o.in_call_by_voice),
            (self.in_call_by_place, o.in_call_by_place),
        ):
            for k, (f, n) in theirs.items():
                have = mine.setdefault(k, [0, 0])
                have[0] += f
                have[1] += n
        return self

    def rate(self, k: str) -> float:
        return getattr(self, k) / self.strokes if self.strokes else float("nan")

    def per100(self, w: str) -> float:
        return 100.0 * self.false_where.get(w, 0) / self.strokes if self.strokes else float("nan")

    def in_call_text(self) -> str:
        """False strikes inside calls by who said them, per 100 of their calls: a recorded
        voice's real plosives, breath and clicks against the synthetic voices'."""
        return "; ".join(_per_calls(self.in_call_by_voice))

    def in_call_place_text(self) -> str:
        """False strikes inside calls in a session's first call (before any strike: nothing of
        the table known yet) and in the later ones, and how many lie within ``END_S`` of the
        call's end."""
        end = f"within {END_S:g} s of the call's end {self.in_call_at_end}"
        return "; ".join(_per_calls(self.in_call_by_place) + [end])


def _per_calls(counts: dict) -> list[str]:
    """``{kind: [false strikes, calls]}`` as text, one item per kind with calls."""
    return [
        f"{k} {f} in {n} calls ({100.0 * f / n:.1f} per 100)"
        for k, (f, n) in sorted(counts.items())
        if n
    ]


END_S = 0.1
"""A false strike inside a call this close to the call's end (or after it, within the call's
padding) is counted apart: in the mixed sessions, a recorded excerpt cut right after a burst."""


def _place(call: dict, first_call: dict | None) -> str:
    return "first call" if call is first_call else "later call"


LEVELS = ((-15.0, -10.0), (-10.0, -5.0), (-5.0, 0.0))
"""The strike's 10 ms RMS peak against the call's (``table_mix``'s ``strike_rel_db``): the bands
strike recall is reported by."""


LEVEL_NAMES = tuple(f"{lo:g}…{hi:g} dB" for lo, hi in LEVELS)


def level_band(rel_db: float) -> str:
    """The :data:`LEVELS` band (its name) a strike ``rel_db`` under its call falls in."""
    i = next((i for i, (_, hi) in enumerate(LEVELS) if rel_db < hi), len(LEVELS) - 1)
    return LEVEL_NAMES[i]


def decide(
    reported: list[float],
    truth: dict,
    *,
    candidates: list[float] | None = None,
    final: dict[float, float] | None = None,
    first: dict[float, float] | None = None,
    tag: str = "",
    tol: float = TOL_S,
) -> Outcome:
    """Judge the strikes a detector let stand (``reported``, seconds) against a session's truth.

    A stroke is **decided right** when a reported strike lies within ``tol`` (40 ms) of its onset
    and no other reported strike (a false one) falls between the start of its call and that onset.
    Every reported strike not matched to a true one is false, counted by ``where`` it falls and by
    the nearest placed sound. A call with no stroke after it is kept when no strike at all falls
    from its start to the next call's start. ``candidates``: the onset stage's proposals, for its
    recall; ``final``: reported time -> stream time at which that decision was final (latency);
    ``first``: reported time -> stream time at which it was first reported (maybe provisional)."""
    strokes = truth.get("strokes", [])
    true = [s["strike"] for s in strokes]
    rep = sorted(float(r) for r in reported)
    m = match(rep, true, tol)
    matched = set(m.values())
    false = [r for j, r in enumerate(rep) if j not in matched]
    o = Outcome(strokes=len(strokes), audio_s=float(truth.get("duration", 0.0)))
    calls = truth.get("calls", [])
    first_call = min(calls, key=lambda c: c["start"]) if calls else None
    for c in calls:
        o.in_call_by_voice.setdefault(voice_of(c), [0, 0])[1] += 1
        o.in_call_by_place.setdefault(_place(c, first_call), [0, 0])[1] += 1
    for f in false:
        c = call_at(f, truth)  # what where() would look up first
        w = "in_call" if c is not None else where(f, truth)
        o.false_where[w] += 1
        if c is not None:
            o.in_call_by_voice[voice_of(c)][0] += 1
            o.in_call_by_place[_place(c, first_call)][0] += 1
            o.in_call_at_end += int(c["end"] - END_S <= f)
        k = nearest_sound(f, truth)
        o.false_kind[k] = o.false_kind.get(k, 0) + 1
    cand = sorted(candidates) if candidates is not None else None
    o.candidates_known = cand is not None
    levels = dict(zip(truth.get("strikes", []), truth.get("strike_rel_db", [])))
    for i, st in enumerate(strokes):
        T = st["strike"]
        ok_found = i in m
        if T in levels:
            band = o.by_level.setdefault(level_band(levels[T]), [0, 0])
            band[0] += int(ok_found)
            band[1] += 1
        if cand is not None and any(abs(c - T) <= tol for c in cand):
            o.candidates += 1
        early = [f for f in false if st["call_start"] - WORD_PAD_S <= f < T - tol]
        if ok_found:
            o.found += 1
            r = rep[m[i]]
            o.onset_err.append(r - T)
            if final is not None and r in final:
                o.latency.append(final[r] - T)
            if first is not None and r in first:
                o.first_latency.append(first[r] - T)
        if ok_found and not early:
            o.decided_right += 1
        else:
            why = ("missed" if not ok_found else "") + (
                (" and " if not ok_found and early else "")
                + (
                    f"false strike(s) at {[round(f, 3) for f in early]} ({', '.join(where(f, truth) for f in early)})"
                    if early
                    else ""
                )
            )
            o.wrong.append((tag, i, round(T, 3), why))
    calls = truth.get("calls", [])
    for c in calls:
        if c.get("stroke") is None:
            o.stray_calls += 1
            nxt = [d["start"] for d in calls if d["start"] > c["end"]]
            until = min(nxt) if nxt else truth.get("duration", float("inf"))
            if not any(c["start"] - WORD_PAD_S <= r < until for r in rep):
                o.stray_kept += 1
    return o


def _provisional(det) -> set[float]:
    """Strike times the detector may still take back. A detector may say so itself
    (``provisional``: times, or sounds with ``.time``); the current one keeps them among the
    sounds waiting for its second look."""
    prov = getattr(det, "provisional", None)
    if prov is None:
        prov = [p[0] if isinstance(p, tuple) else p for p in getattr(det, "_pending", [])]
    return {round(float(getattr(p, "time", p)), 4) for p in prov}


@dataclass
class Stream:
    """One causal run of the detector over a session (``stream``)."""

    strikes: list[float]  # strikes standing at the end
    final: dict[float, float]  # strike -> stream time from which it stood, no longer provisional
    first: dict[float, float]  # strike -> stream time at which it was first among the strikes
    candidates: list[float] | None  # onsets the candidate stage proposed (None: not observable)
    cpu_s: float
    detector: object = None


def stream(x: np.ndarray, make_detector, block_ms: float = 10.0) -> Stream:
    """Feed ``x`` to ``make_detector()`` in ``block_ms`` blocks, as a microphone would.

    After each block the strikes standing (``det.strikes``) are read; a strike's decision is
    **final** at the end of the block from which it stood without a break to the end of the stream
    and was no longer provisional (``_provisional``). The candidate stage is observed by wrapping
    the detector's own onset detector (``det.onsets.feed``), so the candidates are exactly the
    knocks it judged. CPU counts only the detector's ``feed`` calls."""
    from pyramid_referee.voice.audio import array_frames

    det = make_detector()
    cands: list[float] | None = None
    inner = getattr(det, "onsets", None)
    if inner is not None and hasattr(inner, "feed"):
        cands = []
        orig = inner.feed

        def feed(block, t0=None, _orig=orig):
            got = _orig(block, t0)
            cands.extend(float(o.time) for o in got)
            return got

        inner.feed = feed
    since: dict[float, float] = {}
    first: dict[float, float] = {}
    cpu = 0.0
    for fr in array_frames(np.asarray(x, np.float32), block_ms):
        c0 = time.process_time()
        det.feed(fr.samples, fr.t0)
        cpu += time.process_time() - c0
        standing = {round(float(s.time), 4) for s in det.strikes}
        for t in standing:
            first.setdefault(t, fr.t1)
        prov = _provisional(det)
        for t in list(since):
            if t not in standing or t in prov:
                del since[t]
        for t in standing - prov:
            since.setdefault(t, fr.t1)
    if hasattr(det, "flush"):
        det.flush()
    standing = sorted(round(float(s.time), 4) for s in det.strikes)
    end = len(x) / 16000
    final = {t: since.get(t, end) for t in standing}
    return Stream(standing, final, {t: first.get(t, end) for t in standing}, cands, cpu, det)


def judge(
    x: np.ndarray, truth: dict, make_detector, tag: str = "", block_ms: float = 10.0
) -> Outcome:
    """``stream`` then ``decide``: the outcome of one session."""
    run_ = stream(x, make_detector, block_ms)
    o = decide(
        run_.strikes,
        truth,
        candidates=run_.candidates,
        final=run_.final,
        first=run_.first,
        tag=tag,
    )
    o.cpu_s = run_.cpu_s
    return o


@dataclass
class Score:
    strikes: int = 0
    found: int = 0
    false: dict = field(default_factory=dict)  # cause → count
    onset_err: list = field(default_factory=list)
    latency: list = field(default_factory=list)
    missed: list = field(default_factory=list)  # (session tag, strike time, recording)
    unsure_strikes: int = 0
    retracted: int = 0  # reported, then taken back (a word began)
    audio_s: float = 0.0
    speech_s: float = 0.0
    stroke_sounds: int = 0
    cpu_s: float = 0.0

    @property
    def n_false(self) -> int:
        return sum(self.false.values())

    def add(self, other: Score) -> Score:
        self.strikes += other.strikes
        self.found += other.found
        for k, v in other.false.items():
            self.false[k] = self.false.get(k, 0) + v
        self.onset_err += other.onset_err
        self.latency += other.latency
        self.missed += other.missed
        self.unsure_strikes += other.unsure_strikes
        self.retracted += other.retracted
        self.audio_s += other.audio_s
        self.speech_s += other.speech_s
        self.stroke_sounds += other.stroke_sounds
        self.cpu_s += other.cpu_s
        return self

    @property
    def recall(self) -> float:
        return self.found / self.strikes if self.strikes else float("nan")

    @property
    def precision(self) -> float:
        n = self.found + self.n_false
        return self.found / n if n else float("nan")


def run(x: np.ndarray, model=None, block_ms: float = 10.0, **params):
    """(detector, [(strike time, report time)], cpu seconds) for a whole signal, fed in blocks."""
    from pyramid_referee.voice.audio import array_frames
    from pyramid_referee.voice.strike import StrikeDetector, run_detector

    first, second = model if model is not None else (None, None)
    det = StrikeDetector(model=first, long_model=second, **params)
    frames = list(array_frames(np.asarray(x, np.float32), block_ms))
    t0 = time.process_time()
    reports = list(run_detector(frames, det))
    return det, reports, time.process_time() - t0


def score(x: np.ndarray, truth: dict, model=None, tag: str = "", **params) -> Score:
    det, reports, cpu = run(x, model, **params)
    sc = Score(audio_s=len(x) / 16000, cpu_s=cpu)
    gone = set(det.retracted)
    sc.retracted = len(gone)
    left = [r for r in reports if r[0] not in gone]  # what stands once each was confirmed
    for t, name in zip(truth.get("strikes", []), truth.get("strike_sounds", [])):
        sc.strikes += 1
        near = [r for r in left if abs(r[0] - t) <= TOL_S]
        if near:
            r = min(near, key=lambda r: abs(r[0] - t))
            left.remove(r)
            sc.found += 1
            sc.onset_err.append(r[0] - t)
            sc.latency.append(r[1] - t)
            s = next((s for s in det.strikes if abs(s.time - r[0]) < 1e-6), None)
            if s is not None and not s.sure:
                sc.unsure_strikes += 1
        else:
            sc.missed.append((tag, round(t, 3), name))
    for t, _ in left:
        c = cause(t, truth)
        sc.false[c] = sc.false.get(c, 0) + 1
    sc.speech_s = sum(
        c["end"] - c["start"] for c in truth.get("calls", []) + truth.get("chatter", [])
    )
    sc.stroke_sounds = sum(
        len(truth.get(k, [])) for k in ("stroke_sounds", "late_sounds", "rack", "claps", "other")
    )
    return sc


# ----------------------------------------------------------------------------------------------
# The command-line path


def strikes_from_json(text: str) -> tuple[list[float], int]:
    """The strikes of ``strikes FILE --json`` output, exactly its ``strikes`` list; and how many
    of them the same JSON lists among its ``sounds`` as taken back (``decision`` "retracted": a
    strike that should not have been listed). Output without a ``strikes`` list is an error."""
    doc = json.loads(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("strikes"), list):
        raise ValueError("the JSON has no 'strikes' list")
    strikes = [float(t) for t in doc["strikes"]]
    gone = [float(s["time"]) for s in doc.get("sounds", []) if s.get("decision") == "retracted"]
    listed = sum(1 for t in strikes if any(abs(t - g) < 0.0015 for g in gone))
    return strikes, listed


def _jsonable(truth: dict) -> dict:
    return json.loads(json.dumps(truth, default=lambda v: float(v) if np.isscalar(v) else list(v)))


def main(argv=None) -> int:
    import argparse
    import shutil
    import subprocess

    import table_mix as tm

    ap = argparse.ArgumentParser(
        description="Score `pyramid-referee strikes FILE --json` on benchmark sessions "
        "(WAV + truth JSON written to --out), as a held-out checker would."
    )
    ap.add_argument(
        "--out", required=True, help="folder for the WAVs, truths and the strikes JSON"
    )
    ap.add_argument(
        "--quick", action="store_true", help=f"held-out sources {', '.join(QUICK_SOURCES)} only"
    )
    ap.add_argument("--sources", nargs="*", default=None)
    ap.add_argument(
        "--conditions", nargs="*", default=None, help=f"a subset of: {'; '.join(CONDITIONS)}"
    )
    ap.add_argument("--sessions", type=int, default=1)
    ap.add_argument(
        "--strokes",
        type=int,
        default=None,
        help="strokes per session (default 5; --quick 4: the bench's quick sessions, written as 16-bit WAV)",
    )
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--cli", default=None, help="the program (default: pyramid-referee beside this Python)"
    )
    ap.add_argument("--wrong", action="store_true", help="list every stroke not decided right")
    args = ap.parse_args(argv)

    args.strokes = args.strokes or (4 if args.quick else 5)
    prog = args.cli or str(Path(sys.executable).with_name("pyramid-referee"))
    if shutil.which(prog) is None:
        print(f"{prog}: not found (install the project: pip install -e .)", file=sys.stderr)
        return 2
    inputs = load_inputs()
    if inputs is None:
        return 2
    bank, speech = inputs
    all_folds = folds(bank, speech)
    names = [f["name"] for f in all_folds]
    wanted = args.sources or (list(QUICK_SOURCES) if args.quick else names)
    conds = args.conditions or list(CONDITIONS)
    bad = sorted(set(wanted) - set(names)) + sorted(set(conds) - set(CONDITIONS))
    if bad:
        print(
            f"unknown source(s) or condition(s) {bad}; sources: {names}; conditions: {list(CONDITIONS)}",
            file=sys.stderr,
        )
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    by_cond: dict[str, Outcome] = {}
    listed_back = 0
    t0 = time.perf_counter()
    for fi, fold in enumerate(all_folds):
        if fold["name"] not in wanted:
            continue
        for cname, k, _reverb, x, truth in fold_sessions(
            bank, speech, fold, fi, conds, args.sessions, args.strokes, args.seed
        ):
            stem = f"{fold['name']}_{cname.replace(' ', '-')}_{k}"
            wav = out / f"{stem}.wav"
            tm.write_wav(wav, x)
            (out / f"{stem}.truth.json").write_text(
                json.dumps(_jsonable(truth), ensure_ascii=False) + "\n", encoding="utf-8"
            )
            r = subprocess.run(
                [prog, "strikes", str(wav), "--json", "--explain"],
                capture_output=True,
                text=True,
                timeout=600,
            )
            if r.returncode != 0:
                print(
                    f"{wav.name}: strikes failed ({r.returncode}): {r.stderr.strip()[-300:]}",
                    file=sys.stderr,
                )
                return 1
            (out / f"{stem}.strikes.json").write_text(r.stdout, encoding="utf-8")
            strikes, back = strikes_from_json(r.stdout)
            listed_back += back
            o = decide(strikes, truth, tag=stem)
            for key in (cname, "all"):
                by_cond.setdefault(key, Outcome()).add(o)
    total = by_cond.get("all", Outcome())
    print(
        f"\n## `strikes FILE --json`, scored from its JSON ({len(wanted)} sources, "
        f"{total.strokes} strokes, {time.perf_counter() - t0:.0f} s)\n"
    )
    print(
        "The command line uses the shipped sound model (fitted on every development source): "
        "this checks the path, not generalisation.\n"
    )
    print(
        "| condition | strokes | **calls decided right** | strike recall | false /100: in call | "
        "call→strike | cascade | no call |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in list(CONDITIONS) + ["all"]:
        o = by_cond.get(name)
        if o is None:
            continue
        right = (
            f"{o.decided_right}/{o.strokes} ({100 * o.decided_right / o.strokes:.0f} %)"
            if o.strokes
            else "–"
        )
        print(
            f"| {name} | {o.strokes} | **{right}** | {o.rate('found'):.3f} | {o.per100('in_call'):.1f} | "
            f"{o.per100('call_to_strike'):.1f} | {o.per100('cascade'):.1f} | {o.per100('no_call'):.1f} |"
        )
    print(f"\nstrikes listed in the JSON that it also lists as taken back: {listed_back}")
    print(f"files: {out}")
    if args.wrong:
        for w in total.wrong:
            print("  ", w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
