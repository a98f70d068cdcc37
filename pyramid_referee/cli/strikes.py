"""Subcommands of the strikes area (see cli.py): the strike detector alone.

pyramid-referee strikes FILE.wav [--json] [--explain] [--plot OUT.png] [--profile P]
                                                strike times in a WAV file, and why
pyramid-referee strikes --mic [--device D] [--seconds S] [--json]
                                                live, from the microphone: one line a strike
pyramid-referee strikes --list-devices          the input devices (for --device)
pyramid-referee strikes calibrate [--mic | --from STRIKES.wav [COLLISIONS.wav]]
                                  [--count N] [--collisions M] [--name NAME]
                                                fit and save this table's profile
"""

from __future__ import annotations

import argparse
import json
import sys

from ..i18n import UserError, get_lang, tr, trn
from .options import print_input_devices


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommands to the main parser."""
    p = sub.add_parser(
        "strikes",
        parents=[common],
        help=tr("find cue strikes in a WAV file or live; calibrate the table"),
        description=tr(
            "The strike detector (the cue tip on the cue ball) on its own, without speech "
            "recognition. «strikes calibrate» calibrates at the table: a few strikes and "
            "collisions; the table's profile is saved and used by strikes and listen."
        ),
    )
    _add_file_options(p)
    _add_mic_options(p)
    _add_calibration_options(p)
    p.set_defaults(handler=run)


def _add_file_options(p: argparse.ArgumentParser) -> None:
    """The file, what is said of it, and the table's profile."""
    p.add_argument(
        "file",
        nargs="?",
        metavar=tr("FILE.wav"),
        help=tr("a WAV file (any rate, any channels), or the word calibrate"),
    )
    p.add_argument(
        "--json",
        action="store_true",
        help=tr(
            'JSON: {"strikes": [seconds, …]} (with --explain also "sounds"); with '
            '--mic one line {"strike": seconds} a strike'
        ),
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help=tr("every impulsive sound heard: its time, what it is and why"),
    )
    p.add_argument(
        "--plot",
        metavar=tr("OUT.png"),
        default=None,
        help=tr(
            "draw the waveform and spectrogram with the strikes and sounds marked (PNG): at most "
            "{n} s of the recording"
        ).format(n=PLOT_MAX_S),
    )
    p.add_argument(
        "--plot-from",
        type=float,
        default=None,
        metavar=tr("SECONDS"),
        help=tr("with --plot: where the picture starts in the recording (default 0)"),
    )
    p.add_argument(
        "--profile",
        default=None,
        metavar=tr("NAME|FILE"),
        help=tr(
            "the table profile (default: the one calibration saved as «default», if "
            "any; none: no profile)"
        ),
    )


def _add_mic_options(p: argparse.ArgumentParser) -> None:
    """The microphone, and the detector's block and stroke window (files and the microphone)."""
    p.add_argument("--mic", action="store_true", help=tr("listen to the microphone"))
    p.add_argument(
        "--device",
        metavar=tr("DEVICE"),
        default=None,
        help=tr("input device: its number or part of its name"),
    )
    p.add_argument(
        "--seconds",
        metavar=tr("SECONDS"),
        type=float,
        default=None,
        help=tr("with --mic: how many seconds to listen"),
    )
    p.add_argument("--list-devices", action="store_true", help=tr("list the input devices"))
    p.add_argument(
        "--block-ms",
        metavar=tr("MS"),
        type=float,
        default=10.0,
        help=tr("block length, ms (default 10)"),
    )
    p.add_argument(
        "--stroke-window",
        type=float,
        default=None,
        metavar=tr("S"),
        help=tr(
            "every sound in the S seconds after a strike is that stroke's own (default: "
            "0.3, and 3 while nothing is said; after that what follows each sound decides)"
        ),
    )


def _add_calibration_options(p: argparse.ArgumentParser) -> None:
    """``strikes calibrate``: the recordings or the microphone, how many of each, the name."""
    cal = p.add_argument_group(tr("calibration (strikes calibrate)"))
    cal.add_argument(
        "--from",
        dest="from_files",
        nargs="+",
        metavar=tr("WAV"),
        default=None,
        help=tr("from recordings: a file of strikes and (optionally) a file of collisions"),
    )
    cal.add_argument(
        "--count",
        metavar=tr("N"),
        type=int,
        default=5,
        help=tr("how many strikes to ask for (default 5)"),
    )
    cal.add_argument(
        "--collisions",
        metavar=tr("N"),
        type=int,
        default=3,
        help=tr("how many ball collisions to ask for (default 3; 0: none)"),
    )
    cal.add_argument(
        "--name",
        metavar=tr("NAME"),
        default=None,
        help=tr("the profile's name (default: default)"),
    )


