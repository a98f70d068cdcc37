"""Subcommands of the voice area (see cli.py): timeline, transcribe, listen, model.

- ``timeline EVENTS.jsonl`` — Vosk result lines and strikes → for each strike the call that counts.
- ``transcribe FILE.wav`` — the same pipeline over a WAV file (Vosk + strike detector + timeline).
- ``listen`` — the live referee on a microphone (referee/live.py; the pipeline: referee/listen.py).
- ``model path|download`` — where the Vosk model is; fetch it once into the user cache.

Every failure a user can cause (a missing model, an unreadable file, a dead microphone, a
malformed event line) is re-raised as ``UserError``: one clear line, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..i18n import UserError, get_lang, os_reason, tr
from ..referee import listen, timeline as tl
from ..referee.listen import DEFAULT_BLOCK_MS
from ..referee.options import ListenOptions
from ..rules.settings import mode_setting
from .club import add_club_option
from .options import (
    add_call_options,
    add_players_option,
    add_to_wins_option,
    match_id,
    players_from,
    print_input_devices,
    read_text_lines,
)
from .rules import add_why_option


def _positive_int(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(
            tr("expected a whole number of at least 1, got {value!r}").format(value=value)
        )
    return n


def _positive_float(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        x = 0.0
    if not (x > 0 and x < float("inf")):
        raise argparse.ArgumentTypeError(
            tr("expected a number above 0, got {value!r}").format(value=value)
        )
    return x


def _print_help(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def _add_model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--model",
        metavar=tr("DIR"),
        default=None,
        help=tr(
            "Vosk model folder (else $PYRAMID_VOSK_MODEL, $VOSK_MODEL_PATH, "
            "~/.cache/vosk, the user cache)"
        ),
    )
    p.add_argument(
        "--alternatives",
        type=_positive_int,
        default=3,
        metavar=tr("N"),
        help=tr(
            "hypotheses Vosk gives per utterance (a call they read differently is "
            "refused); default 3"
        ),
    )
    p.add_argument("--verbose", action="store_true", help=tr("show Vosk's own log"))


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommands to the main parser."""
    _add_timeline(sub, common)
    _add_transcribe(sub, common)
    _add_listen(sub, common)
    _add_model(sub, common)


def _add_timeline(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "timeline",
        parents=[common],
        help=tr("Vosk results + strikes → the call that counts for each strike"),
        description=tr(
            'Read Vosk final results and {"strike": SECONDS} lines (JSON lines, '
            "one clock) and say, for each strike, which call counts (C9, C10, Q7, "
            "Q8)."
        )
        + " "
        + tr(
            'Also {"outcome": SECONDS} (an outcome entered: with no strike heard '
            'before it, it takes the standing call, Q13), {"taken_back": SECONDS} '
            '(the marker took that strike back, Q14) and {"sound": SECONDS} (a '
            "table sound that was no strike)."
        ),
    )
    p.add_argument("events", metavar=tr("EVENTS.jsonl"), help=tr("event lines ('-' for stdin)"))
    p.add_argument("--json", action="store_true", help=tr("one JSON object a strike"))
    add_call_options(p)
    p.set_defaults(handler=cmd_timeline)


def _add_transcribe(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "transcribe",
        parents=[common],
        help=tr("the voice referee over a WAV file"),
        description=tr(
            "Run recognition and the strike detector over a WAV file on one "
            "clock, then the timeline: for each strike the call that counts; and "
            "the words heard."
        ),
    )
    p.add_argument("file", metavar=tr("FILE.wav"), help=tr("the recording (WAV)"))
    p.add_argument("--json", action="store_true", help=tr("the result as one JSON object"))
    p.add_argument(
        "--events",
        metavar=tr("OUT.jsonl"),
        default=None,
        help=tr("also write the event stream (what `timeline` reads)"),
    )
    _add_model_options(p)
    add_call_options(p)
    p.set_defaults(handler=cmd_transcribe)


