"""The lexicon is generated from pymorphy3 and unicode-rbnf, and the shipped
file is that generation."""

import json

from pyramid_referee.grammar import lexicon_build
from pyramid_referee.grammar.lexicon_build import DATA_FILE, build, dumps


def test_shipped_lexicon_equals_a_fresh_generation():
    assert DATA_FILE.read_text(encoding="utf-8") == dumps(build()), (
        "grammar/data/lexicon.json is stale: run python -m pyramid_referee.grammar.lexicon_build"
    )


def test_every_ball_has_every_role():
    words = json.loads(DATA_FILE.read_text(encoding="utf-8"))["words"]
    tags = {t for ts in words.values() for t in ts}
    for n in range(1, 16):
        for role in ("B_NOM", "B_GEN", "B_INS", "B_BARE"):
            assert f"{role}:{n}" in tags, (role, n)


def test_pocket_words_carry_only_pocket_tags():
    # the lexer merges runs of pocket words; a word both pocket and not would be lost
    words = json.loads(DATA_FILE.read_text(encoding="utf-8"))["words"]
    pocket = {"V", "CORNER", "MIDDLE", "LUZA", "SIDE", "END", "MASC"}
    for word, ts in words.items():
        kinds = {t.split(":")[0] for t in ts}
        assert kinds <= pocket or not (kinds & pocket), word


def test_render_forms_are_inflected():
    forms = build()["render"]
    assert forms["ball"]["6"] == {
        "acc": "шестёрку",
        "gen": "шестёрки",
        "ins": "шестёркой",
        "ins_short": "шестёркой",
    }
    assert forms["ball"]["12"]["gen"] == "двенадцатого шара"
    assert forms["pocket"]["middle"]["left"] == "левую"
    assert forms["num_gen"]["3"] == "трёх"
    assert lexicon_build.VERSION == build()["version"]


def test_only_masculine_side_words_are_marked_masculine():  # «в правый» is the corner (Q2)
    words = json.loads(DATA_FILE.read_text(encoding="utf-8"))["words"]
    assert sorted(w for w, ts in words.items() if "MASC" in ts) == ["левый", "правый"]
    assert "MASC" not in words["левую"] and "MASC" not in words["правая"]
