"""Subcommands of the match area (see cli.py): the match store and the scorer.

``match new|list|show|resume|delete``, ``undo``, ``redo``, ``stats``, ``play`` (``export``:
cli_export.py). Every one takes ``--db PATH`` (else ``$PYRAMID_REFEREE_DB``, else the user data
directory) and ``--json``. A missing match, a locked or corrupt database, a bad path: one clear
line, exit 2. ``play`` from a pipe exits 1 when a line was rejected. Only ``match new`` and
``play`` (a new match) create the database, and only after the new match's players, settings and
start were checked; every other command opens an existing one (``match list`` on none says so and
lists nothing).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from typing import TYPE_CHECKING

from ..i18n import N_, UserError, get_lang, json_reason, tr, trn
from ..match.bounds import MAX_CALL_CHARS
from ..match.marks import strike_marks
from ..match.record import check_record, is_record
from ..match.text import game_line, match_score_line, render_scoreboard, scoreboard_line, why_lines
from ..rules.settings import mode_setting
from ..rules.verdict import FOUL_WORDS
from .calls import record_problem_lines
from .club import add_club_option
from .options import (
    add_players_option,
    add_to_wins_option,
    has_undecodable,
    match_id,
    players_from,
    read_text_lines,
)
from .rules import add_why_option

if TYPE_CHECKING:  # the session module is imported only when a match is opened
    from ..match.session import NewMatch


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this area's subcommands to the main parser."""
    parents = [common, _db_parent()]
    newp = _new_match_parent()
    _add_match(sub, common, parents, newp)
    _add_undo_redo(sub, parents)
    p = sub.add_parser("stats", parents=parents, help=tr("per-player statistics of a match"))
    p.add_argument("id", type=match_id, metavar=tr("ID"), help=_id_help())
    p.set_defaults(handler=cmd_stats)
    _add_play(sub, parents, newp)


def _db_parent() -> argparse.ArgumentParser:
    """``--db`` and ``--json``: every command of the area takes them."""
    dbp = argparse.ArgumentParser(add_help=False)
    dbp.add_argument(
        "--db",
        metavar=tr("PATH"),
        default=None,
        help=tr("the match database (default: $PYRAMID_REFEREE_DB or the user data directory)"),
    )
    dbp.add_argument("--json", action="store_true", help=tr("machine-readable output (JSON)"))
    return dbp


def _new_match_parent() -> argparse.ArgumentParser:
    """What a new match is made of (``match new``, ``play``): players, length, settings, start."""
    newp = argparse.ArgumentParser(add_help=False)
    add_players_option(newp)
    add_to_wins_option(newp)
    newp.add_argument(
        "--settings",
        metavar="JSON",
        help=tr(
            "match settings as JSON: mode, negative_scores, ball_values, target, penalty, "
            "pocket_precision"
        ),
    )
    newp.add_argument(
        "--mode",
        choices=("clean", "ball-and-pocket"),
        help=tr("call mode (C1, Q9; default clean)"),
    )
    newp.add_argument(
        "--start",
        metavar="JSON",
        help=tr("pick up a game from a score sheet: ")
        + '{"scores": {…}, "on_table": […], "to_play": P}',
    )
    return newp


def _add_match(
    sub: argparse._SubParsersAction,
    common: argparse.ArgumentParser,
    parents: list[argparse.ArgumentParser],
    newp: argparse.ArgumentParser,
) -> None:
    """``match new|list|show|resume|import|delete``."""
    match = sub.add_parser(
        "match",
        parents=[common],
        help=tr("the match store: new, list, show, resume, import, delete"),
        description=tr(
            "The match store: start, list, show, continue a match, import a written "
            "record, delete a match."
        ),
    )
    msub = match.add_subparsers(dest="match_command", metavar=tr("SUBCOMMAND"), required=True)
    _add_match_reading(msub, parents, newp)
    _add_match_changes(msub, parents)


