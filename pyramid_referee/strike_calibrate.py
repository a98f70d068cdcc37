"""``strikes calibrate`` and ``listen --calibrate``: hear a few strikes and collisions, save the table's profile.

From the microphone the player is asked, in the user's language, for ``--count`` strikes (one at
a time, the table quiet between them) and then ``--collisions`` ball collisions; each part ends
when that many sounds were heard, or after ``--seconds`` (default 60). From recordings
(``--from STRIKES.wav [COLLISIONS.wav]``) the same is read from files. The profile is saved only
when exactly the asked number of strikes was heard: a calibration that heard too few or too many
is reported and nothing is written.
"""

from __future__ import annotations

import sys

from .i18n import UserError, get_lang, tr


def _read(path: str):
    from .voice.audio import read_wav

    return read_wav(path, lang=get_lang())


def _record(args, what_ru: str, what_en: str, count: int, counter) -> "object":
    """Record from the microphone until ``counter(samples)`` reaches ``count`` or time is up."""
    import numpy as np

    from .voice.mic import MicrophoneSource

    seconds = args.seconds or 60.0
    print(tr(f"{what_ru} (слушаю до {seconds:.0f} с; Ctrl-C — прервать)",
             f"{what_en} (listening up to {seconds:.0f} s; Ctrl-C to stop)"), file=sys.stderr)
    blocks = []
    heard = 0
    with MicrophoneSource(args.device, args.block_ms, lang=get_lang()) as mic:
        try:
            for frame in mic:
                blocks.append(frame.samples.copy())
                n = counter(frame)
                if n > heard:
                    heard = n
                    print(tr(f"  услышано: {heard} из {count}", f"  heard: {heard} of {count}"), file=sys.stderr)
                if heard >= count or frame.t1 >= seconds:
                    break
        except KeyboardInterrupt:
            raise UserError(tr("калибровка прервана, профиль не сохранён",
                               "calibration interrupted, no profile saved")) from None
        problem = mic.problems()
    if problem:
        print(f"pyramid-referee: {problem}", file=sys.stderr)
    return np.concatenate(blocks) if blocks else np.zeros(0, np.float32)


class _LiveCounter:
    """Counts, while recording, what calibration will take: first sounds after quiet (strikes) or
    every non-speech sound (collisions)."""

    def __init__(self, strikes: bool) -> None:
        from .voice.onsets import OnsetDetector
        from .voice.sound_class import load_model

        self.det = OnsetDetector()
        self.model = load_model()
        self.strikes = strikes
        self.n = 0
        self.last = -1e9

    def __call__(self, frame) -> int:
        from .voice.calibrate import is_voice

        for o in self.det.feed(frame.samples, frame.t0):
            if is_voice(self.model.proba(o.features), self.model):
                continue
            if o.time - self.last >= (1.0 if self.strikes else 0.5):
                self.n += 1
            self.last = o.time
        return self.n


def calibrate_profile(args):
    """Hear, fit and report; return the profile (saved) or raise UserError (nothing saved)."""
    from .voice import profile as prof
    from .voice.calibrate import calibrate

    if args.count < 1 or args.count > 50:
        raise UserError(tr("--count: нужно число ударов от 1 до 50", "--count: a number of strikes from 1 to 50"))
    if args.collisions < 0 or args.collisions > 50:
        raise UserError(tr("--collisions: нужно число от 0 до 50", "--collisions: a number from 0 to 50"))
    name = args.name or prof.DEFAULT_NAME
    if args.from_files:
        if len(args.from_files) > 2:
            raise UserError(tr("--from: файл с ударами и, если есть, файл со столкновениями — не больше двух",
                               "--from: a strikes file and optionally a collisions file, two at most"))
        strikes_audio = _read(args.from_files[0])
        coll_audio = _read(args.from_files[1]) if len(args.from_files) > 1 else None
    else:
        strikes_audio = _record(
            args, f"Калибровка: сделайте {args.count} ударов по битку, по одному, с паузой 2–3 с "
                  f"(стол должен быть тих).",
            f"Calibration: play {args.count} strikes on the cue ball, one at a time, 2–3 s apart "
            f"(the table quiet).", args.count, _LiveCounter(True))
        coll_audio = None
        if args.collisions:
            coll_audio = _record(
                args, f"Теперь {args.collisions} столкновения шаров: прокатите шар рукой в другой шар.",
                f"Now {args.collisions} ball collisions: roll a ball by hand into another.",
                args.collisions, _LiveCounter(False))
    profile, st, co = calibrate(strikes_audio, coll_audio, strikes_asked=args.count, name=name)
    return profile, st, co


def report(profile) -> list[str]:
    p = profile
    lines = [tr(f"найдено {p.strikes_found} ударов из {p.strikes_asked}; "
                f"уверенных без калибровки: {p.strikes_sure_before} из {p.strikes_found}",
                f"found {p.strikes_found} strikes of {p.strikes_asked}; "
                f"sure without calibration: {p.strikes_sure_before} of {p.strikes_found}")]
    if p.collisions_heard:
        lines.append(tr(f"столкновений услышано: {p.collisions_heard}, за удар профиль примет: {p.collisions_as_strikes}",
                        f"collisions heard: {p.collisions_heard}, taken for a strike with the profile: "
                        f"{p.collisions_as_strikes}"))
    if not p.separable and p.strikes_found:
        lines.append(tr("внимание: удары и столкновения звучат похоже — поставьте микрофон ближе к столу "
                        "или играйте с --strike key",
                        "note: strikes and collisions sound alike here: move the microphone closer to the "
                        "table, or play with --strike key"))
    lines.append(tr(f"уровень ударов {p.strike_level_db:.0f} дБ, шум {p.background_db:.0f} дБ, звон удара "
                    f"{p.strike_decay_ms:.0f} мс, прямой звук к отражённому {p.direct_to_late_db:.0f} дБ; "
                    f"поправка порога {p.tip_bias:+.2f}, самый тихий удар {p.min_level_db:.0f} дБ",
                    f"strike level {p.strike_level_db:.0f} dB, noise {p.background_db:.0f} dB, strike ring "
                    f"{p.strike_decay_ms:.0f} ms, direct to late sound {p.direct_to_late_db:.0f} dB; "
                    f"threshold shift {p.tip_bias:+.2f}, quietest strike {p.min_level_db:.0f} dB"))
    return lines


def run_calibrate(args) -> int:
    import json

    from .voice import profile as prof

    profile, st, co = calibrate_profile(args)
    ok = profile.strikes_found == profile.strikes_asked
    if args.json:
        out = {"profile": profile.to_json(), "saved": None}
    else:
        for line in report(profile):
            print(line)
    if not ok:
        msg = tr(f"профиль не сохранён: услышано {profile.strikes_found} ударов, а просили {profile.strikes_asked}. "
                 f"Повторите калибровку: удары по одному, между ними тишина 2–3 с.",
                 f"no profile saved: {profile.strikes_found} strikes heard, {profile.strikes_asked} asked. "
                 f"Calibrate again: one strike at a time, 2–3 s of quiet between them.")
        if args.json:
            print(json.dumps(out, ensure_ascii=False))
        print(msg, file=sys.stderr)
        return 1
    try:
        path = prof.save(profile)
    except OSError as exc:
        raise UserError(tr(f"не удалось сохранить профиль: {exc.strerror} ({exc.filename})",
                           f"cannot save the profile: {exc.strerror} ({exc.filename})")) from None
    if args.json:
        out["saved"] = str(path)
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(tr(f"профиль «{profile.name}» сохранён: {path}", f"profile «{profile.name}» saved: {path}"))
    return 0
