"""A throw-away PostgreSQL cluster for the club tests: its own data directory, a Unix socket
in that directory, TCP on the loopback only (a free port: one server reached as «localhost» and as
«127.0.0.1»), trust authentication for local connections, stopped at the end.

PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` OS user
(Debian's package creates it), or ``nobody`` where there is none, through ``runuser``; the
data directory is made in /tmp and handed to that user (pytest's own tmp folders are 0700
root's). ``initdb`` is found on PATH or in Debian's /usr/lib/postgresql/*/bin.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def find_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    hits = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return hits[-1] if hits else None


class Cluster:
    def __init__(self) -> None:
        self.initdb = find_bin("initdb")
        self.pg_ctl = find_bin("pg_ctl")
        self.dir = Path(tempfile.mkdtemp(prefix="club-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "log"
        self.user = None
        if os.geteuid() == 0:
            for candidate in ("postgres", "nobody"):
                try:
                    pwd.getpwnam(candidate)
                except KeyError:
                    continue
                self.user = candidate
                break
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self._run(
            [
                self.initdb,
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        )
        self.port = _free_port()
        with open(self.data / "postgresql.conf", "a") as f:
            f.write(
                f"listen_addresses = '127.0.0.1'\nport = {self.port}\nunix_socket_directories = "
                f"'{self.dir}'\n"
                "fsync = off\n"
            )

    def _run(self, cmd: list[str]) -> None:
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--"] + cmd
        subprocess.run(
            cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120
        )

    def start(self) -> None:
        self._run(
            [self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start"]
        )

    def stop(self, mode: str = "fast") -> None:
        self._run([self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop"])

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql:///{dbname}?host={self.dir}&port={self.port}&user=postgres"

    def tcp_url(self, url: str, host: str = "127.0.0.1") -> str:
        """The database of ``url`` (on this cluster) by TCP, the host spelled ``host``."""
        dbname = url.split("///", 1)[1].split("?", 1)[0]
        return f"postgresql://postgres@{host}:{self.port}/{dbname}"

    def new_database(self) -> str:
        """A fresh, empty database: its URL."""
        import psycopg

        name = "club_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def destroy(self) -> None:
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)
