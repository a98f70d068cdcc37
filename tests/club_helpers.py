"""What the club tests share: register a table on the throw-away server, read a table's strokes
from its store and from the server (by stable id), and wait for replication to catch up."""

from __future__ import annotations

import signal
import time

import psycopg

from pyramid_referee.club import schema
from pyramid_referee.club.sync import load_link, save_link
from pyramid_referee.match.store import Store


def register_table(url: str, db, name: str) -> int:
    """Register a table named ``name`` (the schema migrated first) and keep its key in ``db``."""
    with psycopg.connect(url, autocommit=True) as con:
        schema.migrate(con)
        table_id, key = schema.register(con, name)
        with Store(db) as store:  # named by what the server is, as club register names it
            save_link(store, url, table_id, name, key, con)
    return table_id


def register_unreachable(url: str, db, name: str) -> str:
    """Register a table (as :func:`register_table`), then link its store to an address of the
    same server where no server answers: that address (the club is away for it)."""
    register_table(url, db, name)
    gone = url.split("?")[0] + "?host=/nonexistent&user=postgres"
    with Store(db) as store:
        table_id, name, key = load_link(store, url)
        save_link(store, gone, table_id, name, key)
    return gone


def local_strokes(db) -> set[tuple]:
    """Every stroke of the table's store: (match, local id, seq, status)."""
    with Store(db, create=False) as store:
        return set(store.con.execute("SELECT match_id, id, seq, status FROM strokes"))


def server_strokes(url: str, table_id: int) -> list[tuple]:
    """Every stroke the server holds for that table, sorted (a list: a
    doubled stroke would show)."""
    with psycopg.connect(url, autocommit=True) as con:
        return sorted(
            con.execute(
                "SELECT match_id, local_id, seq, status FROM club_strokes WHERE table_id = %s",
                (table_id,),
            ).fetchall()
        )


def strike(session, n: int) -> None:
    """The n-th stroke of a test partia: the cue ball touches ball 1 + n % 15, nothing falls."""
    session.enter("-", f"биток {1 + n % 15}")


def wait_for(cond, timeout: float = 30.0) -> bool:
    """Poll ``cond`` until it holds or ``timeout`` seconds pass; its last value."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def login(url: str, role: str) -> str:
    """A new login holding ``role`` (pyramid_table, pyramid_board, or None: no role) on the
    server of ``url``, named afresh (logins are the whole cluster's, shared by every test):
    ``url`` under it."""
    import uuid

    name = "login_" + uuid.uuid4().hex[:10]
    with psycopg.connect(url, autocommit=True) as con:
        con.execute(f"CREATE ROLE {name} LOGIN" + (f" IN ROLE {role}" if role else ""))
    return url.replace("user=postgres", f"user={name}")


def as_at_a_terminal() -> None:
    """``preexec_fn`` for a program a test interrupts with SIGINT: Ctrl-C live in it, as at a
    terminal. A test run started in the background of a non-interactive shell inherits SIGINT
    ignored (POSIX), and so would the program, which then never sees the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
