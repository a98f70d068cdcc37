"""The shape of the product code: no function is over 80 lines, so each one reads as one job.

A function's length runs from its ``def`` line to its last line, the functions nested in it
included (a closure is part of the function that holds it); decorators are not counted. The
product code is the package with the core mapped into it: ``pyramid_referee/``, ``grammar/``,
``rules/`` and ``voice/``.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT_DIRS = ("pyramid_referee", "grammar", "rules", "voice")
MAX_FUNCTION_LINES = 80


def long_functions(path: Path, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int, int]]:
    """(qualified name, ``def`` line, length) of every function in ``path`` longer than
    ``limit`` lines; a method is named ``Class.method``, a nested function ``outer.inner``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    length = child.end_lineno - child.lineno + 1
                    if length > limit:
                        found.append((name, child.lineno, length))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def product_sources() -> list[Path]:
    return sorted(p for d in PRODUCT_DIRS for p in (ROOT / d).rglob("*.py"))


def test_the_product_code_is_found():
    names = {p.relative_to(ROOT).as_posix() for p in product_sources()}
    for module in (
        "pyramid_referee/club/sync.py",
        "grammar/parser.py",
        "rules/judge.py",
        "voice/strike.py",
    ):
        assert module in names


def test_no_function_in_the_product_code_is_over_80_lines():
    over = [
        f"{path.relative_to(ROOT).as_posix()}:{line} {name}: {length} lines"
        for path in product_sources()
        for name, line, length in long_functions(path)
    ]
    assert not over, (
        f"functions over {MAX_FUNCTION_LINES} lines (def line to last line); split each into "
        "named phases:\n" + "\n".join(over)
    )


def test_the_length_check_counts_closures_names_methods_and_skips_decorators(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        textwrap.dedent(
            """\
            def short():
                return 1


            def outer():
                def inner():
                    a = 1
                    return a

                return inner


            class C:
                @property
                @cache
                def method(self):
                    return 2
            """
        ),
        encoding="utf-8",
    )
    assert long_functions(src, limit=2) == [("outer", 5, 6), ("outer.inner", 6, 3)]
    assert long_functions(src, limit=1) == [
        ("short", 1, 2),
        ("outer", 5, 6),
        ("outer.inner", 6, 3),
        ("C.method", 16, 2),
    ]
