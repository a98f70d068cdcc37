"""Benchmark of the call parser: prints calls/s, p50/p99 latency, whole-process validate, fuzz
worst case.

    .venv/bin/python bench/bench_parse.py [--calls 20000] [--fuzz 20000] [--lines 20000]

- in-process: parse() (lexer, every tagging, LALR, assembly, ambiguity check
  included) over a varied set of distinct inputs: the annotated corpus (each
  with its own settings) plus calls rendered from random calls, some of them
  corners without a side under pocket_precision "any" (Q2); the parser keeps
  no result cache.
- whole-process: ``python -m pyramid_referee validate FILE`` on a generated
  file (interpreter start-up included).
- fuzz: random word salads from the vocabulary and random Unicode, under both
  pocket_precision settings; the slowest input met.
- lattice walk (``--lattice``): the step the parser spends its time in, every tagging of
  the words parsed at once, done two ways over the same inputs: the parser's own walk over
  Lark's LALR table (grammar/parser.py) and Lark's public ``parse_interactive()``, forking a
  reading with ``copy()`` where a word has several tags; both must give the same readings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyramid_referee.grammar import Call, Pocket, parse, render, vocabulary

ROOT = Path(__file__).resolve().parent.parent


def random_call(rng: random.Random) -> tuple[Call, str, list | None, str]:
    kind = rng.choice(["corner", "middle"])
    side = (
        rng.choice(["left", "right", None])
        if kind == "corner"
        else rng.choice([None, "left", "right"])
    )
    end = rng.choice([None, "near", "far"]) if kind == "corner" else None
    pocket = Pocket(kind, side, end)
    # a corner without a side is a call only under pocket_precision "any" (Q2)
    precision = (
        "any" if (kind == "corner" and side is None) or rng.random() < 0.2 else "side_for_corners"
    )
    ball = rng.randint(1, 15)
    if rng.random() < 0.2:
        return Call(ball, pocket, None), "ball_and_pocket", None, precision
    others = [b for b in range(1, 16) if b != ball]
    rng.shuffle(others)
    caroms = others[: rng.choice([0, 0, 0, 1, 2])]
    rest = others[len(caroms) :]
    drivers = rest[: rng.choice([0, 0, 1, 1, 2, 3])]
    kisses = rest[len(drivers) : len(drivers) + rng.choice([0, 0, 1])]
    own = (
        kisses
        + ["cushion"] * rng.choice([0, 0, 1, 2])
        + (["contre_coup"] if rng.random() < 0.05 else [])
    )
    rng.shuffle(own)
    route = [("cue", "cushion")] if rng.random() < 0.15 else []
    route += [("cue", x) for x in caroms]
    prev = "cue"
    for x in drivers:
        route.append((prev, x))
        prev = x
    route += [(prev, ball)] + [(ball, t) for t in own] + [(ball, "pocket")]
    return Call(ball, pocket, tuple(route)), "clean", None, precision


def corpus() -> list[tuple[str, str, list | None, str]]:
    out = []
    for path in sorted((ROOT / "corpora" / "calls").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            out.append(
                (
                    r["text"],
                    r.get("mode", "clean"),
                    r.get("balls_left"),
                    r.get("pocket_precision", "side_for_corners"),
                )
            )
    return out


def inputs(n: int, rng: random.Random) -> list[tuple[str, str, list | None, str]]:
    out = corpus()
    seen = {t for t, _, _, _ in out}
    while len(out) < n:
        call, mode, left, precision = random_call(rng)
        text = render(call)
        if rng.random() < 0.5:  # shuffle the phrases' order a little: still distinct texts
            text = text.replace(" в ", " , в ", 1)
        if text in seen:
            text = rng.choice(["ну ", "так ", "давай ", "заказываю ", ""]) + text
        if text not in seen:
            seen.add(text)
            out.append((text, mode, left, precision))
    return out


def in_process(items) -> None:
    for text, mode, left, precision in items[:200]:  # warm up the interpreter's caches
        parse(text, mode=mode, balls_left=left, pocket_precision=precision)
    lat = []
    refused = 0
    c0 = time.process_time()
    t0 = time.perf_counter()
    for text, mode, left, precision in items:
        s = time.perf_counter_ns()
        r = parse(text, mode=mode, balls_left=left, pocket_precision=precision)
        lat.append(time.perf_counter_ns() - s)
        refused += not isinstance(r, Call)
    total = time.perf_counter() - t0
    cpu = time.process_time() - c0
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    print(
        f"in-process parse: {len(items)} distinct inputs ({refused} refused) in {total:.3f} s = "
        f"{len(items) / total:,.0f} calls/s (CPU time {cpu:.3f} s = {len(items) / cpu:,.0f} "
        f"calls/s per core; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print(
        f"  latency: p50 {q[49] / 1000:.1f} us, p90 {q[89] / 1000:.1f} us, p99 {q[98] / 1000:.1f} "
        f"us, max {lat[-1] / 1000:.1f} us"
    )


def whole_process(items, lines: int) -> None:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as fh:
        for i in range(lines):
            fh.write(items[i % len(items)][0].replace("\n", " ") + "\n")
        path = fh.name
    try:
        cmd = [sys.executable, "-m", "pyramid_referee", "validate", path]
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        total = time.perf_counter() - t0
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pyramid_referee", "--help"], capture_output=True)
        start = time.perf_counter() - t0
    finally:
        os.unlink(path)
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr.strip()
    print(
        f"whole-process validate: {lines} lines in {total:.2f} s = {lines / total:,.0f} calls/s "
        f"(exit {r.returncode}; interpreter + CLI start-up alone {start:.2f} s)"
    )
    print(f"  {summary}")


def fuzz(n: int, rng: random.Random) -> None:
    """Random word salads, random Unicode and repeated ambiguous fragments; the
    slowest inputs are timed again (best of 5) to tell their cost from noise."""
    vocab = vocabulary() + ["12", "7-м", "№3", "3-мя", "12-го", ",", "такого-то", "привет"]
    fragments = [
        "7 шаром 12",
        "в середину",
        "чисто",
        "от борта",
        "двенадцатого",
        "тройку",
        "шестёркой",
        "от шестёрки",
        "в левый угол",
        "карамболем от семёрки",
        "тремя шарами",
        "в угол",
        "со стороны игрока",
        "на противоположной стороне",
        "туза",
    ]
    timed = []
    t0 = time.perf_counter()
    for i in range(n):
        kind = i % 3
        if kind == 0:
            text = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 70)))
        elif kind == 1:
            text = "".join(
                chr(
                    rng.choice(
                        [
                            rng.randint(32, 0x4FF),
                            rng.randint(0x400, 0x44F),
                            rng.randint(0x1F300, 0x1F6FF),
                            32,
                        ]
                    )
                )
                for _ in range(rng.randint(0, 300))
            )
        else:
            text = " ".join(rng.choice(fragments) for _ in range(rng.randint(1, 25)))
        precision = "any" if i % 2 else "side_for_corners"
        s = time.perf_counter()
        r = parse(text, pocket_precision=precision)
        timed.append((time.perf_counter() - s, text, precision))
        assert r is not None
    total = time.perf_counter() - t0
    timed.sort(reverse=True)
    raw_worst = timed[0][0]
    retimed = []
    for _, text, precision in timed[:20]:
        best = min(_time_once(text, precision) for _ in range(5))
        retimed.append((best, text, precision))
    retimed.sort(reverse=True)
    worst, text, precision = retimed[0]
    print(
        f"fuzz: {n} inputs in {total:.2f} s; slowest single timing {raw_worst * 1000:.2f} ms; "
        f"slowest input re-timed (best of 5) {worst * 1000:.2f} ms (pocket_precision {precision}):"
    )
    print(f"  {text[:200]!r}{'…' if len(text) > 200 else ''}")


def _time_once(text: str, precision: str) -> float:
    s = time.perf_counter()
    parse(text, pocket_precision=precision)
    return time.perf_counter() - s


def _interactive_walker():
    """The lattice walk written with Lark's public API: ``parse_interactive()``, ``feed_token``,
    ``copy()`` to fork a reading, ``feed_eof``; the phrase items built by a Transformer given to
    Lark (its list rules are inlined by Lark itself, so no generated rule name is used)."""
    from lark import Lark, Token, Transformer
    from lark.exceptions import UnexpectedToken

    from pyramid_referee.grammar import lark_table as T, parser as P

    def plain(children):  # a token's value is the parser's own token (type, value, start, end)
        return [c.value if isinstance(c, Token) else c for c in children]

    class Items(Transformer):
        """Each named rule of calls.lark → the item the parser's own builders make."""

    for name, build in P._BUILDERS.items():
        if not name.startswith("_") and name not in ("start", "kiss", "carom"):
            setattr(Items, name, lambda self, c, build=build: build(plain(c)))

    def kiss(self, c):
        c = plain(c)
        return [("kiss", b[0], c[0][2] if k == 0 else b[1], b[2]) for k, b in enumerate(c[1:])]

    def carom(self, c):
        return [("carom", b[0], b[1], b[2]) for b in plain(c)[2:]]

    def start(self, c):
        out = []
        for item in c:
            out.extend(item if isinstance(item, list) else [item])
        return out

    Items.kiss, Items.carom, Items.start = kiss, carom, start
    lark = Lark(
        T.GRAMMAR_FILE.read_text(encoding="utf-8"),
        parser="lalr",
        lexer=T.TokenFeed,
        strict=True,
        transformer=Items(),
    )

    def walk(options):
        configs = [lark.parse_interactive([])]
        for opts in options:
            new = []
            for ip in configs:
                for k, tok in enumerate(opts):
                    fork = ip.copy() if k < len(opts) - 1 else ip
                    try:
                        # the whole token as the value: a deep-copied Token keeps its value but
                        # loses end_pos (lark 1.2-1.3), and copy() deep-copies the value stack
                        fork.feed_token(Token(tok[0], tok))
                    except UnexpectedToken:
                        continue
                    new.append(fork)
            if not new:
                return []
            configs = new
        readings = []
        for ip in configs:
            try:
                readings.append(ip.feed_eof())
            except UnexpectedToken:
                pass
        return readings

    return walk


