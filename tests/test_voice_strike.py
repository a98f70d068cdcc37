"""The strike detector (voice/strike.py) on recorded billiards sounds.

Audio is mixed from the recordings in $PYRAMID_SOUNDS_DIR (read in place, never copied) by
corpora/audio/table_mix.py: Russian calls (espeak-ng), real cue strikes, their own collisions,
cushions and pocket drops. The held-out tests refit the sound model without three source
recordings (corpora/audio/fit_sound_model.py) and play one of those sources' sounds at a time,
so they say how the detector does on recordings it never saw. The full figures, every
source and condition, come from bench/bench_strike.py.
"""

from __future__ import annotations

import functools
import shutil

import numpy as np
import pytest
import strike_eval  # corpora/audio (path set in conftest.py)
import table_mix

from pyramid_referee.voice.audio import RATE, array_frames, resample
from pyramid_referee.voice.strike import StrikeDetector, detect_strikes, run_detector

HELD_OUT = ("vrcbce", "tailuge", "antigravitypool")

# Refitting the sound model without the held-out sources takes most of a minute: it is fitted
# once a process and shared by the tests below, which xdist keeps on one worker (the group;
# --dist loadgroup).
pytestmark = pytest.mark.xdist_group("sound_models_refitted")


@functools.cache
def held_out_model():
    """The models fitted without the three held-out sources together: none of them was heard in
    the fit, and it had less to learn from than the benchmark's leave-one-source-out ones (one
    fit here, not three). The decision is refitted, but not the one with RNNoise's measures
    riding on it (a minute's fit more): these tests hold the detector as it decides where
    RNNoise is missing; the cascade, refitted per fold, is measured by bench/bench_strike.py and
    its working is tested in test_voice_denoise.py."""
    return strike_eval.model_without(HELD_OUT, rnn=False)


@pytest.fixture(scope="module")
def espeak():
    if shutil.which("espeak-ng") is None:
        pytest.skip(
            "espeak-ng is not installed: the calls cannot be made (apt-get install espeak-ng)"
        )


def session(bank, seed, source, **kw):
    args = dict(n_strokes=4, snr_db=20, noise="pink", reverb=False)
    args.update(kw)
    return table_mix.make_session(np.random.default_rng(seed), bank, sources={source}, **args)