PLOT_MAX_S = 120
"""The most of a recording one picture draws: past that its lines no longer tell apart."""


def detector_params(stroke_window: float | None) -> dict:
    if stroke_window is None:
        return {}
    if stroke_window < 0:
        raise UserError(tr("--stroke-window: a non-negative number of seconds is needed"))
    return {"min_gap_s": stroke_window, "rolling_s": stroke_window}


def load_profile(spec: str | None):
    """The profile named on the command line, or the saved default, or None (``none``)."""
    # deferred: the audio stack (numpy) loads only to hear
    from ..voice import profile as prof

    return prof.load_spec(spec, lang=get_lang())


def run(args) -> int:
    if args.block_ms <= 0 or args.block_ms > 1000:
        raise UserError(tr("--block-ms: a number in (0, 1000] is needed"))
    if args.file == "calibrate":
        # deferred: calibration (numpy, the sound model) loads only for strikes calibrate
        from ..referee.calibrate import CalibrateOptions, run_calibrate

        return run_calibrate(
            CalibrateOptions(
                count=args.count,
                collisions=args.collisions,
                name=args.name,
                from_files=args.from_files,
                seconds=args.seconds,
                device=args.device,
                block_ms=args.block_ms,
                json=args.json,
                lang=get_lang(),
            )
        )
    if args.from_files:
        raise UserError(tr("--from is for «strikes calibrate» only"))
    if args.list_devices:
        return _list_devices(args)
    if args.plot_from is not None and not args.plot:
        raise UserError(tr("--plot-from is for --plot only"))
    if args.mic:
        if args.file:
            raise UserError(tr("give either a file or --mic"))
        if args.plot:
            raise UserError(tr("--plot draws a file's sounds; with --mic there is none"))
        return _live(args)
    if not args.file:
        raise UserError(tr("a WAV file is needed (or --mic, --list-devices, calibrate)"))
    if args.plot_from is not None and not args.plot_from >= 0:
        raise UserError(tr("--plot-from: a number of seconds, 0 or more, is needed"))
    return _file(args)


def _plot_window(args, seconds: float) -> tuple[float, float]:
    """(start, end) of the picture in the recording, checked against its length before the
    detector runs; a picture of part of the recording says so on stderr."""
    start = args.plot_from or 0.0
    if start >= seconds - 0.01:  # not even one 10 ms block of it left to draw
        raise UserError(
            tr("--plot-from {start:g}: the recording is only {seconds:.1f} s long").format(
                start=start, seconds=seconds
            )
        )
    end = min(seconds, start + PLOT_MAX_S)
    if start > 0 or end < seconds:
        print(
            "pyramid-referee: "
            + tr(
                "the picture draws {start:g}–{end:g} s of {seconds:.0f} s "
                "(at most {n} s; another part: --plot-from SECONDS)"
            ).format(start=start, end=round(end, 1), seconds=seconds, n=PLOT_MAX_S),
            file=sys.stderr,
        )
    return start, end


def make_detector(args):
    # deferred: the audio stack (numpy) loads only to hear
    from ..voice.strike import StrikeDetector

    det = StrikeDetector(profile=load_profile(args.profile), **detector_params(args.stroke_window))
    note_denoiser(det)
    return det


def note_denoiser(det) -> None:
    """Say on stderr when the detector decides without RNNoise (its library cannot load here)."""
    if det.denoise_error:
        from ..voice.denoise import unavailable_note  # deferred: the audio stack (numpy)

        print(
            "pyramid-referee: " + unavailable_note(det.denoise_error, get_lang()), file=sys.stderr
        )


