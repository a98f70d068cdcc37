"""A recording of the table's stream, made only when the marker asks for one on the pad.

Audio is never stored otherwise. Asked for (``{"type": "record"}`` on ``WS /api/listen``, the
pad's «Запись», behind the PIN like every write), the stream's frames go, as they come, to a WAV
beside the match store (``<store>-recordings/match-<id>-<time>.wav``: 16 kHz mono 16-bit, its
header kept valid after every frame, so a kill leaves a playable file), until the marker stops it
(``{"type": "record_end"}``), turns listening off or ``serve`` stops. Beside it,
``<same name>.json`` ties the audio to the strokes entered meanwhile: each stroke's store id and
number, its strike on the stream's clock and where that is in the WAV; the stretches of the WAV
and the stream time each begins at (a reconnect's gap is not in the WAV: the audio was lost).
"""

from __future__ import annotations

import json
import os
import wave
from datetime import datetime, timezone
from pathlib import Path

RATE = 16000


def recordings_dir(store_path: str | os.PathLike) -> Path:
    """The folder beside the match store where its recordings go."""
    p = Path(store_path)
    return p.with_name(p.name + "-recordings")


class Recording:
    """One recording of the stream: the WAV being written and its index of strokes."""

    def __init__(self, folder: Path, match_id: int, stream_t: float, strokes_before) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        self.path = folder / f"match-{match_id}-{stamp}.wav"
        n = 1
        while self.path.exists():  # two in one second
            n += 1
            self.path = folder / f"match-{match_id}-{stamp}-{n}.wav"
        self.index_path = self.path.with_name(self.path.name + ".json")
        self.match_id = match_id
        self.started = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.samples = 0
        self.segments: list[dict] = [{"wav": 0.0, "stream": round(stream_t, 4)}]
        self._next_t = stream_t  # the stream time the next frame should begin at
        self._known = {row.id for row in strokes_before}  # entered before: not this recording's
        self.strokes: list[dict] = []
        self.seen_seq: int | None = None  # the record's stroke count last looked at
        self._wav = wave.open(str(self.path), "wb")
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(RATE)
        self.save_index()

    @property
    def seconds(self) -> float:
        return self.samples / RATE

    def write(self, raw: bytes, stream_t: float) -> None:
        """One frame (s16le) that begins at ``stream_t`` on the stream's clock."""
        if abs(stream_t - self._next_t) > 1e-3:  # a gap: the WAV goes on, the stream jumped
            self.segments.append({"wav": round(self.seconds, 4), "stream": round(stream_t, 4)})
        self._wav.writeframes(raw)  # the module patches the header after each write
        self.samples += len(raw) // 2
        self._next_t = stream_t + len(raw) / 2 / RATE

    def wav_time(self, t: float | None) -> float | None:
        """Where the stream's time ``t`` is in the WAV (None: not in it, e.g. in a gap)."""
        if t is None:
            return None
        ends = [s["wav"] for s in self.segments[1:]] + [self.seconds]
        for seg, end in zip(self.segments, ends):
            at = seg["wav"] + (t - seg["stream"])
            if seg["wav"] <= at <= end:
                return round(at, 4)
        return None

    def add_strokes(self, rows) -> bool:
        """The strokes of the record not seen yet are this recording's; True if any was new."""
        new = [row for row in rows if row.id not in self._known]
        for row in new:
            self._known.add(row.id)
            note = row.record.strike or {}
            t = note.get("t") if note.get("heard") else note.get("outcome")
            self.strokes.append(
                {
                    "id": row.id,
                    "seq": row.seq,
                    "strike_heard": bool(note.get("heard")),
                    "stream_t": t,
                    "wav_t": self.wav_time(t),
                    "entered": row.time,
                }
            )
        if new:
            self.save_index()
        return bool(new)

    def to_json(self) -> dict:
        return {
            "wav": self.path.name,
            "match": self.match_id,
            "started": self.started,
            "rate": RATE,
            "seconds": round(self.seconds, 3),
            "segments": self.segments,
            "strokes": self.strokes,
        }

    def save_index(self) -> None:
        tmp = self.index_path.with_name(self.index_path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1), "utf-8")
        os.replace(tmp, self.index_path)

    def close(self) -> dict:
        """Finish the WAV and its index; the index."""
        self._wav.close()
        self.save_index()
        return self.to_json()
