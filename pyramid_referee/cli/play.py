"""``play``: the interactive scorer. Type the call and the outcome; see the verdict.

Input, one line at a time (the same on a terminal and from a pipe):

- ``CALL | OUTCOME`` — a whole stroke on one line:
  ``тройку чисто в правый угол | биток 3, 3 в правый дальний угол``
- ``заказ: CALL`` then ``исход: OUTCOME`` (``call:`` / ``outcome:``) — in two
  lines; the call is checked at once («заказ принят» / «не принят: …») and the
  last call given before the outcome counts (C9).
- A line with no prefix is the call when none is pending, else the outcome (on a
  terminal the prompt says which is expected); a line the outcome notation cannot
  read but that is an accepted call replaces the pending call (C9: the last call
  counts). An empty call, ``-`` or «без заказа» is no call.
- A call may also be the call's JSON (``{"ball": 3, …}``), an outcome the
  outcome JSON; otherwise the outcome is the short notation (``help`` shows it).
- Commands: ``undo`` / ``отмена``, ``redo`` / ``повтор``, ``score`` / ``счёт``,
  ``help`` / ``помощь``, ``quit`` / ``выход`` (Ctrl-D and Ctrl-C leave too).

Every stroke is committed to the store before its verdict is printed, so a kill
loses nothing that was shown; once printed, the stroke is marked shown. ``match
resume`` continues, and first names any stroke stored but never shown (a kill
came between), so the marker does not enter it twice. A line that cannot be
entered gets a message naming the line (from a pipe) and what is wrong, changes
nothing, and the marker types again.

A mistake changes nothing. A call refused for a word the parser does not know is
the marker's typo, not the player's unclear call: nothing is recorded and the call
is asked again. A call refused for what the player said (no pocket, ambiguous, …)
is recorded as refused (C4) — on a terminal only after the marker answers «д» (the
answer is a whole line: «д»/«да», «н»/«нет»; anything else is asked again, so a stroke typed
ahead is never taken for the answer), and only once the outcome is known to be possible (it is
checked before the question); from a pipe the line itself is the marker's decision. A line that
reads as an outcome where the call is expected is refused as a missing «|», not taken for a call.
A call or an outcome longer than any real one is refused with the limit named (match/bounds.py).

With ``--json`` every answer is one JSON line on stdout, flushed at once:
``{"type": "start"|"call"|"stroke"|"undo"|"redo"|"score"|"error"|"help"|"end", …}``;
a ``stroke`` line comes only after its stroke is committed.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import IO

from ..i18n import N_, UserError, tr, trl
from ..match.session import CallReading, Entered, Session, StrokeInputError
from ..match.store import StoreError, db_option
from ..match.text import (
    game_end_text,
    match_score_line,
    render_scoreboard,
    scoreboard_line,
    why_lines,
)
from ..rules.notation import NotationError, parse_outcome_located

COMMANDS = {
    "undo": "undo",
    "отмена": "undo",
    "отменить": "undo",
    "отмени": "undo",
    "redo": "redo",
    "повтор": "redo",
    "вернуть": "redo",
    "верни": "redo",
    "score": "score",
    "счет": "score",
    "счёт": "score",
    "help": "help",
    "помощь": "help",
    "?": "help",
    "quit": "quit",
    "exit": "quit",
    "выход": "quit",
    "выйти": "quit",
    "q": "quit",
}
CALL_PREFIXES = ("заказ:", "call:")
CLUB_SETTLE_S = (
    0.3  # at a terminal, the club line waits this long at most for the stroke to be sent
)
OUTCOME_PREFIXES = ("исход:", "outcome:")


# The outcome notation for the marker, in short (the full text is the notation module's doc).
NOTATION_HELP = N_(
    "  a ball's story     «биток 6» — the cue ball hits 6; «11 3» — 11 hits 3; a chain "
    "«биток 6 3 в середину»\n"
    "                     (cue→6, 6→3, 3 into the middle); «3 борт» / «3 в борт»; "
    "«биток борт 6»;\n"
    "                     a carom is two stories: «биток 6, биток 11»; the steps may be joined "
    "with «→»\n"
    "  pocket             «3 в правый дальний угол», «3 в левую середину», «3 в середину»;\n"
    "                     «биток в лузе» — the pocket unsaid (for the called ball it will be "
    "asked)\n"
    "  off the table      «биток за бортом», «5 вылетел»\n"
    "  fouls (P1)         «фол г», «г», «фол г д»; in words: touching (г), the wrong ball (д),\n"
    "                     jumped / on edge (е), not from the house (з), balls not stopped (и);\n"
    "                     а, б, в, ж show from the events: «промах», «биток в … угол»,\n"
    "                     «биток за бортом», «в доме» (the letters а, в, ж are understood too)\n"
    "  marks              «промах» (the cue ball touched no ball), «с руки», «в доме»,\n"
    "                     «по заказу» / «не по заказу» (pockets only, no contacts),\n"
    "                     «предупреждение», «позиция не изменилась»\n"
    "  empty outcome      «ничего», «пусто» or «-»: no events — so the cue ball touched no\n"
    "                     ball (a miss, P1а); a stroke after which nothing fell: «биток 5»\n"
    "Ball numbers are the digits 1–15, the cue ball is «биток» (or «свой»). Pockets are as the "
    "striker sees them.\n"
    "An error names the column and what was expected there; a wrong line changes nothing."
)


def _unprefix(text: str) -> str:
    """«заказ: X» → «X», «исход: Y» → «Y» (the prefixes are optional on a «|» line)."""
    low = text.strip().lower()
    for p in CALL_PREFIXES + OUTCOME_PREFIXES:
        if low.startswith(p):
            return text.strip()[len(p) :]
    return text


def help_text(lang: str) -> str:
    return trl(
        lang,
        "The marker types «CALL | OUTCOME» on one line, or «заказ: …» and then «исход: …».\n"
        "An empty call, «-» or «без заказа» is a stroke without a call. "
        "Commands: «undo»/«отмена», "
        "«redo»/«повтор», «score»/«счёт», «help»/«помощь», «quit»/«выход».\n"
        "Example: тройку чисто в правый угол | биток 3, 3 в правый дальний угол\n"
        "The short outcome notation. Items are separated by «;» or «,», in time order:\n"
        "{notation}",
    ).format(notation=trl(lang, NOTATION_HELP))


class Play:
    """The scorer's loop over one session. ``feed(line)`` handles one input line."""

    def __init__(
        self,
        session: Session,
        *,
        out: IO[str],
        err: IO[str],
        json_mode: bool,
        interactive: bool,
        lang: str = "ru",
        resumed: bool = False,
        confirm: Callable[[str], bool] | None = None,
    ) -> None:
        self.s = session
        self.confirm = (
            confirm  # asks the marker yes/no (a terminal); None: the line is the decision
        )
        self.out = out
        self.err = err
        self.json = json_mode
        self.interactive = interactive
        self.lang = lang
        self.resumed = resumed
        self.pending: CallReading | None = None
        self.lineno = 0
        self.rejected = 0
        self.done = False
        self._console = None
        self.why = False  # --why: each verdict's clauses in full under it
        # --club: the background sync (club.process.ClubSyncProcess); its status follows
        # each verdict
        self.club = None

    # ------------------------------------------------------------------ output
    @property
    def console(self):
        if self._console is None:
            from rich.console import Console  # deferred: rich, only where it draws

            self._console = Console(
                file=self.out,
                highlight=False,
                soft_wrap=True,
                force_terminal=None if self.interactive else False,
            )
        return self._console

    def emit(self, obj: dict) -> None:
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.out.flush()

    def say(self, text: str, style: str | None = None) -> None:
        if self.interactive:
            self.console.print(text, style=style, markup=False)
        else:
            self.out.write(text + "\n")
        self.out.flush()

    def error(self, msg: str, exc: StrokeInputError | None = None) -> None:
        """A line not entered: what is wrong; for a typed outcome, the text with a caret under
        the place (``--json``: its ``column`` in the outcome as typed)."""
        self.rejected += 1
        where = "" if self.interactive else tr("line {lineno}: ").format(lineno=self.lineno)
        pointer = exc.pointer() if exc is not None else []
        if self.json:
            obj = {"type": "error", "line": self.lineno, "message": where + msg}
            if pointer:
                obj["column"] = exc.column
            self.emit(obj)
        else:
            self.err.write(where + msg + "\n" + "".join(f"    {x}\n" for x in pointer))
            self.err.flush()

    def show_score(self, *, series: bool = False) -> None:
        """The scoreboard; with ``series`` (start, the «счёт» command) the match
        score in games too."""
        st = self.s.state.to_json()
        if self.json:
            obj = {"type": "score", "match": self.s.id, "seq": self.s.seq, "state": st}
            if series:
                obj["series"] = self.s.series_json()
            self.emit(obj)
            return
        if self.interactive:
            self.console.print(render_scoreboard(st, self.s.id, self.lang))
        else:
            self.say(scoreboard_line(st, self.lang))
        if series and self.s.to_wins > 1:
            self.say(match_score_line(self.s, self.lang))

    # ------------------------------------------------------------------ start
    def start(self) -> None:
        s = self.s
        unshown = s.resume_notices()
        if self.json:
            self.emit(
                {
                    "type": "start",
                    "match": s.id,
                    "resumed": self.resumed,
                    "seq": s.seq,
                    "undone": len(s.store.strokes(s.id, statuses=("undone",))),
                    "players": s.players,
                    "settings": s.settings_json(),
                    "state": s.state.to_json(),
                    "series": s.series_json(),
                    "mismatches": [m.to_json() for m in s.mismatches],
                    "unshown": [
                        {
                            "seq": r.seq,
                            "call_text": r.record.call_text,
                            "outcome_text": r.record.outcome_text,
                            "verdict": r.record.verdict,
                        }
                        for r in unshown
                    ],
                }
            )
        else:
            what = tr("resuming match") if self.resumed else tr("match")
            self.say(
                f"{what} {s.id}: {s.players[0]} — {s.players[1]}; "
                + (tr("to {to_wins} wins; ").format(to_wins=s.to_wins) if s.to_wins > 1 else "")
                + tr("strokes: {seq}").format(seq=s.seq)
                + ("" if not self.interactive else tr(" (help for help)"))
            )
            for r in unshown:
                self.say(self.unshown_text(r), "yellow")
            self.show_score(series=True)
        for r in unshown:
            s.mark_shown(r.seq)

    def unshown_text(self, row) -> str:
        """A stroke stored before a kill whose verdict never reached the screen: say it is in."""
        rec = row.record
        call = rec.call_text or tr("no call")
        replayed = self.s.verdicts.get(row.seq)
        verdict = (
            replayed.message(self.lang) if replayed is not None else rec.verdict.get("message", "")
        )
        return tr(
            "stroke {seq} is already stored, but the program stopped and its verdict may not "
            "have been shown: «{call} | {outcome_text}» — do not enter it again. #{seq} {verdict}"
        ).format(seq=row.seq, call=call, outcome_text=rec.outcome_text, verdict=verdict)

    @property
    def db(self) -> str:
        """`` --db PATH`` for the hints, when the store is not the one found without it."""
        return db_option(self.s.store.path)

    def prompt(self) -> str:
        if not self.interactive:
            return ""
        if self.s.match.decided:  # nothing more to play: say so, undo stays possible
            return tr("match over («undo» takes the last stroke back, «quit» leaves)> ")
        who = self.s.upcoming.striker  # after a game's end: who breaks the next one
        return (
            tr("outcome ({who})> ").format(who=who)
            if self.pending is not None
            else tr("call ({who})> ").format(who=who)
        )

    # ------------------------------------------------------------------ input
    def feed(self, raw: str) -> None:
        self.lineno += 1
        if any(
            "\udc80" <= ch <= "\udcff" for ch in raw
        ):  # bytes that were not UTF-8: never stored
            self.error(tr("the line is not UTF-8: check the terminal's or the file's encoding"))
            return
        line = raw.strip()
        low = line.lower()
        cmd = COMMANDS.get(low)
        try:
            if cmd is not None:
                self.command(cmd)
            elif "|" in line:
                call_text, _, outcome_text = (_unprefix(x) for x in line.partition("|"))
                if self.pending is not None:
                    self.pending = (
                        None  # the whole stroke on this line replaces a pending call (C9)
                    )
                reading = self.typed_call(call_text)
                self.stroke(reading, outcome_text.strip())
            elif low.startswith(CALL_PREFIXES):
                self.take_call(line.split(":", 1)[1])
            elif low.startswith(OUTCOME_PREFIXES):
                reading = self.pending or self.s.read_call(None)
                self.stroke(reading, line.split(":", 1)[1].strip())
            elif self.pending is None:
                self._refuse_an_outcome_for_a_call(line)
                self.take_call(line)
            elif self._new_call(
                line
            ):  # said again instead of an outcome: the last call counts (C9)
                if not self.json:
                    self.say(tr("the earlier call is replaced (C9)"))
                self.take_call(line)
            else:
                self.stroke(self.pending, line)
        except StrokeInputError as exc:
            self.error(str(exc), exc)
        except StoreError:
            raise  # the store cannot be used: stop (exit 2), nothing half-written
        except UserError as exc:
            self.error(str(exc))

    def _new_call(self, line: str) -> bool:
        """A line typed where the outcome is expected that is no outcome but an accepted call.

        Only a line the outcome notation cannot read at all is tried as a call, so an outcome
        (even one the rules then refuse) is never taken for a call."""
        if line.lstrip().startswith("{"):
            return False
        try:
            parse_outcome_located(line)
            return False
        except NotationError:
            pass
        return self.s.read_call(line).status == "accepted"

    def _refuse_an_outcome_for_a_call(self, line: str) -> None:
        """A line where the call is expected that reads as a stroke's outcome and is no accepted
        call: the marker most likely left out the «|» between the call and the outcome. Nothing
        is taken (a refused call stood pending would make the next line its outcome)."""
        if line.strip() in ("", "-", "—") or line.lstrip().startswith("{"):
            return
        try:
            parse_outcome_located(line)
        except NotationError:
            return
        if self.s.read_call(line).status != "accepted":
            raise StrokeInputError(
                tr(
                    "looks like the outcome of a stroke — forgot the «|»? Type «CALL | OUTCOME» "
                    "(«- | OUTCOME» without a call); nothing recorded"
                )
            )

    def typed_call(self, text: str | None) -> CallReading:
        """The call as the marker typed it; a word the parser does not know is
        a typo: ask again."""
        reading = self.s.read_call(text)
        if reading.status == "refused" and (reading.refusal or {}).get("code") == "unknown_word":
            why = reading.refusal.get("message", "")
            raise StrokeInputError(
                tr("nothing recorded: {why} — looks like a typo; type the call again").format(
                    why=why
                )
            )
        return reading

    def take_call(self, text: str) -> None:
        reading = self.typed_call(text)
        self.pending = reading
        if self.json:
            self.emit(
                {
                    "type": "call",
                    "call_text": reading.text,
                    "call_status": reading.status,
                    "call": None if reading.call is None else reading.call.to_json(),
                    "canonical": reading.canonical,
                    "refusal": reading.refusal,
                }
            )
        else:
            style = (
                "green"
                if reading.status == "accepted"
                else "red"
                if reading.status == "refused"
                else None
            )
            self.say(reading.describe(self.lang), style)

    def stroke(self, reading: CallReading, outcome_text: str) -> None:
        if not outcome_text.strip():
            raise StrokeInputError(tr("no outcome given (an empty one is 'ничего' or '-')"))
        if reading.status == "refused" and self.confirm is not None:
            self.s.check(
                reading, outcome_text
            )  # what is wrong with the outcome is said before any question
            why = (reading.refusal or {}).get("message", "")
            question = tr(
                "The call is refused: {why}. Record the stroke with the refused call? [y/n] "
            ).format(why=why)
            yes = self.confirm(question)
            if not yes:
                self.pending = None
                self.say(tr("the stroke was not recorded; type the call again"))
                return
        entered = self.s.enter(reading.text, outcome_text, reading=reading)  # committed here
        self.pending = None
        if self.club is not None:
            self.club.notify()  # sent in the background, after the local commit
        self.show_stroke(entered)
        self.s.mark_shown(entered.seq)  # on the screen now: a resume will not name it

    def show_stroke(self, e: Entered) -> None:
        if self.json:
            r = e.record
            games = self.s.match.games()
            obj = {
                "type": "stroke",
                "match": self.s.id,
                "seq": e.seq,
                "call_text": r.call_text,
                "call_status": r.call_status,
                "call": r.call,
                "refusal": r.refusal,
                "outcome_text": r.outcome_text,
                "outcome": r.outcome,
                "verdict": r.verdict,
                "state": r.state,
                "game": next((g.number for g in games if g.first <= e.seq <= g.last), len(games)),
            }
            if self.s.to_wins > 1 and e.state.result is not None:
                obj["series"] = self.s.series_json()
            if self.club is not None:
                st = self.club.status()
                obj["club"] = {
                    "online": st.online,
                    "queued": st.queued,  # strokes
                    "queued_changes": st.changes,  # undos and redos: not strokes
                }
            self.emit(obj)
            return
        if e.record.call_status == "refused" and e.record.refusal:
            self.say(tr("call refused: ") + e.record.refusal.get("message", ""), "red")
        self.say(f"#{e.seq} " + e.verdict.message(self.lang), "bold")
        if self.why:
            for line in why_lines(
                e.verdict.clauses, self.lang, full=True, settings=self.s.settings
            ):
                self.say("   " + line)
        self.show_score()
        if self.s.to_wins > 1 and e.state.result is not None:
            self.say(game_end_text(self.s, self.lang), "bold")
        if self.club is not None:
            self.say(self._club_text(), "dim")

    def _club_text(self) -> str:
        """The club line under a verdict. At a terminal it waits a moment (at most
        ``CLUB_SETTLE_S``, the verdict already shown) for the stroke just committed to reach a
        server that is there: «в очереди 1 удар» under every stroke read to the маркёр as a
        fault. A pipe is never held up."""
        st = self.club.status()
        if self.interactive and st.online is not False and st.waiting:
            end = time.monotonic() + CLUB_SETTLE_S
            while st.waiting and st.online is not False and time.monotonic() < end:
                time.sleep(0.02)
                st = self.club.status()
        return st.text(self.lang)

    def command(self, cmd: str) -> None:
        if cmd == "quit":
            self.done = True
            return
        if cmd == "help":
            text = help_text(self.lang)
            if self.json:
                self.emit({"type": "help", "text": text})
            else:
                self.say(text)
            return
        if cmd == "score":
            if (
                self.at_game_end() and not self.json
            ):  # the match score and who breaks next, in one line
                self.show_score()
                self.say(game_end_text(self.s, self.lang), "bold")
            else:
                self.show_score(series=True)
            return
        if cmd == "undo":
            if self.pending is not None:  # first take back a call not yet played
                self.pending = None
                if self.json:
                    self.emit(
                        {"type": "undo", "match": self.s.id, "call": True, "seq": self.s.seq}
                    )
                else:
                    self.say(tr("call withdrawn"))
                return
            seq = self.s.undo()
        else:
            seq = self.s.redo()
        if seq is None:
            raise StrokeInputError(
                tr("nothing to undo") if cmd == "undo" else tr("nothing to redo")
            )
        if self.club is not None:
            self.club.notify(change=True)  # an undo or a redo: not a stroke in the club's queue
        if self.json:
            self.emit(
                {
                    "type": cmd,
                    "match": self.s.id,
                    "stroke": seq,
                    "seq": self.s.seq,
                    "state": self.s.state.to_json(),
                }
            )
        else:
            self.say(
                tr("stroke {seq} undone").format(seq=seq)
                if cmd == "undo"
                else tr("stroke {seq} redone").format(seq=seq)
            )
            self.show_score()
            if (
                self.at_game_end()
            ):  # back at a game's end: who breaks the next one, as after its stroke
                self.say(game_end_text(self.s, self.lang), "bold")
            if self.club is not None:  # an undo goes to the club too: the маркёр sees it did
                self.say(self._club_text(), "dim")

    def at_game_end(self) -> bool:
        """The current position is the end of a game in a match of several (партии)."""
        return self.s.to_wins > 1 and self.s.state.result is not None

    # ------------------------------------------------------------------ loop
    def run(self, read_line: Callable[[str], str | None]) -> int:
        """Read until quit or end of input. ``read_line(prompt)`` returns None at EOF."""
        self.start()
        if self.s.mismatches:
            for m in self.s.mismatches:
                self.err.write(m.describe(self.lang) + "\n")
            raise StoreError(
                tr(
                    "match {id}: the record disagrees with its replay; cannot continue "
                    "(pyramid-referee match show {id}{db})"
                ).format(id=self.s.id, db=self.db)
            )
        interrupted = False
        while not self.done:
            try:
                line = read_line(self.prompt())
            except (
                KeyboardInterrupt
            ):  # Ctrl-C at the prompt leaves like quit: every stroke is stored
                interrupted = True
                if self.interactive:
                    self.out.write("\n")
                break
            if line is None:
                break
            self.feed(line)
        if self.json:
            self.emit(
                {
                    "type": "end",
                    "match": self.s.id,
                    "seq": self.s.seq,
                    "state": self.s.state.to_json(),
                }
            )
        elif self.interactive:
            self.farewell()
        if interrupted:
            return 130
        return 1 if (self.rejected and not self.interactive) else 0

    def farewell(self) -> None:
        """On leaving: what is kept and how to go on (a call not yet played is not a stroke)."""
        s = self.s
        if self.pending is not None:
            self.say(tr("the call without an outcome was not recorded"))
        if s.match.decided:
            self.say(tr("match {id} is over and saved ({seq} strokes)").format(id=s.id, seq=s.seq))
        else:
            self.say(
                tr(
                    "match {id} saved ({seq} strokes); "
                    "to go on: pyramid-referee match resume {id}{db}"
                ).format(id=s.id, seq=s.seq, db=self.db)
            )


def stdin_reader(interactive: bool) -> Callable[[str], str | None]:
    if interactive:

        def read(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                print(file=sys.stdout)
                return None

        return read

    def read_pipe(prompt: str) -> str | None:
        line = sys.stdin.readline()
        return None if line == "" else line

    return read_pipe
