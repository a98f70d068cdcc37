"""Benchmark the tablet's ears: audio frames streamed to ``serve``'s ``WS /api/listen``
at real time.

    .venv/bin/python bench/bench_serve_listen.py [--tables 1 4] [--seconds 20]

For each count of tables, that many real ``serve`` processes (one table each) get a client
streaming 20 ms frames of a recorded table (strikes from the shared sound folder, read in
place) at real time, as a tablet's pad does. Prints:

- frame → scoreboard latency beyond the detector's own decision time: for each strike, from
  sending the frame whose audio lets the detector decide it (found by running the same detector
  offline over the same 20 ms frames) to the ``strike`` event arriving on the scoreboard's event
  stream (``GET /api/events``), and to the ``strike`` message on the socket: p50, p95, max
  (the bar: p95 ≤ 100 ms);
- ``serve``'s CPU per listening table (user + system time of the process over the stream, after
  a 1 s warm-up stream that loads the detector's models, which a process does once; as a
  share of one core; no speech model here, so the strike detector alone: a Vosk model adds its
  own cost);
- whether every table got every strike and no socket was closed (no audio dropped: the server
  takes each frame before the next is read).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "corpora" / "audio"))
from web_server import Server  # noqa: E402

FRAME = 320


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def table_audio(seconds: float) -> np.ndarray:
    import table_mix

    x, _ = table_mix.strike_sample()
    rng = np.random.default_rng(11)
    noise = lambda s: (1e-3 * rng.standard_normal(int(s * 16000))).astype(np.float32)  # noqa: E731
    parts = [noise(1.0)]
    while sum(map(len, parts)) / 16000 < seconds - 4.5:
        parts += [x[:16000], noise(3.4)]
    parts.append(noise(max(0.0, seconds - sum(map(len, parts)) / 16000)))
    return np.concatenate(parts)


def decided_at(audio: np.ndarray) -> dict[float, int]:
    """Each strike → the index of the 20 ms frame whose audio lets the detector decide it."""
    from pyramid_referee.voice.strike import StrikeDetector

    det = StrikeDetector()
    out = {}
    for k in range(len(audio) // FRAME):
        for t in det.feed(audio[k * FRAME : (k + 1) * FRAME], k * FRAME / 16000):
            out.setdefault(t, k)
    return {t: k for t, k in out.items() if t not in set(det.retracted)}


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sse_strikes(base: str, arrivals: dict, stop: threading.Event) -> None:
    """Follow the scoreboard's event stream; the arrival time of each confirmed strike event."""
    with urllib.request.urlopen(base + "/api/events", timeout=60) as r:
        kind = None
        for raw in r:
            if stop.is_set():
                return
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "strike":
                ev = json.loads(line[6:])
                if ev["provisional"]:
                    arrivals.setdefault(ev["t"], time.perf_counter())


