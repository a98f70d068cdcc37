"""The strike detector told the recognizer's words (voice/strike.py: ``hear_words``, ``hearing``).

A knock inside a recognized word is speech unless the stroke's cascade follows it (a sound like
this session's clacks, talk or not, or an unvoiced knock outside the words; inside an utterance
whose words are not known yet, only one the first look hears as a table sound); a knock that
would be a strike while an utterance is being heard waits for that utterance's words, up to
1.45 s after its onset (Vosk gives word times only with its final result); a call said after a
stroke's last table sound ends the stroke. The table sounds are recordings from
../shared/sounds (read in place). The word spans are **test doubles** made from real Vosk output:
the Korean model's recorded results in ``corpora/vosk/recorded_ko_*.jsonl``, moved onto this
audio's clock (``shift_result``), since the audio here holds no speech for them.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import table_mix

from pyramid_referee.voice.audio import RATE, array_frames
from pyramid_referee.voice.recognizer import best_words, shift_result
from pyramid_referee.voice.strike import IN_WORD, StrikeDetector

VOSK = Path(__file__).resolve().parents[1] / "corpora" / "vosk"
STRIKE = 1.5


def recorded_words(name: str, word: str, over: float) -> list[dict]:
    """The words of a recorded Vosk result (test double), moved so that the middle of ``word``
    lies at ``over`` on this audio's clock."""
    for line in (VOSK / name).read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        ws = best_words(r)
        for w in ws:
            if w["word"] == word:
                return best_words(shift_result(r, over - (w["start"] + w["end"]) / 2))
    raise AssertionError(f"no {word} in {name}")


def stroke(bank, clack_after: float | None = 0.45) -> np.ndarray:
    """A quiet table, a recorded strike at STRIKE and (``clack_after``) the cue ball's clack on
    a ball that long after it, then a cushion."""
    x = table_mix.pink(np.random.default_rng(4), 4 * RATE) * 0.002
    parts = [("cue_vrcbce_1.wav", STRIKE, 0.5)]
    if clack_after is not None:
        parts += [
            ("ball_vrcbce_2.wav", STRIKE + clack_after, 0.6),
            ("cushion_poolbattle_1.wav", STRIKE + clack_after + 0.5, 0.3),
        ]
    for name, at, peak in parts:
        s, onset = table_mix.strike_sample(name, bank=bank, peak=peak)
        k = int(round((at - onset) * RATE))
        x[k : k + len(s)] += s[: len(x) - k]
    return x.astype(np.float32)


def run(x, words=(), *, known_at: float = 0.0, busy=None, **params):
    """The detector over ``x`` in 10 ms blocks; ``words`` told once the stream reaches
    ``known_at`` (as a final result), ``busy(t)``: whether an utterance is being heard then.
    Returns (detector, {strike onset: stream time of its decision})."""
    det = StrikeDetector(**params)
    told = False
    decided = {}
    for fr in array_frames(x, 10):
        if words and not told and fr.t0 >= known_at:
            det.hear_words(words)
            told = True
        if busy is not None:
            det.hearing(busy(fr.t0))
        for t in det.feed(fr.samples, fr.t0):
            decided[t] = fr.t1
    for t in det.flush():
        decided[t] = len(x) / RATE
    return det, decided


def at_strike(det):
    return [s for s in det.sounds if abs(s.time - STRIKE) < 0.01]


def test_a_strike_with_its_stroke_is_found_inside_a_word_and_without_one_it_is_the_words(bank):
    x = stroke(bank)
    alone, _ = run(x)
    assert [round(s.time, 2) for s in alone.strikes] == [STRIKE]  # the sound alone: a strike

    # Vosk's 음악 (0.45 s) said over the strike: its stroke's clack comes after the word
    over = recorded_words("recorded_ko_click_inside_utterance.jsonl", "음악", STRIKE + 0.05)
    assert over[-1]["end"] < STRIKE + 0.45
    det, _ = run(x, over)
    [s] = at_strike(det)
    assert s.in_word and s.decision == "strike"  # inside the word, and the stroke followed it

    # A longer stretch of words that covers the strike and its clack: no cascade outside them
    long = [
        {"word": w["word"], "start": STRIKE - 0.2 + i * 0.5, "end": STRIKE + 0.3 + i * 0.5}
        for i, w in enumerate(over * 3)
    ]
    det, _ = run(x, long)
    [s] = at_strike(det)
    assert s.in_word and s.decision != "strike" and s.reason.startswith(IN_WORD)
    assert det.strikes == []


