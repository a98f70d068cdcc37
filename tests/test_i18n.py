"""The message catalog and the Russian messages: every message has its Russian text, the compiled
catalog is up to date, and no Russian message carries a Latin word outside quoted input."""

from __future__ import annotations

import ast
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import i18n as catalog_tool  # noqa: E402  (scripts/i18n.py)

from pyramid_referee import i18n  # noqa: E402

# What a Russian message may show in Latin letters: the clause codes the verdicts cite (C2, P1б,
# Q10), options and commands the user types, key names as printed on the keys, and a few names
# the user must know to install or to open a file.
CLAUSE = re.compile(r"\b[CPQE]\d+[а-я]?\b")
OPTION = re.compile(r"(?<![\w-])--?[a-z][\w-]*")
QUOTED = re.compile(r"«[^«»]*»|\"[^\"\n]*\"|'[^'\n]*'|`[^`]*`|\{[^{}]*\}|%\([a-z_]+\)[rsd]|%[rsd]")
ALLOWED = {
    "Vosk",
    "WAV",
    "CSV",
    "JSON",
    "PIN",
    "SVG",
    "PNG",
    "UTF",
    "Enter",
    "Esc",
    "Excel",
    "PulseAudio",
    "ALSA",
    "Debian",
    "Ubuntu",
    "Linux",
    "Windows",
    "ARM64",
    "x86",
    "RNNoise",  # the speech denoiser the strike decision reads (a name, as Vosk is)
    "https",
    "HTTPS",
}  # the page the tablet opens: browsers give the microphone only there
KEYS = re.compile(r"\bCtrl-[A-Z]\b")
EXTENSION = re.compile(r"\.(svg|jsonl|json|wav|png|csv|record|txt)\b")  # a file's type, as typed
LATIN = re.compile(r"[A-Za-z][A-Za-z_0-9]*(?:[.\[][A-Za-z_0-9\]]+)*")
PROGRAM = "pyramid-referee"


def latin_words(text: str, inputs: tuple[str, ...] = ()) -> list[str]:
    """The Latin words of a Russian text outside quotes, placeholders, options and given inputs."""
    for s in sorted(inputs, key=len, reverse=True):
        if s:
            text = text.replace(s, " ")
    text = "\n".join(
        line
        for line in text.replace(PROGRAM, " ").splitlines()
        if not line.startswith(("использование:", " " * 20))
    )  # argparse's usage: syntax
    text = OPTION.sub(
        " ", CLAUSE.sub(" ", KEYS.sub(" ", EXTENSION.sub(" ", QUOTED.sub(" ", text))))
    )
    return [w for w in LATIN.findall(text) if w not in ALLOWED]


def test_every_message_in_the_code_has_its_russian_text_and_the_compiled_catalog_is_fresh():
    assert catalog_tool.problems() == []


def test_no_russian_text_in_the_catalog_carries_a_latin_word():
    bad = []
    for msg in catalog_tool.read_po():
        if not msg.id:
            continue
        for text in msg.string if isinstance(msg.string, tuple) else (msg.string,):
            if latin_words(text):
                bad.append((latin_words(text), text))
    assert bad == []


def test_the_catalog_speaks_russian_by_default_and_english_on_request():
    i18n.set_lang("ru")
    try:
        assert i18n.tr("interrupted") == "прервано"
        i18n.set_lang("en")
        assert i18n.tr("interrupted") == "interrupted"
    finally:
        i18n.set_lang("ru")


def test_the_checker_itself_finds_latin_words():
    assert latin_words("файл базы матчей (SQLite)") == ["SQLite"]
    assert latin_words("нет поля events[2]") == ["events[2]"]
    assert latin_words("штраф (P1б, C2), см. --why и «match list»") == []


# -- every error path, run as a user would, in Russian -----------------------------------------


