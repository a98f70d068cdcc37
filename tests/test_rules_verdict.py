"""The verdict: its JSON contract and the sentence a referee reads out."""

from __future__ import annotations

import re

from pyramid_referee.grammar.call import Call, Pocket
from pyramid_referee.rules import CLAUSES, Match, Outcome, Settings

MID = Pocket("middle")
STRAIGHT3 = Call(3, MID, (("cue", 3), (3, "pocket")))
POCKET3 = {"type": "pocket", "ball": 3, "pocket": {"kind": "middle", "side": "left", "end": None}}


def test_json_has_the_contract_fields():
    v = Match().stroke(STRAIGHT3, {"events": [{"type": "hit", "a": "cue", "b": 3}, POCKET3]})
    j = v.to_json()
    for key in (
        "points",
        "penalty",
        "respotted",
        "fulfilled",
        "next",
        "clauses",
        "restore_positions",
        "result",
        "message",
    ):
        assert key in j
    assert (
        j["points"] == {"A": 3, "B": 0}
        and j["penalty"] is None
        and j["next"] == {"player": "A", "from_hand": False}
    )
    assert all(c in CLAUSES for c in j["clauses"])


def test_message_fulfilled_in_russian_and_english():
    v = Match(Settings(), ["Аня", "Борис"]).stroke(
        STRAIGHT3, {"events": [{"type": "hit", "a": "cue", "b": 3}, POCKET3]}
    )
    assert v.message() == "Заказ выполнен; Аня +3 (шар 3); снова бьёт Аня (C2, Q10, Q4, Q3)."
    assert (
        v.message("en") == "Call fulfilled; Аня +3 (ball 3); Аня to play again (C2, Q10, Q4, Q3)."
    )


def test_message_penalty_names_the_reasons_and_the_points():
    v = Match().stroke(
        None, {"events": [{"type": "cushion", "ball": "cue"}], "fouls": ["г"]}, call_status="none"
    )
    msg = v.message()
    assert (
        "штраф (промах, касание шара): A −5, B +5" in msg and "бьёт B" in msg and msg.endswith(".")
    )
    assert v.to_json()["penalty"] == {
        "player": "A",
        "clauses": ["P1а", "P1г"],
        "points": 5,
        "paid": 5,
    }


def test_message_not_fulfilled_says_why_and_respots():
    v = Match().stroke(
        STRAIGHT3,
        {"events": [{"type": "hit", "a": "cue", "b": 3}, {"type": "cushion", "ball": 3}, POCKET3]},
    )
    msg = v.message()
    assert msg.startswith(
        "Заказ не выполнен: шар 3 упал не так, как заказано; шар 3 выставляется на стол; бьёт B"
    )


def test_message_game_over():
    m = Match(
        Settings(),
        ["A", "B"],
        {"scores": {"A": 65, "B": 130 - 65 - 6 - 9}, "on_table": [6, 9], "to_play": "A"},
    )
    v = m.stroke(
        Call(6, MID, (("cue", 6), (6, "pocket"))),
        {"events": [{"type": "hit", "a": "cue", "b": 6}, dict(POCKET3, ball=6)]},
    )
    assert "партия окончена, победитель — A" in v.message() and "бьёт" not in v.message()


def test_every_clause_cited_in_the_engine_exists():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "rules"
    cited = set()
    for path in root.glob("*.py"):
        if path.name == "notation.py":
            continue
        cited |= set(re.findall(r'"((?:C|E|P|Q)\d+[а-и]?)"', path.read_text(encoding="utf-8")))
    assert cited and cited <= set(CLAUSES), cited - set(CLAUSES)


def test_outcome_short_form_message():
    v = Match().stroke(STRAIGHT3, Outcome.from_json({"events": [POCKET3], "route_ok": False}))
    assert "заказ не выполнен" in v.message().lower()


def test_E4_replay_start_message_does_not_say_again():
    # The player who starts the replay (E4) strikes first from the house, not «again».
    m = Match(Settings(result_required=True), ["A", "B"])
    quiet = {"events": [], "fouls": ["г"], "warned": True, "positions_unchanged": True}
    for _ in range(6):
        v = m.stroke(None, quiet, call_status="none")
    assert v.replay_ball == 1 and v.next == {"player": "B", "from_hand": True} and v.striker == "B"
    assert "снова" not in v.message("ru") and "again" not in v.message("en")
    assert "бьёт B с руки" in v.message("ru")


# -- wording a Russian marker reads out ------------------------------------