def _add_listen(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "listen",
        parents=[common],
        help=tr("the live voice referee (microphone)"),
        description=tr(
            "Listen to the calls, show the call now standing, detect the strike, "
            "take the outcome from the scorer, judge and keep the score."
        ),
    )
    _add_listen_input_options(p)
    _add_listen_match_options(p)
    _add_listen_audio_options(p)
    _add_model_options(p)
    add_why_option(p)
    add_club_option(p)
    p.set_defaults(handler=cmd_listen)


def _add_listen_input_options(p: argparse.ArgumentParser) -> None:
    """``listen``: the microphone, the strike, what is said and where the outcome comes from."""
    p.add_argument(
        "--device",
        metavar=tr("DEVICE"),
        default=None,
        help=tr("input device (index or part of its name)"),
    )
    p.add_argument("--list-devices", action="store_true", help=tr("list input devices and exit"))
    p.add_argument(
        "--strike",
        choices=("audio", "key"),
        default="audio",
        help=tr("the strike: the cue click in the audio (default) or a press of Enter"),
    )
    p.add_argument(
        "--speak",
        action="store_true",
        help=tr("say the acceptance and the verdict aloud (espeak-ng)"),
    )
    p.add_argument(
        "--pad",
        action="store_true",
        help=tr(
            "the marker taps the outcome on the pad (serve): each strike's call is stored as "
            "the standing call instead of asking for the outcome here"
        ),
    )


def _add_listen_match_options(p: argparse.ArgumentParser) -> None:
    """``listen``: the match it continues or opens."""
    p.add_argument("--db", default=None, metavar=tr("PATH"), help=tr("match store (SQLite) file"))
    p.add_argument(
        "--match",
        type=match_id,
        default=None,
        metavar=tr("ID"),
        help=tr("continue this match (default: the latest open one)"),
    )
    add_players_option(p)
    add_to_wins_option(p)
    p.add_argument(
        "--mode",
        choices=("clean", "ball-and-pocket"),
        default=None,
        help=tr("a new match's call mode (C1; default clean, Q9); a stored match keeps its own"),
    )


def _add_listen_audio_options(p: argparse.ArgumentParser) -> None:
    """``listen``: the table's strike profile and the audio block."""
    p.add_argument(
        "--profile",
        default=None,
        metavar=tr("NAME|FILE"),
        help=tr(
            "the table profile from calibration (default: «default» if saved; none: no profile)"
        ),
    )
    p.add_argument(
        "--calibrate",
        action="store_true",
        help=tr("calibrate at the table first: 5 strikes and 3 collisions, the profile is saved"),
    )
    # The strike is reported ≈18 ms (the detector's look-ahead: the sound's first 16 ms) + up to
    # one block after it; the bar is 30 ms, so the default is the pipeline's 10 ms block.
    p.add_argument(
        "--block-ms",
        type=_positive_float,
        default=float(DEFAULT_BLOCK_MS),
        metavar=tr("MS"),
        help=tr(
            "audio block length, ms (default {DEFAULT_BLOCK_MS:g}; the strike is "
            "reported ≈18 ms + at most one block after it)"
        ).format(DEFAULT_BLOCK_MS=DEFAULT_BLOCK_MS),
    )


def _add_model(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "model",
        parents=[common],
        help=tr("the Vosk model: where it is, fetch it"),
        description=tr(
            "Where the Vosk model is, or fetch vosk-model-small-ru-0.22 once into the user cache."
        ),
    )
    msub = p.add_subparsers(dest="model_command", metavar="path|download")
    # The nested commands take --lang too, without resetting one given before them.
    nested = argparse.ArgumentParser(add_help=False)
    nested.add_argument(
        "--lang",
        choices=("ru", "en"),
        default=argparse.SUPPRESS,
        help=tr("language of messages: ru (default) or en"),
    )
    mp = msub.add_parser(
        "path", parents=[nested], help=tr("where the model is (or why there is none)")
    )
    _add_model_dir(mp)
    mp.add_argument("--json", action="store_true", help=tr("JSON output"))
    mp.set_defaults(handler=cmd_model_path)
    md = msub.add_parser(
        "download", parents=[nested], help=tr("fetch, verify and unpack the model once")
    )
    md.add_argument(
        "--url",
        metavar=tr("URL"),
        default=None,
        help=tr("fetch from this address instead (a mirror of the same file)"),
    )
    md.add_argument(
        "--dest", default=None, metavar=tr("DIR"), help=tr("put it here instead of the user cache")
    )
    md.set_defaults(handler=cmd_model_download)
    p.set_defaults(handler=lambda args: _print_help(p))


