"""What several command-line areas share: how a call is read, and how an input file is read.

``--mode``, ``--balls-left`` and ``--pocket-precision`` mean the same wherever a
call is parsed (``parse``, ``validate``, ``explain``, ``timeline``, ``transcribe``);
they are declared once here. ``read_text_lines`` reads the text file (or stdin,
``-``) that ``validate``, ``replay`` and ``timeline`` take, with one clear message for
each way that fails.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..i18n import UserError, os_reason, tr

MODES = ("clean", "ball-and-pocket", "ball_and_pocket")
POCKET_PRECISIONS = ("side_for_corners", "any")


def balls_left(value: str) -> list[int]:
    """``--balls-left 1,5,12`` → [1, 5, 12]; a bad value is a usage error."""
    try:
        balls = [int(x) for x in value.replace(" ", "").split(",") if x]
    except ValueError:
        raise argparse.ArgumentTypeError(
            tr("expected ball numbers separated by commas, e.g. 1,5,12; got {value!r}").format(
                value=value
            )
        ) from None
    if not balls:
        raise argparse.ArgumentTypeError(tr("no ball named"))
    bad = [b for b in balls if not 1 <= b <= 15]
    if bad:
        raise argparse.ArgumentTypeError(tr("balls are 1 to 15, not {bad}").format(bad=bad[0]))
    return balls


def add_call_options(p: argparse.ArgumentParser) -> None:
    """--mode, --balls-left, --pocket-precision: how the call is read (C1, C5, Q2, Q9)."""
    p.add_argument(
        "--mode",
        choices=MODES,
        default="clean",
        help=tr("clean designation (default, Q9) or ball and pocket (C7)"),
    )
    p.add_argument(
        "--balls-left",
        type=balls_left,
        default=None,
        metavar="1,2,…",
        help=tr("object balls left on the table (C5: a single one need not be named)"),
    )
    p.add_argument(
        "--pocket-precision",
        choices=POCKET_PRECISIONS,
        default="side_for_corners",
        help=tr(
            "pocket precision (Q2): side_for_corners, a corner needs its side "
            "(default); any, «в угол» without a side is accepted"
        ),
    )


def add_players_option(p: argparse.ArgumentParser) -> None:
    """``--players Иван Пётр``: the same form in ``play``, ``match new`` and ``listen``.

    Two names; one argument «Иван,Пётр» (the form ``listen`` took before) is read as two."""
    p.add_argument(
        "--players",
        nargs="+",
        default=None,
        metavar=tr("NAME"),
        help=tr("the two players of a new match: --players Ivan Petr"),
    )


def players_from(values: list[str] | None) -> list[str] | None:
    """The two names given with ``--players`` (or None); anything else is a ``UserError``."""
    if values is None:
        return None
    if any(has_undecodable(v) for v in values):
        raise UserError(tr("--players: the text is not UTF-8: check the terminal's encoding"))
    names = [n.strip() for n in values]
    if len(names) == 2 and not all(names):  # «--players "" Пётр»: two given, one of them empty
        raise UserError(
            tr("--players: a name may not be empty (got: {got})").format(
                got=", ".join(f"«{n}»" for n in names)
            )
        )
    if any("," in n for n in names):  # «Иван,Пётр» or «Иван, Пётр»: the comma separates the names
        names = [n.strip() for n in " ".join(names).split(",")]
    if len(names) != 2 or not all(names):
        got = ", ".join(f"«{n}»" for n in names) or "—"
        raise UserError(
            tr(
                "--players: exactly two names are needed, e.g. --players Ivan Petr (got: {got})"
            ).format(got=got)
        )
    if names[0] == names[1]:
        raise UserError(
            tr("--players: the two players need different names (both «{names}»)").format(
                names=names[0]
            )
        )
    for n in names:  # the game record writes «Иван: …», «Игроки: Иван, Пётр», «# …», «… | …»
        bad = next((ch for ch in ",:|#" if ch in n), None)
        if bad:
            raise UserError(
                tr(
                    "--players: a name may not hold «{char}» (it separates the parts of a game "
                    "record): «{name}»"
                ).format(char=bad, name=n)
            )
    return names


def match_id(value: str) -> int:
    """A match number (``match show 3``, ``--match 3``): a whole number from 1."""
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(
            tr("a match number is a whole number from 1 (see match list), not {value!r}").format(
                value=value
            )
        )
    return n


MAX_TO_WINS = 99  # rules.match.MAX_TO_WINS


def to_wins(value: str) -> int:
    """``--to-wins N``: the games (партии) a match is won with, 1 to 99."""
    try:
        n = int(value)
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_TO_WINS:
        raise argparse.ArgumentTypeError(
            tr("expected a whole number from 1 to {MAX_TO_WINS}, got {value!r}").format(
                MAX_TO_WINS=MAX_TO_WINS, value=value
            )
        )
    return n


def add_to_wins_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--to-wins",
        type=to_wins,
        default=1,
        metavar=tr("N"),
        help=tr(
            "a match to N won games, 1 to {MAX_TO_WINS} (default 1: one game); the "
            "break alternates between games"
        ).format(MAX_TO_WINS=MAX_TO_WINS),
    )


def has_undecodable(text: str) -> bool:
    """True when text holds bytes that were not UTF-8 (Python keeps them as lone surrogates)."""
    return any("\udc80" <= ch <= "\udcff" for ch in text)


def read_text_lines(path: str) -> list[str]:
    """The lines of a UTF-8 text file, or of stdin for ``-``; a BOM is dropped.

    A missing file, a folder, an unreadable file or bytes that are not UTF-8 are a
    ``UserError`` naming the file (and the line of the first bad byte)."""
    name = tr("standard input") if path == "-" else path
    try:
        if path == "-":
            data = (
                sys.stdin.buffer.read()
                if hasattr(sys.stdin, "buffer")
                else sys.stdin.read().encode("utf-8", "surrogateescape")
            )
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except FileNotFoundError:
        raise UserError(tr("{name}: no such file").format(name=name)) from None
    except IsADirectoryError:
        raise UserError(tr("{name}: is a directory, not a file").format(name=name)) from None
    except OSError as exc:
        raise UserError(
            tr("{name}: cannot read: {exc}").format(name=name, exc=os_reason(exc))
        ) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UserError(
            tr("{name}:{line}: not UTF-8 text (byte {start})").format(
                name=name, line=line, start=exc.start
            )
        ) from None
    return text.splitlines()


def print_input_devices(devices, *, as_json: bool = False) -> int:
    """``--list-devices`` of ``strikes`` and ``listen``, the same in both: one line a device (the
    default marked «*»: its index for ``--device``, name, host API, channels, rate) or one JSON
    list; none found is said with what to check. Exit status 0: the listing itself succeeded."""
    if as_json:
        print(json.dumps([dict(d.__dict__) for d in devices], ensure_ascii=False))
        return 0
    if not devices:
        print(
            tr(
                "no input devices (microphones) found: "
                "plug one in or check that the system sees it (arecord -l)"
            )
        )
        return 0
    for d in devices:
        mark = "*" if d.is_default else " "
        print(
            f"{mark} {d.index:3d}  {d.name}  ({d.hostapi}, {d.max_input_channels} ch, "
            f"{d.default_samplerate:g} Hz)"
        )
    return 0
