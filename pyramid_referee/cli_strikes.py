"""Subcommands of the strikes area (see cli.py): the strike detector alone.

    pyramid-referee strikes FILE.wav [--json]        strike times in a WAV file
    pyramid-referee strikes --mic [--device D] [--seconds S] [--json]
                                                    live, from the microphone: one line a strike
    pyramid-referee strikes --list-devices          the input devices (for --device)
"""

from __future__ import annotations

import argparse
import json
import sys

from .i18n import UserError, get_lang, tr


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommands to the main parser."""
    p = sub.add_parser(
        "strikes", parents=[common],
        help=tr("найти удары кия в WAV-файле или с микрофона", "find cue strikes in a WAV file or live"),
        description=tr("Детектор удара (щелчок наклейки по битку) отдельно от распознавания речи.",
                       "The strike detector (the click of the cue tip on the cue ball) on its own, "
                       "without speech recognition."),
    )
    p.add_argument("file", nargs="?", metavar="FILE.wav",
                   help=tr("WAV-файл (любая частота и число каналов)", "a WAV file (any rate, any channels)"))
    p.add_argument("--json", action="store_true",
                   help=tr('JSON: {"strikes": [секунды, …]}; с --mic — строка {"strike": секунды} на удар',
                           'JSON: {"strikes": [seconds, …]}; with --mic one line {"strike": seconds} a strike'))
    p.add_argument("--mic", action="store_true", help=tr("слушать микрофон", "listen to the microphone"))
    p.add_argument("--device", default=None,
                   help=tr("номер или часть имени устройства ввода", "input device: its number or part of its name"))
    p.add_argument("--seconds", type=float, default=None,
                   help=tr("с --mic: сколько секунд слушать", "with --mic: how many seconds to listen"))
    p.add_argument("--list-devices", action="store_true",
                   help=tr("список устройств ввода", "list the input devices"))
    p.add_argument("--block-ms", type=float, default=10.0,
                   help=tr("длина блока, мс (по умолчанию 10)", "block length, ms (default 10)"))
    p.add_argument("--stroke-window", type=float, default=None, metavar="S",
                   help=tr("окно удара, с: звуки после удара в этом окне — не новые удары (по умолчанию 3)",
                           "stroke window, s: sounds within it after a strike are not new strikes (default 3)"))
    p.set_defaults(handler=run)


def _detector_params(args) -> dict:
    if args.stroke_window is None:
        return {}
    if args.stroke_window < 0:
        raise UserError(tr("--stroke-window: нужно неотрицательное число секунд",
                           "--stroke-window: a non-negative number of seconds is needed"))
    return {"refractory_s": args.stroke_window}


def run(args) -> int:
    from .voice.errors import VoiceError

    if args.block_ms <= 0 or args.block_ms > 1000:
        raise UserError(tr("--block-ms: нужно число от 0 до 1000", "--block-ms: a number in (0, 1000] is needed"))
    try:
        if args.list_devices:
            return _list_devices(args)
        if args.mic:
            if args.file:
                raise UserError(tr("укажите либо файл, либо --mic", "give either a file or --mic"))
            return _live(args)
        if not args.file:
            raise UserError(tr("нужен WAV-файл (или --mic, или --list-devices)",
                               "a WAV file is needed (or --mic, or --list-devices)"))
        return _file(args)
    except VoiceError as exc:
        raise UserError(str(exc)) from exc


def _file(args) -> int:
    from .voice.audio import file_frames
    from .voice.strike import StrikeDetector, run_detector

    frames = file_frames(args.file, args.block_ms, lang=get_lang())
    det = StrikeDetector(**_detector_params(args))
    strikes = [round(t, 3) for t, _ in run_detector(frames, det)]
    if args.json:
        print(json.dumps({"strikes": strikes}))
        return 0
    seconds = frames.samples_read / frames.rate
    if not strikes:
        print(tr(f"{args.file}: ударов не найдено ({seconds:.1f} с звука)",
                 f"{args.file}: no strikes found ({seconds:.1f} s of audio)"))
        return 0
    print(tr(f"{args.file}: ударов {len(strikes)} ({seconds:.1f} с звука)",
             f"{args.file}: {len(strikes)} strike(s) ({seconds:.1f} s of audio)"))
    for i, t in enumerate(strikes, 1):
        print(tr(f"  удар {i}: {t:.3f} с", f"  strike {i}: {t:.3f} s"))
    return 0


def _list_devices(args) -> int:
    from .voice.mic import list_devices

    devices = list_devices(lang=get_lang())
    if args.json:
        print(json.dumps([d.__dict__ for d in devices], ensure_ascii=False))
        return 0
    if not devices:
        print(tr("устройств ввода нет", "no input devices"))
        return 0
    for d in devices:
        mark = "*" if d.is_default else " "
        print(f"{mark} {d.index:3d}  {d.name}  ({d.hostapi}, {d.max_input_channels} ch, "
              f"{d.default_samplerate:g} Hz)")
    return 0


def _live(args) -> int:
    from .voice.mic import MicrophoneSource
    from .voice.strike import StrikeDetector

    det = StrikeDetector(**_detector_params(args))
    with MicrophoneSource(args.device, args.block_ms, lang=get_lang()) as mic:
        if not args.json:
            print(tr(f"слушаю {mic.device_name!r}… (Ctrl-C — стоп)",
                     f"listening to {mic.device_name!r}… (Ctrl-C to stop)"), file=sys.stderr)
        try:
            for frame in mic:
                for t in det.feed(frame.samples, frame.t0):
                    if args.json:
                        print(json.dumps({"strike": round(t, 3)}), flush=True)
                    else:
                        print(tr(f"удар: {t:.3f} с", f"strike: {t:.3f} s"), flush=True)
                if args.seconds is not None and frame.t1 >= args.seconds:
                    break
        except KeyboardInterrupt:
            pass
        problem = mic.problems()
    if problem:
        print(f"pyramid-referee: {problem}", file=sys.stderr)
    return 0
