"""``club register`` and ``club status``: a table on the club server (PostgreSQL)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path

from ..i18n import get_lang, tr


def add_club_option(p: argparse.ArgumentParser, help: str | None = None) -> None:
    """``--club URL``; ``help`` says what the command does with the server (default: a program that
    plays, which replicates its store there)."""
    p.add_argument(
        "--club",
        metavar="URL",
        default=None,
        help=help
        or tr(
            "replicate this table's store to the club server (postgresql://…; default: "
            "$PYRAMID_REFEREE_CLUB); strokes are kept locally first"
        ),
    )


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "club", parents=[common], help=tr("the club server: register this table, see every table")
    )
    csub = p.add_subparsers(dest="club_command", metavar=tr("COMMAND"), required=True)
    _add_register(csub, common)
    _add_sync(csub, common)
    _add_resolve(csub, common)
    _add_status(csub, common)


def _add_register(csub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    r = csub.add_parser(
        "register",
        parents=[common],
        help=tr("register this table on the club server; prints its key once"),
    )
    add_club_option(
        r,
        tr(
            "the club server to register this table on, with the login that owns the club's "
            "database (postgresql://…; default: $PYRAMID_REFEREE_CLUB)"
        ),
    )
    r.add_argument(
        "--name",
        required=True,
        metavar=tr("NAME"),
        help=tr("the table's name in the club, e.g. «Стол 3»"),
    )
    r.add_argument(
        "--db",
        metavar=tr("PATH"),
        default=None,
        help=tr(
            "the match database the key is kept in (default: $PYRAMID_REFEREE_DB or the user "
            "data directory)"
        ),
    )
    r.set_defaults(handler=cmd_register)


def _add_sync(csub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    y = csub.add_parser(
        "sync",
        parents=[common],
        help=tr(
            "send this table's store to the club server and keep sending what any program "
            "(play, listen, serve) commits, until interrupted"
        ),
    )
    add_club_option(y)
    y.add_argument(
        "--db",
        metavar=tr("PATH"),
        default=None,
        help=tr("the match database (default: $PYRAMID_REFEREE_DB or the user data directory)"),
    )
    y.add_argument(
        "--once",
        action="store_true",
        help=tr("send what is waiting and exit (exit status 1 when the server could not take it)"),
    )
    y.set_defaults(handler=cmd_sync)


def _add_resolve(csub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    v = csub.add_parser(
        "resolve",
        parents=[common],
        help=tr(
            "resolve a conflict with the club server (another store with this table's key "
            "wrote there first): take the server's version, or register this store as a new "
            "table"
        ),
    )
    add_club_option(v)
    v.add_argument(
        "--db",
        metavar=tr("PATH"),
        default=None,
        help=tr("the match database (default: $PYRAMID_REFEREE_DB or the user data directory)"),
    )
    how = v.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--keep-server",
        action="store_true",
        help=tr(
            "this store takes the server's version of every match in conflict (this store's "
            "version stays on the server)"
        ),
    )
    how.add_argument(
        "--new-table",
        action="store_true",
        help=tr(
            "register this store as a new table (needs the club's own login, as club register) "
            "and send all of it there"
        ),
    )
    v.add_argument(
        "--name",
        metavar=tr("NAME"),
        default=None,
        help=tr("with --new-table: the new table's name"),
    )
    v.set_defaults(handler=cmd_resolve)


def _add_status(csub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    s = csub.add_parser(
        "status", parents=[common], help=tr("every table: its last stroke and the lag")
    )
    add_club_option(
        s,
        tr(
            "the club server to read every table from, with the club board's login "
            "(postgresql://…; default: $PYRAMID_REFEREE_CLUB)"
        ),
    )
    s.add_argument("--json", action="store_true", help=tr("machine-readable output (JSON)"))
    s.set_defaults(handler=cmd_status)


def _url(args) -> str:
    # deferred: the club sync loads only when a club command runs
    from ..club.sync import ClubError, from_args, server_id

    url = from_args(args)
    if url is None:
        raise ClubError(tr("no club server given: --club postgresql://… or $PYRAMID_REFEREE_CLUB"))
    server_id(url, get_lang())  # an address not understood: one line naming the right form
    return url


def cmd_register(args) -> int:
    # deferred: the club sync loads only when a club command runs
    from ..club.sync import ClubError

    url = _url(args)
    name = " ".join(
        args.name.split()
    )  # «Стол 2 » would be a second table that reads as «Стол 2» on the board
    if not name:
        raise ClubError(
            tr(
                "the table's name is empty: give the name the club calls it by, "
                'e.g. --name "Стол 3"'
            )
        )

    # deferred: the store (sqlite3) loads only when a club command runs
    from ..match.store import default_db_path

    path = Path(args.db).expanduser() if args.db is not None else default_db_path()
    fresh = not path.exists()
    try:
        return _register_into(args, url, name, path)
    except BaseException:
        if fresh:  # a refused registration leaves no empty store behind
            for leftover in (
                path,
                path.with_name(path.name + "-wal"),
                path.with_name(path.name + "-shm"),
            ):
                leftover.unlink(missing_ok=True)
        raise


def _register_into(args, url: str, name: str, path) -> int:
    # deferred: the club sync and the store load only when a club command runs
    from ..club.sync import connect, save_link
    from ..match.store import Store

    with Store(
        path, lang=get_lang()
    ) as store:  # opened first: a table whose store cannot keep the key is not registered
        with connect(url, get_lang()) as con:
            table_id, key = _register_on(con, store, url, name)
            save_link(store, url, table_id, name, key, con)
    print(
        tr("table {name} registered on the club server as number {id}").format(
            name=name, id=table_id
        )
    )
    print(
        tr("its key (shown only this once; kept in {path}): {key}").format(
            path=store.path, key=key
        )
    )
    return 0


def _register_on(con, store, url: str, name: str, *, again: bool = False) -> tuple[int, str]:
    """Migrate the schema and register ``name``: (number, key). ``again``: the store may already be
    registered there (``resolve --new-table``), else that is refused."""
    # deferred: psycopg and the club sync load only when a club command runs
    import psycopg

    from ..club import schema
    from ..club.sync import ClubError, denied, load_link

    try:
        schema.migrate(con, lang=get_lang())
        known = load_link(store, url, con)
        if not again and known is not None and schema.knows(con, known[0], known[2]):
            # a second name would orphan the first and leave its sent strokes behind
            raise ClubError(
                tr(
                    "this table is already registered on that club server as {name} "
                    "(number {id}); a table is registered once and keeps its name"
                ).format(name=known[1], id=known[0])
            )
        return schema.register(con, name, lang=get_lang())
    except psycopg.errors.InsufficientPrivilege as exc:
        raise ClubError(
            tr(
                "this login may not register tables on the club server ({why}); "
                "register with the login that owns the club's database and may create roles "
                "(CREATEROLE), see docs/club.md"
            ).format(why=denied(exc, get_lang()))
        ) from None


def cmd_resolve(args) -> int:
    """One command ends a conflict: the store takes the server's version, or
    becomes a new table."""
    # deferred: psycopg, the club sync and the store load only when a club command runs
    import psycopg

    from ..club import schema
    from ..club.sync import ClubError, connect, find_link, save_link, take_server_version
    from ..match.store import Store

    url = _url(args)
    name = " ".join((args.name or "").split())
    if args.new_table and not name:
        raise ClubError(tr('--new-table needs the new table\'s name: --name "Стол 4"'))
    with Store(args.db, create=False, lang=get_lang()) as store, connect(url, get_lang()) as con:
        link = find_link(store, url, con)
        if link is None:
            raise ClubError(
                tr(
                    "this table is not registered on the club server; register it once: "
                    "pyramid-referee club register --club URL --name NAME"
                ).format()
            )
        if args.new_table:
            # the old number's open conflicts are settled: this store is not that table any more
            try:
                con.execute(
                    "SELECT club_resolve_conflicts(%s, %s, NULL, 'new_table')",
                    (link.table_id, link.key),
                )
            except (psycopg.errors.InsufficientPrivilege, psycopg.errors.UndefinedFunction):
                pass  # a key that is not the table's (a mixed store) has no conflicts to settle
            table_id, key = _register_on(con, store, url, name, again=True)
            save_link(
                store, url, table_id, name, key, con
            )  # a new registration: every match is sent again
            print(
                tr(
                    "this store is now table {name} on the club server, number {id}; "
                    "all its matches are sent there by the next run with --club or "
                    "pyramid-referee club sync"
                ).format(name=name, id=table_id)
            )
            print(
                tr("its key (shown only this once; kept in {path}): {key}").format(
                    path=store.path, key=key
                )
            )
            return 0
        try:
            open_ = schema.conflicts(con, link.table_id, link.key)
        except psycopg.errors.InsufficientPrivilege:
            raise ClubError(
                tr(
                    "the club server does not accept this store's key for table {id}: take "
                    "nothing from it; register this store as a table of its own: pyramid-referee "
                    "club resolve --new-table --name NAME"
                ).format(id=link.table_id)
            ) from None
        matches = sorted({c["match"] for c in open_})
        if not matches:
            print(tr("no conflict with the club server: nothing to resolve"))
            return 0
        for m in matches:
            n = take_server_version(store, link, con, m)
            print(
                tr(
                    "match {match}: this store now holds the club server's version "
                    "({n} strokes in play); its own version stays on the server"
                ).format(match=m, n=n)
            )
    return 0


def cmd_sync(args) -> int:
    # deferred: the club sync and the store load only when a club command runs
    from ..club.sync import ClubSync, leaving_text
    from ..match.store import Store

    url = _url(
        args
    )  # the address first: one not understood is said before the store is looked for
    with Store(args.db, create=False, lang=get_lang()) as store:
        path = store.path
    sync = ClubSync(path, url, lang=get_lang())
    if args.once:
        ok = sync.drain()
        sync.close()
        st = sync.status()
        plain_outage = not (
            ok or st.conflict is not None or st.refused
        )  # the others' lines say it all
        print(st.text(get_lang()) + (f" ({st.error})" if plain_outage and st.error else ""))
        leaving = None if ok else leaving_text(path, sync.url, get_lang())
        if leaving:
            print(leaving, file=sys.stderr)
        return 0 if ok else 1
    sync.start()
    last = None
    try:
        while True:  # the worker polls the store itself: strokes from another program are sent too
            text = sync.status().text(get_lang())
            if text != last:
                print(text, flush=True)
                last = text
            time.sleep(0.5)
    finally:
        sync.stop()  # one last drain: what it left behind is the last line the user reads
        if sync.status().text(get_lang()) != last:
            print(sync.status().text(get_lang()), flush=True)
        leaving = leaving_text(path, sync.url, get_lang())
        if leaving:
            print(leaving, file=sys.stderr, flush=True)


def cmd_status(args) -> int:
    # deferred: psycopg, the club sync and the board (Starlette) load only for club commands
    import psycopg

    from ..club import schema
    from ..club.sync import ClubError, connect, denied
    from ..web.club import check_schema

    with connect(_url(args), get_lang()) as con:
        try:
            check_schema(
                con, get_lang()
            )  # brought up to date where the login may (the owner's); read-only otherwise
            tables = schema.status(con)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise ClubError(
                tr(
                    "this login may not read the club's tables ({why}); club status needs the "
                    "login of the club board (role pyramid_board) or the club's own"
                ).format(why=denied(exc, get_lang()))
            ) from None
    if args.json:
        print(json.dumps({"tables": tables}, ensure_ascii=False))
        return 0
    if not tables:
        print(tr("no table is registered on the club server"))
        return 0
    for t in tables:
        last = t["last_stroke"]
        if last is None:
            print(tr("{id}. {name}: no stroke yet").format(id=t["id"], name=t["name"]))
        else:
            print(
                tr("{id}. {name}: match {match}, stroke {seq} at {time}, lag {lag} s").format(
                    id=t["id"],
                    name=t["name"],
                    match=last["match"],
                    seq=last["seq"],
                    time=_local_time(last["time"]),
                    lag=_lag(t["lag_s"]),
                ),
                file=sys.stdout,
            )
        for c in t.get("conflicts", []):
            what = (
                tr("stroke {seq} of match {match}").format(seq=c["seq"], match=c["match"])
                if c["seq"] is not None
                else tr("match {match}").format(match=c["match"])
            )
            print(
                "   "
                + tr(
                    "conflict: {what} came from another store with this table's key, other than "
                    "the server's (both kept, since {time}); on that table: pyramid-referee club "
                    "resolve --keep-server or --new-table --name NAME"
                ).format(what=what, time=_local_time(c["received"]))
            )
    return 0


def _local_time(stamp: str) -> str:
    """A stroke's time (ISO, UTC, as the table stores it) as the manager reads a clock: ЧЧ:ММ:СС
    here, with the date when it is not today; a stamp not understood is shown as it is."""
    try:
        local = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone()
    except (ValueError, TypeError):
        return str(stamp)
    today = datetime.now().astimezone().date()
    return (
        local.strftime("%H:%M:%S")
        if local.date() == today
        else local.strftime("%d.%m.%Y %H:%M:%S")
    )


def _lag(seconds: float | None) -> str:
    """Tenths of a second, with the reader's decimal sign (Russian: «0,4»)."""
    if seconds is None:
        return "?"
    text = f"{max(seconds, 0.0):.1f}"
    return text.replace(".", ",") if get_lang() == "ru" else text
