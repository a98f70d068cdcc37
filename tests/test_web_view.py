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
    assert titled(["C2", "ZZ"], "ru") == [
        {"id": "C2", "title": "чистое назначение: шар, луза и способ"},
        {"id": "ZZ", "title": ""},
    ]


def test_the_walls_history_line_drops_the_clause_codes_and_who_strikes_next_and_keeps_the_rest():
    from pyramid_referee.web.view import wall_summary

    players = ["Иван", "Пётр"]
    msg = (
        "Заказ не выполнен: шар 3 не упал; штраф (промах): Пётр −5, Иван +5; бьёт Иван "
        "(C2, P1, P1а, P2, Q3)."
    )
    assert (
        wall_summary(msg, ["C2", "P1", "P1а", "P2", "Q3"], players, "ru")
        == "Заказ не выполнен: шар 3 не упал; штраф (промах): Пётр −5, Иван +5"
    )
    won = "Заказ выполнен; Иван +7 (шар 7); партия окончена, победитель — Иван (C2, Q10, E1)."
    assert (
        wall_summary(won, ["C2", "Q10", "E1"], players, "ru")
        == "Заказ выполнен; Иван +7 (шар 7); партия окончена, победитель — Иван"
    )  # the end of the game stays
    assert (
        wall_summary("Удар без заказа; бьёт Пётр с руки (C10, Q3).", ["C10", "Q3"], players, "ru")
        == "Удар без заказа"
    )
    odd = "Something else entirely (X1)."
    assert wall_summary(odd, ["C2"], players, "ru") == odd  # not the engine's shape: left whole


def test_a_game_of_the_match_is_one_short_line_on_the_wall():
    from types import SimpleNamespace as Game

    from pyramid_referee.web.view import board_game_line
    from rules.state import Result

    players = ["Иван", "Пётр"]
    assert (
        board_game_line(
            Game(number=1, scores={"Иван": 73, "Пётр": 48}, result=Result(winner="Иван")), players
        )
        == "партия 1: 73 : 48, победитель — Иван"
    )
    assert (
        board_game_line(Game(number=2, scores={"Иван": 5, "Пётр": 0}, result=None), players)
        == "партия 2: 5 : 0, идёт"
    )
    assert (
        board_game_line(
            Game(number=3, scores={"Иван": 70, "Пётр": 70}, result=Result(draw="normal")), players
        )
        == "партия 3: 70 : 70, ничья"
    )
