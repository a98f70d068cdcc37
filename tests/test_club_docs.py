"""The club's docs work as written: every command in docs/club.md (and the club commands of
docs/play.md) is taken from its fenced block and run, in the order of the page, against the
throw-away PostgreSQL cluster (tests/pg_cluster.py): the page's address
``postgresql://LOGIN@192.0.2.10/pyramid`` becomes the cluster's (the same logins, named afresh:
logins are the cluster's, shared by every test), and its SQL is run as the cluster's administrator.
A ``text`` block after a command is what the command prints (numbers and addresses aside)."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg", reason="psycopg (3) is not installed")

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PROGRAM = ".venv/bin/pyramid-referee"
ADDRESS = re.compile(r"postgresql://(\w+)@192\.0\.2\.10/(\w+)")
LOGINS = ("club", "stol1", "tablo")  # the page's logins: the club's, table 1's, the board's
PLAYED = "- | биток 3\n- | биток 5\n"  # what a marker types into play


def blocks(path: Path) -> list[tuple[str, str]]:
    """The page's fenced blocks, in order: (language, text)."""
    return re.findall(r"^```(\w*)\n(.*?)^```", path.read_text(encoding="utf-8"), flags=re.S | re.M)


class Club:
    """The page's club on the cluster: its database and logins under fresh names,
    one store a computer."""

    def __init__(self, cluster, tmp: Path) -> None:
        self.cluster = cluster
        tag = uuid.uuid4().hex[:8]
        self.names = {**{login: f"{login}_{tag}" for login in LOGINS}, "pyramid": f"pyramid_{tag}"}
        self.table_db = tmp / "table1.sqlite"  # the computer of Стол 1
        self.board_db = tmp / "board.sqlite"  # the manager's computer (no table of its own)
        self.ran: list[str] = []

    def url(self, login: str, dbname: str) -> str:
        return (
            f"postgresql:///{self.names.get(dbname, dbname)}"
            f"?host={self.cluster.dir}&port={self.cluster.port}"
            f"&user={self.names.get(login, login)}"
        )

    def sql(self, text: str) -> None:
        """The page's SQL, its names made this club's, run as the cluster's administrator."""
        text = re.sub(
            r"\b(" + "|".join(self.names) + r")\b", lambda m: self.names[m.group(1)], text
        )
        with psycopg.connect(self.cluster.url(), autocommit=True) as con:
            for statement in (s.strip() for s in text.split(";\n")):
                if statement:
                    con.execute(statement.rstrip(";"))

    def command(self, line: str, shown: str | None) -> None:
        """One command of the page, run as a user would run it (from the repository's folder)."""
        logins = ADDRESS.findall(line)
        assert logins, f"a club command without the page's address: {line}"
        args = shlex.split(ADDRESS.sub(lambda m: self.url(m.group(1), m.group(2)), line))
        assert args[0] == PROGRAM, line
        store = self.board_db if logins[0][0] == "tablo" else self.table_db
        env = dict(os.environ, PYRAMID_REFEREE_DB=str(store), PYTHONUNBUFFERED="1")
        env.pop("PYRAMID_REFEREE_CLUB", None)
        words = [a for a in args[1:] if not a.startswith("-")]
        self.ran.append(" ".join(words[:2]) if words[0] == "club" else words[0])
        if words[0] == "serve" or words[:2] == ["club", "sync"] and "--once" not in args:
            out = self._until_stopped(args, env, words)
        else:
            out = self._to_the_end(args, env, words)
        if (
            shown is not None
        ):  # what the page says it prints: each line, numbers and addresses aside
            norm = lambda text: re.sub(r"\d+", "0", text)  # noqa: E731
            for expected in shown.strip().splitlines():
                assert any(norm(got) == norm(expected) for got in out), (expected, out)

    def _to_the_end(self, args, env, words) -> list[str]:
        stdin = PLAYED if words[0] == "play" else ""
        p = subprocess.run(
            args, cwd=ROOT, env=env, input=stdin, capture_output=True, text=True, timeout=120
        )
        if words[0] == "listen":
            # the club part of listen: it gets past the club (registered, the table's login) to
            # the voice model or the microphone, which this machine may not have; a club refusal
            # would come first
            assert p.returncode == 0 or ("модел" in p.stderr and "клуб" not in p.stderr), p.stderr
            return p.stdout.splitlines()
        assert p.returncode == 0, (args, p.stdout, p.stderr)
        assert "Traceback" not in p.stderr, p.stderr
        if words[0] == "play":
            assert "Иван" in p.stdout and "клуб: " in p.stdout, p.stdout
        if words[:2] == ["club", "register"]:
            assert "зарегистрирован на сервере клуба под номером 1" in p.stdout, p.stdout
        if words[:2] == ["club", "status"]:
            assert p.stdout.startswith("1. Стол 1: матч "), p.stdout
        if words[:2] == ["club", "resolve"]:
            assert (
                ("конфликтов с сервером клуба нет" in p.stdout)
                if "--keep-server" in args
                else ("эта база теперь стол Стол 4 на сервере клуба, номер 2" in p.stdout)
            ), p.stdout
        return p.stdout.splitlines()

    def _until_stopped(self, args, env, words) -> list[str]:
        """serve and club sync run until Ctrl-C: run until they say they are
        up, look, then interrupt."""
        p = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: list[str] = []
        ready = "«Ctrl-C» останавливает сервер" if words[0] == "serve" else "клуб: на связи"
        try:
            end = time.monotonic() + 60
            while time.monotonic() < end:
                line = p.stdout.readline()
                if not line:
                    break
                lines.append(line.rstrip("\n"))
                if line.strip() == ready:
                    break
            assert lines and lines[-1] == ready, (
                args,
                lines,
                p.stderr.read() if p.poll() is not None else "",
            )
            if (
                words[0] == "serve"
            ):  # the club board it printed answers, and shows the club's table
                board = next(x.split(": ", 1)[1] for x in lines if x.startswith("табло клуба: "))
                port = board.rsplit(":", 1)[1].split("/")[0]
                path = "/api/club/state"
                state = _poll(f"http://127.0.0.1:{port}{path}", lambda s: '"Стол 1"' in s)
                assert '"Стол 1"' in state, state
        finally:
            p.send_signal(signal.SIGINT)
            try:
                out, err = p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
        assert "Traceback" not in err, err
        return lines + out.splitlines()


