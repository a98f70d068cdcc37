#!/usr/bin/env python3
"""Benchmark of the strike detector by the calls it decides right, leave-one-source-out.

    .venv/bin/python bench/bench_strike.py --quick            # 3 held-out sources, 1 session each (~1 min CPU)
    .venv/bin/python bench/bench_strike.py --sessions 2 --strokes 4 \
        --calibrate clean "20 dB" "10 dB" "5 dB" --jobs 2   # 1,080 strokes, 15 sources (docs)
    .venv/bin/python bench/bench_strike.py                    # every source with a usable strike
    .venv/bin/python bench/bench_strike.py [--sources SRC …] [--sessions N] [--strokes N]
                     [--no-calibration] [--calibrate CONDITION …] [--no-refit] [--wrong]
                     [--carry] [--json OUT] [--live SECONDS] [--jobs N]

**The headline: calls decided right.** A stroke is decided right when a strike is found within
40 ms of its true onset and no false strike falls between the start of its call and the strike
(``corpora/audio/strike_eval.py``: ``decide``). Also printed: the recall of the candidate stage
(the onset detector alone: was each true strike proposed within 40 ms), false strikes per 100
strokes by where they fall (inside a call's words; between a call's end and its strike; during
the stroke's cascade; with no call standing), whether a call with no stroke after it was left
standing, the decision latency (the stream time at which the strike's decision was final, minus
its true onset, fed in 10 ms blocks) and the detector's CPU share of one core.

**The audio** (``corpora/audio/table_mix.py``): calls spoken by espeak-ng, Festival's Russian voice
and recorded Russian voices (``../shared/speech``: not pyramid calls, Russian speech standing in
for them), the strike a real cue recording (``../shared/sounds``) followed by its own cascade (ball
clacks, cushions, pocket drops 0.1–2 s later), chatter, racking, chalking, balls still rolling,
recorded café and babble noise at 20, 10 and 5 dB under the calls, room reverberation on every
other session. Conditions (``CONDITIONS``): clean, 20/10/5 dB, reverb, talk over the stroke, the
next call while the balls still roll, a call with no stroke after it, the strike 1 s after the
call's last word.

**Leave-one-source-out, by recording source.** One fold per recording source with a usable cue
recording (repositories that ship the same clip are one source: ``table_mix.SAME_RECORDING``); each
fold also holds out one recorded-voice source and one recorded-noise source (in turn). The fold's
sessions are built only from what it holds out, and the sound model is refitted without those
sources (``fold_detector``: ``corpora/audio/fit_sound_model.py`` leaves out every feature row whose
source is held out). espeak-ng and Festival are synthetic and cannot be held out.

**Calibration, three ways.** Each condition is also run with a table profile made by the
project's calibration (``voice/calibrate.py``) from 3 and from 5 strikes (and 4 ball clacks) of
the held-out source, heard in the same room and noise.

**A later session at the same table** (``--carry``). Each source's second session in a condition
(the same table, room and noise, later) is also decided by a fresh detector that remembers what
the first session's detector learned of the table (``StrikeDetector.remember``), as the pad's
stream does after a gap, and set against the fresh detector's decisions on it.

The tables are printed as markdown, ready for the project's docs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "corpora" / "audio"))

from strike_eval import CONDITIONS, QUICK_SOURCES  # noqa: E402  (corpora/audio: the metric's conditions)

LIVE = """
import sys, time
from pyramid_referee.voice.mic import MicrophoneSource
from pyramid_referee.voice.strike import StrikeDetector
seconds, block = float(sys.argv[1]), float(sys.argv[2])
for with_detector in (False, True):
    det = StrikeDetector()
    with MicrophoneSource(None, block) as mic:
        it = iter(mic)
        next(it)                                   # the stream is running
        c0, w0 = time.process_time(), time.monotonic()
        for f in it:
            if with_detector:
                det.feed(f.samples, f.t0)
            if time.monotonic() - w0 >= seconds:
                break
        c, w = time.process_time() - c0, time.monotonic() - w0
        lost = mic.problems() or "no audio lost"
    what = "microphone + detector" if with_detector else "microphone alone    "
    print(f"live, {block:g} ms blocks, {what}: {100 * c / w:.2f} % of one core over {w:.0f} s ({lost})")
