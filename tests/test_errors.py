"""One error root a package: every public error class derives from its package's root, and the
command line catches the user's errors of every root in one place (``cli.USER_ERRORS``)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from pyramid_referee import cli
from pyramid_referee.grammar.errors import GrammarError
from pyramid_referee.i18n import UserError
from pyramid_referee.rules.errors import RulesError
from pyramid_referee.voice.errors import VoiceError

# the lower packages have a root each; the shell (everything else) has UserError
ROOTS = {"grammar": GrammarError, "rules": RulesError, "voice": VoiceError}


def _modules():
    # grammar/, rules/ and voice/ are mapped into the package (package-dir): walked each by name
    names = {"pyramid_referee"}
    for package in ("pyramid_referee", *(f"pyramid_referee.{p}" for p in ROOTS)):
        path = importlib.import_module(package).__path__
        names |= {info.name for info in pkgutil.walk_packages(path, package + ".")}
    for name in sorted(names):
        if not name.endswith("__main__"):
            yield importlib.import_module(name)


def _public_errors():
    for module in _modules():
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if (
                cls.__module__ == module.__name__
                and issubclass(cls, Exception)
                and not name.startswith("_")
            ):
                yield module.__name__, cls


def _root_of(module_name: str) -> type[Exception]:
    package = module_name.split(".")[1]
    return ROOTS.get(package, UserError)


def test_every_public_error_class_derives_from_its_packages_root():
    found = list(_public_errors())
    names = {cls.__name__ for _, cls in found}
    # the ones that were bare ValueErrors or outside their root before, among all the others
    assert {
        "CallFormatError",
        "NotationError",
        "ProfileError",
        "EventError",
        "DiagramError",
        "LearnInputError",
        "ReplayError",
        "StoreError",
        "ModelError",
    } <= names
    wrong = [
        f"{m}.{cls.__name__} is not a {_root_of(m).__name__}"
        for m, cls in found
        if not issubclass(cls, _root_of(m))
    ]
    assert not wrong, wrong


@pytest.mark.parametrize(
    "cls",
    [
        "pyramid_referee.grammar.call.CallFormatError",
        "pyramid_referee.rules.notation.NotationError",
        "pyramid_referee.voice.profile.ProfileError",
        "pyramid_referee.referee.timeline.EventError",
        "pyramid_referee.teach.diagram.DiagramError",
        "pyramid_referee.web.learn.LearnInputError",
    ],
)
def test_the_errors_that_were_value_errors_still_are(cls):
    # callers catch ValueError around them: the new root is added, not put in its place
    module, name = cls.rsplit(".", 1)
    assert issubclass(getattr(importlib.import_module(module), name), ValueError)


def test_the_users_errors_are_the_roots_but_the_engines():
    assert set(cli.USER_ERRORS) == {UserError, GrammarError, VoiceError}
    assert not issubclass(RulesError, cli.USER_ERRORS)  # an engine error reaching main is a fault


@pytest.mark.parametrize(
    "error",
    [
        UserError("нет такого файла"),
        GrammarError("нет такого режима"),
        VoiceError("микрофон не отвечает"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_main_tells_a_users_error_of_every_root_in_one_line_with_status_2(
    monkeypatch, capsys, error
):
    def handler(args):  # a test double of the rules subcommand: it fails as a user's error would
        raise error

    monkeypatch.setattr(cli.cli_rules, "_rules", handler)  # looked up as the parser is built
    assert cli.main(["rules"]) == 2
    err = capsys.readouterr().err
    assert err == f"pyramid-referee: ошибка: {error}\n"
