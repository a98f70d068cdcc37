"""The command line as a whole (cli.py, i18n.py): help texts and argparse's own words follow
--lang.

Russian is the default for every user-facing text, the help included; ``--lang en`` gives English.
"""

from __future__ import annotations

import argparse
import re

import pytest

from pyramid_referee.cli import build_parser, main
from pyramid_referee.i18n import set_lang

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)

# Every command whose help this shell writes, ``strikes`` (cli_strikes.py) included.
COMMANDS = [
    ("parse",),
    ("validate",),
    ("explain",),
    ("replay",),
    ("match",),
    ("match", "new"),
    ("match", "list"),
    ("match", "show"),
    ("match", "resume"),
    ("match", "import"),
    ("match", "delete"),
    ("club", "register"),
    ("club", "status"),
    ("undo",),
    ("redo",),
    ("export",),
    ("stats",),
    ("play",),
    ("timeline",),
    ("transcribe",),
    ("listen",),
    ("model",),
    ("model", "path"),
    ("model", "download"),
    ("strikes",),
]


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def help_texts(path: tuple[str, ...], lang: str) -> list[str]:
    """The command's line in its parent's list, its description and each option's help."""
    set_lang(lang)
    try:
        parser = build_parser()
    finally:
        set_lang("ru")
    texts = []
    for name in path:
        sub = _subparsers(parser)
        texts = [a.help for a in sub._choices_actions if a.dest == name]
        parser = sub.choices[name]
    texts.append(parser.description or "")
    texts += [
        a.help
        for a in parser._actions
        if a.help and a.help is not argparse.SUPPRESS and not isinstance(a, argparse._HelpAction)
    ]
    return [t for t in texts if t]


def _without_quoted_russian(text: str) -> str:
    """English help may quote Russian words («…», '…') and end with a Russian example."""
    text = re.sub(r"«[^»]*»|'[^']*'", "", text)
    return re.sub(r"Example:.*", "", text, flags=re.S)


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_help_is_russian_by_default_and_english_with_lang_en(path):
    ru = help_texts(path, "ru")
    assert len(ru) >= 2
    assert [t for t in ru if not CYRILLIC.search(t)] == []
    en = help_texts(path, "en")
    assert [t for t in en if CYRILLIC.search(_without_quoted_russian(t))] == []


def test_argparse_words_in_russian_by_default(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["match", "show", "abc"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("использование: pyramid-referee match show")
    assert "ошибка: аргумент НОМЕР: номер матча — целое число от 1" in err
    with pytest.raises(SystemExit):
        main(["parse"])
    assert "не хватает аргументов: ТЕКСТ" in capsys.readouterr().err


def test_argparse_words_in_english_with_lang_en(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--lang", "en", "match", "show", "abc"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: pyramid-referee match show")
    assert "error: argument ID: a match number is a whole number from 1" in err


def test_help_sections_in_russian(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["replay", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "аргументы:" in out and "параметры:" in out and "показать эту справку и выйти" in out
    assert "usage:" not in out and "options:" not in out


def test_top_level_help_in_russian(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "показать версию программы и выйти" in out and "show program" not in out


def test_argparse_is_left_as_it_was_after_main(capsys):
    """The Russian words are swapped in only while our command line runs."""
    main(["parse", "--json", "тройку чисто в правый угол"])
    capsys.readouterr()
    other = argparse.ArgumentParser(prog="other")
    assert other.format_usage().startswith("usage: other")


def test_model_without_a_subcommand_is_a_usage_error_in_russian(capsys):
    assert main(["model"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("использование: pyramid-referee model")


def _help(capsys, *argv) -> str:
    from pyramid_referee.cli import main

    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_the_club_commands_help_says_what_each_does_with_the_server_and_its_metavars_in_russian(
    capsys,
):
    register = _help(capsys, "club", "register")
    assert "--club URL сервер клуба, на котором зарегистрировать этот стол" in register
    assert "--name ИМЯ" in register and "NAME" not in register
    status = _help(capsys, "club", "status")
    assert "--club URL сервер клуба, с которого читать все столы" in status
    assert (
        "передавать записи этого стола" not in register + status
    )  # that is what play --club does
    assert "передавать записи этого стола" in _help(capsys, "play")
    english = _help(capsys, "--lang", "en", "club", "register")
    assert "--name NAME" in english and "the club server to register this table on" in english
