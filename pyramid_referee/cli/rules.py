"""Subcommand of the rules area (see cli.py): ``rules [CODE…] [--json]``.

Prints the text of the clauses and policies verdicts cite (C2, P1б, Q10 …), one,
several or all, from the table in ``rules/clauses.py``.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..i18n import UserError, get_lang, tr
from ..rules.clauses import DEFAULT_PENALTY, SECTIONS, lookup, unknown_message


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommand to the main parser."""
    p = sub.add_parser(
        "rules",
        parents=[common],
        help=tr("the rules text: a clause by its code, or all"),
        description=tr(
            "Print the clauses the verdicts cite: calls (C), end of the game (E), penalties (P, "
            "with the lettered P1а–P1и) and the policies where the rules are silent (Q). Without "
            "codes, all of them."
        ),
    )
    p.add_argument(
        "codes",
        nargs="*",
        metavar=tr("CODE"),
        help=tr("a clause code, e.g. C2, P1б, Q10 (any case)"),
    )
    p.add_argument("--json", action="store_true", help=tr("the clauses as JSON lines on stdout"))
    p.set_defaults(handler=_rules)


def _rules(args: argparse.Namespace) -> int:
    lang = get_lang()
    codes = [c for arg in args.codes for c in arg.split(",") if c.strip()]
    found, unknown = lookup(codes)
    if unknown:
        if args.json:
            error = {
                "code": "unknown_clause",
                "unknown": unknown,
                "message": unknown_message(unknown, lang),
            }
            sys.stdout.write(json.dumps({"ok": False, "error": error}, ensure_ascii=False) + "\n")
            return 2
        raise UserError(unknown_message(unknown, lang))
    if args.json:
        sys.stdout.write(
            "".join(
                json.dumps(
                    {
                        **c.to_json(lang),
                        **({"lead": clause_lead(c.code)} if clause_lead(c.code) else {}),
                    },
                    ensure_ascii=False,
                )
                + "\n"
                for c in found
            )
        )
        return 0
    out: list[str] = []
    section = None
    for c in found:
        if not codes and c.section != section:  # all of them: under their section headings
            section = c.section
            out += (["", ""] if out else []) + [
                SECTIONS[section][1 if lang == "en" else 0].upper()
            ]
        out += ([""] if out else []) + [
            f"{c.code}. {c.title(lang)[0].upper()}{c.title(lang)[1:]}."
        ]
        if clause_lead(
            c.code
        ):  # a lettered case: what it is a case of, before the letter's own words
            out.append("   " + clause_lead(c.code))
        out.append("   " + c.text(lang))
        if c.settles:
            out.append(
                "   "
                + tr("Settles a question of: {settles}.").format(settles=", ".join(c.settles))
            )
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def clause_lead(code: str) -> str | None:
    """The lead a lettered case of P1 (P1а–P1и) stands under: it is a penalty stroke, and what the
    penalty is; None for any other clause."""
    if not (code.startswith("P1") and len(code) == 3):
        return None
    return tr(
        "A case of a penalty stroke (P1): the offender loses {penalty} points and the partner "
        "gains them (P2); a ball that fell with it is put back (P5)."
    ).format(penalty=DEFAULT_PENALTY)


def add_why_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--why",
        action="store_true",
        help=tr("under each verdict, the full text of the clauses it cites"),
    )
