"""Subcommands of the replay area (see cli.py): ``replay MATCH.jsonl [--json]``."""

from __future__ import annotations

import argparse
import json
import sys

from ..i18n import UserError, get_lang, tr, trl
from ..match.record import RECORD_HELP, check_record, is_record
from ..match.text import why_lines
from ..rules.messages import num
from .options import read_text_lines
from .rules import add_why_option


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommands to the main parser."""
    p = sub.add_parser(
        "replay",
        parents=[common],
        help=tr("judge a match script or a game record stroke by stroke"),
        description=tr(
            "Judge a match script (JSON lines) by the rules: one verdict a stroke, then the "
            'final state. The first line may be a header {"settings": …, "players": […], '
            '"start": …}, then one {"call": TEXT|null, "outcome": {…}} line a stroke. Exit '
            "status 0 judged, 2 a bad script (the line and the field are named)."
        ),
    )
    p.epilog = (
        tr(
            "A game record (a .record or «.партия» file, or one whose first line is «Игроки: …») "
            "is judged the same way; it must have none of the problems validate finds. "
            "The record:\n"
        )
        + tr(RECORD_HELP)
        + "\n"
    )
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument(
        "script",
        metavar=tr("MATCH.jsonl"),
        help=tr("the match script or game record ('-' for stdin)"),
    )
    p.add_argument(
        "--json",
        action="store_true",
        help=tr("JSON lines on stdout: a verdict a stroke, then the final state"),
    )
    add_why_option(p)
    p.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    from ..match.replay import ReplayError, replay_lines  # deferred: the replay engine

    lang = get_lang()
    lines = read_text_lines(args.script)
    if not any(
        line.strip() for line in lines
    ):  # nothing to judge: say so, not a 0 : 0 of players A and B
        raise UserError(
            tr("{script}: the script is empty: no header and no strokes").format(
                script=args.script
            )
        )
    if is_record(args.script, lines):
        result = _replay_record(args.script, lines, lang)
    else:
        try:
            result = replay_lines(lines)  # everything is judged before anything is printed
        except ReplayError as exc:
            raise UserError(f"{args.script}: {exc.text(lang)}") from None
    out = []
    if args.json:
        for row in result.rows:
            out.append(json.dumps(row.to_json(lang), ensure_ascii=False))
        out.append(json.dumps(result.final_json(), ensure_ascii=False))
    else:
        out.extend(report(result, lang, why=args.why))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _replay_record(path: str, lines: list[str], lang: str):
    """A written game record judged stroke by stroke; its first problem stops it, named like
    validate names it."""
    checked = check_record(lines)
    if checked.problems:
        p = checked.problems[0]
        more = len(checked.problems) - 1
        text = f"{path}:{p.line}:{p.col}: {p.message(lang)}"
        if p.hint(lang):
            text += tr(" (hint: {lang})").format(lang=p.hint(lang))
        if more:
            text += tr("; {more} more problems, «validate {path}» shows them all").format(
                more=more, path=path
            )
        raise UserError(text)
    return checked.result


def report(result, lang: str = "ru", why: bool = False) -> list[str]:
    """A readable report: one paragraph a stroke (who, the call, the outcome, the verdict and what
    its clause codes mean: their titles, or with ``why`` their full text), then the result."""
    # deferred: the outcome notation's parser loads only to read outcomes
    from ..rules.notation import render_outcome

    lines = []
    for i, row in enumerate(result.rows, 1):
        v = row.verdict
        if row.call_status == "none":
            head = trl(lang, "Stroke {i} (line {line}), {striker}: no call")
        elif row.call_status == "refused":
            head = trl(lang, "Stroke {i} (line {line}), {striker}: «{call}» refused: {why}")
        else:
            head = trl(lang, "Stroke {i} (line {line}), {striker}: {call}")
        call = row.call_text
        if row.call_status == "accepted":
            call = (
                f"«{row.call_text}»"
                if row.call_text
                else json.dumps(row.call.to_json(), ensure_ascii=False)
            )
        lines.append(
            head.format(
                i=i,
                line=row.line,
                striker=v.striker,
                call=call,
                why=(row.refusal or {}).get("message", ""),
            )
        )
        if row.outcome is not None:  # what happened, in the scorer's short notation
            lines.append(
                trl(lang, "  outcome: {outcome}").format(
                    outcome=render_outcome(row.outcome.to_json()) or "—"
                )
            )
        lines.append("  " + v.message(lang))
        lines.extend(
            "    " + line for line in why_lines(v.clauses, lang, why, result.match.settings)
        )
    st = result.state
    p = st.players
    score = f"{p[0]} {num(st.scores[0])} : {num(st.scores[1])} {p[1]}"
    if st.result is None:
        tail = trl(lang, "Score: {score}. Game not finished; {player} to play.")
    elif st.result.winner is not None:
        tail = trl(lang, "Score: {score}. {player} wins.")
    elif st.result.draw == "forced":
        tail = trl(lang, "Score: {score}. Forced draw.")
    else:
        tail = trl(lang, "Score: {score}. Draw.")
    winner = st.result.winner if st.result is not None else None
    lines.append(tail.format(score=score, player=winner if winner is not None else p[st.to_play]))
    match = result.match
    if match.to_wins > 1:  # a match of several партии: the games and the match score
        wins = match.wins()
        games = f"{p[0]} {wins[p[0]]} : {wins[p[1]]} {p[1]}"
        if match.decided:
            leader = max(wins, key=wins.get)
            lines.append(
                trl(lang, "Match to {n} wins: games {games}; {player} wins the match.").format(
                    n=match.to_wins, games=games, player=leader
                )
            )
        else:
            lines.append(
                trl(
                    lang,
                    "Match to {n} wins: games {games}; the match goes on, {player} breaks the "
                    "next game.",
                ).format(n=match.to_wins, games=games, player=p[match.upcoming.to_play])
                if st.result is not None
                else trl(lang, "Match to {n} wins: games {games}; the match goes on.").format(
                    n=match.to_wins, games=games
                )
            )
    return lines
