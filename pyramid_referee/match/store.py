"""The match store: every match and every stroke in one SQLite file (stdlib ``sqlite3``).

Where: ``--db PATH``, else ``$PYRAMID_REFEREE_DB``, else
``platformdirs.user_data_dir("pyramid-referee")/matches.sqlite``.

Durability. The journal is WAL with ``synchronous=FULL``: a commit returns only
after the WAL is fsynced, so a stroke whose verdict was shown survives a process
kill *and* a power cut. (``NORMAL`` with WAL survives a kill but may lose the last
commits on a power cut; a scorer types a stroke every few seconds, so the fsync
costs nothing that matters: ``bench/bench_store.py`` prints the rate.) Each
operation is one ``BEGIN IMMEDIATE`` … ``COMMIT`` transaction: it happens whole or
not at all.

Schema (``PRAGMA user_version`` = ``SCHEMA_VERSION``):

- ``matches``: id, created, players (JSON list), settings (JSON: the rules'
  settings), start (JSON or NULL: the first game picked up from a score sheet),
  status ``open`` | ``finished`` (the match decided), result (JSON or NULL),
  updated, ``to_wins`` (a match is won with that many games, партии; 1: one game).
  The games are not stored apart: they follow from the strokes (a game ends on the
  stroke whose verdict has a result; the next stroke opens the next game).
- ``strokes``: one row a stroke entered: match_id, seq (1, 2, … its place in the
  line of play), the call as typed (``call_text``), the parsed call (JSON) or the
  refusal (JSON), ``call_status`` (accepted | refused | none), the outcome as typed
  and as JSON, the verdict (JSON, as shown) and the state after it (JSON, as shown),
  the language the verdict was shown in, the time, and ``status``:
  ``active`` (in the line of play), ``undone`` (taken back; the redo stack, lowest
  seq first) or ``discarded`` (undone, then a new stroke was entered in its place:
  kept for audit, never replayed). A partial unique index keeps one live stroke a
  (match, seq).
  ``shown`` is 0 from the commit until the scorer's screen has shown the verdict
  (``mark_shown``); an active stroke left at 0 after a kill is named on resume, so
  the marker does not enter it twice.
- ``actions``: the log of what the scorer did (stroke, undo, redo, discard), in
  order, so the match's history of changes can be audited.
- ``standing`` (v3): the call standing for the next stroke, one row a match:
  ``present`` (0 once a stroke took it or it was withdrawn), the call's text, its
  ``status`` (accepted | refused | none: «без заказа» heard as such), the parsed
  call or the refusal (JSON), its canonical phrasing, its ``source`` (``pad``:
  typed on the marker's pad; ``listen``: heard by the voice referee), the strike's
  time on the audio clock (when heard), and ``version``, raised on every change so
  another program (``serve``'s watch) notices it. ``add_stroke`` clears it in the
  stroke's own transaction: ``listen --pad`` and the pad drive one session.
- ``strokes.strike`` and ``standing.taken_back`` (v5): what the voice referee heard of the
  stroke's strike (JSON, NULL when no voice referee took part): ``{"heard": true, "t": SECONDS}``
  or, when the outcome was entered with no strike heard and the standing call was taken,
  ``{"heard": false, "outcome": SECONDS|null, "note": «удар не услышан — заказ взят по вводу
  исхода»}``; with ``"taken_back": [SECONDS, …]``, the strikes the marker took back before it
  (each one void, «снят маркёром»). ``standing.taken_back`` holds those until a stroke takes
  the standing call (``take_back_strike`` adds one; ``add_stroke`` clears them).
- ``club_link`` (v4): the club servers this table is registered on (``server``: the
  URL without its password; the server's table id, its name and the table's key).
- ``club_sent`` (v4): per server and match, the id of the last ``actions`` row the
  club server has stored: the background sync (``pyramid_referee.club.sync``)
  resumes after it. The actions log is the replication queue.

Opening never turns a file into a match database except a path where no file is:
the new database is built beside it under a temporary name and linked into place
whole, so a kill leaves either no file or a complete empty database. An existing
file must already be a match database (an empty file, a text file, another
program's SQLite database are refused, untouched). ``create=False`` (listing,
showing, undoing …) never creates one: a missing database is ``StoreMissing``.
An older schema is migrated in one transaction (``_MIGRATIONS``).

The current position of a match is therefore the ``active`` strokes in seq
order, and it is exactly what the last committed transaction left: undo and redo
survive a crash like strokes do.

The store keeps records; it does not judge. ``match.session`` restores a match by
replaying the active strokes through the rules engine and checks the replay
agrees with what was stored (and shown).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote

import platformdirs

from ..catalog import N_, trl
from ..i18n import UserError

SCHEMA_VERSION = 5
APP_NAME = "pyramid-referee"
ENV_DB = "PYRAMID_REFEREE_DB"
BUSY_TIMEOUT_S = 2.0

_SCHEMA = """
CREATE TABLE matches (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    created  TEXT NOT NULL,
    players  TEXT NOT NULL,
    settings TEXT NOT NULL,
    start    TEXT,
    status   TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished')),
    result   TEXT,
    updated  TEXT NOT NULL,
    to_wins  INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE strokes (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    seq          INTEGER NOT NULL CHECK (seq >= 1),
    call_text    TEXT,
    call         TEXT,
    refusal      TEXT,
    call_status  TEXT NOT NULL CHECK (call_status IN ('accepted', 'refused', 'none')),
    outcome_text TEXT,
    outcome      TEXT NOT NULL,
    verdict      TEXT NOT NULL,
    state        TEXT NOT NULL,
    lang         TEXT NOT NULL,
    time         TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'undone', 'discarded')),
    shown        INTEGER NOT NULL DEFAULT 1,
    strike       TEXT
);
CREATE UNIQUE INDEX strokes_live ON strokes(match_id, seq) WHERE status != 'discarded';
CREATE INDEX strokes_position ON strokes(match_id, status, seq);
CREATE TABLE actions (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id  INTEGER NOT NULL REFERENCES matches(id),
    action    TEXT NOT NULL CHECK (action IN ('new', 'stroke', 'undo', 'redo', 'discard')),
    seq       INTEGER,
    time      TEXT NOT NULL
);
CREATE INDEX actions_match ON actions(match_id, id);
CREATE TABLE standing (
    match_id  INTEGER PRIMARY KEY REFERENCES matches(id),
    present   INTEGER NOT NULL DEFAULT 0,
    text      TEXT,
    status    TEXT NOT NULL DEFAULT 'none' CHECK (status IN ('accepted', 'refused', 'none')),
    call      TEXT,
    refusal   TEXT,
    canonical TEXT,
    source    TEXT NOT NULL DEFAULT 'pad' CHECK (source IN ('pad', 'listen')),
    strike    REAL,
    time      TEXT NOT NULL,
    version   INTEGER NOT NULL DEFAULT 0,
    taken_back TEXT
);
CREATE TABLE club_link (
    server   TEXT PRIMARY KEY,
    table_id INTEGER NOT NULL,
    name     TEXT NOT NULL,
    key      TEXT NOT NULL
);
CREATE TABLE club_sent (
    server    TEXT NOT NULL,
    match_id  INTEGER NOT NULL,
    action_id INTEGER NOT NULL,
    PRIMARY KEY (server, match_id)
);
"""

# version → the statements that bring a database of that version to the next one.
_MIGRATIONS: dict[int, str] = {
    # strokes before v2 were shown
    1: "ALTER TABLE strokes ADD COLUMN shown INTEGER NOT NULL DEFAULT 1;"
    "ALTER TABLE matches ADD COLUMN to_wins INTEGER NOT NULL DEFAULT 1",  # a match was one game
    # no call stood in the store
    2: "CREATE TABLE standing (match_id INTEGER PRIMARY KEY REFERENCES matches(id),"
    " present INTEGER NOT NULL DEFAULT 0, text TEXT,"
    " status TEXT NOT NULL DEFAULT 'none' CHECK (status IN ('accepted', 'refused', 'none')),"
    " call TEXT, refusal TEXT, canonical TEXT,"
    " source TEXT NOT NULL DEFAULT 'pad' CHECK (source IN ('pad', 'listen')),"
    " strike REAL, time TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0)",
    # no club server known
    3: "CREATE TABLE club_link (server TEXT PRIMARY KEY, table_id INTEGER NOT NULL,"
    " name TEXT NOT NULL, key TEXT NOT NULL);"
    "CREATE TABLE club_sent (server TEXT NOT NULL, match_id INTEGER NOT NULL,"
    " action_id INTEGER NOT NULL, PRIMARY KEY (server, match_id))",
    4: "ALTER TABLE strokes ADD COLUMN strike TEXT;"  # strokes before v5: no voice referee's note
    "ALTER TABLE standing ADD COLUMN taken_back TEXT",  # no strike was ever taken back
}


class StoreError(UserError):
    """The database cannot be used (locked, corrupt, wrong path) or a match is missing."""


class StoreMissing(StoreError):
    """There is no match database at the path (and it was not to be created)."""


class StoreConflict(StoreError):
    """Another process changed the match since this one read it; nothing was written."""


def _conflict(match_id: int, path: Path, lang: str) -> StoreConflict:
    return StoreConflict(
        trl(
            lang,
            "match {match_id} was changed by another process; nothing was written: restart with "
            "pyramid-referee match resume {match_id}{db}",
        ).format(match_id=match_id, db=db_option(path))
    )


def db_option(path: str | os.PathLike | None) -> str:
    """The `` --db PATH`` a hint must name so that the command it suggests opens this very store
    (shell-quoted), or "" for the store a command opens without it (the user data directory's, when
    $PYRAMID_REFEREE_DB is not set)."""
    if path is None:
        return ""

    own = Path(platformdirs.user_data_dir(APP_NAME)) / "matches.sqlite"
    given = Path(path).expanduser()
    try:
        if given.resolve() == own.resolve() and not os.environ.get(ENV_DB):
            return ""
    except OSError:
        pass
    text = str(path)
    if re.fullmatch(r"[\w@%+=:,./-]+", text):  # letters of any alphabet need no quotes
        return " --db " + text
    return " --db " + shlex.quote(text)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _dump(obj: Any) -> str | None:
    return None if obj is None else json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def default_db_path() -> Path:
    """``$PYRAMID_REFEREE_DB`` or the user data directory's ``matches.sqlite``."""
    env = os.environ.get(ENV_DB)
    if env:
        return Path(env).expanduser()

    return Path(platformdirs.user_data_dir(APP_NAME)) / "matches.sqlite"