def _add_model_dir(p):
    p.add_argument("--model", metavar=tr("DIR"), default=None, help=tr("a model folder to check"))


def _voice_errors():
    from pyramid_referee.voice.errors import VoiceError  # deferred: the audio stack (numpy)

    return VoiceError


# --- timeline ---------------------------------------------------------------------------------


def _print_decisions(decisions, as_json: bool) -> None:
    render = listen.grammar_render()
    for d in decisions:
        if as_json:
            print(json.dumps(d.to_json(), ensure_ascii=False))
        else:
            print(listen.describe(d, get_lang(), render))


def cmd_timeline(args) -> int:
    lines = read_text_lines(args.events)
    try:
        events = tl.read_timeline(lines)
        # Q13, Q14: outcomes entered with no strike heard, strikes the marker took back
        decisions = events.decide(
            mode=mode_setting(args.mode),
            balls_left=args.balls_left,
            pocket_precision=args.pocket_precision,
            lang=get_lang(),
        )
    except tl.EventError as exc:
        raise UserError(f"{args.events}: {exc.text(get_lang())}") from None
    if not events.strikes and not events.outcomes and not args.json:
        print(tr("no strikes in the file"), file=sys.stderr)
    _print_decisions(decisions, args.json)
    return 0


# --- transcribe -------------------------------------------------------------------------------


def _open_model(args):
    return listen.open_model(args.model, verbose=args.verbose, lang=get_lang())


def _missing_note(missing) -> str | None:
    if not missing:
        return None
    shown = ", ".join(missing[:12]) + (" …" if len(missing) > 12 else "")
    return tr("the model lacks {missing} call words (they cannot be recognized): {shown}").format(
        missing=len(missing), shown=shown
    )


