"""The table's web face (``pyramid-referee serve``): the scoreboard, the marker's pad, the JSON
API.

- ``view``: the state the pages show (``GET /api/state``), built from the same ``Session`` as
  ``play``.
- ``texts``: every word the pages show, through the message catalog (Russian by default).
- ``app``: the Starlette application (pages, API, server-sent events, the PIN check).
- ``club``: the club board (``serve --club``): ``/club``, ``/api/club/state``,
  ``/api/club/events``, fed by one ``LISTEN club_board`` connection (``BoardFeed``).
The ``serve`` subcommand (uvicorn, the printed URL, the QR code) is the command line's:
``cli/serve.py``.

Starlette, uvicorn and Jinja2 are imported only when ``serve`` runs, so the other commands
start as fast as before.
"""
