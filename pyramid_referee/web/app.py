"""The Starlette application of ``serve``: pages, the JSON API, live updates, the PIN.

One process serves one table (one match at a time). The match is the store's, driven by the
same ``Session`` as ``play``: a stroke is judged, committed, then broadcast and answered, so a
kill of the server loses nothing a page has shown. The session, and its SQLite connection,
live in the event loop's thread: every handler is ``async`` and calls the session without
awaiting in between, so two requests never interleave inside a change.

Safety (the pad changes the score):
- every ``POST`` needs ``Authorization: Bearer PIN`` (401 without it or with a wrong one);
  the PIN travels in a header, never in a cookie, so another site cannot make a browser send
  it; a ``POST`` whose ``Origin`` is not this server is refused (403) as well;
- the PIN cannot be guessed: after a few wrong PINs a client is held back (429 with
  ``Retry-After``, a delay doubling up to a minute), the log and the pads say someone is
  guessing, and the marker changes the PIN from the pad (``POST /api/pin/change``, ``pin.py``);
- a request's body is JSON of a known shape, at most ``MAX_BODY`` bytes; bad input gets 422
  with the same Russian message as the command line, and nothing is recorded;
- no path and no SQL comes from a request: the match is the one the server was started on.

The teaching page ``/learn`` and its API (``learn.py``) only read: no PIN, no store.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ..catalog import trl
from ..club.sync import ClubSync
from ..i18n import UserError, json_reason
from ..match.session import CallReading, Session, Standing, StrokeInputError
from ..match.store import Store, StoreConflict, StoreError
from ..referee.listen import reading_of
from ..teach import diagram
from .club import BoardFeed, board_routes
from .learn import learn_routes
from .listen_ws import Listening, listen_route, listen_texts
from .pin import PinGuard
from .sse import end_all, publish, state_stream
from .texts import POCKETS, board_texts, page_texts
from .view import call_json, state_json

HERE = Path(__file__).resolve().parent
MAX_BODY = 64 * 1024
FAVICON = (HERE / "static" / "favicon.svg").read_bytes()


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _error(status: int, message: str, *, retry_after: int = 0, **extra) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
    if retry_after:
        headers["Retry-After"] = str(retry_after)
        extra["retry_after"] = retry_after
    return JSONResponse({"error": message, **extra}, status_code=status, headers=headers or None)


class Table:
    """The table's match, its standing call (the store's) and the pages listening for changes."""

    def __init__(self, db: str | Path | None, match_id: int, lang: str) -> None:
        self.db, self.match_id, self.lang = db, match_id, lang
        self.store: Store | None = None
        self.session: Session | None = None
        self.standing_version = 0  # of the store's standing call, as last shown
        self.listeners: set[asyncio.Queue] = set()
        self.version = 0
        self.notices: list[str] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self._payload: str | None = None
        # serve --club: the background sync (club.sync.ClubSync); its line is on the scoreboard
        self.club = None
        self.club_line = ""
        self.guard = (
            None  # the PIN and its guard (pin.PinGuard): someone guessing is said on the pad
        )
        self.listening = None  # the tablet's ears (listen_ws.Listening): WS /api/listen

    # -- life ------------------------------------------------------------------------------
    def open(self) -> None:
        self.store = Store(self.db, create=False, lang=self.lang)
        self.session = Session(self.store, self.match_id, lang=self.lang)
        for row in (
            self.session.resume_notices()
        ):  # stored before a kill, never shown: say so, the board shows it now
            self.notices.append(
                trl(
                    self.lang,
                    "stroke {seq} was stored before the stop but never shown; it is in the "
                    "record: do not enter it again",
                ).format(seq=row.seq)
            )
            self.session.mark_shown(row.seq)
        self.standing_version = self.session.standing_version()

    @property
    def standing(self) -> Standing | None:
        """The call standing for the next stroke: the store's, typed here or
        heard by ``listen --pad``."""
        return self.session.standing()

    def set_standing(self, reading: CallReading | None) -> None:
        self.standing_version = self.session.set_standing(reading, source="pad")

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    def end_streams(self) -> None:
        """End every open event stream (the server is stopping: it waits for them to close)."""
        end_all(self.listeners)

    def stopping(self) -> None:
        """Safe from a signal handler: end the streams in the event loop's own thread."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.end_streams)

    def reopen(self) -> None:
        """Read the match again from the store (another program, e.g. ``play``, wrote to it)."""
        self.session = Session(self.store, self.match_id, lang=self.lang)

    def outside_change(self) -> bool:
        """Did another program (``play``, ``undo``, ``listen``) change this match in the store?"""
        return self.session.outdated()

    def check(self) -> bool:
        """One look at the store: a stroke or a standing call written by another program
        (``play``, ``listen --pad``) is read and sent to the pages. True if something changed."""
        seen = False
        if self.outside_change():
            self.reopen()
            seen = True
        version = self.session.standing_version()
        if version != self.standing_version:
            self.standing_version = version
            seen = True
        if self.club is not None and self.club.status().text(self.lang) != self.club_line:
            seen = True  # the club line changed (connected, not connected, the queue)
        if self.listening is not None and self.listening.outside_change():
            seen = True  # listen --pad began or stopped hearing this table
        if seen:
            self.changed()
        return seen

    async def watch(self, every_s: float = 0.5) -> None:
        """Follow the store: a stroke or a standing call written elsewhere reaches the pages
        within ``every_s``."""
        while True:
            await asyncio.sleep(every_s)
            try:
                self.check()
            except StoreError:
                # a damaged or locked record: keep showing what was read; the next look
                # tries again
                pass

    # -- state and its listeners -------------------------------------------------------------
    def state(self) -> dict:
        out = {
            **state_json(self.session, self.standing, self.lang),
            "notices": self.notices,
            "pin_alert": None if self.guard is None else self.guard.alert(),
        }
        if self.listening is not None:
            out["listening"] = self.listening.to_json()
        if self.club is not None:
            st = self.club.status()
            self.club_line = st.text(self.lang)
            out["club"] = {
                "online": st.online,
                "queued": st.queued,  # strokes
                "queued_changes": st.changes,  # undos and redos: not strokes
                "line": self.club_line,
            }
        return out

    def committed(self, change: bool = False) -> None:
        """A stroke, an undo or a redo (``change``), or a new match is in the store: the club
        gets it soon."""
        if self.club is not None:
            self.club.notify(change)

    def payload(self) -> str:
        if self._payload is None:
            self._payload = _dumps(self.state())
        return self._payload

    def changed(self) -> None:
        """Tell every open page; the state is built and encoded once for all of them."""
        self.version += 1
        self._payload = None
        publish(self.listeners, self.payload())