@dataclass(frozen=True)
class MatchRow:
    id: int
    created: str
    players: list
    settings: dict
    start: dict | None
    status: str
    result: Any
    updated: str
    strokes: int  # active strokes (the current position)
    undone: int  # strokes on the redo stack
    to_wins: int = 1  # games (партии) to win the match

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "created": self.created,
            "players": self.players,
            "settings": self.settings,
            "start": self.start,
            "status": self.status,
            "result": self.result,
            "updated": self.updated,
            "strokes": self.strokes,
            "undone": self.undone,
            "to_wins": self.to_wins,
        }


@dataclass(frozen=True)
class StoredStroke:
    """A stroke as the store keeps it (JSON parts already in their JSON form)."""

    call_text: str | None
    call: dict | None
    refusal: dict | None
    call_status: str
    outcome_text: str | None
    outcome: dict
    verdict: dict
    state: dict
    lang: str = "ru"
    strike: dict | None = (
        None  # the voice referee's note of the strike (v5; see the module's text)
    )


@dataclass(frozen=True)
class StandingRecord:
    """The call standing for the next stroke, as stored (JSON parts in their JSON form)."""

    text: str | None
    status: str  # accepted | refused | none (no call, said so)
    call: dict | None = None
    refusal: dict | None = None
    canonical: str | None = None
    source: str = "pad"  # pad (typed) | listen (heard)
    strike: float | None = None  # the strike's time on the audio clock, when heard
    time: str = ""  # when it was written
    taken_back: tuple[float, ...] = ()  # strikes the marker took back since the last stroke (Q14)


