"""Every hand-annotated call in corpora/calls/*.jsonl reads as annotated (C2-C9, Q2, Q8)."""

import json
from pathlib import Path

import pytest

from pyramid_referee.grammar import Call, Refusal, parse
from pyramid_referee.grammar.refusal import CODES

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "calls"


def _records():
    out = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            record = json.loads(line)
            out.append(pytest.param(record, id=f"{path.stem}:{number}"))
    return out


RECORDS = _records()


def test_corpus_is_large_and_covers_every_code():
    assert len(RECORDS) >= 300
    codes = {p.values[0]["refusal"] for p in RECORDS if "refusal" in p.values[0]}
    assert set(CODES) <= codes, f"codes without an annotated example: {set(CODES) - codes}"


def test_corpus_has_both_pocket_precisions():  # Q2
    """Corner calls without a side, accepted under "any" and refused under the default."""
    any_calls = [p.values[0] for p in RECORDS if p.values[0].get("pocket_precision") == "any"]
    sideless = [
        r
        for r in any_calls
        if "call" in r
        and r["call"]["pocket"]["kind"] == "corner"
        and r["call"]["pocket"]["side"] is None
    ]
    assert len(sideless) >= 10
    default_texts = {
        p.values[0]["text"]
        for p in RECORDS
        if "pocket_precision" not in p.values[0]
        and p.values[0].get("refusal") == "pocket_not_definite"
    }
    assert len({r["text"] for r in sideless} & default_texts) >= 5


def test_corpus_has_the_seed_model_calls():  # C2
    texts = {p.values[0]["text"] for p in RECORDS}
    assert "Карамболем от шестерки одиннадцатым шаром тройка прямо в середину" in texts
    assert "Тремя шарами такими-то, от шара такого-то, 12-й шар в левый угол" in texts


@pytest.mark.parametrize("record", RECORDS)
def test_annotated_call(record):
    result = parse(
        record["text"],
        mode=record.get("mode", "clean"),
        balls_left=record.get("balls_left"),
        pocket_precision=record.get("pocket_precision", "side_for_corners"),
    )
    if "call" in record:
        assert isinstance(result, Call), f"refused: {result.code}: {result.message()}"
        assert result.to_json() == record["call"]
    else:
        assert isinstance(result, Refusal), f"accepted: {result.to_json()}"
        assert result.code == record["refusal"], result.message()
        start, end = result.span
        assert 0 <= start <= end <= len(record["text"])


def test_corpus_uses_every_route_technique_and_filler_word():
    """Every route word, technique word, filler and phrase of the lexicon is
    in some annotated call."""
    import re

    from pyramid_referee.grammar.lexicon_build import DATA_FILE

    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    texts = " ".join(p.values[0]["text"].lower() for p in RECORDS)
    seen = set(re.findall(r"[\w№-]+", texts))
    kinds = {
        "CLEAN",
        "ABRIK",
        "KARAMBOL",
        "KONTRKU",
        "CUSHIONS",
        "TECH",
        "OBJ",
        "BORTA",
        "BORTOV",
        "SHARA",
        "SHAROM",
        "SHARAMI",
        "OT",
        "FILLER",
        "CUE",
        "STROKE",
    }
    missing = [
        w
        for w, tags in data["words"].items()
        if {t.split(":")[0] for t in tags} & kinds and w not in seen
    ]
    missing += [p for p in data["phrases"] if p not in texts]
    assert not missing


def test_pocket_names_cover_every_word_order():
    """The held-out-style pocket set (pocket_names.jsonl) says each pocket in every order of
    its words: side, end and noun (or no noun), and with each end phrase."""
    from itertools import permutations

    texts = {p.values[0]["text"] for p in RECORDS if p.id.startswith("pocket_names:")}
    assert len(texts) >= 400
    pockets = [t for t in texts if "левую дальнюю угловую лузу" in t or "правый дальний угол" in t]
    assert pockets
    for words in (
        ["левую", "дальнюю", "угловую лузу"],
        ["правый", "ближний", "угол"],
        ["левую", "дальнюю"],
        ["правую", "среднюю лузу"],
        ["левый", "центр"],
    ):
        for order in permutations(words):
            phrase = "в " + " ".join(order)
            assert any(
                t.endswith(phrase) or t.startswith(phrase + " ") or f"{phrase} " in t
                for t in texts
            ), phrase


def test_corrections_cover_the_ball_the_pocket_and_the_way():
    records = [p.values[0] for p in RECORDS if p.id.startswith("corrections:")]
    assert len(records) >= 50
    text = " ".join(r["text"] for r in records)
    for marker in ("нет", "вернее", "точнее", "то есть", "ой", "отмена", "не тройку, а"):
        assert marker in text, marker
