"""Server-sent events: one stream a page, fed from a set of queues its source publishes to.

Both the table (``/api/events``) and the club board (``/api/club/events``) stream the same way:
the current state first, then one ``state`` event a change, a comment every ``KEEPALIVE_S`` so a
proxy or a tablet's Wi-Fi does not drop a quiet stream, and the end when the source puts ``None``.
"""

from __future__ import annotations

import asyncio

from starlette.responses import StreamingResponse

KEEPALIVE_S = 15.0
QUEUE_SIZE = 16  # a page this far behind is sent the newest items only (the source drops the rest)


def state_stream(listeners: set, current: str) -> StreamingResponse:
    """A page's event stream: ``current`` at once, then what the source puts into its queue."""
    queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_SIZE)
    queue.put_nowait(current)
    listeners.add(queue)

    async def stream():
        try:
            while True:
                try:
                    data = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                if data is None:
                    return
                kind = "state"
                if isinstance(
                    data, tuple
                ):  # (kind, data): a ``words`` or ``strike`` event of the tablet's ears
                    kind, data = data
                yield f"event: {kind}\ndata: {data}\n\n"
        finally:
            listeners.discard(queue)

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def publish(listeners: set, data: str) -> None:
    """Send ``data`` to every open stream; a page that does not read only
    needs the newest state."""
    for q in list(listeners):
        if q.full():
            try:
                q.get_nowait()
            except asyncio.QueueEmpty:
                pass
        q.put_nowait(data)


def end_all(listeners: set) -> None:
    """End every open stream (the server is stopping: it waits for them to close)."""
    for q in list(listeners):
        while not q.empty():
            q.get_nowait()
        q.put_nowait(None)