@dataclass(frozen=True)
class StrokeRow:
    """A row of the strokes table: the stored stroke with its place and status."""

    id: int
    match_id: int
    seq: int
    record: StoredStroke
    time: str
    status: str

    def to_json(self) -> dict:
        r = self.record
        return {
            "seq": self.seq,
            "time": self.time,
            "status": self.status,
            "call_text": r.call_text,
            "call": r.call,
            "refusal": r.refusal,
            "call_status": r.call_status,
            "outcome_text": r.outcome_text,
            "outcome": r.outcome,
            "verdict": r.verdict,
            "state": r.state,
            "lang": r.lang,
            "strike": r.strike,
        }


def _not_writable(path: Path, lang: str) -> str | None:
    """Why the database file or its directory cannot be written (in the
    user's language), or None."""
    for target, what in (
        (path.parent, N_("the directory {target} is not writable")),
        (path, N_("the file {target} is not writable")),
    ):
        if not target.exists() or os.access(target, os.W_OK):
            continue
        try:
            read_only_fs = bool(os.statvfs(target).f_flag & os.ST_RDONLY)
        except (OSError, AttributeError):
            read_only_fs = False
        if read_only_fs:
            return trl(lang, "the file system is read-only")
        return trl(lang, what).format(target=target)
    return None