def _add_match_reading(msub, parents, newp) -> None:
    """``match new``, ``list``, ``show``, ``resume``."""
    p = msub.add_parser("new", parents=parents + [newp], help=tr("start a match"))
    p.set_defaults(handler=cmd_new)
    p = msub.add_parser("list", parents=parents, help=tr("list the stored matches"))
    p.set_defaults(handler=cmd_list)
    p = msub.add_parser(
        "show", parents=parents, help=tr("the scoreboard and the strokes of a match")
    )
    p.add_argument("id", type=match_id, metavar=tr("ID"), help=_id_help())
    add_why_option(p)
    p.set_defaults(handler=cmd_show)
    p = msub.add_parser(
        "resume",
        parents=parents,
        help=tr("continue a match in play (default: the latest unfinished)"),
    )
    p.add_argument("id", type=match_id, metavar=tr("ID"), nargs="?", help=_id_help())
    add_why_option(p)
    add_club_option(p)
    p.set_defaults(handler=cmd_resume)


def _add_match_changes(msub, parents) -> None:
    """``match import`` (a written record) and ``match delete``."""
    p = msub.add_parser(
        "import",
        parents=parents,
        help=tr("store a written game record as a match, checked as validate checks it"),
        description=tr(
            "Store a written game record (a paper protocol typed in; see docs/record.md) as "
            "a match: it can then be played on (match resume), exported and counted in "
            "stats. The record is checked first as validate checks it; a record with any "
            "problem is refused with every problem named (exit status 1), and nothing is "
            "stored."
        ),
    )
    p.add_argument("file", metavar=tr("FILE"), help=tr("the game record ('-' for stdin)"))
    p.set_defaults(handler=cmd_import)
    p = msub.add_parser(
        "delete", parents=parents, help=tr("delete a match with all its strokes (asks first)")
    )
    p.add_argument("id", type=match_id, metavar=tr("ID"), help=_id_help())
    p.add_argument("--yes", action="store_true", help=tr("do not ask for confirmation"))
    p.set_defaults(handler=cmd_delete)


def _add_undo_redo(sub: argparse._SubParsersAction, parents) -> None:
    for name, helptext in (
        ("undo", tr("take back the last stroke")),
        ("redo", tr("put back the last stroke taken back")),
    ):
        p = sub.add_parser(
            name, parents=parents, help=helptext + tr(" (default: the latest match)")
        )
        p.add_argument("id", type=match_id, metavar=tr("ID"), nargs="?", help=_id_help())
        p.set_defaults(handler=cmd_undo_redo, action=name)


