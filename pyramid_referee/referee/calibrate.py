"""``strikes calibrate`` and ``listen --calibrate``: hear a few strikes and collisions, save the
table's profile.

From the microphone the player is asked, in the user's language, for ``--count`` strikes (one at
a time, the table quiet between them) and then ``--collisions`` ball collisions; each part ends
when that many sounds were heard, or after ``--seconds`` (default 60). From recordings
(``--from STRIKES.wav [COLLISIONS.wav]``) the same is read from files. The profile is saved only
when exactly the asked number of strikes was heard: a calibration that heard too few or too many
is reported and nothing is written.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

import numpy as np

from ..catalog import trl, trn
from ..i18n import UserError
from ..voice import profile as prof
from ..voice.audio import LevelWatch, read_wav_noted
from ..voice.calibrate import calibrate, is_voice
from ..voice.mic import MicrophoneSource
from ..voice.onsets import OnsetDetector
from ..voice.sequence import SALIENT_DB, SALIENT_FLUX_DB
from ..voice.sound_class import load_model


@dataclass(frozen=True)
class CalibrateOptions:
    """What a calibration is asked, as plain values (``strikes calibrate`` builds them from its
    options; ``listen --calibrate`` takes the defaults with its own microphone)."""

    count: int = 5  # strikes to hear
    collisions: int = 3  # ball collisions to hear (0: none)
    name: str | None = None  # the profile's name (None: the default profile)
    from_files: list[str] | None = (
        None  # recordings instead of the microphone: strikes, collisions
    )
    seconds: float | None = None  # the most each part listens (None: 60 s)
    device: str | None = None
    block_ms: float = 10.0
    json: bool = False  # the result as one JSON line
    lang: str = "ru"  # what the player is told: the user's language


def _read(path: str, lang: str):
    samples, notes = read_wav_noted(path, lang=lang)
    for note in notes:
        print(f"pyramid-referee: {note}", file=sys.stderr)
    return samples


def _record(args, what: str, count: int, counter) -> object:
    """Record from the microphone until ``counter(samples)`` reaches ``count`` or time is up."""
    seconds = args.seconds or 60.0
    blocks = []
    heard = 0
    with MicrophoneSource(args.device, args.block_ms, lang=args.lang) as mic:
        # said once the microphone is open: a strike played before this line is not heard
        print(
            trl(args.lang, "{what} (listening up to {seconds:.0f} s; Ctrl-C to stop)").format(
                what=what, seconds=seconds
            ),
            file=sys.stderr,
            flush=True,
        )
        watch = LevelWatch(lang=args.lang)  # a muted microphone is said, not counted as 0
        try:
            for frame in mic:
                blocks.append(frame.samples.copy())
                note = watch.feed(frame.samples)
                if note:
                    print(f"pyramid-referee: {note}", file=sys.stderr, flush=True)
                n = counter(frame)
                if n > heard:
                    heard = n
                    print(
                        trl(args.lang, "  heard: {heard} of {count}").format(
                            heard=heard, count=count
                        ),
                        file=sys.stderr,
                    )
                if heard >= count or frame.t1 >= seconds:
                    break
        except KeyboardInterrupt:
            raise UserError(trl(args.lang, "calibration interrupted, no profile saved")) from None
        problem = mic.problems()
    if problem:
        print(f"pyramid-referee: {problem}", file=sys.stderr)
    return np.concatenate(blocks) if blocks else np.zeros(0, np.float32)


class _LiveCounter:
    """Counts, while recording, what calibration will take: first sounds after quiet (strikes) or
    every non-speech sound (collisions)."""

    def __init__(self, strikes: bool) -> None:
        self.det = OnsetDetector()
        self.model = load_model()
        self.strikes = strikes
        self.n = 0
        self.last = -1e9

    def __call__(self, frame) -> int:
        for o in self.det.feed(frame.samples, frame.t0):
            if o.feature("level_db") < SALIENT_DB or o.feature("flux_db") < SALIENT_FLUX_DB:
                continue  # a ripple of the room's noise, not a sound
            if is_voice(self.model.proba(o.features), self.model):
                continue
            if o.time - self.last >= (1.0 if self.strikes else 0.5):
                self.n += 1
            self.last = o.time
        return self.n


def calibrate_profile(args: CalibrateOptions):
    """Hear, fit and report; return the profile (saved) or raise UserError (nothing saved)."""
    if args.count < 1 or args.count > 50:
        raise UserError(trl(args.lang, "--count: a number of strikes from 1 to 50"))
    if args.collisions < 0 or args.collisions > 50:
        raise UserError(trl(args.lang, "--collisions: a number from 0 to 50"))
    name = args.name or prof.DEFAULT_NAME
    if args.from_files:
        if len(args.from_files) > 2:
            raise UserError(
                trl(
                    args.lang,
                    "--from: a strikes file and optionally a collisions file, two at most",
                )
            )
        strikes_audio = _read(args.from_files[0], args.lang)
        coll_audio = _read(args.from_files[1], args.lang) if len(args.from_files) > 1 else None
    else:
        strikes_audio = _record(
            args,
            trl(
                args.lang,
                "Calibration: play {count} strikes on the cue ball, one at a time, 2–3 s apart "
                "(the table quiet).",
            ).format(count=args.count),
            args.count,
            _LiveCounter(True),
        )
        coll_audio = None
        if args.collisions:
            coll_audio = _record(
                args,
                trl(
                    args.lang, "Now {count} ball collisions: roll a ball by hand into another."
                ).format(count=args.collisions),
                args.collisions,
                _LiveCounter(False),
            )
    profile, st, co = calibrate(strikes_audio, coll_audio, strikes_asked=args.count, name=name)
    if not args.from_files:
        # fewer heard than asked: say which were heard and ask for the missing ones again, twice
        # at most
        for _ in range(2):
            missing = args.count - profile.strikes_found
            if missing <= 0:
                break
            print(missing_message(st, args.count, args.lang), file=sys.stderr)
            more = _record(
                args,
                trn(
                    "Once more: {n} strike, one at a time.",
                    "Once more: {n} strikes, one at a time, 2–3 s apart.",
                    missing,
                    args.lang,
                ).format(n=missing),
                missing,
                _LiveCounter(True),
            )
            strikes_audio = np.concatenate([strikes_audio, np.zeros(16000, np.float32), more])
            profile, st, co = calibrate(
                strikes_audio, coll_audio, strikes_asked=args.count, name=name
            )
    return profile, st, co


def missing_message(st, asked: int, lang: str) -> str:
    """Which strikes were heard (their times) and how many are missing, in ``lang``."""
    found = len(st.sounds)
    at = ", ".join(
        f"{s.time:.1f}".replace(".", ",") if lang != "en" else f"{s.time:.1f}" for s in st.sounds
    )
    heard = trn("heard {n} strike of {asked}", "heard {n} strikes of {asked}", found, lang).format(
        n=found, asked=asked
    )
    if at:
        heard += trl(lang, " (at {times} s)").format(times=at)
    if found > asked:
        return heard + "; " + trl(lang, "more than asked: were other sounds on the table?")
    return (
        heard
        + "; "
        + trn("{n} is missing", "{n} are missing", asked - found, lang).format(n=asked - found)
    )


def _db(value: float) -> float:
    """A level as shown in whole decibels: never «−0 дБ» (a level of −0.3 dB rounds to 0)."""
    return round(value) + 0.0


def report(profile, lang: str = "ru") -> list[str]:
    p = profile
    lines = [
        trn(
            "found {n} strike of {strikes_asked}; sure without calibration: "
            "{strikes_sure_before} of {n}",
            "found {n} strikes of {strikes_asked}; sure without calibration: "
            "{strikes_sure_before} of {n}",
            p.strikes_found,
            lang,
        ).format(
            n=p.strikes_found,
            strikes_asked=p.strikes_asked,
            strikes_sure_before=p.strikes_sure_before,
        )
    ]
    if p.collisions_heard:
        lines.append(
            trl(
                lang,
                "collisions heard: {collisions_heard}, taken for a strike with the profile: "
                "{collisions_as_strikes}",
            ).format(
                collisions_heard=p.collisions_heard, collisions_as_strikes=p.collisions_as_strikes
            )
        )
    if not p.separable and p.strikes_found:
        lines.append(
            trl(
                lang,
                "note: strikes and collisions sound alike here: move the microphone closer to the "
                "table, or play with --strike key",
            )
        )
    if not p.strikes_found:  # nothing heard: no level to tell (it would read «nan дБ»)
        return lines
    lines.append(
        trl(
            lang,
            "strike level {strike_level_db:.0f} dB, noise {background_db:.0f} dB, strike ring "
            "{strike_decay_ms:.0f} ms, direct to late sound {direct_to_late_db:.0f} dB; threshold "
            "shift {tip_bias:+.2f}, quietest strike {min_level_db:.0f} dB",
        ).format(
            strike_level_db=_db(p.strike_level_db),
            background_db=_db(p.background_db),
            strike_decay_ms=p.strike_decay_ms,
            direct_to_late_db=_db(p.direct_to_late_db),
            tip_bias=p.tip_bias,
            min_level_db=_db(p.min_level_db),
        )
    )
    return lines


def run_calibrate(args: CalibrateOptions) -> int:
    profile, st, co = calibrate_profile(args)
    ok = profile.strikes_found == profile.strikes_asked
    if args.json:
        out = {"profile": profile.to_json(), "saved": None}
    else:
        for line in report(profile, args.lang):
            print(line)
    if not ok:
        msg = trl(
            args.lang,
            "no profile saved: {heard}. Calibrate again: one strike at a time, 2–3 s of quiet "
            "between them (from a file: record it again so).",
        ).format(heard=missing_message(st, profile.strikes_asked, args.lang))
        if args.json:
            print(json.dumps(out, ensure_ascii=False))
        print(msg, file=sys.stderr)
        return 1
    try:
        path = prof.save(profile)
    except OSError as exc:
        raise UserError(
            trl(args.lang, "cannot save the profile: {strerror} ({filename})").format(
                strerror=exc.strerror, filename=exc.filename
            )
        ) from None
    if args.json:
        out["saved"] = str(path)
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(
            trl(args.lang, "profile «{name}» saved: {path}").format(name=profile.name, path=path)
        )
    return 0