def _db_error(path: Path, exc: sqlite3.Error, lang: str) -> StoreError:
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return StoreError(
            trl(
                lang, "the match database {path} is locked by another process; try again later"
            ).format(path=path)
        )
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return StoreError(
            trl(
                lang, "{path} is corrupt or not a match database ({exc}); it was left as it is"
            ).format(path=path, exc=exc)
        )
    if "unable to open" in text or "readonly" in text or "read-only" in text:
        why = _not_writable(path, lang)
        if why:
            return StoreError(
                trl(
                    lang,
                    "cannot open the match database {path}: {why} (the database is written on "
                    "every opening, its journal needs a writable directory); use another place: "
                    "--db",
                ).format(path=path, why=why)
            )
        return StoreError(
            trl(lang, "cannot open the match database {path} ({exc})").format(path=path, exc=exc)
        )
    if "disk" in text and "full" in text:
        return StoreError(
            trl(lang, "match database {path}: the disk is full; nothing was written").format(
                path=path
            )
        )
    return StoreError(trl(lang, "match database {path}: {exc}").format(path=path, exc=exc))


def missing_db(path: Path, lang: str) -> StoreMissing:
    return StoreMissing(
        trl(
            lang,
            "there is no match database {path}: no match was played yet "
            "(start one: pyramid-referee match new{db} --players Ivan Petr)",
        ).format(path=path, db=db_option(path))
    )


