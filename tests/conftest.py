"""Fixtures shared by several test files.

``pulse``: a PulseAudio daemon of the test's own (its own runtime folder, no user session) with
a null sink ``referee_test`` whose monitor is the default source, so that PortAudio, through
ALSA's pulse plugin (libasound2-plugins), records whatever ``paplay`` plays into the sink: the
real microphone path without a microphone. The fixture yields the environment a subprocess
needs to reach that daemon (PortAudio reads it when it starts, so the recording runs in a
subprocess). It skips, saying why, where the tools are missing or the daemon cannot start.
One daemon serves the whole session (tests/test_voice_mic.py, tests/test_listen.py).

The test-audio scripts of ``corpora/audio`` (``table_mix``, ``make_audio``, ``fit_sound_model``)
are made importable here once, for every test that needs them.

``bank``: the recorded billiards sounds (``$PYRAMID_SOUNDS_DIR``, or the default folder beside
the repository that corpora/audio/README.md names), read in place and never copied; tests that
need them skip, saying where they looked, when they are missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "corpora" / "audio"))

# Under pytest-xdist the workers share the cores (scripts/test.sh starts one a core and one
# more): scikit-learn's OpenMP threads (the sound model's refits) two a worker on two cores spin
# against each other and make a fit several times slower (measured: 172 s against 27 s), so a
# worker runs one. Set before any import of it.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def pytest_collection_modifyitems(config, items):
    """The tests marked ``long`` run first (in their order), the rest as collected. pytest-xdist
    hands tests out in this order, and the longest ones sat near the end of the alphabet: the run
    ended with one worker busy for a minute and the other idle."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def _shared_folder(found, what: str, env: str, sub: str):
    """The folder ``found`` gave, or skip saying where it looked (``$env``, else the folder
    ``sub`` beside the repository)."""
    if found is None:
        where = os.environ.get(env) or Path(__file__).resolve().parents[2] / "shared" / sub
        pytest.skip(f"{what} folder not found (no WAV in {where}): set {env}")
    return found


@pytest.fixture(scope="session")
def bank():
    import table_mix

    d = _shared_folder(
        table_mix.find_sounds_dir(), "billiards sound", "PYRAMID_SOUNDS_DIR", "sounds"
    )
    return table_mix.load_bank(d)


@pytest.fixture(scope="session")
def speech():
    """The recorded Russian voices and room noise ($PYRAMID_SPEECH_DIR, or the folder beside the
    repository), read in place; skipped, saying where it looked, when missing."""
    import table_mix

    d = table_mix.find_speech_dir()
    return table_mix.load_speech(
        _shared_folder(d, "recorded speech", "PYRAMID_SPEECH_DIR", "speech")
    )


@pytest.fixture(scope="session")
def real_strike(bank):
    """A recorded cue strike (cue_vrcbce_1, MIT) from 2 ms before its onset: the samples, and the
    onset's offset in them (s). For tests that need a strike in their audio."""
    import numpy as np

    s = bank.get("cue_vrcbce_1.wav")
    k = max(0, s.onset_index - 32)
    return np.asarray(s.samples[k:], np.float32), (s.onset_index - k) / 16000


def _pactl_ok(env) -> bool:
    return (
        subprocess.run(["pactl", "info"], env=env, capture_output=True, timeout=5).returncode == 0
    )


@pytest.fixture(scope="session")
def pulse(tmp_path_factory):
    for tool in ("pulseaudio", "pactl", "paplay"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (apt-get install pulseaudio pulseaudio-utils)")
    run = tmp_path_factory.mktemp("pulse-runtime")
    os.chmod(run, 0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PULSE_")}
    env.update(XDG_RUNTIME_DIR=str(run), HOME=str(run))
    log = run / "pulseaudio.log"
    proc = subprocess.Popen(
        [
            "pulseaudio",
            "-n",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "--use-pid-file=no",
            "--system=false",
            "-L",
            "module-native-protocol-unix",
            "-L",
            "module-null-sink sink_name=referee_test rate=16000 channels=1",
            f"--log-target=file:{log}",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and proc.poll() is None and not _pactl_ok(env):
        time.sleep(0.2)
    if proc.poll() is not None or not _pactl_ok(env):
        proc.kill()
        proc.wait()
        tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
        pytest.skip(f"the PulseAudio daemon could not start here: {tail.strip() or 'no log'}")
    subprocess.run(["pactl", "set-default-source", "referee_test.monitor"], env=env, check=True)
    subprocess.run(["pactl", "set-default-sink", "referee_test"], env=env, check=True)
    yield env
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(autouse=True)
def _russian_by_default():
    """Every test starts in the default language: a test that ran the CLI with --lang en leaves
    the shell's language switched (the CLI sets it per process)."""
    from pyramid_referee.i18n import set_lang

    set_lang("ru")
    yield
    set_lang("ru")


@pytest.fixture(autouse=True)
def _no_club_from_outside(monkeypatch):
    """A developer's $PYRAMID_REFEREE_CLUB must not make every test's
    play replicate (or refuse)."""
    monkeypatch.delenv("PYRAMID_REFEREE_CLUB", raising=False)


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A match database path of the test's own (and no $PYRAMID_REFEREE_DB from outside)."""
    monkeypatch.delenv("PYRAMID_REFEREE_DB", raising=False)
    return str(tmp_path / "m.sqlite")


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium driven by Playwright (never a downloaded
    browser), one a module."""
    import shutil

    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright for Python is not installed"
    )
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="session")
def pg_cluster():
    """A throw-away PostgreSQL cluster (tests/pg_cluster.py), one a
    session; skipped without initdb."""
    pytest.importorskip("psycopg", reason="psycopg (3) is not installed")
    from pg_cluster import Cluster, find_bin

    if find_bin("initdb") is None or find_bin("pg_ctl") is None:
        pytest.skip(
            "PostgreSQL's initdb/pg_ctl are not installed (Debian: apt-get install postgresql)"
        )
    cluster = Cluster()
    cluster.start()
    yield cluster
    cluster.destroy()


@pytest.fixture
def club_url(pg_cluster):
    """The URL of a fresh, empty database on the throw-away cluster."""
    return pg_cluster.new_database()
