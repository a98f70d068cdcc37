"""pyramid_referee/referee/live.py: ``listen`` run whole, and its steps.

Real path: ``listen`` through the command line with the Korean Vosk model and espeak-ng Korean
speech standing in for the Russian model and a player's call (test doubles: ``FileMic`` for the
microphone, ``KoGrammar`` for the call language; tests/test_cli_voice.py), a recorded cue
strike, and a throw-away PostgreSQL cluster as the club server (tests/pg_cluster.py).
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from club_helpers import (  # noqa: E402
    local_strokes as _local,
    register_table as _register,
    server_strokes as _server,
)
from test_cli_voice import (  # noqa: F401 (fixtures)
    FileMic,
    MarkerAtThePad,
    ScorerAtTheKeyboard,
    _an_endless_microphone_after_a_call,
    cached_korean_model,
    korean_stand_ins,
    needs_espeak,
)
from test_listen import ko_model, say  # noqa: F401 (fixtures)

from pyramid_referee import cli
from pyramid_referee.match.store import Store


def _microphone_hearing_a_call_and_a_strike(tmp_path, monkeypatch):
    """The microphone stand-in: a Korean call, the click of a strike, quiet;
    (the scene, the mics opened)."""
    from test_listen import Scene, _trimmed, silence

    from pyramid_referee.voice import mic

    say = lambda w: _trimmed(w, tmp_path)  # noqa: E731
    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(0.6))
    )
    s.click().add(silence(1.5))
    wav = s.write(tmp_path / "mic.wav")
    mics = []
    monkeypatch.setattr(
        mic,
        "MicrophoneSource",
        lambda dev, ms, lang="ru": mics.append(FileMic(wav, ms)) or mics[-1],
    )
    return s, mics


# --- listen --club -------------------------------------------------------------------------------


@needs_espeak
def test_listen_with_club_sends_the_strokes_it_judges_to_the_club_server(
    korean_stand_ins, club_url, monkeypatch, tmp_path, capsys
):
    db = tmp_path / "m.db"
    table_id = _register(club_url, db, "Стол 1")
    s, mics = _microphone_hearing_a_call_and_a_strike(tmp_path, monkeypatch)
    monkeypatch.setattr(
        "sys.stdin", ScorerAtTheKeyboard(mics, [(s.clicks[0] + 0.05, "биток 3, 3 в середину")])
    )
    rc = cli.main(
        ["listen", "--db", str(db), "--players", "A,B", "--mode", "clean", "--club", club_url]
    )
    out = capsys.readouterr().out
    assert rc == 0, out
    assert f"удар {s.clicks[0]:.2f} с: заказ принят" in out and mics[0].closed
    verdict_on = out.split("#1 ", 1)[1]
    assert "клуб: " in verdict_on  # the sync's status follows the verdict
    assert out.rstrip().endswith("клуб: на связи")  # the last drain at exit sent it all
    [row] = _local(db)
    assert _server(club_url, table_id) == [row]  # the stroke listen judged, stored once


def test_listen_with_club_refuses_an_unregistered_table_before_the_microphone_and_creates_nothing(
    korean_stand_ins, club_url, pg_cluster, monkeypatch, tmp_path, capsys
):
    from pyramid_referee.voice import mic

    mics = []
    monkeypatch.setattr(
        mic, "MicrophoneSource", lambda *a, **kw: mics.append(a) or pytest.fail("mic opened")
    )
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
    for argv in (
        ["--players", "Иван", "Пётр"],
        [],
    ):  # a new match, and going on with the stored one
        rc = cli.main(["listen", "--db", str(db), "--club", other, *argv])
        err = capsys.readouterr().err
        assert rc == 2 and "не зарегистрирован на сервере клуба" in err, err
    assert mics == []
    with Store(db) as store:
        assert [m.players for m in store.list_matches()] == [["Аня", "Боря"]]
        assert store.strokes(store.latest()) == []


@needs_espeak
def test_listen_pad_with_club_from_the_environment_sends_the_strokes_the_pad_commits(
    korean_stand_ins, club_url, monkeypatch, tmp_path, capsys
):
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

    def notify(self, change=False):
        self.notified += 1

    def status(self):
        from pyramid_referee.club.sync import SyncStatus

        return SyncStatus(True, self.notified)


def test_a_strike_is_decided_settle_after_it_and_the_next_waits_until_the_stroke_is_committed(
    ko_model, tmp_path, monkeypatch
):
    from types import SimpleNamespace

    import numpy as np
    from rich.console import Console
    from test_listen import KO_WORDS, KoGrammar, _session

    from pyramid_referee.referee import listen
    from pyramid_referee.referee.live import LiveRun, Opened
    from pyramid_referee.voice.audio import Frame

    store, session = _session(tmp_path)
    with store:
        referee = listen.LiveReferee(
            ko_model,
            session,
            words=KO_WORDS,
            detector=None,
            parse=KoGrammar.parse,
            mentions_call=KoGrammar.mentions_call,
            lang="en",
        )
        out = io.StringIO()
        live = LiveRun(
            Console(file=out, highlight=False),
            Opened(store, session, referee, None),
            SimpleNamespace(strike="key", pad=False, why=False, speak=False),
            "en",
            RecordingClub(),
        )
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
        entered = (
            live.judge()
        )  # the unreadable outcome is told and asked again; nothing stored for it
        assert entered.seq == 1 and [r.seq for r in store.strokes(session.id)] == [1]
        assert live.club.notified == 1 and not live.awaiting.is_set()
        # the run is in English: it says what is wrong in English, and the club line below too
        # (the run's language, not the command line's: Russian here)
        assert "not understood: 'никуда'" in out.getvalue()
        assert live.report(entered) is False
        assert "club: connected, 1 stroke in the queue" in out.getvalue()
        assert "клуб" not in out.getvalue()
        assert block()  # now the waiting strike is decided
        assert live.decided.get_nowait()[1].strike > d.strike


# --- Q13: a missed strike never costs the call; Q14: a false strike taken back -------------------


@needs_espeak
def test_Q13_listen_an_outcome_typed_with_no_strike_heard_takes_the_call_and_is_marked(
    korean_stand_ins, monkeypatch, tmp_path, capsys
):
    """From the microphone: the call, then no strike heard; the scorer types the outcome. Once the
    detector had the time to decide a strike before it, the stroke takes the standing call."""
    call_end, mics = _an_endless_microphone_after_a_call(tmp_path, monkeypatch)
    monkeypatch.setattr(
        "sys.stdin", ScorerAtTheKeyboard(mics, [(call_end + 0.3, "биток 3, 3 в середину")])
    )
    db = tmp_path / "m.db"
    rc = cli.main(["listen", "--db", str(db), "--players", "A,B", "--mode", "clean"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "удар не услышан — заказ взят по вводу исхода: заказ принят" in out and "#1 " in out
    with Store(db) as store:
        [row] = store.strokes(store.latest())
    assert row.record.call_status == "accepted" and row.record.call["ball"] == 3
    assert row.record.strike["heard"] is False
    assert row.record.strike["note"] == "удар не услышан — заказ взят по вводу исхода"
    assert row.record.strike["outcome"] >= call_end + 0.2  # typed then (0.3 s), on the audio clock
    # no table profile saved: listen says how to make one (it helps most in a noisy room)
    assert "Профиль стола не задан" in out and "strikes calibrate" in out


def test_listen_says_when_the_microphone_hears_nothing(
    korean_stand_ins, monkeypatch, tmp_path, capsys
):
    """A muted microphone delivers silence: 10 s into it, listen says so (once), and goes on."""
    from test_cli_voice import FileMic

    from pyramid_referee.voice import mic
    from pyramid_referee.voice.audio import write_wav

    wav = tmp_path / "muted.wav"
    write_wav(wav, np.zeros(8000, np.float32))
    mics = []
    monkeypatch.setattr(
        mic,
        "MicrophoneSource",
        lambda dev, ms, lang="ru": mics.append(FileMic(wav, ms, endless=True)) or mics[-1],
    )
    monkeypatch.setattr("sys.stdin", ScorerAtTheKeyboard(mics, [(12.0, "")]))
    rc = cli.main(["listen", "--db", str(tmp_path / "m.db"), "--players", "A,B"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert out.count("микрофон ничего не слышит (самый громкий звук за 10 с: тишина)") == 1, out
    assert "--list-devices" in out


def test_Q14_listen_the_take_back_key_voids_the_strike_and_the_call_counts_for_the_next(
    ko_model, say, tmp_path, monkeypatch
):
    """Enter (the strike, --strike key) between the call's words voids it (C10); «!» for the
    outcome takes the strike back: nothing is stored, the call stands again, the next strike
    takes it and the record keeps the strike taken back."""
    from types import SimpleNamespace

    from rich.console import Console
    from test_listen import KO_WORDS, KoGrammar, Scene, _session, silence

    from pyramid_referee.referee import listen
    from pyramid_referee.referee.live import TAKEN_BACK, LiveRun, Opened
    from pyramid_referee.voice.audio import file_frames

    s = Scene().add(silence(0.4)).add(say("오른쪽")).add(silence(0.15))
    mid = s.now
    s.add(say("음악")).add(silence(1.5))
    real = s.now
    s.add(silence(1.0))
    frames = iter(file_frames(s.write(tmp_path / "q14.wav"), 10))
    store, session = _session(tmp_path)
    with store:
        referee = listen.LiveReferee(
            ko_model,
            session,
            words=KO_WORDS,
            detector=None,
            parse=KoGrammar.parse,
            mentions_call=KoGrammar.mentions_call,
            lang="en",
        )
        out = io.StringIO()
        live = LiveRun(
            Console(file=out, highlight=False),
            Opened(store, session, referee, None),
            SimpleNamespace(strike="key", pad=False, why=False, speak=False),
            "en",
        )

        def until(t):  # the audio thread's work, block by block, up to the audio time t
            for frame in frames:
                live.feed(frame, True)
                live.take_key_strikes()
                if live.decide_due() or referee.time >= t:
                    return

        until(mid)
        live.strike_requests.put(None)  # Enter, between the words
        until(mid + 5)
        kind, d = live.decided.get_nowait()
        assert d.status == "late" and d.strike == pytest.approx(mid, abs=0.021)  # the block after
        monkeypatch.setattr("builtins.input", lambda prompt="": "!")
        assert live.judge() is TAKEN_BACK
        assert store.strokes(session.id) == [] and not live.awaiting.is_set()
        assert "taken back by the marker" in out.getvalue()  # the run's language
        until(real)
        live.strike_requests.put(None)  # the real strike
        until(real + 5)
        kind, d2 = live.decided.get_nowait()
        assert (d2.status, d2.heard) == ("accepted", "오른쪽 음악")  # the call counts again
        monkeypatch.setattr("builtins.input", lambda prompt="": "биток 3, 3 в середину")
        entered = live.judge()
        assert entered.record.call_status == "accepted"
        assert entered.record.strike["taken_back"] == [round(d.strike, 6)]
        assert (
            entered.record.strike["t"] == round(d2.strike, 6)
            and entered.record.strike["heard"] is True
        )


def _pad_run(ko_model, tmp_path, wav):
    """listen --pad's steps over a match (no threads): the LiveRun, and a feeder of the audio."""
    from types import SimpleNamespace

    from rich.console import Console
    from test_listen import KO_WORDS, KoGrammar, _session

    from pyramid_referee.referee import listen
    from pyramid_referee.referee.live import LiveRun, Opened
    from pyramid_referee.voice.audio import file_frames

    store, session = _session(tmp_path)
    referee = listen.LiveReferee(
        ko_model,
        session,
        words=KO_WORDS,
        detector=None,
        parse=KoGrammar.parse,
        mentions_call=KoGrammar.mentions_call,
        lang="en",
    )
    out = io.StringIO()
    live = LiveRun(
        Console(file=out, highlight=False),
        Opened(store, session, referee, None),
        SimpleNamespace(strike="key", pad=True, why=False, speak=False),
        "en",
    )
    frames = iter(file_frames(wav, 10))

    def until(t):
        for frame in frames:
            live.feed(frame, True)
            live.take_key_strikes()
            if live.decide_due() or referee.time >= t:
                return

    return store, live, until, out