def _bad_json(message: str) -> StrokeInputError:
    return StrokeInputError(message)


async def _body(request: Request) -> dict:
    """The request's JSON object; anything else is refused in the server's language."""
    lang = _server(request).lang
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _bad_json(
            trl(lang, "the request is too large (at most {n} bytes)").format(n=MAX_BODY)
        )
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise _bad_json(
            trl(lang, "the request is not valid JSON ({what})").format(what=json_reason(exc, lang))
        ) from None
    except UnicodeDecodeError:
        raise _bad_json(
            trl(lang, "the request is not valid JSON ({what})").format(what=trl(lang, "not UTF-8"))
        ) from None
    if not isinstance(data, dict):
        raise _bad_json(trl(lang, "the request must be a JSON object"))
    return data


def _call_field(data: dict, default: str | None, lang: str) -> str | None:
    if "call" not in data:
        return default
    call = data["call"]
    if call is None or isinstance(call, str):
        return call
    if isinstance(call, dict):  # the call's JSON (``Call.to_json``), as ``play`` takes it
        return _dumps(call)
    raise _bad_json(trl(lang, "«call» must be the call's text or null"))


def says_nothing(outcome: dict) -> bool:
    """An outcome object that gives nothing: no event, no foul, no «по заказу»/«мимо»
    (``route_ok``), no mark — what a pad sends when nothing was entered. It is never made a
    stroke (a default is no outcome): the marker says «мимо», «по заказу» or what fell, or gives
    the notation «ничего»."""
    return outcome.get("route_ok") is None and not any(
        v for k, v in outcome.items() if k != "route_ok"
    )


