"""The tablet's ears: ``WS /api/listen`` feeds the table's audio to the voice referee.

The pad captures the tablet's microphone and streams it here: a first text message
``{"pin": "…", "rate": 16000, "format": "s16le"}``, then binary frames of 20–50 ms of 16 kHz
mono 16-bit little-endian PCM. The server answers with JSON text messages (``ready``, ``words``,
``strike``, ``error``; ``ready`` also names the table's strike profile, ``profile``, and with
none gives ``hint``, the pad's line on how to make one; ``level`` once, when the tablet's
microphone hears nothing or too quietly: ``voice.audio.LevelWatch``) and closes with a reason.
The same ``words`` and ``strike`` events go to ``/api/events`` (``level`` does not: it is the
tablet's own); ``/api/state`` says whether the table listens (``listening``).

The audio goes to the very objects ``listen`` uses (``referee.listen``): a ``LiveReferee``
(Vosk with the call grammar, the strike detector, the timeline) when a speech model is found,
else the same ``Pipeline`` with the strike detector alone (strikes are heard, words are not, and
the state says «модель речи не найдена» with what to do). A strike, once decided
(``listen.SETTLE_S`` after it), becomes the match's standing call, as ``listen --pad`` stores
it, and the marker taps the outcome on the pad.

The stream's clock is the server's: seconds of audio received since the stream began, plus
the gaps. When a tablet reconnects (or another takes over) the audio of the gap is lost: the
clock jumps by the time the stream was away, the gap is recorded (``gaps``), the recognizer and
the strike detector start afresh after it, and no strike is reported within ``GAP_GUARD_S`` of
its end (a fresh detector's first samples are no knock). So no strike is guessed in a gap. The
referee itself goes on across it (``LiveReferee.gap``): a call heard whole before the gap stands
for the first strike after it, unless a call was still being said as the gap began or a stroke
was entered on the pad while the stream was away (docs/serve.md, «Разрыв связи»).

Control messages after the first: ``{"type": "stop"}``; ``{"type": "calibrate", "count": N}``
and ``{"type": "calibrate_end"}`` (the pad's «Калибровка»): the audio between them is kept in
memory only, fitted as ``strikes calibrate`` fits it, and the profile saved and used only when
every strike asked for was heard (``{"type": "calibrated", …}`` says how it went).

Nobody can abuse the socket: the PIN (the same guard as every write), the table's own Origin,
only 16 kHz s16le, frames of bounded size, a client sending faster than real time beyond
``BURST_S`` is closed, one tablet a table (a second is refused unless it asks to take over:
``"take_over": true``, which the pad sends only after the marker confirms; the same tablet
reconnecting, named by the ``"tablet"`` id its page sends, takes its own place back).

Audio is never stored unless the marker asks for a recording (``{"type": "record"}`` …
``{"type": "record_end"}``, the pad's «Запись»): then the frames also go to a WAV beside the
match store, with an index tying it to the strokes entered meanwhile (listen_record.py);
otherwise frames are fed to the pipeline and dropped.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from urllib.parse import urlsplit

import numpy as np
from starlette.websockets import WebSocketDisconnect

from ..catalog import trl
from ..match.ears import read_ears
from ..referee import listen, timeline as tl
from .listen_record import Recording, recordings_dir

RATE = 16000
FRAME_MIN_MS = 20
FRAME_MAX_MS = 50
FRAME_MIN_BYTES = RATE * FRAME_MIN_MS // 1000 * 2  # 640
FRAME_MAX_BYTES = RATE * FRAME_MAX_MS // 1000 * 2  # 1600
BURST_S = 1.0  # audio a client may send ahead of real time (network jitter) before it is closed
HELLO_MAX_BYTES = 1024
HELLO_TIMEOUT_S = 10.0
IDLE_S = 5.0  # no frame this long: the tablet is gone (its Wi-Fi dropped); the table is freed
GAP_GUARD_S = 0.2  # after a gap, strikes this close to its end are not reported
CONFIRM_S = 0.2  # the detector's second look comes 150 ms after an onset (+ a VAD frame)
CALIBRATION_MAX_S = 120.0  # audio kept in memory for a calibration from the pad, at most
CALIBRATION_COUNTS = range(3, 21)

# WebSocket close codes (RFC 6455)
POLICY = 1008
TOO_BIG = 1009
UNSUPPORTED = 1003
NORMAL = 1000
BUSY = 4409  # application code: another tablet listens at this table


def listen_texts(lang: str) -> dict:
    """The words of the pad's «Слушать» switch and its state line (listen.js), in ``lang``."""
    return {
        "listen_switch": trl(lang, "Listen"),
        "listen_starting": trl(lang, "turning the microphone on…"),
        "listen_on": trl(lang, "listening"),
        "listen_no_mic": trl(lang, "no microphone: permission refused or no device"),
        "listen_lost": trl(lang, "connection to the server lost — reconnecting"),
        "listen_https_only": trl(
            lang,
            "the microphone is available only over https: start «serve --https» and open {url}",
        ),
        "listen_take_over": trl(
            lang, "Another tablet is listening at this table. Listen with this one instead?"
        ),
        "listen_strike_maybe": trl(lang, "strike? at {t} s"),
        "listen_strike": trl(lang, "strike at {t} s"),
        "listen_strike_gone": trl(lang, "no strike at {t} s after all (a word)"),
        "listen_calibrate": trl(lang, "Calibration"),
        "listen_calibrate_done": trl(lang, "Done: fit the profile"),
        "listen_board_on": trl(lang, "the marker's tablet is listening"),
        "listen_board_listen": trl(lang, "the voice referee at the computer is listening"),
        "listen_board_no_model": trl(lang, "strikes only: no speech model"),
        "listen_record": trl(lang, "Record"),
        "listen_record_stop": trl(lang, "Stop recording"),
        "listen_board_recording": trl(lang, "recording"),
    }