def _the_pad(store, mid):
    """The marker's pad in another program: the stroke entered with the standing call, as
    POST /api/strokes does."""
    from pyramid_referee.match.session import Session

    pad = Session(store, mid, lang="ru")
    st = pad.standing()
    return pad.enter(
        st.reading.text, "биток 3, 3 в середину", reading=st.reading, strike=st.strike_note()
    )


def test_Q13_listen_pad_stores_the_heard_call_with_no_strike_so_the_pad_takes_it(
    ko_model, say, tmp_path
):
    from test_listen import Scene, silence

    s = (
        Scene()
        .add(silence(0.4))
        .add(say("오른쪽"))
        .add(silence(0.15))
        .add(say("음악"))
        .add(silence(2.0))
    )
    store, live, until, _ = _pad_run(ko_model, tmp_path, s.write(tmp_path / "q13pad.wav"))
    with store:
        until(s.now)
        live.publish_heard()
        st = live.session.standing()
        assert st.source == "listen" and st.strike is None and st.reading.status == "accepted"
        version = live.session.standing_version()
        live.publish_heard()
        assert live.session.standing_version() == version  # the same call is not written again
        entered = _the_pad(store, live.session.id)
        assert entered.record.call_status == "accepted" and entered.record.strike["heard"] is False
        assert live.follow_pad() is False  # the pad's stroke is read; the match goes on
        assert live.referee.previous == pytest.approx(
            live.referee.time
        )  # the next calls start after it
        live.publish_heard()
        assert live.session.standing() is None  # that call was the stroke's: nothing new stands