def test_a_knock_outside_the_words_is_decided_as_without_them(bank):
    x = stroke(bank)
    before = recorded_words("recorded_ko_two_strokes.jsonl", "음악", STRIKE - 0.6)
    assert before[-1]["end"] < STRIKE - 0.03
    det, _ = run(x, before)
    alone, _ = run(x)
    assert [(s.time, s.decision) for s in det.sounds] == [
        (s.time, s.decision) for s in alone.sounds
    ]
    assert not any(s.in_word for s in det.sounds if s.time >= STRIKE - 0.01)


def test_a_strike_waits_for_the_words_being_heard_and_is_decided_within_1_5_s(bank):
    """An utterance begins as the strike rings (Vosk's partial result shows from 0.3 s after it):
    a knock that would be a strike waits for the words; they come with the final result 1.35 s
    after the onset, the word begun before the knock, and take it back (no cascade outside
    them). Never told them, it is decided 1.45 s after the onset as the sound alone decides."""
    x = stroke(bank, clack_after=None)
    cover = [{"word": "음악", "start": STRIKE - 0.1, "end": STRIKE + 1.3}]
    busy = lambda t: STRIKE + 0.3 <= t < STRIKE + 1.35  # noqa: E731
    alone, when_alone = run(x)
    if not alone.strikes:
        pytest.skip("the sound alone does not take this lone strike (nothing to wait for)")
    [t] = when_alone
    # decided at 1.2 s with no utterance going on, once its RNNoise window has run (0.2 s more)
    assert 1.2 <= when_alone[t] - t <= 1.45
    det, _ = run(x, cover, known_at=STRIKE + 1.35, busy=busy)
    assert det.strikes == [] and at_strike(det)[0].reason.startswith(IN_WORD)
    late, when = run(x, busy=lambda t: STRIKE + 0.3 <= t < STRIKE + 3)
    [t2] = when
    assert t2 == t and 1.44 <= when[t2] - t2 <= 1.5  # waited, then decided without the words


def test_a_knock_inside_an_utterance_being_heard_is_its_word_before_its_times_come(bank):
    """Vosk's partial result has shown an utterance since before the knock and no final result
    came by the decision (a long call: its word times come 0.6–1 s after its end): the knock is
    taken as inside its words, so a lone knock is the talk's while a strike with its stroke's
    clack after it stands."""
    busy = lambda t: STRIKE - 0.6 <= t < STRIKE + 3  # noqa: E731
    lone, _ = run(stroke(bank, clack_after=None), busy=busy)
    [s] = at_strike(lone)
    assert s.in_word and s.decision != "strike"
    with_stroke, when = run(stroke(bank), busy=busy)
    [s] = at_strike(with_stroke)
    assert s.in_word and s.decision == "strike"
    assert all(1.2 <= at - t <= 1.45 for t, at in when.items())  # no wait: its word is known


def test_a_clap_after_a_knock_in_an_utterance_is_no_cascade(bank):
    """Inside an utterance whose words are not known yet, only a knock the first look hears as a
    table sound confirms the knock before it (``cascade_table_look``): the voice activity marks
    only about half of a call's word time as voice, and the call's later plosives looked like the
    stroke's cascade. Here a hand clap (synthesized: the bank has no recorded one) follows a lone
    strike; it counted as the cascade before the rule."""
    x = stroke(bank, clack_after=None)
    clap, _ = table_mix.clap(np.random.default_rng(1))
    k = int((STRIKE + 0.5) * RATE)
    x[k : k + len(clap)] += (0.4 * clap).astype(np.float32)
    busy = lambda t: STRIKE - 0.6 <= t < STRIKE + 3  # noqa: E731
    before, _ = run(x, busy=busy, cascade_table_look=False)
    [s] = at_strike(before)
    assert s.in_word and s.decision == "strike"  # the clap was taken for the stroke's
    det, _ = run(x, busy=busy)
    [s] = at_strike(det)
    assert s.in_word and s.decision != "strike" and s.reason.startswith(IN_WORD)
    assert [h.kind for h in det.sounds if abs(h.time - STRIKE - 0.5) < 0.02] == ["clap"]


