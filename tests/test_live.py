"""pyramid_referee/referee/live.py: ``listen`` run whole, and its steps.

Real path: ``listen`` through the command line with the Korean Vosk model and espeak-ng Korean
speech standing in for the Russian model and a player's call (test doubles: ``FileMic`` for the
microphone, ``KoGrammar`` for the call language; tests/test_cli_voice.py), a recorded cue
strike, and a throw-away PostgreSQL cluster as the club server (tests/pg_cluster.py).
"""

from __future__ import annotations

import io

import pytest

from pyramid_referee import cli
from pyramid_referee.match.store import Store
from test_cli_voice import (FileMic, MarkerAtThePad, _an_endless_microphone_after_a_call, cached_korean_model,  # noqa: F401 (fixtures)
                            korean_stand_ins, needs_espeak)
from test_listen import ko_model  # noqa: F401 (a fixture)
from club_helpers import (  # noqa: E402
    register_table as _register,
    local_strokes as _local,
    server_strokes as _server,
)


def _microphone_hearing_a_call_and_a_strike(tmp_path, monkeypatch):
    """The microphone stand-in: a Korean call, the click of a strike, quiet; (the scene, the mics opened)."""
    from pyramid_referee.voice import mic
    from test_listen import Scene, _trimmed, silence

    say = lambda w: _trimmed(w, tmp_path)  # noqa: E731
    s = Scene().add(silence(0.4)).add(say("오른쪽")).add(silence(0.15)).add(say("음악")).add(silence(0.6))
    s.click().add(silence(1.5))
    wav = s.write(tmp_path / "mic.wav")
    mics = []
    monkeypatch.setattr(mic, "MicrophoneSource",
                        lambda dev, ms, lang="ru": mics.append(FileMic(wav, ms)) or mics[-1])
    return s, mics


# --- listen --club --------------------------------------------------------------------------------

@needs_espeak
def test_listen_with_club_sends_the_strokes_it_judges_to_the_club_server(
        korean_stand_ins, club_url, monkeypatch, tmp_path, capsys):
    db = tmp_path / "m.db"
    table_id = _register(club_url, db, "Стол 1")
    s, mics = _microphone_hearing_a_call_and_a_strike(tmp_path, monkeypatch)
    monkeypatch.setattr("sys.stdin", io.StringIO("биток 3, 3 в середину\n"))
    rc = cli.main(["listen", "--db", str(db), "--players", "A,B", "--mode", "clean", "--club", club_url])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert f"удар {s.clicks[0]:.2f} с: заказ принят" in out and mics[0].closed
    verdict_on = out.split("#1 ", 1)[1]
    assert "клуб: " in verdict_on  # the sync's status follows the verdict
    assert out.rstrip().endswith("клуб: на связи")  # the last drain at exit sent it all
    [row] = _local(db)
    assert _server(club_url, table_id) == [row]  # the stroke listen judged, stored once


def test_listen_with_club_refuses_an_unregistered_table_before_the_microphone_and_creates_nothing(
        korean_stand_ins, club_url, pg_cluster, monkeypatch, tmp_path, capsys):
    from pyramid_referee.voice import mic

    mics = []
    monkeypatch.setattr(mic, "MicrophoneSource", lambda *a, **kw: mics.append(a) or pytest.fail("mic opened"))
    fresh = tmp_path / "none.db"  # no store yet, so no key: not registered anywhere
    rc = cli.main(["listen", "--db", str(fresh), "--players", "A,B", "--club", club_url])
    err = capsys.readouterr().err
    assert rc == 2 and "не зарегистрирован на сервере клуба" in err and "club register" in err, err
    assert not fresh.exists() and mics == []

    db = tmp_path / "m.db"  # registered on one club server, listening with another
    _register(club_url, db, "Стол 1")
    with Store(db) as store:
        store.new_match(["Аня", "Боря"], {}, None)
    other = pg_cluster.new_database()
    for argv in (["--players", "Иван", "Пётр"], []):  # a new match, and going on with the stored one
        rc = cli.main(["listen", "--db", str(db), "--club", other, *argv])
        err = capsys.readouterr().err
        assert rc == 2 and "не зарегистрирован на сервере клуба" in err, err
    assert mics == []
    with Store(db) as store:
        assert [m.players for m in store.list_matches()] == [["Аня", "Боря"]]
        assert store.strokes(store.latest()) == []


