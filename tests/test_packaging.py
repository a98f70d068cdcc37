"""grammar/, voice/, rules/ are importable as subpackages of pyramid_referee."""

import importlib
import subprocess
import sys


def test_subpackages_import():
    for name in ("grammar", "rules", "voice"):
        mod = importlib.import_module(f"pyramid_referee.{name}")
        assert mod.__name__ == f"pyramid_referee.{name}"


def test_cli_help_runs():
    out = subprocess.run(
        [sys.executable, "-m", "pyramid_referee", "--help"], capture_output=True, text=True
    )
    assert out.returncode == 0
    assert "pyramid-referee" in out.stdout


def test_wheel_carries_every_subpackage_and_its_data(tmp_path):
    """`pip install .` (not only -e) must ship grammar/, rules/, voice/ and the grammar files."""
    import zipfile
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(root)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("pyramid_referee-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for sub in ("grammar", "rules", "voice"):
        assert f"pyramid_referee/{sub}/__init__.py" in names
        for src in (root / sub).glob("*.py"):
            assert f"pyramid_referee/{sub}/{src.name}" in names, src
        for data in list((root / sub).glob("*.lark")) + list((root / sub).glob("data/*")):
            assert f"pyramid_referee/{sub}/{data.relative_to(root / sub)}" in names, data
    for grammar in (root / "pyramid_referee").glob(
        "*.lark"
    ):  # the shell's own grammars (record.lark)
        assert f"pyramid_referee/{grammar.name}" in names, grammar
    web = root / "pyramid_referee" / "web"  # serve's pages and their local assets (no CDN)
    for f in [*web.glob("*.py"), *web.glob("templates/*.html"), *web.glob("static/*")]:
        assert f"pyramid_referee/web/{f.relative_to(web)}" in names, f
    # the compiled message catalogs: every Russian message of the shell, grammar, rules and voice
    for mo in (root / "pyramid_referee").glob("locale/*/LC_MESSAGES/*.mo"):
        assert f"pyramid_referee/{mo.relative_to(root / 'pyramid_referee').as_posix()}" in names, (
            mo
        )


def test_lang_before_or_after_the_subcommand():
    from pyramid_referee.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["--lang", "en", "parse", "x"]).lang == "en"
    assert parser.parse_args(["parse", "x", "--lang", "en"]).lang == "en"
    assert getattr(parser.parse_args(["parse", "x"]), "lang", None) is None
