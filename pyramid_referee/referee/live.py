"""``pyramid-referee listen``, step by step: the microphone, the display, the outcome, the store.

``run_live`` puts the steps together; each is short and named for what it does:

- before anything is opened: a new match's players (``new_match_request``), the club server
  (``club_for``: an unregistered table is refused here),
  the model (``load_model``), the table's strike profile (``strike_profile``);
- opening (``open_live``): a stored match, the recognizer and the strike detector, the
  microphone, and only then a new match;
- ``LiveRun``: the audio thread feeding the timeline (``audio_loop``), deciding a strike
  ``SETTLE_S`` after it (``decide_due``), and on the main thread the next strike
  (``next_strike``), judging and committing it (``judge``) or handing its call to the pad
  (``hand_to_pad``), reporting the verdict (``report``), and a clean stop (``finish``).

An audio thread feeds the referee block by block and prints what is heard and the call now
standing; a strike (the click, or Enter with ``--strike key``) is decided ``SETTLE_S`` later
and handed to the main thread, which asks the scorer for the outcome, judges and stores the
stroke (committed before the verdict is shown), and shows the verdict and the scoreboard.
While the outcome is awaited, a new strike waits its turn (it is decided afterwards).

A missed strike never costs the call (Q13): an outcome typed with no strike heard (``--strike
key``: typed instead of the strike's Enter; from the microphone: typed while no strike waits,
taken once the detector had the time to decide a strike before it) takes the standing call,
marked «удар не услышан — заказ взят по вводу исхода». A false strike can be taken back (Q14):
«!» typed for the outcome makes it void, and the call it made late counts again.

``--pad``: the outcome is not asked here. Each strike's decided call (heard, with the strike's
time; «без заказа» when none counts) is stored as the match's standing call, and the marker
taps the outcome on ``serve``'s pad, which enters the stroke with that call; the strokes
entered there are followed (read again) so the next calls are read against the balls left. A
call heard with no strike after it is stored as standing too, with no strike time, so that an
outcome tapped when the strike was not heard takes it (Q13); a strike the marker takes back on
the pad is taken back here too (Q14).

``--club``: the table's background sync (club.sync.ClubSync) is told after each commit and
sends the strokes (also those the pad commits: the sync reads the store's action log, whoever
wrote it); its status follows each verdict; it is stopped with one last drain at exit.
"""

from __future__ import annotations

import json
import queue
import threading
from contextlib import ExitStack
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from ..catalog import trl
from ..club.sync import ClubSync, from_args, leaving_text
from ..i18n import UserError
from ..match.ears import EarsNotice
from ..match.session import NewMatch, Session, StrokeInputError
from ..match.text import game_end_text, render_scoreboard, why_lines
from . import listen, timeline as tl
from .options import ListenOptions

# --- before anything is opened ----------------------------------------------------------------


def new_match_request(args, lang: str) -> NewMatch | None:
    """The new match ``--players`` asks for, checked before the model loads; None: a stored
    match."""
    if args.match is not None or not args.players:
        return None
    new = NewMatch(
        list(args.players), {"mode": args.mode} if args.mode else {}, None, args.to_wins
    )
    new.check(lang)
    return new


def club_for(args):
    """``--club`` / $PYRAMID_REFEREE_CLUB: the table's sync, not started yet (None without a
    club). A table not registered on that server is refused here (ClubError), before the model,
    the microphone or a new match."""
    url = from_args(args)
    return None if url is None else ClubSync(args.db, url, lang=args.lang)


def load_model(args, lang: str):
    """The Vosk model and where it was found (first: no store or microphone is touched without
    one)."""
    return listen.open_model(args.model, verbose=args.verbose, lang=lang)


