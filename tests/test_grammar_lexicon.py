"""The lexer: words, spans and tags; the vocabulary Vosk gets; mentions_call."""

import pytest

from pyramid_referee.grammar import mentions_call, parse, vocabulary
from pyramid_referee.grammar.lexicon import MAX_WORDS, TooLong, split_words, tag_words


def _tags(word):
    return set(tag_words(word)[0].tags)


@pytest.mark.parametrize(
    "word, tag",
    [
        ("шестёрку", ("B_NOM", 6)),
        ("шестерку", ("B_NOM", 6)),
        ("шестёрки", ("B_GEN", 6)),
        ("шестеркой", ("B_INS", 6)),
        ("туз", ("B_NOM", 1)),
        ("тузом", ("B_INS", 1)),
        ("туза", ("B_NOM", 1)),
        ("туза", ("B_GEN", 1)),
        ("ТУЗА", ("B_NOM", 1)),
        ("ближнюю", ("END", "near")),
        ("ближний", ("END", "near")),
        ("ближняя", ("END", "near")),
        ("дальнюю", ("END", "far")),
        ("дальний", ("END", "far")),
        ("дальняя", ("END", "far")),
        ("двенадцатый", ("B_NOM", 12)),
        ("двенадцатого", ("B_GEN", 12)),
        ("двенадцатого", ("B_NOM", 12)),
        ("одиннадцатым", ("B_INS", 11)),
        ("двенадцать", ("B_BARE", 12)),
        ("пятнадцати", ("B_GEN", 15)),
        ("тремя", ("COUNT_INS", 3)),
        ("трёх", ("NUM_GEN", 3)),
        ("трех", ("NUM_GEN", 3)),
        ("12", ("B_BARE", 12)),
        ("12-й", ("B_NOM", 12)),
        ("12й", ("B_NOM", 12)),
        ("№12", ("B_BARE", 12)),
        ("12-го", ("B_GEN", 12)),
        ("11-м", ("B_INS", 11)),
        ("3-мя", ("COUNT_INS", 3)),
        ("левую", ("SIDE", "left")),
        ("дальний", ("END", "far")),
        ("середину", ("MIDDLE", None)),
        ("угловую", ("CORNER", None)),
        ("контр-ку", ("KONTRKU", None)),
        ("абрикольно", ("ABRIK", None)),
        ("ЧИСТО", ("CLEAN", None)),
        ("такого-то", ("PLACEHOLDER", None)),
    ],
)
def test_word_forms(word, tag):
    assert tag in _tags(word)


@pytest.mark.parametrize(
    "word",
    ["левого", "дальнего", "ближней", "левом", "углу", "правым", "середине", "лузы", "дальнее"],
)
def test_pocket_words_only_in_a_pockets_forms(word):  # Q2
    """«от борта левого в угол»: «левого» agrees with «борта», not with a pocket, so it
    is no pocket word (else it joins «в угол» and makes a left corner nobody called)."""
    assert not any(t in ("SIDE", "END", "CORNER", "MIDDLE", "LUZA") for t, _ in _tags(word))


@pytest.mark.parametrize("word", ["16", "0", "12-ю-ю", "лево", "лев", "привет", "🎱"])
def test_not_call_words(word):
    words = tag_words(word)
    assert not words or not words[0].tags


def test_phrases_are_one_word():
    words = tag_words("тройку в лоб контр ку оборотным дуплетом")
    assert [w.text for w in words] == ["тройку", "в лоб", "контр ку", "оборотным дуплетом"]
    assert words[1].tags == (("CLEAN", None),)


@pytest.mark.parametrize(
    "phrase, tag",
    [
        ("со стороны игрока", ("END", "near")),
        ("на противоположной стороне", ("END", "far")),
        ("к себе", ("END", "near")),
        ("свой угол", ("END", "near")),
    ],
)
def test_near_and_far_phrases_players_use(phrase, tag):  # Q2
    words = tag_words(f"в левый угол {phrase.upper()}")
    assert [w.text for w in words] == ["в", "левый", "угол", phrase.upper()]
    assert tag in words[-1].tags


