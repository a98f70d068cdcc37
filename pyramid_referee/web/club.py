"""The club board on the web (``serve --club URL``): ``/club`` (or ``/`` on a manager's computer),
``GET /api/club/state`` (the board as JSON: ``club.board.snapshot`` plus ``server``) and
``GET /api/club/events`` (server-sent ``state`` events, the same JSON, one per change).

Read-only: no POST route, no PIN. One ``BoardFeed`` a server process holds one PostgreSQL
connection that ``LISTEN``s on ``club_board`` (schema v3's triggers notify the table's id on
every change replication makes); on a notification it waits ``DEBOUNCE_S`` for the rest of a
burst, re-reads the tables (and the day and the players' statistics at most every
``CLUB_EVERY_S``), and sends the new board to every open page. With no notification it still
re-reads every ``TICK_S``, so a table that went silent is shown as not connected. When the
club server goes away (a restart, the Wi-Fi), the feed says so, reconnects every ``retry_s``,
listens again and then re-reads the whole board, so nothing that happened meanwhile is missed.
Meanwhile every table is shown as it was last read and says so: its ``sync`` is ``stale`` with
the line «данные на ЧЧ:ММ» (the time of that read), and the page greys its card out: an old
score must not look like a live one.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..catalog import trl
from ..club import board, schema
from ..club.sync import _LINK, reason
from ..i18n import UserError
from .sse import end_all, publish, state_stream
from .texts import board_texts

DEBOUNCE_S = 0.05
CLUB_EVERY_S = 2.0
TICK_S = 5.0
# a cancel does not wake an idle LISTEN wait (there is no query to cancel): the wait is cut into
# slices this long, so stop() ends the thread within one slice, not after TICK_S
STOP_SLICE_S = 0.25


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class BoardFeed:
    """The board as last read, kept fresh from ``LISTEN club_board`` in a thread of its own."""

    def __init__(
        self, url: str, lang: str = "ru", *, stale_s: float = board.STALE_S, retry_s: float = 1.0
    ) -> None:
        self.url, self.lang, self.stale_s, self.retry_s = url, lang, stale_s, retry_s
        self.listeners: set[asyncio.Queue] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.version = 0
        self.reads = 0  # board reads so far (each after a notification, a tick or a reconnect)
        self._tables: list = []
        self._club: dict = {"day": {"games": [], "matches": []}, "players": []}
        self._server = {
            "online": None,
            "line": trl(lang, "connecting to the club server…"),
            "as_of": None,
        }
        self._read_at: str | None = None  # ЧЧ:ММ of the last read that reached the server
        self._payload = self._encode()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._con = None

    # -- the event loop's side ---------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> BoardFeed:
        self.loop = loop
        self._thread = threading.Thread(target=self._run, name="club-board", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()  # the LISTEN wait sees it within STOP_SLICE_S
        if self._thread is not None:
            self._thread.join(3.0)

    def payload(self) -> str:
        return self._payload

    def end_streams(self) -> None:
        end_all(self.listeners)

    def _publish(self, data: str) -> None:
        publish(self.listeners, data)

    # -- the feed's thread ---------------------------------------------------------------------
    def _encode(self) -> str:
        self.version += 1
        return _dumps(
            {
                "version": self.version,
                "lang": self.lang,
                "server": self._server,
                "tables": self._tables,
                **self._club,
            }
        )

    def _send(self) -> None:
        self._payload = data = self._encode()
        if self.loop is not None and not self.loop.is_closed():
            try:
                self.loop.call_soon_threadsafe(self._publish, data)
            except RuntimeError:  # the loop is closing
                pass

    def _run(self) -> None:
        import psycopg  # deferred: the PostgreSQL driver loads only for the club

        while not self._stop.is_set():
            try:
                self._listen()
            except (psycopg.Error, OSError, UserError) as exc:
                self._server = {
                    "online": False,
                    "line": self._offline_line(exc),
                    "as_of": self._read_at,
                }
                self._tables = [self._stale(t) for t in self._tables]
                if not self._stop.is_set():
                    self._send()
            finally:
                con, self._con = self._con, None
                if con is not None:
                    try:
                        con.close()
                    except Exception:  # noqa: BLE001
                        pass
            self._stop.wait(self.retry_s)

    def _heard(self, con, wait: float) -> bool:
        """A notification within ``wait`` seconds? False at once when the feed is stopped."""
        end = time.monotonic() + wait
        while not self._stop.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return False
            if any(True for _ in con.notifies(timeout=min(left, STOP_SLICE_S), stop_after=1)):
                return True
        return False

    def _stale(self, table: dict) -> dict:
        """A table as last read, while the server cannot be asked: greyed out with the
        time of that read."""
        line = trl(self.lang, "data as of {time}").format(time=self._read_at or "—")
        return {**table, "sync": {**table["sync"], "online": False, "stale": True, "line": line}}

    def _offline_line(self, exc: BaseException) -> str:
        """The board's top line while the club server is away: what happened and that it
        reconnects first (the line is cut on a narrow screen), then what to check,
        without the server's English."""
        import psycopg  # deferred: the PostgreSQL driver loads only for the club

        if isinstance(
            exc, psycopg.errors.InsufficientPrivilege
        ):  # there, but this login may not read it
            return trl(
                self.lang,
                "this login may not read the club board: it needs the role pyramid_board",
            )
        line = trl(self.lang, "no connection to the club server; reconnecting…")
        why = reason(exc, self.lang)
        return line if why is None else f"{line} {why}"

    def _listen(self) -> None:
        import psycopg  # deferred: the PostgreSQL driver loads only for the club

        con = self._con = psycopg.connect(self.url, **_LINK)
        check_schema(con, self.lang)
        con.execute(
            f"LISTEN {schema.NOTIFY_CHANNEL}"
        )  # first: a change made while the board is read is heard
        self._read(club=True)
        self._server = {
            "online": True,
            "line": trl(self.lang, "club server: connected"),
            "as_of": None,
        }
        self._send()
        club_at, club_dirty = time.monotonic(), False
        while not self._stop.is_set():
            wait = TICK_S
            if club_dirty:
                wait = max(0.0, min(wait, club_at + CLUB_EVERY_S - time.monotonic()))
            heard = self._heard(con, wait)
            if self._stop.is_set():
                return
            if heard:
                for _ in con.notifies(timeout=DEBOUNCE_S):  # the rest of the burst, read once
                    pass
                club_dirty = True
            now = time.monotonic()
            with_club = (club_dirty and now - club_at >= CLUB_EVERY_S) or not heard
            self._read(club=with_club)
            if with_club:
                club_at, club_dirty = now, False
            self._send()

    def _read(self, *, club: bool) -> None:
        self._tables = board.tables(self._con, self.lang, stale_s=self.stale_s)
        self._read_at = datetime.now().astimezone().strftime("%H:%M")
        if club:
            self._club = board.club(self._con, self.lang)
        self.reads += 1