def test_the_refits_are_shared_by_the_tests_of_one_worker(request):
    """Under ``--dist loadgroup`` (scripts/test.sh) this file's tests run on one worker, which
    fits each held-out model once for all of them. pytest 9.2 broke the grouping without a word:
    every worker then fitted every model, and the suite took minutes longer. A run that groups
    marks the node id with the group's name."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run with --dist loadgroup (scripts/test.sh runs the suite so)")
    assert request.node.nodeid.endswith("@sound_models_refitted"), (
        f"--dist loadgroup did not group this test ({request.node.nodeid}): is pytest >= 9.2?"
    )


# -- the stroke structure ------------------------------------------------------------------------


def test_short_blocks_are_held_and_heard_together():
    """Blocks shorter than ``hear_block_s`` (40 ms) are held and heard together: 10 ms blocks
    reach the onset detector four at a time, on the first one's clock; ``time`` counts the
    blocks held; a jump in the stream's clock has what was held heard first; ``flush`` hears
    the rest."""
    det = StrikeDetector()
    heard = []
    inner = det.onsets.feed

    def logged(block, t0=None):
        heard.append((len(block), t0))
        return inner(block, t0)

    det.onsets.feed = logged
    x = np.random.default_rng(0).standard_normal(RATE) * 1e-3
    for i in range(10):
        det.feed(x[i * 160 : (i + 1) * 160], i / 100)
    assert heard == [(640, 0.0), (640, 0.04)]
    assert det.time == pytest.approx(0.1)
    det.feed(x[:160], 5.0)
    assert heard[-1] == (320, 0.08) and det.time == pytest.approx(5.01)
    det.flush()
    assert heard[-1] == (160, 5.0)


def test_silence_noise_and_hum_make_no_strike():
    rng = np.random.default_rng(0)
    assert detect_strikes(np.zeros(3 * RATE, np.float32)) == []
    assert detect_strikes((rng.standard_normal(5 * RATE) * 0.05).astype(np.float32)) == []
    t = np.arange(5 * RATE) / RATE
    hum = sum(0.05 / k * np.sin(2 * np.pi * 50 * k * t) for k in range(1, 10))
    assert detect_strikes(hum.astype(np.float32)) == []


def test_a_strike_on_a_quiet_table_is_found_and_its_stroke_sounds_are_not_strikes(bank):
    """Strike, then 0.3–1.8 s later its collisions, a cushion and a pocket drop: one strike."""
    import table_mix as tm

    x = tm.pink(np.random.default_rng(1), 5 * RATE) * 0.002
    truth = 1.0
    for name, at, peak in (
        ("cue_vrcbce_1.wav", truth, 0.5),
        ("ball_vrcbce_2.wav", 1.3, 0.6),
        ("ball_vrcbce_5.wav", 1.9, 0.4),
        ("cushion_poolbattle_1.wav", 2.2, 0.3),
        ("pocket_rxn7_1.wav", 2.8, 0.5),
    ):
        s, onset = tm.strike_sample(name, bank=bank, peak=peak)
        k = int(round((at - onset) * RATE))
        x[k : k + len(s)] += s[: len(x) - k]
    assert detect_strikes(x) == pytest.approx([truth], abs=0.005)


def test_P1_a_knock_while_the_balls_roll_and_nothing_is_said_is_the_strokes_own(bank):
    """Strokes (a recorded strike, its clack 0.4 s later) with nothing said between them: the one
    1.8 s after a strike comes while the balls still roll (P1), so it is that stroke's own sound,
    with the reason; strikes 3.2 s apart are each found (the balls have stopped)."""
    import table_mix as tm

    x = tm.pink(np.random.default_rng(3), 14 * RATE) * 0.002
    starts = (1.0, 2.8, 6.0, 9.2, 12.4)
    for at in starts:
        for name, dt, peak in (("cue_vrcbce_1.wav", 0.0, 0.5), ("ball_vrcbce_2.wav", 0.4, 0.6)):
            s, onset = tm.strike_sample(name, bank=bank, peak=peak)
            k = int(round((at + dt - onset) * RATE))
            x[k : k + len(s)] += s[: len(x) - k]
    det = StrikeDetector()
    for fr in array_frames(x.astype(np.float32), 10):
        det.feed(fr.samples, fr.t0)
    det.flush()
    assert [s.time for s in det.strikes] == pytest.approx([1.0, 6.0, 9.2, 12.4], abs=0.005)
    [rolling] = [s for s in det.sounds if abs(s.time - 2.8) < 0.005]
    assert rolling.decision == "in-stroke" and "balls still roll" in rolling.reason


def test_the_result_does_not_depend_on_the_block_size(bank, espeak):
    x, _ = session(bank, 2, "vrcbce")
    a = [t for t, _ in run_detector(array_frames(x.astype(np.float32), 10))]
    b = [t for t, _ in run_detector(array_frames(x.astype(np.float32), 7.3))]
    assert a == b and a


def test_any_rate_and_channels(bank):
    s, onset = table_mix.strike_sample(bank=bank, peak=0.5)
    x = np.zeros(3 * RATE, np.float32)
    x[RATE : RATE + len(s)] += s[: 2 * RATE]
    x += np.random.default_rng(3).standard_normal(len(x)).astype(np.float32) * 1e-3
    x44 = resample(x, RATE, 44100)
    assert detect_strikes(np.stack([x44, x44], axis=1), 44100) == pytest.approx(
        [1.0 + onset], abs=0.003
    )


def test_the_next_call_ends_the_stroke_so_a_strike_soon_after_it_is_found(bank, espeak):
    """The detector's second fault, the user's pattern: a strike every 4.8 s, the next call said while
    the previous stroke's balls may still sound, the strike about 1 s after the call."""
    found = 0
    for source in HELD_OUT:
        x, truth = table_mix.fixed_pattern(np.random.default_rng(5), bank, sources={source})
        sc = strike_eval.score(x, truth, held_out_model())
        # before the fix: 5 of 10 (every strike inside the old 3 s window was lost)
        assert sc.found >= 8, (source, sc.missed, sc.false)
        # the bar is no false strike; a speech onset still slips through now and then (the
        # bench's table counts them): this guards against it getting worse
        assert sc.n_false <= 2, (source, sc.false)
        found += sc.found
    assert found >= 27


def test_a_strike_1s_after_the_call_and_2_5s_after_the_previous_strike_is_found(bank, espeak):
    """The bar's case exactly: strike, its collision, the next call, and the next strike 1 s after
    the call's last word and 2.5 s after the previous strike."""
    import make_audio

    call = make_audio.speak("Пятый в угол", "ru", 190, 50)[: int(1.0 * RATE)] * 0.5
    x = table_mix.pink(np.random.default_rng(6), 7 * RATE) * 0.002
    first, second = 1.0, 3.5
    call_end = second - 1.0
    k = int((call_end - len(call) / RATE) * RATE)
    x[k : k + len(call)] += call
    for name, at, peak in (
        ("cue_vrcbce_1.wav", first, 0.4),
        ("ball_vrcbce_1.wav", first + 0.3, 0.4),
        ("cue_vrcbce_1.wav", second, 0.4),
    ):
        s, onset = table_mix.strike_sample(name, bank=bank, peak=peak)
        j = int(round((at - onset) * RATE))
        x[j : j + len(s)] += s[: len(x) - j]
    assert call_end - len(call) / RATE > first + 0.3  # the call after the stroke's clack
    assert detect_strikes(x) == pytest.approx([first, second], abs=0.005)


# -- held out: recordings the model never saw -------------------------------------------------


