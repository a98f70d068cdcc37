"""The command line: one argparse parser; each area registers its own subcommands.

- ``cli_calls``: parse, validate, explain (the call language)
- ``cli_replay``: replay (a match script through the rules engine)
- ``cli_match``: match new/list/show/resume, undo, redo, export, stats, play (the match store)
- ``cli_strikes``: strikes (the strike detector alone)
- ``cli_voice``: timeline, listen, transcribe, model (the voice referee)

A subcommand's handler returns the exit status. Errors a user can cause derive
from ``UserError`` (or the subpackages' own error bases, listed in
``USER_ERRORS``) and are printed as one clear line with exit status 2, never as
a traceback.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__, cli_calls, cli_match, cli_replay, cli_strikes, cli_voice
from .i18n import UserError, set_lang, tr

AREAS = (cli_calls, cli_replay, cli_match, cli_strikes, cli_voice)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        # SUPPRESS: a subcommand's copy of --lang must not reset one given before it.
        "--lang", choices=("ru", "en"), default=argparse.SUPPRESS,
        help="language of messages (default: ru) / язык сообщений",
    )
    parser = argparse.ArgumentParser(
        prog="pyramid-referee",
        description="Голосовой судья и проверка заказов для русской пирамиды (71 очко). "
        "Voice referee and call checker for the 71-point Russian pyramid.",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for area in AREAS:
        area.register(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
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
        print(tr("прервано", "interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except UserError as exc:
        print(f"pyramid-referee: {tr('ошибка', 'error')}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