def lattice(items) -> None:
    """The parser's own table walk against Lark's parse_interactive() + copy(), same inputs."""
    from pyramid_referee.grammar.corrections import plan
    from pyramid_referee.grammar.lexicon import IGNORED_TAGS, tag_words
    from pyramid_referee.grammar.parser import _parse_lattice, _taggings

    lattices = []
    for text, *_ in items:
        try:
            words = tag_words(text)
        except Exception:  # too long: the parser refuses it before this step
            continue
        if not words or any(not w.types for w in words):
            continue
        steps = plan([w for w in words])
        if not isinstance(steps, list):
            continue
        for step in steps:
            content = [w for w in step.content if not w.types <= IGNORED_TAGS]
            if content:
                lattices.append(_taggings(content))
    forks = sum(len(o) > 1 for opts in lattices for o in opts)

    def table_walk(options):
        try:
            return _parse_lattice(options)[0]
        except OverflowError:
            return None

    walk = _interactive_walker()

    def public_walk(options):
        got = walk(options)
        return None if len(got) > 32 else got

    # copy() must deep-copy the value stack (Lark's inlined list rules extend a child's list in
    # place, so shallow forks corrupt each other: copy(deepcopy_values=False) is no option)
    walkers = (
        ("table walk (grammar/parser.py)", table_walk),
        ("Lark parse_interactive() + copy()", public_walk),
    )
    same = sum(table_walk(o) == public_walk(o) for o in lattices)
    timings = {}
    for name, fn in walkers:
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for o in lattices:
                fn(o)
            best = min(best, time.perf_counter() - t0)
        timings[name] = best
    print(
        f"lattice walk: {len(lattices)} taggings ({forks} words with several tags); the same "
        f"readings from both for {same}; best of 3:"
    )
    base = timings["table walk (grammar/parser.py)"]
    for name, t in timings.items():
        print(f"  {name:36s} {t:.3f} s = {len(lattices) / t:,.0f} walks/s ({t / base:.1f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--fuzz", type=int, default=20000)
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--lattice",
        action="store_true",
        help="only compare the lattice walk: the parser's table walk and Lark's "
        "parse_interactive()",
    )
    args = ap.parse_args()
    rng = random.Random(args.seed)
    items = inputs(args.calls, rng)
    rng.shuffle(items)
    if args.lattice:
        lattice(items)
        return
    in_process(items)
    whole_process(items, args.lines)
    fuzz(args.fuzz, rng)


if __name__ == "__main__":
    main()