def check_schema(con, lang: str) -> None:
    """The board needs schema v3: an older server is brought up to it where the login may do so
    (the server's owner), else one clear line (in ``lang``) says what to do."""
    import psycopg  # deferred: the PostgreSQL driver loads only for the club

    have = schema.version(con)
    if have >= schema.SCHEMA_VERSION:
        return
    try:
        schema.migrate(con, lang=lang)
    except psycopg.errors.InsufficientPrivilege:
        raise UserError(
            trl(
                lang,
                "the club server's schema is version {version}; the board needs {needed}: run "
                "pyramid-referee club status once with the server owner's login",
            ).format(version=have, needed=schema.SCHEMA_VERSION)
        ) from None


def board_routes(feed: BoardFeed, page, *, at_root: bool) -> list:
    """``/club`` (and ``/`` when the board is all this server shows), the JSON and the events.
    ``page(board_json)``: the board's HTML page with that first state in it."""

    async def club_page(request: Request) -> Response:
        return page(feed.payload())

    async def api_state(request: Request) -> Response:
        return Response(
            feed.payload(), media_type="application/json", headers={"Cache-Control": "no-store"}
        )

    async def api_events(request: Request) -> Response:
        return state_stream(feed.listeners, feed.payload())

    routes = [
        Route("/club", club_page),
        Route("/api/club/state", api_state),
        Route("/api/club/events", api_events),
    ]
    if at_root:
        routes.insert(0, Route("/", club_page))
    return routes


def create_board_app(url: str, *, lang: str = "ru", stale_s: float = board.STALE_S):
    """The board alone (a manager's computer: no table of its own): ``/`` and ``/club``, in
    ``lang``."""
    here = Path(__file__).resolve().parent
    env = Environment(
        loader=FileSystemLoader(str(here / "templates")), autoescape=select_autoescape(["html"])
    )
    feed = BoardFeed(url, lang, stale_s=stale_s)
    texts = board_texts(lang)
    texts_json = _dumps(texts)

    def page(board_json: str) -> HTMLResponse:
        html = env.get_template("club.html").render(
            t=texts, texts_json=texts_json, lang=lang, table_link=False, board_json=board_json
        )
        return HTMLResponse(
            html,
            headers={
                "Cache-Control": "no-store",
                "X-Frame-Options": "DENY",
                "Referrer-Policy": "no-referrer",
            },
        )

    @asynccontextmanager
    async def lifespan(app):
        feed.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            feed.end_streams()
            feed.stop()

    routes = [
        *board_routes(feed, page, at_root=True),
        Mount("/static", StaticFiles(directory=str(here / "static")), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.feed = feed
    return app