def _outcome_field(data: dict, lang: str) -> str:
    if "outcome" not in data:
        raise _bad_json(trl(lang, "the stroke has no «outcome»"))
    outcome = data["outcome"]
    if (isinstance(outcome, dict) and says_nothing(outcome)) or (
        isinstance(outcome, str) and not outcome.strip()
    ):
        raise _bad_json(
            trl(lang, "no outcome given (an empty one is 'ничего' or '-')")
        )  # as ``play`` refuses it
    if isinstance(outcome, dict):
        return _dumps(outcome)
    if isinstance(outcome, str):  # the short notation, as typed in ``play``
        return outcome
    raise _bad_json(trl(lang, "«outcome» must be the outcome's JSON object or its notation"))


class _Server:
    """What the handlers of one app share (on ``app.state.server``): the table, the PIN's guard,
    the pages' templates and texts, and the club board's feed (``serve --club``, else None)."""

    def __init__(self, table: Table, guard: PinGuard, lang: str, feed=None) -> None:
        self.table, self.guard, self.lang, self.feed = table, guard, lang, feed
        self.env = Environment(
            loader=FileSystemLoader(str(HERE / "templates")),
            autoescape=select_autoescape(["html"]),
        )
        self.texts = {**page_texts(lang), **listen_texts(lang)}
        self.texts_json = _dumps(self.texts)
        self.pockets_json = _dumps(dict(POCKETS))
        self.has_diagram = True  # the scoreboard shows the standing call's route picture
        # in the scripts' URLs: a new program is never run with an old script
        self.asset_version = _asset_version()

    # -- pages -------------------------------------------------------------------------------
    def page(self, name: str, **extra) -> HTMLResponse:
        html = self.env.get_template(name).render(
            t=self.texts,
            texts_json=self.texts_json,
            state_json=self.table.payload(),
            pockets_json=self.pockets_json,
            lang=self.lang,
            has_diagram=self.has_diagram,
            has_club=self.feed is not None,
            asset_version=self.asset_version,
            **extra,
        )
        return HTMLResponse(html, headers=_PAGE_HEADERS)

    def club_page(self, board_json: str) -> HTMLResponse:
        t = board_texts(self.lang)
        html = self.env.get_template("club.html").render(
            t=t, texts_json=_dumps(t), lang=self.lang, table_link=True, board_json=board_json
        )
        return HTMLResponse(html, headers=_PAGE_HEADERS)

    # -- the guard -----------------------------------------------------------------------------
    def authorized(self, request: Request) -> Response | None:
        """None if the request may change the table; else the refusal to send (403, 401, 429)."""
        origin = request.headers.get("origin")
        if origin is not None:
            host = request.headers.get("host", "")
            if urlsplit(origin).netloc.lower() != host.lower():
                return _error(403, trl(self.lang, "a request from another site is refused"))
        auth = request.headers.get("authorization", "")
        scheme, _, given = auth.partition(" ")
        if scheme.lower() != "bearer" or not given:
            return _error(401, trl(self.lang, "the PIN is needed (Authorization: Bearer PIN)"))
        verdict = self.guard.check(_client(request), given.strip())
        if verdict.kind == "held":  # not even looked at: a guess is never checked early
            return _error(
                429,
                trl(self.lang, "too many wrong PINs from this device: try again in {s} s").format(
                    s=verdict.retry_after
                ),
                retry_after=verdict.retry_after,
            )
        if verdict.kind == "wrong":
            if verdict.retry_after:  # a hold began: the pads say that someone is guessing
                self.table.changed()
                return _error(
                    401,
                    trl(
                        self.lang,
                        "wrong PIN; too many wrong PINs from this device: the next try in {s} s",
                    ).format(s=verdict.retry_after),
                    retry_after=verdict.retry_after,
                )
            return _error(401, trl(self.lang, "wrong PIN"))
        return None

    # -- the tablet's ears -----------------------------------------------------------------------
    def publish_event(self, kind: str, item: dict) -> None:
        publish(self.table.listeners, (kind, _dumps(item)))

    def on_decision(self, d) -> None:
        """A strike heard on the tablet's stream, decided: its call stands for the stroke, as
        ``listen --pad`` stores it; the marker taps the outcome."""
        table = self.table
        if d.strike is None:  # a call heard with no strike after it (Q13), as listen --pad offers
            standing = table.standing
            if standing is not None and not standing.heard_unstruck:
                return  # a strike's call waiting for its outcome, or a call the marker typed
        try:
            table.standing_version = table.session.set_standing(
                reading_of(d, self.lang), source="listen", strike=d.strike
            )
        except StoreError as exc:
            table.notices.append(str(exc))
        table.changed()


_PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


def _server(request: Request) -> _Server:
    return request.app.state.server


def _refused(exc: Exception) -> JSONResponse:
    return _error(422, str(exc))


@asynccontextmanager
async def _lifespan(app: Starlette):
    server: _Server = app.state.server
    table, feed = server.table, server.feed
    table.open()  # in the event loop's thread: the SQLite connection stays there
    table.loop = asyncio.get_running_loop()
    watcher = asyncio.ensure_future(table.watch())
    if table.club is not None:
        table.club.start()  # local first: the worker never blocks a stroke
        feed.start(table.loop)
    try:
        yield
    finally:
        watcher.cancel()
        table.end_streams()
        if feed is not None:
            feed.end_streams()
            feed.stop()
            table.club.stop()  # one last drain attempt
        table.listening.close()
        table.close()


# -- pages -------------------------------------------------------------------------------------
async def scoreboard(request: Request) -> Response:
    return _server(request).page("scoreboard.html")


async def pad(request: Request) -> Response:
    return _server(request).page("pad.html")


async def favicon(request: Request) -> Response:
    return Response(
        FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
    )


# -- API: reading ------------------------------------------------------------------------------
async def api_state(request: Request) -> Response:
    return Response(_server(request).table.payload(), media_type="application/json")


async def api_events(request: Request) -> Response:
    table = _server(request).table
    return state_stream(table.listeners, table.payload())


async def api_diagram(request: Request) -> Response:
    text = request.query_params.get("call", "")
    if not text.strip() or len(text) > 500:
        return _error(
            422, trl(_server(request).lang, "give the call: ?call=TEXT (at most 500 characters)")
        )
    try:
        svg = diagram.call_svg(text, lang=_server(request).lang)
    except (UserError, ValueError) as exc:
        return _refused(exc)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


# -- API: changes (the PIN) ----------------------------------------------------------------------
async def api_call(request: Request) -> Response:
    """The call heard or typed before the strike: checked now and shown as standing."""
    server = _server(request)
    if (denied := server.authorized(request)) is not None:
        return denied
    table = server.table
    try:
        data = await _body(request)
        text = _call_field(data, None, server.lang)
        reading = table.session.read_call(text)
        _typo(reading, server.lang)
    except UserError as exc:
        return _refused(exc)
    try:
        table.set_standing(None if reading.status == "none" else reading)
    except StoreError as exc:
        return _error(503, str(exc))
    table.changed()
    return JSONResponse(call_json(reading, server.lang))


def _stroke_call(session: Session, data: dict, standing: Standing | None, lang: str):
    """The stroke's call and its strike note: the standing call as the voice referee decided it,
    or the call in the request (else the standing one's text), read now."""
    if "call" not in data and standing is not None and standing.source == "listen":
        reading = (
            standing.reading
        )  # as the voice referee decided it at the strike (late, refused …)
        # Q13: heard with no strike after it: the stroke takes it, «удар не услышан — …»
        return reading, standing.strike_note()
    text = _call_field(data, standing.reading.text if standing else None, lang)
    reading = session.read_call(text)
    _typo(reading, lang)
    # the call typed here: only the strikes taken back before it are the voice's (Q14)
    note = (
        {"taken_back": list(standing.taken_back)}
        if standing is not None and standing.taken_back
        else None
    )
    return reading, note


async def api_strokes(request: Request) -> Response:
    server = _server(request)
    if (denied := server.authorized(request)) is not None:
        return denied
    table = server.table
    s = table.session
    try:
        data = await _body(request)
        standing = table.standing
        outcome = _outcome_field(data, server.lang)
        reading, note = _stroke_call(s, data, standing, server.lang)
        entered = s.enter(reading.text, outcome, reading=reading, strike=note)  # committed here
    except StoreConflict as exc:
        table.reopen()  # another program wrote a stroke: show the record as it is now
        table.changed()
        return _error(409, str(exc))
    except StoreError as exc:  # the database itself (locked, unwritable): not the input's fault
        return _error(503, str(exc))
    except UserError as exc:
        return _refused(exc)
    table.standing_version = s.standing_version()  # the stroke cleared it in its own transaction
    table.committed()
    table.changed()  # the pages have it now …
    s.mark_shown(entered.seq)  # … so a resume after a kill will not name it as unshown
    return JSONResponse({**entered.record.verdict, "seq": entered.seq})