def _iso_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class NoWords:
    """The recognizer when no speech model is found: it hears no words; the clock goes on, so
    the strike detector still runs on the same stream (strikes without calls)."""

    def __init__(self, rate: int = RATE) -> None:
        self.rate = rate
        self.missing = ()
        self._samples = 0
        self.offset = 0.0

    @property
    def time(self) -> float:
        return self.offset + self._samples / self.rate

    def accept(self, block) -> list[dict]:
        self._samples += len(block)
        return []

    def partial(self) -> str:
        return ""

    def flush(self) -> list[dict]:
        return []

    def restart(self, offset: float) -> None:
        self.offset, self._samples = float(offset), 0


@dataclass
class MatchView:
    """What the timeline reads of the match (its settings and the balls left), copied from the
    event loop's session before each block: the worker thread never touches the store."""

    settings: object
    state: object
    upcoming: object = None
    seq: int | None = None  # strokes in the record (a change across a gap: a stroke entered in it)
    unheard_last: bool = False  # the record's last stroke took its call with no strike heard (Q13)


def words_of(result: dict) -> list[dict]:
    """A Vosk final result's best reading as ``[{"word", "start", "end"}]``."""
    if "alternatives" in result:
        alts = result["alternatives"]
        words = alts[0].get("result", []) if alts else []
    else:
        words = result.get("result", [])
    return [
        {"word": w["word"], "start": round(float(w["start"]), 3), "end": round(float(w["end"]), 3)}
        for w in words
    ]


_DENOISE_TOLD = False  # the server has said that tablets' strikes go without RNNoise