def _add_play(sub: argparse._SubParsersAction, parents, newp) -> None:
    p = sub.add_parser(
        "play",
        parents=parents + [newp],
        help=tr("the interactive scorer: type the call and the outcome, see the verdict"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=tr(
            "The scorer: 'CALL | OUTCOME' on one line, or 'заказ: …' then 'исход: "
            "…';\ncommands undo, redo, score, help, quit. Every stroke is "
            "committed before its\nverdict is shown. From a pipe: no prompts; "
            "--json gives one JSON line an answer;\nexit status 1 when a line was "
            "rejected.\nExample: тройку чисто в правый угол | биток 3, 3 в правый "
            "дальний угол"
        ),
    )
    p.add_argument(
        "--match", type=match_id, metavar=tr("ID"), help=tr("continue this stored match")
    )
    add_why_option(p)
    add_club_option(p)
    p.set_defaults(handler=cmd_play)


# ---------------------------------------------------------------------- helpers


def _id_help() -> str:
    return tr("the match number (see match list)")


def _store(args, *, create: bool = False):
    """The match database; only a command that starts a match creates it (``create``)."""
    from ..match.store import Store  # deferred: the store (sqlite3)

    return Store(args.db, create=create, lang=get_lang())


def _db_option(store) -> str:
    from ..match.store import db_option  # deferred: the store (sqlite3)

    return db_option(store.path)


def _emit(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _utf8(text: str, option: str) -> str:
    if has_undecodable(text):
        raise UserError(
            tr("{option}: the text is not UTF-8: check the terminal's encoding").format(
                option=option
            )
        )
    return text


def _load_json_arg(text: str | None, name: str):
    if text is None:
        return None
    _utf8(text, f"--{name}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(
            tr("--{name}: bad JSON ({exc})").format(name=name, exc=json_reason(exc))
        ) from None


def _new_settings(args) -> dict:
    settings = _load_json_arg(args.settings, "settings") or {}
    if not isinstance(settings, dict):
        raise UserError(tr("--settings: expected a JSON object"))
    if args.mode:
        settings = {**settings, "mode": mode_setting(args.mode)}
    return settings


def _new_match_args(args) -> NewMatch:
    """A new match's players, settings and start, checked before any database is opened."""
    from ..match.session import NewMatch  # deferred (heavy): only to open a match

    players = players_from(args.players) or [tr("Player 1"), tr("Player 2")]
    new = NewMatch(players, _new_settings(args), _load_json_arg(args.start, "start"), args.to_wins)
    new.check(get_lang())
    return new


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _club(args):
    """``--club`` / $PYRAMID_REFEREE_CLUB: the table's sync, not started yet (None without a club).
    Made before any match is opened or created, so a table not registered on that server is
    refused (ClubError) with nothing changed."""
    from ..club.process import ClubSyncProcess  # deferred: the club sync, only with --club
    from ..club.sync import from_args  # deferred: the club sync, only with --club

    url = from_args(args)
    return None if url is None else ClubSyncProcess(args.db, url, lang=get_lang())


def _run_play(session, args, resumed: bool, club=None) -> int:
    from .play import Play, stdin_reader  # deferred: the scorer loads only to play

    interactive = _interactive() and not args.json
    play = Play(
        session,
        out=sys.stdout,
        err=sys.stderr,
        json_mode=args.json,
        interactive=interactive,
        lang=get_lang(),
        resumed=resumed,
        confirm=confirm if interactive else None,
    )
    play.why = getattr(args, "why", False)
    if club is None:
        return play.run(stdin_reader(interactive))
    # Local first, and the sync in a child process: a stroke never waits
    # for it (bench/bench_club.py)
    play.club = club.start()
    try:
        return play.run(stdin_reader(interactive))
    finally:
        play.club.stop()
        # deferred: the club sync, only with --club
        from ..club.sync import leaving_text

        leaving = leaving_text(
            club.db_path, club.url, get_lang()
        )  # strokes the server has not stored: say what sends them
        if leaving:
            print(leaving, file=sys.stderr)


# ---------------------------------------------------------------------- commands


def cmd_new(args) -> int:
    from ..match.session import Session  # deferred (heavy): only to open a match

    if not args.players:
        _refuse_unnamed_match_beside_an_open_one(args)
    new = _new_match_args(args)
    s = Session.open_or_create(args.db, new=new, lang=get_lang())
    with s.store as store:
        if args.json:
            _emit(
                {
                    "match": s.id,
                    "players": s.players,
                    "settings": s.settings_json(),
                    "state": s.state.to_json(),
                    "series": s.series_json(),
                }
            )
        else:
            print(
                tr("match {id}: {players} v {players2}").format(
                    id=s.id, players=s.players[0], players2=s.players[1]
                )
                + (tr(", to {to_wins} wins").format(to_wins=s.to_wins) if s.to_wins > 1 else "")
            )
            print(
                tr("to score it: pyramid-referee match resume {id}{db}").format(  # the next step
                    id=s.id, db=_db_option(store)
                )
            )
    return 0


def _local_time(stamp: str) -> str:
    """The store's UTC stamp (2026-12-02T13:48:56.732Z) as local time to the minute, for people."""
    try:
        return (
            datetime.fromisoformat(stamp.replace("Z", "+00:00"))
            .astimezone()
            .strftime("%Y-%m-%d %H:%M")
        )
    except (ValueError, AttributeError):
        return stamp


def cmd_list(args) -> int:
    from ..match.store import StoreMissing  # deferred: the store (sqlite3)

    try:
        with _store(args) as store:
            rows = store.list_matches()
    except StoreMissing as exc:  # nothing to list, and nothing is created to list it
        if args.json:
            _emit({"matches": []})
        else:
            print(str(exc))
        return 0
    if args.json:
        _emit({"matches": [m.to_json() for m in rows]})
        return 0
    if not rows:
        print(tr("no matches"))
        return 0
    from rich.console import Console  # deferred: rich, only where it draws
    from rich.table import Table  # deferred: rich, only where it draws

    t = Table(show_header=True, header_style="bold")
    for col in (
        tr("No."),
        tr("players"),
        tr("played to"),
        tr("strokes"),
        tr("result"),
        tr("updated"),
    ):
        t.add_column(col)
    for m in rows:
        if m.result is None:
            res = ""
        elif m.result.get("winner"):
            res = tr("{result} won").format(result=m.result["winner"])
            if isinstance(m.result.get("wins"), dict):
                res += " (" + " : ".join(str(n) for n in m.result["wins"].values()) + ")"
        else:
            res = tr("draw")
        length = (
            tr("to {to_wins} wins").format(to_wins=m.to_wins) if m.to_wins > 1 else tr("one game")
        )
        if m.status == "open":  # the result of a match in play: it goes on
            res = (res + "; " if res else "") + tr("open")
        t.add_row(
            str(m.id),
            f"{m.players[0]} — {m.players[1]}",
            length,
            str(m.strokes),
            res,
            _local_time(m.updated),
        )
    Console(highlight=False).print(t)
    return 0


def cmd_show(args) -> int:
    from ..match.session import Session  # deferred (heavy): only to open a match

    lang = get_lang()
    with _store(args) as store:
        s = Session(store, args.id, lang=lang)
        rows = store.strokes(args.id)
        undone = store.strokes(args.id, statuses=("undone",))
        m = store.get_match(args.id)
    if args.json:
        _emit(
            {
                "match": m.to_json(),
                "state": s.state.to_json(),
                "strokes": [r.to_json() for r in rows],
                "undone": [r.to_json() for r in undone],
                "mismatches": [x.to_json() for x in s.mismatches],
                "series": s.series_json(),
            }
        )
        return 1 if s.mismatches else 0
    from rich.console import Console  # deferred: rich, only where it draws

    tty = sys.stdout.isatty()
    con = Console(highlight=False, soft_wrap=not tty)  # pipes and files: one line stays one line
    con.print(
        render_scoreboard(s.state.to_json(), m.id, lang)
        if tty
        else scoreboard_line(s.state.to_json(), lang)
    )
    _show_strokes(con, s, rows, lang, tty=tty, why=args.why)
    if s.to_wins > 1 or len(s.match.games()) > 1:
        for line in series_lines(s, lang):
            print(line)
    if undone:
        con.print(tr("undone (redo can put back): {undone}").format(undone=len(undone)))
    for x in s.mismatches:
        print(x.describe(lang), file=sys.stderr)
    return 1 if s.mismatches else 0


def _show_strokes(con, s, rows, lang: str, *, tty: bool, why: bool) -> None:
    """``match show``'s strokes: a table on a terminal, else one plain line a stroke."""
    from rich.table import Table  # deferred: rich, only where it draws

    t = Table(show_header=True, header_style="bold")
    for col in ("#", tr("striker"), tr("call"), tr("outcome"), tr("verdict")):
        t.add_column(col)
    for r in rows:
        cells, why_text = _stroke_cells(r, s, lang, tty=tty, why=why)
        if tty:
            t.add_row(*cells)
        else:  # plain lines for pipes and files: one stroke a line, nothing wrapped
            print(f"#{cells[0]} {cells[1]}: {cells[2]} | {cells[3]} → {cells[4]}")
            for line in why_text:  # --why: each cited clause in full, under its stroke
                print("   " + line)
    if tty:
        con.print(t)


def _stroke_cells(r, s, lang: str, *, tty: bool, why: bool) -> tuple[tuple[str, ...], list[str]]:
    """One stored stroke's cells (number, striker, call, outcome, verdict) and its --why lines."""
    from ..match.report import outcome_for_people  # deferred: the reports

    rec = r.record
    call = _shown_call(rec.call_text or "—")
    if rec.call_status == "none":
        call = tr("no call")
    elif rec.call_status == "refused":
        call += tr(" (refused)")
    marks = strike_marks(rec.strike, lang)  # Q13, Q14: what the voice referee heard of the strike
    if marks:
        call += " (" + "; ".join(marks) + ")"
    replayed = s.verdicts.get(r.seq)  # the stored message is in the language it was entered in
    message = replayed.message(lang) if replayed is not None else rec.verdict.get("message", "")
    why_text = (
        why_lines(
            replayed.clauses if replayed is not None else rec.verdict.get("clauses", []),
            lang,
            full=True,
            settings=s.settings,
        )
        if why
        else []
    )
    cells = (
        str(r.seq),
        rec.verdict.get("striker", ""),
        call,
        outcome_for_people(rec.outcome_text, rec.outcome, rec.call_status, lang),
        "\n".join([message, *why_text]) if tty else message,
    )
    return cells, why_text


def _shown_call(text: str) -> str:
    """A stored call as ``match show`` prints it: a text longer than any call (stored before such
    input was refused) only begins, with its length said, so that it cannot flood the screen."""
    if len(text) <= MAX_CALL_CHARS:
        return text
    return (
        text[:60].rstrip()
        + "… "
        + trn(
            "({n} character, not shown whole)", "({n} characters, not shown whole)", len(text)
        ).format(n=len(text))
    )


def series_lines(s, lang: str) -> list[str]:
    """The match's games (партии), one a line, then the match score."""
    return [game_line(g, lang) for g in s.match.games()] + [match_score_line(s, lang)]


def cmd_resume(args) -> int:
    from ..match.session import Session  # deferred (heavy): only to open a match

    s = Session.open_or_create(args.db, args.id, lang=get_lang())
    with s.store:
        return _run_play(s, args, resumed=True, club=_club(args))


def cmd_play(args) -> int:
    from ..match.session import Session  # deferred (heavy): only to open a match

    if args.match is not None:
        s = Session.open_or_create(args.db, args.match, lang=get_lang())
        with s.store:
            return _run_play(s, args, resumed=True, club=_club(args))
    if not args.players:
        _refuse_unnamed_match_beside_an_open_one(args)
    new = _new_match_args(args)
    club = _club(args)  # an unregistered table is refused before its match is created
    s = Session.open_or_create(args.db, new=new, lang=get_lang())
    with s.store:
        return _run_play(s, args, resumed=False, club=club)


def _refuse_unnamed_match_beside_an_open_one(args) -> None:
    """``play`` with no players while a match is unfinished: the marker most likely meant to go
    on with it; a new match of «Игрок 1 — Игрок 2» beside it would be a stray one."""
    from ..match.store import StoreError  # deferred: the store (sqlite3)

    try:
        with _store(args) as store:
            db = _db_option(store)
            open_id = store.latest_open()
            row = store.get_match(open_id) if open_id is not None else None
    except StoreError:  # no database yet (or not one: said when it is opened to play)
        return
    if row is not None:
        raise UserError(
            tr(
                "match {id} ({first} — {second}) is not finished: continue it with "
                "«pyramid-referee match resume {id}{db}», or name the players of a new match: "
                "«--players Иван Пётр»"
            ).format(id=row.id, first=row.players[0], second=row.players[1], db=db)
        )


#: The answers to a yes/no question, a whole line each (case and spaces around do not matter).
YES_WORDS = {"ru": ("д", "да"), "en": ("y", "yes")}
NO_WORDS = {"ru": ("н", "нет"), "en": ("n", "no")}


def yes_no(line: str, lang: str) -> bool | None:
    """A typed line as the answer to a yes/no question: True, False, or None (no answer)."""
    word = " ".join(line.split()).lower()
    lang = lang if lang in YES_WORDS else "ru"
    if word in YES_WORDS[lang]:
        return True
    if word in NO_WORDS[lang]:
        return False
    return None


def confirm(prompt: str, read=None) -> bool:
    """Ask a yes/no question on the terminal. The answer is a whole line: «д»/«да» or «н»/«нет»
    («y»/«yes», «n»/«no» with --lang en); any other line is no answer, is said so (the line quoted,
    so that a stroke typed ahead is not lost unseen) and the question is asked again. Reading
    whole lines leaves nothing over for the questions after it. End of input or Ctrl-C: no."""
    lang, read = get_lang(), read or input
    while True:
        try:
            line = read(prompt)
        except (EOFError, KeyboardInterrupt):
            sys.stdout.write("\n")
            sys.stdout.flush()
            return False
        answer = yes_no(line, lang)
        if answer is not None:
            return answer
        if line.strip():
            print(
                tr(
                    "«{line}» is no answer and was not entered; answer «y» (yes) or «n» (no)"
                ).format(line=line.strip())
            )
        else:
            print(tr("answer «y» (yes) or «n» (no)"))
        sys.stdout.flush()


def cmd_import(args) -> int:
    """A written record into the store: checked whole first (nothing is stored when anything is
    wrong), then its strokes entered in order as ``play`` enters them, each one committed."""
    from ..match.session import Session  # deferred (heavy): only to open a match

    lang = get_lang()
    name = "<stdin>" if args.file == "-" else args.file
    lines = read_text_lines(args.file)
    if not is_record(args.file, lines):
        raise UserError(
            tr(
                "{name}: not a game record: a record begins with «Игроки: Иван, Пётр» or is named "
                "*.record (see docs/record.md); nothing stored"
            ).format(name=name)
        )
    checked = check_record(lines)
    if checked.problems:  # named as validate names them; the store is not even opened
        out = record_problem_lines(name, lines, checked.problems, lang, args.json)
        if args.json:
            out.append(
                json.dumps(
                    {"file": name, "imported": False, "problems": len(checked.problems)},
                    ensure_ascii=False,
                )
            )
        else:
            out.append(
                tr(
                    "{name}: not imported, nothing stored: problems: {n} "
                    "(fix them; «pyramid-referee validate {name}» checks the record again)"
                ).format(name=name, n=len(checked.problems))
            )
        sys.stderr.write("\n".join(out) + "\n")
        return 1
    rec = checked.record
    players, start = list(rec.players), rec.start
    Session.check_new(players, rec.settings, start, lang=lang, to_wins=rec.to_wins)
    with _store(args, create=True) as store:
        s = Session.create(store, players, rec.settings, start, lang=lang, to_wins=rec.to_wins)
        try:
            for stroke in rec.strokes:
                reading = s.read_call(stroke.call)
                entered = s.enter(reading.text, stroke.outcome, reading=reading)
                s.mark_shown(entered.seq)  # not new to anyone: a resume names none of them
        except (
            BaseException
        ):  # the record was judged whole above, so this is the store failing: undo all
            store.delete_match(s.id)
            raise
        db = _db_option(store)
    if args.json:
        _emit(
            {
                "match": s.id,
                "imported": True,
                "file": name,
                "strokes": s.seq,
                "state": s.state.to_json(),
                "series": s.series_json(),
            }
        )
        return 0
    print(tr("match {id} imported from {name}: strokes: {n}").format(id=s.id, name=name, n=s.seq))
    print(scoreboard_line(s.state.to_json(), lang))
    if s.to_wins > 1:  # a match of several партии: the games won too
        print(match_score_line(s, lang))
    if s.match.decided:
        print(
            tr("the match is over; see it: pyramid-referee match show {id}{db}").format(
                id=s.id, db=db
            )
        )
    else:
        print(tr("to go on: pyramid-referee match resume {id}{db}").format(id=s.id, db=db))
    return 0


def cmd_delete(args) -> int:
    with _store(args) as store:
        m = store.get_match(args.id)
        if not args.yes:
            if not _interactive():
                raise UserError(
                    tr("match {id} was not deleted: confirm with --yes").format(id=m.id)
                )
            question = tr(
                "Delete match {id} ({players} v {players2}, {strokes} strokes)? It cannot be "
                "brought back. [y/n] "
            ).format(id=m.id, players=m.players[0], players2=m.players[1], strokes=m.strokes)
            if not confirm(question):
                print(tr("match {id} was not deleted").format(id=m.id))
                return 1
        store.delete_match(m.id)
    if args.json:
        _emit({"deleted": m.id})
    else:
        print(tr("match {id} deleted").format(id=m.id))
    return 0


def cmd_undo_redo(args) -> int:
    from ..match.session import Session  # deferred (heavy): only to open a match
    from ..match.store import StoreError  # deferred: the store (sqlite3)

    with _store(args) as store:
        mid = args.id
        if mid is None:
            mid = store.latest()
            if mid is None:
                raise StoreError(tr("there are no matches"))
        s = Session(store, mid, lang=get_lang())
        if s.mismatches:
            raise StoreError("; ".join(x.describe(get_lang()) for x in s.mismatches))
        seq = s.undo() if args.action == "undo" else s.redo()
        if seq is None:
            raise UserError(
                tr("match {mid}: nothing to undo").format(mid=mid)
                if args.action == "undo"
                else tr("match {mid}: nothing to redo").format(mid=mid)
            )
        if args.json:
            _emit(
                {
                    "type": args.action,
                    "match": mid,
                    "stroke": seq,
                    "seq": s.seq,
                    "state": s.state.to_json(),
                }
            )
        else:
            done = tr("undone") if args.action == "undo" else tr("redone")
            print(tr("match {mid}: stroke {seq} {done}").format(mid=mid, seq=seq, done=done))
            print(scoreboard_line(s.state.to_json(), get_lang()))
    return 0


_ROUTE_KINDS = {  # the route words as players say them
    "clean": N_("clean"),
    "abricole": N_("abricole"),
    "bank": N_("off the cushion (bank)"),
    "kiss": N_("off a ball (kiss)"),
    "combination": N_("combination"),
    "carom": N_("carom"),
    "contre_coup": N_("contre-coup"),
    "ball_and_pocket": N_("ball and pocket"),
}


def _route_kind(kind: str) -> str:
    """A route kind of match.report.route_kinds as the user reads it."""
    return tr(_ROUTE_KINDS[kind]) if kind in _ROUTE_KINDS else kind


def cmd_stats(args) -> int:
    from ..match.report import stats  # deferred: the reports

    with _store(args) as store:
        m = store.get_match(args.id)
        data = stats(m, store.strokes(args.id))
    if args.json:
        _emit(data)
        return 0
    from rich.console import Console  # deferred: rich, only where it draws
    from rich.table import Table  # deferred: rich, only where it draws

    con = Console(highlight=False)
    for p in data["players"]:
        st = data["stats"][p]
        t = Table(title=p, show_header=True, header_style="bold")
        t.add_column(tr("what"))
        t.add_column(tr("count"), justify="right")
        t.add_row(tr("strokes"), str(st["strokes"]))
        t.add_row(tr("calls made / fulfilled"), f"{st['calls']} / {st['fulfilled']}")
        for kind, n in st["by_route"].items():
            t.add_row(f"  {_route_kind(kind)}", f"{n['made']} / {n['fulfilled']}")
        t.add_row(tr("calls refused"), str(st["refused"]))
        t.add_row(tr("strokes without a call"), str(st["no_call"]))
        t.add_row(tr("penalties"), str(st["penalties"]))
        for letter, n in st["fouls"].items():  # each foul by its name, its clause after it
            name = tr(FOUL_WORDS[letter]) if letter in FOUL_WORDS else letter
            t.add_row(f"  {name} (P1{letter})", str(n))
        t.add_row(
            tr("high run: calls / points"),
            f"{st['high_run']['calls']} / {st['high_run']['points']}",
        )
        con.print(t)
    return 0