"""


def live(seconds: float, block_ms: float) -> None:
    """CPU of the live path (PortAudio callback + queue + frames [+ detector]) per wall second.

    Uses the default input device; where there is none, starts a private PulseAudio daemon with a
    null sink (as tests/test_voice_mic.py does) and records its monitor.
    """
    import shutil
    import subprocess
    import tempfile

    env, daemon, run = dict(os.environ), None, None
    try:
        from pyramid_referee.voice.mic import list_devices

        have = bool(list_devices())
    except Exception:
        have = False
    if not have:
        if shutil.which("pulseaudio") is None:
            print("live: no input device and no pulseaudio: skipped")
            return
        run = tempfile.mkdtemp(prefix="bench-pulse-")
        os.chmod(run, 0o700)
        env.update(XDG_RUNTIME_DIR=run, HOME=run)
        daemon = subprocess.Popen(
            [
                "pulseaudio",
                "-n",
                "--daemonize=no",
                "--exit-idle-time=-1",
                "--use-pid-file=no",
                "-L",
                "module-native-protocol-unix",
                "-L",
                "module-null-sink sink_name=bench rate=16000 channels=1",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(50):
            if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0:
                break
            time.sleep(0.2)
        subprocess.run(
            ["pactl", "set-default-source", "bench.monitor"], env=env, capture_output=True
        )
    try:
        proc = subprocess.run(
            [sys.executable, "-c", LIVE, str(seconds), str(block_ms)],
            env=env,
            capture_output=True,
            text=True,
            timeout=seconds * 3 + 60,
        )
        print(proc.stdout.strip() or f"live: failed: {proc.stderr.strip()[-300:]}")
    finally:
        if daemon is not None:
            daemon.terminate()
            daemon.wait(10)
        if run is not None:
            shutil.rmtree(run, ignore_errors=True)


# ----------------------------------------------------------------------------------------------
# Conditions, folds, the detector of a fold

QUICK_CALIBRATED = ("20 dB", "5 dB")  # the quick run calibrates these only
PROFILES = ("none", "3 strikes", "5 strikes")


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pyramid-referee-bench"


def _cached(name: str, key_parts, make):
    """``make()``, cached on disk under a hash of ``key_parts`` (bytes)."""
    h = hashlib.sha256()
    for part in key_parts:
        h.update(part)
    path = _cache_dir() / f"{name}-{h.hexdigest()[:24]}.pickle"
    if path.exists():
        try:
            return pickle.loads(path.read_bytes())
        except Exception:
            pass
    value = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(value))
    except OSError:
        pass
    return value


def fold_detector(excluded: frozenset[str], refit: bool = True) -> dict:
    """Keyword arguments for ``StrikeDetector`` in a fold: the sound models fitted without any
    feature row from the ``excluded`` sources (sound repositories, voice and noise sources), and
    the strike decision model fitted without any session that used one of them. Fits are cached
    on disk: the sound models keyed by their table (``features.csv.gz``), their fitting code and
    the feature code, the decision model by its table (``decisions.csv.gz``), its fitting code,
    ``voice/sequence.py`` and the features; both by the exclusion. ``refit=False``: the shipped
    models (fitted on every source: not held out)."""
    if not refit:
        return {}
    import inspect
    from dataclasses import replace

    import fit_decision as fd
    import fit_sound_model as fsm

    def read(p) -> bytes:
        return Path(p).read_bytes() if Path(p).exists() else b""

    def src(*fns) -> bytes:
        return "".join(inspect.getsource(f) for f in fns).encode()

    ex = repr(sorted(excluded)).encode()
    first, second = _cached(
        "sound",
        (
            read(fsm.FEATURES_CSV),
            src(fsm.fit, fsm.export, fsm.read_features, fsm._read_table),
            read(ROOT / "voice" / "sound_class.py"),
            read(ROOT / "voice" / "onsets.py"),
            ex,
        ),
        lambda: fsm.fit(frozenset(excluded), with_sequence=False),
    )
    if fd.DECISIONS_CSV.exists():
        seq = _cached(
            "decision",
            (
                read(fd.DECISIONS_CSV),
                read(ROOT / "voice" / "denoise.py"),
                read(Path(fd.__file__)),
                src(fsm._read_table),
                read(ROOT / "voice" / "sequence.py"),
                read(ROOT / "voice" / "onsets.py"),
                ex,
            ),
            lambda: fd.fit_sequence(frozenset(excluded)),
        )
        second = replace(second, companion=seq)
    return {"model": first, "long_model": second}


def make_profile(
    n: int, rng, bank, fold: dict, cond: tuple, reverb: bool, voices, gain: float, kw: dict
):
    """A table profile from ``n`` strikes and 4 ball clacks of the fold's source in the condition's
    room and noise (``voice/calibrate.py`` as it is), or None when calibration refuses."""
    import table_mix as tm

    from pyramid_referee.voice.calibrate import calibrate

    snr, noise, _, _ = cond
    strikes, clacks = tm.calibration_audio(
        rng,
        bank,
        fold["repos"],
        n,
        snr_db=snr,
        noise=noise,
        reverb=reverb,
        voices=voices,
        gain=gain,
    )
    try:
        prof, _, _ = calibrate(
            strikes.astype(np.float32),
            None if clacks is None else clacks.astype(np.float32),
            strikes_asked=n,
            model=kw.get("model"),
        )
        return prof
    except Exception as e:  # calibration may refuse (too few strikes heard): counted as no profile
        return e


def session_profile(n: int, seed, fi: int, cname: str, k: int, reverb: bool, truth: dict, ctx):
    """The profile (or the calibration's refusal, an Exception) of ``n`` strikes for one
    benchmark session: fold ``fi``'s source in condition ``cname``'s room and noise, session
    ``k``. ``ctx``: ``(bank, speech, fold, voices, kw)``. The same arguments give the same
    profile (bench_word_spans.py gives its sessions the ones this bench does)."""
    bank, speech, fold, voices, kw = ctx
    snr, noise, rv, extra = CONDITIONS[cname]
    if speech is None and noise == "cafe":
        noise = "babble"
    rng = np.random.default_rng([seed, fi, list(CONDITIONS).index(cname), k, n])
    return make_profile(
        n, rng, bank, fold, (snr, noise, rv, extra), reverb, voices, truth["gain"], kw
    )


# ----------------------------------------------------------------------------------------------
# Tables


def pct(a, q):
    return float(np.percentile(a, q)) if len(a) else float("nan")


def frac(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.0f} %)" if b else "–"


def cond_table(by_cond: dict, profile: str = "none") -> list[str]:
    rows = [
        "| condition | strokes | **calls decided right** | strike recall | candidate recall | "
        "false /100 strokes: in call | call→strike | cascade | no call | call w/o stroke kept | "
        "latency p50 / p95 (ms) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in list(CONDITIONS) + ["all"]:
        o = by_cond.get((name, profile))
        if o is None:
            continue
        lat = np.array(o.latency) * 1000
        cand = f"{o.rate('candidates'):.3f}" if o.candidates_known else "–"
        rows.append(
            f"| {name} | {o.strokes} | **{frac(o.decided_right, o.strokes)}** | {o.rate('found'):.3f} | "
            f"{cand} | {o.per100('in_call'):.1f} | {o.per100('call_to_strike'):.1f} | "
            f"{o.per100('cascade'):.1f} | {o.per100('no_call'):.1f} | "
            f"{frac(o.stray_kept, o.stray_calls) if o.stray_calls else '–'} | "
            f"{pct(lat, 50):.0f} / {pct(lat, 95):.0f} |"
        )
    return rows


def level_table(by_cond: dict) -> list[str]:
    """Strike recall by how loud the strike is against its call (no profile)."""
    import strike_eval as ev

    bands = ev.LEVEL_NAMES
    rows = [
        "| condition | " + " | ".join(f"strike {b} re the call" for b in bands) + " |",
        "|---|" + "---:|" * len(bands),
    ]
    for name in list(CONDITIONS) + ["all"]:
        o = by_cond.get((name, "none"))
        if o is None or not o.by_level:
            continue
        cells = [frac(*o.by_level.get(b, [0, 0])) for b in bands]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return rows


def calib_table(by_cond: dict) -> list[str]:
    """Calls decided right with no profile and with each profile run; the last row sums only the
    conditions every column has (the quick run calibrates a few)."""
    import strike_eval as ev

    have = [p for p in PROFILES if any(k[1] == p for k in by_cond)]
    rows = [
        "| condition | "
        + " | ".join(
            f"decided right, {'no profile' if p == 'none' else p + ' profile'}" for p in have
        )
        + " |",
        "|---|" + "---:|" * len(have),
    ]
    both = [c for c in CONDITIONS if all((c, p) in by_cond for p in have)]
    for name in both:
        rows.append(
            f"| {name} | "
            + " | ".join(
                frac(by_cond[(name, p)].decided_right, by_cond[(name, p)].strokes) for p in have
            )
            + " |"
        )
    if len(both) > 1:
        cells = []
        for p in have:
            tot = ev.Outcome()
            for c in both:
                tot.add(by_cond[(c, p)])
            cells.append(frac(tot.decided_right, tot.strokes))
        rows.append("| all of these | " + " | ".join(cells) + " |")
    return rows


def source_table(by_source: dict, fold_list: list[dict]) -> list[str]:
    short = {
        "clean": "clean",
        "20 dB": "20 dB",
        "10 dB": "10 dB",
        "5 dB": "5 dB",
        "reverb": "reverb",
        "talk over the stroke": "talk over",
        "next call while balls roll": "call while rolling",
        "call with no stroke": "call w/o stroke",
        "strike 1 s after the call": "1 s after",
    }
    rows = [
        "| held-out source (voice, noise) | " + " | ".join(short.values()) + " | all |",
        "|---|" + "---:|" * (len(short) + 1),
    ]
    for f in fold_list:
        per = by_source.get(f["name"])
        if not per:
            continue
        cells = [f"{per[c].decided_right}/{per[c].strokes}" if c in per else "–" for c in short]
        tot = per.get("all")
        cells.append(frac(tot.decided_right, tot.strokes) if tot else "–")
        rows.append(f"| {f['name']} ({f['speech']}, {f['noise']}) | " + " | ".join(cells) + " |")
    return rows


# ----------------------------------------------------------------------------------------------


_RUN: dict = {}  # what every fold needs (set by main; forked workers inherit it)


def run_fold(fold: dict) -> tuple[dict, dict, dict]:
    """One held-out fold: its sessions decided by a detector fitted without its sources, with no
    profile and with the 3- and 5-strike ones. (outcomes by (condition, profile), outcomes by
    condition without a profile, calibrations refused by profile)."""
    import strike_eval as ev
    import table_mix as tm

    from pyramid_referee.voice.strike import StrikeDetector

    r = _RUN
    bank, speech, seed = r["bank"], r["speech"], r["seed"]
    kw = fold_detector(ev.held_out(fold), refit=r["refit"])
    voices = tm.Voices.mixed(
        speech,
        None if fold["speech"] is None else {fold["speech"]},
        None if fold["noise"] is None else {fold["noise"]},
    )
    by_cond: dict[tuple, ev.Outcome] = {}
    per: dict[str, ev.Outcome] = {}
    refused = {p: 0 for p in r["profiles"]}
    fi = r["names"].index(fold["name"])
    memory: dict = {}  # condition -> what the detector of its session before learned (--carry)
    for cname, k, reverb, x, truth in ev.fold_sessions(
        bank, speech, fold, fi, r["conds"], r["sessions"], r["strokes"], seed
    ):
        tag = f"{fold['name']}/{cname}/{k}{' room' if reverb else ''}"
        for pname in r["profiles"]:
            if pname != "none" and cname not in r["calibrated"]:
                continue
            prof = None
            if pname != "none":
                n = int(pname.split()[0])
                ctx = (bank, speech, fold, voices, kw)
                prof = session_profile(n, seed, fi, cname, k, reverb, truth, ctx)
                if isinstance(prof, Exception):
                    refused[pname] += 1
                    prof = None
            made: list = []

            def make(prof=prof, kw=kw, made=made):
                made.append(StrikeDetector(profile=prof, **kw))
                return made[-1]

            o = ev.judge(x, truth, make, tag=tag)
            for key in ((cname, pname), ("all", pname)):
                by_cond.setdefault(key, ev.Outcome()).add(o)
            if pname == "none":
                per.setdefault(cname, ev.Outcome()).add(o)
                per.setdefault("all", ev.Outcome()).add(o)
                if r.get("carry"):
                    _carried(x, truth, cname, tag, kw, memory, o, by_cond)
                    memory[cname] = made[-1].table_memory()
    return by_cond, per, refused


def _carried(x, truth, cname, tag, kw, memory, cold, by_cond) -> None:
    """A later session at the same table (``--carry``): decided as it was (``cold``, a fresh
    detector) and by a fresh detector that remembers what the one of the session before learned
    (``StrikeDetector.remember``), as the pad's stream after a gap; kept under ``later none``
    and ``later carried``."""
    import strike_eval as ev

    from pyramid_referee.voice.strike import StrikeDetector

    before = memory.get(cname)
    if before is None:  # the source's first session in this condition: nothing to carry
        return

    def make():
        det = StrikeDetector(**kw)
        det.remember(before)
        return det

    warm = ev.judge(x, truth, make, tag=tag + " carried")
    for key in ((cname, "later none"), ("all", "later none")):
        by_cond.setdefault(key, ev.Outcome()).add(cold)
    for key in ((cname, "later carried"), ("all", "later carried")):
        by_cond.setdefault(key, ev.Outcome()).add(warm)


def carry_table(by_cond: dict) -> list[str]:
    """Later sessions at a table: calls decided right (and false strikes that void a call)
    by a fresh detector and by one that remembers the session before."""
    rows = [
        "| condition | sessions' strokes | decided right, fresh detector | decided right, with the "
        "memory of the session before | voiding false strikes, fresh / with memory |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in list(CONDITIONS) + ["all"]:
        a, b = by_cond.get((name, "later none")), by_cond.get((name, "later carried"))
        if a is None or b is None:
            continue
        void_a = a.false_where["in_call"] + a.false_where["call_to_strike"]
        void_b = b.false_where["in_call"] + b.false_where["call_to_strike"]
        rows.append(
            f"| {name} | {a.strokes} | {frac(a.decided_right, a.strokes)} | "
            f"{frac(b.decided_right, b.strokes)} | {void_a} / {void_b} |"
        )
    return rows


def main(argv=None) -> int:
    import strike_eval as ev
    import table_mix as tm

    ev.require_this_tree()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--quick",
        action="store_true",
        help=f"the tuning loop: held-out sources {', '.join(QUICK_SOURCES)}, 1 session per condition",
    )
    ap.add_argument(
        "--sessions",
        type=int,
        default=None,
        help="sessions per source and condition (default 2; quick 1)",
    )
    ap.add_argument(
        "--strokes", type=int, default=None, help="strokes per session (default 5; quick 4)"
    )
    ap.add_argument(
        "--sources",
        nargs="*",
        default=None,
        help="held-out recording sources (default: every one)",
    )
    ap.add_argument(
        "--conditions", nargs="*", default=None, help=f"a subset of: {'; '.join(CONDITIONS)}"
    )
    ap.add_argument(
        "--no-calibration", action="store_true", help="skip the 3- and 5-strike profile columns"
    )
    ap.add_argument(
        "--carry",
        action="store_true",
        help="also decide each source's later sessions in a condition by a fresh detector that "
        "remembers the session before (the pad's stream after a gap), and compare",
    )
    ap.add_argument(
        "--calibrate",
        nargs="*",
        default=None,
        metavar="CONDITION",
        help="the conditions also run with a 3- and a 5-strike profile (default: every one; "
        f"quick: {', '.join(QUICK_CALIBRATED)})",
    )
    ap.add_argument(
        "--no-refit",
        action="store_true",
        help="use the shipped model (NOT held out: it saw every source)",
    )
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="folds run in this many processes at once (the figures are the same; the CPU "
        "share is each process's own, so keep jobs ≤ cores)",
    )
    ap.add_argument("--wrong", action="store_true", help="list every stroke not decided right")
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    ap.add_argument(
        "--live",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="also measure the live microphone path's CPU for this long (0: skip)",
    )
    args = ap.parse_args(argv)

    chosen = ev.chosen_folds(args.sources or (list(QUICK_SOURCES) if args.quick else ["all"]))
    if chosen is None:
        return 2
    bank, speech, all_folds, wanted = chosen
    names = [f["name"] for f in all_folds]
    conds = args.conditions or list(CONDITIONS)
    bad = sorted(set(conds) - set(CONDITIONS))
    if bad:
        print(f"unknown condition(s) {bad}; conditions: {list(CONDITIONS)}", file=sys.stderr)
        return 2
    sessions = args.sessions or (1 if args.quick else 2)
    args.strokes = args.strokes or (4 if args.quick else 5)
    profiles = ("none",) if args.no_calibration else PROFILES
    calibrated = set(
        args.calibrate
        if args.calibrate is not None
        else (QUICK_CALIBRATED if args.quick else CONDITIONS)
    )
    bad = sorted(calibrated - set(CONDITIONS))
    if bad:
        print(f"unknown condition(s) {bad}; conditions: {list(CONDITIONS)}", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print(f"--jobs: at least 1 process, got {args.jobs}", file=sys.stderr)
        return 2
    fold_list = [f for f in all_folds if f["name"] in wanted]
    missing = tm.Voices.mixed(speech).missing
    if missing:
        print(f"note: not available here, left out of the voices: {missing}", file=sys.stderr)

    t_start = time.perf_counter()
    by_cond: dict[tuple, ev.Outcome] = {}
    by_source: dict[str, dict] = {}
    refused = {p: 0 for p in profiles}
    _RUN.update(
        bank=bank,
        speech=speech,
        names=names,
        conds=conds,
        sessions=sessions,
        strokes=args.strokes,
        seed=args.seed,
        profiles=profiles,
        calibrated=calibrated,
        refit=not args.no_refit,
        carry=args.carry,
    )

    def merge(fold, got) -> None:
        cond_part, per, ref = got
        for key, o in cond_part.items():
            by_cond.setdefault(key, ev.Outcome()).add(o)
        by_source[fold["name"]] = per
        for k, v in ref.items():
            refused[k] += v
        print(
            f"  held out {fold['name']} (voice {fold['speech']}, noise {fold['noise']}): done "
            f"({time.perf_counter() - t_start:.0f} s, {len(by_source)}/{len(fold_list)})",
            file=sys.stderr,
        )

    if args.jobs > 1:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # forked workers share the sounds already read (_RUN)
        with ProcessPoolExecutor(args.jobs, mp_context=mp.get_context("fork")) as pool:
            futures = {pool.submit(run_fold, f): f for f in fold_list}
            for fut in as_completed(futures):
                merge(futures[fut], fut.result())
    else:
        for fold in fold_list:
            merge(fold, run_fold(fold))

    total = by_cond.get(("all", "none"), ev.Outcome())
    elapsed = time.perf_counter() - t_start
    lat = np.array(total.latency) * 1000
    err = np.array(total.onset_err) * 1000
    mode = "quick" if args.quick else "full"
    print(f"\n## Strike detector: calls decided right ({mode} run, leave-one-source-out)\n")
    print(
        f"{len(fold_list)} held-out recording sources, {sessions} session(s) of {args.strokes} strokes per "
        f"source and condition, {total.audio_s / 60:.1f} min of audio, {total.strokes} strokes; "
        f"{'the shipped model (NOT held out)' if args.no_refit else 'the sound model refitted without each fold'}.\n"
    )
    code = ev.code_state()
    print(f"Measured on {ev.describe_code(code)}.\n")
    print(
        f"- **Calls decided right: {frac(total.decided_right, total.strokes)}** (no profile, all conditions)"
    )
    print(
        f"- strike recall {total.rate('found'):.3f}; candidate stage recall "
        + (f"{total.rate('candidates'):.3f}" if total.candidates_known else "not observable")
    )
    print(
        "- false strikes per 100 strokes: "
        + "; ".join(f"{ev.WHERE_TEXT[w]} {total.per100(w):.1f}" for w in ev.WHERE)
    )
    print(
        f"- false strikes by the nearest placed sound: {dict(sorted(total.false_kind.items())) or '-'}"
    )
    print(f"- false strikes inside calls, by voice: {total.in_call_text() or '-'}")
    print(f"- … by the call's place: {total.in_call_place_text()}")
    lat1 = np.array(total.first_latency) * 1000
    print(
        f"- decision latency (final decision − true onset, 10 ms blocks): p50 {pct(lat, 50):.0f} ms, "
        f"p95 {pct(lat, 95):.0f} ms, max {lat.max() if len(lat) else float('nan'):.0f} ms "
        f"(first report, maybe provisional: p50 {pct(lat1, 50):.0f} ms, p95 {pct(lat1, 95):.0f} ms); "
        f"onset error median {pct(err, 50):+.1f} ms, max |err| {np.abs(err).max() if len(err) else float('nan'):.1f} ms"
    )
    print(
        f"- CPU, detector alone: {100 * total.cpu_s / total.audio_s if total.audio_s else float('nan'):.2f} % of one core"
    )
    if any(refused.values()):
        print(f"- calibration refused (run without a profile): {refused}")
    print("\n### By condition (no profile)\n")
    print("\n".join(cond_table(by_cond)))
    print("\n### Strikes found by their level (10 ms peak against the call's, no profile)\n")
    print("\n".join(level_table(by_cond)))
    if args.carry:
        print("\n### A later session at the same table, with the memory of the one before\n")
        print("\n".join(carry_table(by_cond)))
    if len(profiles) > 1:
        print("\n### With a table profile (calibration from the held-out source)\n")
        print("\n".join(calib_table(by_cond)))
    print("\n### By held-out source (calls decided right, no profile)\n")
    print("\n".join(source_table(by_source, fold_list)))
    print(f"\n({elapsed:.0f} s)")
    if args.wrong:
        print("\nstrokes not decided right (no profile):")
        for key, o in sorted(by_cond.items()):
            if key[1] == "none" and key[0] != "all":
                for w in o.wrong:
                    print("  ", w)
    if args.json:
        out = {
            "mode": mode,
            "code": code,
            "seconds": round(elapsed, 1),
            "folds": [{**f, "repos": sorted(f["repos"])} for f in fold_list],
            "results": {
                f"{c} | {p}": {
                    "strokes": o.strokes,
                    "decided_right": o.decided_right,
                    "found": o.found,
                    "candidates": o.candidates if o.candidates_known else None,
                    "false_where": o.false_where,
                    "false_kind": o.false_kind,
                    "stray_calls": o.stray_calls,
                    "stray_kept": o.stray_kept,
                    "found_by_level": o.by_level,
                    "in_call_by_voice": o.in_call_by_voice,
                    "in_call_by_place": o.in_call_by_place,
                    "in_call_at_end": o.in_call_at_end,
                    "latency_p50": pct(o.latency, 50),
                    "latency_p95": pct(o.latency, 95),
                    "cpu": o.cpu_s / o.audio_s if o.audio_s else None,
                }
                for (c, p), o in by_cond.items()
            },
        }
        Path(args.json).write_text(
            json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    if args.live > 0:
        print()
        live(args.live, 10.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