class TableStream:
    """One table's audio stream through the voice pipeline (run in one worker thread).

    ``feed(samples)`` takes float samples that follow the stream's clock and returns what it
    brought, in order: ``("words", {...})``, ``("strike", {...})`` and ``("decision", Decision)``
    (a strike's call, ``listen.SETTLE_S`` after it; only with a speech model)."""

    def __init__(
        self, model, profile=None, *, lang: str = "ru", detector_factory: Callable | None = None
    ) -> None:
        self.model = model
        self.profile = profile
        self.lang = lang
        self._detector_factory = detector_factory
        self.view: MatchView | None = None
        self.gaps: list[tuple[float, float]] = []
        self.fed_s = 0.0  # audio received (seconds)
        self._fed_seq: int | None = None
        self._published: tuple | None = None  # the heard call last offered as standing (Q13)
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="listen")
        # deferred: the voice package loads only when a tablet listens
        from pyramid_referee.voice.audio import LevelWatch

        self.level = LevelWatch(lang=lang, tablet=True)  # a muted or too quiet tablet: told once
        self._new_pipeline(0.0, previous=float("-inf"))

    # -- the pipeline (the objects ``listen`` uses) ----------------------------------------------
    def _detector(self, memory=None):
        """A fresh strike detector; ``memory``: what the one before it learned of this table
        (``StrikeDetector.table_memory``), so that the first strokes after a gap are decided
        as the next ones before it would have been."""
        if self._detector_factory is not None:
            det = self._detector_factory()
        else:
            det = self._shipped_detector()
        if memory:
            det.remember(memory)
        return det

    def _shipped_detector(self):
        # deferred: the voice package loads only when a tablet listens
        from pyramid_referee.voice.strike import StrikeDetector

        det = StrikeDetector(profile=self.profile)
        global _DENOISE_TOLD
        if det.denoise_error is not None and not _DENOISE_TOLD:  # the server's log, once
            from pyramid_referee.voice.denoise import unavailable_note  # deferred: as above

            print(
                "pyramid-referee: " + unavailable_note(det.denoise_error, self.lang),
                file=sys.stderr,
            )
            _DENOISE_TOLD = True
        return det

    def _new_pipeline(self, t0: float, previous: float, memory=None) -> None:
        detector = self._detector(memory)
        if self.model is not None:
            self.referee = listen.LiveReferee(
                self.model, self.view, detector=detector, lang=self.lang
            )
            self.referee.recognizer.restart(t0)
            self.referee.previous = previous
            self.pipeline = self.referee.pipeline
        else:
            self.referee = None
            rec = NoWords()
            rec.restart(t0)
            self.pipeline = listen.Pipeline(rec, detector)
        self.detector = detector
        self._heard_out = False  # the detector was flushed (``hear_out``): it hears no more
        self.pending: list[float] = []  # strikes to decide (with a model)
        self.unconfirmed: list[float] = []  # strikes the detector's second look has yet to confirm
        self._known: set[int] = set()
        self._held: list[dict] = []  # keeps the known events alive (their ids stay unique)
        self._partial = ""

    @property
    def time(self) -> float:
        """The stream's clock: the end of the audio fed so far (gaps included)."""
        return self.pipeline.recognizer.time

    def set_view(self, view: MatchView) -> None:
        self.view = view
        if self.referee is not None:
            self.referee.session = view

    def gap(self, seconds: float) -> tuple[float, float]:
        """The stream was away ``seconds``: the clock jumps, the gap is recorded, strikes waiting
        are decided now, the recognizer and the detector begin afresh after it. With a speech
        model the referee goes on across the gap (``LiveReferee.gap``: the calls heard before it
        stand for the next strike unless a call was cut by the gap, or the record changed while
        the stream was away: a stroke entered in the gap took the call). The fresh detector
        starts with what the old one learned of the table (its strikes' and clacks' timbre)."""
        out = self.hear_out()  # (the strikes waiting for their call too)
        memory = self.detector.table_memory()  # the same table after the gap: what it learned
        start = self.time
        end = start + max(0.0, seconds)
        self.gaps.append((round(start, 3), round(end, 3)))
        for t in list(self.unconfirmed):  # the second look never came: it stays provisional
            self.unconfirmed.remove(t)
        if self.referee is not None:
            seq = getattr(self.view, "seq", None)
            changed = seq is not None and self._fed_seq is not None and seq != self._fed_seq
            self.detector, self._heard_out = self._detector(memory), False
            self.referee.gap(end, detector=self.detector, calls_void=changed)
            self.pending, self.unconfirmed, self._partial = [], [], ""
        else:
            self._new_pipeline(end, float("-inf"), memory)
        self._gap_out = out
        return start, end

    def forget_strike(self, t: float) -> bool:
        """Q14: the marker took back the strike at ``t`` on the pad: the detector no longer
        weighs knocks against it as one of this table's strikes (before a gap or after it)."""
        return self.detector.forget(t)

    def _in_gap_guard(self, t: float) -> bool:
        return any(start - 1e-6 <= t <= end + GAP_GUARD_S for start, end in self.gaps)

    # -- one block ------------------------------------------------------------------------------
    def feed(self, samples: np.ndarray) -> list[tuple[str, object]]:
        out: list[tuple[str, object]] = getattr(self, "_gap_out", [])
        self._gap_out = []
        t0 = self.time
        self.fed_s += len(samples) / RATE
        self._follow_the_record(t0)
        self._fed_seq = getattr(self.view, "seq", None)  # the record as this audio was heard
        self._keep_for_calibration(samples)
        det = self.detector
        retracted_before = len(det.retracted)
        if self.referee is not None:
            strikes = self.referee.feed(samples, t0)
        else:
            strikes = self.pipeline.feed(samples, t0)[1]
        out += self._strike_events(det, strikes, det.retracted[retracted_before:], self.time)
        note = self.level.feed(samples)
        if note:
            out.append(("level", {"type": "level", "message": note}))
        words = self._new_words()
        out += words
        out += self._drain_pending()
        if any(kind == "words" and item["final"] for kind, item in words):
            out += self._heard_call()
        return out

    def _strike_events(self, det, strikes, gone, now: float) -> list[tuple[str, object]]:
        """The strikes a block (or the end) brought, as events: those the detector took back
        (``gone``), the new ones (provisional), and those confirmed by ``now``."""
        out: list[tuple[str, object]] = []
        for t in set(gone):
            if t in self.pending:
                self.pending.remove(t)
            if t in self.unconfirmed:
                self.unconfirmed.remove(t)
                out.append(
                    (
                        "strike",
                        {"type": "strike", "t": t, "provisional": False, "taken_back": True},
                    )
                )
        late = {round(s.time, 4) for s in det.strikes if s.late}
        for t in strikes:
            if self._in_gap_guard(t):
                continue  # no strike is guessed at a gap's edge
            sure = next((s.sure for s in det.strikes if round(s.time, 4) == t), True)
            provisional = t not in late
            out.append(
                (
                    "strike",
                    {
                        "type": "strike",
                        "t": t,
                        "provisional": provisional,
                        "taken_back": False,
                        "sure": bool(sure),
                    },
                )
            )
            if provisional:
                self.unconfirmed.append(t)
            if self.referee is not None:
                self.pending.append(t)
        for t in [t for t in self.unconfirmed if now >= t + CONFIRM_S]:
            self.unconfirmed.remove(t)
            out.append(
                ("strike", {"type": "strike", "t": t, "provisional": False, "taken_back": False})
            )
        return out

    def hear_out(self) -> list[tuple[str, object]]:
        """The tablet stopped sending (``stop``, its link lost, its silence): the sounds the
        detector still holds are decided with the audio there is, as ``strikes FILE`` decides a
        file's last ones (a strike in the last ~1.4 s was dropped before), and the strikes waiting
        for their call are decided now. The utterance in progress is left to the gap that follows
        (``gap``: a call still being said when the audio stopped does not stand). The detector
        hears nothing more: the next audio comes after a gap, to a fresh one."""
        if self.fed_s == 0 or self._heard_out:
            return []
        self._heard_out = True
        det = self.detector
        retracted_before = len(det.retracted)
        strikes = self.pipeline.flush_detector()
        out = self._strike_events(det, strikes, det.retracted[retracted_before:], float("inf"))
        return out + self._drain_pending(force=True)

    def _follow_the_record(self, t: float) -> None:
        """A stroke was entered on the pad since the last block (as ``listen --pad`` follows the
        pad): the strike last decided is that stroke's, and where no strike was heard (Q13) the
        stroke took the call standing, so the next stroke's calls begin after its last table
        sound: neither is offered again for the next strike."""
        seq = getattr(self.view, "seq", None)
        if self.referee is None or seq is None or self._fed_seq is None or seq == self._fed_seq:
            return
        if getattr(self.view, "unheard_last", False):
            self.referee.previous = tl.outcome_cut(
                t, self.referee.previous, self.referee.table_sounds()
            )
        self.referee.stroke_entered_elsewhere()
        self._published = None

    def _heard_call(self) -> list[tuple[str, object]]:
        """Q13: the call heard with no strike after it, offered as the standing call (a decision
        with no strike time), so an outcome tapped with no strike heard takes it, as it does with
        ``listen --pad``; none while a strike waits for its decision."""
        if self.referee is None or self.pending:
            return []
        d = self.referee.unheard(self.time)
        if d.status == "none":
            return []
        key = (d.status, d.heard, json.dumps(d.call, sort_keys=True, default=str))
        if key == self._published:
            return []
        self._published = key
        return [("decision", d)]

    def _new_words(self) -> list[tuple[str, object]]:
        out = []
        for e in self.pipeline.events:
            if "strike" in e or id(e) in self._known:
                continue
            self._known.add(id(e))
            self._held.append(e)
            words = words_of(e)
            if words:
                out.append(("words", {"type": "words", "words": words, "final": True}))
        partial = self.pipeline.recognizer.partial()
        if partial != self._partial:
            self._partial = partial
            out.append(
                (
                    "words",
                    {
                        "type": "words",
                        "final": False,
                        "words": [
                            {"word": w, "start": None, "end": None} for w in partial.split()
                        ],
                    },
                )
            )
        return out

    def _drain_pending(self, force: bool = False) -> list[tuple[str, object]]:
        out = []
        while (
            self.referee is not None
            and self.pending
            and (force or self.time >= self.pending[0] + listen.SETTLE_S)
        ):
            t = self.pending.pop(0)
            d = self.referee.decide(t)
            for e in self.pipeline.events:  # heard again from the strike on: not new words
                self._known.add(id(e))
                self._held.append(e)
            out.append(("decision", d))
        if len(self._held) > 4096:  # a long match: forget what is no longer in the event list
            alive = {id(e) for e in self.pipeline.events}
            self._held = [e for e in self._held if id(e) in alive]
            self._known = alive & self._known
        return out

    # -- calibration from the pad ---------------------------------------------------------------
    def calibrate_start(self, count: int) -> None:
        """Keep the audio from now (in memory only) for a calibration of ``count`` strikes."""
        self.calibration = {"count": count, "parts": [], "seconds": 0.0}

    def calibrate_end(self) -> dict:
        """Fit the table's profile from the audio kept since ``calibrate_start`` (then dropped),
        as ``strikes calibrate`` does; saved and used at once only when every strike asked for
        was heard (a failed calibration changes nothing)."""
        cal, self.calibration = getattr(self, "calibration", None), None
        if cal is None:
            return {
                "type": "calibrated",
                "ok": False,
                "found": 0,
                "asked": 0,
                "message": trl(self.lang, "no calibration was started"),
            }
        # deferred: the voice package loads only when a tablet listens
        from pyramid_referee.voice import profile as prof
        from pyramid_referee.voice.calibrate import calibrate

        audio = np.concatenate(cal["parts"]) if cal["parts"] else np.zeros(0, np.float32)
        profile, _, _ = calibrate(audio, None, strikes_asked=cal["count"])
        del audio, cal  # the audio is never stored
        ok = profile.strikes_found == profile.strikes_asked
        out = {
            "type": "calibrated",
            "ok": ok,
            "found": profile.strikes_found,
            "asked": profile.strikes_asked,
        }
        if not ok:
            out["message"] = trl(
                self.lang,
                "calibration failed: {strikes_found} of {strikes_asked} strikes heard; no "
                "profile saved",
            ).format(strikes_found=profile.strikes_found, strikes_asked=profile.strikes_asked)
            return out
        path = prof.save(profile)
        self.profile = profile
        previous = self.referee.previous if self.referee is not None else float("-inf")
        self._new_pipeline(self.time, previous)  # the detector hears with the new profile from now
        out["message"] = trl(self.lang, "profile saved: {profile}").format(profile=path)
        return out

    def _keep_for_calibration(self, samples: np.ndarray) -> None:
        cal = getattr(self, "calibration", None)
        if cal is not None and cal["seconds"] < CALIBRATION_MAX_S:
            cal["parts"].append(np.array(samples, np.float32))
            cal["seconds"] += len(samples) / RATE

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