def _strike_to_take_back(data: dict, standing: Standing | None, lang: str) -> Standing:
    """The standing call whose strike is taken back, checked against the request's ``strike``."""
    given = data.get("strike")
    if given is not None and (isinstance(given, bool) or not isinstance(given, (int, float))):
        raise _bad_json(trl(lang, "«strike» must be the strike's time in seconds"))
    if (
        standing is not None
        and given is not None
        and standing.strike is not None
        and abs(float(given) - standing.strike) > 0.001
    ):
        raise StrokeInputError(
            trl(lang, "the strike at {t:.2f} s is no longer the one standing").format(
                t=float(given)
            )
        )
    if standing is None:
        raise StrokeInputError(
            trl(lang, "no strike to take back: the standing call was not made late by a strike")
        )
    return standing


async def api_take_back(request: Request) -> Response:
    """Q14: the marker takes back the strike that made the standing call late (a consonant, a
    knock on the rail): the strike is void, the call counts again; the record keeps it.
    Body: ``{}`` or ``{"strike": SECONDS}`` (then it must be that strike)."""
    server = _server(request)
    if (denied := server.authorized(request)) is not None:
        return denied
    table = server.table
    try:
        data = await _body(request)
        standing = _strike_to_take_back(data, table.standing, server.lang)
        table.standing_version = table.session.take_back_strike(standing)
    except StoreError as exc:
        return _error(503, str(exc))
    except UserError as exc:
        return _refused(exc)
    listening = table.listening
    if listening is not None and listening.stream is not None and standing.strike is not None:
        # the tablet's detector heard it: no longer one of this table's strikes to weigh by
        stream = listening.stream
        await asyncio.get_running_loop().run_in_executor(
            stream.executor, stream.forget_strike, standing.strike
        )
    table.changed()
    return JSONResponse(
        {
            "taken_back": standing.strike,
            "standing_call": call_json(None, server.lang, table.standing),
        }
    )


async def _change(request: Request, action: str) -> Response:
    """Undo or redo (``action``: the session's method), as the pad's buttons ask."""
    server = _server(request)
    if (denied := server.authorized(request)) is not None:
        return denied
    table = server.table
    try:
        await _body(request)
        seq = getattr(table.session, action)()
    except StoreConflict as exc:
        table.reopen()
        table.changed()
        return _error(409, str(exc))
    except StoreError as exc:
        return _error(503, str(exc))
    except UserError as exc:
        return _refused(exc)
    if seq is not None:
        table.committed(change=True)  # an undo or a redo: not a stroke in the club's queue
        table.changed()
    return JSONResponse({"seq": seq})


async def api_undo(request: Request) -> Response:
    return await _change(request, "undo")


async def api_redo(request: Request) -> Response:
    return await _change(request, "redo")


async def api_pin(request: Request) -> Response:
    """The pad checks a typed PIN here before it shows the buttons; nothing changes."""
    denied = _server(request).authorized(request)
    return denied if denied is not None else Response(status_code=204)


async def api_pin_change(request: Request) -> Response:
    """A new PIN, from the marker who gives the current one: ``{"pin": "NEW"}``. The server goes
    on; every pad with the old PIN asks for the new one."""
    server = _server(request)
    if (denied := server.authorized(request)) is not None:
        return denied
    try:
        data = await _body(request)
    except UserError as exc:
        return _refused(exc)
    new = data.get("pin")
    if not isinstance(new, str):
        return _error(422, trl(server.lang, 'give the new PIN: {"pin": "…"}'))
    try:
        server.guard.change(new.strip(), _client(request))
    except ValueError as exc:
        return _error(422, str(exc))
    server.table.changed()  # the pads' alert is answered
    return Response(status_code=204)


