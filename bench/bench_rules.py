"""Strokes judged per second, in-process (bar: >= 50,000/s).

Plain script: ``.venv/bin/python bench/bench_rules.py``. Builds a pool of
typical strokes (fulfilled clean calls, misses, penalties, combinations,
ball-and-pocket calls) once, then times ``judge`` alone and ``judge`` + ``apply``
over them, and ``Match.stroke`` (which adds the history bookkeeping).
Prints the figures; asserts nothing.
"""

from __future__ import annotations

import time

from pyramid_referee.grammar.call import Call, Pocket
from pyramid_referee.rules import GameState, Match, Outcome, Settings, apply, judge
from pyramid_referee.rules.outcome import Event

MID = Pocket("middle")
ML = Pocket("middle", "left")
RN = Pocket("corner", "right", "near")


def pool(settings: Settings):
    st = GameState.initial(settings, ["A", "B"])
    clean = settings.mode == "clean"
    cases = []
    for b in range(1, 16):
        o = (b % 15) + 1
        straight = Call(b, MID, (("cue", b), (b, "pocket")) if clean else None)
        combo = Call(b, MID, (("cue", o), (o, b), (b, "pocket")) if clean else None)
        cases += [
            (
                straight,
                Outcome((Event("hit", "cue", b), Event("pocket", b, pocket=ML))),
                "accepted",
            ),
            (straight, Outcome((Event("hit", "cue", b), Event("cushion", b))), "accepted"),
            (
                combo,
                Outcome(
                    (
                        Event("cushion", "cue"),
                        Event("hit", "cue", o),
                        Event("hit", o, b),
                        Event("pocket", b, pocket=ML),
                        Event("hit", "cue", 16 - b if 16 - b != b else 1),
                    )
                ),
                "accepted",
            ),
            (
                straight,
                Outcome(
                    (
                        Event("hit", "cue", b),
                        Event("pocket", b, pocket=ML),
                        Event("pocket", "cue", pocket=RN),
                    ),
                    frozenset({"г"}),
                ),
                "accepted",
            ),
            (None, Outcome((Event("cushion", "cue"),)), "none"),
        ]
    return st, cases


def rate(fn, n: int) -> float:
    t0 = time.perf_counter()
    fn(n)
    return n / (time.perf_counter() - t0)


def main() -> None:
    for settings in (Settings(), Settings(mode="ball_and_pocket")):
        st, cases = pool(settings)
        k = len(cases)

        def judge_only(n):
            for i in range(n):
                call, outcome, status = cases[i % k]
                judge(st, call, outcome, settings, call_status=status)

        def judge_apply(n):
            for i in range(n):
                call, outcome, status = cases[i % k]
                apply(st, judge(st, call, outcome, settings, call_status=status))

        def match_strokes(n):
            done = 0
            while done < n:
                m = Match(settings, ["A", "B"])
                for call, outcome, status in cases:
                    if done >= n or m.state.is_over:
                        break
                    if call is not None and call.ball not in m.state.on_table:
                        continue
                    m.stroke(call, outcome, call_status=status)
                    done += 1

        judge_only(2000)  # warm-up
        n = 200_000
        best = {
            name: max(rate(fn, n) for _ in range(3))
            for name, fn in (
                ("judge", judge_only),
                ("judge+apply", judge_apply),
                ("Match.stroke", match_strokes),
            )
        }
        for name, r in best.items():
            print(
                f"{settings.mode:16s} {name:13s} {r:>10,.0f} strokes/s  "
                f"(best of 3 x {n:,}; bar 50,000/s)"
            )


if __name__ == "__main__":
    main()