@dataclass
class Connection:
    """One tablet's socket."""

    websocket: object
    client: str
    since: str = field(default_factory=_iso_now)
    taken_over: bool = False
    tablet: str | None = None  # the page's own id: its reconnect takes over its dead link


class Listening:
    """Whether the table listens, through which tablet, and the stream its audio goes to."""

    def __init__(
        self,
        *,
        model_dir: str | None = None,
        profile=None,
        lang: str = "ru",
        load_model: Callable | None = None,
        detector_factory: Callable | None = None,
    ) -> None:
        self.model_dir = model_dir
        self.profile = profile
        self.lang = lang
        self.owner: Connection | None = None
        self.stream: TableStream | None = None
        self.problem: str | None = None
        self.model = None
        self._model_tried = False
        self._load_model = load_model
        self._detector_factory = detector_factory
        self.last_frame_wall: float | None = None
        self.recording = None  # listen_record.Recording: only while the marker asks for one
        self.last_stroke_seen: tuple[int, bool] | None = None  # (seq, unheard): see _unheard_last
        self.other_ears: Callable | None = None  # listen --pad's notice (set by listen_route)
        self._other_seen: bool = False

    def elsewhere(self) -> dict | None:
        """``listen --pad``'s notice that it hears this table from another process, or None."""
        return self.other_ears() if self.other_ears is not None else None

    def to_json(self) -> dict:
        on = self.owner is not None
        other = None if on else self.elsewhere()
        source = "pad" if on else "listen" if other else None
        return {
            "on": on or other is not None,
            "source": source,
            "since": self.owner.since if on else other.get("since") if other else None,
            "problem": self.problem,
            "gaps": [list(g) for g in self.stream.gaps] if self.stream else [],
            "recording": self.recording.path.name if self.recording is not None else None,
        }

    def find_model(self) -> None:
        """Load the speech model once (``--model``, ``PYRAMID_VOSK_MODEL``, as ``listen`` finds
        it); without one, ``problem`` says so and what to do: strikes are still heard."""
        if self._model_tried:
            return
        self._model_tried = True
        # deferred: the voice package loads only when a tablet listens
        from pyramid_referee.voice.errors import VoiceError

        try:
            if self._load_model is not None:
                self.model = self._load_model(self.model_dir)
            else:
                self.model, _ = listen.open_model(self.model_dir, lang=self.lang)
        except VoiceError as exc:
            self.model = None
            self.problem = trl(
                self.lang, "speech model not found: {why}; strikes are heard, calls are not"
            ).format(why=exc)

    def open_stream(self) -> TableStream:
        """The table's stream (made once). A model that cannot hear the call language (it knows
        none of its words: another language's) is said as the problem, and the stream hears
        strikes only."""
        # deferred: the voice package loads only when a tablet listens
        from pyramid_referee.voice.errors import VoiceError

        if self.stream is None:
            try:
                self.stream = TableStream(
                    self.model,
                    self.profile,
                    lang=self.lang,
                    detector_factory=self._detector_factory,
                )
            except VoiceError as exc:
                self.model = None
                self.problem = trl(
                    self.lang,
                    "the speech model does not fit: {why}; strikes are heard, calls are not",
                ).format(why=exc)
                self.stream = TableStream(
                    None, self.profile, lang=self.lang, detector_factory=self._detector_factory
                )
        return self.stream

    def outside_change(self) -> bool:
        """Did ``listen --pad`` start or stop hearing this table since the last look? (Table.check
        looks every half second, so the pages learn it.)"""
        seen = self.elsewhere() is not None
        changed, self._other_seen = seen != self._other_seen, seen
        return changed

    def close(self) -> None:
        if self.recording is not None:
            self.recording.close()
            self.recording = None
        if self.stream is not None:
            self.stream.close()


