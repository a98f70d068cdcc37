"""The table's background sync to the club server: local first, in order, idempotent.

The table's SQLite store stays its truth: a stroke is committed there and shown
before anything is sent. The store's ``actions`` log is the queue: for each match,
``club_sent`` keeps the id of the last action the server has stored. A drain reads,
in one SQLite read transaction, the match and every stroke the pending actions
touched (whatever their status now: active, undone, discarded), sends them in one
PostgreSQL transaction through ``club_put_match`` / ``club_put_stroke`` (upserts by
the stroke's stable id), and only then moves ``club_sent`` forward. A kill between
the two resends the batch, which the upserts store once. An outage leaves the
queue where it was; the worker retries every ``retry_s`` and drains when the
server is back. Nothing here runs on the table's own thread except ``notify``
and ``status``, which never touch the network.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, replace

from ..catalog import trl, trn
from ..i18n import UserError
from ..match.store import Store, StoreMissing
from .schema import CONFLICT_STATE

ENV_CLUB = "PYRAMID_REFEREE_CLUB"
CONNECT_TIMEOUT_S = 3
# A club Wi-Fi that drops without a word: TCP keepalives and a user timeout find the dead
# connection within seconds instead of minutes (libpq ignores them on a Unix socket).
_LINK = {
    "autocommit": True,
    "connect_timeout": CONNECT_TIMEOUT_S,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    "tcp_user_timeout": 10000,
}
COALESCE_S = (
    0.05  # the worker sends once the table has been quiet this long (a burst goes at once) ...
)
MAX_DEFER_S = 0.5  # ... or this long after the first stroke of a burst that does not pause
SEEN_EVERY_S = (
    10.0  # the club board hears from an idle table this often (schema v3's club_table_seen)
)


class ClubError(UserError):
    """The club server cannot be used as asked (not registered, bad URL)."""


class ClubConflict(ClubError):
    """The club server refused a batch: it holds that match or stroke of this table otherwise."""

    def __init__(self, match: int, seq: int | None) -> None:
        super().__init__(f"conflict: match {match}, stroke {seq}")
        self.match, self.seq = match, seq


def server_id(url: str, lang: str = "ru") -> str:
    """How the store names a club server: its host, port and database, not who logs in. The
    table is registered with the club's own login and then runs with a login that holds only
    ``pyramid_table``; both name the same server. libpq's defaults fill what the URL leaves out
    (``PGHOST``, ``PGPORT``, ``PGDATABASE``; the database is named as the user by default). An
    address not understood is refused in ``lang``."""
    import psycopg.conninfo  # deferred: the PostgreSQL driver loads only to reach the club

    try:
        parts = psycopg.conninfo.conninfo_to_dict(url)
    except (
        psycopg.ProgrammingError
    ):  # libpq's own words («missing "=" after …», a line break) help no one here
        raise ClubError(
            trl(
                lang,
                "the club server's address {url} is not understood; it reads "
                "postgresql://LOGIN@HOST:PORT/DATABASE, e.g. postgresql://stol1@192.0.2.10/pyramid",
            ).format(url=_without_password(url))
        ) from None
    return _identity(parts)


def _without_password(url: str) -> str:
    """An address as it may be shown: a password in it is replaced by ***."""
    text = " ".join(str(url).split())
    scheme, sep, rest = text.rpartition("://") if "://" in text else ("", "", text)
    where = rest.split("/", 1)[0].split("?", 1)[0]
    if "@" in where:
        user = where.rsplit("@", 1)[0]
        if ":" in user:
            rest = rest.replace(user + "@", user.split(":", 1)[0] + ":***@", 1)
    text = scheme + sep + rest

    return re.sub(
        r"(password=)[^&\s]*", r"\1***", text
    )  # a key=value address or a query may carry it too


def _identity(parts: dict) -> str:
    user = parts.get("user") or os.environ.get("PGUSER") or getpass.getuser()
    where = {
        "host": parts.get("host") or os.environ.get("PGHOST") or "",
        "hostaddr": parts.get("hostaddr") or os.environ.get("PGHOSTADDR") or "",
        "port": str(parts.get("port") or os.environ.get("PGPORT") or 5432),
        "dbname": parts.get("dbname") or os.environ.get("PGDATABASE") or user,
    }
    return " ".join(f"{k}={v}" for k, v in where.items() if v)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def reason(exc: BaseException, lang: str) -> str | None:
    """What a manager checks first when the club server cannot be reached, in ``lang``; None
    when the failure is none of the usual ones (the server's own words are then all there is)."""
    import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

    low = str(exc).lower()
    if "connection info string" in low or "connection option" in low or "invalid uri" in low:
        return trl(
            lang, "the address is not understood; it reads postgresql://LOGIN@HOST:PORT/DATABASE"
        )
    if (
        "password authentication failed" in low
        or "no password supplied" in low
        or ("role" in low and "does not exist" in low)
        or getattr(exc, "sqlstate", None) in ("28P01", "28000")
    ):
        return trl(
            lang,
            "the server did not accept this login or its password: check the login in the address "
            "and the password in the file ~/.pgpass",
        )
    if "database" in low and "does not exist" in low:
        return trl(
            lang,
            "the server has no such database: check the database's name at the end of the address",
        )
    if isinstance(exc, psycopg.OperationalError):
        return trl(
            lang,
            "the server does not answer: check the host and port in the address, that the server "
            "is running and that this computer is on the club's network",
        )
    return None


def refused(exc: BaseException) -> bool:
    """The server is there but will not take this login's strokes: a wrong password, a
    login without the role pyramid_table (the board's, say), a key not this table's.
    Waiting will not mend it."""
    import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

    low = str(exc).lower()
    return (
        isinstance(exc, psycopg.errors.InsufficientPrivilege)
        or getattr(exc, "sqlstate", None) in ("28P01", "28000")
        or "password authentication failed" in low
        or "no password supplied" in low
        or ("role" in low and "does not exist" in low)
    )


def unknown_key(exc: BaseException) -> bool:
    """The server refused the table's key (``club_check_key``), not its login."""
    return refused(exc) and "the key is not the key of table" in str(exc)


def _detail(exc: BaseException, lang: str) -> str | None:
    """What libpq said of a connection that failed, in the user's words (None: nothing
    known to add). libpq's own text is English, may hold a line break, and would sit
    inside a Russian line."""
    low = str(exc).lower()
    if "connection refused" in low:
        return trl(lang, "the computer answered, but no PostgreSQL listens on that port")
    if "timeout expired" in low or "timed out" in low:
        return trl(lang, "no answer within {s} s").format(s=CONNECT_TIMEOUT_S)
    if "could not translate host name" in low or "name or service not known" in low:
        return trl(lang, "no computer has that name")
    if "no route to host" in low or "network is unreachable" in low:
        return trl(lang, "that address cannot be reached from this computer's network")
    if "no such file or directory" in low and "socket" in low:
        return trl(lang, "no server on this computer at that socket")
    if 'missing "="' in low or "invalid uri" in low or "invalid connection option" in low:
        return trl(lang, "e.g. postgresql://stol1@192.0.2.10/pyramid")
    return None


def denied(exc: BaseException, lang: str = "ru") -> str:
    """A refused privilege in ``lang``, naming what was refused (PostgreSQL says it in
    English: «permission denied for table club_schema»); another error: its first line."""
    m = re.search(r"permission denied for (?:\w+ )?\"?([\w.]+)\"?", str(exc))
    if m:
        return trl(lang, "PostgreSQL refuses this login the right to {name}").format(
            name=m.group(1)
        )
    return _first_line(exc)


def explain(exc: BaseException, lang: str = "ru") -> str:
    """``reason`` and, in brackets, what exactly failed, in ``lang``; the server's own
    words only where no reason is known (they are then all there is), and only their first line."""
    why = reason(exc, lang)
    if why is None:
        return _first_line(exc)
    detail = _detail(exc, lang)
    return why if detail is None else f"{why} ({detail})"


def _try_connect(url: str, failed: list | None = None):
    """A connection to the club server, or None when it does not answer (or refuses this login);
    the failure is appended to ``failed`` when given."""
    import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

    try:
        return psycopg.connect(url, **_LINK)
    except psycopg.Error as exc:
        if failed is not None:
            failed.append(exc)
        return None


def connect(url: str, lang: str = "ru"):
    """A connection to the club server; one that fails is a ClubError in ``lang``."""
    import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

    try:
        return psycopg.connect(url, **_LINK)
    except psycopg.Error as exc:
        raise ClubError(
            trl(lang, "cannot reach the club server: {why}").format(why=explain(exc, lang))
        ) from None


# ---------------------------------------------------------------------- which server this is
# A store names a club server by what it is: ``pg:<system_identifier>/<database>`` (PostgreSQL's
# ``pg_control_system()``, executable by any login by default, with ``current_database()``), so
# «localhost» and «127.0.0.1», a login and another login, name one server. A table must also start
# while the server is away, so each address it has reached the server by is remembered
# (``club_alias``: address → server). Links saved by earlier versions under an address are taken
# over, with their sent marks, the first time the server answers at that address, or at another
# address when the link's key is valid there (a key is 24 random bytes: valid means this server).
_ALIAS_SQL = (
    "CREATE TABLE IF NOT EXISTS club_alias (address TEXT PRIMARY KEY, server TEXT NOT NULL)"
)
IDENTITY_PREFIX = "pg:"


@dataclass
class Link:
    server: str  # the store's name of the server (its identity, or an address for an older link)
    table_id: int
    name: str
    key: str


def identity(con) -> str | None:
    """What the club server is: its cluster's system identifier and the database; None where this
    login may not ask (an installation that revoked ``pg_control_system`` from PUBLIC)."""
    import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

    try:
        sysid, db = con.execute(
            "SELECT system_identifier::text, current_database() FROM pg_control_system()"
        ).fetchone()
    except psycopg.errors.InsufficientPrivilege:
        return None
    return f"{IDENTITY_PREFIX}{sysid}/{db}"


def _has_alias_table(con: sqlite3.Connection) -> bool:
    return (
        con.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'club_alias'"
        ).fetchone()
        is not None
    )