def _run(args, tmp_path, env_extra=None, stdin=""):
    import os

    env = dict(
        os.environ,
        PYRAMID_REFEREE_PROFILES=str(tmp_path / "profiles"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        PYRAMID_VOSK_MODEL=str(tmp_path / "no-model"),
    )
    env.update(env_extra or {})
    r = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "--lang", "ru", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    return r.returncode, r.stdout + r.stderr


def _error_paths(tmp: Path):
    """(name, argv, stdin) of the error paths a user can reach from the command line."""
    text = tmp / "notes.txt"
    text.write_text("это не база\n", encoding="utf-8")
    empty = tmp / "empty.wav"
    empty.write_bytes(b"")
    notwav = tmp / "calls.wav"
    notwav.write_text("тройку в угол\n", encoding="utf-8")
    other_db = tmp / "other.sqlite"
    with sqlite3.connect(other_db) as c:
        c.execute("create table t (x)")
    bad_json = tmp / "bad.jsonl"
    bad_json.write_text(
        '{"call": "тройку чисто в правый угол", "outcome": {"events": [{"type": "boom"}]}}\n'
        '{"call": ',
        encoding="utf-8",
    )
    calls = tmp / "calls.txt"
    calls.write_text(
        "тройку чисто в правый угол\nшестёрку в\nпятёрку абракадабра в угол\n", encoding="utf-8"
    )
    missing = str(tmp / "missing.file")
    db = str(tmp / "matches.db")
    return [
        ("parse: unknown word", ["parse", "тройку абракадабра в угол"], ""),
        ("parse: no pocket", ["parse", "тройку чисто"], ""),
        ("parse: empty", ["parse", ""], ""),
        ("parse: bad --balls-left", ["parse", "тройку в правый угол", "--balls-left", "1,99"], ""),
        ("validate: a file of calls with refusals", ["validate", str(calls)], ""),
        ("validate: missing file", ["validate", missing], ""),
        ("explain: unknown word", ["explain", "тройку абракадабра в угол"], ""),
        ("replay: missing file", ["replay", missing], ""),
        ("replay: broken lines", ["replay", str(bad_json)], ""),
        ("timeline: broken lines", ["timeline", str(bad_json)], ""),
        ("strikes: missing file", ["strikes", missing], ""),
        ("strikes: empty file", ["strikes", str(empty)], ""),
        ("strikes: not a WAV", ["strikes", str(notwav)], ""),
        ("transcribe: no model", ["transcribe", str(notwav)], ""),
        ("model path: no model", ["model", "path"], ""),
        ("match list: no database", ["match", "list", "--db", db], ""),
        ("match list: not a database", ["match", "list", "--db", str(text)], ""),
        ("match list: another database", ["match", "list", "--db", str(other_db)], ""),
        ("match show: no such match", ["match", "show", "99", "--db", db], ""),
        (
            "play: bad outcome",
            ["play", "--db", db, "--players", "Иван", "Пётр"],
            "тройку чисто в правый угол\nабракадабра\n",
        ),
        ("play: one player", ["play", "--db", db, "--players", "Иван"], ""),
        ("drill: bad count", ["drill", "--count", "-3"], ""),
        ("unknown command", ["судья"], ""),
        ("rules: no such clause", ["rules", "C99"], ""),
        ("export: unknown extension", ["export", "1", "--db", db, "-o", str(tmp / "out.xyz")], ""),
        ("match delete: no database", ["match", "delete", "1", "--db", db, "--yes"], ""),
        (
            "listen: no model",
            ["listen", "--file", str(notwav), "--db", db, "--players", "Иван", "Пётр"],
            "",
        ),
    ]


@pytest.mark.parametrize("part", range(3))  # the paths in three parts, so that workers share them
def test_no_error_path_speaks_latin_in_russian(tmp_path, part):
    bad = []
    for name, argv, stdin in _error_paths(tmp_path)[part::3]:
        code, out = _run(argv, tmp_path, stdin=stdin)
        words = latin_words(
            out,
            inputs=tuple(argv)
            + tuple(stdin.splitlines())
            + (str(tmp_path / "no-model"), str(tmp_path)),
        )
        if words:
            bad.append(f"{name}: {words}\n{out}")
    assert not bad, "\n\n".join(bad)


def test_a_russian_text_naming_a_value_its_english_message_lacks_is_found():
    from babel.messages.catalog import Catalog

    cat = Catalog(locale="ru")
    cat.add("line {line}: {what}", "строка {line}: {what2}")
    cat.add("score {p0}", "счёт {p0}")
    assert catalog_tool.foreign_placeholders(cat) == [
        "the Russian text names ['what2'], which 'line {line}: {what}' has not"
    ]


def test_russian_messages_quote_the_typed_value_in_guillemets_not_python_quotes():
    # «а не 'x'» is Python's repr leaking into a Russian sentence: a value the user typed is «x»
    from pyramid_referee.i18n import catalog

    ru = catalog("ru")
    for msgid in (
        "a match number is a whole number from 1 (see match list), not {value!r}",
        "expected a whole number from 1 to {MAX_TO_WINS}, got {value!r}",
        "expected ball numbers separated by commas, e.g. 1,5,12; got {value!r}",
    ):
        text = ru.gettext(msgid)
        assert (
            text != msgid
            and "!r}" not in text
            and text.format(value="x", MAX_TO_WINS=99).endswith("«x»")
        )


# -- one catalog: the only module that opens it, and one the core may import -------------------


def _imports(path: Path) -> set[str]:
    """The absolute names a module of the package imports (relative imports resolved)."""
    import ast

    rel = path.relative_to(ROOT).with_suffix("").parts
    here = ["pyramid_referee", *rel[:-1]] if rel[0] != "pyramid_referee" else list(rel[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            found.update(f"{mod}.{a.name}" if not node.module else mod for a in node.names)
    return found


def test_the_catalog_module_needs_only_the_standard_library():
    imported = _imports(ROOT / "pyramid_referee" / "catalog.py")
    assert imported and all(m.split(".")[0] in sys.stdlib_module_names for m in imported), imported


@pytest.mark.parametrize("core", ["grammar", "rules", "voice"])
def test_the_core_takes_its_messages_from_the_one_catalog_and_nothing_else_of_the_shell(core):
    top = {
        m
        for path in sorted((ROOT / core).rglob("*.py"))
        for m in _imports(path)
        if m.startswith("pyramid_referee.")
        and m.split(".")[1] not in ("grammar", "rules", "voice")
    }
    assert top == {"pyramid_referee.catalog"}


CATALOG_OPENED = re.compile(
    r"GNUTranslations|gettext\.translation\(|[\"']LC_MESSAGES[\"']|\.mo[\"']"
)


def test_only_the_catalog_module_opens_the_compiled_catalog():
    openers = sorted(
        str(path.relative_to(ROOT))
        for folder in ("pyramid_referee", "grammar", "rules", "voice")
        for path in (ROOT / folder).rglob("*.py")
        if CATALOG_OPENED.search(path.read_text(encoding="utf-8"))
    )
    assert openers == ["pyramid_referee/catalog.py"]


def test_a_language_the_catalog_does_not_have_is_named():
    from pyramid_referee.catalog import trl

    with pytest.raises(ValueError, match="unknown language 'de'"):
        trl("de", "interrupted")
    assert (trl("ru", "interrupted"), trl("en", "interrupted")) == ("прервано", "interrupted")


def test_counts_take_the_catalog_plural_forms():
    from pyramid_referee.catalog import translations

    ru = translations("ru")
    forms = [
        ru.ngettext("{n} stroke", "{n} strokes", n).format(n=n) for n in (1, 2, 5, 11, 21, 22)
    ]
    assert forms == ["1 удар", "2 удара", "5 ударов", "11 ударов", "21 удар", "22 удара"]


# -- argparse's own words, through its public points of change --------------------------------


def test_argparse_messages_are_read_back_and_said_in_the_language():
    said = "argument --lang: invalid choice: 'xx' (choose from 'ru', 'en')"
    assert i18n.argparse_text(said, "ru") == (
        "аргумент --lang: недопустимое значение 'xx' (допустимо: 'ru', 'en')"
    )
    assert i18n.argparse_text(said, "en") == said
    # a template with no value is tried before one with a value that would also fit it
    assert i18n.argparse_text("expected one argument", "ru") == "ожидалось одно значение"
    assert i18n.argparse_text("argument -n: expected one argument", "ru") == (
        "аргумент -n: ожидалось одно значение"
    )
    assert i18n.argparse_text("the following arguments are required: ТЕКСТ", "ru") == (
        "не хватает аргументов: ТЕКСТ"
    )
    assert i18n.argparse_text("нет такого матча", "ru") == "нет такого матча"


def test_a_parser_says_argparse_words_in_the_language_it_was_made_in_with_any_formatter(capsys):
    import argparse

    i18n.set_lang("ru")
    try:
        p = i18n.ArgumentParser(prog="prog", description="строка 1\n   строка 2")
        p.add_argument("text")
        p.formatter_class = argparse.RawDescriptionHelpFormatter  # set later, as a command may
    finally:
        i18n.set_lang("en")
    try:
        help_ = p.format_help()  # after the language changed: still the parser's own
        assert help_.startswith("использование: prog [-h] text\n")
        assert "строка 1\n   строка 2" in help_  # the raw description kept as written
        assert "\nаргументы:\n" in help_ and "\nпараметры:\n" in help_
        assert "показать эту справку и выйти" in help_
        with pytest.raises(SystemExit) as exc:
            p.parse_args([])
        assert exc.value.code == 2
        assert capsys.readouterr().err.endswith("prog: ошибка: не хватает аргументов: text\n")
    finally:
        i18n.set_lang("ru")
    assert argparse._ is __import__("gettext").gettext  # argparse's module is left as it is


# -- below the command line the language is a parameter -------------------------------------------
#
# The command line keeps the language asked for with --lang (i18n's process-wide one); every
# package below it is given the language it speaks (a web request the server's, a club sync its
# owner's), so two of them in one process may speak two languages. What reads the process-wide
# one: i18n's ``tr``, ``get_lang``/``set_lang``, ``catalog()`` and ``os_reason``; its
# ``trl``/``trn`` (which take None for it: the catalog module's never do); and i18n's helpers
# left without one.
BELOW_CLI = ("web", "referee", "club", "match", "teach")
GLOBAL_LANGUAGE = frozenset({"tr", "get_lang", "set_lang", "catalog", "os_reason"})
LANG_ARGUMENT = {"json_reason": 2, "json_problem": 2, "argparse_text": 2, "trn": 4}  # its position
#: Modules below cli/ still reading the process-wide language, and why (none left).
PENDING: dict[str, str] = {}


def global_language_reads(source: str) -> list[str]:
    """Where a module's source reads the command line's language instead of being given one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            module = (node.module or "").split(".")[-1]
            for alias in node.names:
                if module == "i18n" and alias.name in GLOBAL_LANGUAGE | {"trl", "trn"}:
                    found.append(f"line {node.lineno}: {alias.name} from i18n")
                elif not node.module and alias.name == "i18n":
                    found.append(f"line {node.lineno}: the i18n module itself")
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: the i18n module itself"
                for alias in node.names
                if alias.name.split(".")[-1] == "i18n"
            ]
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
            given = len(node.args) + sum(k.arg == "lang" for k in node.keywords)
            if name in GLOBAL_LANGUAGE:
                found.append(f"line {node.lineno}: {name}()")
            elif name in LANG_ARGUMENT and given < LANG_ARGUMENT[name]:
                found.append(f"line {node.lineno}: {name}() without a language")
            elif (
                name == "trl"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and node.args[0].value is None
            ):
                found.append(f"line {node.lineno}: trl(None, …)")
    return found


def _below_cli() -> list[Path]:
    return sorted(p for room in BELOW_CLI for p in (ROOT / "pyramid_referee" / room).rglob("*.py"))


@pytest.mark.parametrize(
    "path", _below_cli(), ids=lambda p: str(p.relative_to(ROOT / "pyramid_referee"))
)
def test_below_the_command_line_every_message_is_said_in_the_language_it_is_given(path):
    name = str(path.relative_to(ROOT))
    reads = global_language_reads(path.read_text(encoding="utf-8"))
    if name in PENDING:
        assert reads, f"{name} no longer reads the global language: take it off PENDING"
    else:
        assert reads == [], f"{name} reads the command line's language: {reads}"


def test_the_language_guard_finds_every_way_of_reading_the_global_language():
    source = (
        "from ..i18n import UserError, get_lang, tr, trn\n"
        "from ..catalog import trl\n"
        "from .. import i18n\n"
        "import pyramid_referee.i18n\n"
        'tr("a"); get_lang(); trn("a", "b", 2); trn("a", "b", 2, lang); i18n.tr("a")\n'
        'trl(None, "a"); trl(lang, "a"); json_reason(exc); json_reason(exc, lang)\n'
        "json_problem(msg); json_problem(msg, lang=lang)\n"
    )
    found = global_language_reads(source)
    assert found == [
        "line 1: get_lang from i18n",
        "line 1: tr from i18n",
        "line 1: trn from i18n",
        "line 3: the i18n module itself",
        "line 4: the i18n module itself",
        "line 5: tr()",
        "line 5: get_lang()",
        "line 5: trn() without a language",
        "line 5: tr()",
        "line 6: trl(None, …)",
        "line 6: json_reason() without a language",
        "line 7: json_problem() without a language",
    ], found
    assert PENDING.keys() <= {str(p.relative_to(ROOT)) for p in _below_cli()}


def test_a_web_app_and_a_club_line_speak_their_own_language_whatever_the_command_line_set():
    from pyramid_referee.club.sync import SyncStatus
    from pyramid_referee.web.texts import board_texts, page_texts

    i18n.set_lang("ru")
    try:
        assert (page_texts("en")["undo"], board_texts("en")["tables"]) == ("Undo", "tables")
        assert SyncStatus(False, 2).text("en") == "club: not connected, 2 strokes in the queue"
        i18n.set_lang("en")
        assert page_texts("ru")["undo"] == i18n.trl("ru", "Undo") != "Undo"
        assert SyncStatus(False, 2).text("ru") == "клуб: нет связи, в очереди 2 удара"
    finally:
        i18n.set_lang("ru")