def origin_ok(websocket) -> bool:
    """The socket's Origin is the table's own: the same scheme (http ↔ ws, https ↔ wss), host and
    port as the request's Host. A browser always sends it; a missing one is refused too."""
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host", "")
    if not origin or not host:
        return False
    o = urlsplit(origin)
    want = {"ws": "http", "wss": "https"}.get(websocket.url.scheme, websocket.url.scheme)
    return o.scheme == want and o.netloc.lower() == host.lower()


def _reason(text: str) -> str:
    """A close frame's reason is at most 123 bytes of UTF-8: cut on a character boundary."""
    raw = text.encode("utf-8")
    if len(raw) <= 123:
        return text
    return raw[:120].decode("utf-8", "ignore") + "…"


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


async def _refuse(ws, message: str, close_code: int, **extra) -> None:
    """An ``error`` message with the reason, then the close (the socket may be gone already)."""
    try:
        await ws.send_text(_dumps({"type": "error", "message": message, **extra}))
        await ws.close(close_code, _reason(message))
    except Exception:
        pass


def _hello_problem(text: str | None, lang: str) -> tuple[dict | None, str | None]:
    """The first message read: (its data, None) or (None, what is wrong with it, in ``lang``)."""
    shape = trl(
        lang, 'the first message must be JSON text: {"pin": …, "rate": 16000, "format": "s16le"}'
    )
    if text is None or len(text.encode("utf-8")) > HELLO_MAX_BYTES:
        return None, shape
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("pin"), str):
        return None, shape
    if data.get("rate") != RATE or data.get("format") != "s16le":
        return None, trl(
            lang, 'only 16 kHz mono s16le audio is taken ("rate": 16000, "format": "s16le")'
        )
    return data, None


