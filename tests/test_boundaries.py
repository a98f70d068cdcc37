"""The package's import boundaries, checked on the source text (every import statement, those
inside functions too, relative ones resolved), so a new module cannot slip by.

The core: grammar never imports voice or rules; rules imports only the Call AST from grammar;
voice never imports rules. The shell around it imports only downward:

    cli/                          the command line: the only room that may import every other
    web/, referee/, club/         the front ends and the club server: never cli/
    match/, teach/                the stored match and its text, teaching: none of the above
    grammar/, rules/, voice/      the core: none of the shell

and no module imports itself in a circle (importing ``a.b.c`` also runs ``a/b/__init__.py``).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = "pyramid_referee"
# The core lives at the top level and is mapped into the package (pyproject.toml's package-dir).
SOURCE_DIRS = {
    PKG: ROOT / PKG,
    f"{PKG}.grammar": ROOT / "grammar",
    f"{PKG}.rules": ROOT / "rules",
    f"{PKG}.voice": ROOT / "voice",
}
CORE = ("grammar", "rules", "voice")
SHELL = ("cli", "web", "referee", "club", "match", "teach")
#: What each room of the shell must never import (cli/ may import every room).
FORBIDDEN = {
    "web": ("cli",),
    "referee": ("cli",),
    "club": ("cli",),
    "match": ("web", "referee", "club", "cli"),
    "teach": ("web", "referee", "club", "cli"),
    **{core: SHELL for core in CORE},
}


@cache
def package_modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for prefix, folder in SOURCE_DIRS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if prefix == PKG and parts[0] in CORE:
                continue  # a stray copy under the package folder is not what is installed
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([prefix, *parts])] = path
    return found


def module_imports(name: str, path: Path) -> set[str]:
    """Absolute names of every module ``name`` imports, anywhere in it (functions too). ``from X
    import y`` is the module ``X.y`` when that is a module, else ``X``."""
    modules = package_modules()
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                found.add(sub if sub in modules else mod)
    return found


def room(name: str) -> str | None:
    """``pyramid_referee.web.app`` → ``web``; None for the package's own top-level modules."""
    parts = name.split(".")
    return parts[1] if parts[0] == PKG and len(parts) > 1 and parts[1] in CORE + SHELL else None


def imported_modules(path: Path, package: str) -> set[str]:
    """Every module the source file of a module in ``package`` imports (the core's checks)."""
    name = next(n for n, p in package_modules().items() if p == path)
    assert name.startswith(package), (name, package)
    return module_imports(name, path)


def sources(sub: str):
    return sorted((ROOT / sub).rglob("*.py"))


def test_sources_exist():
    for sub in ("grammar", "rules", "voice"):
        assert sources(sub), sub
    assert {room(n) for n in package_modules()} >= set(CORE) | set(SHELL)


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
            assert name.startswith(f"{PKG}.grammar.call"), (
                f"{path.name} imports {name}, not the Call AST"
            )


@pytest.mark.parametrize("path", sources("voice"), ids=lambda p: p.name)
def test_voice_never_imports_rules(path):
    for name in imported_modules(path, f"{PKG}.voice"):
        assert not name.startswith(f"{PKG}.rules"), f"{path.name} imports {name}"


# -- the shell: imports only downward ------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(n for n in package_modules() if room(n) in FORBIDDEN))
def test_a_room_imports_only_downward(name):
    """Only cli/ imports every room; web/, referee/ and club/ never cli/; match/ and teach/ none of
    those; the core none of the shell."""
    mine = room(name)
    wrong = sorted(
        m
        for m in module_imports(name, package_modules()[name])
        if room(m) in FORBIDDEN[mine] and room(m) != mine
    )
    assert not wrong, f"{name} ({mine}/) imports {', '.join(wrong)}: an import upward"


def test_only_the_command_line_and_the_entry_point_import_the_command_line():
    importers = sorted(
        n
        for n, p in package_modules().items()
        if room(n) != "cli" and any(room(m) == "cli" for m in module_imports(n, p))
    )
    assert importers == [f"{PKG}.__main__"]


def test_imports_inside_functions_are_seen_and_resolved():
    # cli/voice.py imports the live referee inside cmd_listen only (deferred: it is heavy), and
    # cli/__init__.py imports its areas with ``from . import …``: both are edges of the graph.
    voice = module_imports(f"{PKG}.cli.voice", package_modules()[f"{PKG}.cli.voice"])
    assert f"{PKG}.referee.live" in voice and f"{PKG}.cli.options" in voice
    top = module_imports(f"{PKG}.cli", package_modules()[f"{PKG}.cli"])
    assert {f"{PKG}.cli.match", f"{PKG}.cli.serve", f"{PKG}.i18n"} <= top


def import_graph() -> dict[str, set[str]]:
    """Module → the package's modules it imports, with the packages importing a module runs
    (importing ``a.b.c`` runs ``a/b/__init__.py`` first)."""
    modules = package_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for m in module_imports(name, path):
            parts = m.split(".")
            edges.update(
                p
                for p in (".".join(parts[:i]) for i in range(2, len(parts) + 1))
                if p in modules and p != name and not name.startswith(p + ".")
            )
        graph[name] = edges
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_no_module_of_the_package_imports_itself_in_a_circle():
    assert import_circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle():
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


#: Modules whose imports inside functions are still to be sorted (moved up, or said deferred).
DEFERRED_PENDING: set[str] = set()


def unsaid_deferrals(path: Path) -> list[int]:
    """Lines of imports inside a function that do not say why they are there. An import belongs
    at the module's top unless it defers a heavy or optional dependency, and then a ``# deferred:``
    comment says so: on its line, or above the run of imports (and ``try:``) it opens."""
    lines = path.read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines), filename=str(path))
    found: set[int] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            i = node.lineno - 1
            said = "deferred" in lines[i]
            while not said and i > 0:
                i -= 1
                text = lines[i].strip()
                if "deferred" in text and text.startswith(("#", "try:")):
                    said = True
                elif not (
                    not text
                    or text.startswith(("#", "import ", "from ", ")"))
                    or text.startswith("try:")
                    or text.endswith(",")
                ):
                    break
            if not said:
                found.add(node.lineno)
    return sorted(found)


def _product_sources() -> list[Path]:
    folders = [ROOT / "grammar", ROOT / "rules", ROOT / "voice", ROOT / PKG]
    return sorted(p for f in folders for p in f.rglob("*.py"))


def test_an_import_inside_a_function_says_what_it_defers():
    unsaid = {
        str(p.relative_to(ROOT)): lines
        for p in _product_sources()
        if (lines := unsaid_deferrals(p))
    }
    assert {k: v for k, v in unsaid.items() if k not in DEFERRED_PENDING} == {}
    # a module put in order comes off the pending list, so that it stays in order
    assert sorted(DEFERRED_PENDING - set(unsaid)) == []


def test_the_deferral_check_sees_an_unsaid_import(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "def a():\n    import json\n\n"
        "def b():\n    # deferred: scipy is slow to load\n    import scipy\n    import numpy\n\n"
        "def c():\n    try:\n        import vosk  # deferred: the engine\n"
        "    except ImportError:\n        pass\n",
        encoding="utf-8",
    )
    assert unsaid_deferrals(src) == [2]