def _aliased(store: Store, address: str) -> str | None:
    if not _has_alias_table(store.con):
        return None
    r = store.con.execute("SELECT server FROM club_alias WHERE address = ?", (address,)).fetchone()
    return None if r is None else r[0]


def _set_alias(store: Store, address: str, server: str) -> None:
    if address == server:
        return
    with store._tx():
        store.con.execute(_ALIAS_SQL)
        store.con.execute(
            "INSERT INTO club_alias(address, server) VALUES (?, ?) ON CONFLICT(address)"
            " DO UPDATE SET server = excluded.server",
            (address, server),
        )


def known_addresses(store: Store) -> list[str]:
    """The addresses this store has reached a club server by, as
    СЕРВЕР:ПОРТ/БАЗА (for a message)."""
    out = [
        r[0]
        for r in store.con.execute("SELECT server FROM club_link")
        if not r[0].startswith(IDENTITY_PREFIX)
    ]
    if _has_alias_table(store.con):
        out += [r[0] for r in store.con.execute("SELECT address FROM club_alias ORDER BY address")]

    def shown(address: str) -> str:
        parts = dict(kv.split("=", 1) for kv in address.split(" ") if "=" in kv)
        host = parts.get("host") or parts.get("hostaddr") or "localhost"
        return f"{host}:{parts.get('port', '5432')}/{parts.get('dbname', '')}"

    return sorted({shown(a) for a in out})


