"""pyramid_referee/timeline.py: which call counts for each strike (C4, C9, C10, Q7, Q8).

Two layers: the rules with a tiny stand-in grammar (``FakeGrammar``, a test double: a few call
texts it knows), and the Vosk result lines of ``corpora/vosk/`` through the real parser.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pyramid_referee.grammar.call import Call, Pocket
from pyramid_referee.referee import timeline as tl

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "vosk"
MIDDLE = Pocket("middle")


class FakeRefusal:
    def __init__(self, code, text):
        self.code, self.text = code, text

    def to_json(self):
        return {
            "code": self.code,
            "message": f"fake refusal of {self.text!r}",
            "span": [0, len(self.text)],
            "hint": None,
        }


class FakeGrammar:
    """Test double for the call parser: exact texts → calls; other call-like text → refused."""

    CALLS = {
        "тройку прямо в середину": Call(3, MIDDLE, ((("cue", 3)), (3, "pocket"))),
        "двойку прямо в середину": Call(2, MIDDLE, (("cue", 2), (2, "pocket"))),
        "пятёрку в середину": Call(5, MIDDLE, None),
    }
    CALL_WORDS = {"тройку", "двойку", "пятёрку", "прямо", "в", "середину"}

    def __init__(self):
        self.parsed = []

    def parse(self, text, *, mode="clean", balls_left=None):
        self.parsed.append(text)
        if text in self.CALLS:
            return self.CALLS[text]
        return FakeRefusal("unknown_word" if "[unk]" in text else "incomplete", text)

    def mentions_call(self, text):
        return any(w in self.CALL_WORDS for w in text.split())


def words(text, t0, step=0.3):
    return [
        tl.Word(w, round(t0 + i * step, 3), round(t0 + i * step + step - 0.05, 3), 1.0)
        for i, w in enumerate(text.split())
    ]


def utt(*ws, alts=()):
    flat = [w for group in ws for w in group]
    hyps = [tl.Hypothesis(tuple(flat))] + [tl.Hypothesis(tuple(a)) for a in alts]
    return tl.Utterance(tuple(hyps))


@pytest.fixture
def g():
    return FakeGrammar()


def decide(g, utterances, strikes, **kw):
    return tl.decide(utterances, strikes, parse=g.parse, mentions_call=g.mentions_call, **kw)


CALL = "тройку прямо в середину"


# --- the rules --------------------------------------------------------------------------------


def test_C9_C10_a_call_finished_before_the_strike_is_accepted(g):
    [d] = decide(g, [utt(words(CALL, 0.5))], [3.0])
    assert (d.status, d.heard, d.call["ball"], d.reason) == ("accepted", CALL, 3, None)
    assert d.to_json() == {
        "strike": 3.0,
        "status": "accepted",
        "call": d.call,
        "heard": CALL,
        "reason": None,
        "clauses": ["C9", "C10"],
    }


def test_Q7_every_word_must_end_before_the_strike(g):
    u = utt(words(CALL, 0.5))  # the last word ends at 0.5 + 0.9 + 0.25 = 1.65
    assert decide(g, [u], [1.66])[0].status == "accepted"
    assert (
        decide(g, [u], [1.65])[0].status == "late"
    )  # ending exactly at the strike is not before it
    assert decide(g, [u], [1.6])[0].status == "late"


def test_C10_a_call_still_spoken_at_the_strike_is_void_without_falling_back(g):
    earlier = utt(words("двойку прямо в середину", 0.0))
    spoken = utt(words(CALL, 3.0))
    [d] = decide(g, [earlier, spoken], [3.7])
    assert d.status == "late" and d.call is None and d.heard == CALL and d.clauses == ("C10", "Q7")


def test_C10_words_after_the_strike_in_the_same_utterance_make_it_late(g):
    u = utt(
        words("тройку прямо", 0.5), words("в середину", 2.0)
    )  # one Vosk result, strike in the gap
    [d] = decide(g, [u], [1.5])
    assert d.status == "late"


def test_Q8_filler_going_on_at_the_strike_is_ignored(g):
    u = utt(words(CALL + " ну давай", 0.5))
    [d] = decide(g, [u], [1.8])  # "ну" straddles the strike, "давай" after it
    assert (d.status, d.heard) == ("accepted", CALL)


def test_chatter_does_not_replace_a_call(g):
    [d] = decide(g, [utt(words(CALL, 0.5)), utt(words("ну давай бей", 3.0))], [5.0])
    assert (d.status, d.heard) == ("accepted", CALL)


def test_C9_the_last_call_counts(g):
    [d] = decide(g, [utt(words("двойку прямо в середину", 0.5)), utt(words(CALL, 3.0))], [5.0])
    assert (d.status, d.call["ball"]) == ("accepted", 3)


def test_Q8_a_trailing_incomplete_call_is_refused(g):
    [d] = decide(g, [utt(words(CALL, 0.5)), utt(words("двойку", 3.0))], [5.0])
    assert (d.status, d.heard, d.reason["code"]) == ("rejected", "двойку", "incomplete")


def test_no_call_and_no_words(g):
    [chat] = decide(g, [utt(words("ну давай", 0.5))], [3.0])
    assert (chat.status, chat.heard, chat.call) == ("none", "ну давай", None)
    [empty] = decide(g, [], [3.0])
    assert (empty.status, empty.heard) == ("none", None)
    assert isinstance(empty.reason, str) and empty.reason


def test_calls_never_carry_over_to_the_next_strike(g):
    first, second = decide(g, [utt(words(CALL, 0.5))], [3.0, 9.0])
    assert first.status == "accepted" and second.status == "none"


def test_a_late_call_does_not_carry_over_either(g):
    u = utt(words(CALL, 1.0))
    first, second = decide(g, [u], [1.5, 9.0])
    assert first.status == "late"
    # "в середину" started after the first strike: the rest of the void call is refused,
    # it does not become a call for the next stroke.
    assert second.status == "rejected" and second.heard == "в середину"


def test_a_word_straddling_the_previous_strike_belongs_to_it(g):
    u = utt([tl.Word("тройку", 0.5, 1.2)])
    first, second = decide(g, [u], [1.0, 5.0])
    assert first.status == "late" and second.status == "none"


def test_events_in_any_order_and_strikes_sorted(g):
    a, b = utt(words(CALL, 4.0)), utt(words("двойку прямо в середину", 0.5))
    ds = decide(g, [a, b], [6.0, 3.0])
    assert [(d.strike, d.call["ball"]) for d in ds] == [(3.0, 2), (6.0, 3)]


def test_C4_alternatives_that_parse_to_different_calls_are_unclear(g):
    u = utt(words(CALL, 0.5), alts=[words("двойку прямо в середину", 0.5)])
    [d] = decide(g, [u], [3.0], lang="en")
    assert d.status == "rejected" and d.reason["code"] == "ambiguous"
    assert d.reason["alternatives"] == [CALL, "двойку прямо в середину"]
    assert "different ways" in d.reason["message"] and d.clauses == ("C4", "C9")


def test_alternatives_that_agree_or_do_not_parse_do_not_overrule(g):
    same = utt(words(CALL, 0.5), alts=[words(CALL + " ну", 0.5), words("тройку прямо в", 0.5)])
    assert decide(g, [same], [3.0])[0].status == "accepted"


def test_alternatives_are_cut_to_the_same_window(g):
    # The second hypothesis differs only after the strike: it cannot make the call unclear.
    alt = words(CALL, 0.5) + [tl.Word("двойку", 2.5, 2.8)]
    u = utt(words(CALL, 0.5), words("ну", 1.8), alts=[alt])
    [d] = decide(g, [u], [2.0])
    assert d.status == "accepted"


def test_unk_at_the_edges_is_dropped_inside_it_is_refused(g):
    edge = utt([tl.Word("[unk]", 0.1, 0.4)], words(CALL, 0.5), [tl.Word("[unk]", 1.7, 1.8)])
    assert decide(g, [edge], [3.0])[0].heard == CALL
    inner = utt(words("тройку прямо [unk] в середину", 0.5))
    [d] = decide(g, [inner], [3.0])
    assert d.status == "rejected" and d.reason["code"] == "unknown_word"


def test_standing_is_the_decision_if_struck_now(g):
    us = [utt(words(CALL, 0.5))]
    assert tl.standing(us, 1.0, parse=g.parse, mentions_call=g.mentions_call).status == "late"
    now = tl.standing(us, 2.0, parse=g.parse, mentions_call=g.mentions_call)
    assert now.status == "accepted" and now.strike == 2.0


def test_the_parser_gets_mode_and_balls_left(g):
    seen = []

    def parse(text, *, mode, balls_left):
        seen.append((mode, balls_left))
        return g.parse(text)

    tl.decide(
        [utt(words(CALL, 0.5))],
        [3.0],
        parse=parse,
        mentions_call=g.mentions_call,
        mode="ball_and_pocket",
        balls_left=[3, 7],
    )
    assert seen == [("ball_and_pocket", [3, 7])]


def test_Q2_pocket_precision_reaches_the_real_parser():
    # The real grammar: «в угол» without a side is refused by default (Q2) and
    # accepted when the match setting says any pocket precision will do.
    u = [utt(words("тройку чисто в угол", 0.5))]
    assert tl.decide(u, [3.0])[0].status == "rejected"
    (d,) = tl.decide(u, [3.0], pocket_precision="any")
    assert d.status == "accepted" and d.call["pocket"] == {
        "kind": "corner",
        "side": None,
        "end": None,
    }


# --- hand-made cases through the real parser (review of C9, C10, Q7, Q8) -----------------------

C2 = "двойку прямо в середину"


def real(utterances, strikes):
    return tl.decide(utterances, strikes, lang="en")


def test_C9_two_calls_in_one_utterance_the_last_counts():
    [d] = real([utt(words(CALL + " " + C2, 0.5))], [4.0])
    assert (d.status, d.call["ball"]) == ("accepted", 2)
    [d] = real([utt(words(CALL, 0.5)), utt(words(C2, 2.0))], [4.0])  # and in two utterances
    assert (d.status, d.call["ball"], d.heard) == ("accepted", 2, C2)


def test_Q8_C9_an_unfinished_call_after_an_accepted_one_is_refused_not_the_first_taken():
    [d] = real([utt(words(CALL + " двойку", 0.5))], [4.0])  # one utterance: the parser's Q8
    assert (d.status, d.reason["code"]) == ("rejected", "several_calls_unclear")
    [d] = real(
        [utt(words(CALL, 0.5)), utt(words("двойку в", 2.0))], [4.0]
    )  # two: the last decides
    assert (d.status, d.heard) == ("rejected", "двойку в") and d.call is None


def test_Q8_chatter_after_a_call_in_the_same_or_another_utterance_is_ignored():
    for us in (
        [utt(words(CALL + " ну давай", 0.5))],
        [utt(words(CALL, 0.5)), utt(words("ну давай", 2.0))],
        [utt(words(CALL, 0.5)), utt(words("[unk]", 2.0))],
    ):
        [d] = real(us, [4.0])
        assert (d.status, d.call["ball"]) == ("accepted", 3), us


def test_Q7_C10_a_call_word_straddling_the_strike_voids_a_filler_word_does_not():
    u = utt(words(CALL, 0.5))  # "середину" 1.4–1.65
    assert real([u], [1.5])[0].status == "late"
    u = utt(words(CALL + " ну", 0.5))  # "ну" 1.7–1.95
    [d] = real([u], [1.8])
    assert (d.status, d.heard) == ("accepted", CALL)


def test_C10_nothing_before_the_first_strike_and_the_call_after_it_is_the_next_ones():
    first, second = real([utt(words(CALL, 3.0))], [2.0, 6.0])
    assert (first.status, first.heard) == ("none", None)
    assert (second.status, second.call["ball"]) == ("accepted", 3)


def test_C10_strikes_closer_than_the_stroke_window_each_get_only_their_own_words():
    """Strikes given explicitly (key presses, events) may be any distance apart: the second,
    0.5 s after the first, gets only what was said between them; nothing carries over."""
    first, second, third = real([utt(words(CALL, 0.5)), utt(words(C2, 2.1))], [2.0, 2.5, 6.0])
    assert (first.status, first.call["ball"]) == ("accepted", 3)
    assert (second.status, second.heard) == ("late", C2)  # "прямо" (2.4–2.65) straddles it
    assert third.status == "rejected" and third.heard == "в середину"  # the rest of a void call


# --- reading event lines ----------------------------------------------------------------------


def test_reads_both_vosk_forms_and_skips_partials_and_silence():
    lines = [
        json.dumps({"partial": "тройку"}),
        json.dumps({"text": ""}),
        json.dumps({"alternatives": [{"confidence": 50.0, "text": ""}]}),
        json.dumps(
            {
                "result": [{"word": "тройку", "start": 0.5, "end": 0.8, "conf": 0.9}],
                "text": "тройку",
            }
        ),
        "",
        json.dumps(
            {
                "alternatives": [
                    {
                        "confidence": 3.0,
                        "result": [{"word": "a", "start": 1, "end": 2}],
                        "text": "a",
                    },
                    {"confidence": 2.0, "result": [], "text": ""},
                ]
            }
        ),
        json.dumps({"strike": 2.5}),
    ]
    utts, strikes = tl.read_events(lines)
    assert [u.top.text for u in utts] == ["тройку", "a"]
    assert utts[0].top.words[0] == tl.Word("тройку", 0.5, 0.8, 0.9)
    assert len(utts[1].hypotheses) == 2 and utts[1].line == 6
    assert strikes == [tl.Strike(2.5, 7)]


@pytest.mark.parametrize(
    "line,field",
    [
        ("{not json", "json"),
        ("[1, 2]", "event"),
        ('{"hello": 1}', "event"),
        ('{"strike": "soon"}', "strike"),
        ('{"strike": -1}', "strike"),
        ('{"strike": NaN}', "strike"),
        ('{"result": {"word": "x"}}', "result"),
        ('{"result": [{"start": 0, "end": 1}]}', "result[0].word"),
        ('{"result": [{"word": "x", "end": 1}]}', "result[0].start"),
        ('{"result": [{"word": "x", "start": 2, "end": 1}]}', "result[0].end"),
        ('{"result": [{"word": "x", "start": 0, "end": 1, "conf": "hi"}]}', "result[0].conf"),
        (
            '{"result": [{"word": "x", "start": 1, "end": 2}, '
            '{"word": "y", "start": 0, "end": 0.5}]}',
            "result[1].start",
        ),
        ('{"alternatives": []}', "alternatives"),
        (
            '{"alternatives": [{"confidence": 1, "result": [{"word": "x", "start": 0}]}]}',
            "alternatives[0].result[0].end",
        ),
        ('{"text": "тройку"}', "result"),
        ('{"partial": 5}', "partial"),
    ],
)
def test_malformed_lines_name_the_line_and_the_field(line, field):
    with pytest.raises(tl.EventError) as err:
        tl.read_events(['{"strike": 1.0}', line])
    assert err.value.line == 2 and err.value.field == field
    assert str(err.value).startswith(f"line 2: {field}: ")
    assert err.value.text("en") == str(err.value)
    ru = err.value.text("ru")
    from pyramid_referee.rules.errors import field_ru

    where = "строка 2: " + ("" if field in ("event", "json") else f"{field_ru(field)}: ")
    assert ru.startswith(where) and ru != str(err.value).replace("line", "строка", 1)
    # the Russian line names fields in words and quotes what the user wrote: no bare Latin
    import re

    assert not re.findall(r"[A-Za-z]+", re.sub(r"«[^«»]*»", "", ru)), ru


# --- the corpus through the real parser -------------------------------------------------------


def _grammar_ready():
    try:
        from pyramid_referee.grammar import mentions_call, parse  # noqa: F401
    except ImportError as exc:
        return str(exc)
    return ""


GRAMMAR_MISSING = _grammar_ready()
EXPECTED = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))


@pytest.mark.skipif(
    bool(GRAMMAR_MISSING), reason=f"the call parser is not there yet: {GRAMMAR_MISSING}"
)
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_double_with_the_real_parser(name):
    lines = (CORPUS / f"double_{name}.jsonl").read_text(encoding="utf-8").splitlines()
    utts, strikes = tl.read_events(lines)
    ds = tl.decide(utts, strikes, lang="en")
    assert len(ds) == len(EXPECTED[name])
    for d, want in zip(ds, EXPECTED[name]):
        assert d.status == want["status"], (d.to_json(), want)
        assert d.heard == want["heard"]
        if "ball" in want:
            assert d.call["ball"] == want["ball"] and Call.from_json(d.call).ball == want["ball"]
        if "code" in want:
            assert d.reason["code"] == want["code"]
        if d.status == "rejected":
            assert {"code", "message"} <= set(d.reason)
        json.dumps(d.to_json())  # serializable


def test_every_corpus_file_is_expected_or_recorded():
    names = {p.name for p in CORPUS.glob("*.jsonl")}
    doubles = {f"double_{n}.jsonl" for n in EXPECTED}
    assert doubles <= names
    assert all(n in doubles or n.startswith("recorded_") for n in names)
    for p in CORPUS.glob("recorded_*.jsonl"):  # real Vosk output reads cleanly
        utts, strikes = tl.read_events(p.read_text(encoding="utf-8").splitlines())
        assert strikes and all(math.isfinite(u.start) for u in utts)


class KoreanGrammar:
    """Test double: the call language over the Korean words of the recorded lines."""

    CALL = Call(3, MIDDLE, (("cue", 3), (3, "pocket")))

    @staticmethod
    def parse(text, *, mode="clean", balls_left=None):
        return KoreanGrammar.CALL if text == "오른쪽 음악" else FakeRefusal("incomplete", text)

    @staticmethod
    def mentions_call(text):
        return any(w in {"오른쪽", "음악", "왼쪽"} for w in text.split())


@pytest.mark.parametrize(
    "name,want",
    [
        ("two_strokes", [("accepted", "오른쪽 음악"), ("rejected", "왼쪽")]),
        ("click_inside_utterance", [("late", "오른쪽 음악")]),
    ],
)
def test_recorded_vosk_lines(name, want):
    lines = (CORPUS / f"recorded_ko_{name}.jsonl").read_text(encoding="utf-8").splitlines()
    utts, strikes = tl.read_events(lines)
    ds = tl.decide(
        utts, strikes, parse=KoreanGrammar.parse, mentions_call=KoreanGrammar.mentions_call
    )
    assert [(d.status, d.heard) for d in ds] == want
    assert all(
        all(w.end < d.strike for w in u.top.words)
        for d in ds
        if d.status == "accepted"
        for u in utts
        if u.top.text == d.heard
    )


# --- Q13: a missed strike never costs the call; Q14: the marker takes back a false strike ------


def decide_all(g, utterances, strikes, **kw):
    return tl.decide(utterances, strikes, parse=g.parse, mentions_call=g.mentions_call, **kw)


def test_Q13_an_outcome_with_no_strike_heard_takes_the_standing_call(g):
    [d] = decide_all(g, [utt(words(CALL, 0.5))], [], outcomes=[6.0])
    assert (d.strike, d.outcome, d.status, d.heard, d.call["ball"]) == (
        None,
        6.0,
        "accepted",
        CALL,
        3,
    )
    assert not d.strike_heard and "Q13" in d.clauses
    assert d.note == "удар не услышан — заказ взят по вводу исхода"
    j = d.to_json()
    assert j["strike"] is None and j["strike_heard"] is False and j["outcome"] == 6.0
    assert j["note"] == d.note and j["status"] == "accepted"


def test_Q13_a_refused_standing_call_is_taken_refused(g):
    [d] = decide_all(g, [utt(words("двойку", 0.5))], [], outcomes=[4.0], lang="en")
    assert (d.status, d.heard, d.strike) == ("rejected", "двойку", None)
    assert d.note == "strike not heard — call taken when the outcome was entered"


def test_Q13_a_call_begun_after_the_last_table_sound_is_not_taken(g):
    """The balls moved (table sounds at 3.0 and 3.6), then the next player began his call: it is
    the next stroke's. The call finished before the last table sound stands; the new one goes
    to the next strike."""
    first, nxt = utt(words(CALL, 0.5)), utt(words("двойку прямо в середину", 4.5))
    q13, second = decide_all(g, [first, nxt], [9.0], outcomes=[7.0], sounds=[3.0, 3.6])
    assert (q13.strike, q13.status, q13.call["ball"]) == (None, "accepted", 3)
    assert (second.strike, second.status, second.call["ball"]) == (9.0, "accepted", 2)


def test_Q13_a_call_still_spoken_at_the_last_table_sound_is_not_taken(g):
    """Not finished at the last table sound: not the standing call; the one before it stands."""
    earlier, spoken = utt(words("двойку прямо в середину", 0.0)), utt(words(CALL, 3.0))
    [d] = decide_all(g, [earlier, spoken], [], outcomes=[8.0], sounds=[2.0, 3.5])
    assert (d.status, d.call["ball"]) == ("accepted", 2)


def test_Q13_without_table_sounds_the_outcome_itself_is_the_cut(g):
    [d] = decide_all(
        g, [utt(words(CALL, 0.5)), utt(words("двойку прямо", 6.8))], [], outcomes=[7.0]
    )
    assert (d.status, d.call["ball"]) == ("accepted", 3)  # «двойку прямо…» still going on at 7.0


def test_Q13_an_outcome_after_a_heard_strike_is_that_strikes_and_adds_nothing(g):
    ds = decide_all(g, [utt(words(CALL, 0.5))], [3.0], outcomes=[6.0])
    assert [(d.strike, d.status) for d in ds] == [(3.0, "accepted")]
    assert (
        ds[0].to_json() == decide(g, [utt(words(CALL, 0.5))], [3.0])[0].to_json()
    )  # as without outcomes


def test_Q13_strokes_alternate_heard_and_not_heard_each_with_its_own_call(g):
    us = [
        utt(words(CALL, 0.5)),
        utt(words("двойку прямо в середину", 8.0)),
        utt(words("пятёрку в середину", 15.0)),
    ]
    ds = decide_all(g, us, [3.0, 17.0], outcomes=[6.0, 12.0, 20.0])
    assert [(d.strike, d.outcome, d.status, d.call["ball"]) for d in ds] == [
        (3.0, None, "accepted", 3),
        (None, 12.0, "accepted", 2),
        (17.0, None, "accepted", 5),
    ]


def test_Q14_a_taken_back_strike_is_void_and_the_call_it_made_late_counts_again(g):
    u = utt(words(CALL, 1.0))  # a false strike at 1.5, inside the call's words
    before = decide_all(g, [u], [1.5, 9.0])
    assert [d.status for d in before] == ["late", "rejected"]  # the player lost his call
    false, real = decide_all(g, [u], [1.5, 9.0], taken_back=[1.5])
    assert (false.strike, false.status, false.taken_back) == (1.5, "late", True)
    assert false.note == "снят маркёром" and "Q14" in false.clauses
    assert false.to_json()["taken_back"] is True and false.to_json()["note"] == "снят маркёром"
    assert (real.strike, real.status, real.heard, real.call["ball"]) == (9.0, "accepted", CALL, 3)
    assert "taken_back" not in real.to_json()


def test_Q14_then_Q13_the_voided_call_counts_when_the_outcome_is_entered(g):
    """The false strike taken back, the real one not heard: the outcome takes the call."""
    false, q13 = decide_all(g, [utt(words(CALL, 1.0))], [1.5], taken_back=[1.5], outcomes=[7.0])
    assert false.taken_back and (q13.strike, q13.status, q13.call["ball"]) == (None, "accepted", 3)


def test_Q14_a_take_back_that_names_no_strike_is_refused(g):
    with pytest.raises(tl.EventError, match="no strike at 2.0 s to take back"):
        decide_all(g, [], [1.5], taken_back=[2.0], lang="en")


def test_Q13_Q14_the_new_events_are_read_from_lines(g):
    lines = [
        json.dumps(
            {
                "result": [
                    {"word": w.word, "start": w.start, "end": w.end} for w in words(CALL, 1.0)
                ]
            },
            ensure_ascii=False,
        ),
        '{"strike": 1.5}',
        '{"taken_back": 1.5}',
        '{"sound": 3.0}',
        '{"outcome": 7.0}',
    ]
    ev = tl.read_timeline(lines)
    assert (
        [s.time for s in ev.strikes],
        [o.time for o in ev.outcomes],
        [t.time for t in ev.taken_back],
        [s.time for s in ev.sounds],
    ) == ([1.5], [7.0], [1.5], [3.0])
    assert (
        tl.read_events(lines)[1] == ev.strikes
    )  # the old reader still gives utterances and strikes
    false, q13 = ev.decide(parse=g.parse, mentions_call=g.mentions_call)
    assert false.taken_back and q13.status == "accepted" and q13.outcome == 7.0
    with pytest.raises(tl.EventError) as bad:
        tl.read_timeline(['{"outcome": -1}'])
    assert bad.value.line == 1 and bad.value.field == "outcome"


def test_Q13_Q14_describe_says_the_mark():
    from pyramid_referee.referee import listen

    q13 = tl.Decision(
        None,
        "accepted",
        None,
        CALL,
        None,
        ("C9", "Q13"),
        outcome=7.0,
        note="удар не услышан — заказ взят по вводу исхода",
    )
    assert (
        listen.describe(q13, "ru")
        == f"удар не услышан — заказ взят по вводу исхода: заказ принят: {CALL}"
    )
    void = tl.Decision(
        1.5,
        "late",
        None,
        CALL,
        "заказ недействителен",
        ("C10", "Q14"),
        taken_back=True,
        note="снят маркёром",
    )
    assert listen.describe(void, "ru").startswith("удар 1.50 с: заказ недействителен")
    assert listen.describe(void, "ru").endswith(" — снят маркёром")


def test_Q13_Q14_timeline_command_reads_outcomes_and_take_backs(tmp_path, capsys, monkeypatch):
    from pyramid_referee import cli

    g = FakeGrammar()
    monkeypatch.setattr(tl, "_grammar", lambda: (g.parse, g.mentions_call))
    ev = tmp_path / "events.jsonl"
    ev.write_text(
        "\n".join(
            [
                json.dumps(
                    {
                        "result": [
                            {"word": w.word, "start": w.start, "end": w.end}
                            for w in words(CALL, 1.0)
                        ]
                    },
                    ensure_ascii=False,
                ),
                '{"strike": 1.5}',
                '{"taken_back": 1.5}',
                '{"sound": 3.0}',
                '{"outcome": 7.0}',
            ]
        ),
        encoding="utf-8",
    )
    assert cli.main(["timeline", str(ev), "--json"]) == 0
    false, q13 = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert (
        false["strike"] == 1.5 and false["taken_back"] is True and false["note"] == "снят маркёром"
    )
    assert q13["strike"] is None and q13["strike_heard"] is False and q13["status"] == "accepted"
    assert q13["outcome"] == 7.0 and q13["note"] == "удар не услышан — заказ взят по вводу исхода"
    ev.write_text('{"strike": 1.5}\n{"taken_back": 2.5}\n', encoding="utf-8")
    assert cli.main(["timeline", str(ev)]) == 2
    assert "строка 2" in capsys.readouterr().err