async def _hello_of(ws, lang: str) -> dict | None:
    """The first message, checked; its data, or None (the refusal already sent)."""
    try:
        msg = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT_S)
    except asyncio.TimeoutError:
        await _refuse(ws, trl(lang, "no first message with the PIN"), POLICY)
        return None
    if msg["type"] == "websocket.disconnect":
        return None
    data, problem = _hello_problem(msg.get("text"), lang)
    if problem is not None:
        await _refuse(ws, problem, UNSUPPORTED)
    return data


@dataclass
class _Route:
    """What one table's ``/api/listen`` works with (``listen_route``'s arguments)."""

    table: object
    guard: object
    publish_event: Callable[[str, dict], None]
    on_decision: Callable
    client_of: Callable
    clock: Callable[[], float]
    lang: str  # what the tablet is told, as the server's pages


async def _pin_ok(ws, route: _Route, client: str, pin: str) -> bool:
    """The PIN, checked by the guard every write goes through; a refusal is sent here."""
    verdict = route.guard.check(client, pin.strip())
    if verdict.kind == "held":
        await _refuse(
            ws,
            trl(route.lang, "too many wrong PINs from this device: try again in {s} s").format(
                s=verdict.retry_after
            ),
            POLICY,
            retry_after=verdict.retry_after,
        )
        return False
    if verdict.kind == "wrong":
        if verdict.retry_after:
            route.table.changed()  # the pads say that someone is guessing
        await _refuse(ws, trl(route.lang, "wrong PIN"), POLICY, code="pin")
        return False
    return True


async def _admit(ws, route: _Route) -> Connection | None:
    """The Origin, the first message, the PIN, one tablet a table: the connection that now owns
    the table's ears, or None (refused with a reason)."""
    listening: Listening = route.table.listening
    if not origin_ok(ws):
        await _refuse(ws, trl(route.lang, "a request from another site is refused"), POLICY)
        return None
    data = await _hello_of(ws, route.lang)
    if data is None:
        return None
    client = route.client_of(ws)
    if not await _pin_ok(ws, route, client, data["pin"]):
        return None
    old = listening.owner
    tablet = _tablet_of(data)
    if old is not None:
        same_tablet = tablet is not None and old.tablet == tablet
        if data.get("take_over") is not True and not same_tablet:
            await _refuse(
                ws,
                trl(
                    route.lang,
                    "another tablet is already listening at this table; take over only "
                    "if the marker confirms",
                ),
                BUSY,
                code="busy",
            )
            return None
        old.taken_over = True
        await _refuse(
            old.websocket,
            trl(route.lang, "another tablet took over listening at this table"),
            POLICY,
            code="taken_over",
        )
    me = Connection(ws, client, tablet=tablet)
    listening.owner = me  # before anything is awaited: a second tablet meanwhile is refused
    return me


async def _open_stream(ws, route: _Route, me: Connection) -> TableStream:
    """The table's stream, going on after the gap since the last frame; ``ready`` sent."""
    table, listening = route.table, route.table.listening
    loop = asyncio.get_running_loop()
    try:
        if not listening._model_tried:
            await loop.run_in_executor(None, listening.find_model)
        stream = listening.open_stream()
    except BaseException:
        if listening.owner is me:
            listening.owner = None
        raise
    stream.set_view(_view(table))
    if listening.last_frame_wall is not None:  # the stream was away: its audio is lost
        away = route.clock() - listening.last_frame_wall
        await loop.run_in_executor(stream.executor, stream.gap, away)
    table.changed()
    await ws.send_text(
        _dumps(
            {
                "type": "ready",
                "t": round(stream.time, 3),
                "model": listening.model is not None,
                "problem": listening.problem,
                "recording": listening.to_json()["recording"],
                "profile": None if stream.profile is None else stream.profile.name,
                "hint": None if stream.profile is not None else _no_profile_hint(route.lang),
            }
        )
    )
    return stream


def _no_profile_hint(lang: str) -> str:
    """What the pad says when its table has no strike profile (a 5-strike profile decides 91 %
    of calls right at 10 dB of café noise against 85 % without: docs/dev/benchmarks.md)."""
    return trl(
        lang,
        "No table profile: in a noisy room strikes are heard surer with one. «Calibration»: "
        "5 strikes and a few collisions.",
    )


def _frame_problem(n: int, lang: str) -> tuple[str, int] | None:
    """What is wrong with a binary frame of ``n`` bytes (the reason in ``lang``, the close code),
    or None."""
    if n > FRAME_MAX_BYTES:
        return (
            trl(lang, "a frame is {n} bytes: at most {max} ({ms} ms of 16 kHz s16le)").format(
                n=n, max=FRAME_MAX_BYTES, ms=FRAME_MAX_MS
            ),
            TOO_BIG,
        )
    if n % 2 or n < FRAME_MIN_BYTES:
        return (
            trl(
                lang,
                "a frame must be {lo}–{hi} ms of 16 kHz s16le: an even number of bytes "
                "from {min} to {max}, not {n}",
            ).format(
                lo=FRAME_MIN_MS, hi=FRAME_MAX_MS, min=FRAME_MIN_BYTES, max=FRAME_MAX_BYTES, n=n
            ),
            UNSUPPORTED,
        )
    return None