async def api_new(request: Request) -> Response:
    """A new match with the same players, settings and length (the pad's «Новый матч»)."""
    server = _server(request)
    if (denied := server.authorized(request)) is not None:
        return denied
    table = server.table
    s = table.session
    try:
        await _body(request)
        new = Session.create(
            table.store, s.players, s.settings.to_json(), None, lang=server.lang, to_wins=s.to_wins
        )
    except UserError as exc:
        return _refused(exc)
    table.match_id, table.session = new.id, new
    table.standing_version = new.standing_version()
    table.committed()
    table.changed()
    return JSONResponse({"match": new.id})


def _routes(server: _Server, api_listen) -> list:
    feed = server.feed
    return [
        Route("/", scoreboard),
        Route("/pad", pad),
        Route("/favicon.ico", favicon),  # asked for by every browser: the table's icon, not a 404
        Route("/api/state", api_state),
        Route("/api/events", api_events),
        Route("/api/diagram.svg", api_diagram),
        Route("/api/call", api_call, methods=["POST"]),
        Route("/api/strokes", api_strokes, methods=["POST"]),
        Route("/api/strike/take-back", api_take_back, methods=["POST"]),
        Route("/api/undo", api_undo, methods=["POST"]),
        Route("/api/redo", api_redo, methods=["POST"]),
        Route("/api/new", api_new, methods=["POST"]),
        Route("/api/pin", api_pin, methods=["POST"]),
        Route("/api/pin/change", api_pin_change, methods=["POST"]),
        WebSocketRoute("/api/listen", api_listen),
        *learn_routes(server.page, server.lang),  # /learn and its read-only API: no PIN, no store
        # /club: read-only, no PIN
        *([] if feed is None else board_routes(feed, server.club_page, at_root=False)),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]


def create_app(
    db: str | Path | None,
    match_id: int,
    *,
    pin: str,
    lang: str = "ru",
    host_names: tuple[str, ...] = (),
    club_url: str | None = None,
    clock: Callable[[], float] | None = None,
    log: Callable[[str], None] | None = None,
    model_dir: str | None = None,
    profile=None,
    listening=None,
) -> Starlette:
    """The app for one stored match. ``pin``: the secret the pad's requests must carry (guarded
    against guessing: ``pin.PinGuard``; ``clock`` for its delays, ``log`` for the operator's lines,
    standard error by default).
    ``model_dir``, ``profile``: the speech model and the table's strike profile for the tablet's
    ears (``WS /api/listen``, listen_ws.py); ``listening``: a ready ``Listening`` instead (tests).
    ``club_url``: this table is registered on that club server: its store replicates there in the
    background (``ClubSync``, as ``play --club``) and the club board is at ``/club``."""
    table = Table(db, match_id, lang)
    guard = PinGuard(pin, clock=clock or time.monotonic, log=log or _to_stderr, lang=lang)
    table.guard = guard
    table.listening = listening or Listening(model_dir=model_dir, profile=profile, lang=lang)
    feed = None
    if club_url is not None:
        table.club = ClubSync(
            db, club_url, lang=lang
        )  # checks the registration now, before the server starts
        feed = BoardFeed(club_url, lang)
    server = _Server(table, guard, lang, feed)
    api_listen = listen_route(
        table,
        guard,
        publish_event=server.publish_event,
        on_decision=server.on_decision,
        client_of=_client,
        clock=clock or time.monotonic,
        lang=lang,
    )
    app = Starlette(routes=_routes(server, api_listen), lifespan=_lifespan)
    app.state.server = server
    app.state.table = table
    app.state.feed = feed
    return app


def _asset_version() -> str:
    h = hashlib.sha256()
    for f in sorted((HERE / "static").iterdir()):
        h.update(f.name.encode() + f.read_bytes())
    return h.hexdigest()[:12]


def _client(request: Request) -> str:
    """Who is asking, for the PIN's guard: the peer's address (never a
    header the client writes)."""
    return request.client.host if request.client is not None else "?"


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _typo(reading: CallReading, lang: str) -> None:
    """As in ``play``: a word the parser does not know is the marker's typo,
    not the player's call."""
    if reading.status == "refused" and (reading.refusal or {}).get("code") == "unknown_word":
        raise StrokeInputError(
            trl(lang, "nothing recorded: {why} — looks like a typo; type the call again").format(
                why=reading.refusal.get("message", "")
            )
        )
