"""The short outcome notation (rules/notation.py): text → the outcome JSON (rules/outcome.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pyramid_referee.rules.notation import (
    EMPTY_OUTCOME,
    NotationError,
    parse_outcome,
    render_outcome,
)


def out(**kw):
    d = {k: (list(v) if isinstance(v, list) else v) for k, v in EMPTY_OUTCOME.items()}
    d.update(kw)
    return d


def pocket(kind, side=None, end=None):
    return {"kind": kind, "side": side, "end": end}


def test_example_pocket_miss_cue_pocket():
    # A whole stroke «3 в правый дальний угол; промах; биток в лузе», with the cue
    # ball's pocket named (a pocket event needs its pocket, see test_unnamed_pocket_refused).
    assert parse_outcome("3 в правый дальний угол; промах; биток в левый ближний угол") == out(
        events=[
            {"type": "pocket", "ball": 3, "pocket": pocket("corner", "right", "far")},
            {"type": "pocket", "ball": "cue", "pocket": pocket("corner", "left", "near")},
        ]
    )


def test_unnamed_pocket_is_left_null_for_the_engine():
    # «биток в лузе» (as in docs/notation.md): which pocket does not matter for
    # the cue ball (P1 б); the engine asks for it only where it matters (the called ball).
    events = parse_outcome("3 в правый угол; биток в лузе")["events"]
    assert events[1] == {"type": "pocket", "ball": "cue", "pocket": None}


def test_P1a_miss_in_short_form_is_a_letter():
    # Short form (route_ok): no hits to derive P1 а from, so «промах» lists it.
    assert parse_outcome("промах; не по заказу")["fouls"] == ["а"]
    assert parse_outcome("промах")["fouls"] == []  # full form: derived from no cue hit


def test_hits_in_order_design_route_example():
    # The call's route example as outcome events: cue→6, cue→11, 11→3, 3 into the middle.
    assert parse_outcome("биток 6, биток 11, 11 3, 3 в середину")["events"] == [
        {"type": "hit", "a": "cue", "b": 6},
        {"type": "hit", "a": "cue", "b": 11},
        {"type": "hit", "a": 11, "b": 3},
        {"type": "pocket", "ball": 3, "pocket": pocket("middle")},
    ]


def test_chain_expands_in_time_order():
    assert parse_outcome("биток → 6 → 3 борт в левую середину")["events"] == [
        {"type": "hit", "a": "cue", "b": 6},
        {"type": "hit", "a": 6, "b": 3},
        {"type": "cushion", "ball": 3},
        {"type": "pocket", "ball": 3, "pocket": pocket("middle", "left")},
    ]


def test_cue_off_cushion_first_then_ball():
    assert parse_outcome("биток борт 6")["events"] == [
        {"type": "cushion", "ball": "cue"},
        {"type": "hit", "a": "cue", "b": 6},
    ]


@pytest.mark.parametrize(
    "text,event",
    [
        ("3 борт", {"type": "cushion", "ball": 3}),
        ("3 в борт", {"type": "cushion", "ball": 3}),
        ("биток за бортом", {"type": "off_table", "ball": "cue"}),
        ("5 вылетел", {"type": "off_table", "ball": 5}),
        (
            "12-й в ближний левый угол",
            {"type": "pocket", "ball": 12, "pocket": pocket("corner", "left", "near")},
        ),
        ("7 в угол правый", {"type": "pocket", "ball": 7, "pocket": pocket("corner", "right")}),
        (
            "4 В Правую Середину",
            {"type": "pocket", "ball": 4, "pocket": pocket("middle", "right")},
        ),
        ("cue 6", {"type": "hit", "a": "cue", "b": 6}),
        ("6 биток", {"type": "hit", "a": 6, "b": "cue"}),
        (
            "3 in left far corner",
            {"type": "pocket", "ball": 3, "pocket": pocket("corner", "left", "far")},
        ),
    ],
)
def test_single_events(text, event):
    assert parse_outcome(text)["events"] == [event]


@pytest.mark.parametrize(
    "text,letters",
    [
        ("фол г", ["г"]),
        ("г", ["г"]),
        ("фол г д, е", ["г", "д", "е"]),
        ("касание", ["г"]),
        ("чужой шар", ["д"]),
        ("турник", ["е"]),
        ("ребром", ["е"]),
        ("не из дома", ["з"]),
        ("с другой стороны", ["з"]),
        ("шары не остановились", ["и"]),
        ("и; г; г", ["г", "и"]),
    ],
)
def test_P1_fouls_by_letter_or_word(text, letters):
    assert parse_outcome(text)["fouls"] == letters


def test_P1_derived_letters_mean_their_events():
    # а/б/в/ж are shown by events and flags, not carried as letters (the outcome's JSON).
    with pytest.raises(NotationError) as e:
        parse_outcome("фол г б")
    assert e.value.column == 7 and "биток в" in e.value.message("ru")
    assert parse_outcome("фол в") == out(events=[{"type": "off_table", "ball": "cue"}])
    assert parse_outcome("ж") == out(from_hand=True, first_hit_in_house=True)
    assert parse_outcome("а") == out()


@pytest.mark.parametrize(
    "text,field,value",
    [
        ("с руки", "from_hand", True),
        ("в доме", "first_hit_in_house", True),
        ("первый шар в доме", "first_hit_in_house", True),
        ("по заказу", "route_ok", True),
        ("не по заказу", "route_ok", False),
        ("предупреждение", "warned", True),
        ("позиция не изменилась", "positions_unchanged", True),
    ],
)
def test_flags(text, field, value):
    assert parse_outcome(text)[field] is value


def test_route_ok_absent_unless_said():
    assert "route_ok" not in parse_outcome("3 в середину")
    assert parse_outcome("3 в середину; по заказу")["route_ok"] is True


@pytest.mark.parametrize("text", ["ничего", "-", "пусто", "Ничего не упало"])
def test_nothing(text):
    assert parse_outcome(text) == out()


def test_yo_reads_as_e():
    assert parse_outcome("предупреждЁние") == out(warned=True)


@pytest.mark.parametrize(
    "text,column,fragment",
    [
        ("3 в 5", 5, "«5»"),
        ("3", 2, "оборван"),
        ("16 в угол", 1, "16"),
        ("Тройка в угол", 1, "«Тройка»"),
        ("3 в угол правый левый", 17, "левая, и правая"),
        ("3 в середину дальнюю", 5, "средней"),
        ("биток 6; промах", 10, "промах"),
        ("5 биток; промах", 10, "промах"),
        ("3 3", 3, "сам"),
        ("биток биток", 7, "сам"),
        ("по заказу; не по заказу", 12, "по заказу"),
        ("", 1, "не указан"),
        ("3 в угол;; 4 борт", 10, "не к месту"),
    ],
)
def test_errors_name_the_column(text, column, fragment):
    with pytest.raises(NotationError) as e:
        parse_outcome(text)
    assert e.value.column == column
    assert fragment in e.value.message("ru")
    assert f"column {column}" in e.value.message("en")


def test_error_says_what_was_expected():
    with pytest.raises(NotationError) as e:
        parse_outcome("3 в")
    msg = e.value.message("ru")
    assert "ожидалось" in msg and "«угол»" in msg and "«середину»" in msg
    assert "expected" in e.value.message("en")


# ---------------------------------------------------------------- round trip

balls = st.integers(1, 15)
actors = st.one_of(st.just("cue"), balls)
pockets = st.one_of(
    st.builds(
        pocket,
        st.just("corner"),
        st.sampled_from([None, "left", "right"]),
        st.sampled_from([None, "near", "far"]),
    ),
    st.builds(pocket, st.just("middle"), st.sampled_from([None, "left", "right"])),
)
hit = st.builds(lambda a, b: {"type": "hit", "a": a, "b": b}, actors, actors).filter(
    lambda e: e["a"] != e["b"]
)
event = st.one_of(
    hit,
    st.builds(lambda b: {"type": "cushion", "ball": b}, actors),
    st.builds(lambda b, p: {"type": "pocket", "ball": b, "pocket": p}, actors, pockets),
    st.builds(lambda b: {"type": "off_table", "ball": b}, actors),
)


@st.composite
def outcomes(draw):
    d = out(events=draw(st.lists(event, max_size=6)))
    d["fouls"] = sorted(
        set(draw(st.lists(st.sampled_from("гдези"), max_size=3))), key="гдези".index
    )
    d["from_hand"] = draw(st.sampled_from([None, True]))  # null: as the game state says
    d["first_hit_in_house"] = bool(d["from_hand"]) and draw(st.booleans())
    d["positions_unchanged"] = draw(st.booleans())
    d["warned"] = draw(st.booleans())
    r = draw(st.sampled_from([None, True, False]))
    if r is not None:
        d["route_ok"] = r
        if draw(st.booleans()) and not any(
            e["type"] == "hit" and "cue" in (e["a"], e["b"]) for e in d["events"]
        ):
            d["fouls"] = ["а"] + d["fouls"]  # P1 а given in the short form
    return d


@settings(max_examples=200, deadline=None)
@given(outcomes())
def test_render_then_parse_round_trips(d):
    assert parse_outcome(render_outcome(d)) == d


# -- pockets read as the call language reads them ---------------------------------


def _corpus_pockets():
    """The pocket phrases of the call corpus (corpora/calls/pocket_names.jsonl) with what the
    call language made of them."""
    import json
    import re
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "corpora" / "calls" / "pocket_names.jsonl"
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        m = re.search(
            r"\bв ((?:левый|левую|правый|правую|дальний|дальнюю|ближний|ближнюю|угол|угловую"
            r"|лузу|середину|серединку|уголок|среднюю|центральную|центр|слева|справа)(?: |$))+",
            record["text"],
        )
        # the phrases said in one stretch (not «к себе», «свой…», nor a pocket said twice)
        if (
            m
            and not any(
                w in record["text"] for w in ("свой", "свою", "стороне", "стороны", "к себе", ",")
            )
            and record["text"].split().count("в") == 1
        ):
            out.append(
                (m.group(0).strip(), record.get("call", {}).get("pocket"), record.get("refusal"))
            )
    return out


def test_pocket_words_read_the_same_in_a_call_and_in_an_outcome():
    """Every pocket phrase of the call corpus, in any order and with or without a noun,
    names the same pocket in the outcome notation; a phrase the call language refuses as
    two pockets or a middle with an end is refused here too."""
    cases = _corpus_pockets()
    assert len(cases) >= 200
    for phrase, pocket, refusal in cases:
        if pocket is not None:
            (event,) = parse_outcome(f"3 {phrase}")["events"]
            assert event["pocket"] == pocket, phrase
        elif refusal == "contradiction" or not any(
            w in phrase
            for w in ("угол", "угловую", "середин", "среднюю", "центр", "дальн", "ближн", "лузу")
        ):
            # two sides or ends, a middle with an end, or a side alone («в левую»)
            with pytest.raises(NotationError):
                parse_outcome(f"3 {phrase}")


@pytest.mark.parametrize(
    "text, pocket",
    [
        ("3 в правый дальний", {"kind": "corner", "side": "right", "end": "far"}),
        ("3 в левую дальнюю лузу", {"kind": "corner", "side": "left", "end": "far"}),
        ("3 в дальний левый угол", {"kind": "corner", "side": "left", "end": "far"}),
        ("3 в левую угловую", {"kind": "corner", "side": "left", "end": None}),
        ("3 в среднюю левую", {"kind": "middle", "side": "left", "end": None}),
        ("3 в левый к себе", {"kind": "corner", "side": "left", "end": "near"}),
        ("3 в свой правый угол", {"kind": "corner", "side": "right", "end": "near"}),
        ("3 в центральную лузу", {"kind": "middle", "side": None, "end": None}),
    ],
)
def test_pocket_names_as_players_say_them(text, pocket):
    (event,) = parse_outcome(text)["events"]
    assert event["pocket"] == pocket


def test_a_side_alone_is_refused_naming_the_corner_and_the_middle_pocket():
    with pytest.raises(NotationError) as err:
        parse_outcome("3 в левую лузу")
    assert "«в левый угол» или «в левую середину»" in err.value.message()


@pytest.mark.parametrize("text", ["3 в левую", "3 в левой", "3 в левый лузу", "3 слева"])
def test_a_feminine_or_genderless_side_alone_stays_refused(
    text,
):  # Q2: «в левую» is corner or middle
    with pytest.raises(NotationError) as err:
        parse_outcome(text)
    assert "«в левый угол» или «в левую середину»" in err.value.message()


@pytest.mark.parametrize(
    "text, side",
    [
        ("3 в правый", "right"),
        ("3 в левый", "left"),
        ("3 в левом", "left"),
        ("биток 6 3 в правый", "right"),
    ],
)
def test_a_masculine_side_alone_is_the_corner_as_in_a_call(text, side):  # Q2: only «угол» agrees
    assert parse_outcome(text)["events"][-1]["pocket"] == {
        "kind": "corner",
        "side": side,
        "end": None,
    }


@pytest.mark.parametrize(
    "text, pocket",
    [
        ("3 в середину справа", ("middle", "right")),
        ("3 в середину слева", ("middle", "left")),
        ("3 в угол справа", ("corner", "right")),
        ("3 в угол слева", ("corner", "left")),
        ("3 борт в середину справа", ("middle", "right")),
        ("3 в угол справа; биток 6", ("corner", "right")),
    ],
)
def test_a_side_word_after_the_pocket_noun_names_the_side(text, pocket):  # Q2, as in a call
    (event,) = [e for e in parse_outcome(text)["events"] if e["type"] == "pocket"]
    assert (event["pocket"]["kind"], event["pocket"]["side"]) == pocket


def test_svoi_before_a_ball_is_still_the_cue_ball():
    assert parse_outcome("свой 3")["events"][0] == {"type": "hit", "a": "cue", "b": 3}


@pytest.mark.parametrize("text", ["3 в чужой угол", "3 в чужую лузу"])
def test_chuzhoi_is_a_ball_never_a_pocket(text):
    with pytest.raises(NotationError) as err:
        parse_outcome(text)
    assert "«чужой» — это шар, а не луза" in err.value.message()
    assert parse_outcome("чужой шар")["fouls"] == ["д"]  # P1 д: a ball not one's own, as before


@pytest.mark.parametrize(
    "text",
    [
        "3 в правый чужой угол",
        "3 в правый угол чужой",
        "3 в чужой правый угол",
        "3 чужой в правый угол",
    ],
)
def test_chuzhoi_among_pocket_words_is_a_ball_in_every_order(text):
    """As in the call language: «чужой» is never a pocket; the answer keeps the side said."""
    with pytest.raises(NotationError) as err:
        parse_outcome(text)
    msg = err.value.message()
    assert "«чужой» — это шар, а не луза" in msg and "«в правый дальний угол»" in msg
    assert "«в правый ближний угол»" in msg and "левый" not in msg


def test_chuzhoi_shar_as_a_foul_is_still_a_foul():  # P1 д
    assert parse_outcome("3 в правый угол, чужой шар")["fouls"] == ["д"]


@pytest.mark.parametrize(
    "text,pocket",
    [
        ("3 к себе в левый", ("corner", "left", "near")),
        ("3 в левый к себе", ("corner", "left", "near")),
        ("3 к себе в левый угол", ("corner", "left", "near")),
        ("3 левый угол", ("corner", "left", None)),
        ("3 в угол в левый", ("corner", "left", None)),
        ("3 в дальний угол слева", ("corner", "left", "far")),
        ("3 слева в дальний угол", ("corner", "left", "far")),
        ("3 в середину справа", ("middle", "right", None)),
        ("3 в левый угол со стороны игрока", ("corner", "left", "near")),
        ("3 на противоположной стороне в правый", ("corner", "right", "far")),
        ("3 свой угол", ("corner", None, "near")),
    ],
)
def test_pocket_words_take_every_order_the_call_language_takes(text, pocket):  # Q2
    (event,) = parse_outcome(text)["events"]
    assert (event["pocket"]["kind"], event["pocket"]["side"], event["pocket"]["end"]) == pocket
    # the same words in a call name the same pocket
    from pyramid_referee.grammar import parse

    call = parse("тройку чисто " + text[2:], pocket_precision="any")
    assert (call.pocket.kind, call.pocket.side, call.pocket.end) == pocket, text


def test_svoi_before_a_pocket_word_is_the_near_end_elsewhere_the_cue_ball():
    assert parse_outcome("6 свой в левый угол")["events"][0] == {"type": "hit", "a": 6, "b": "cue"}
    assert parse_outcome("биток в свой левый угол")["events"][0]["pocket"]["end"] == "near"


def test_svoyu_seredinu_is_refused_as_a_middle_pocket_has_no_end():
    with pytest.raises(NotationError) as err:
        parse_outcome("3 в свою середину")
    assert "у средней лузы нет дальней и ближней" in err.value.message()


@pytest.mark.parametrize(
    "text, column, what",
    [
        ("по заказу; не по заказу; 16 3", 12, "both 'as called' and 'not as called'"),
        ("16 в левую лузу", 1, "there is no ball 16"),
        ("3 3 16", 3, "3 cannot hit itself"),
        ("3 в левую лузу; б", 5, "names both the corner and the middle pocket"),
    ],
)
def test_of_several_mistakes_the_first_written_is_the_one_named(text, column, what):
    # the parse tree becomes records in the order written, and they are checked in that order
    with pytest.raises(NotationError) as exc:
        parse_outcome(text)
    assert exc.value.column == column and what in exc.value.message("en")


def test_the_parse_tree_becomes_named_records_in_the_order_written():
    from pyramid_referee.rules.notation import Flag, Fouls, Motion, _parser, _ToRecords

    items = _ToRecords().transform(_parser().parse("биток 6 борт; 6 в левый угол; фол г; с руки"))
    assert [type(i) for i in items] == [Motion, Motion, Fouls, Flag]
    cue, pocketed = items[0], items[1]
    assert cue.subject.type == "CUE" and [s.kind for s in cue.steps] == ["ball", "cushion"]
    assert [s.column for s in cue.steps] == [7, 9]
    assert pocketed.steps[0].kind == "pocket" and [t.type for t in pocketed.steps[0].words] == [
        "LEFT",
        "CORNER",
    ]
