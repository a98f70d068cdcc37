"""explain(): the reading in words, the canonical phrasing, the fix."""

import pytest

from pyramid_referee.grammar import GrammarError, Pocket, explain


def test_explains_an_accepted_call():
    e = explain("Карамболем от шестерки одиннадцатым шаром тройка прямо в середину")
    assert e.ok
    assert e.canonical == "карамболем от шестёрки одиннадцатым шаром тройку чисто в середину"
    text = e.render_text()
    assert "шар 3" in text and "биток → шар 6 (карамболь)" in text and "шар 11 → шар 3" in text
    assert e.to_json()["call"]["ball"] == 3


def test_contre_coup_is_said_to_be_undefined():
    e = explain("тройку от контр-ку в середину", lang="en")
    assert any("no stored source defines it" in n for n in e.notes)


def test_explains_a_refusal_with_the_fix():
    e = explain("тройку в угол")
    assert not e.ok and e.canonical is None
    assert "Q2" in e.render_text() and "«в угол»" in e.render_text() and "левый угол" in e.fix
    assert e.to_json()["error"]["code"] == "pocket_not_definite"


def test_where_is_said_in_characters_counted_from_one_and_a_long_span_is_cut_visibly():
    assert "Где: «в угол» (символы 8–13)" in explain("тройку в угол").render_text()
    assert "Where: «в угол» (characters 8–13)" in explain("тройку в угол", lang="en").render_text()
    where = next(
        x for x in explain("тройку " * 100).render_text().splitlines() if x.startswith("Где: ")
    )
    assert where.endswith("тро…» (символы 1–699)")


def test_a_way_said_in_ball_and_pocket_is_shown_not_judged():  # C7
    e = explain("тройку от борта в середину", mode="ball_and_pocket")
    assert e.ok and e.result.route is None
    assert "Способ сказан: «от борта»; в игре «шар и луза» он не судится (C7)." in e.lines
    assert not any("не назван" in line for line in e.lines)
    assert e.to_json()["way_not_judged"] == ["от борта"]
    assert (
        "Way said: «от борта»"
        in explain("тройку от борта в середину", mode="ball_and_pocket", lang="en").render_text()
    )


def test_ball_and_pocket_without_a_way_says_none_is_needed():  # C7
    e = explain("тройку в середину", mode="ball_and_pocket")
    assert e.lines[-1] == "Способ называть не нужно: игра «шар и луза» (C7)."
    assert "way_not_judged" not in e.to_json()


@pytest.mark.parametrize(
    "text",
    [
        "тройку от в середину",  # the way not finished
        "тройку шестёркой от борта в середину",  # whose cushion?
        "тройку чисто от борта в середину",  # a contradiction in the way
        "тройкой тройку в середину",  # the ball plays itself
        "тройку тремя шарами шестёркой в середину",  # the count does not match
        "тройку от одного в середину",  # ball 1 or one cushion?
    ],
)
def test_an_unclear_way_never_refuses_a_ball_and_pocket_call(text):  # C7
    e = explain(text, mode="ball_and_pocket", balls_left=[3, 4])
    assert e.ok, e.render_text()
    assert e.result.to_json() == {
        "ball": 3,
        "pocket": {"kind": "middle", "side": None, "end": None},
        "route": None,
    }
    assert not any("не назван" in line for line in e.lines)


def test_words_not_needed_are_not_called_missing():
    e = explain("ну и шар тройку чисто в левый угол")
    assert "Лишние слова, их можно не говорить: «ну», «и», «шар»" in e.notes
    assert not any("Пропущены" in n for n in e.notes)
    assert e.fix == "Правильно сказать: «тройку чисто в левый угол»"


def test_explain_shows_what_a_correction_replaced():  # C9
    e = explain("тройку чисто в правый угол, вернее в левый")
    assert e.result.pocket.side == "left"
    assert "Исправлено («вернее»): луза «в правый угол» → «в левый»." in e.lines
    assert e.to_json()["corrections"] == [
        {"part": "pocket", "was": "в правый угол", "now": "в левый", "word": "вернее"}
    ]
    e = explain("не тройку, а пятёрку чисто в правый угол")
    assert "Исправлено («не … а»): шар «тройку» → «пятёрку»." in e.lines
    assert not any("«а»" in n for n in e.notes)
    e = explain("тройку чисто в правый угол, нет, от борта")
    assert "Исправлено («нет»): способ «чисто» → «от борта»." in e.lines
    assert "corrections" not in explain("тройку чисто в правый угол").to_json()


def test_technique_words_are_not_binding():
    e = explain("тройку с винтом чисто в левый угол")
    assert any("«с винтом»" in n for n in e.notes)