def _link(store: Store, server: str) -> Link | None:
    r = store.con.execute(
        "SELECT table_id, name, key FROM club_link WHERE server = ?", (server,)
    ).fetchone()
    return None if r is None else Link(server, int(r[0]), r[1], r[2])


def _rename_server(store: Store, old: str, new: str) -> None:
    """A link and its sent marks move from the name ``old`` to ``new``: nothing is sent twice."""
    with store._tx():
        store.con.execute("DELETE FROM club_link WHERE server = ?", (new,))
        store.con.execute("UPDATE club_link SET server = ? WHERE server = ?", (new, old))
        store.con.execute(
            "INSERT INTO club_sent(server, match_id, action_id) SELECT ?, match_id, action_id"
            " FROM club_sent WHERE server = ? ON CONFLICT(server, match_id) DO UPDATE SET"
            " action_id = max(action_id, excluded.action_id)",
            (new, old),
        )
        store.con.execute("DELETE FROM club_sent WHERE server = ?", (old,))
        if _has_alias_table(store.con):
            store.con.execute("UPDATE club_alias SET server = ? WHERE server = ?", (new, old))


def link_check(con, table_id: int, key: str) -> str | None:
    """The server's word on a link: 'ok', 'removed' (no such table there), 'mismatch' (the table is
    there and the key is not its); None where it cannot say (an older schema, a login without
    the tables' role)."""
    import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

    try:
        return con.execute("SELECT club_link_check(%s, %s)", (table_id, key)).fetchone()[0]
    except (psycopg.errors.UndefinedFunction, psycopg.errors.InsufficientPrivilege):
        pass
    try:  # a server older than schema v4: its key check is in reading the table's strokes back
        con.execute("SELECT 1 FROM club_table_strokes(%s, %s) LIMIT 1", (table_id, key)).fetchall()
        return "ok"
    except psycopg.errors.InsufficientPrivilege as exc:
        return "mismatch" if "the key is not the key of table" in str(exc) else None
    except psycopg.errors.UndefinedFunction:
        return None


def find_link(store: Store, url: str, con=None) -> Link | None:
    """This table's link to the club server at ``url``. With a connection (``con``) the server is
    asked what it is; without one, the addresses it was reached by before decide."""
    address = server_id(url, store.lang)
    server = _aliased(store, address)
    found = None if server is None else _link(store, server)
    legacy = _link(store, address)
    if legacy is None and _adopt_older_name(store, address):
        legacy = _link(store, address)
    if con is None:
        return found or legacy
    ident = identity(con)
    if ident is None:  # cannot ask: the address names the server, as before
        return found or legacy
    if found is not None and found.server == ident:
        return found
    mine = _link(store, ident)
    if (
        mine is None and legacy is not None
    ):  # saved under this address: this server's, under its older name
        _rename_server(store, address, ident)
        mine = _link(store, ident)
    if (
        mine is None
    ):  # saved under another spelling of the address: this server's if its key is valid here
        for (old,) in store.con.execute("SELECT server FROM club_link").fetchall():
            if old.startswith(IDENTITY_PREFIX):
                continue
            cand = _link(store, old)
            if link_check(con, cand.table_id, cand.key) == "ok":
                _rename_server(store, old, ident)
                mine = _link(store, ident)
                break
    if mine is not None:
        _set_alias(store, address, ident)
    return mine


def save_link(store: Store, url: str, table_id: int, name: str, key: str, con=None) -> None:
    """Keep this table's id and key on that server (named by what it is when ``con`` can ask). A
    new registration (another id or key: the table registered afresh after it was removed there, or
    a copy registered as a table of its own) sends every match again: the server's rows of the old
    registration are not this one's."""
    address = server_id(url, store.lang)
    ident = identity(con) if con is not None else None
    server = ident or address
    with store._tx():
        old = store.con.execute(
            "SELECT table_id, key FROM club_link WHERE server = ?", (server,)
        ).fetchone()
        if old is not None and (int(old[0]), old[1]) != (table_id, key):
            store.con.execute("DELETE FROM club_sent WHERE server = ?", (server,))
        store.con.execute(
            "INSERT INTO club_link(server, table_id, name, key) VALUES (?,?,?,?)"
            " ON CONFLICT(server) DO UPDATE SET table_id = excluded.table_id,"
            " name = excluded.name, key = excluded.key",
            (server, table_id, name, key),
        )
        if (
            ident is not None and address != ident
        ):  # an older link under this address is this one now
            store.con.execute("DELETE FROM club_link WHERE server = ?", (address,))
            store.con.execute("DELETE FROM club_sent WHERE server = ?", (address,))
    _set_alias(store, address, server)