def test_held_out_sources_recall_and_false_strikes(bank, espeak):
    """Calls, strikes, their own sounds, room noise (and a room), each session from one source
    only, with the model fitted without it (and the other two); three sources at 20 dB (pink) and 10 dB
    (mains hum, in a room): 24 strikes. The bars are every strike and no false one; the detector
    does not meet them yet (bench/bench_strike.py has the full table). This guards what it does
    now against getting worse: at least 20 of the 24 found within 40 ms, at most 6 false."""
    total = strike_eval.Score()
    for source in HELD_OUT:
        for snr, noise, reverb in ((20, "pink", False), (10, "hum", True)):
            x, truth = session(bank, 7, source, snr_db=snr, noise=noise, reverb=reverb)
            total.add(strike_eval.score(x, truth, held_out_model()))
    assert total.strikes == 24
    assert total.found >= 20, (total.missed, total.false)
    assert total.n_false <= 6, total.false
    assert all(abs(e) <= 0.040 for e in total.onset_err)


def test_a_strike_is_decided_from_what_follows_it_within_1_5_s(bank, espeak):
    """The decision comes ``decide_after_s`` (1.2 s) plus at most a block after the onset: the
    stroke's cascade is heard, and the bar is 1.5 s. The time reported is still the onset."""
    x, truth = session(bank, 8, "vrcbce", snr_db=None)
    sc = strike_eval.score(x, truth, held_out_model())
    assert sc.found >= sc.strikes - 1 and sc.latency
    assert max(sc.latency) <= 1.5 and min(sc.latency) >= 1.2
    assert all(abs(e) <= 0.010 for e in sc.onset_err)


def test_calls_alone_make_no_strike(espeak):
    """A call's own plosives («Пятый прямо в правую», «Тук, так, пак…»), several voices, speeds
    and pitches: what follows each consonant is a vowel and more words, never a stroke. Some are
    shown as «удар?» at once; every one of those is taken back."""
    import make_audio

    rng = np.random.default_rng(9)
    parts = []
    for i, text in enumerate(make_audio.CALLS + make_audio.PLOSIVE_LINES):
        parts += [
            make_audio.speak(text, make_audio.VOICES[i % 5], 140 + 6 * i, 30 + 4 * i) * 0.5,
            np.zeros(int(rng.uniform(0.3, 1.2) * RATE)),
        ]
    x = np.concatenate([np.zeros(RATE)] + parts)
    x += rng.standard_normal(len(x)) * 1e-4
    det = StrikeDetector()
    final = [t for t, _ in run_detector(array_frames(x.astype(np.float32), 10), det)]
    # the bar is none at all: not met yet (2 of 15 lines here); this guards against it getting worse
    assert len(final) <= 2, final
    assert [round(s.time, 4) for s in det.strikes] == final
    shown = [e.t for e in det.events if e.provisional and e.t not in final]
    assert sorted(e.t for e in det.events if e.taken_back) == sorted(shown)
    assert not set(final) & set(det.retracted)
    assert sorted(shown) == sorted(det.retracted)


def test_a_provisional_strike_is_shown_at_the_onset_then_confirmed(bank):
    """What a screen shows: «удар?» as soon as the knock is heard (18 ms + a block after it),
    then the same onset confirmed once the stroke's cascade has been heard."""
    import table_mix as tm

    x = tm.pink(np.random.default_rng(1), 5 * RATE) * 0.002
    for name, at, peak in (
        ("cue_vrcbce_1.wav", 1.0, 0.5),
        ("ball_vrcbce_2.wav", 1.3, 0.6),
        ("cushion_poolbattle_1.wav", 1.9, 0.3),
    ):
        s, onset = tm.strike_sample(name, bank=bank, peak=peak)
        k = int(round((at - onset) * RATE))
        x[k : k + len(s)] += s[: len(x) - k]
    seen = []
    det = StrikeDetector(on_event=seen.append)
    decided = list(run_detector(array_frames(x.astype(np.float32), 10), det))
    assert [t for t, _ in decided] == pytest.approx([1.0], abs=0.005)
    first = [e for e in seen if abs(e.t - 1.0) < 0.005]
    assert [(e.provisional, e.taken_back) for e in first] == [(True, False), (False, False)]
    assert first[0].at - 1.0 <= 0.05 and 1.2 <= first[1].at - 1.0 <= 1.5
    assert seen == det.events


def test_the_microphone_path_takes_strikes_back_as_the_file_path_does(bank, espeak):
    """The same audio in blocks as a microphone gives them (any length, one at a time) and as a
    file: the same strikes, the same sounds taken back, the same events."""
    x, _ = session(bank, 12, "tailuge", snr_db=10, noise="babble")
    x = x.astype(np.float32)
    a = StrikeDetector()
    file_strikes = [t for t, _ in run_detector(array_frames(x, 10), a)]
    b = StrikeDetector()
    rng = np.random.default_rng(0)
    mic, i = [], 0
    while i < len(x):
        n = int(rng.integers(40, 1200))
        mic += b.feed(x[i : i + n], i / RATE)
        i += n
    mic += b.flush()
    assert mic == file_strikes
    assert b.retracted == a.retracted
    # (the same events; where two fall in one block their order may differ)
    assert sorted((e.t, e.provisional, e.taken_back) for e in b.events) == sorted(
        (e.t, e.provisional, e.taken_back) for e in a.events
    )
