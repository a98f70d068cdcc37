"""Subcommands of the drill area (see cli.py): ``drill``, learners phrase calls.

The loop: show an exercise, read an answer, grade it (drill.py), explain, next.
``?``/``подсказка`` gives a hint, ``ответ`` the canonical answer, ``q``/``выход``
or end of input ends with a summary. From a pipe there is no prompt; ``--json``
prints one object per graded answer and a final summary object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from ..i18n import UserError, get_lang, os_reason, tr
from ..rules.settings import mode_setting
from .calls import write_svg
from .options import MODES, POCKET_PRECISIONS, has_undecodable

HINT_WORDS = {"?", "подсказка", "hint"}
ANSWER_WORDS = {"ответ", "answer"}
QUIT_WORDS = {"q", "выход", "quit", "exit"}
MAX_COUNT = 1000


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommands to the main parser."""
    p = sub.add_parser(
        "drill",
        parents=[common],
        help=tr("drills: phrase the call for a described shot"),
        description=tr(
            "Drills: a shot is described in words; say its call. The answer is checked by "
            "parsing it (any correct word order counts) and mistakes are explained. '?' or "
            "'hint' gives a hint, 'answer' shows the answer, 'q' or 'quit' (or Ctrl-D) ends with "
            "a summary."
        ),
    )
    p.add_argument(
        "--level",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help=tr(
            "level: 1 straight in, 2 off a cushion, abricole, off a ball; 3 "
            "combinations, carom, several cushions, the last ball (default 1)"
        ),
    )
    p.add_argument(
        "--count",
        type=int,
        default=10,
        metavar=tr("N"),
        help=tr("how many exercises (default 10)"),
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar=tr("S"),
        help=tr("seed: the same seed gives the same exercises"),
    )
    p.add_argument(
        "--mode",
        choices=MODES,
        default="clean",
        help=tr("clean designation (default, Q9) or ball and pocket (C7)"),
    )
    p.add_argument(
        "--pocket-precision",
        choices=POCKET_PRECISIONS,
        default="side_for_corners",
        help=tr("pocket precision (Q2), as for parse"),
    )
    p.add_argument(
        "--json", action="store_true", help=tr("JSON: an object per answer and a summary")
    )
    p.add_argument(
        "--show",
        type=int,
        default=None,
        metavar=tr("N"),
        help=tr("print N exercises with their answers (for handouts) and exit"),
    )
    p.add_argument(
        "--svg",
        metavar=tr("DIR"),
        default=None,
        help=tr(
            "draw each exercise's shot into DIR (exercise-01.svg, …): the learner "
            "sees the shot and says the call"
        ),
    )
    p.set_defaults(handler=_cmd_drill)


def _check_count(n: int, option: str) -> None:
    if not 1 <= n <= MAX_COUNT:
        raise UserError(
            tr("{option}: expected a number from 1 to {MAX_COUNT}, not {n}").format(
                option=option, MAX_COUNT=MAX_COUNT, n=n
            )
        )


def _emit(obj: dict) -> None:
    print(json.dumps(obj, ensure_ascii=False), flush=True)


def _cmd_drill(args) -> int:
    from ..teach import drill  # deferred: the drill generator is loaded only when a drill runs

    lang = get_lang()
    _check_count(args.count, "--count")
    if args.show is not None:
        _check_count(args.show, "--show")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    exercises = drill.generate(
        seed, args.level, args.show or args.count, mode_setting(args.mode), args.pocket_precision
    )
    pictures = write_drill_svgs(exercises, args.svg, lang) if args.svg is not None else {}
    if args.show is not None:
        for ex in exercises:
            if args.json:
                item = {
                    "exercise": ex.to_json(lang),
                    "expected": ex.expected.to_json(),
                    "canonical": ex.canonical,
                }
                if ex.index in pictures:
                    item["svg"] = pictures[ex.index]  # extension: the shot's picture
                _emit(item)
            else:
                print(
                    ex.prompt(lang)
                    + _picture_line(pictures, ex)
                    + "\n"
                    + tr("Answer: ")
                    + f"«{ex.canonical}»\n"
                )
        return 0
    interactive = sys.stdin.isatty() and not args.json
    if interactive:
        print(
            tr(
                "Drills, level {level}, seed {seed}. '?' hint, 'answer' the answer, 'q' quit."
            ).format(level=args.level, seed=seed)
        )
    grades, asked, revealed = [], 0, 0
    for ex in exercises:
        asked += 1
        if not args.json:
            print(
                ("\n" if interactive else "") + ex.prompt(lang) + _picture_line(pictures, ex),
                flush=True,
            )
        outcome = _ask(ex, lang, interactive, args.json)
        if outcome == "quit":
            asked -= 1
            break
        if outcome == "revealed":
            revealed += 1
        elif outcome is not None:
            grades.append(outcome)
        if outcome is None:  # end of input
            asked -= 1
            break
    summary = drill.summarize(grades, asked, revealed, lang)
    summary["seed"] = seed
    if args.json:
        _emit({"summary": summary})
    else:
        print(("\n" if interactive else "") + drill.summary_text(summary, lang))
    return 0


def _picture_line(pictures: dict, ex) -> str:
    return (
        "\n" + tr("Picture: {path}").format(path=pictures[ex.index])
        if ex.index in pictures
        else ""
    )


def write_drill_svgs(exercises, folder: str, lang: str) -> dict[int, str]:
    """Each exercise's picture as FOLDER/exercise-NN.svg (the folder made if missing):
    {exercise index: path}. A folder that cannot be made or written is one clear line."""
    from ..teach.drill import drill_svg  # deferred: the drawing is loaded only for --svg

    out = Path(folder)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(
            tr("--svg {path}: cannot make the folder ({exc})").format(
                path=folder, exc=os_reason(exc)
            )
        ) from None
    width = max(2, len(str(len(exercises))))
    written = {}
    for ex in exercises:
        path = out / f"exercise-{ex.index:0{width}d}.svg"
        write_svg(path, drill_svg(ex, lang), "--svg")
        written[ex.index] = str(path)
    return written


def _read(interactive: bool) -> str | None:
    """One answer line; None at the end of input."""
    try:
        line = input("> ") if interactive else sys.stdin.readline()
    except (EOFError, KeyboardInterrupt):
        if interactive:
            print()
        return None
    if not interactive and line == "":
        return None
    return line.strip()


def _ask(ex, lang: str, interactive: bool, as_json: bool):
    """Read answers to one exercise until one is graded: a Grade, "revealed", "quit" or
    None (no more input)."""
    from ..teach import drill  # deferred, as in _cmd_drill

    while True:
        line = _read(interactive)
        if line is None:
            return None
        word = line.lower()
        if not line:
            continue
        if word in QUIT_WORDS:
            return "quit"
        if has_undecodable(line):
            msg = tr("the answer is not UTF-8: check the terminal's encoding")
            _emit({"exercise": ex.index, "error": msg}) if as_json else print(msg, flush=True)
            continue
        if word in HINT_WORDS:
            _emit({"exercise": ex.index, "hint": ex.hint(lang)}) if as_json else print(
                tr("Hint: ") + ex.hint(lang), flush=True
            )
            continue
        if word in ANSWER_WORDS:
            _emit(
                {"exercise": ex.index, "revealed": ex.canonical, "expected": ex.expected.to_json()}
            ) if as_json else print(tr("Answer: ") + f"«{ex.canonical}»", flush=True)
            return "revealed"
        grade = drill.grade(ex, line, lang)
        if as_json:
            _emit(grade.to_json(ex))
        else:
            print(grade.render_text(), flush=True)
        return grade
