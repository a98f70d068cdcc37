"""docs/: the Russian guide and the rules text stand alone, and the generated parts never drift
from the code (the rules table, the lexicon and grammar, the refusal codes)."""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
READABLE = (
    sorted(DOCS.glob("*.md"))
    + sorted((DOCS / "dev").glob("*.md"))
    + [ROOT / "README.md", ROOT / "corpora" / "matches" / "README.md"]
)


def _gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["rules.md", "calls.md", "refusals.md"])
def test_generated_docs_equal_a_fresh_generation(name):
    fresh = _gen_docs().GENERATED[name]()
    committed = (DOCS / name).read_text(encoding="utf-8")
    assert committed == fresh, (
        f"docs/{name} is out of date: run .venv/bin/python scripts/gen_docs.py"
    )


def test_the_guide_has_every_part_a_player_and_a_marker_need():
    for name in (
        "README.md",
        "setup.md",
        "play.md",
        "calls.md",
        "notation.md",
        "refusals.md",
        "rules.md",
        "record.md",
        "serve.md",
    ):
        assert (DOCS / name).is_file(), name


@pytest.mark.parametrize("path", READABLE, ids=lambda p: p.name)
def test_nothing_a_user_reads_sends_them_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    for banned in ("../shared", "shared/", "RULES.md", "DESIGN.md", "terms.md", "seed/"):
        assert banned not in text, f"{path.name} mentions {banned}"
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://", "#")):
            continue
        file_part = target.split("#", 1)[0]
        resolved = (path.parent / file_part).resolve()
        assert resolved.is_relative_to(ROOT), f"{path.name}: link {target} leaves the repository"
        assert resolved.exists(), f"{path.name}: link {target} points at nothing"


@pytest.mark.parametrize("path", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_anchors_the_docs_link_to_exist(path):
    text = path.read_text(encoding="utf-8")
    for file_part, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", text):
        target = (path.parent / file_part) if file_part else path
        assert f'<a id="{anchor}"></a>' in target.read_text(encoding="utf-8"), (
            f"{path.name}: #{anchor}"
        )


def test_every_outcome_example_in_the_notation_guide_is_read_and_possible():
    from pyramid_referee.rules import Outcome
    from pyramid_referee.rules.notation import parse_outcome

    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    examples = re.findall(r"^\| `([^`]+)` \|", text, re.M)
    assert len(examples) > 20
    for example in examples:
        Outcome.from_json(parse_outcome(example))  # raises on an example that is wrong


def test_the_calls_in_the_play_guide_are_accepted_and_their_outcomes_read():
    from pyramid_referee.grammar import parse
    from pyramid_referee.grammar.call import Call
    from pyramid_referee.rules.notation import parse_outcome

    text = (DOCS / "play.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(.*?)```", text, re.S)
    lines = [line.split(" | ") for block in blocks for line in block.splitlines() if " | " in line]
    assert lines
    for call, outcome in lines:
        if call.strip() != "-":  # «-»: a stroke without a call
            assert isinstance(parse(call), Call), call
        parse_outcome(outcome)


def _validate(tmp_path, name: str, text: str):
    """``pyramid-referee validate NAME`` on a file holding ``text``, run as a marker runs it."""
    import subprocess
    import sys

    (tmp_path / name).write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "validate", name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def test_every_record_in_the_record_guide_is_clean_for_validate(tmp_path):
    # ```record blocks are records a marker may copy: validate must find nothing wrong in them
    text = (DOCS / "record.md").read_text(encoding="utf-8")
    records = re.findall(r"```record\n(.*?)```", text, re.S)
    assert len(records) >= 2  # the partia and the match of several partii
    for i, record in enumerate(records):
        done = _validate(tmp_path, f"example{i}.record", record)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "ошибок 0" in done.stdout, done.stdout


def test_the_validate_report_shown_in_the_record_guide_is_what_validate_says(tmp_path):
    # the guide teaches how to read the report on its own broken record: that report must not drift
    text = (DOCS / "record.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(.*?)```", text, re.S)
    broken = next(b for b in blocks if b.startswith("Игроки:"))
    shown = next(b for b in blocks if b.startswith("ошибки.record:"))
    done = _validate(tmp_path, "ошибки.record", broken)
    assert done.returncode == 1
    assert done.stdout == shown


def test_every_refusal_code_is_explained_in_russian():
    from pyramid_referee.grammar.refusal import CODES

    text = (DOCS / "refusals.md").read_text(encoding="utf-8")
    for code in CODES:
        assert f"| `{code}` | " in text, code


def test_every_clause_has_its_section_in_the_rules_text():
    from pyramid_referee.rules.clauses import TABLE

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for c in TABLE:
        assert f'<a id="{c.code}"></a>' in text and f"### {c.code}. " in text and c.text_ru in text


def test_the_calls_table_lists_every_word_of_the_lexicon():
    import json

    from pyramid_referee.grammar.lexicon import DATA_FILE

    lex = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    text = (DOCS / "calls.md").read_text(encoding="utf-8")
    missing = [w for table in ("words", "phrases") for w in lex[table] if w not in text]
    assert not missing, missing[:20]


def test_readme_quick_start_says_how_to_run_the_installed_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert ".venv/bin/pyramid-referee" in quick and "source .venv/bin/activate" in quick
    assert "docs/README.md" in text and "docs/rules.md" in text


def test_the_match_import_shown_in_the_record_guide_is_what_match_import_says(tmp_path):
    # the first record of the guide, imported into the default store of a fresh user: the hint
    # then needs no --db, as the guide shows it
    import os
    import subprocess
    import sys

    text = (DOCS / "record.md").read_text(encoding="utf-8")
    record = re.findall(r"```record\n(.*?)```", text, re.S)[0]
    shown = text.split("## Сохранить запись как матч: match import", 1)[1]
    shown = re.findall(r"```text\n(.*?)```", shown, re.S)[0]
    (tmp_path / "стол2.партия").write_text(record, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYRAMID_REFEREE_DB"}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "match", "import", "стол2.партия"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown


def test_the_readme_is_a_page_a_user_reads_in_two_minutes():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    for page in ("architecture.md", "clauses.md", "voice.md", "benchmarks.md"):
        assert f"](docs/dev/{page})" in text, page


def test_the_developers_clause_table_has_a_row_for_every_clause():
    from pyramid_referee.rules.clauses import TABLE

    text = (DOCS / "dev" / "clauses.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| (\w+) \|", text, re.M))
    # P1а…P1и are the letters of P1: they share its row
    missing = [c.code for c in TABLE if c.code not in rows and not c.code.startswith("P1")]
    assert not missing, missing


# What a reader of the repository does not have: the design notes kept outside it, and the
# tracker's issue and task numbers. The code and its docs say the thing, or point into docs/.
_OUTSIDE_REFERENCES = re.compile(
    r"DESIGN\.md|RULES\.md|terms\.md|\b[Ii]ssues?\s+#?\d+|\bthe issue\b|\b[Tt]asks?\s+#?\d+"
)
_SKIPPED_DIRS = {".git", ".venv", "__pycache__", "node_modules", "build", "dist", "data"}
_TEXT_SUFFIXES = {".py", ".js", ".css", ".html", ".md", ".lark", ".sh", ".toml", ".txt", ".cfg"}


def test_no_comment_cites_a_file_or_a_tracker_the_reader_lacks():
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in _SKIPPED_DIRS and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder) / name
            if path.suffix not in _TEXT_SUFFIXES or path == Path(__file__).resolve():
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if _OUTSIDE_REFERENCES.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)
