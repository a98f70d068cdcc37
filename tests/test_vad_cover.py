"""How much of the calls' word time the voice activity marks (corpora/audio/vad_cover.py), on a
recorded Russian voice (../shared/speech, read in place) and on a span of room noise alone."""

from __future__ import annotations

import numpy as np
import pytest
import table_mix
import vad_cover  # corpora/audio/vad_cover.py (path set in conftest.py)

from pyramid_referee.voice.audio import RATE


def test_a_recorded_voice_is_marked_and_room_noise_is_not(speech):
    """The clip with the most pauses (the voice activity's background is the quiet between
    words), whole, 2 s into room noise; then 2 s of the noise alone, said to be a call too."""
    clip = max(speech.of("speech"), key=lambda c: len(c.spans))
    voice = np.asarray(clip.samples, np.float64)
    n = len(voice)
    x = table_mix.pink(np.random.default_rng(3), n + 6 * RATE) * 0.002
    x[2 * RATE : 2 * RATE + n] += 0.3 * voice / np.abs(voice).max()
    end = (n + 2 * RATE) / RATE
    truth = {
        "calls": [
            {"engine": "real", "words": [[a + 2.0, b + 2.0] for a, b in clip.spans]},
            {"engine": "festival", "words": [[end + 1.5, end + 3.5]]},  # no one speaks there
        ]
    }
    shares = vad_cover.cover(x, truth)
    assert len(shares) == len(clip.spans) + 1
    *spoken, (kind2, voiced2, fg2, secs2) = shares
    assert {k for k, *_ in spoken} == {"recorded"} and (kind2, secs2) == ("Festival", 2.0)
    secs = [s for *_, s in spoken]
    assert secs == pytest.approx([b - a for a, b in clip.spans])
    assert np.average([v for _, v, _, _ in spoken], weights=secs) >= 0.4
    assert np.average([f for _, _, f, _ in spoken], weights=secs) >= 0.4
    assert voiced2 == pytest.approx(0.0, abs=0.05) and fg2 == pytest.approx(0.0, abs=0.05)


def test_every_recorded_speaker_is_mostly_marked_as_talk(speech):
    """Each speaker's clips alone: a share of the talk marked, at least 0.3 for every speaker
    with 10 s of talk or more (bykovsky, whose talk spans hold his short pauses, is the lowest:
    about 0.4)."""
    shares = vad_cover.by_speaker(speech)
    assert len(shares) >= 5
    for name, (secs, voiced, fg) in shares.items():
        assert 0.0 <= fg <= voiced <= 1.0, name
        if secs >= 10:
            assert fg >= 0.3, (name, fg)


def test_an_unknown_condition_is_named(capsys):
    assert vad_cover.main(["--conditions", "1 dB"]) == 2
    assert "unknown condition(s) ['1 dB']" in capsys.readouterr().err