def test_three_word_phrases_said_in_part_are_not_call_words():
    """A three-word phrase cut anywhere leaves a word that is no call word («свой»,
    «стороны»), so the phrase said in part is refused as an unknown word, never
    read as something else (no silent misreading)."""
    from pyramid_referee.grammar.lexicon import load

    phrases = [p for p in load()[1][0] if len(p) >= 3]
    assert phrases
    for p in phrases:
        for k in range(1, len(p)):
            parts = [tag_words(" ".join(part)) for part in (p[:k], p[k:])]
            assert any(not w.tags for words in parts for w in words), p[:k]
            text = f"тройку чисто в {' '.join(p[:k])}, ну, {' '.join(p[k:])}"
            assert parse(text).code == "unknown_word", text


def test_spans_point_into_the_text():
    text = "  «Тройку», — чисто в 12-й!"
    for w in tag_words(text):
        assert text[w.start : w.end] == w.text
    assert [w.text for w in tag_words(text)] == ["Тройку", "чисто", "в", "12-й"]


def test_split_stops_past_the_limit():
    with pytest.raises(TooLong):
        split_words("ну " * (MAX_WORDS + 1))
    assert len(split_words("ну " * MAX_WORDS)) == MAX_WORDS


def test_vocabulary_for_vosk():
    vocab = vocabulary()
    assert vocab == sorted(set(vocab))
    assert all(w == w.lower() and " " not in w for w in vocab)
    for w in (
        "шестёрку",
        "шестерку",
        "четвёртым",
        "четвертым",
        "трёх",
        "трех",
        "двенадцатого",
        "карамболем",
        "абриколем",
        "середину",
        "угол",
        "контр-ку",
        "лоб",
        "со",
        "стороны",
        "игрока",
        "на",
        "противоположной",
        "стороне",
    ):
        assert w in vocab, w
    assert not any(ch.isdigit() for w in vocab for ch in w)


def test_mentions_call():
    assert mentions_call("тройку")
    assert mentions_call("в середину")
    assert mentions_call("чисто")
    assert mentions_call("12")
    assert not mentions_call("ну давай")
    assert not mentions_call("привет как дела")
    assert not mentions_call("")
    assert not mentions_call("резка накат")  # technique words are not binding
    # the cue ball is no call word: «биток упал» after a stroke is no late call
    assert not mentions_call("биток упал") and not mentions_call("свой шар")
    assert mentions_call("ну " * 100 + "тройку")


def test_decomposed_yo_and_short_i_read_like_composed():
    # NFD text (е + U+0308, и + U+0306), as some keyboards and speech engines give it,
    # reads as the composed word; the spans stay those of the input.
    import unicodedata

    from pyramid_referee.grammar import parse

    text = unicodedata.normalize("NFD", "шестёркой тройку чисто в левый угол")
    assert len(text) > len("шестёркой тройку чисто в левый угол")
    assert parse(text) == parse("шестеркой тройку чисто в левый угол")
    bad = parse(unicodedata.normalize("NFD", "тройку чисто в левый угол абвгдё"))
    assert bad.code == "unknown_word" and bad.span[1] == len(
        unicodedata.normalize("NFD", "тройку чисто в левый угол абвгдё")
    )


def test_near_words_are_one_edit_away_and_words_of_the_language():
    from pyramid_referee.grammar.typos import distance_at_most_one, near_words

    assert distance_at_most_one("чсито", "чисто")  # two neighbours swapped
    assert distance_at_most_one("чисо", "чисто") and distance_at_most_one("чистоо", "чисто")
    assert distance_at_most_one("чиста", "чисто")
    assert not distance_at_most_one("чстио", "чисто") and not distance_at_most_one("чи", "чисто")
    assert "четырнадцатый" in near_words("четырнадцатй")
    vocab = set(vocabulary())
    for typed in ("четырнадцатй", "шестерк", "угл", "правй"):
        got = near_words(typed)
        assert got and all(
            w in vocab and distance_at_most_one(typed, w.replace("ё", "е")) for w in got
        )
    assert "чисто" not in near_words("чисто")  # a word is no slip of itself
    assert near_words("ab") == [] and near_words("я" * 200) == []
