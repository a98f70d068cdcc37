"""Subcommands of the calls area (see cli.py): parse, validate, explain."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..grammar import Call, explain, lookalikes, parse, render
from ..i18n import UserError, get_lang, os_reason, tr
from ..match.record import RECORD_HELP, check_record, is_record
from ..rules.messages import num
from .options import add_call_options, has_undecodable, read_text_lines


def _mode_args(p: argparse.ArgumentParser) -> None:
    add_call_options(p)
    p.add_argument("--json", action="store_true", help=tr("JSON output"))


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommands to the main parser."""
    p = sub.add_parser(
        "parse",
        parents=[common],
        help=tr("parse a call"),
        description=tr(
            "Parse a call: accepted (the structured call) or refused (the "
            "reason). Exit status 0 accepted, 1 refused."
        ),
    )
    p.add_argument("text", metavar=tr("TEXT"), help=tr("the call's text"))
    _mode_args(p)
    p.set_defaults(handler=_cmd_parse)

    v = sub.add_parser(
        "validate",
        parents=[common],
        help=tr("check a file of calls"),
        description=tr(
            "Check a file: one call a line (UTF-8). Blank lines and lines starting\n"
            "with '#' are skipped. A compiler-style report: FILE:LINE:COL: message,\n"
            "and a hint (the refusal codes: --json). Exit status 0 all accepted, 1 some refused, "
            "2 the\n"
            "file cannot be read.\n"
            "\n"
            "A game record (a .record or «.партия» file, or one whose first line is\n"
            "«Игроки: Иван, Пётр») is checked as a whole: a refused call not marked\n"
            "«(не принят)», an outcome that cannot happen, a running score that does\n"
            "not add up, the wrong player, a stroke after the end: each with its line,\n"
            "column and a hint. Exit status 0 no problems, 1 some. The record:\n"
        )
        + tr(RECORD_HELP),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    v.add_argument(
        "file", metavar=tr("FILE"), help=tr("a file of calls or a game record ('-' for stdin)")
    )
    _mode_args(v)
    v.set_defaults(handler=_cmd_validate)

    e = sub.add_parser(
        "explain",
        parents=[common],
        help=tr("explain how a call reads"),
        description=tr("How the call reads, its canonical phrasing, what to fix."),
    )
    e.add_argument("text", metavar=tr("TEXT"), help=tr("the call's text"))
    _mode_args(e)
    e.add_argument(
        "--svg",
        metavar=tr("OUT.svg"),
        default=None,
        help=tr(
            "also draw the call's route on the table into this SVG file (a refused "
            "call: the reason)"
        ),
    )
    e.set_defaults(handler=_cmd_explain)


def _check_text(text: str) -> None:
    if has_undecodable(text):
        raise UserError(tr("the call's text is not UTF-8: check the terminal's encoding"))


def _parse(text: str, args):
    _check_text(text)
    return parse(
        text, mode=args.mode, balls_left=args.balls_left, pocket_precision=args.pocket_precision
    )


def _cmd_parse(args) -> int:
    lang = get_lang()
    result = _parse(args.text, args)
    slips = lookalikes(args.text)  # never a silent repair: said in JSON as explain says it
    if isinstance(result, Call):
        out = {"ok": True, "call": result.to_json(), "canonical": render(result)}
        if slips:
            out["lookalikes"] = slips
        if args.json:
            print(json.dumps(out, ensure_ascii=False))
        else:
            print(tr("accepted: ") + out["canonical"])
            print(json.dumps(out["call"], ensure_ascii=False))
        return 0
    if args.json:
        out = {"ok": False, "error": result.to_json(lang)}
        if slips:
            out["lookalikes"] = slips
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(tr("refused: ") + result.message(lang))  # the code is for tools: --json
        print(tr("  how to say it: ") + result.hint(lang))
    return 1


def _cmd_validate(args) -> int:
    lang = get_lang()
    lines = read_text_lines(args.file)
    name = "<stdin>" if args.file == "-" else args.file
    if is_record(args.file, lines):
        _refuse_call_options_on_a_record(args, name)
        return _validate_record(name, lines, args.json, lang)
    out: list[str] = []
    checked = refused = json_like = 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        checked += 1
        json_like += stripped[0] in "{[" and stripped[-1] in "}]"
        result = _parse(line, args)
        if isinstance(result, Call):
            if args.json:
                out.append(_accepted_json(name, number, result))
            continue
        refused += 1
        out.extend(_refused_lines(name, number, line, result, lang, as_json=args.json))
        if len(out) > 2000:
            sys.stdout.write("\n".join(out) + "\n")
            out.clear()
    if not args.json:
        out.extend(_validate_summary(name, checked, refused, json_like))
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    return 1 if refused else 0


def _refuse_call_options_on_a_record(args, name: str) -> None:
    """A game record sets its own mode, pocket precision and balls: the options may not."""
    if (
        args.mode != "clean"
        or args.balls_left is not None
        or args.pocket_precision != "side_for_corners"
    ):
        raise UserError(
            tr(
                "{name}: this is a game record: its header lines ('Режим', 'Точность лузы', 'На "
                "столе') set the mode, the pocket precision and the balls on the table, not the "
                "command's options"
            ).format(name=name)
        )


def _accepted_json(name: str, number: int, call: Call) -> str:
    return json.dumps(
        {
            "file": name,
            "line": number,
            "ok": True,
            "call": call.to_json(),
            "canonical": render(call),
        },
        ensure_ascii=False,
    )


def _refused_lines(name: str, number: int, line: str, result, lang: str, *, as_json: bool):
    """A refused line as ``validate`` writes it: ``FILE:LINE:COL: why``, the line with a caret
    under the words and how to say it; or one JSON line."""
    col = result.span[0] + 1
    if as_json:
        return [
            json.dumps(
                {
                    "file": name,
                    "line": number,
                    "col": col,
                    "ok": False,
                    "error": result.to_json(lang),
                },
                ensure_ascii=False,
            )
        ]
    out = [f"{name}:{number}:{col}: {result.message(lang)}"]  # the code: --json
    if len(line) <= 200 and line.isprintable():  # the line and a caret under the words
        out.append(f"    {line}")
        out.append(
            "    " + " " * result.span[0] + "^" + "~" * max(0, result.span[1] - result.span[0] - 1)
        )
    out.append(tr("    how to say it: ") + result.hint(lang))
    return out


def _validate_summary(name: str, checked: int, refused: int, json_like: int) -> list[str]:
    """``validate``'s closing lines (not with --json): lines that look like JSON, the tally."""
    out = []
    if json_like:
        out.append(
            tr(
                "{name}: {json_like} lines look like JSON; validate reads call texts, one a line "
                "(replay reads a match script in JSON)"
            ).format(name=name, json_like=json_like)
        )
    out.append(
        tr("{name}: {checked} calls checked, {v} accepted, {refused} refused").format(
            name=name, checked=checked, v=checked - refused, refused=refused
        )
    )
    return out


def record_problem_lines(
    name: str, lines: list[str], problems, lang: str, as_json: bool
) -> list[str]:
    """A record's problems as ``validate`` writes them (``match import`` refuses a record with
    them so): ``FILE:LINE:COL: what``, the line and a caret under the column, the hint; or one
    JSON line each."""
    out: list[str] = []
    for p in problems:
        if as_json:
            out.append(
                json.dumps({"file": name, "ok": False, **p.to_json(lang)}, ensure_ascii=False)
            )
            continue
        out.append(f"{name}:{p.line}:{p.col}: {p.message(lang)}")
        line = lines[p.line - 1] if p.line <= len(lines) else ""
        if len(line) <= 200 and line.isprintable():
            out.append(f"    {line}")
            out.append("    " + " " * (p.col - 1) + "^")
        if p.hint(lang):
            out.append(tr("    hint: ") + p.hint(lang))
    return out


def _validate_record(name: str, lines: list[str], as_json: bool, lang: str) -> int:
    """A game record checked like a compiler: every problem with its line, column and hint."""
    checked = check_record(lines)
    out = record_problem_lines(name, lines, checked.problems, lang, as_json)
    strokes = len(checked.record.strokes)
    judged = 0 if checked.result is None else len(checked.result.rows)
    state = None if checked.result is None else checked.result.state
    if as_json:
        summary = {
            "file": name,
            "record": True,
            "ok": not checked.problems,
            "strokes": strokes,
            "judged": judged,
            "problems": len(checked.problems),
        }
        if state is not None:
            summary["scores"] = {
                state.players[0]: state.scores[0],
                state.players[1]: state.scores[1],
            }
            if checked.result.match.to_wins > 1:
                summary["series"] = checked.result.match.series_json()
        out.append(json.dumps(summary, ensure_ascii=False))
    else:
        text = tr(
            "{name}: a game record: {strokes} strokes, {judged} judged by the rules, {problems} "
            "problems"
        ).format(name=name, strokes=strokes, judged=judged, problems=len(checked.problems))
        if state is not None:
            p0, p1 = state.players
            text += tr("; score {p0} {scores} : {scores2} {p1}").format(
                p0=p0, scores=num(state.scores[0]), scores2=num(state.scores[1]), p1=p1
            )
            match = checked.result.match
            if match.to_wins > 1:  # a match of several партии: the games won too
                wins = match.wins()
                text += tr("; games {p0} {won0} : {won1} {p1} (a match to {n} wins)").format(
                    p0=p0, won0=wins[p0], won1=wins[p1], p1=p1, n=match.to_wins
                )
        out.append(text)
    sys.stdout.write("\n".join(out) + "\n")
    return 1 if checked.problems else 0


def _cmd_explain(args) -> int:
    lang = get_lang()
    _check_text(args.text)
    result = explain(
        args.text,
        mode=args.mode,
        balls_left=args.balls_left,
        lang=lang,
        pocket_precision=args.pocket_precision,
    )
    if args.svg is not None:
        # deferred: teaching loads only for drills and pictures
        from ..teach.diagram import call_svg, refusal_svg

        check_svg_path(args.svg, "--svg")
        picture = (
            call_svg(result.result, lang=lang, balls_left=args.balls_left)
            if result.ok
            else refusal_svg(result.result, lang=lang)
        )
        write_svg(args.svg, picture, "--svg")
    if args.json:
        out = result.to_json(lang)
        if args.svg is not None:
            out["svg"] = args.svg  # extension: the picture's file
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(result.render_text())
        if args.svg is not None:
            print(tr("Picture: {path}").format(path=args.svg))
    return 0 if result.ok else 1


def check_svg_path(path: str, option: str) -> None:
    """A picture is written only to a file named *.svg (never over a file of another kind)."""
    if Path(path).suffix.lower() != ".svg":
        raise UserError(
            tr("{option} {path}: the picture is an SVG file: give a name ending in «.svg»").format(
                option=option, path=path
            )
        )


def write_svg(path, text: str, option: str) -> None:
    """Write an SVG picture; a path that cannot be written is one clear line."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(
            tr("{option} {path}: cannot write ({exc})").format(
                option=option, path=path, exc=os_reason(exc)
            )
        ) from None