def strike_profile(args, console):
    """The table profile the strike detector uses (``--calibrate``: made here first; a failed
    calibration creates nothing); None with ``--strike key``."""
    from pyramid_referee.voice import profile as prof  # deferred: the audio stack (numpy)

    if args.strike != "audio":
        return None
    if not getattr(args, "calibrate", False):
        try:
            return prof.load_spec(getattr(args, "profile", None), lang=args.lang)
        except prof.ProfileError as exc:
            raise UserError(str(exc)) from None
    # deferred: the calibration (numpy, the sound model), only with --calibrate
    from .calibrate import CalibrateOptions, calibrate_profile, report

    profile, _, _ = calibrate_profile(
        CalibrateOptions(device=args.device, block_ms=args.block_ms, lang=args.lang)
    )
    for line in report(profile, args.lang):
        console.print(line)
    if profile.strikes_found != profile.strikes_asked:
        raise UserError(
            trl(
                args.lang,
                "calibration failed: {strikes_found} of {strikes_asked} strikes heard; no "
                "profile saved",
            ).format(strikes_found=profile.strikes_found, strikes_asked=profile.strikes_asked)
        )
    console.print(trl(args.lang, "profile saved: {profile}").format(profile=prof.save(profile)))
    return profile


# --- opening: a stored match, the recognizer, the microphone, then a new match -----------------


@dataclass(frozen=True)
class Opened:
    """What a live run works with, all open."""

    store: object
    session: object
    referee: listen.LiveReferee
    mic: object


def open_stored(args, stack: ExitStack, lang: str):
    """(store, session) of the match to go on with: ``--match`` or the latest open one."""
    session = Session.open_or_create(args.db, args.match, lang=lang)
    store = stack.enter_context(session.store)
    if session.mismatches:
        raise UserError("; ".join(m.describe(lang) for m in session.mismatches))
    return store, session


def open_recognizer(args, model, session, profile, lang: str) -> listen.LiveReferee:
    """The recognizer and (``--strike audio``) the strike detector, on one clock."""
    from pyramid_referee.voice.strike import StrikeDetector  # deferred: the audio stack (numpy)

    return listen.LiveReferee(
        model,
        session,
        detector=StrikeDetector(profile=profile) if args.strike == "audio" else None,
        alternatives=args.alternatives,
        lang=lang,
    )


def open_microphone(args, lang: str):
    from pyramid_referee.voice import mic  # deferred: the audio stack (numpy, PortAudio)

    return mic.MicrophoneSource(args.device, args.block_ms, lang=lang).start()


def create_match(args, stack: ExitStack, new: NewMatch, lang: str):
    """(store, session) of the new match (the database too, if there was none)."""
    session = Session.open_or_create(args.db, new=new, lang=lang)
    return stack.enter_context(session.store), session


def open_live(args, stack: ExitStack, model, new: NewMatch | None, profile, lang: str) -> Opened:
    """A failed start creates no match (and no database): a new match is written only once the
    recognizer and the microphone are running; a stored one is opened, never created, first."""
    store = session = None
    if new is None:
        store, session = open_stored(args, stack, lang)
    referee = open_recognizer(args, model, session, profile, lang)
    mic = open_microphone(args, lang)
    if session is None:
        try:
            store, session = create_match(args, stack, new, lang)
        except BaseException:
            mic.close()
            raise
        referee.session = session
    return Opened(store, session, referee, mic)


# --- the display ------------------------------------------------------------------------------


