"""Calibration at the table: hear a few strikes and a few collisions, fit the table's profile.

The player is asked for ``n`` strikes, one at a time with the table quiet between them, then for a
few collisions (a ball rolled into another). Here the audio of each part is read as the detector
reads it (:mod:`.onsets` and the sound model), with what calibration knows for sure: in the
strikes part, **the first impulsive sound after at least ``gap_s`` of quiet is a strike** (whatever
the model thinks of it: that is what is being calibrated), everything after it until the next quiet
is that stroke's; in the collisions part every first impulsive sound after half a second of quiet
that is no speech is a collision.
:func:`.profile.fit` then turns them into a profile.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .audio import RATE, array_frames
from .onsets import OnsetDetector
from .profile import DEFAULT_NAME, TableProfile, fit
from .sequence import SALIENT_DB, SALIENT_FLUX_DB
from .sound_class import load_model
from .strike import Sound, StrikeParams


@dataclass
class Heard:
    """What one part of the calibration heard."""

    sounds: list[Sound]  # the sounds taken (strikes, or collisions)
    others: list[Sound]  # everything else heard
    background_db: float
    envelopes: list[
        np.ndarray
    ]  # for strikes: the 1 ms envelope (dB) of the 120 ms from each onset


def _sounds(samples: np.ndarray, model, params: StrikeParams):
    det = OnsetDetector(RATE, params.onset)
    tip = model.tip_index()
    out = []
    for fr in array_frames(np.asarray(samples, np.float32), 10):
        for o in det.feed(fr.samples, fr.t0):
            pr = model.proba(o.features)
            kind = model.classes[int(np.argmax(pr))]
            out.append(
                Sound(
                    o.time,
                    kind,
                    float(pr[tip]),
                    tuple(map(float, pr)),
                    "heard",
                    "",
                    True,
                    o.features,
                )
            )
    return out, det.background_db()


def _envelope(samples: np.ndarray, t: float, ms: int = 120) -> np.ndarray:
    s0 = int(round(t * RATE))
    seg = np.asarray(samples[s0 : s0 + ms * 16], float)
    n = len(seg) // 16
    return 10 * np.log10((seg[: n * 16].reshape(n, 16) ** 2).mean(axis=1) + 1e-14)


def _first_after_quiet(
    sounds: list[Sound], model, gap_s: float
) -> tuple[list[Sound], list[Sound]]:
    """The first sound after ``gap_s`` of quiet, each time (clear speech left out), and the
    rest."""
    taken, others, last = [], [], -np.inf
    for s in sounds:
        # a ripple of the room's noise (the onset detector proposes those too, so that no strike
        # is missed) neither breaks the quiet nor is a strike
        faint = s.feature("level_db") < SALIENT_DB or s.feature("flux_db") < SALIENT_FLUX_DB
        if faint or is_voice(s.proba, model):
            others.append(s)
            continue
        (taken if s.time - last >= gap_s else others).append(s)
        last = s.time
    return taken, others


def hear_strikes(
    samples: np.ndarray, *, gap_s: float = 1.0, model=None, params: StrikeParams | None = None
) -> Heard:
    """The strikes part: the first impulsive sound after ``gap_s`` of quiet, each time."""
    model = model or load_model()
    sounds, bg = _sounds(samples, model, params or StrikeParams())
    taken, others = _first_after_quiet(sounds, model, gap_s)
    return Heard(taken, others, bg, [_envelope(samples, s.time) for s in taken])


def hear_collisions(
    samples: np.ndarray, *, gap_s: float = 0.5, model=None, params: StrikeParams | None = None
) -> Heard:
    """The collisions part: the first impulsive sound after ``gap_s`` of quiet, each time (a
    collision's ring and any bounce after it are the same collision), speech left out."""
    model = model or load_model()
    sounds, bg = _sounds(samples, model, params or StrikeParams())
    taken, others = _first_after_quiet(sounds, model, gap_s)
    return Heard(taken, others, bg, [])


def is_voice(proba, model, p: float = 0.8) -> bool:
    """Clearly speech or a clap, by a sound's class probabilities (calibration hears a player who
    may talk meanwhile)."""
    d = dict(zip(model.classes, proba))
    return d["speech"] + d["clap"] >= p


def calibrate(
    strike_audio: np.ndarray,
    collision_audio: np.ndarray | None,
    *,
    strikes_asked: int,
    name: str = DEFAULT_NAME,
    model=None,
    params: StrikeParams | None = None,
) -> tuple[TableProfile, Heard, Heard | None]:
    """Fit a profile from the two recordings; also return what each part heard."""
    model = model or load_model()
    params = params or StrikeParams()
    st = hear_strikes(strike_audio, model=model, params=params)
    co = (
        hear_collisions(collision_audio, model=model, params=params)
        if collision_audio is not None
        else None
    )
    prof = fit(
        st.sounds,
        co.sounds if co else [],
        strikes_asked=strikes_asked,
        background_db=st.background_db,
        strike_envelopes=st.envelopes,
        model=model,
        params=params,
        name=name,
    )
    return prof, st, co