def _poll(url: str, good, timeout: float = 20.0) -> str:
    end, text = time.monotonic() + timeout, ""
    while time.monotonic() < end:
        with urllib.request.urlopen(url, timeout=10) as r:
            text = r.read().decode()
        if good(text):
            break
        time.sleep(0.2)
    return text


def run_page(club: Club, path: Path, *, only_club: bool = False) -> None:
    """Every fenced command of the page in order: SQL as the administrator, sh as the user."""
    found = blocks(path)
    for i, (lang, text) in enumerate(found):
        if lang == "sql":
            club.sql(text)
        elif lang == "sh":
            lines = [x for x in text.strip().splitlines() if x.strip()]
            if only_club:
                lines = [x for x in lines if "--club" in x]
            shown = found[i + 1][1] if i + 1 < len(found) and found[i + 1][0] == "text" else None
            for line in lines:
                club.command(line, shown if len(lines) == 1 else None)


def test_every_command_in_the_club_guide_runs_as_written_against_a_real_postgresql(
    pg_cluster, tmp_path
):
    club = Club(pg_cluster, tmp_path)
    run_page(club, DOCS / "club.md")
    # the whole page ran: registering, the table's board, the manager's board, play, listen, the
    # sync, the status and both ways out of a conflict
    assert club.ran == [
        "club register",
        "serve",
        "serve",
        "play",
        "listen",
        "club sync",
        "club sync",
        "club status",
        "club resolve",
        "club resolve",
    ], club.ran


def test_the_club_lines_of_the_play_guide_run_as_written_against_a_real_postgresql(
    pg_cluster, tmp_path
):
    club = Club(pg_cluster, tmp_path)
    setup = [b for b in blocks(DOCS / "club.md")]
    club.sql(
        setup[0][1]
    )  # the club's server, its first table and the logins, as docs/club.md sets them up
    club.command(setup[1][1].strip(), None)
    club.sql(setup[2][1])
    run_page(club, DOCS / "play.md", only_club=True)
    assert club.ran[1:] == ["listen"], club.ran


def test_the_guides_name_no_login_that_cannot_log_in_and_play_under_the_tables_own():
    club_md, play_md = (
        (DOCS / "club.md").read_text(encoding="utf-8"),
        (DOCS / "play.md").read_text(encoding="utf-8"),
    )
    for text in (club_md, play_md):
        assert "pyramid_table@" not in text and "pyramid_board@" not in text  # NOLOGIN roles
        assert "192.168.1.10/club" not in text
    for _lang, text in blocks(DOCS / "club.md") + blocks(DOCS / "play.md"):
        for line in text.splitlines():
            words = shlex.split(line) if line.startswith(PROGRAM) else []
            if words[1:2] in (["serve"], ["play"], ["listen"]) or words[1:3] == ["club", "sync"]:
                assert "postgresql://club@" not in line, (
                    line
                )  # the owner's login registers, it does not play
