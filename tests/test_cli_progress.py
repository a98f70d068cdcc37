"""The bar a long recording gets while it is heard (pyramid_referee.cli.progress)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from rich.console import Console

from pyramid_referee.cli import progress
from pyramid_referee.cli.progress import AudioProgress
from pyramid_referee.voice.audio import array_frames


def _terminal() -> Console:
    return Console(file=io.StringIO(), force_terminal=True, width=100, color_system=None)


def test_a_long_recording_on_a_terminal_gets_a_bar_that_says_how_much_is_heard():
    con = _terminal()
    frames = list(array_frames(np.zeros(16000 * 90, dtype=np.float32)))
    with AudioProgress("удары", 90.0, console=con) as bar:
        passed = list(bar.frames(frames))
        assert bar.bar is not None and bar.bar.live.is_started
    assert passed == frames  # every block, in order, untouched
    assert not bar.bar.live.is_started  # taken away on leaving
    out = con.file.getvalue()
    assert "удары" in out and "прослушано 0:00 из 1:30" in out and "прослушано 1:29 из 1:30" in out


def test_short_recordings_and_piped_output_get_no_bar(monkeypatch):
    con = _terminal()
    with AudioProgress("удары", 59.0, console=con) as bar:
        list(bar.frames(array_frames(np.zeros(16000 * 59, dtype=np.float32))))
    assert con.file.getvalue() == "" and bar.bar is None
    monkeypatch.setattr("sys.stderr", io.StringIO())  # not a terminal
    with AudioProgress("удары", 3600.0) as bar:
        assert not bar.drawn
        list(bar.frames(array_frames(np.zeros(16000 * 2, dtype=np.float32))))
    assert bar.bar is None and progress.sys.stderr.getvalue() == ""


def test_an_error_while_hearing_takes_the_bar_away_before_its_message():
    con = _terminal()
    frames = array_frames(np.zeros(16000 * 120, dtype=np.float32))
    with pytest.raises(RuntimeError):
        with AudioProgress("распознавание", 120.0, console=con) as bar:
            for i, _ in enumerate(bar.frames(frames)):
                if i == 500:
                    raise RuntimeError("the recognizer failed")
    assert not bar.bar.live.is_started
    bar.update(60.0)  # nothing is drawn again once it was taken away
    assert not bar.bar.live.is_started


@pytest.mark.parametrize("s, shown", [(0, "0:00"), (75.9, "1:15"), (3725, "1:02:05")])
def test_the_position_reads_as_a_clock(s, shown):
    assert progress._clock(s) == shown