class Display:
    """What listen prints while it hears: the live transcript (one line, rewritten in place on a
    terminal), the call now standing, the detector's doubts. Used by the audio thread, except
    ``line``."""

    def __init__(self, console, lang: str, speaker: listen.Speaker) -> None:
        self.console = console
        self.lang = lang
        self.speaker = speaker
        self.render = listen.grammar_render()
        self.tty = console.is_terminal
        self._partial = ""
        self._standing: dict | None = None  # the standing call last shown (JSON)

    def clear_partial(self) -> None:
        if self.tty:
            self.console.file.write("\r\x1b[2K")
            self.console.file.flush()

    def line(self, text: str) -> None:
        """A line of its own (the live transcript is cleared first)."""
        self.clear_partial()
        self.console.print(text)

    def forget_standing(self) -> None:
        """A strike was decided: the next standing call is shown even if it reads the same."""
        self._standing = None

    def show(self, partial: str, d: tl.Decision) -> None:
        """The text being heard, and the call now standing when it changed."""
        console = self.console
        if partial != self._partial:
            if self.tty:
                self.clear_partial()
                console.file.write(f"… {partial}"[: max(10, console.width - 1)] if partial else "")
                console.file.flush()
            elif partial:
                console.print(f"[dim]… {partial}[/dim]")
        self._partial = partial
        if d.status != "none" and d.to_json() != self._standing:
            self._standing = d.to_json()
            self.clear_partial()
            text = listen.describe(d, self.lang, self.render).split(": ", 1)[1]
            console.print(("[green]" if d.status == "accepted" else "[red]") + text + "[/]")
            if d.status == "accepted":
                self.speaker.say(text)  # «заказ принят: …»

    def unsure_notices(self, det, n_unsure: int, n_strikes: int) -> None:
        """Say so where the detector is unsure: a possible strike it did not count,
        or a strike it counted without being sure; the fall-back is --strike key."""
        for t in det.unsure[n_unsure:]:
            self.line(
                "[yellow]"
                + trl(
                    self.lang,
                    "possibly a strike at {t:.2f} s — unsure, not counted (if strikes are "
                    "missed: --strike key or calibration)",
                ).format(t=t)
                + "[/yellow]"
            )
        for s in det.strikes[n_strikes:]:
            if not s.sure:
                self.line(
                    "[yellow]"
                    + trl(
                        self.lang,
                        "strike at {time:.2f} s counted, unsure (probability {p_tip:.2f})",
                    ).format(time=s.time, p_tip=s.p_tip)
                    + "[/yellow]"
                )


# --- the run ----------------------------------------------------------------------------------

UNHEARD = object()  # next_strike: an outcome was typed and no strike was heard for it (Q13)
TAKEN_BACK = (
    object()
)  # judge: the marker took the strike back instead of entering its outcome (Q14)