def _check_writable(path: str, option: str) -> None:
    """A file the command will write: refuse a folder or a missing folder up front."""
    if os.path.isdir(path):
        raise UserError(
            tr("{option} {path}: is a directory, not a file").format(option=option, path=path)
        )
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UserError(
            tr("{option} {path}: no directory {parent}").format(
                option=option, path=path, parent=parent
            )
        )
    if not os.access(parent, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UserError(tr("{option} {path}: not writable").format(option=option, path=path))


def cmd_transcribe(args) -> int:
    balls = args.balls_left
    # deferred: the audio stack (numpy) loads only to hear; a bad file fails before the model loads
    from pyramid_referee.voice.audio import RATE, read_wav_noted

    from .progress import AudioProgress

    samples, notes = read_wav_noted(args.file, lang=get_lang())
    for note in notes:
        print(f"pyramid-referee: {note}", file=sys.stderr)
    if args.events:
        _check_writable(args.events, "--events")  # before a long recognition, not after it
    model, location = _open_model(args)
    with AudioProgress(tr("recognition"), len(samples) / RATE) as bar:
        result = listen.transcribe(
            args.file,
            model,
            mode=mode_setting(args.mode),
            balls_left=balls,
            pocket_precision=args.pocket_precision,
            alternatives=args.alternatives,
            lang=get_lang(),
            progress=bar.frames,
            samples=samples,
        )
    note = _missing_note(result.missing_words)
    if note:
        print(note, file=sys.stderr)
    if args.events:
        try:
            with open(args.events, "w", encoding="utf-8") as f:
                for e in result.events:
                    f.write(json.dumps(e, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise UserError(
                tr("--events {events}: cannot write ({exc})").format(
                    events=args.events, exc=os_reason(exc)
                )
            ) from None
    if args.json:
        out = result.to_json()
        out["model"] = str(location.path)
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(
        tr("{file}: {duration:.2f} s, model {path}").format(
            file=args.file, duration=result.duration, path=location.path
        )
    )
    print(tr("heard: ") + (" ".join(w.word for w in result.words) or "—"))
    if not result.decisions:
        print(tr("no strikes found"))
    _print_decisions(result.decisions, False)
    return 0


# --- listen -----------------------------------------------------------------------------------


def list_devices(lang: str) -> int:
    """``--list-devices``: the input devices, one a line."""
    # deferred: the audio stack (numpy, PortAudio) is loaded only when a device is looked for
    from pyramid_referee.voice.mic import list_devices as devices_of

    return print_input_devices(devices_of(lang=lang))  # as ``strikes --list-devices`` lists them


def listen_options(args) -> ListenOptions:
    """What ``listen`` is asked, as plain values: the new match's names checked (only when no
    stored match is named), the mode as the setting spells it."""
    players = None if args.match is not None or not args.players else players_from(args.players)
    return ListenOptions(
        db=args.db,
        match=args.match,
        players=players,
        mode=mode_setting(args.mode) if args.mode else None,
        to_wins=args.to_wins,
        club=args.club,
        model=args.model,
        verbose=args.verbose,
        alternatives=args.alternatives,
        strike=args.strike,
        device=args.device,
        block_ms=args.block_ms,
        speak=args.speak,
        pad=args.pad,
        why=args.why,
        profile=args.profile,
        calibrate=args.calibrate,
        lang=get_lang(),
    )


def cmd_listen(args) -> int:
    # deferred: the live referee (the recognizer, the audio stack) is loaded only for listen
    from ..referee.live import run_live

    if args.list_devices:
        return list_devices(get_lang())
    return run_live(listen_options(args))


# --- model ------------------------------------------------------------------------------------


def cmd_model_path(args) -> int:
    """Where the model is, and whether it knows the call words (as ``listen`` checks them: a model
    that knows none of them, a Korean one say, is the wrong model and is refused; one that lacks
    some is named with the words it lacks)."""
    from pyramid_referee.voice import model as vm  # deferred: the audio stack (numpy)

    lang = get_lang()
    loc = vm.find_model(args.model, lang=lang)  # a VoiceError is the user's: main() says it
    model = vm.load_model(loc.path, lang=lang)
    words = list(dict.fromkeys(w for w in listen.call_words() if w and w != "[unk]"))
    missing = vm.missing_words(model, words)
    if len(missing) == len(words):
        raise UserError(
            f"{loc.path}: "
            + tr(
                "the model knows none of the {words} call words: wrong model (a Russian one is "
                "needed, e.g. vosk-model-small-ru-0.22)"
            ).format(words=len(words))
        )
    if args.json:
        print(
            json.dumps(
                {
                    "path": str(loc.path),
                    "source": loc.source,
                    "call_words": len(words),
                    "missing_words": missing,
                },
                ensure_ascii=False,
            )
        )
        return 0
    print(f"{loc.path}  ({loc.source})")
    note = _missing_note(missing)
    if note:
        print(note, file=sys.stderr)
    return 0


class _Progress:
    """A rich progress bar on stderr, made when the first bytes arrive."""

    def __init__(self, label: str):
        self.label, self.bar, self.task = label, None, None

    def __call__(self, done: int, total: int | None) -> None:
        if self.bar is None:
            from rich.console import Console  # deferred: rich, only where it draws

            # deferred: rich, only where it draws
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                DownloadColumn(),
                TransferSpeedColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        self.bar.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def cmd_model_download(args) -> int:
    from pyramid_referee.voice import model as vm  # deferred: the audio stack (numpy)

    dest = Path(args.dest).expanduser() if args.dest else vm.user_cache_dir()
    url = args.url or vm.MODEL_URL
    print(tr("downloading {url} into {dest}").format(url=url, dest=dest), file=sys.stderr)
    progress = _Progress(vm.MODEL_NAME)
    try:
        path, fetched = vm.download_model(dest, url=url, progress=progress, lang=get_lang())
    except vm.NetworkError as exc:
        progress.close()
        raise UserError(
            f"{exc}. "
            + tr("You can place the model by hand: ")
            + vm.manual_instructions(get_lang(), dest)
        ) from None
    except _voice_errors():
        progress.close()
        raise
    progress.close()
    if fetched:
        print(tr("model verified (size, md5) and unpacked into {path}").format(path=path))
    else:
        print(tr("the model is already there: {path} (not fetched)").format(path=path))
    return 0