def two_strokes(bank, second_cascade: bool) -> np.ndarray:
    """A stroke at 1 s (strike, clack, cushion), then a strike at 4.5 s, with (``second_cascade``)
    or without the same clack and cushion after it."""
    x = table_mix.pink(np.random.default_rng(5), 7 * RATE) * 0.002
    parts = [
        ("cue_vrcbce_1.wav", 1.0, 0.5),
        ("ball_vrcbce_2.wav", 1.45, 0.6),
        ("cushion_poolbattle_1.wav", 1.95, 0.3),
        ("cue_vrcbce_1.wav", 4.5, 0.5),
    ]
    if second_cascade:
        parts += [("ball_vrcbce_2.wav", 4.95, 0.6), ("cushion_poolbattle_1.wav", 5.45, 0.3)]
    for name, at, peak in parts:
        s, onset = table_mix.strike_sample(name, bank=bank, peak=peak)
        k = int(round((at - onset) * RATE))
        x[k : k + len(s)] += s[: len(x) - k]
    return x.astype(np.float32)


def test_a_strike_spoken_over_is_confirmed_by_sounds_like_this_tables_clacks(bank):
    """Words said over the second strike and over all of its stroke (someone talking): no
    table sound follows it outside the words. Its clack and cushion sound like the first
    stroke's, so they are its cascade, talk or not (``cascade_clacklike``); before the rule the
    strike was taken back. A lone knock in the same words still is."""
    words = [(4.3 + i * 0.5, 4.75 + i * 0.5) for i in range(5)]  # 4.3–6.75 s
    strikes = lambda det: [round(s.time, 2) for s in det.strikes]  # noqa: E731
    before, _ = run(two_strokes(bank, True), words, cascade_clacklike=False)
    assert strikes(before) == [1.0]
    det, _ = run(two_strokes(bank, True), words)
    assert strikes(det) == [1.0, 4.5]
    assert [s.in_word for s in det.strikes] == [False, True]
    lone, _ = run(two_strokes(bank, False), words)
    assert strikes(lone) == [1.0]
    [s] = [s for s in lone.sounds if abs(s.time - 4.5) < 0.015]
    assert s.reason.startswith(IN_WORD)


def test_a_call_said_after_the_stroke_ends_it(bank):
    """Strike, clack; the next call's words (Vosk's recorded 왼쪽) 0.9 s after the strike; the
    next strike 1.9 s after the first. Told the words, the decision reads the second strike as
    coming after a stroke that has ended (nothing "since" it: 10 s), not as the first stroke's
    own sound 1.9 s after its strike; the clack before the call stays the stroke's own."""
    from pyramid_referee.voice.sequence import SEQ_FEATURES

    x = table_mix.pink(np.random.default_rng(5), 5 * RATE) * 0.002
    for name, at, peak in (
        ("cue_vrcbce_1.wav", 1.0, 0.5),
        ("ball_vrcbce_2.wav", 1.4, 0.6),
        ("cue_vrcbce_1.wav", 2.9, 0.5),
        ("ball_vrcbce_2.wav", 3.3, 0.6),
    ):
        s, onset = table_mix.strike_sample(name, bank=bank, peak=peak)
        k = int(round((at - onset) * RATE))
        x[k : k + len(s)] += s[: len(x) - k]
    call = recorded_words("recorded_ko_two_strokes.jsonl", "왼쪽", 2.2)
    assert 1.6 < call[0]["start"] and call[-1]["end"] < 2.7

    def since(words):
        det = StrikeDetector(collect=True)
        told = False
        for fr in array_frames(x.astype(np.float32), 10):
            if words and not told and fr.t0 >= call[-1]["end"] + 0.6:  # Vosk's final result
                det.hear_words(words)
                told = True
            det.feed(fr.samples, fr.t0)
        det.flush()
        i = SEQ_FEATURES.index("since_strike")
        [first] = [s.time for s in det.strikes if abs(s.time - 1.0) < 0.04]

        def at(t):
            [f] = [f for u, f in det.collected if abs(u - t) < 0.02]
            return f[i] - (t - first)  # 0: counted from the first strike

        return at(1.4), at(2.9)

    assert since(None) == pytest.approx((0.0, 0.0), abs=0.02)
    assert since(call) == pytest.approx((0.0, 10.0 - (2.9 - 1.0)), abs=0.05)