class Store:
    """One open match database, its errors said in ``lang``. Use as a context manager, or call
    ``close()``."""

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        *,
        create_dir: bool | None = None,
        create: bool = True,
        lang: str = "ru",
    ) -> None:
        self.lang = lang  # what its errors are said in
        explicit = path is not None or bool(os.environ.get(ENV_DB))
        self.path = Path(path).expanduser() if path is not None else default_db_path()
        if self.path.is_dir():
            given = (
                "--db"
                if path is not None
                else ENV_DB
                if os.environ.get(ENV_DB)
                else trl(self.lang, "match database")
            )
            raise StoreError(
                trl(self.lang, "{given} {path}: is a directory, not a database file").format(
                    given=given, path=self.path
                )
            )
        if not self.path.exists():
            if not create:
                raise missing_db(self.path, self.lang)
            parent = self.path.parent
            if not parent.exists():
                if create_dir if create_dir is not None else not explicit:
                    parent.mkdir(parents=True, exist_ok=True)
                else:
                    raise StoreError(
                        trl(
                            self.lang,
                            "the directory {parent} for the match database does not exist",
                        ).format(parent=parent)
                    )
            self._create_file()
        elif self.path.is_file() and self.path.stat().st_size == 0:
            raise StoreError(
                trl(
                    self.lang,
                    "{path} is empty: not a match database; it was left as it is "
                    "(remove it or name another file: --db)",
                ).format(path=self.path)
            )
        try:
            self.con = self._connect(self.path)
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        try:
            self._setup()
        except sqlite3.Error as exc:
            self.con.close()
            raise _db_error(self.path, exc, self.lang) from None
        except StoreError:
            self.con.close()
            raise

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        """Open an existing file read-write; SQLite itself never creates one here."""
        return sqlite3.connect(
            f"file:{quote(str(path.absolute()))}?mode=rw",
            uri=True,
            timeout=BUSY_TIMEOUT_S,
            isolation_level=None,
        )

    def _create_file(self) -> None:
        """Build an empty match database under a temporary name, then link it into place whole."""
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.new")
        try:
            tmp.unlink(missing_ok=True)
            con = sqlite3.connect(str(tmp), timeout=BUSY_TIMEOUT_S, isolation_level=None)
            try:
                con.execute("BEGIN IMMEDIATE")
                for stmt in _SCHEMA.split(";"):
                    if stmt.strip():
                        con.execute(stmt)
                con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                con.execute("COMMIT")
            finally:
                con.close()
            try:
                os.link(tmp, self.path)  # never replaces a file another process created meanwhile
            except FileExistsError:
                pass
            except OSError:  # a file system without hard links
                if not self.path.exists():
                    os.replace(tmp, self.path)
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        except OSError as exc:
            raise _db_error(
                self.path, sqlite3.OperationalError("unable to open database file"), self.lang
            ) from exc
        finally:
            tmp.unlink(missing_ok=True)

    # ------------------------------------------------------------------ set-up
    def _setup(self) -> None:
        con = self.con
        version = con.execute("PRAGMA user_version").fetchone()[0]  # fails on a non-database file
        if version > SCHEMA_VERSION:
            raise StoreError(
                trl(
                    self.lang,
                    "{path} was written by a newer version (schema {version} > {SCHEMA_VERSION}); "
                    "upgrade pyramid-referee",
                ).format(path=self.path, version=version, SCHEMA_VERSION=SCHEMA_VERSION)
            )
        if (
            version == 0
        ):  # checked before anything is written: another program's file stays as it was
            raise StoreError(
                trl(
                    self.lang,
                    "{path}: another program's database, not a match database; it was left as it "
                    "is",
                ).format(path=self.path)
            )
        mode = con.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(
                trl(self.lang, "{path}: cannot switch to WAL ({mode})").format(
                    path=self.path, mode=mode
                )
            )
        con.execute("PRAGMA synchronous=FULL")
        con.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            with self._tx():
                now = con.execute("PRAGMA user_version").fetchone()[
                    0
                ]  # another process may have done it
                for v in range(now, SCHEMA_VERSION):
                    for stmt in _MIGRATIONS[v].split(";"):
                        if stmt.strip():
                            con.execute(stmt)
                con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _tx(self):
        return _Transaction(self)

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ matches
    def new_match(
        self, players: list[str], settings: dict, start: dict | None = None, *, to_wins: int = 1
    ) -> int:
        now = _now()
        with self._tx():
            cur = self.con.execute(
                "INSERT INTO matches(created, players, settings, start, status, updated, to_wins)"
                " VALUES (?,?,?,?, 'open', ?, ?)",
                (now, _dump(list(players)), _dump(settings), _dump(start), now, int(to_wins)),
            )
            mid = cur.lastrowid
            self.con.execute(
                "INSERT INTO actions(match_id, action, seq, time) VALUES (?, 'new', NULL, ?)",
                (mid, now),
            )
        return int(mid)

    _MATCH_SQL = (
        "SELECT m.id, m.created, m.players, m.settings, m.start, m.status, m.result, m.updated, "
        "(SELECT count(*) FROM strokes s WHERE s.match_id = m.id AND s.status = 'active'), "
        "(SELECT count(*) FROM strokes s WHERE s.match_id = m.id AND s.status = 'undone'), "
        "m.to_wins FROM matches m"
    )

    @staticmethod
    def _match_row(r) -> MatchRow:
        return MatchRow(
            r[0],
            r[1],
            _load(r[2]),
            _load(r[3]),
            _load(r[4]),
            r[5],
            _load(r[6]),
            r[7],
            r[8],
            r[9],
            r[10],
        )

    def get_match(self, match_id: int) -> MatchRow:
        try:
            r = self.con.execute(self._MATCH_SQL + " WHERE m.id = ?", (int(match_id),)).fetchone()
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        if r is None:
            raise StoreError(
                trl(self.lang, "there is no match {match_id} in {path}").format(
                    match_id=match_id, path=self.path
                )
            )
        return self._match_row(r)

    def list_matches(self) -> list[MatchRow]:
        try:
            rows = self.con.execute(self._MATCH_SQL + " ORDER BY m.id").fetchall()
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        return [self._match_row(r) for r in rows]

    def latest_open(self) -> int | None:
        """The unfinished match changed last (by the action log, not the clock)."""
        return self.latest(open_only=True)

    def latest(self, *, open_only: bool = False) -> int | None:
        """The match changed last (any status unless ``open_only``)."""
        where = "WHERE m.status = 'open'" if open_only else ""
        try:
            r = self.con.execute(
                f"SELECT m.id FROM matches m {where} ORDER BY"
                " (SELECT max(a.id) FROM actions a WHERE a.match_id = m.id) DESC, m.id DESC LIMIT "
                "1"
            ).fetchone()
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        return None if r is None else int(r[0])

    def set_result(self, match_id: int, result: Any) -> None:
        """Mark the match finished (result not None) or open again (None)."""
        with self._tx():
            self._set_result(match_id, result)

    def _set_result(self, match_id: int, result: Any) -> None:
        self.con.execute(
            "UPDATE matches SET status = ?, result = ?, updated = ? WHERE id = ?",
            ("open" if result is None else "finished", _dump(result), _now(), match_id),
        )

    # ------------------------------------------------------------------ strokes
    _STROKE_COLS = (
        "id, match_id, seq, call_text, call, refusal, call_status, outcome_text, outcome,"
        " verdict, state, lang, time, status, strike"
    )

    def _stroke_row(self, r) -> StrokeRow:
        try:
            rec = StoredStroke(
                r[3],
                _load(r[4]),
                _load(r[5]),
                r[6],
                r[7],
                _load(r[8]),
                _load(r[9]),
                _load(r[10]),
                r[11],
                _load(r[14]),
            )
        except ValueError as exc:
            raise self._bad_record(r[1], r[2], exc) from None
        return StrokeRow(r[0], r[1], r[2], rec, r[12], r[13])

    def _bad_record(self, match_id, seq, exc) -> StoreError:
        return StoreError(
            trl(
                self.lang, "{path}: match {match_id}, stroke {seq}: the record is damaged ({exc})"
            ).format(path=self.path, match_id=match_id, seq=seq, exc=exc)
        )

    def strokes(
        self, match_id: int, *, statuses: tuple[str, ...] = ("active",)
    ) -> list[StrokeRow]:
        """The match's strokes with these statuses, in seq order (then entry order)."""
        marks = ",".join("?" * len(statuses))
        try:
            rows = self.con.execute(
                f"SELECT {self._STROKE_COLS} FROM strokes WHERE match_id = ? AND status IN "
                f"({marks})"
                " ORDER BY seq, id",
                (match_id, *statuses),
            ).fetchall()
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        return [self._stroke_row(r) for r in rows]

    def iter_strokes(self, match_id: int) -> Iterator[StrokeRow]:
        """The active strokes one at a time (restoring a long match without a list of rows)."""
        try:
            cur = self.con.execute(
                f"SELECT {self._STROKE_COLS} FROM strokes WHERE match_id = ? AND status = "
                "'active' ORDER BY seq",
                (match_id,),
            )
            for r in cur:
                yield self._stroke_row(r)
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None

    def iter_replay(self, match_id: int) -> Iterator[tuple]:
        """What a replay needs, lean: (seq, call, call_status, outcome, verdict_text, lang)
        with call and outcome decoded and the verdict as its stored JSON text.
        Restoring a 10,000-stroke match reads through this."""
        loads = json.loads
        try:
            cur = self.con.execute(
                "SELECT seq, call, call_status, outcome, verdict, lang FROM strokes"
                " WHERE match_id = ? AND status = 'active' ORDER BY seq",
                (match_id,),
            )
            for seq, call, status, outcome, verdict, lang in cur:
                try:
                    decoded = None if call is None else loads(call), loads(outcome)
                except ValueError as exc:
                    raise self._bad_record(match_id, seq, exc) from None
                yield seq, decoded[0], status, decoded[1], verdict, lang
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None

    def last_state(self, match_id: int) -> tuple[int, dict] | None:
        """(seq, state JSON) of the last active stroke, or None."""
        try:
            r = self.con.execute(
                "SELECT seq, state FROM strokes WHERE match_id = ? AND status = 'active' ORDER BY "
                "seq DESC LIMIT 1",
                (match_id,),
            ).fetchone()
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        if r is None:
            return None
        try:
            return int(r[0]), _load(r[1])
        except ValueError as exc:
            raise self._bad_record(match_id, r[0], exc) from None

    def add_stroke(
        self,
        match_id: int,
        rec: StoredStroke,
        *,
        result: Any = None,
        expect_seq: int | None = None,
    ) -> int:
        """Append a stroke at the current position and commit; returns its seq.

        The redo stack (undone strokes) is discarded in the same transaction.
        ``result`` (the game's result after this stroke, or None) sets the match status.
        ``expect_seq``: the seq the caller judged this stroke for; if another process
        changed the match meanwhile, nothing is written and ``StoreConflict`` is raised.
        """
        if rec.call_status not in ("accepted", "refused", "none"):
            raise ValueError(f"call_status: {rec.call_status!r}")
        now = _now()
        with self._tx():
            con = self.con
            if con.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
                raise StoreError(
                    trl(self.lang, "there is no match {match_id}").format(match_id=match_id)
                )
            self._discard_undone(match_id, now)
            seq = con.execute(
                "SELECT coalesce(max(seq), 0) + 1 FROM strokes WHERE match_id = ? AND status = "
                "'active'",
                (match_id,),
            ).fetchone()[0]
            if expect_seq is not None and seq != expect_seq:
                raise _conflict(match_id, self.path, self.lang)
            con.execute(
                "INSERT INTO strokes(match_id, seq, call_text, call, refusal, call_status, "
                "outcome_text, outcome, verdict, state, lang, time, status, shown, strike) VALUES "
                "(?,?,?,?,?,?,?,?,?,?,?,?, 'active', 0, ?)",
                (
                    match_id,
                    seq,
                    rec.call_text,
                    _dump(rec.call),
                    _dump(rec.refusal),
                    rec.call_status,
                    rec.outcome_text,
                    _dump(rec.outcome),
                    _dump(rec.verdict),
                    _dump(rec.state),
                    rec.lang,
                    now,
                    _dump(rec.strike),
                ),
            )
            con.execute(
                "INSERT INTO actions(match_id, action, seq, time) VALUES (?, 'stroke', ?, ?)",
                (match_id, seq, now),
            )
            con.execute(
                "UPDATE standing SET present = 0, version = version + 1, time = ?"
                " WHERE match_id = ? AND present = 1",
                (now, match_id),
            )  # the stroke took the call
            con.execute(
                "UPDATE standing SET taken_back = NULL WHERE match_id = ?", (match_id,)
            )  # … and them
            self._set_result(match_id, result)
        return int(seq)

    def _discard_undone(self, match_id: int, now: str) -> None:
        """The redo stack (the strokes undone) is discarded: a new stroke replaces it."""
        con = self.con
        undone = [
            r[0]
            for r in con.execute(
                "SELECT seq FROM strokes WHERE match_id = ? AND status = 'undone' ORDER BY seq",
                (match_id,),
            )
        ]
        if undone:
            con.execute(
                "UPDATE strokes SET status = 'discarded' WHERE match_id = ? AND status = 'undone'",
                (match_id,),
            )
            con.executemany(
                "INSERT INTO actions(match_id, action, seq, time) VALUES (?, 'discard', ?, ?)",
                [(match_id, s, now) for s in undone],
            )

    # ------------------------------------------------------------------ the standing call
    def set_standing(self, match_id: int, rec: StandingRecord | None) -> int:
        """Write (or, with None, withdraw) the match's standing call; returns its new version."""
        self._check_standing(rec)
        with self._tx():
            return self._write_standing(match_id, rec, _now())

    @staticmethod
    def _check_standing(rec: StandingRecord | None) -> None:
        if rec is not None and rec.status not in ("accepted", "refused", "none"):
            raise ValueError(f"status: {rec.status!r}")
        if rec is not None and rec.source not in ("pad", "listen"):
            raise ValueError(f"source: {rec.source!r}")

    def _write_standing(self, match_id: int, rec: StandingRecord | None, now: str) -> int:
        con = self.con
        if con.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
            raise StoreError(
                trl(self.lang, "there is no match {match_id}").format(match_id=match_id)
            )
        con.execute(
            "INSERT OR IGNORE INTO standing(match_id, time) VALUES (?, ?)", (match_id, now)
        )
        if rec is None:
            con.execute(
                "UPDATE standing SET present = 0, version = version + 1, time = ? WHERE match_id "
                "= ?",
                (now, match_id),
            )
        else:
            con.execute(
                "UPDATE standing SET present = 1, text = ?, status = ?, call = ?, refusal = ?, "
                "canonical = ?, source = ?, strike = ?, time = ?, version = version + 1 WHERE "
                "match_id = ?",
                (
                    rec.text,
                    rec.status,
                    _dump(rec.call),
                    _dump(rec.refusal),
                    rec.canonical,
                    rec.source,
                    None if rec.strike is None else float(rec.strike),
                    now,
                    match_id,
                ),
            )
        return int(
            con.execute("SELECT version FROM standing WHERE match_id = ?", (match_id,)).fetchone()[
                0
            ]
        )

    def take_back_strike(self, match_id: int, strike: float, rec: StandingRecord | None) -> int:
        """Q14: the marker took back the strike at ``strike``: it joins the standing call's
        ``taken_back`` (kept until a stroke takes the call) and ``rec`` becomes the standing call
        (the call it had made late, counting again); one transaction. Its new version."""
        self._check_standing(rec)
        now = _now()
        with self._tx():
            version = self._write_standing(match_id, rec, now)
            r = self.con.execute(
                "SELECT taken_back FROM standing WHERE match_id = ?", (match_id,)
            ).fetchone()
            gone = list(_load(r[0]) or []) + [float(strike)]
            self.con.execute(
                "UPDATE standing SET taken_back = ? WHERE match_id = ?", (_dump(gone), match_id)
            )
        return version

    def standing(self, match_id: int) -> tuple[int, StandingRecord | None]:
        """(version, the standing call or None). The version changes with every write."""
        try:
            r = self.con.execute(
                "SELECT version, present, text, status, call, refusal, canonical, source, strike, "
                "time, taken_back FROM standing WHERE match_id = ?",
                (match_id,),
            ).fetchone()
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        if r is None:
            return 0, None
        if not r[1]:
            return int(r[0]), None
        try:
            rec = StandingRecord(
                r[2],
                r[3],
                _load(r[4]),
                _load(r[5]),
                r[6],
                r[7],
                r[8],
                r[9],
                tuple(_load(r[10]) or ()),
            )
        except ValueError as exc:
            raise StoreError(
                trl(
                    self.lang, "{path}: match {match_id}: the standing call is damaged ({exc})"
                ).format(path=self.path, match_id=match_id, exc=exc)
            ) from None
        return int(r[0]), rec

    def undo(
        self, match_id: int, *, result: Any = None, expect_seq: int | None = None
    ) -> int | None:
        """Take back the last active stroke (it goes on the redo stack); its seq, or None.
        ``expect_seq``: the seq the caller believes is last (else ``StoreConflict``)."""
        now = _now()
        with self._tx():
            r = self.con.execute(
                "SELECT max(seq) FROM strokes WHERE match_id = ? AND status = 'active'",
                (match_id,),
            ).fetchone()
            if expect_seq is not None and r[0] != expect_seq:
                raise _conflict(match_id, self.path, self.lang)
            if r[0] is None:
                return None
            seq = int(r[0])
            self.con.execute(
                "UPDATE strokes SET status = 'undone' WHERE match_id = ? AND seq = ? AND status = "
                "'active'",
                (match_id, seq),
            )
            self.con.execute(
                "INSERT INTO actions(match_id, action, seq, time) VALUES (?, 'undo', ?, ?)",
                (match_id, seq, now),
            )
            self._set_result(match_id, result)
        return seq

    def redo(
        self, match_id: int, *, result: Any = None, expect_seq: int | None = None
    ) -> int | None:
        """Put back the first undone stroke; its seq, or None when there is nothing to redo.
        ``expect_seq``: the seq the caller re-judged (else ``StoreConflict``)."""
        now = _now()
        with self._tx():
            r = self.con.execute(
                "SELECT min(seq) FROM strokes WHERE match_id = ? AND status = 'undone'",
                (match_id,),
            ).fetchone()
            if expect_seq is not None and r[0] != expect_seq:
                raise _conflict(match_id, self.path, self.lang)
            if r[0] is None:
                return None
            seq = int(r[0])
            self.con.execute(
                "UPDATE strokes SET status = 'active' WHERE match_id = ? AND seq = ? AND status = "
                "'undone'",
                (match_id, seq),
            )
            self.con.execute(
                "INSERT INTO actions(match_id, action, seq, time) VALUES (?, 'redo', ?, ?)",
                (match_id, seq, now),
            )
            self._set_result(match_id, result)
        return seq

    def mark_shown(self, match_id: int, seq: int) -> None:
        """The verdict of stroke ``seq`` is on the scorer's screen: it will not
        be named on resume."""
        with self._tx():
            self.con.execute(
                "UPDATE strokes SET shown = 1 "
                "WHERE match_id = ? AND seq = ? AND status = 'active'",
                (match_id, seq),
            )

    def unshown(self, match_id: int) -> list[StrokeRow]:
        """Active strokes committed but never shown (the process was killed in between)."""
        try:
            rows = self.con.execute(
                f"SELECT {self._STROKE_COLS} FROM strokes WHERE match_id = ? AND status = "
                "'active' AND shown = 0"
                " ORDER BY seq",
                (match_id,),
            ).fetchall()
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None
        return [self._stroke_row(r) for r in rows]

    def delete_match(self, match_id: int) -> None:
        """Remove the match, its strokes and its log, in one transaction."""
        with self._tx():
            if (
                self.con.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone()
                is None
            ):
                raise StoreError(
                    trl(self.lang, "there is no match {match_id} in {path}").format(
                        match_id=match_id, path=self.path
                    )
                )
            for table in ("strokes", "actions", "standing"):
                self.con.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
            self.con.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    def actions(self, match_id: int) -> list[tuple[str, int | None, str]]:
        """The log of what was done to the match, in order: (action, seq, time)."""
        try:
            return [
                (a, s, t)
                for a, s, t in self.con.execute(
                    "SELECT action, seq, time FROM actions WHERE match_id = ? ORDER BY id",
                    (match_id,),
                )
            ]
        except sqlite3.Error as exc:
            raise _db_error(self.path, exc, self.lang) from None


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT (ROLLBACK on any error); sqlite errors become StoreError."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def __enter__(self):
        try:
            self.store.con.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _db_error(self.store.path, exc, self.store.lang) from None
        return self

    def __exit__(self, exc_type, exc, tb):
        con = self.store.con
        if exc_type is None:
            try:
                con.execute("COMMIT")
                return False
            except sqlite3.Error as err:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise _db_error(self.store.path, err, self.store.lang) from None
        if con.in_transaction:
            con.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise _db_error(self.store.path, exc, self.store.lang) from None
        return False
