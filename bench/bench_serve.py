"""Benchmark ``serve``: verdict → scoreboard update with many open scoreboards, page weight, first
paint.

    .venv/bin/python bench/bench_serve.py [--clients 50] [--strokes 40] [--no-browser]

Prints:
- the latency from sending a stroke (``POST /api/strokes``, which judges and commits it) to its
  state arriving at each of ``--clients`` open scoreboard streams (``GET /api/events``, the
  stream every scoreboard page reads): p50, p95, max over every stroke and client. The bar is
  p95 ≤ 100 ms with 50 open pages. Each stroke is taken back (``/api/undo``) before the next,
  so the game never ends; the undo's updates are measured too;
- the same from the stroke to the new score drawn in one real scoreboard page (headless
  Chromium; measured on the page's clock, so it includes the browser's parsing and drawing);
- the scoreboard's page weight: the bytes of its HTML, CSS and JS (the bar is ≤ 200 KB);
- first paint on the tablet size (768×1024) from a cold server start: from launching
  ``serve`` to the page's first contentful paint (the bar is ≤ 1 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from web_server import Server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
MISS = {"call": None, "outcome": {"events": [], "fouls": ["а"], "route_ok": False}}


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class Stream:
    """One open scoreboard: reads the event stream, stamps each state's arrival."""

    def __init__(self) -> None:
        self.arrivals: list[
            tuple[float, int]
        ] = []  # (time, seq), the first one being the initial state

    async def run(
        self, host: str, port: int, ready: asyncio.Event, n_ready: list, total: int
    ) -> None:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(
            (
                f"GET /api/events HTTP/1.1\r\nHost: {host}:{port}\r\n"
                "Accept: text/event-stream\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # the response head
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if b"data: " in line:  # a chunk of the (chunked) stream holds whole events
                    data = line.split(b"data: ", 1)[1]
                    self.arrivals.append((time.perf_counter(), json.loads(data)["seq"]))
                    if len(self.arrivals) == 1:
                        n_ready[0] += 1
                        if n_ready[0] == total:
                            ready.set()
        finally:
            writer.close()


def sse_latency(srv: Server, clients: int, strokes: int) -> dict:
    u = urlsplit(srv.base)
    streams = [Stream() for _ in range(clients)]
    sent: list[tuple[float, str]] = []
    loop = asyncio.new_event_loop()
    ready = asyncio.Event()
    n_ready = [0]
    tasks = []

    def drive() -> None:
        asyncio.run_coroutine_threadsafe(asyncio.wait_for(ready.wait(), 30), loop).result()
        for _ in range(strokes):
            for path, body, kind in (("/api/strokes", MISS, "stroke"), ("/api/undo", {}, "undo")):
                n = len(sent)
                sent.append((time.perf_counter(), kind))
                srv.post(path, body)
                deadline = time.monotonic() + 5
                while (
                    any(len(s.arrivals) < n + 2 for s in streams) and time.monotonic() < deadline
                ):
                    time.sleep(0.0005)
        for t in tasks:
            loop.call_soon_threadsafe(t.cancel)

    async def main() -> None:
        for s in streams:
            tasks.append(asyncio.ensure_future(s.run(u.hostname, u.port, ready, n_ready, clients)))
        await asyncio.gather(*tasks, return_exceptions=True)

    th = threading.Thread(target=drive)
    th.start()
    loop.run_until_complete(main())
    th.join()
    loop.close()
    lat = {"stroke": [], "undo": []}
    missing = 0
    for s in streams:
        for i, (t0, kind) in enumerate(sent):
            if i + 1 < len(s.arrivals):
                lat[kind].append((s.arrivals[i + 1][0] - t0) * 1000)
            else:
                missing += 1
    return {**lat, "missing": missing}


def page_weight(srv: Server) -> dict:
    sizes = {}
    for path in ("/", "/static/board.css", "/static/board.js"):
        with urllib.request.urlopen(srv.base + path) as r:
            sizes[path] = len(r.read())
    return sizes


def browser_latency(srv: Server, strokes: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = b.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(srv.base + "/")
        page.wait_for_function("window.boardState !== undefined")
        for _ in range(strokes):
            for path, body, seq in (("/api/strokes", MISS, "1"), ("/api/undo", {}, "0")):
                # the page's clock and ours differ: measure on the page, from just before the POST
                t0 = page.evaluate("performance.now()")
                srv.post(path, body)
                page.wait_for_function(f"document.body.dataset.seq === '{seq}'", polling="raf")
                if seq == "1":
                    out.append(page.evaluate("window.boardRendered") - t0)
        b.close()
    return out


def first_paint(db: Path) -> tuple[float, float]:
    """(ms from launching serve to the first contentful paint, ms of that
    from navigation to paint)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = b.new_page(viewport={"width": 768, "height": 1024})
        page.goto("about:blank")
        t_launch = time.time()
        srv = Server(db, "--match", "1")
        try:
            page.goto(srv.base + "/")
            fcp = page.evaluate("""() => new Promise(res => {
                const e = performance.getEntriesByName('first-contentful-paint')[0];
                if (e) return res(e.startTime);
                new PerformanceObserver(l => res(l.getEntries()[0].startTime))
                    .observe({type: 'paint', buffered: true});
            })""")
            origin = page.evaluate("performance.timeOrigin")
        finally:
            srv.stop()
            b.close()
    return origin + fcp - t_launch * 1000, fcp


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--strokes", type=int, default=40)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "bench.db"
        srv = Server(db, "--players", "Иван", "Пётр")
        try:
            r = sse_latency(srv, args.clients, args.strokes)
            for kind in ("stroke", "undo"):
                xs = r[kind]
                print(
                    f"{kind} → update at {args.clients} open scoreboards ({len(xs)} deliveries): "
                    f"p50 {pct(xs, 50):.1f} ms, p95 {pct(xs, 95):.1f} ms, max {max(xs):.1f} ms"
                )
            print(f"deliveries missing: {r['missing']}")
            sizes = page_weight(srv)
            print(
                f"scoreboard page weight: {sum(sizes.values())} bytes "
                + "("
                + ", ".join(f"{k} {v}" for k, v in sizes.items())
                + ")"
            )
            if not args.no_browser and Path(CHROMIUM).exists():
                xs = browser_latency(srv, min(args.strokes, 20))
                print(
                    f"stroke → score drawn in a Chromium scoreboard page: p50 {pct(xs, 50):.1f} "
                    f"ms, p95 {pct(xs, 95):.1f} ms, max {max(xs):.1f} ms"
                )
        finally:
            srv.stop()
        if not args.no_browser and Path(CHROMIUM).exists():
            runs = [first_paint(db) for _ in range(3)]
            total = [t for t, _ in runs]
            print(
                "first paint at 768x1024 from a cold serve start: median "
                f"{statistics.median(total):.0f} ms, max {max(total):.0f} ms "
                f"(of which navigation → paint: {statistics.median(f for _, f in runs):.0f} ms)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
