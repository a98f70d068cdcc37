"""The club sync in a child process: a table's stroke never shares the interpreter with it.

Run as a thread, the sync's Python work (reading the batch, encoding parameters, psycopg's
protocol) holds the GIL, and a stroke that needs it waits up to the switch interval (5 ms):
``bench/bench_club.py`` measured it. Here the same ``ClubSync`` runs in a child process
(multiprocessing, *spawn*: the table's threads are not forked):

- ``notify`` counts the stroke in shared memory and rings a doorbell (an empty message down a
  pipe) only when the child has read the last ring: a burst of strokes wakes it once;
- the child publishes each status a drain leaves behind into shared memory: whether the
  server answered, the queue the drain saw (its strokes, and apart its undos and redos), and the
  table's counts of notifications as the drain began; ``status`` adds the notifications counted
  since, with no query and no message;
- the table closing the pipe (``stop``, or the table killed) makes the child drain one last
  time and exit: no sync outlives its table.

Every guarantee stays ``ClubSync``'s: the stroke is committed locally before ``notify``, the
batches go in order, idempotently, and resume from ``club_sent`` after an outage.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
from multiprocessing import resource_tracker

from .sync import ClubSync, SyncStatus, queued_now

_UNKNOWN, _OFFLINE, _ONLINE, _REFUSED, _NO_KEY, _CONFLICT = (
    -1,
    0,
    1,
    2,
    3,
    4,
)  # refused: for the login, for the key
# the shared array: the last drain's status (its queue, and the strokes the store held when it
# counted it), the table's notifications, the doorbell, a conflict's match and seq; then the same
# counts of undos and redos (not strokes: counted apart); then the strokes, and the undos and
# redos, the store held when the sync began (sync.queued_now)
_S_ONLINE, _S_QUEUED, _S_MADE, _S_SENT, _S_ARMED, _S_CMATCH, _S_CSEQ = range(7)
_S_CHANGES, _S_MADE_CHANGES, _S_SENT_CHANGES, _S_BASE, _S_BASE_CHANGES = range(7, 12)
START_TIMEOUT_S = 30.0


def _queued(shared) -> tuple[int, int]:
    """(strokes, undos and redos) waiting now, from the shared array (its lock held)."""
    return (
        queued_now(shared[_S_QUEUED], shared[_S_MADE], shared[_S_BASE], shared[_S_SENT]),
        queued_now(
            shared[_S_CHANGES],
            shared[_S_MADE_CHANGES],
            shared[_S_BASE_CHANGES],
            shared[_S_SENT_CHANGES],
        ),
    )


class _ChildSync(ClubSync):
    """The child's ClubSync: publishes its status with the notifications it had seen."""

    def __init__(self, db_path, url: str, retry_s: float, shared, lang: str) -> None:
        self._shared = shared
        super().__init__(
            db_path, url, retry_s=retry_s, check=False, lang=lang
        )  # the table checked it before spawning

    def _strokes_queued(self) -> int:
        """Counted with the table's notifications (a ring of the doorbell may stand for several
        strokes, or undos)."""
        with self._shared.get_lock():
            return _queued(self._shared)[0]

    def _status_changed(self, st: SyncStatus, made: tuple[int, int]) -> None:
        online = (
            _CONFLICT
            if st.conflict is not None
            else _UNKNOWN
            if st.online is None
            else (
                _ONLINE
                if st.online
                else _NO_KEY
                if st.unknown_key
                else _REFUSED
                if st.refused
                else _OFFLINE
            )
        )
        with self._shared.get_lock():
            self._shared[_S_ONLINE], self._shared[_S_QUEUED], self._shared[_S_MADE] = (
                online,
                st.queued,
                made[0],
            )
            self._shared[_S_CHANGES], self._shared[_S_MADE_CHANGES] = (st.changes, made[1])
            if st.conflict is not None:
                match, seq = st.conflict
                self._shared[_S_CMATCH], self._shared[_S_CSEQ] = match, -1 if seq is None else seq