def test_bad_lang_is_misuse():
    with pytest.raises(GrammarError):
        explain("тройку", lang="de")


def test_abricole_is_named_in_english():
    e = explain("абриколем тройку в левый угол", lang="en")
    assert "the cue ball → the cushion (abricole)" in e.render_text()
    assert e.canonical == "абриколем тройку чисто в левый угол"


def test_pocket_precision_any_says_the_side_was_not_named():  # Q2
    e = explain("тройку чисто в дальний угол", pocket_precision="any")
    assert e.ok and e.canonical == "тройку чисто в дальний угол"
    assert "дальняя угловая луза (сторона не названа)" in e.render_text()
    assert not explain("тройку чисто в дальний угол").ok


def test_pocket_words_agree_with_luza():
    e = explain("тройку чисто в левый ближний угол")
    assert "шар 3 → левая ближняя угловая луза" in e.render_text()
    assert (
        "ball 3 → left near corner pocket"
        in explain("тройку чисто в левый ближний угол", lang="en").render_text()
    )


def test_correction_shows_the_way_with_ot():  # C9
    e = explain("тройку чисто в правый угол, нет, от шестёрки")
    assert "Исправлено («нет»): способ «чисто» → «от шестёрки»." in e.lines


def test_ne_x_a_y_after_net_replaces_the_pocket_said():  # C9
    e = explain("тройку чисто в правый угол, нет, не в правый, а в левый")
    assert e.result.pocket == Pocket("corner", "left")
    assert "Исправлено («не … а»): луза «в правый» → «в левый»." in e.lines
    assert explain(
        "тройку чисто в правый дальний угол, не в правый, а в левый"
    ).result.pocket == Pocket("corner", "left", "far")
    assert explain("тройку чисто в правый угол, нет, не тройку, а пятёрку").result.ball == 5


def test_ne_x_of_what_was_not_said_is_refused():  # C9: refuse rather than guess
    for text in (
        "тройку чисто в правый угол, нет, не в левый, а в середину",
        "тройку чисто в правый угол, нет, не пятёрку, а семёрку",
    ):
        e = explain(text)
        assert e.result.code == "incomplete" and e.result.reason == "not_what_was_said", text


# -- layout slips: Latin look-alike letters in a Cyrillic word ---------------------------------


def test_a_word_typed_with_a_latin_lookalike_is_read_as_the_russian_word_and_explain_says_so():
    from pyramid_referee.grammar import parse

    typed = "тройку чиcто в левый угол"  # the «c» of «чиcто» is Latin
    assert "c" in typed and parse(typed) == parse("тройку чисто в левый угол")
    e = explain(typed)
    assert e.ok and e.canonical == "тройку чисто в левый угол"
    assert "Раскладка: в слове «чиcто» латинская «c» прочитана как русская." in e.notes
    assert any(
        "the Latin «c» was read as the Russian letter" in n
        for n in explain(typed, lang="en").notes
    )
    data = e.to_json()
    assert data["lookalikes"] == [
        {"word": "чиcто", "read_as": "чисто", "letters": ["c"], "span": [7, 12]}
    ]
    # extend-only: every key a plain call has is still there, with the same meaning
    plain = explain("тройку чисто в левый угол").to_json()
    assert "lookalikes" not in plain and set(plain) <= set(data) and data["call"] == plain["call"]


def test_latin_capitals_and_several_letters_are_named_each():
    e = explain("Tpoйку чисто в правый угoл")
    assert e.ok and e.result.ball == 3
    assert "Раскладка: в слове «Tpoйку» латинские «T», «p», «o» прочитаны как русские." in e.notes
    assert [s["read_as"] for s in e.to_json()["lookalikes"]] == ["Тройку", "угол"]


def test_a_lookalike_in_a_refused_call_is_still_reported():
    e = explain("тройку чиcто в левую лузу")
    assert not e.ok and e.result.code == "pocket_not_definite"
    assert e.to_json()["lookalikes"][0]["read_as"] == "чисто"


@pytest.mark.parametrize(
    "typed, word",
    [
        ("тройку cop чисто в левый угол", "cop"),  # a pure Latin word is never read as Russian
        ("тройку ceo чисто в левый угол", "ceo"),
        ("тройку чиcтоo в левый угол", "чиcтоo"),  # read as Russian it is still no word
        ("тройку чиsто в левый угол", "чиsто"),  # «s» looks like no Russian letter
    ],
)
def test_a_word_that_is_no_word_with_its_lookalikes_read_stays_unknown(typed, word):
    e = explain(typed)
    assert e.result.code == "unknown_word" and e.result.params["word"] == word
    assert "lookalikes" not in e.to_json()
