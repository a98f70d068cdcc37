"""A real ``pyramid-referee serve`` in a subprocess, for the browser tests and the bench."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

URL_LINE = re.compile(r"(https?://\S+/)\s*$")


class Server:
    def __init__(self, db: Path, *args: str, pin: str = "2468", env: dict | None = None) -> None:
        self.pin = pin
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pyramid_referee",
                "serve",
                "--db",
                str(db),
                "--port",
                "0",
                "--pin",
                pin,
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **(env or {})},
        )
        self.lines: list[str] = []
        self.base = None
        deadline = time.monotonic() + 30
        while self.base is None or not any(
            "Ctrl-C" in line for line in self.lines
        ):  # the whole banner
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("serve ended: " + self.proc.stderr.read())
            self.lines.append(line.rstrip("\n"))
            m = URL_LINE.search(line)
            if m and self.base is None and "/pad" not in line:
                self.base = m.group(1).rstrip("/")
            if time.monotonic() > deadline:
                raise RuntimeError("serve printed no URL: " + "\n".join(self.lines))

    @property
    def pad_url(self) -> str:
        return f"{self.base}/pad#pin={self.pin}"

    def post(self, path: str, body: dict) -> dict:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Authorization": f"Bearer {self.pin}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read() or b"{}")

    def state(self) -> dict:
        with urllib.request.urlopen(self.base + "/api/state", timeout=10) as r:
            return json.loads(r.read())

    def kill9(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> str:
        """Stop the server; what it wrote to its log (standard error)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if not self.proc.stderr.closed:
            self.log = self.proc.stderr.read()
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()
        return getattr(self, "log", "")
