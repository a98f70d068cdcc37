"""``pyramid-referee serve``: the table's web face (docs/serve.md).

``serve [--db PATH] [--match ID | --players A B] [--host H] [--port P] [--pin PIN]
[--club URL]``: the scoreboard at ``/``, the marker's pad at ``/pad``, the JSON API under ``/api``.
It binds 127.0.0.1 unless told otherwise; ``--port 0`` takes a free port; the URLs are printed
before the first request is served. The pad's PIN is ``--pin`` or a random one, printed at start
and carried in the pad's URL (``/pad#pin=…``: after the ``#``, so it is never sent in a request
line or logged); on a network (``--host 0.0.0.0``) that URL is also printed as a QR code.

Which match: ``--match ID``, a new one with ``--players A B`` (and ``--to-wins``, ``--mode``),
else the latest unfinished one, as ``match resume`` takes it. Every check is made, and the
match opened, before the server starts: a bad option is one Russian line and exit 2.

``--club URL`` (or ``$PYRAMID_REFEREE_CLUB``): when this store is registered on that club server
(``club register``), the table is served as without it, its store replicates there in the
background (its status on the scoreboard) and the club board is at ``/club``; when it is not
(a manager's computer), the club board alone is served, at ``/``, and the banner says so.
"""

from __future__ import annotations

import argparse
import secrets
import signal
import socket
import sys

from ..i18n import UserError, get_lang, tr
from ..rules.settings import mode_setting
from ..web.pin import PIN_RE
from .options import add_players_option, add_to_wins_option, match_id, players_from
from .strikes import load_profile


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "serve",
        parents=[common],
        help=tr("the table's web face: the scoreboard, the marker's pad, the JSON API"),
        description=tr(
            "The scoreboard (/), the marker's pad (/pad) and the JSON API (/api) of one "
            "table, on this computer or the club's network; all pages work without internet."
        ),
    )
    _add_match_options(p)
    _add_network_options(p)
    _add_ears_options(p)
    p.set_defaults(handler=cmd_serve)


def _add_match_options(p: argparse.ArgumentParser) -> None:
    """The match served: the store, and a stored match or a new one's players and settings."""
    p.add_argument(
        "--db",
        metavar=tr("PATH"),
        default=None,
        help=tr("the match database (default: $PYRAMID_REFEREE_DB or the user data directory)"),
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--match", type=match_id, metavar=tr("ID"), help=tr("continue this stored match")
    )
    add_players_option(which)
    add_to_wins_option(p)
    p.add_argument(
        "--mode",
        choices=("clean", "ball-and-pocket"),
        help=tr("call mode (C1, Q9; default clean)"),
    )


def _add_network_options(p: argparse.ArgumentParser) -> None:
    """Where and how it is served: the address, the port, the PIN, the club, HTTPS."""
    p.add_argument(
        "--host",
        metavar=tr("HOST"),
        default="127.0.0.1",
        help=tr(
            "the address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: the "
            "club's network)"
        ),
    )
    p.add_argument(
        "--port",
        metavar=tr("PORT"),
        type=_port,
        default=8071,
        help=tr("the port (default 8071; 0: any free one)"),
    )
    p.add_argument(
        "--pin",
        metavar=tr("PIN"),
        default=None,
        help=tr(
            "the pad's PIN, 4 to 64 letters, digits, '-' or '_' (default: a random one, printed)"
        ),
    )
    p.add_argument(
        "--club",
        metavar="URL",
        default=None,
        help=tr(
            "the club server (postgresql://…; default: $PYRAMID_REFEREE_CLUB): a table registered "
            "there replicates to it and shows the club board at /club; on a computer that is no "
            "registered table, the club board alone is served"
        ),
    )
    p.add_argument(
        "--https",
        action="store_true",
        help=tr(
            "serve over HTTPS with a certificate made for this computer (kept in the user data "
            "folder; its fingerprint is printed): a tablet's browser gives its microphone to the "
            "pad only over HTTPS"
        ),
    )
    p.add_argument(
        "--cert-name",
        metavar=tr("NAME"),
        action="append",
        default=[],
        help=tr(
            "--https: one more name or address the certificate covers (besides this computer's "
            "names and addresses); may be repeated"
        ),
    )