def _ignore_sigint() -> None:
    """The child's first step: SIGINT ignored, then unblocked (it was spawned blocked, see
    ``_sigint_held``): a Ctrl-C pressed while it imported was held, and is dropped now."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _child(db_path: str, url: str, retry_s: float, shared, doorbell, lang: str) -> None:
    # Ctrl-C at the terminal reaches the whole process group: the table saves its match and closes
    # the pipe, which ends the child after its last drain; interrupted itself, it would print a
    # traceback under the table's goodbye and could cut that drain short.
    _ignore_sigint()
    # Not niced: a lower priority would let the child be preempted while it holds the store's
    # write lock (its club_sent mark), and the table's commit would wait for it (inversion).
    sync = _ChildSync(db_path, url, retry_s, shared, lang).start()
    try:
        while True:
            with shared.get_lock():
                shared[_S_ARMED] = (
                    1  # before the drain it causes: a stroke committed after it rings again
                )
            try:
                doorbell.recv_bytes()
            except (EOFError, OSError):  # the table stopped or died
                break
            sync.notify()
    finally:
        sync.stop()


@contextlib.contextmanager
def _sigint_held():
    """The child is spawned with SIGINT blocked, so that a Ctrl-C while it still imports stays
    pending in it until it ignores SIGINT (``_child``), and the table's Ctrl-C pressed meanwhile
    is held and delivered to the table's own handler once the child is out.

    Blocking, not ignoring, in the table: a signal to the process goes to any thread that does not
    block it, and one that finds SIGINT ignored drops it (a table with other threads lost a Ctrl-C
    that way). A thread's mask goes through exec, a handler does not (it becomes the default):
    so SIGINT is blocked in this thread, which the child inherits, and meanwhile a holding
    handler notes a Ctrl-C another thread took; both come back to the table once the child is out.
    Where this thread may not set handlers (not the main thread), the child still starts
    blocked."""
    # multiprocessing starts its resource tracker with the first process it spawns, and unblocks
    # SIGINT in this thread once the tracker is out (bpo-33613): started first, it cannot undo
    # the mask below before the child is spawned
    resource_tracker.ensure_running()
    held: list[int] = []
    try:
        before = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    except ValueError:  # not the main thread: the mask alone
        before = None
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # one held here arrives now …
        if before is not None:
            signal.signal(signal.SIGINT, before)
            if held:  # … or was taken by another thread meanwhile: the table's handler gets it
                signal.raise_signal(signal.SIGINT)


class ClubSyncProcess:
    """``ClubSync``'s table-side interface (start, notify, status, stop), the work in a child."""

    def __init__(self, db_path, url: str, *, retry_s: float = 1.0, lang: str = "ru") -> None:
        """``lang``: what the sync's refusals and status line are said in."""
        probe = ClubSync(
            db_path, url, retry_s=retry_s, lang=lang
        )  # refuses an unregistered table here, at once
        self.db_path, self.url, self.retry_s = str(probe.db_path), url, retry_s
        self.lang = lang
        self.table_id, self.name = probe.table_id, probe.name
        ctx = multiprocessing.get_context("spawn")
        self._ctx = ctx
        first, (made, made_changes) = probe.status(), probe.base
        self._shared = ctx.Array(
            "q",
            [_UNKNOWN, first.queued, made, 0, 0, 0, 0, first.changes, made_changes, 0]
            + [made, made_changes],
        )
        self._doorbell = None
        self._proc = None

    def start(self) -> ClubSyncProcess:
        read_end, self._doorbell = self._ctx.Pipe(duplex=False)
        self._proc = self._ctx.Process(
            target=_child,
            name="club-sync",
            daemon=True,
            args=(self.db_path, self.url, self.retry_s, self._shared, read_end, self.lang),
        )
        with _sigint_held():  # the mask is inherited through exec: a Ctrl-C while the child
            self._proc.start()  # still imports waits for it to ignore SIGINT
        read_end.close()
        return self

    def notify(self, change: bool = False) -> None:
        """A stroke (``change``: an undo or a redo) was committed: count it, and ring the child
        unless a ring is still unread (the drain it causes reads every stroke committed before
        it)."""
        with self._shared.get_lock():
            self._shared[_S_SENT_CHANGES if change else _S_SENT] += 1
            ring = self._shared[_S_ARMED] == 1 and self._doorbell is not None
            if ring:
                self._shared[_S_ARMED] = 0
        if ring:
            try:
                self._doorbell.send_bytes(b"")
            except OSError:  # the child is gone: the next start sends the queue
                pass

    def status(self) -> SyncStatus:
        with self._shared.get_lock():
            online = self._shared[_S_ONLINE]
            queued, changes = _queued(self._shared)
            cmatch, cseq = self._shared[_S_CMATCH], self._shared[_S_CSEQ]
        conflict = None if online != _CONFLICT else (cmatch, None if cseq < 0 else cseq)
        return SyncStatus(
            None if online == _UNKNOWN else online in (_ONLINE, _CONFLICT),
            queued,
            refused=online in (_REFUSED, _NO_KEY),
            unknown_key=online == _NO_KEY,
            conflict=conflict,
            changes=changes,
        )

    def stop(self, timeout: float = 5.0) -> None:
        """Close the pipe: the child drains one last time (within ``timeout``) and exits."""
        if self._doorbell is not None:
            self._doorbell.close()
            self._doorbell = None
        if self._proc is not None:
            self._proc.join(timeout + START_TIMEOUT_S)
            if (
                self._proc.is_alive()
            ):  # a last drain stuck on a dead link: the queue stays for next time
                self._proc.terminate()
                self._proc.join(timeout)
