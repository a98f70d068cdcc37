"""web/view.py: the page data built from a session (the clause titles a verdict shows)."""

from __future__ import annotations

from pyramid_referee.web.view import titled
from rules import Settings


def test_a_short_game_shows_its_own_target_in_the_clause_titles():
    short = Settings.from_json({"target": 11})
    assert titled(["E1"], "ru", short) == [{"id": "E1", "title": "победа — 11 очков"}]
    assert "11" in titled(["E1"], "en", short)[0]["title"]


def test_the_book_game_keeps_the_rules_text_and_an_unknown_code_stays_bare():
    assert "71" in titled(["E1"], "ru")[0]["title"]
    assert titled(["C2", "ZZ"], "ru") == [{"id": "C2", "title": "чистое назначение: шар, луза и способ"},
                                          {"id": "ZZ", "title": ""}]