def load_link(store: Store, url: str, con=None) -> tuple[int, str, str] | None:
    """(table id, name, key) of this table on that server, or None."""
    link = find_link(store, url, con)
    return None if link is None else (link.table_id, link.name, link.key)


def _adopt_older_name(store: Store, sid: str) -> bool:
    """A link saved under the older name of a server (the whole URL but its password,
    login included) is renamed to ``sid`` with its sent marks, so nothing is sent twice;
    True if one was."""
    for (old,) in store.con.execute("SELECT server FROM club_link").fetchall():
        if old.startswith(IDENTITY_PREFIX):
            continue
        parts = dict(kv.split("=", 1) for kv in old.split(" ") if "=" in kv)
        if old == sid or _identity(parts) != sid:
            continue
        _rename_server(store, old, sid)
        return True
    return False


def take_server_version(store: Store, link: Link, con, match_id: int) -> int:
    """Resolve a conflict by the server's version: match ``match_id`` of this store becomes what
    the club server holds (its strokes under their stable ids), in one SQLite transaction, and
    the server's conflicts of that match are marked resolved. The store's own version of it
    stays on the server (``club_conflicts``). Refused (ClubError, nothing changed) where a
    stroke id the server holds is used here by another match: then the store is registered as a
    new table instead. The number of the match's strokes in play now."""
    # one row a stroke, each with the match's columns; a match without strokes is one row whose
    # stroke columns are NULL; no row at all where the server does not hold the match
    rows = con.execute(
        "SELECT * FROM club_table_match(%s, %s, %s)", (link.table_id, link.key, match_id)
    ).fetchall()
    strokes = [r for r in rows if r[0] is not None]
    with store._tx():
        if rows:
            _refuse_ids_used_elsewhere(store, match_id, [r[0] for r in strokes])
            _replace_match(store, match_id, rows[0], strokes)
        # what the store holds of this match is the server's: nothing of it waits to be sent
        store.con.execute(
            "INSERT INTO club_sent(server, match_id, action_id) SELECT ?, ?, coalesce(max(id), 0) "
            "FROM actions WHERE match_id = ? ON CONFLICT(server, match_id) DO UPDATE SET "
            "action_id = excluded.action_id",
            (link.server, match_id, match_id),
        )
    con.execute(
        "SELECT club_resolve_conflicts(%s, %s, %s, 'server')", (link.table_id, link.key, match_id)
    )
    return len([r for r in strokes if r[2] == "active"])


def _json_text(value) -> str | None:
    """A JSON value the server returns (jsonb) as the store keeps it: text; NULL stays NULL."""
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _refuse_ids_used_elsewhere(store: Store, match_id: int, ids: list[int]) -> None:
    """ClubError where one of the server's stroke ``ids`` for match ``match_id`` belongs here to
    another match: taking the server's version would overwrite that match's stroke."""
    if not ids:
        return
    marks = ",".join("?" * len(ids))
    clash = store.con.execute(
        f"SELECT id, match_id FROM strokes WHERE match_id != ? AND id IN ({marks})",
        (match_id, *ids),
    ).fetchone()
    if clash is not None:
        raise ClubError(
            trl(
                store.lang,
                "the server's version of match {match} cannot be taken: its stroke id "
                "{id} is used here by match {other}; register this store as a table of "
                "its own instead: pyramid-referee club resolve --new-table --name NAME",
            ).format(match=match_id, id=clash[0], other=clash[1])
        )


def _replace_match(store: Store, match_id: int, m, strokes: list) -> None:
    """Match ``match_id`` of the store (ClubError where it has none) takes the match columns of
    the server's row ``m`` and, in place of its own strokes, the server's ``strokes`` (rows of
    ``club_table_match``), all marked shown. Runs inside the caller's transaction."""
    if store.con.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
        raise ClubError(
            trl(store.lang, "match {match} is not in this store").format(match=match_id)
        )
    players, settings, to_wins, status, result, created, updated = m[13:20]
    store.con.execute("DELETE FROM strokes WHERE match_id = ?", (match_id,))
    store.con.execute(
        "UPDATE matches SET players = ?, settings = ?, to_wins = ?, status = ?, result = "
        "?, created = ?, updated = ? WHERE id = ?",
        (
            _json_text(players),
            _json_text(settings),
            to_wins,
            status,
            _json_text(result),
            created,
            updated,
            match_id,
        ),
    )
    for r in strokes:
        store.con.execute(
            "INSERT INTO strokes(id, match_id, seq, status, call_text, call, refusal, "
            "call_status, outcome_text, outcome, verdict, state, lang, time, shown) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,1)",
            (
                r[0],
                match_id,
                r[1],
                r[2],
                r[3],
                _json_text(r[4]),
                _json_text(r[5]),
                r[6],
                r[7],
                _json_text(r[8]),
                _json_text(r[9]),
                _json_text(r[10]),
                r[11],
                r[12],
            ),
        )