CUE_IN_CORNER = {
    "type": "pocket",
    "ball": "cue",
    "pocket": {"kind": "corner", "side": "left", "end": "far"},
}
LATIN = __import__("re").compile(r"[A-Za-z]")


def test_a_respotted_ball_is_said_to_be_put_back_on_the_table():
    v = Match().stroke(
        STRAIGHT3,
        {"events": [{"type": "hit", "a": "cue", "b": 3}, {"type": "cushion", "ball": 3}, POCKET3]},
    )
    assert "шар 3 выставляется на стол" in v.message() and "— на стол" not in v.message()
    assert "ball 3 is put back on the table" in v.message("en")


def test_several_respotted_balls_are_put_back_in_the_plural():
    five = {
        "type": "pocket",
        "ball": 5,
        "pocket": {"kind": "corner", "side": "right", "end": "far"},
    }
    v = Match().stroke(
        STRAIGHT3,
        {
            "events": [
                {"type": "hit", "a": "cue", "b": 3},
                POCKET3,
                {"type": "hit", "a": "cue", "b": 5},
                five,
                CUE_IN_CORNER,
            ]
        },
    )
    assert "шары 3 и 5 выставляются на стол" in v.message()
    assert "шары не засчитываются" in v.message()


def test_a_fulfilled_call_with_a_penalty_says_why_it_scores_nothing():
    v = Match(Settings(), ["Иван", "Пётр"]).stroke(
        STRAIGHT3, {"events": [{"type": "hit", "a": "cue", "b": 3}, POCKET3, CUE_IN_CORNER]}
    )
    msg = v.message()
    assert v.fulfilled and v.deltas == (-5, 5)
    assert msg.startswith(
        "Заказ выполнен, но удар штрафной — шар не засчитывается; штраф (биток в лузе): Иван −5, "
        "Пётр +5"
    )
    assert "Заказ выполнен;" not in msg
    assert v.message("en").startswith(
        "Call fulfilled, but it is a penalty stroke, so the ball does not count"
    )


def test_a_penalty_under_the_zero_floor_never_reads_minus_zero():
    v = Match(Settings(negative_scores=False), ["Иван", "Пётр"]).stroke(
        None, {"events": [], "fouls": ["г"]}, call_status="none"
    )
    assert v.penalty.paid == 0
    for lang in ("ru", "en"):
        assert "−0" not in v.message(lang) and "-0" not in v.message(lang)
    assert "Пётр +5, а Иван остаётся при нуле" in v.message()


def test_russian_verdicts_carry_no_latin_words_besides_clause_codes_and_names():
    five = {
        "type": "pocket",
        "ball": 5,
        "pocket": {"kind": "corner", "side": "right", "end": "far"},
    }
    strokes = [
        (STRAIGHT3, {"events": [{"type": "hit", "a": "cue", "b": 3}, POCKET3]}, "accepted"),
        (
            STRAIGHT3,
            {
                "events": [
                    {"type": "hit", "a": "cue", "b": 3},
                    POCKET3,
                    {"type": "hit", "a": "cue", "b": 5},
                    five,
                    CUE_IN_CORNER,
                ]
            },
            "accepted",
        ),
        (STRAIGHT3, {"events": [{"type": "hit", "a": "cue", "b": 5}, five]}, "accepted"),
        (None, {"events": [], "fouls": ["г", "д", "е", "з", "и"]}, "none"),
        (None, {"events": [{"type": "hit", "a": "cue", "b": 5}, five]}, "refused"),
    ]
    for settings in (Settings(), Settings(negative_scores=False)):
        for call, outcome, status in strokes:
            v = Match(settings, ["Иван", "Пётр"]).stroke(call, outcome, call_status=status)
            human = v.message().rsplit(" (", 1)[0]  # the clause codes close the sentence
            assert not LATIN.search(human), human
            assert all(c in CLAUSES for c in v.clauses)


def test_russian_verdicts_never_give_the_winner_a_gender():
    # Аня or Иван: «победил Аня» is wrong Russian for a woman, so the end of a game names the
    # winner without a verb in the past tense
    from pyramid_referee.i18n import catalog

    ru = catalog("ru")
    for msgid in (
        "game over, {winner} wins",
        "{winner} won {score}",
        "{result} won",
        "{res} won",
        "score: {score}; on the table: {table}; game over, winner {winner}",
        "{player} pocketed the ball",
    ):
        text = ru.gettext(msgid)
        assert text != msgid and not re.search(r"\b(победил|выиграл|положил|разбивал)\b", text), (
            text
        )
