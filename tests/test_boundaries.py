"""The package boundaries: grammar never imports voice or rules; rules imports only
the Call AST from grammar; voice never imports rules. Checked on the source text
(every import statement, relative ones resolved), so a new module cannot slip by.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = "pyramid_referee"


def imported_modules(path: Path, package: str) -> set[str]:
    """Absolute names of every module a source file imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names.add(mod)
            names.update(f"{mod}.{alias.name}" for alias in node.names)
    return names


def sources(sub: str):
    return sorted((ROOT / sub).rglob("*.py"))


def test_sources_exist():
    for sub in ("grammar", "rules", "voice"):
        assert sources(sub), sub


@pytest.mark.parametrize("path", sources("grammar"), ids=lambda p: p.name)
def test_grammar_imports_neither_voice_nor_rules(path):
    for name in imported_modules(path, f"{PKG}.grammar"):
        assert not name.startswith((f"{PKG}.voice", f"{PKG}.rules")), f"{path.name} imports {name}"
        assert not name.startswith(f"{PKG}.cli"), f"{path.name} imports the shell ({name})"


@pytest.mark.parametrize("path", sources("rules"), ids=lambda p: p.name)
def test_rules_imports_only_the_call_ast(path):
    for name in imported_modules(path, f"{PKG}.rules"):
        assert not name.startswith(f"{PKG}.voice"), f"{path.name} imports {name}"
        if name.startswith(f"{PKG}.grammar"):
            assert name.startswith(f"{PKG}.grammar.call"), f"{path.name} imports {name}, not the Call AST"


@pytest.mark.parametrize("path", sources("voice"), ids=lambda p: p.name)
def test_voice_never_imports_rules(path):
    for name in imported_modules(path, f"{PKG}.voice"):
        assert not name.startswith(f"{PKG}.rules"), f"{path.name} imports {name}"
