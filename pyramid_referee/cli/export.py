"""The ``export`` subcommand (see cli.py): a stored match written out for the people and
tools that use it.

Formats (``match.report`` writes them):

- ``json``: the whole stored match (the strokes with their verdicts and states);
- ``csv``: one row a stroke, as Russian Excel opens it as is (UTF-8 with a BOM, «;»
  between the cells, a decimal comma), the headers in the language of ``--lang``;
- ``script``: JSON lines for ``replay``, the calls in the players' own words;
- ``record``: the written game record (``record.py``), which ``validate`` checks and
  ``replay`` judges.

``-o FILE`` writes the format its extension names (``EXTENSIONS``); an unknown
extension is refused, naming the accepted ones, unless ``--format`` says which; a
``--format`` that contradicts the extension is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..i18n import UserError, get_lang, os_reason, tr

FORMATS = ("json", "csv", "script", "record")
#: -o FILE: the extension → the format written.
EXTENSIONS = {
    ".json": "json",
    ".csv": "csv",
    ".jsonl": "script",
    ".record": "record",
    ".партия": "record",
    ".txt": "record",
}


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommand to the main parser."""
    p = sub.add_parser(
        "export",
        parents=[common],
        help=tr(
            "export a match: JSON, a spreadsheet for Excel, a script for replay or a game record"
        ),
        description=tr(
            "Export a stored match. Formats: json, the whole match; csv, one row a stroke, a "
            "spreadsheet Russian Excel opens as is; script, JSON lines for replay, the calls in "
            "the players' own words; record, the game record that validate checks and replay "
            "judges. With -o FILE the format follows the extension: {extensions}; --format is "
            "needed only for another extension and must not contradict it."
        ).format(extensions=_extensions_text()),
    )
    p.add_argument(
        "--db",
        metavar=tr("PATH"),
        default=None,
        help=tr("the match database (default: $PYRAMID_REFEREE_DB or the user data directory)"),
    )
    p.add_argument(
        "--json", action="store_true", help=argparse.SUPPRESS
    )  # accepted as before; the format is --format
    p.add_argument("id", type=int, metavar=tr("ID"), help=tr("the match number (see match list)"))
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help=tr("json (default), csv, script or record; with -o, from the file's extension"),
    )
    p.add_argument("-o", "--output", metavar=tr("FILE"), help=tr("write here instead of stdout"))
    p.set_defaults(handler=cmd_export)


def _extensions_text() -> str:
    return ", ".join(f"«{ext}» → {fmt}" for ext, fmt in EXTENSIONS.items())


def output_format(output: str | None, asked: str | None) -> str:
    """The format to write: the one the extension of ``output`` names, or ``asked``;
    a ``UserError`` for an unknown extension without ``--format`` and for a contradiction."""
    if output is None:
        return asked or "json"
    ext = Path(output).suffix.lower()
    named = EXTENSIONS.get(ext)
    if named is None:
        if asked:
            return asked
        accepted = ", ".join(f"«{e}»" for e in EXTENSIONS)
        if not ext:
            raise UserError(
                tr(
                    "-o {output}: the file has no extension to tell the format; extensions: "
                    "{accepted} (or give --format)"
                ).format(output=output, accepted=accepted)
            )
        raise UserError(
            tr(
                "-o {output}: unknown extension '{ext}'; known: {accepted} (or give --format)"
            ).format(output=output, ext=ext, accepted=accepted)
        )
    if asked and asked != named:
        raise UserError(
            tr(
                "-o {output}: the extension '{ext}' means {named}, yet --format is {asked}; drop "
                "--format or change the extension"
            ).format(output=output, ext=ext, named=named, asked=asked)
        )
    return named


def cmd_export(args) -> int:
    # deferred: the reports
    from ..match.report import export_csv, export_json, export_record, export_script
    from ..match.store import Store  # deferred: the store (sqlite3)

    fmt = output_format(args.output, args.format)  # refused before the database is opened
    with Store(
        args.db, create=False, lang=get_lang()
    ) as store:  # exporting reads: it never makes a database
        if fmt == "csv":
            text = export_csv(store, args.id, get_lang())
        elif fmt == "script":
            text = export_script(store, args.id)
        elif fmt == "record":
            text = export_record(store, args.id)
        else:
            text = json.dumps(export_json(store, args.id), ensure_ascii=False, indent=1) + "\n"
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UserError(
                tr("-o {output}: cannot write ({exc})").format(
                    output=args.output, exc=os_reason(exc)
                )
            ) from None
    else:
        sys.stdout.write(text)
    return 0
