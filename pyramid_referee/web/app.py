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
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ..i18n import UserError, json_reason, set_lang, tr
from ..match.session import CallReading, Session, Standing, StrokeInputError
from ..match.store import Store, StoreConflict, StoreError
from .club import board_routes
from .learn import learn_routes
from .pin import PinGuard
from .sse import end_all, publish, state_stream
from .texts import POCKETS, page_texts
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
        self.club = None  # serve --club: the background sync (club.sync.ClubSync); its line is on the scoreboard
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
                tr(
                    "stroke {seq} was stored before the stop but never shown; it is in the record: do not enter "
                    "it again"
                ).format(seq=row.seq)
            )
            self.session.mark_shown(row.seq)
        self.standing_version = self.session.standing_version()

    @property
    def standing(self) -> Standing | None:
        """The call standing for the next stroke: the store's, typed here or heard by ``listen --pad``."""
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
        if self.club is not None and self.club.status().text() != self.club_line:
            seen = True  # the club line changed (connected, not connected, the queue)
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
                pass  # a damaged or locked record: keep showing what was read; the next look tries again

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
            self.club_line = st.text()
            out["club"] = {"online": st.online, "queued": st.queued, "line": self.club_line}
        return out

    def committed(self) -> None:
        """A stroke, an undo, a redo or a new match is in the store: the club gets it soon."""
        if self.club is not None:
            self.club.notify()

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
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _bad_json(tr("the request is too large (at most {n} bytes)").format(n=MAX_BODY))
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise _bad_json(
            tr("the request is not valid JSON ({what})").format(what=json_reason(exc))
        ) from None
    except UnicodeDecodeError:
        raise _bad_json(
            tr("the request is not valid JSON ({what})").format(what=tr("not UTF-8"))
        ) from None
    if not isinstance(data, dict):
        raise _bad_json(tr("the request must be a JSON object"))
    return data


def _call_field(data: dict, default: str | None) -> str | None:
    if "call" not in data:
        return default
    call = data["call"]
    if call is None or isinstance(call, str):
        return call
    if isinstance(call, dict):  # the call's JSON (``Call.to_json``), as ``play`` takes it
        return _dumps(call)
    raise _bad_json(tr("«call» must be the call's text or null"))


def says_nothing(outcome: dict) -> bool:
    """An outcome object that gives nothing: no event, no foul, no «по заказу»/«мимо» (``route_ok``),
    no mark — what a pad sends when nothing was entered. It is never made a stroke (a default is no
    outcome): the marker says «мимо», «по заказу» or what fell, or gives the notation «ничего»."""
    return outcome.get("route_ok") is None and not any(
        v for k, v in outcome.items() if k != "route_ok"
    )


