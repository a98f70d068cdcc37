"""Who listens at a table, told through a small file beside the match store.

``listen --pad`` is the table's ears from another process: it says so in
``<store>.listen-<match>.json`` (``{"source": "listen", "match", "pid", "host", "since",
"beat"}``), beats every ``BEAT_S`` while it runs and removes the file when it stops. ``serve``
reads it for ``/api/state``'s ``listening`` (``"source": "listen"``); a file whose beat is older
than ``STALE_S`` (a ``listen`` killed before it could remove it) says nothing.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

BEAT_S = 2.0
STALE_S = 3 * BEAT_S


def ears_path(store_path: str | os.PathLike, match_id: int) -> Path:
    p = Path(store_path)
    return p.with_name(f"{p.name}.listen-{int(match_id)}.json")


def read_ears(store_path: str | os.PathLike, match_id: int, now: float | None = None):
    """The notice of a live ``listen --pad`` at this match, or None (none, unreadable, stale)."""
    try:
        data = json.loads(ears_path(store_path, match_id).read_text("utf-8"))
        beat = float(data["beat"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if (time.time() if now is None else now) - beat > STALE_S:
        return None
    return data


class EarsNotice:
    """The notice ``listen --pad`` keeps while it hears the table (a daemon thread beats it)."""

    def __init__(self, store_path: str | os.PathLike, match_id: int, source: str = "listen"):
        self.path = ears_path(store_path, match_id)
        self.data = {
            "source": source,
            "match": int(match_id),
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _write(self) -> None:
        tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({**self.data, "beat": time.time()}), "utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass  # a read-only folder: the pages just do not learn who listens

    def start(self) -> EarsNotice:
        self._write()
        self._thread = threading.Thread(target=self._beat, name="ears-notice", daemon=True)
        self._thread.start()
        return self

    def _beat(self) -> None:
        while not self._stop.wait(BEAT_S):
            self._write()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        try:
            self.path.unlink()
        except OSError:
            pass
