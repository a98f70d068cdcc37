"""What ``listen`` is asked, as plain values: the command line builds ``ListenOptions`` from its
arguments (the players' names checked, the mode spelled as the setting spells it), so nothing
below the command line depends on argparse.
"""

from __future__ import annotations

from dataclasses import dataclass

from .listen import DEFAULT_BLOCK_MS


@dataclass(frozen=True)
class ListenOptions:
    """One run of ``listen``; the names are the command line's options."""

    db: str | None = None  # the match store (None: $PYRAMID_REFEREE_DB or the user data directory)
    match: int | None = None  # go on with this stored match (None: the latest open one)
    players: list[str] | None = None  # a new match's two names, already checked
    mode: str | None = None  # a new match's call mode, as the setting spells it (ball_and_pocket)
    to_wins: int = 1
    club: str | None = None  # --club URL (None: $PYRAMID_REFEREE_CLUB, else no club)
    model: str | None = None  # the Vosk model folder (None: looked for)
    verbose: bool = False
    alternatives: int = 3
    strike: str = "audio"  # the cue's click in the audio, or "key": Enter
    device: str | None = None
    block_ms: float = float(DEFAULT_BLOCK_MS)
    speak: bool = False
    pad: bool = False
    why: bool = False
    profile: str | None = None  # the table profile's name or file; "none": no profile
    calibrate: bool = False  # at the table first (referee.calibrate.CalibrateOptions' defaults)
    lang: str = "ru"  # what everything is said in: the user's language (--lang)
