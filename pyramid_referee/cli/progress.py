"""Progress on long audio: a rich bar on stderr while a long recording is heard.

An evening's recording (two hours) takes minutes to go through the strike detector, and far
longer through the recognizer; without a bar the command looks hung. The bar is drawn only on a
terminal and only for recordings of at least ``MIN_SECONDS``: piped or redirected output, and
the short files of everyday use, stay exactly as they were.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator

from ..i18n import tr

MIN_SECONDS = 60.0
"""Recordings shorter than this are heard without a bar (they take a second or two)."""


class AudioProgress:
    """A context manager: ``frames(blocks)`` passes a recording's blocks through and moves the
    bar as they go; the bar is drawn from the first block and taken away on leaving, whatever
    ended it (an error's message is never drawn over). Draws nothing when the module's note says
    so."""

    def __init__(self, label: str, seconds: float, *, console=None, min_seconds=MIN_SECONDS):
        self.label, self.seconds, self.console = label, float(seconds), console
        self.bar = self.task = None
        stream = sys.stderr if console is None else console.file
        self.drawn = self.seconds >= min_seconds and (console is not None or _is_terminal(stream))

    def __enter__(self) -> AudioProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _start(self) -> None:
        # deferred: rich, only where it draws
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[heard]}"),
            TimeRemainingColumn(),
            console=self.console if self.console is not None else Console(stderr=True),
            transient=True,
        )
        self.task = self.bar.add_task(self.label, total=self.seconds, heard=self._heard(0.0))
        self.bar.start()

    def _heard(self, done: float) -> str:
        return tr("{done} of {total} heard").format(done=_clock(done), total=_clock(self.seconds))

    def update(self, done_s: float) -> None:
        """The bar at ``done_s`` seconds of the recording heard."""
        if not self.drawn:
            return
        if self.bar is None:
            self._start()
        done = min(float(done_s), self.seconds)
        self.bar.update(self.task, completed=done, heard=self._heard(done))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
        self.drawn = False  # once taken away, it stays away

    def frames(self, frames: Iterable, every: int = 100) -> Iterator:
        """``frames`` (audio blocks with ``t1``) passed through, the bar moved every ``every``
        blocks."""
        for i, frame in enumerate(frames):
            if i % every == 0:
                self.update(frame.t0)
            yield frame


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or not a real stream
        return False


def _clock(seconds: float) -> str:
    """1:02:03 or 12:34: a recording's position, as players read a clock."""
    s = int(seconds)
    h, m, s = s // 3600, s // 60 % 60, s % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