def _add_ears_options(p: argparse.ArgumentParser) -> None:
    """The tablet's ears: the speech model and the table's strike profile."""
    p.add_argument(
        "--model",
        metavar=tr("DIR"),
        default=None,
        help=tr(
            "the Vosk model for the tablet's ears (default: $PYRAMID_VOSK_MODEL or the ones "
            "«model download» fetched); without one, strikes are heard and calls are not"
        ),
    )
    p.add_argument(
        "--profile",
        metavar=tr("NAME"),
        default=None,
        help=tr(
            "the table's strike profile for the tablet's ears (default: the saved default; "
            "«none»: none)"
        ),
    )


def _port(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = -1
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(
            tr("a port is a whole number from 0 to 65535, not {value}").format(value=value)
        )
    return n


def _open_match(args) -> int:
    """The match to serve, checked (and, with --players, created) before the server starts."""
    from ..match.session import NewMatch, Session  # deferred (heavy): only to open a match

    players = players_from(args.players)
    new = None
    if players is not None:
        settings = {"mode": mode_setting(args.mode)} if args.mode else {}
        new = NewMatch(players, settings, None, args.to_wins)
    s = Session.open_or_create(args.db, args.match, new, lang=get_lang())
    with s.store:
        if s.mismatches:
            raise UserError(s.mismatches[0].describe(get_lang()))
        return s.id


def _lan_address() -> str:
    """This computer's address on the club's network (no packet is sent), else its name."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UserError(
            tr("cannot listen on {host}:{port}: {why}").format(
                host=host, port=port, why=exc.strerror or exc
            )
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _is_registered(db, url: str) -> bool:
    """Is this computer's store registered as a table on that club server?"""
    from ..club.sync import _try_connect, load_link  # deferred: the club sync, only with --club
    from ..match.store import Store, StoreError  # deferred: the store (sqlite3)

    try:
        with Store(db, create=False, lang=get_lang()) as store:
            con = _try_connect(
                url
            )  # the server says what it is: an address spelt otherwise is the same server
            try:
                return load_link(store, url, con) is not None
            finally:
                if con is not None:
                    con.close()
    except StoreError:
        return False  # no store here: a manager's computer


def _base_url(args, sock) -> str:
    port = sock.getsockname()[1]
    shown = _lan_address() if args.host in ("0.0.0.0", "::") else args.host
    if ":" in shown:
        shown = f"[{shown}]"
    scheme = "https" if getattr(args, "https", False) else "http"
    return f"{scheme}://{shown}:{port}"


def _run(app, sock, on_exit, cert=None) -> None:
    import uvicorn  # deferred: the web server loads only for serve

    tls = (
        {}
        if cert is None
        else {"ssl_certfile": str(cert.cert_path), "ssl_keyfile": str(cert.key_path)}
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=2,
        lifespan="on",
        ws_max_size=64 * 1024,
        **tls,
    )

    class Server(uvicorn.Server):
        interrupted = False

        def handle_exit(self, sig, frame) -> None:
            self.interrupted = self.interrupted or sig == signal.SIGINT
            on_exit()  # open pages hold their event streams: end them, or Ctrl-C waits
            super().handle_exit(sig, frame)

    server = Server(config)
    server.run(sockets=[sock])
    # uvicorn raises the signal it caught again once it has shut down, which ends in the CLI's
    # KeyboardInterrupt (status 130); when that re-raise is lost (a signal during its own
    # shutdown), Ctrl-C must still end as an interrupt, not as a clean exit (status 0)
    if server.interrupted:
        raise KeyboardInterrupt


def _serve_board(args, url: str) -> int:
    """The club board alone: this computer is no registered table of that server."""
    import psycopg  # deferred: the PostgreSQL driver loads only for the club

    from ..club.sync import ClubError, connect, denied  # deferred: the club sync, only with --club

    # deferred: the web face (Starlette)
    from ..web.club import check_schema, create_board_app

    if args.players is not None or args.match is not None:
        raise UserError(
            tr(
                "this table is not registered on the club server; register it once: "
                "pyramid-referee club register --club URL --name NAME"
            ).format()
        )
    try:
        with connect(
            url, get_lang()
        ) as con:  # reachable, and a schema the board can read: said now, not on the page
            check_schema(con, get_lang())
    except (
        psycopg.Error
    ) as exc:  # e.g. a login that may not read the club's tables (role pyramid_board)
        raise ClubError(
            tr("the club server does not let this login read the board ({why})").format(
                why=denied(exc, get_lang())
            )
        ) from None
    app = create_board_app(url, lang=get_lang())
    sock = _bind(args.host, args.port)
    base = _base_url(args, sock)
    print(
        tr(
            "this computer is not a registered table of that club server: "
            "serving the club board alone"
        )
    )
    print(tr("club board: {url}").format(url=base + "/"))
    print(tr("Ctrl-C stops the server"), flush=True)
    feed = app.state.feed
    _run(
        app, sock, lambda: feed.loop.call_soon_threadsafe(feed.end_streams) if feed.loop else None
    )
    return 0


def cmd_serve(args) -> int:
    if args.pin is not None and not PIN_RE.match(args.pin):
        raise UserError(tr("--pin: 4 to 64 letters, digits, '-' or '_'"))
    from ..club.sync import from_args, server_id  # deferred: the club sync, only with --club

    url = from_args(args)
    if url is not None:
        server_id(url, get_lang())  # an address that is not understood: one line, exit 2
    try:  # deferred, and checked here: a missing web package is one clear line, not a traceback
        import uvicorn  # noqa: F401

        from ..web.app import create_app  # deferred: the web face (Starlette)
    except ImportError as exc:
        raise UserError(
            tr("the web face needs a package that is not installed: {name}").format(name=exc.name)
        ) from None
    if url is not None and not _is_registered(args.db, url):
        return _serve_board(args, url)
    pin = args.pin or f"{secrets.randbelow(10**6):06d}"
    cert = None
    if args.https:
        try:  # deferred, and checked here: cryptography loads only for --https
            import cryptography  # noqa: F401

            from ..web.tls import ensure_certificate
        except ImportError as exc:
            raise UserError(
                tr("the web face needs a package that is not installed: {name}").format(
                    name=exc.name
                )
            ) from None
        cert = ensure_certificate(tuple(args.cert_name))
    profile = load_profile(args.profile)
    mid = _open_match(args)
    app = create_app(
        args.db, mid, pin=pin, lang=get_lang(), club_url=url, model_dir=args.model, profile=profile
    )
    sock = _bind(args.host, args.port)
    base = _base_url(args, sock)
    pad_url = f"{base}/pad#pin={pin}"
    print(tr("match {id}").format(id=mid))
    print(tr("scoreboard: {url}").format(url=base + "/"))
    print(tr("marker's pad: {url}").format(url=pad_url))
    print(tr("PIN: {pin}").format(pin=pin))
    print(tr("teaching page: {url}").format(url=base + "/learn"))  # read-only: no PIN
    if cert is not None:
        print(
            (
                tr("a new certificate for this computer: {path}")
                if cert.made
                else tr("this computer's certificate: {path}")
            ).format(path=cert.cert_path)
        )
        print(
            tr(
                "its fingerprint (SHA-256; compare it on the tablet when it asks to accept the "
                "certificate): {fp}"
            ).format(fp=cert.fingerprint)
        )
        print(tr("names it covers: {names}").format(names=", ".join(cert.names)))
        print(tr("its key's SPKI hash (sha256/base64): {spki}").format(spki=cert.spki_sha256))
    if url is not None:
        print(tr("club board: {url}").format(url=base + "/club"))  # read-only: no PIN
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        import segno  # deferred: segno loads only for the QR code

        print(tr("the pad's QR code (scan it with the tablet):"))
        segno.make(pad_url, error="m").terminal(out=sys.stdout, compact=True)
    print(tr("Ctrl-C stops the server"), flush=True)
    table, feed = app.state.table, app.state.feed

    def on_exit() -> None:
        table.stopping()
        if feed is not None and feed.loop is not None:
            feed.loop.call_soon_threadsafe(feed.end_streams)

    _run(app, sock, on_exit, cert)
    return 0