async def _calibration(ws, route: _Route, stream: TableStream, control) -> None:
    """«Калибровка» from the pad: its start (the audio kept from now) or its end (the fit)."""
    loop = asyncio.get_running_loop()
    if control[0] == "calibrate":
        await loop.run_in_executor(stream.executor, stream.calibrate_start, control[1])
        message = trl(
            route.lang,
            "Calibration: play {count} strikes on the cue ball, one at a time, 2–3 s apart "
            "(the table quiet).",
        ).format(count=control[1])
        await ws.send_text(
            _dumps({"type": "calibrating", "count": control[1], "message": message})
        )
        return
    result = await loop.run_in_executor(stream.executor, stream.calibrate_end)
    route.table.listening.profile = stream.profile
    await ws.send_text(_dumps(result))


async def _on_text(ws, route: _Route, stream: TableStream, text: str) -> bool:
    """A control message after the first; False when the socket is done (stopped or refused)."""
    control = _control(text)
    if control == ("stop", None):
        await _hear_out(ws, route, stream, send=True)
        _record_end(
            route.table, route.lang
        )  # listening turned off: a recording asked for ends with it
        await ws.close(NORMAL, "stop")
        return False
    if control is not None and control[0] in ("calibrate", "calibrate_end"):
        await _calibration(ws, route, stream, control)
        return True
    if control is not None and control[0] in ("record", "record_end"):
        start = control[0] == "record"
        lang = route.lang
        reply = (
            _record_start(route.table, stream, lang) if start else _record_end(route.table, lang)
        )
        await ws.send_text(_dumps(reply))
        route.table.changed()
        return True
    await _refuse(
        ws,
        trl(route.lang, "after the first message only binary audio frames are taken"),
        UNSUPPORTED,
    )
    return False


@dataclass
class _Pace:
    """How much audio a socket sent against the time it has been open (the rate limit)."""

    started: float
    received_s: float = 0.0


async def _on_frame(ws, route: _Route, stream: TableStream, raw: bytes, pace: _Pace) -> bool:
    """One binary frame: checked, fed to the pipeline, what it brought sent on; False when the
    socket is done (refused, or gone while sending)."""
    problem = _frame_problem(len(raw), route.lang)
    if problem is not None:
        await _refuse(ws, *problem)
        return False
    pace.received_s += len(raw) / 2 / RATE
    if pace.received_s - (route.clock() - pace.started) > BURST_S:
        await _refuse(
            ws, trl(route.lang, "audio comes faster than real time: closed"), POLICY, code="rate"
        )
        return False
    samples = np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0
    stream.set_view(_view(route.table))
    _record_frame(route.table, raw, stream.time, route.lang)
    loop = asyncio.get_running_loop()
    out = await loop.run_in_executor(stream.executor, stream.feed, samples)
    route.table.listening.last_frame_wall = route.clock()
    return await _deliver(ws, route, out)


async def _deliver(ws, route: _Route, out, *, send: bool = True) -> bool:
    """What the stream brought: decisions to the match, events to the pages and (``send``) to
    the tablet; False when the tablet is gone."""
    for kind, item in out:
        if kind == "decision":
            route.on_decision(item)
            continue
        if kind != "level":  # the tablet's own microphone: told to the tablet alone
            route.publish_event(kind, item)
        if not send:
            continue
        try:
            await ws.send_text(_dumps(item))
        except Exception:
            send = False
    return send


async def _hear_out(ws, route: _Route, stream: TableStream, *, send: bool) -> None:
    """The tablet stopped sending: what the stream still held is decided and delivered
    (``TableStream.hear_out``), to the tablet too when it is still there."""
    loop = asyncio.get_running_loop()
    out = await loop.run_in_executor(stream.executor, stream.hear_out)
    await _deliver(ws, route, out, send=send)


async def _serve_stream(ws, route: _Route, stream: TableStream, me: Connection) -> None:
    """Take the tablet's messages until it stops, goes quiet, is refused or is taken over."""
    pace = _Pace(route.clock())
    while True:
        try:
            msg = await asyncio.wait_for(ws.receive(), IDLE_S)
        except asyncio.TimeoutError:
            await _hear_out(ws, route, stream, send=True)
            await _refuse(
                ws,
                trl(route.lang, "no audio for {s} s: listening stopped").format(s=int(IDLE_S)),
                NORMAL,
            )
            return
        if me.taken_over:  # the new link's gap hears out what this one sent
            return
        if msg["type"] == "websocket.disconnect":
            await _hear_out(ws, route, stream, send=False)
            return
        raw = msg.get("bytes")
        if raw is None:
            going = await _on_text(ws, route, stream, msg.get("text") or "")
        else:
            going = await _on_frame(ws, route, stream, raw, pace)
        if not going:  # stopped (heard out already) or refused: what was heard is decided
            await _hear_out(ws, route, stream, send=False)
            return