def test_Q14_listen_pad_follows_a_strike_taken_back_on_the_pad_and_the_call_counts_for_the_next(
    ko_model, say, tmp_path
):
    from test_listen import Scene, silence

    s = Scene().add(silence(0.4)).add(say("오른쪽")).add(silence(0.15))
    mid = s.now
    s.add(say("음악")).add(silence(1.5))
    real = s.now
    s.add(silence(1.0))
    store, live, until, out = _pad_run(ko_model, tmp_path, s.write(tmp_path / "q14pad.wav"))
    with store:
        until(mid)
        live.strike_requests.put(None)  # a false strike between the words
        until(mid + 5)
        _, d = live.decided.get_nowait()
        assert d.status == "late"
        live.hand_to_pad(d)
        st = live.session.standing()
        assert st.voided_by_strike
        from pyramid_referee.match.session import Session

        Session(store, live.session.id, lang="ru").take_back_strike(st)  # the pad's button
        live.follow_pad()
        assert live.referee.revocable is None and "taken back by the marker" in out.getvalue()
        until(real)
        live.strike_requests.put(None)  # the real strike
        until(real + 5)
        _, d2 = live.decided.get_nowait()
        assert (d2.status, d2.heard) == ("accepted", "오른쪽 음악")  # the call counts again
        live.hand_to_pad(d2)
        entered = _the_pad(store, live.session.id)
        assert entered.record.call_status == "accepted"
        assert entered.record.strike == {
            "heard": True,
            "t": round(d2.strike, 6),
            "taken_back": [round(d.strike, 6)],
        }


