"""The club sync in a child process: a table's stroke never shares the interpreter with it.

Run as a thread, the sync's Python work (reading the batch, encoding parameters, psycopg's
protocol) holds the GIL, and a stroke that needs it waits up to the switch interval (5 ms):
``bench/bench_club.py`` measured it. Here the same ``ClubSync`` runs in a child process
(multiprocessing, *spawn*: the table's threads are not forked):

- ``notify`` sends an empty message down a pipe (a few microseconds) and counts it;
- the child publishes each status a drain leaves behind into shared memory: whether the
  server answered, the queue the drain saw, and how many notifications it had read when the
  drain began; ``status`` adds the notifications sent since, with no query and no message;
- the table closing the pipe (``stop``, or the table killed) makes the child drain one last
  time and exit: no sync outlives its table.

Every guarantee stays ``ClubSync``'s: the stroke is committed locally before ``notify``, the
batches go in order, idempotently, and resume from ``club_sent`` after an outage.
"""

from __future__ import annotations

import multiprocessing
import threading

from .sync import ClubSync, SyncStatus

_UNKNOWN, _OFFLINE, _ONLINE = -1, 0, 1
START_TIMEOUT_S = 30.0


class _ChildSync(ClubSync):
    """The child's ClubSync: counts the table's notifications and publishes its status."""

    def __init__(self, db_path, url: str, retry_s: float, shared) -> None:
        self._shared = shared
        self.read = 0  # notifications read from the pipe so far
        self._seen = 0  # ``read`` as the current drain began
        super().__init__(db_path, url, retry_s=retry_s)

    def _drain_began(self) -> None:
        self._seen = self.read

    def _status_changed(self, st: SyncStatus) -> None:
        online = _UNKNOWN if st.online is None else (_ONLINE if st.online else _OFFLINE)
        with self._shared.get_lock():
            self._shared[0], self._shared[1], self._shared[2] = online, st.queued, self._seen


NICE = 10  # the sync yields the CPU to the table: on a laptop's two cores a stroke never waits for it


def _child(db_path: str, url: str, retry_s: float, shared, wake) -> None:
    import os

    try:
        os.nice(NICE)
    except (AttributeError, OSError):  # not on this system: the sync still runs, at the table's priority
        pass
    sync = _ChildSync(db_path, url, retry_s, shared).start()
    try:
        while True:
            try:
                wake.recv_bytes()
            except (EOFError, OSError):  # the table stopped or died
                break
            sync.read += 1
            sync.notify()
    finally:
        sync.stop()


class ClubSyncProcess:
    """``ClubSync``'s table-side interface (start, notify, status, stop), the work in a child."""

    def __init__(self, db_path, url: str, *, retry_s: float = 1.0) -> None:
        probe = ClubSync(db_path, url, retry_s=retry_s)  # refuses an unregistered table here, at once
        self.db_path, self.url, self.retry_s = str(db_path), url, retry_s
        self.table_id, self.name = probe.table_id, probe.name
        ctx = multiprocessing.get_context("spawn")
        self._ctx = ctx
        self._shared = ctx.Array("q", [_UNKNOWN, probe.status().queued, 0])
        self._sent = 0  # notifications sent to the child
        self._wake = None
        self._proc = None
        self._lock = threading.Lock()  # notify may come from more than one of the table's threads

    def start(self) -> "ClubSyncProcess":
        read_end, self._wake = self._ctx.Pipe(duplex=False)
        self._proc = self._ctx.Process(target=_child, name="club-sync", daemon=True,
                                       args=(self.db_path, self.url, self.retry_s, self._shared, read_end))
        self._proc.start()
        read_end.close()
        return self

    def notify(self) -> None:
        """A stroke (undo, redo) was committed: drain soon."""
        with self._lock:
            self._sent += 1
            if self._wake is not None:
                try:
                    self._wake.send_bytes(b"")
                except OSError:  # the child is gone: the next start sends the queue
                    pass

    def status(self) -> SyncStatus:
        with self._shared.get_lock():
            online, queued, seen = self._shared[0], self._shared[1], self._shared[2]
        return SyncStatus(None if online == _UNKNOWN else online == _ONLINE, queued + self._sent - seen)

    def stop(self, timeout: float = 5.0) -> None:
        """Close the pipe: the child drains one last time (within ``timeout``) and exits."""
        if self._wake is not None:
            self._wake.close()
            self._wake = None
        if self._proc is not None:
            self._proc.join(timeout + START_TIMEOUT_S)
            if self._proc.is_alive():  # a last drain stuck on a dead link: the queue stays for next time
                self._proc.terminate()
                self._proc.join(timeout)