@dataclass(frozen=True)
class Counts:
    """What a store holds for the club, read in one statement (one snapshot): the strokes and
    the undos and redos not yet stored on the server, and how many of each the store holds in
    all (``made``: what a table's own notifications are counted against, see ``queued_now``)."""

    strokes: int
    changes: int
    strokes_made: int
    changes_made: int


def counts(con: sqlite3.Connection, server: str) -> Counts:
    rows = {
        kind: (int(n or 0), int(made))
        for kind, made, n in con.execute(
            "SELECT a.action = 'stroke', count(*), sum(a.id > coalesce(s.action_id, 0)) FROM "
            "actions a LEFT JOIN club_sent s ON s.server = ? AND s.match_id = a.match_id WHERE "
            "a.action IN ('stroke', 'undo', 'redo') GROUP BY 1",
            (server,),
        ).fetchall()
    }
    (strokes, strokes_made), (changes, changes_made) = rows.get(1, (0, 0)), rows.get(0, (0, 0))
    return Counts(strokes, changes, strokes_made, changes_made)


def unsent(con: sqlite3.Connection, server: str) -> tuple[int, int]:
    """(strokes, undos and redos) not yet stored on the server: what a table leaves behind."""
    c = counts(con, server)
    return c.strokes, c.changes


def queued_now(queued: int, made: int, base: int, notified: int) -> int:
    """What waits now: ``queued`` as a drain counted it when the store held ``made`` of its kind,
    plus what this table committed since. The table held ``base`` when its sync began and has
    notified ``notified`` since, each after its commit; so those committed after the count are
    ``base + notified - made``. A commit counted by the drain but not yet notified makes that
    negative for a moment (it is in ``queued`` already): never counted twice."""
    return queued + max(0, base + notified - made)


def leaving_text(db_path, url: str, lang: str = "ru") -> str | None:
    """What a table says (in ``lang``) as it stops with strokes the club server has not stored
    (None: nothing waits): how many strokes (an undo is not a stroke: it is counted apart) and
    what sends them."""
    try:
        with Store(db_path, create=False, lang=lang) as store:
            link = find_link(store, url)
            if link is None:
                return None
            strokes, changes = unsent(store.con, link.server)
    except (StoreMissing, UserError):
        return None
    if not strokes and not changes:
        return None
    parts = []
    if strokes:
        parts.append(trn("{n} stroke", "{n} strokes", strokes, lang).format(n=strokes))
    if changes:
        parts.append(
            trn("{n} change (undo or redo)", "{n} changes (undos or redos)", changes, lang).format(
                n=changes
            )
        )
    what = (
        trl(lang, "{first} and {second}").format(first=parts[0], second=parts[1])
        if len(parts) == 2
        else parts[0]
    )
    agree = (
        2 if len(parts) == 2 else strokes or changes
    )  # «1 удар и 1 изменение» are «не отправлены»
    return trn(
        "club: {what} not sent to the club server; it is kept in this table's store and the next "
        "run with --club or pyramid-referee club sync sends it",
        "club: {what} not sent to the club server; they are kept in this table's store and the "
        "next run with --club or pyramid-referee club sync sends them",
        agree,
        lang,
    ).format(what=what)


def pending(con: sqlite3.Connection, server: str) -> int:
    """Strokes, undos and redos not yet stored on the server: everything that waits."""
    return sum(unsent(con, server))