def _file(args) -> int:
    # deferred: the audio stack (numpy) loads only to hear
    from ..voice.audio import array_frames, read_wav_noted
    from ..voice.strike import run_detector
    from .progress import AudioProgress

    det = make_detector(args)
    if args.explain or args.plot:
        det.max_sounds = None  # the report tells every sound of the file, not the last ones
    samples, notes = read_wav_noted(args.file, lang=get_lang())
    for note in notes:
        print(f"pyramid-referee: {note}", file=sys.stderr)
    window = _plot_window(args, len(samples) / 16000) if args.plot else None
    with AudioProgress(tr("strikes"), len(samples) / 16000) as bar:
        frames = bar.frames(array_frames(samples, args.block_ms))
        strikes = [round(t, 3) for t, _ in run_detector(frames, det)]
    if args.plot:
        from ..referee.strike_report import plot  # deferred: the report, only for --plot

        a, b = (int(round(v * 16000)) for v in window)
        plot(
            samples[a:b],
            16000,
            [s for s in det.sounds if window[0] <= s.time < window[1]],
            args.plot,
            title=str(args.file),
            lang=get_lang(),
            start=window[0],
        )
    if args.json:
        out = {"strikes": strikes}
        if args.explain:
            out["sounds"] = [s.to_json() for s in det.sounds]
            out["events"] = [e.to_json() for e in det.events]
        print(json.dumps(out, ensure_ascii=False))
        return 0
    seconds = len(samples) / 16000
    unsure = [s for s in det.strikes if not s.sure]
    if not strikes:
        print(
            tr("{file}: no strikes found ({seconds:.1f} s of audio)").format(
                file=args.file, seconds=seconds
            )
        )
    else:
        print(
            trn(
                "{file}: {n} strike ({seconds:.1f} s of audio)",
                "{file}: {n} strikes ({seconds:.1f} s of audio)",
                len(strikes),
            ).format(file=args.file, n=len(strikes), seconds=seconds)
        )
        for i, s in enumerate(det.strikes, 1):
            mark = "" if s.sure else tr("  (unsure)")
            print(
                tr("  strike {i}: {time:.3f} s{mark}").format(
                    i=i, time=round(s.time, 3), mark=mark
                )
            )
    if det.unsure or unsure:
        unsure_strikes = trn("{n} strike", "{n} strikes", len(unsure)).format(n=len(unsure))
        sounds = trn("{n} tip-like sound", "{n} tip-like sounds", len(det.unsure)).format(
            n=len(det.unsure)
        )
        print(
            tr(
                "  unsure: {strikes} and {sounds} (--explain shows them; calibration or listen's "
                "--strike key help at the table)"
            ).format(strikes=unsure_strikes, sounds=sounds)
        )
    if args.explain:
        from ..referee.strike_report import explain_lines  # deferred: only for --explain

        print(tr("Impulsive sounds heard: {sounds}").format(sounds=len(det.sounds)))
        for line in explain_lines(det.sounds, get_lang()):
            print(line)
    if args.plot:
        print(tr("picture: {plot}").format(plot=args.plot))
    return 0


def _list_devices(args) -> int:
    # deferred: the audio stack (numpy) loads only to hear
    from ..voice.mic import list_devices

    return print_input_devices(
        list_devices(lang=get_lang()), as_json=args.json
    )  # as listen lists them


def _live(args) -> int:
    """The microphone through the same detector, with the same look-ahead, as a file: each strike
    is first shown as «удар?» at its onset, then confirmed or taken back; only confirmed strikes
    are printed as strikes (and in JSON). The end (--seconds or Ctrl-C) decides what is left."""
    # deferred: the audio stack (numpy) loads only to hear
    from ..voice.audio import LevelWatch
    from ..voice.mic import MicrophoneSource

    def shown(ev) -> None:
        if args.json:
            return
        if ev.provisional:
            print(tr("strike? {t:.3f} s").format(t=ev.t), flush=True)
        elif ev.taken_back:
            print(tr("taken back: {t:.3f} s (not a strike)").format(t=ev.t), flush=True)

    det = make_detector(args)
    det.on_event = shown

    def report(times) -> None:
        for t in times:
            s = next(x for x in reversed(det.strikes) if round(x.time, 4) == t)
            if args.json:
                print(json.dumps({"strike": round(t, 3), "sure": s.sure}), flush=True)
            else:
                mark = "" if s.sure else tr(" (unsure)")
                print(tr("strike: {t:.3f} s{mark}").format(t=t, mark=mark), flush=True)

    with MicrophoneSource(args.device, args.block_ms, lang=get_lang()) as mic:
        if not args.json:
            print(
                tr("listening to {device_name!r}… (Ctrl-C to stop)").format(
                    device_name=mic.device_name
                ),
                file=sys.stderr,
            )
        watch = LevelWatch(lang=get_lang())
        try:
            for frame in mic:
                n_unsure = len(det.unsure)
                report(det.feed(frame.samples, frame.t0))
                note = watch.feed(frame.samples)
                if note:
                    print(f"pyramid-referee: {note}", file=sys.stderr, flush=True)
                if not args.json:
                    for t in det.unsure[n_unsure:]:
                        print(tr("possible strike: {t:.3f} s (unsure)").format(t=t), flush=True)
                if args.seconds is not None and frame.t1 >= args.seconds:
                    break
        except KeyboardInterrupt:
            pass
        report(det.flush())
        problem = mic.problems()
    if problem:
        print(f"pyramid-referee: {problem}", file=sys.stderr)
    return 0