@needs_espeak
def test_Q13_listen_with_key_strikes_an_outcome_typed_instead_of_enter_takes_the_call(
    korean_stand_ins, monkeypatch, tmp_path, capsys
):
    """--strike key: the scorer missed the strike's Enter and types the outcome: the stroke takes
    the standing call, marked, with the time it was typed."""
    call_end, mics = _an_endless_microphone_after_a_call(tmp_path, monkeypatch)
    monkeypatch.setattr(
        "sys.stdin", ScorerAtTheKeyboard(mics, [(call_end + 0.2, "биток 3, 3 в середину")])
    )
    db = tmp_path / "m.db"
    rc = cli.main(["listen", "--db", str(db), "--players", "A,B", "--strike", "key"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "удар не услышан — заказ взят по вводу исхода: заказ принят" in out
    with Store(db) as store:
        [row] = store.strokes(store.latest())
    assert row.record.call_status == "accepted" and row.record.strike["heard"] is False
    assert call_end + 0.1 <= row.record.strike["outcome"] < call_end + 5  # typed at 0.2 s


def _greeting(ko_model, tmp_path, store, session, strike, detector, profile, no_profile=False):
    """What ``listen`` greets with (in English) for a Korean-model session."""
    from types import SimpleNamespace

    from rich.console import Console
    from test_listen import KO_WORDS, KoGrammar

    from pyramid_referee.referee import listen
    from pyramid_referee.referee.live import LiveRun, Opened

    referee = listen.LiveReferee(
        ko_model, session, words=KO_WORDS, detector=detector, parse=KoGrammar.parse, lang="en"
    )
    out = io.StringIO()
    args = SimpleNamespace(strike=strike, pad=False, why=False, speak=False)
    live = LiveRun(
        Console(file=out, highlight=False, width=300),
        Opened(store, session, referee, None),
        args,
        "en",
    )
    live.greet(SimpleNamespace(path=tmp_path / "model"), profile, no_profile=no_profile)
    return out.getvalue()


def test_listen_says_when_strikes_go_without_rnnoise(ko_model, tmp_path, monkeypatch):
    """Where RNNoise's library cannot load, listen's greeting says that strikes are decided
    without it (and why); where it loads, nothing is said."""
    from test_listen import _session

    from pyramid_referee.voice import denoise
    from pyramid_referee.voice.strike import StrikeDetector

    store, session = _session(tmp_path)

    def greeting():
        return _greeting(
            ko_model, tmp_path, store, session, "audio", StrikeDetector(), None, no_profile=True
        )

    with store:
        assert "RNNoise" not in greeting()
        monkeypatch.setattr(denoise, "_LOADED", None)
        monkeypatch.setenv(denoise.LIBRARY_ENV, "/nonexistent/librnnoise.so")
        said = greeting()
        assert "RNNoise is not available" in said and "/nonexistent/librnnoise.so" in said


def test_listen_greets_with_the_table_profile_or_says_how_to_make_one(ko_model, tmp_path):
    """Hearing strikes with no table profile, listen says how to make one; not with a profile
    (it names it), not with --profile none (asked for), not with --strike key."""
    from types import SimpleNamespace

    from test_listen import _session

    store, session = _session(tmp_path)
    profile = SimpleNamespace(name="стол 3", created="2026-12-06T12:00:00")

    def greeting(strike, profile, no_profile=False):
        return _greeting(ko_model, tmp_path, store, session, strike, None, profile, no_profile)

    with store:
        hint = "No table profile: in a noisy room strikes are heard surer with one"
        assert hint in greeting("audio", None) and "strikes calibrate" in greeting("audio", None)
        with_profile = greeting("audio", profile)
        assert hint not in with_profile and "table profile: «стол 3»" in with_profile
        assert hint not in greeting("audio", None, no_profile=True)
        assert hint not in greeting("key", None)
