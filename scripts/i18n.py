#!/usr/bin/env python3
"""The shell's message catalog: extract the messages from the code, keep the Russian
texts, compile.

    python scripts/i18n.py update    # messages of the code → ru .po (new ones untranslated,
                                     # gone ones dropped)
    python scripts/i18n.py compile   # ru .po → ru .mo (what the program reads)
    python scripts/i18n.py check     # exit 1 when a message has no Russian text or the .mo
                                     # is stale

Messages are written in English in the code as ``trl(lang, "…")``, ``trn("…", "…", n, lang)``,
``N_("…")`` or, in the command line, ``tr("…")`` (see ``pyramid_referee/catalog.py``, the one
module that reads the compiled catalog); the Russian text of each is in
``pyramid_referee/locale/ru/LC_MESSAGES/pyramid_referee.po``. Needs Babel (the test extra).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "pyramid_referee" / "locale" / "ru" / "LC_MESSAGES" / "pyramid_referee.po"
MO = PO.with_suffix(".mo")
# Where messages are written: the shell (tr, trn, N_) and the subpackages (trl:
# the language first).
SOURCES = ("pyramid_referee", "grammar", "rules", "voice")
KEYWORDS = {"tr": None, "trn": (1, 2), "N_": None, "trl": (2,)}


def extract():
    """{msgid (str or (singular, plural)): [(file, line), …]} of every message in the code."""
    from babel.messages.extract import extract_from_dir

    found: dict = {}
    for folder in SOURCES:
        for filename, lineno, message, _comments, _context in extract_from_dir(
            str(ROOT / folder),
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=(),
            strip_comment_tags=True,
        ):
            if not message or (isinstance(message, tuple) and not all(message)):
                continue
            found.setdefault(message, []).append((f"{folder}/{filename}", lineno))
    return found


def read_po():
    from babel.messages.pofile import read_po

    with open(PO, "rb") as f:
        return read_po(f, locale="ru")


def new_catalog():
    from datetime import datetime, timezone

    from babel.messages.catalog import Catalog

    fixed = datetime(2026, 1, 1, tzinfo=timezone.utc)  # no date churn in the file on each update
    return Catalog(
        locale="ru",
        domain="pyramid_referee",
        project="pyramid-referee",
        version="1",
        header_comment=(
            "# The Russian texts of pyramid-referee's messages "
            "(msgid: the English text in the code).\n"
            "# Edit the msgstr lines; then run: python scripts/i18n.py compile"
        ),
        msgid_bugs_address="",
        copyright_holder="",
        last_translator="pyramid-referee",
        language_team="pyramid-referee",
        creation_date=fixed,
        revision_date=fixed,
        fuzzy=False,
    )


def update(translations: dict | None = None) -> tuple[int, int]:
    """Rewrite the .po from the code's messages, keeping every existing Russian text.

    ``translations`` ({msgid: Russian}) fills messages the catalog does not have yet."""
    from babel.messages.pofile import write_po

    old = read_po() if PO.exists() else new_catalog()
    cat = new_catalog()
    missing = 0
    for msgid, locations in sorted(extract().items(), key=lambda kv: kv[1][0]):
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        prev = old.get(key)
        text = prev.string if prev is not None else (translations or {}).get(key, "")
        if isinstance(msgid, tuple) and not isinstance(text, tuple):
            text = (text,) * 3 if text else ("", "", "")
        if not text or (isinstance(text, tuple) and not all(text)):
            missing += 1
        cat.add(msgid, text, locations=locations)
    PO.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=False, no_location=False)
    PO.write_bytes(buf.getvalue())
    return len(cat), missing


def compiled() -> bytes:
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, read_po(), use_fuzzy=False)
    return buf.getvalue()


def hidden_in_fstrings() -> list[str]:
    """Messages looked up inside an f-string: Babel cannot see them there, so they would never
    reach the catalog (and would show in English)."""
    import ast

    out = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.JoinedStr):
                    for call in ast.walk(node):
                        if (
                            isinstance(call, ast.Call)
                            and isinstance(call.func, ast.Name)
                            and call.func.id in KEYWORDS
                        ):
                            out.append(
                                f"{path.relative_to(ROOT)}:{node.lineno}: a message inside an "
                                f"f-string: {ast.unparse(call)}"
                            )
    return out


def doubled_braces() -> list[str]:
    """Messages with ``{{``/``}}`` that are never ``.format``-ed: the reader
    would see both braces."""
    import ast

    out = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            formatted = {
                id(node.value)
                for node in ast.walk(tree)
                if isinstance(node, ast.Attribute) and node.attr == "format"
            }
            for node in ast.walk(tree):
                # N_ marks a message formatted later, where it is looked up: only
                # immediate lookups here
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("tr", "trl")
                    and node.args
                    and isinstance(node.args[-1], ast.Constant)
                    and isinstance(node.args[-1].value, str)
                    and id(node) not in formatted
                    and "{{" in node.args[-1].value
                ):
                    out.append(
                        f"{path.relative_to(ROOT)}:{node.lineno}: doubled braces in a message "
                        f"that is not formatted: {node.args[-1].value[:60]!r}"
                    )
    return out


def foreign_placeholders(cat) -> list[str]:
    """Russian texts naming a placeholder their English message does not have: such a value can
    only come from a second, Russian-only argument at the call site (compute it in the reader's
    language instead, and use one placeholder)."""
    from string import Formatter

    def names(text: str) -> set[str]:
        try:
            return {
                n.split(".")[0].split("[")[0].split("!")[0]
                for _, n, _, _ in Formatter().parse(text)
                if n
            }
        except ValueError:  # not a str.format template (argparse's %-messages)
            return set()

    out = []
    for msg in cat:
        if not msg.id:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        texts = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        allowed = set().union(*(names(i) for i in ids))
        for text in texts:
            extra = names(text) - allowed
            if extra:
                out.append(f"the Russian text names {sorted(extra)}, which {ids[0]!r} has not")
    return out


def problems() -> list[str]:
    """What is wrong with the catalog: messages without Russian text, stale
    entries, a stale .mo."""
    out = []
    cat = read_po()
    code = extract()
    in_code = {m[0] if isinstance(m, tuple) else m for m in code}
    for msg in cat:
        if not msg.id:
            continue
        if (
            msg.id[0] if isinstance(msg.id, tuple) else msg.id
        ) not in in_code:  # a plural's id is a pair
            out.append(f"in the catalog, not in the code: {msg.id!r}")
        elif not msg.string or (isinstance(msg.string, tuple) and not all(msg.string)):
            out.append(f"no Russian text: {msg.id!r}")
        elif msg.fuzzy:
            out.append(f"marked fuzzy: {msg.id!r}")
    out += foreign_placeholders(cat)
    have = {m.id for m in cat if m.id}
    for key in sorted(in_code - {k[0] if isinstance(k, tuple) else k for k in have}, key=str):
        out.append(f"in the code, not in the catalog: {key!r} ({code.get(key, [('?', 0)])[0]})")
    out += hidden_in_fstrings() + doubled_braces()
    if not MO.exists() or MO.read_bytes() != compiled():
        out.append(
            f"{MO.relative_to(ROOT)} is not the compiled {PO.name}: run scripts/i18n.py compile"
        )
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cmd = argv[0] if argv else "check"
    if cmd == "update":
        n, missing = update()
        print(f"{n} messages in {PO.relative_to(ROOT)}; {missing} without Russian text")
        return 0
    if cmd == "compile":
        MO.write_bytes(compiled())
        print(f"compiled → {MO.relative_to(ROOT)}")
        return 0
    if cmd == "check":
        found = problems()
        for p in found:
            print(p)
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