async def stream(
    base: str,
    pin: str,
    audio: np.ndarray,
    sent: list,
    ws_arrivals: dict,
    closed: list,
    starts: list | None = None,
) -> None:
    import websockets

    url = base.replace("http://", "ws://") + "/api/listen"
    async with websockets.connect(url, origin=base, max_size=2**20) as ws:
        await ws.send(json.dumps({"pin": pin, "rate": 16000, "format": "s16le"}))
        ready = json.loads(await ws.recv())
        assert ready["type"] == "ready"
        if starts is not None:  # the stream's clock where this audio begins (after the warm-up)
            starts.append(float(ready.get("t", 0.0)))

        async def reader():
            try:
                async for msg in ws:
                    m = json.loads(msg)
                    if m["type"] == "strike" and m["provisional"]:
                        ws_arrivals.setdefault(m["t"], time.perf_counter())
                    elif m["type"] == "error":
                        closed.append(m)
            except websockets.ConnectionClosed as exc:
                if exc.code != 1000:
                    closed.append(str(exc))

        task = asyncio.create_task(reader())
        pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2")
        t0 = time.perf_counter()
        for k in range(len(pcm) // FRAME):
            due = t0 + k * FRAME / 16000
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            sent.append(time.perf_counter())
            await ws.send(pcm[k * FRAME : (k + 1) * FRAME].tobytes())
        await asyncio.sleep(0.5)
        await ws.send('{"type":"stop"}')
        await asyncio.wait_for(task, 5)


def run(tables: int, seconds: float) -> dict:
    audio = table_audio(seconds)
    want = decided_at(audio)
    tmp = Path(tempfile.mkdtemp(prefix="bench-listen-"))
    servers = [
        Server(tmp / f"t{i}.db", "--players", "А", "Б", "--model", str(tmp / "no-model"))
        for i in range(tables)
    ]
    try:
        stops, threads, sse, wsa, sent, closed = [], [], [], [], [], []
        starts: list[list[float]] = [[] for _ in servers]
        for s in servers:
            arrivals, stop = {}, threading.Event()
            th = threading.Thread(target=sse_strikes, args=(s.base, arrivals, stop), daemon=True)
            th.start()
            sse.append(arrivals), stops.append(stop), threads.append(th)
            wsa.append({}), sent.append([]), closed.append([])
        time.sleep(0.5)

        async def warm_up():  # a first stream loads the detector's models once a process: 1 s
            await asyncio.gather(
                *(stream(s.base, s.pin, audio[:16000], [], {}, []) for s in servers)
            )

        asyncio.run(warm_up())  # not counted: the CPU share is a listening table's steady cost
        time.sleep(0.5)
        cpu0 = [cpu_s(s.proc.pid) for s in servers]
        w0 = time.perf_counter()

        async def all_tables():
            await asyncio.gather(
                *(
                    stream(s.base, s.pin, audio, sent[i], wsa[i], closed[i], starts[i])
                    for i, s in enumerate(servers)
                )
            )

        asyncio.run(all_tables())
        wall = time.perf_counter() - w0
        cpu = [cpu_s(s.proc.pid) - c for s, c in zip(servers, cpu0)]
        for st in stops:
            st.set()
    finally:
        for s in servers:
            s.stop()
    lat_sse, lat_ws, missing = [], [], 0
    for i in range(tables):
        for t, k in want.items():
            t_stream = t + (starts[i][0] if starts[i] else 0.0)
            got = [a for tt, a in sse[i].items() if abs(tt - t_stream) <= 0.02]
            gw = [a for tt, a in wsa[i].items() if abs(tt - t_stream) <= 0.02]
            if not got or not gw:
                missing += 1
                continue
            lat_sse.append((got[0] - sent[i][k]) * 1000)
            lat_ws.append((gw[0] - sent[i][k]) * 1000)
    return {
        "tables": tables,
        "strikes": len(want) * tables,
        "missing": missing,
        "closed": sum(len(c) for c in closed),
        "sse_ms": lat_sse,
        "ws_ms": lat_ws,
        "cpu_share": [c / wall for c in cpu],
        "wall": wall,
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 4])
    ap.add_argument("--seconds", type=float, default=20.0)
    a = ap.parse_args()
    for n in a.tables:
        r = run(n, a.seconds)
        print(
            f"{n} table(s) listening, {a.seconds:.0f} s of 20 ms frames at real time each "
            f"(strike detector; no speech model):"
        )
        for name, xs in (
            ("frame → scoreboard event (/api/events)", r["sse_ms"]),
            ("frame → socket strike message", r["ws_ms"]),
        ):
            print(
                f"  {name}, beyond the detector's decision: p50 {pct(xs, 50):.1f} ms, "
                f"p95 {pct(xs, 95):.1f} ms, max {max(xs) if xs else float('nan'):.1f} ms "
                f"({len(xs)} strikes; bar p95 ≤ 100 ms)"
            )
        print(
            f"  serve CPU per listening table: {statistics.mean(r['cpu_share']) * 100:.1f} % of "
            f"one core (max {max(r['cpu_share']) * 100:.1f} %)"
        )
        print(
            f"  strikes missed: {r['missing']} of {r['strikes']}; "
            f"sockets closed by the server: {r['closed']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