@dataclass
class SyncStatus:
    online: bool | None  # None: not tried yet
    queued: int  # strokes not yet stored on the server
    error: str | None = None
    refused: bool = (
        False  # the server answered but will not take this table's strokes (login, role, key)
    )
    unknown_key: bool = (
        False  # refused for the key: the table was removed or registered again on the server
    )
    conflict: tuple | None = (
        None  # (match, seq or None): the server holds that stroke (match) otherwise
    )
    changes: int = 0  # undos and redos not yet stored on the server: not strokes

    @property
    def waiting(self) -> int:
        """Everything not yet stored on the server: strokes, undos and redos."""
        return self.queued + self.changes

    def _queue(self, lang: str) -> str:
        """What waits, strokes apart from undos and redos: «2 удара и 1 изменение (…)»."""
        parts = []
        if self.queued:
            parts.append(trn("{n} stroke", "{n} strokes", self.queued, lang).format(n=self.queued))
        if self.changes:
            parts.append(
                trn(
                    "{n} change (undo or redo)", "{n} changes (undos or redos)", self.changes, lang
                ).format(n=self.changes)
            )
        if len(parts) == 2:
            return trl(lang, "{first} and {second}").format(first=parts[0], second=parts[1])
        return parts[0]

    def text(self, lang: str = "ru") -> str:
        """The live line under each verdict, in ``lang``."""
        if (
            self.conflict is not None
        ):  # not an outage: another store with this table's key wrote there first
            match, seq = self.conflict
            where = (
                trl(lang, "stroke {seq} of match {match}").format(seq=seq, match=match)
                if seq is not None
                else trl(lang, "match {match}").format(match=match)
            )
            return trl(
                lang,
                "club: conflict with the club server: {what} is held there with other content "
                "(another store with this table's key?); nothing was overwritten and sending has "
                "stopped; resolve it with pyramid-referee club resolve --keep-server "
                "(take the server's version) or --new-table --name NAME "
                "(register this store as a table of its own)",
            ).format(what=where)
        if self.changes:  # undos or redos wait too: not counted as strokes
            return self._text_with_changes(lang)
        if self.unknown_key:  # not an outage either: the server no longer knows this table
            return trn(
                "club: the server does not know this table's key (was it removed there?): "
                "register it again, {n} stroke in the queue",
                "club: the server does not know this table's key (was it removed there?): "
                "register it again, {n} strokes in the queue",
                self.queued,
                lang,
            ).format(n=self.queued)
        if self.refused:  # not an outage: waiting will not help, the login in --club must change
            return trn(
                "club: the server refuses this table's login (it needs its password and the role "
                "pyramid_table), {n} stroke in the queue",
                "club: the server refuses this table's login (it needs its password and the role "
                "pyramid_table), {n} strokes in the queue",
                self.queued,
                lang,
            ).format(n=self.queued)
        if self.online is None:
            return trn(
                "club: connecting, {n} stroke in the queue",
                "club: connecting, {n} strokes in the queue",
                self.queued,
                lang,
            ).format(n=self.queued)
        if self.online and not self.queued:
            return trl(lang, "club: connected")
        if self.online:
            return trn(
                "club: connected, {n} stroke in the queue",
                "club: connected, {n} strokes in the queue",
                self.queued,
                lang,
            ).format(n=self.queued)
        if not self.queued:  # «в очереди 0 ударов» reads as a fault: nothing is waiting
            return trl(lang, "club: not connected, nothing waits to be sent")
        return trn(
            "club: not connected, {n} stroke in the queue",
            "club: not connected, {n} strokes in the queue",
            self.queued,
            lang,
        ).format(n=self.queued)

    def _text_with_changes(self, lang: str) -> str:
        """``text`` when undos or redos wait: the strokes and the changes each by their name."""
        what = self._queue(lang)
        if self.unknown_key:
            line = trl(
                lang,
                "club: the server does not know this table's key (was it removed there?): "
                "register it again, {what} in the queue",
            )
        elif self.refused:
            line = trl(
                lang,
                "club: the server refuses this table's login (it needs its password and the role "
                "pyramid_table), {what} in the queue",
            )
        elif self.online is None:
            line = trl(lang, "club: connecting, {what} in the queue")
        elif self.online:
            line = trl(lang, "club: connected, {what} in the queue")
        else:
            line = trl(lang, "club: not connected, {what} in the queue")
        return line.format(what=what)