async def _listen_endpoint(ws, route: _Route) -> None:
    """One tablet's socket, from the accept to the close (the table freed after it)."""
    await ws.accept()
    me = await _admit(ws, route)
    if me is None:
        return
    listening: Listening = route.table.listening
    try:
        stream = await _open_stream(ws, route, me)
        await _serve_stream(ws, route, stream, me)
    except WebSocketDisconnect:
        return
    finally:
        if listening.owner is me:
            listening.owner = None
            route.table.changed()


def listen_route(
    table,
    guard,
    *,
    publish_event: Callable[[str, dict], None],
    on_decision: Callable,
    client_of: Callable,
    clock: Callable[[], float] = time.monotonic,
    lang: str,
):
    """The ``/api/listen`` WebSocket endpoint for one table (``table.listening``); what the
    tablet is told is said in ``lang``."""
    route = _Route(table, guard, publish_event, on_decision, client_of, clock, lang)
    if table.listening is not None and table.listening.other_ears is None:

        def other_ears():
            store = table.store
            return None if store is None else read_ears(store.path, table.match_id)

        table.listening.other_ears = other_ears

    async def endpoint(ws) -> None:
        await _listen_endpoint(ws, route)

    return endpoint


def _tablet_of(hello: dict) -> str | None:
    """The page's id in the first message (``"tablet"``: a random string the pad makes once per
    tab). The same tablet reconnecting, its old socket not yet seen gone (a dropped Wi-Fi sends
    no close), takes its own place back without asking the marker."""
    tablet = hello.get("tablet")
    if isinstance(tablet, str) and 8 <= len(tablet) <= 64 and tablet.isprintable():
        return tablet
    return None


def _control(text: str):
    """A control message after the first: ``("stop", None)``, ``("calibrate", COUNT)``,
    ``("calibrate_end", None)``, ``("record", None)``, ``("record_end", None)``; None for anything
    else (garbage: the socket is closed)."""
    if len(text) > 200:
        return None
    try:
        m = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(m, dict):
        return None
    kind = m.get("type")
    if kind in ("stop", "calibrate_end", "record", "record_end") and set(m) == {"type"}:
        return kind, None
    if kind == "calibrate" and set(m) <= {"type", "count"}:
        count = m.get("count", 5)
        if isinstance(count, int) and not isinstance(count, bool) and count in CALIBRATION_COUNTS:
            return kind, count
    return None


# -- a recording, only on the marker's request (listen_record.py) ------------------------------


def _record_start(table, stream: TableStream, lang: str) -> dict:
    """«Запись» on the pad: the stream from now to a WAV beside the match store."""
    listening: Listening = table.listening
    if listening.recording is None:
        try:
            listening.recording = Recording(
                recordings_dir(table.store.path),
                table.match_id,
                stream.time,
                table.store.strokes(table.match_id),
            )
        except OSError as exc:
            return {
                "type": "recording",
                "on": False,
                "message": trl(lang, "the recording could not be written: {why}").format(why=exc),
            }
    rec = listening.recording
    return {
        "type": "recording",
        "on": True,
        "file": rec.path.name,
        "message": trl(lang, "recording to {file}").format(file=rec.path),
    }


def _record_frame(table, raw: bytes, stream_t: float, lang: str) -> None:
    """A frame to the recording, if one is asked for; the strokes entered since, tied to it."""
    rec = table.listening.recording
    if rec is None:
        return
    try:
        rec.write(raw, stream_t)
        if table.session.seq != rec.seen_seq:
            rec.seen_seq = table.session.seq
            rec.add_strokes(table.store.strokes(table.match_id))
    except OSError as exc:  # the disk is full or gone: the recording ends, listening goes on
        table.listening.recording = None
        table.notices.append(
            trl(lang, "the recording could not be written: {why}").format(why=exc)
        )
        table.changed()


def _record_end(table, lang: str) -> dict:
    """The recording closed (its index with the strokes entered meanwhile); what it holds."""
    listening: Listening = table.listening
    rec, listening.recording = listening.recording, None
    if rec is None:
        return {"type": "recorded", "on": False, "message": trl(lang, "nothing is being recorded")}
    try:
        rec.add_strokes(table.store.strokes(table.match_id))
    finally:
        index = rec.close()
    return {
        "type": "recorded",
        "on": False,
        "file": rec.path.name,
        "seconds": index["seconds"],
        "strokes": [s["id"] for s in index["strokes"]],
        "message": trl(lang, "recording saved: {file}, {seconds} s; strokes in it: {n}").format(
            file=rec.path, seconds=round(index["seconds"], 1), n=len(index["strokes"])
        ),
    }


def _view(table) -> MatchView:
    s = table.session
    seq = getattr(s, "seq", None)
    return MatchView(
        s.settings, s.state, getattr(s, "upcoming", None), seq, _unheard_last(table, seq)
    )


def _unheard_last(table, seq: int | None) -> bool:
    """Did the record's last stroke take its call with no strike heard (Q13)? Read from the store
    once a stroke (the view is made before every block)."""
    listening = getattr(table, "listening", None)
    seen = getattr(listening, "last_stroke_seen", None)
    if seq is None or listening is None:
        return False
    if seen is None or seen[0] != seq:
        rows = table.session.store.strokes(table.session.id)[-1:]
        note = rows[0].record.strike if rows else None
        seen = listening.last_stroke_seen = (seq, bool(note and note.get("heard") is False))
    return seen[1]
