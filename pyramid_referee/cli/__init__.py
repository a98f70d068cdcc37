"""The command line: one argparse parser; each area registers its own subcommands.

- ``calls``: parse, validate, explain (the call language)
- ``drill``: drill (learners phrase calls; mistakes explained)
- ``replay``: replay (a match script through the rules engine)
- ``match``: match new/list/show/resume, undo, redo, stats, play (the match store)
- ``export``: export (a stored match as JSON, CSV, a replay script or a game record)
- ``strikes``: strikes (the strike detector alone)
- ``voice``: timeline, listen, transcribe, model (the voice referee)
- ``rules``: rules (the text of the clauses verdicts cite)
- ``club``: club register, club status (the club server, PostgreSQL)
- ``serve``: serve (the scoreboard, the marker's pad and the JSON API in a browser; the
  pages: web/)

A subcommand's handler returns the exit status. Errors a user can cause derive
from one of the roots in ``USER_ERRORS`` and are caught in one place, ``main()``:
printed as one clear line with exit status 2, never as a traceback. Each package has
one root: ``UserError`` for the shell (the store, the club, a match script, an events
file, the teaching page), ``GrammarError`` for the call language (a bad mode or
``balls_left``), ``VoiceError`` for the voice (the model, the microphone, an audio
file, a table profile). The rules engine's ``RulesError`` is not among them: input the
engine refuses is told where it was typed (``match.session``), so one reaching
``main()`` is a fault, shown as such.
"""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..grammar.errors import GrammarError
from ..i18n import ArgumentParser, UserError, set_lang, tr
from ..voice.errors import VoiceError
from . import (
    calls as cli_calls,
    club as cli_club,
    drill as cli_drill,
    export as cli_export,
    match as cli_match,
    replay as cli_replay,
    rules as cli_rules,
    serve as cli_serve,
    strikes as cli_strikes,
    voice as cli_voice,
)

USER_ERRORS: tuple[type[Exception], ...] = (UserError, GrammarError, VoiceError)

AREAS = (
    cli_calls,
    cli_drill,
    cli_replay,
    cli_match,
    cli_export,
    cli_strikes,
    cli_voice,
    cli_rules,
    cli_club,
    cli_serve,
)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        # SUPPRESS: a subcommand's copy of --lang must not reset one given before it.
        "--lang",
        choices=("ru", "en"),
        default=argparse.SUPPRESS,
        help=tr("language of messages: ru (default) or en"),
    )
    parser = ArgumentParser(  # argparse's own words (usage, errors) in the language too
        prog="pyramid-referee",
        description=tr("Voice referee and call checker for the 71-point Russian pyramid."),
        parents=[common],
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help=tr("show the program's version and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar=tr("COMMAND"))
    for area in AREAS:
        area.register(sub, common)
    return parser


def _lang_in(argv: list[str]) -> str:
    """The --lang asked for on the command line, read before the parser is built
    so that the help texts (written with ``tr``) come in that language too."""
    lang = "ru"
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
    return lang if lang in ("ru", "en") else "ru"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    set_lang(_lang_in(argv))
    parser = build_parser()
    args = parser.parse_args(argv)
    set_lang(getattr(args, "lang", None) or "ru")
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        print(tr("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except USER_ERRORS as exc:
        print("pyramid-referee: " + tr("error") + f": {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