class ClubSync:
    """Replicates one table's store to one club server, in a background thread."""

    def __init__(
        self, db_path, url: str, *, retry_s: float = 1.0, check: bool = True, lang: str = "ru"
    ) -> None:
        """``lang``: what its refusals and its status line are said in (its owner's language).
        ``check``: ask the server now (one connection, ``CONNECT_TIMEOUT_S`` at most) what it
        is and whether this store's table number and key agree there; a store whose number and
        key disagree is refused here, before any stroke. The server away, the addresses it was
        reached by decide."""
        self.db_path = db_path
        self.url = url
        self.retry_s = retry_s
        self.lang = lang
        server_id(
            url, lang
        )  # an address not understood: said first, in one line, before any store is looked at
        failed: list = []
        con = _try_connect(url, failed) if check else None
        try:
            try:
                with Store(db_path, create=False, lang=lang) as store:
                    self.db_path = store.path  # None: the default store, resolved once here
                    link = find_link(store, url, con)
                    if (
                        link is None
                        and con is None
                        and store.con.execute("SELECT 1 FROM club_link").fetchone() is not None
                    ):
                        raise ClubError(
                            trl(
                                lang,
                                "the club server at {url} cannot be asked which server it is "
                                "({why}), and this table has not reached it by this address "
                                "before ({known}): start with the address it was registered with, "
                                "or when the server is back",
                            ).format(
                                url=_without_password(url),
                                why=explain(failed[0], lang) if failed else "—",
                                known=", ".join(known_addresses(store)) or "—",
                            )
                        )
                    first = counts(store.con, link.server) if link is not None else None
            except StoreMissing:  # no match database yet: no key either (it is kept there)
                link = None
            if link is None:
                raise ClubError(
                    trl(
                        lang,
                        "this table is not registered on the club server; register it once: "
                        "pyramid-referee club register --club URL --name NAME",
                    ).format()
                )
            if con is not None and link_check(con, link.table_id, link.key) == "mismatch":
                raise ClubError(
                    trl(
                        lang,
                        "this store's table number {id} ({name}) and its key do not agree on the "
                        "club server: the key is not that table's (a store copied from another "
                        "table, or a link edited by hand); nothing is sent from it. Register this "
                        "store as a table of its own: pyramid-referee club resolve --new-table "
                        "--name NAME",
                    ).format(id=link.table_id, name=link.name)
                )
        finally:
            if con is not None:
                con.close()
        self.server = link.server
        self.table_id, self.name, self._key = link.table_id, link.name, link.key
        assert first is not None  # (a store with a link was read: no link is refused above)
        self._status = SyncStatus(None, first.strokes, changes=first.changes)
        # what the store held when this sync began, and at the last drain's count; the strokes
        # and the undos and redos notified since this sync began (see queued_now)
        self.base = (first.strokes_made, first.changes_made)
        self._made = self.base
        self._notified = [0, 0]
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pg = None
        self._store: Store | None = None

    # ---------------------------------------------------------------- hooks around drain
    # A sync run in a child process (club.process) overrides these two to tell the table.
    def _status_changed(self, st: SyncStatus, made: tuple[int, int]) -> None:
        """Called with each new status a drain leaves behind, and what the store held then."""

    def _strokes_queued(self) -> int:
        """Strokes (not undos or redos) not yet on the server, now."""
        return self.status().queued

    def _set_status(self, st: SyncStatus, c: Counts | None = None) -> None:
        """A drain's status; ``c``: the store's counts it was read with (the queue is theirs)."""
        if c is not None:
            st = replace(st, queued=c.strokes, changes=c.changes)
            self._made = (c.strokes_made, c.changes_made)
        self._status = st
        self._status_changed(st, self._made)

    # --------------------------------------------------------------- the table's side (no network)
    def start(self) -> ClubSync:
        self._thread = threading.Thread(target=self._run, name="club-sync", daemon=True)
        self._thread.start()
        return self

    def notify(self, change: bool = False) -> None:
        """A stroke (``change``: an undo or a redo) was committed: drain soon."""
        self._notified[1 if change else 0] += 1
        self._wake.set()

    def status(self) -> SyncStatus:
        """As of the last drain, plus what was committed since (counted here, no query)."""
        st, made, notified = self._status, self._made, self._notified
        return replace(
            st,
            queued=queued_now(st.queued, made[0], self.base[0], notified[0]),
            changes=queued_now(st.changes, made[1], self.base[1], notified[1]),
        )

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the worker, after one last drain attempt within ``timeout``."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    # ---------------------------------------------------------------- the worker
    def _run(self) -> None:
        try:
            while True:
                ok = self.drain()
                if self._stop.is_set():
                    break
                if ok:
                    if self._wake.wait(self.retry_s):
                        self._between_strokes()
                else:
                    # the server is away: strokes do not each cause a new attempt,
                    # one every retry_s
                    self._stop.wait(self.retry_s)
                self._wake.clear()
        finally:
            self._close()

    def _between_strokes(self) -> None:
        """Yield to the table: wait until no stroke has come for ``COALESCE_S`` (a table is
        quiet for seconds between strokes), at most ``MAX_DEFER_S``, so the sync's reading,
        sending and marking do not run while the table commits its next stroke."""
        end = time.monotonic() + MAX_DEFER_S
        while not self._stop.is_set():
            self._wake.clear()
            left = end - time.monotonic()
            if left <= 0 or not self._wake.wait(min(COALESCE_S, left)):
                return

    def close(self) -> None:
        """Close the connections of a sync that was drained by
        hand (``drain`` without ``start``)."""
        self._close()

    def _close(self) -> None:
        for res in (self._pg, self._store):
            try:
                if res is not None:
                    res.close()
            except Exception:  # noqa: BLE001 -- closing after a failure: nothing more to do
                pass
        self._pg = self._store = None

    def drain(self) -> bool:
        """Send everything pending; True when the queue is empty. Never raises on an outage."""
        import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

        try:
            if self._store is None:
                self._store = Store(self.db_path, create=False, lang=self.lang)
                # Only club_sent is written here: a power cut may lose the last marks, and the
                # batch is then sent again and stored once; no fsync competes with the table's.
                self._store.con.execute("PRAGMA synchronous=NORMAL")
            while True:
                batch = self._next_batch()
                if batch is None:
                    break
                if self._pg is None or self._pg.closed:
                    self._pg = psycopg.connect(self.url, **_LINK)
                self._send(*batch)
                self._mark_sent(batch[0], batch[1])
            self._set_status(SyncStatus(True, 0), counts(self._store.con, self.server))
            if (
                self._pg is None or self._pg.closed
            ):  # nothing to send: still say whether the server is there
                self._pg = psycopg.connect(self.url, **_LINK)
            else:
                self._pg.execute("SELECT 1")
            self._report_seen()
            return True
        except (
            ClubConflict
        ) as exc:  # the server answered and refused: not an outage, and retrying will not mend it
            self._set_status(
                SyncStatus(True, 0, str(exc), conflict=(exc.match, exc.seq)),
                counts(self._store.con, self.server),
            )
            return False
        except (psycopg.Error, OSError, UserError) as exc:
            if self._pg is not None:
                try:
                    self._pg.close()
                except Exception:  # noqa: BLE001
                    pass
                self._pg = None
            # counted afresh from the store (no store yet: the queue as it was)
            st = self._status
            self._set_status(
                SyncStatus(
                    False,
                    st.queued,
                    explain(exc, self.lang),
                    refused(exc),
                    unknown_key(exc),
                    changes=st.changes,
                ),
                counts(self._store.con, self.server) if self._store is not None else None,
            )
            return False

    _seen_at = float(
        "-inf"
    )  # when this sync last reported in (monotonic), on which connection, what queue
    _seen_link = None
    _seen_queued = None

    def _report_seen(self) -> None:
        """Tell the club board this table is here (``club_table_seen``): at once on a new
        connection or when the queue changed, else every ``SEEN_EVERY_S`` (not each drain: 100
        tables share the server). The queue it reports is of strokes: the board says «в очереди
        N ударов», and an undo is not one. A server older than schema v3 has no board to tell."""
        import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

        queued, now = self._strokes_queued(), time.monotonic()
        if (
            self._pg is self._seen_link
            and queued == self._seen_queued
            and now - self._seen_at < SEEN_EVERY_S
        ):
            return
        try:
            self._pg.execute(
                "SELECT club_table_seen(%s, %s, %s)", (self.table_id, self._key, queued)
            )
        except psycopg.errors.UndefinedFunction:
            pass
        self._seen_at, self._seen_link, self._seen_queued = now, self._pg, queued

    def _next_batch(self):
        """(match_id, last action id, match row, stroke rows) of the first
        match with pending actions."""
        con = self._store.con
        con.execute("BEGIN")
        try:
            r = con.execute(
                "SELECT a.match_id, max(a.id), coalesce(s.action_id, 0) FROM actions a LEFT JOIN "
                "club_sent s ON s.server = ? AND s.match_id = a.match_id WHERE a.id > "
                "coalesce(s.action_id, 0) GROUP BY a.match_id ORDER BY min(a.id) LIMIT 1",
                (self.server,),
            ).fetchone()
            if r is None:
                return None
            match_id, upto, sent = r
            m = con.execute(
                "SELECT id, players, settings, to_wins, status, result, created, updated"
                " FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
            strokes = con.execute(
                "SELECT id, seq, status, call_text, call, refusal, call_status, outcome_text, "
                "outcome, verdict, state, lang, time FROM strokes WHERE match_id = ? AND seq IN "
                "(SELECT seq FROM actions WHERE match_id = ? AND id > ? AND id <= ? AND seq IS "
                "NOT NULL) ORDER BY seq, id",
                (match_id, match_id, sent, upto),
            ).fetchall()
        finally:
            con.execute("COMMIT")
        return match_id, upto, m, strokes

    def _send(self, match_id: int, upto: int, m, strokes) -> None:
        import psycopg  # deferred: the PostgreSQL driver loads only to reach the club

        if m is None:  # the match was deleted on the table: nothing to send, move on
            return
        try:
            self._put(match_id, upto, m, strokes)
        except psycopg.Error as exc:
            if getattr(exc, "sqlstate", None) != CONFLICT_STATE:
                raise
            raise self._conflict(match_id, m, strokes) from None

    def _conflict(self, match_id: int, m, strokes) -> ClubConflict:
        """The server refused the batch (schema v4): it holds one of its rows with other
        content. Each row is offered to ``club_put_conflict``, which keeps the ones it holds
        otherwise beside its own."""
        t, k = self.table_id, self._key
        cols = (
            "local_id",
            "seq",
            "status",
            "call_text",
            "call",
            "refusal",
            "call_status",
            "outcome_text",
            "outcome",
            "verdict",
            "state",
            "lang",
            "time",
        )
        first = None
        if self._pg.execute(
            "SELECT club_put_conflict(%s, %s, %s, 'match', %s::jsonb)",
            (
                t,
                k,
                match_id,
                json.dumps(
                    {
                        "players": json.loads(m[1]),
                        "settings": json.loads(m[2]),
                        "to_wins": m[3],
                        "status": m[4],
                        "result": None if m[5] is None else json.loads(m[5]),
                        "created": m[6],
                        "updated": m[7],
                    },
                    ensure_ascii=False,
                ),
            ),
        ).fetchone()[0]:
            first = (match_id, None)
        for s in strokes:
            row = dict(zip(cols, s))
            for c in ("call", "refusal", "outcome", "verdict", "state"):
                row[c] = None if row[c] is None else json.loads(row[c])
            if self._pg.execute(
                "SELECT club_put_conflict(%s, %s, %s, 'stroke', %s::jsonb)",
                (t, k, match_id, json.dumps(row, ensure_ascii=False)),
            ).fetchone()[0] and (first is None or first[1] is None):
                first = (match_id, row["seq"])
        match, seq = first or (match_id, None)
        return ClubConflict(match, seq)

    def _put(self, match_id: int, upto: int, m, strokes) -> None:
        t, k = self.table_id, self._key
        with self._pg.transaction():
            self._pg.execute(
                "SELECT club_put_match(%s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, %s::jsonb, %s, "
                "%s, %s)",
                (t, k, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], upto),
            )
            # one pipelined round trip for the batch, not one per stroke (fewer wake-ups
            # on both sides)
            if strokes:
                self._pg.cursor().executemany(
                    "SELECT club_put_stroke(%s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, "
                    "%s, %s::jsonb, %s::jsonb, %s::jsonb, %s, %s, %s)",
                    [
                        (
                            t,
                            k,
                            match_id,
                            s[0],
                            s[1],
                            s[2],
                            s[3],
                            s[4],
                            s[5],
                            s[6],
                            s[7],
                            s[8],
                            s[9],
                            s[10],
                            s[11],
                            s[12],
                            upto,
                        )
                        for s in strokes
                    ],
                )

    def _mark_sent(self, match_id: int, upto: int) -> None:
        with self._store._tx():
            self._store.con.execute(
                "INSERT INTO club_sent(server, match_id, action_id) VALUES (?, ?, ?) ON "
                "CONFLICT(server, match_id) DO UPDATE SET action_id = "
                "max(action_id, excluded.action_id)",
                (self.server, match_id, upto),
            )


def from_args(args) -> str | None:
    """The club server's URL: --club, else $PYRAMID_REFEREE_CLUB, else None."""
    return getattr(args, "club", None) or os.environ.get(ENV_CLUB) or None