@needs_espeak
def test_listen_pad_with_club_from_the_environment_sends_the_strokes_the_pad_commits(
        korean_stand_ins, club_url, monkeypatch, tmp_path, capsys):
    """listen --pad commits no stroke itself: the pad (another program, here the test) does. The
    sync reads the store's log, so the pad's strokes go to the club server too."""
    db = tmp_path / "m.db"
    table_id = _register(club_url, db, "Стол 2")
    monkeypatch.setenv("PYRAMID_REFEREE_CLUB", club_url)
    call_end, mics = _an_endless_microphone_after_a_call(tmp_path, monkeypatch)

    monkeypatch.setattr("sys.stdin", MarkerAtThePad(db, call_end, mics))
    rc = cli.main(["listen", "--pad", "--db", str(db), "--players", "A,B", "--strike", "key"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "клуб: " in out.split("на планшете: №1", 1)[1]  # the status follows the pad's stroke
    assert out.rstrip().endswith("клуб: на связи")
    [row] = _local(db)
    assert _server(club_url, table_id) == [row]  # the pad's stroke, stored once


# --- the steps, one by one (no threads: what the audio thread and the main thread each do) -------

class RecordingClub:
    """Test double for club.sync.ClubSync: counts notify() and answers status() with no network
    (the real sync is driven by the listen --club tests above)."""

    def __init__(self):
        self.notified = 0

    def notify(self):
        self.notified += 1

    def status(self):
        from pyramid_referee.club.sync import SyncStatus

        return SyncStatus(True, self.notified)


def test_a_strike_is_decided_settle_after_it_and_the_next_waits_until_the_stroke_is_committed(
        ko_model, tmp_path, monkeypatch):
    from types import SimpleNamespace

    import numpy as np
    from rich.console import Console

    from pyramid_referee.referee import listen
    from pyramid_referee.referee.live import LiveRun, Opened
    from pyramid_referee.voice.audio import Frame
    from test_listen import KO_WORDS, KoGrammar, _session

    store, session = _session(tmp_path)
    with store:
        referee = listen.LiveReferee(ko_model, session, words=KO_WORDS, detector=None, parse=KoGrammar.parse,
                                     mentions_call=KoGrammar.mentions_call, lang="en")
        out = io.StringIO()
        live = LiveRun(Console(file=out, highlight=False), Opened(store, session, referee, None),
                       SimpleNamespace(strike="key", pad=False, why=False, speak=False), "en", RecordingClub())
        clock = [0.0]

        def block():  # 10 ms of quiet, as the audio thread feeds it
            live.feed(Frame(np.zeros(160, np.float32), clock[0]), True)
            clock[0] += 0.01
            live.take_key_strikes()
            return live.decide_due()

        block()
        live.strike_requests.put(None)  # Enter
        assert not block() and live.pending == [pytest.approx(0.02)]
        waited = 1
        while not block():
            waited += 1
        assert waited * 0.01 >= listen.SETTLE_S and live.awaiting.is_set()
        kind, d = live.decided.get_nowait()
        assert kind == "strike" and d.strike == pytest.approx(0.02) and d.status == "none"

        live.strike_requests.put(None)  # a second strike while the first one's outcome is awaited
        for _ in range(int(2 * listen.SETTLE_S / 0.01)):
            assert not block()  # it waits its turn
        assert live.decided.empty() and len(live.pending) == 1

        answers = iter(["биток в никуда ???", "ничего"])
        monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
        entered = live.judge()  # the unreadable outcome is told and asked again; nothing stored for it
        assert entered.seq == 1 and [r.seq for r in store.strokes(session.id)] == [1]
        assert live.club.notified == 1 and not live.awaiting.is_set()
        assert "непонятно: «никуда»" in out.getvalue()
        assert live.report(entered) is False and "клуб: на связи, в очереди 1 удар" in out.getvalue()
        assert block()  # now the waiting strike is decided
        assert live.decided.get_nowait()[1].strike > d.strike