class LiveRun:
    """One run of ``listen`` over an opened match, microphone and referee (see the module's
    text)."""

    def __init__(self, console, opened: Opened, args, lang: str, club=None) -> None:
        self.console = console
        self.store, self.session = opened.store, opened.session
        self.referee, self.mic = opened.referee, opened.mic
        self.lang = lang
        self.key = args.strike == "key"
        self.pad = getattr(args, "pad", False)
        self.why = getattr(args, "why", False)
        self.club = club
        self.speaker = listen.Speaker(
            args.speak, lang, warn=lambda m: console.print(f"[yellow]{m}[/yellow]")
        )
        self.display = Display(console, lang, self.speaker)
        self.decided: queue.Queue = (
            queue.Queue()
        )  # ("strike", Decision), ("error", text), ("end", None)
        self.strike_requests: queue.Queue = queue.Queue()  # Enter pressed (--strike key)
        self.lock = threading.Lock()  # the referee and the session, between the two threads
        self.stop = threading.Event()
        self.awaiting = threading.Event()  # a strike is decided, its stroke not yet entered
        self.pending: list[float] = []  # strikes heard, not yet decided (audio thread)
        self._seen = None  # (events, partial) last shown (audio thread)
        self.keyboard: threading.Thread | None = (
            None  # from the microphone: lines typed, read apart
        )
        self.held: list[str] = []  # lines typed before a strike was decided for them
        self.typed_at: float | None = (
            None  # audio time an outcome was typed with no strike waiting (Q13)
        )
        self.audio_over = False
        self.input_over = False  # the keyboard thread read the end of input
        self.unheard_at: float | None = None  # Q13: when the outcome was typed (audio clock)
        self._published = None  # --pad: the heard call last stored as standing (Q13)
        from pyramid_referee.voice.audio import LevelWatch  # deferred: the audio stack (numpy)

        self.level = LevelWatch(lang=lang)  # a microphone silent or too quiet is told once

    # ------------------------------------------------------------------ start
    def greet(self, location, profile, no_profile: bool = False) -> None:
        """What is listening, the match and its score, the table profile (or, hearing strikes
        with none and ``no_profile`` not asked for, how to make one), how to strike; strokes
        stored by a run that was killed before their verdict reached the screen."""
        console, session = self.console, self.session
        error = getattr(self.referee.pipeline.detector, "denoise_error", None)
        if error is not None:
            from pyramid_referee.voice.denoise import unavailable_note  # deferred: audio stack

            console.print("[yellow]" + escape(unavailable_note(error, self.lang)) + "[/yellow]")
        missing = self.referee.recognizer.missing
        if missing:
            console.print(
                "[yellow]"
                + trl(self.lang, "the model lacks {missing} call words: ").format(
                    missing=len(missing)
                )
                + ", ".join(missing[:20])
                + (" …" if len(missing) > 20 else "")
                + "[/yellow]"
            )
        console.print(
            trl(self.lang, "model: {path}; match {id}: {players} — {players2}").format(
                path=location.path,
                id=session.id,
                players=session.players[0],
                players2=session.players[1],
            )
        )
        self.scoreboard()
        if profile is not None:
            console.print(
                trl(self.lang, "table profile: «{name}» ({created})").format(
                    name=profile.name, created=profile.created
                )
            )
        elif not self.key and not no_profile:
            # measured: a 5-strike profile decides 91 % of calls right at 10 dB of café noise
            # against 85 % without (docs/dev/benchmarks.md)
            console.print(
                "[dim]"
                + trl(
                    self.lang,
                    "No table profile: in a noisy room strikes are heard surer with one "
                    "(«pyramid-referee strikes calibrate» or «listen --calibrate»: 5 strikes "
                    "and a few collisions).",
                )
                + "[/dim]"
            )
        console.print(
            trl(self.lang, "Say the call. The strike: press Enter; quit: Ctrl-C.")
            if self.key
            else trl(self.lang, "Say the call. The strike: the cue's click; quit: Ctrl-C.")
        )
        if not self.pad:  # Q13
            console.print(
                trl(
                    self.lang,
                    "A strike not heard: type the outcome once the balls stop; the standing call "
                    "counts.",
                )
            )
        for (
            row
        ) in session.resume_notices():  # a kill came between a stroke's commit and its verdict
            console.print(
                "[yellow]"
                + trl(
                    self.lang,
                    "stroke {seq} is already stored, but the program stopped and its verdict may "
                    "not have been shown — do not enter it again: #{seq} {v}",
                ).format(seq=row.seq, v=row.record.verdict.get("message", ""))
                + "[/yellow]"
            )
            session.mark_shown(row.seq)

    def scoreboard(self) -> None:
        self.console.print(
            render_scoreboard(self.session.state.to_json(), self.session.id, self.lang)
        )

    def club_line(self) -> None:
        """--club: where the sync stands (no network here: the worker's last word)."""
        if self.club is not None:
            self.console.print(f"[dim]{self.club.status().text(self.lang)}[/dim]")

    # ------------------------------------------------------------------ the audio thread
    def audio_loop(self) -> None:
        """Every block to the referee; a strike decided ``SETTLE_S`` after it goes to the main
        thread; between strikes, what is heard and the call now standing."""
        from pyramid_referee.voice.errors import VoiceError  # deferred: the audio stack (numpy)

        try:
            for frame in self.mic:
                if self.stop.is_set():
                    break
                # While the referee reads aloud (--speak), the microphone hears it: the
                # recognizer gets silence then, or the echo of a call going on at the strike
                # would void the player's call (C10, Q7). The strike detector hears all.
                hear = not self.speaker.busy()
                with self.lock:
                    self.feed(frame, hear)
                    self.take_key_strikes()
                    if self.decide_due():
                        continue
                    shown = self.standing_if_changed()
                if shown is not None:
                    self.display.show(*shown)
        except VoiceError as exc:
            self.decided.put(("error", str(exc)))
        except Exception as exc:  # never a traceback from the audio thread
            self.decided.put(("error", f"{type(exc).__name__}: {exc}"))
        finally:
            self.decided.put(("end", None))

    def feed(self, frame, hear: bool) -> None:
        """One block to the referee: the strikes it finds wait to be decided; one the detector's
        second look takes back (it was a word) is dropped; its doubts are said."""
        det = self.referee.pipeline.detector
        counts = (
            (len(det.unsure), len(det.strikes), len(det.retracted)) if det is not None else None
        )
        self.pending += self.referee.feed(frame.samples, frame.t0, hear=hear)
        note = self.level.feed(frame.samples)
        if note:
            self.display.line(f"[yellow]{escape(note)}[/yellow]")
        if counts is None:
            return
        if len(det.retracted) > counts[2]:
            gone = set(det.retracted[counts[2] :])
            self.pending[:] = [t for t in self.pending if t not in gone]
        if (len(det.unsure), len(det.strikes)) != counts[:2]:
            self.display.unsure_notices(det, *counts[:2])

    def take_key_strikes(self) -> None:
        """--strike key: each Enter pressed is a strike now, on the audio clock."""
        while not self.strike_requests.empty():
            self.strike_requests.get_nowait()
            self.pending.append(self.referee.time)

    def unheard_wait(self) -> float:
        """How long after an outcome is typed a strike before it may still be decided."""
        return listen.SETTLE_S + (
            listen.STRIKE_DECIDED_S if self.referee.pipeline.detector is not None else 0.0
        )

    def decide_due(self) -> bool:
        """Decide the first waiting strike once ``SETTLE_S`` of audio followed it (and the stroke
        before it is entered); True if one was. An outcome typed with no strike before it is
        handed on as not heard (Q13) once a strike before it would have been decided."""
        if self.awaiting.is_set():
            return False
        if (
            self.typed_at is not None
            and (not self.pending or self.pending[0] > self.typed_at)
            and self.referee.time >= self.typed_at + self.unheard_wait()
        ):
            at, self.typed_at = self.typed_at, None
            self.awaiting.set()
            self.decided.put(("unheard", at))
            return True
        if not self.pending or self.referee.time < self.pending[0] + listen.SETTLE_S:
            return False
        t = self.pending.pop(0)
        self.awaiting.set()
        self.display.forget_standing()
        self.decided.put(("strike", self.referee.decide(t)))
        return True

    def standing_if_changed(self):
        """(the text being heard, the call now standing) when something new was heard and no
        strike is waiting; else None."""
        now = (len(self.referee.pipeline.events), self.referee.partial)
        if now == self._seen or self.pending or self.awaiting.is_set():
            return None
        self._seen = now
        return now[1], self.referee.standing()

    # ------------------------------------------------------------------ the main thread
    def run(self) -> int:
        """Strike after strike until the input ends, the audio ends or the match is over."""
        thread = threading.Thread(target=self.audio_loop, name="audio", daemon=True)
        if self.club is not None:
            self.club.start()  # local first: the worker never blocks a stroke
        self.announce_ears()
        thread.start()
        if (
            not self.key and not self.pad
        ):  # the strike is the microphone's: the keyboard is read apart
            self.keyboard = threading.Thread(
                target=self.keyboard_loop, name="keyboard", daemon=True
            )
            self.keyboard.start()
        try:
            while True:
                d = self.next_strike()
                if d is None:
                    return 0
                if d is UNHEARD:  # Q13
                    entered = self.judge_unheard()
                    if entered is None or self.report(entered):
                        return 0
                    continue
                self.display.line(
                    "[bold]" + listen.describe(d, self.lang, self.display.render) + "[/bold]"
                )
                if self.pad:
                    if self.hand_to_pad(d):
                        return 0
                    continue
                if d.status == "late":  # Q14: the strike may have been none
                    self.display.line(
                        "[yellow]"
                        + trl(
                            self.lang,
                            "if that was no strike (a consonant, a knock on the rail), type «!» "
                            "for the outcome: the strike is taken back and the call counts again",
                        )
                        + "[/yellow]"
                    )
                entered = self.judge()
                if entered is TAKEN_BACK:
                    continue
                if entered is None or self.report(entered):
                    return 0
        finally:
            self.finish(thread)

    def keyboard_loop(self) -> None:
        """From the microphone: every line typed goes to the main thread as it is typed."""
        while not self.stop.is_set():
            try:
                line = input()
            except (EOFError, OSError, ValueError):
                self.decided.put(("eof", None))
                return
            self.decided.put(("typed", line))

    def read_line(self, prompt: str) -> str:
        """A line from the scorer (EOFError at the end of input): ``input`` with ``--strike key``;
        from the microphone, what the keyboard thread read (a line typed earlier first)."""
        if self.keyboard is None:
            return input(prompt)
        if self.held:
            line = self.held.pop(0)
            self.display.line(prompt + line)
            return line
        if self.input_over:
            raise EOFError
        self.console.print(prompt, end="")
        while True:
            kind, x = self.decided.get()
            if kind == "typed":
                return x
            if kind == "eof":
                self.input_over = True
                raise EOFError
            if kind == "end":
                self.audio_over = True
            elif kind == "error":
                raise UserError(x)

    def next_strike(self) -> tl.Decision | None:
        """The next strike the audio thread decided (--strike key: after Enter); None when the
        input or the audio ended, or (--pad) the match is over on the pad."""
        while True:
            if self.audio_over or (self.input_over and not self.held):
                return None
            if self.key:
                try:
                    line = input()
                except EOFError:
                    return None
                if self.pad and self.follow_pad():
                    return None
                if line.strip() and not self.pad:  # an outcome typed instead of the strike's Enter
                    if listen.is_take_back(line):
                        self.display.line(trl(self.lang, "there is no strike to take back"))
                        continue
                    self.held.append(line)
                    self.awaiting.set()
                    with self.lock:
                        self.unheard_at = self.referee.time
                    return UNHEARD  # Q13
                self.strike_requests.put(None)
            if self.pad and not self.key:
                try:
                    kind, d = self.decided.get(timeout=0.25)
                except queue.Empty:
                    if self.follow_pad():
                        return None
                    self.publish_heard()
                    continue
            else:
                kind, d = self.decided.get()
            if kind == "typed":  # from the microphone: typed with no strike decided yet
                if listen.is_take_back(d):
                    self.display.line(trl(self.lang, "there is no strike to take back"))
                elif d.strip():
                    with self.lock:  # a strike before it is still decided first (Q13 waits for it)
                        self.held.append(d)
                        if self.typed_at is None:
                            self.typed_at = self.referee.time
                continue
            if kind == "eof":
                self.input_over = True
                if not self.held:
                    return None  # the input ended with nothing waiting for a strike
                continue
            if kind == "unheard":
                self.unheard_at = d
                return UNHEARD
            if kind == "end":
                if self.held:  # the audio ended before a strike was heard for the outcome typed
                    self.audio_over = True
                    with self.lock:
                        self.unheard_at, self.typed_at = self.typed_at, None
                    return UNHEARD
                return None
            if kind == "error":
                raise UserError(d)
            return d

    def judge(self):
        """Ask the scorer for the outcome until it reads; judge and commit the stroke (Entered;
        None at the end of input, nothing stored)."""
        while True:
            try:
                text = self.read_line(trl(self.lang, "outcome (short notation): "))
            except EOFError:
                return None
            if listen.is_take_back(text):
                self.take_back()
                return TAKEN_BACK
            try:
                with self.lock:
                    entered = self.referee.enter(text)
            except StrokeInputError as exc:
                self.console.print(f"[red]{exc}[/red]")
                continue
            if self.club is not None:
                self.club.notify()  # committed: sent in the background
            self.awaiting.clear()
            return entered

    def take_back(self) -> None:
        """Q14: the strike awaiting its outcome was none; the call it made late counts again."""
        with self.lock:
            d = self.referee.take_back()
            self.display.forget_standing()
            self._seen = None
        self.awaiting.clear()
        self.display.line(
            "[yellow]"
            + trl(
                self.lang,
                "strike at {t:.2f} s taken back by the marker: it was no strike; the call counts "
                "again for the next strike",
            ).format(t=d.strike)
            + "[/yellow]"
        )

    def judge_unheard(self):
        """Q13: the outcome typed with no strike heard: the stroke takes the standing call, marked
        so (Entered; None at the end of input)."""
        while True:
            if self.held:
                text = self.held.pop(0)
            else:
                try:
                    text = self.read_line(trl(self.lang, "outcome (short notation): "))
                except EOFError:
                    return None
            if listen.is_take_back(text):
                self.display.line(trl(self.lang, "there is no strike to take back"))
                continue
            try:
                with self.lock:
                    entered = self.referee.enter(text, at=self.unheard_at)
            except StrokeInputError as exc:
                self.console.print(f"[red]{exc}[/red]")
                continue
            self.unheard_at = None
            self.display.line(
                "[bold]"
                + listen.describe(self.referee.last_decision, self.lang, self.display.render)
                + "[/bold]"
            )
            if self.club is not None:
                self.club.notify()
            with self.lock:
                self.display.forget_standing()
            self.awaiting.clear()
            return entered

    def report(self, entered) -> bool:
        """The verdict (read aloud with --speak), the score, the game's or the match's end, the
        club's status; True when the match is over."""
        console, session, lang = self.console, self.session, self.lang
        console.print(f"#{entered.seq} " + entered.verdict.message(lang))
        if self.why:  # each cited clause in full
            for line in why_lines(
                entered.verdict.clauses, lang, full=True, settings=session.settings
            ):
                console.print("   " + line, markup=False)
        session.mark_shown(entered.seq)  # on the screen now: a resume will not name it
        self.speaker.say(entered.verdict.message(lang))
        self.scoreboard()
        over = False
        if session.state.result is not None:
            over = session.match.decided
            if over:
                console.print(
                    trl(self.lang, "match {id} is over").format(id=session.id)
                    + ("; " + game_end_text(session, lang) if session.to_wins > 1 else "")
                )
            else:
                console.print(game_end_text(session, lang))
        self.club_line()
        return over

    def hand_to_pad(self, d: tl.Decision) -> bool:
        """--pad: the strike's call becomes the match's standing call; the marker taps its outcome
        on the pad. True when the match is over."""
        if self.follow_pad():
            return True
        untapped = self.session.standing()
        if untapped is not None and untapped.source == "listen" and untapped.strike is not None:
            self.console.print(
                "[yellow]"
                + trl(
                    self.lang,
                    "the outcome of the strike at {old:.2f} s was not entered on the pad; the "
                    "call of the strike at {new:.2f} s replaces it",
                ).format(old=untapped.strike, new=d.strike)
                + "[/yellow]"
            )
        self.session.set_standing(
            listen.reading_of(d, self.lang), source="listen", strike=d.strike
        )
        with self.lock:
            self.referee.decision = None
        self.awaiting.clear()
        self.console.print(trl(self.lang, "the outcome is expected on the marker's pad"))
        return False

    def follow_pad(self) -> bool:
        """--pad: read the strokes the marker entered on the pad (the calls that follow are read
        against the balls left). True once the match is over."""
        self.follow_take_back()
        if not self.session.outdated():
            return False
        with self.lock:
            self.session = Session(self.store, self.session.id, lang=self.lang)
            self.referee.session = self.session
            last = self.store.strokes(self.session.id)[-1:]
            note = last[0].record.strike if last else None
            if (
                note and note.get("heard") is False
            ):  # Q13: the pad took the heard call, no strike heard
                self.referee.previous = tl.outcome_cut(
                    self.referee.time, self.referee.previous, self.referee.table_sounds()
                )
            self.referee.stroke_entered_elsewhere()
            self._published = None
        if self.club is not None:
            # the pad committed: send it now (the worker also looks every second)
            self.club.notify()
        session = self.session
        for row in session.store.strokes(session.id)[-1:]:
            self.display.line(
                trl(self.lang, "on the pad: #{seq} {v}").format(
                    seq=row.seq, v=row.record.verdict.get("message", "")
                )
            )
        self.scoreboard()
        self.club_line()
        if session.match.decided:
            self.console.print(trl(self.lang, "match {id} is over").format(id=session.id))
            return True
        return False

    def follow_take_back(self) -> None:
        """--pad: the marker took back on the pad the strike this referee decided last (Q14):
        taken back here too, so the call it made late counts for the next strike."""
        t = self.referee.revocable
        if t is None:
            return
        standing = self.session.standing()
        if standing is None or not any(
            abs(t - x) <= tl.SAME_STRIKE_S for x in standing.taken_back
        ):
            return
        with self.lock:
            self.referee.take_back(t)
            self.referee.taken_back = []  # the store keeps them for the pad's stroke
            self.display.forget_standing()
        self.display.line(
            "[yellow]"
            + trl(
                self.lang,
                "strike at {t:.2f} s taken back by the marker: it was no strike; the call counts "
                "again for the next strike",
            ).format(t=t)
            + "[/yellow]"
        )

    def publish_heard(self) -> None:
        """--pad: the call heard with no strike after it is the match's standing call (with no
        strike time), so an outcome tapped on the pad with no strike heard takes it (Q13). A
        strike's call waiting for its outcome, or a call the marker typed, is not replaced."""
        with self.lock:
            if self.pending or self.awaiting.is_set():
                return
            d = self.referee.unheard()
        if d.status == "none":
            return
        key = (d.status, d.heard, json.dumps(d.call, sort_keys=True))
        if key == self._published:
            return
        standing = self.session.standing()
        if standing is not None and not standing.heard_unstruck:
            return
        self.session.set_standing(listen.reading_of(d, self.lang), source="listen", strike=None)
        self._published = key

    def announce_ears(self) -> None:
        """--pad: ``serve`` is told (a notice beside the store) that ``listen`` hears this table,
        so its pages say so (``listening.source``: ``"listen"``) until the run ends."""
        self.ears = None
        if self.pad:
            self.ears = EarsNotice(self.store.path, self.session.id).start()

    def finish(self, thread: threading.Thread) -> None:
        """Stop the audio thread, the microphone and the voice; --club: one last drain, and the
        status it left is the last line."""
        self.stop.set()
        if getattr(self, "ears", None) is not None:
            self.ears.stop()  # serve's pages: the table's ears are off
        self.mic.close()
        thread.join(timeout=2)
        self.speaker.close()
        problems = self.mic.problems()
        if problems:
            self.console.print(f"[yellow]{problems}[/yellow]")
        if self.club is not None:
            self.club.stop()
            self.club_line()
            leaving = leaving_text(
                self.club.db_path, self.club.url, self.lang
            )  # what the next run or club sync sends
            if leaving:
                self.console.print(f"[yellow]{leaving}[/yellow]")


def run_live(args: ListenOptions) -> int:
    """``pyramid-referee listen``: see the module's text (``--list-devices`` is the command
    line's: cli/voice.py)."""
    lang = args.lang
    console = Console(highlight=False)
    new = new_match_request(args, lang)  # a bad option is told before the model loads
    club = club_for(args)  # an unregistered table too: before the model, the microphone, a match
    model, location = load_model(args, lang)
    profile = strike_profile(
        args, console
    )  # before the store: a failed calibration creates nothing
    with ExitStack() as stack:
        live = LiveRun(
            console, open_live(args, stack, model, new, profile, lang), args, lang, club
        )
        from pyramid_referee.voice.profile import asks_for_none  # deferred: the audio stack

        live.greet(location, profile, no_profile=asks_for_none(getattr(args, "profile", None)))
        return live.run()