def _outcome_field(data: dict) -> str:
    if "outcome" not in data:
        raise _bad_json(tr("the stroke has no «outcome»"))
    outcome = data["outcome"]
    if (isinstance(outcome, dict) and says_nothing(outcome)) or (
        isinstance(outcome, str) and not outcome.strip()
    ):
        raise _bad_json(
            tr("no outcome given (an empty one is 'ничего' or '-')")
        )  # as ``play`` refuses it
    if isinstance(outcome, dict):
        return _dumps(outcome)
    if isinstance(outcome, str):  # the short notation, as typed in ``play``
        return outcome
    raise _bad_json(tr("«outcome» must be the outcome's JSON object or its notation"))


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
    from contextlib import asynccontextmanager

    from jinja2 import Environment, FileSystemLoader, select_autoescape

    set_lang(lang)
    table = Table(db, match_id, lang)
    guard = PinGuard(pin, clock=clock or time.monotonic, log=log or _to_stderr)
    table.guard = guard
    from .listen_ws import Listening, listen_route, listen_texts

    table.listening = listening or Listening(model_dir=model_dir, profile=profile, lang=lang)
    env = Environment(
        loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(["html"])
    )
    texts = {**page_texts(), **listen_texts()}
    texts_json = _dumps(texts)
    pockets_json = _dumps(dict(POCKETS))
    has_diagram = True  # the scoreboard shows the standing call's route picture (diagram.py)
    asset_version = (
        _asset_version()
    )  # in the scripts' URLs: a new program is never run with an old script
    feed = None
    if club_url is not None:
        from ..club.sync import ClubSync
        from .club import BoardFeed

        table.club = ClubSync(
            db, club_url
        )  # checks the registration now, before the server starts
        feed = BoardFeed(club_url, lang)

    @asynccontextmanager
    async def lifespan(app):
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

    # -- guards ------------------------------------------------------------------------------
    def authorized(request: Request) -> Response | None:
        origin = request.headers.get("origin")
        if origin is not None:
            host = request.headers.get("host", "")
            if urlsplit(origin).netloc.lower() != host.lower():
                return _error(403, tr("a request from another site is refused"))
        auth = request.headers.get("authorization", "")
        scheme, _, given = auth.partition(" ")
        if scheme.lower() != "bearer" or not given:
            return _error(401, tr("the PIN is needed (Authorization: Bearer PIN)"))
        verdict = guard.check(_client(request), given.strip())
        if verdict.kind == "held":  # not even looked at: a guess is never checked early
            return _error(
                429,
                tr("too many wrong PINs from this device: try again in {s} s").format(
                    s=verdict.retry_after
                ),
                retry_after=verdict.retry_after,
            )
        if verdict.kind == "wrong":
            if verdict.retry_after:  # a hold began: the pads say that someone is guessing
                table.changed()
                return _error(
                    401,
                    tr(
                        "wrong PIN; too many wrong PINs from this device: the next try in {s} s"
                    ).format(s=verdict.retry_after),
                    retry_after=verdict.retry_after,
                )
            return _error(401, tr("wrong PIN"))
        return None

    def refused(exc: Exception) -> JSONResponse:
        return _error(422, str(exc))

    # -- pages -------------------------------------------------------------------------------
    def page(name: str, **extra) -> HTMLResponse:
        html = env.get_template(name).render(
            t=texts,
            texts_json=texts_json,
            state_json=table.payload(),
            pockets_json=pockets_json,
            lang=lang,
            has_diagram=has_diagram,
            has_club=feed is not None,
            asset_version=asset_version,
            **extra,
        )
        return HTMLResponse(
            html,
            headers={
                "Cache-Control": "no-store",
                "X-Frame-Options": "DENY",
                "Referrer-Policy": "no-referrer",
            },
        )

    async def scoreboard(request: Request) -> Response:
        return page("scoreboard.html")

    async def pad(request: Request) -> Response:
        return page("pad.html")

    async def favicon(request: Request) -> Response:
        return Response(
            FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    def club_page(board_json: str) -> HTMLResponse:
        from .texts import board_texts

        t = board_texts()
        html = env.get_template("club.html").render(
            t=t, texts_json=_dumps(t), lang=lang, table_link=True, board_json=board_json
        )
        return HTMLResponse(
            html,
            headers={
                "Cache-Control": "no-store",
                "X-Frame-Options": "DENY",
                "Referrer-Policy": "no-referrer",
            },
        )

    # -- API: reading ------------------------------------------------------------------------
    async def api_state(request: Request) -> Response:
        return Response(table.payload(), media_type="application/json")

    async def api_events(request: Request) -> Response:
        return state_stream(table.listeners, table.payload())

    async def api_diagram(request: Request) -> Response:
        text = request.query_params.get("call", "")
        if not text.strip() or len(text) > 500:
            return _error(422, tr("give the call: ?call=TEXT (at most 500 characters)"))
        from ..teach import diagram

        try:
            svg = diagram.call_svg(text, lang=lang)
        except (UserError, ValueError) as exc:
            return refused(exc)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    # -- API: changes (the PIN) ----------------------------------------------------------------
    async def api_call(request: Request) -> Response:
        """The call heard or typed before the strike: checked now and shown as standing."""
        if (denied := authorized(request)) is not None:
            return denied
        try:
            data = await _body(request)
            text = _call_field(data, None)
            reading = table.session.read_call(text)
            _typo(reading)
        except UserError as exc:
            return refused(exc)
        try:
            table.set_standing(None if reading.status == "none" else reading)
        except StoreError as exc:
            return _error(503, str(exc))
        table.changed()
        return JSONResponse(call_json(reading, lang))

    async def api_strokes(request: Request) -> Response:
        if (denied := authorized(request)) is not None:
            return denied
        s = table.session
        try:
            data = await _body(request)
            standing = table.standing
            outcome = _outcome_field(data)
            if "call" not in data and standing is not None and standing.source == "listen":
                reading = (
                    standing.reading
                )  # as the voice referee decided it at the strike (late, refused …)
                # Q13: heard with no strike after it: the stroke takes it, «удар не услышан — …»
                note = standing.strike_note()
            else:
                text = _call_field(data, standing.reading.text if standing else None)
                reading = s.read_call(text)
                _typo(reading)
                # the call typed here: only the strikes taken back before it are the voice's (Q14)
                note = (
                    {"taken_back": list(standing.taken_back)}
                    if standing is not None and standing.taken_back
                    else None
                )
            entered = s.enter(
                reading.text, outcome, reading=reading, strike=note
            )  # committed here
        except StoreConflict as exc:
            table.reopen()  # another program wrote a stroke: show the record as it is now
            table.changed()
            return _error(409, str(exc))
        except (
            StoreError
        ) as exc:  # the database itself (locked, unwritable): not the input's fault
            return _error(503, str(exc))
        except UserError as exc:
            return refused(exc)
        table.standing_version = (
            s.standing_version()
        )  # the stroke cleared it in its own transaction
        table.committed()
        table.changed()  # the pages have it now …
        s.mark_shown(entered.seq)  # … so a resume after a kill will not name it as unshown
        return JSONResponse({**entered.record.verdict, "seq": entered.seq})

    async def api_take_back(request: Request) -> Response:
        """Q14: the marker takes back the strike that made the standing call late (a consonant, a
        knock on the rail): the strike is void, the call counts again; the record keeps it.
        Body: ``{}`` or ``{"strike": SECONDS}`` (then it must be that strike)."""
        if (denied := authorized(request)) is not None:
            return denied
        s = table.session
        try:
            data = await _body(request)
            standing = table.standing
            given = data.get("strike")
            if given is not None and (
                isinstance(given, bool) or not isinstance(given, (int, float))
            ):
                raise _bad_json(tr("«strike» must be the strike's time in seconds"))
            if (
                standing is not None
                and given is not None
                and standing.strike is not None
                and abs(float(given) - standing.strike) > 0.001
            ):
                raise StrokeInputError(
                    tr("the strike at {t:.2f} s is no longer the one standing").format(
                        t=float(given)
                    )
                )
            if standing is None:
                raise StrokeInputError(
                    tr("no strike to take back: the standing call was not made late by a strike")
                )
            table.standing_version = s.take_back_strike(standing)
        except StoreError as exc:
            return _error(503, str(exc))
        except UserError as exc:
            return refused(exc)
        table.changed()
        return JSONResponse(
            {"taken_back": standing.strike, "standing_call": call_json(None, lang, table.standing)}
        )

    def _change(action: str):
        async def handler(request: Request) -> Response:
            if (denied := authorized(request)) is not None:
                return denied
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
                return refused(exc)
            if seq is not None:
                table.committed()
                table.changed()
            return JSONResponse({"seq": seq})

        return handler

    async def api_pin(request: Request) -> Response:
        """The pad checks a typed PIN here before it shows the buttons; nothing changes."""
        denied = authorized(request)
        return denied if denied is not None else Response(status_code=204)

    async def api_pin_change(request: Request) -> Response:
        """A new PIN, from the marker who gives the current one: ``{"pin": "NEW"}``. The server goes
        on; every pad with the old PIN asks for the new one."""
        if (denied := authorized(request)) is not None:
            return denied
        try:
            data = await _body(request)
        except UserError as exc:
            return refused(exc)
        new = data.get("pin")
        if not isinstance(new, str):
            return _error(422, tr('give the new PIN: {"pin": "…"}'))
        try:
            guard.change(new.strip(), _client(request))
        except ValueError as exc:
            return _error(422, str(exc))
        table.changed()  # the pads' alert is answered
        return Response(status_code=204)

    async def api_new(request: Request) -> Response:
        """A new match with the same players, settings and length (the pad's «Новый матч»)."""
        if (denied := authorized(request)) is not None:
            return denied
        s = table.session
        try:
            await _body(request)
            new = Session.create(
                table.store, s.players, s.settings.to_json(), None, lang=lang, to_wins=s.to_wins
            )
        except UserError as exc:
            return refused(exc)
        table.match_id, table.session = new.id, new
        table.standing_version = new.standing_version()
        table.committed()
        table.changed()
        return JSONResponse({"match": new.id})

    # -- the tablet's ears -------------------------------------------------------------------------
    def publish_event(kind: str, item: dict) -> None:
        publish(table.listeners, (kind, _dumps(item)))

    def on_decision(d) -> None:
        """A strike heard on the tablet's stream, decided: its call stands for the stroke, as
        ``listen --pad`` stores it; the marker taps the outcome."""
        from ..referee.listen import reading_of

        try:
            table.standing_version = table.session.set_standing(
                reading_of(d, lang), source="listen", strike=d.strike
            )
        except StoreError as exc:
            table.notices.append(str(exc))
        table.changed()

    api_listen = listen_route(
        table,
        guard,
        publish_event=publish_event,
        on_decision=on_decision,
        client_of=_client,
        clock=clock or time.monotonic,
    )

    routes = [
        Route("/", scoreboard),
        Route("/pad", pad),
        Route("/favicon.ico", favicon),  # asked for by every browser: the table's icon, not a 404
        Route("/api/state", api_state),
        Route("/api/events", api_events),
        Route("/api/diagram.svg", api_diagram),
        Route("/api/call", api_call, methods=["POST"]),
        Route("/api/strokes", api_strokes, methods=["POST"]),
        Route("/api/strike/take-back", api_take_back, methods=["POST"]),
        Route("/api/undo", _change("undo"), methods=["POST"]),
        Route("/api/redo", _change("redo"), methods=["POST"]),
        Route("/api/new", api_new, methods=["POST"]),
        Route("/api/pin", api_pin, methods=["POST"]),
        Route("/api/pin/change", api_pin_change, methods=["POST"]),
        WebSocketRoute("/api/listen", api_listen),
        *learn_routes(page, lang),  # /learn and its read-only API: no PIN, no store
        *(
            [] if feed is None else board_routes(feed, club_page, at_root=False)
        ),  # /club: read-only, no PIN
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.table = table
    app.state.feed = feed
    return app


def _asset_version() -> str:
    import hashlib

    h = hashlib.sha256()
    for f in sorted((HERE / "static").iterdir()):
        h.update(f.name.encode() + f.read_bytes())
    return h.hexdigest()[:12]


def _client(request: Request) -> str:
    """Who is asking, for the PIN's guard: the peer's address (never a header the client writes)."""
    return request.client.host if request.client is not None else "?"


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _typo(reading: CallReading) -> None:
    """As in ``play``: a word the parser does not know is the marker's typo, not the player's call."""
    if reading.status == "refused" and (reading.refusal or {}).get("code") == "unknown_word":
        raise StrokeInputError(
            tr("nothing recorded: {why} — looks like a typo; type the call again").format(
                why=reading.refusal.get("message", "")
            )
        )
