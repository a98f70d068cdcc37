"""Audio in: WAV files of any rate and channel count, and one stream of frames on one clock.

Everything downstream (Vosk, the strike detector, the session timeline) sees the same thing:
16 kHz mono float32 samples in [-1, 1], cut into short blocks, each block carrying its start time
in seconds from the start of the audio. The clock is the sample count, not the wall clock: a file
and a microphone give the same times for the same audio, and the recognizer's word times (which
also count samples from its start) agree with the detector's strike times.

Block size: the strike detector reports a strike after a look-ahead of a few milliseconds plus
the wait for the block that holds it, so the worst-case report delay is about
``look-ahead + block_ms``. The default 10 ms blocks keep it under the 20 ms bar; 20 ms blocks
also work (the strike *time* is the same), only the worst-case report delay grows.
"""

from __future__ import annotations

import io
import math
import os
import re
import shlex
import struct
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .errors import AudioFileError
from .messages import N_, trl

RATE = 16000
"""The one sample rate of the pipeline (Vosk's small models and the strike detector)."""

DEFAULT_BLOCK_MS = 10

# scipy's names of a WAV's sample kinds, as a reader names them.
_SAMPLE_KINDS = {"integer": N_("integer"), "float": N_("float")}


class Frame(NamedTuple):
    """One block of audio: float32 mono samples and the time (s) of its first sample."""

    samples: np.ndarray
    t0: float

    @property
    def t1(self) -> float:
        """Time just after the last sample (stream time once this block has arrived)."""
        return self.t0 + len(self.samples) / RATE


def block_samples(block_ms: float, rate: int = RATE) -> int:
    """Samples in a block of ``block_ms`` milliseconds (at least one)."""
    if not (block_ms > 0):
        raise ValueError(f"block_ms must be positive, got {block_ms!r}")
    return max(1, int(round(rate * block_ms / 1000.0)))


class Frames:
    """An iterator of :class:`Frame` blocks with a shared clock.

    ``rate`` is the sample rate (always :data:`RATE` for the pipeline), ``block`` the nominal
    block length in samples (the last block of a file may be shorter), ``source`` a name for
    messages. ``samples_read`` counts the samples handed out so far; the next block starts at
    ``samples_read / rate`` seconds.
    """

    def __init__(
        self, blocks: Iterator[np.ndarray], *, rate: int = RATE, block: int, source: str = ""
    ) -> None:
        self._blocks = iter(blocks)
        self.rate = rate
        self.block = block
        self.source = source
        self.samples_read = 0

    @property
    def time(self) -> float:
        """Stream time (s): the start time of the next block."""
        return self.samples_read / self.rate

    def __iter__(self) -> Frames:
        return self

    def __next__(self) -> Frame:
        samples = next(self._blocks)
        frame = Frame(samples, self.samples_read / self.rate)
        self.samples_read += len(samples)
        return frame


def array_frames(
    samples: np.ndarray, block_ms: float = DEFAULT_BLOCK_MS, *, source: str = "<array>"
) -> Frames:
    """Frames over samples already at :data:`RATE` (mono float32)."""
    x = np.ascontiguousarray(samples, dtype=np.float32)
    if x.ndim != 1:
        raise ValueError("array_frames wants mono (1-D) samples")
    n = block_samples(block_ms)
    return Frames((x[i : i + n] for i in range(0, len(x), n)), block=n, source=source)


def file_frames(
    path: str | os.PathLike, block_ms: float = DEFAULT_BLOCK_MS, *, lang: str = "ru"
) -> Frames:
    """Frames of a WAV file, converted to 16 kHz mono (read whole, then cut in blocks).

    Raises :class:`AudioFileError` at once (not on first iteration) if the file is unreadable.
    """
    x = read_wav(path, lang=lang)
    return array_frames(x, block_ms, source=os.fspath(path))


def to_pcm16(samples: np.ndarray) -> bytes:
    """Float samples in [-1, 1] to little-endian 16-bit PCM bytes
    (what Vosk's AcceptWaveform takes)."""
    x = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0)
    return (x * 32767.0).round().astype("<i2").tobytes()


# ---------------------------------------------------------------------------------------------
# WAV files

_INT_SCALE = {
    np.dtype(np.int16): 32768.0,
    np.dtype(np.int32): 2147483648.0,  # 32-bit, and 24-bit (scipy left-justifies it into int32)
    np.dtype(np.int64): 9223372036854775808.0,
}


def to_float32(data: np.ndarray) -> np.ndarray:
    """Integer or float PCM samples to float32 in [-1, 1] (shape kept)."""
    dt = data.dtype
    if not dt.isnative:
        data = data.astype(dt.newbyteorder("="))  # a RIFX file's big-endian samples
        dt = data.dtype
    if dt == np.uint8:  # 8-bit WAV is unsigned, centred on 128
        return (data.astype(np.float32) - 128.0) / 128.0
    if dt in _INT_SCALE:
        return (data.astype(np.float64) / _INT_SCALE[dt]).astype(np.float32)
    if dt.kind == "f":
        return data.astype(np.float32)
    raise TypeError(f"unsupported sample type {dt}")


def to_mono(data: np.ndarray) -> np.ndarray:
    """Average the channels (frames × channels → frames)."""
    if data.ndim == 1:
        return data
    return data.mean(axis=1, dtype=np.float64).astype(np.float32)


def resample(x: np.ndarray, rate: int, target: int = RATE) -> np.ndarray:
    """Polyphase resampling (scipy.signal.resample_poly) of a whole signal."""
    if rate == target:
        return np.asarray(x, dtype=np.float32)
    from scipy.signal import resample_poly  # deferred: scipy is slow to load

    g = math.gcd(int(rate), int(target))
    return resample_poly(x, target // g, int(rate) // g).astype(np.float32)


CHUNK_FRAMES = 1 << 20
"""Frames converted at a time (about 22 s at 48 kHz): a long recording is made float, mono and
16 kHz a piece at a time: its conversion needs memory for one piece, not eight times the file."""


def to_pipeline_rate(data, rate: int, *, chunk: int | None = None) -> np.ndarray:
    """Samples as a WAV holds them (frames, or frames × channels; an array or anything sliced by
    frames, such as :class:`FileSamples`) → float32 mono at :data:`RATE`, a chunk at a time.

    The same samples as :func:`resample` of the whole :func:`to_mono` signal (to float rounding):
    each chunk is resampled with enough of its neighbours on both sides for the filter, from a
    frame where the input and output clocks meet (a multiple of the rate ratio's denominator).
    ``chunk``: frames a piece (:data:`CHUNK_FRAMES` unless given).
    """
    n, chunk = int(data.shape[0]), CHUNK_FRAMES if chunk is None else int(chunk)
    if n <= chunk:
        return resample(to_mono(to_float32(np.asarray(data[0:n]))), rate)
    if rate == RATE:
        out = np.empty(n, dtype=np.float32)
        for a in range(0, n, chunk):
            out[a : a + chunk] = to_mono(to_float32(np.asarray(data[a : a + chunk])))
        return out
    g = math.gcd(int(rate), RATE)
    up, down = RATE // g, int(rate) // g
    # resample_poly's filter reaches 10·max(up, down) upsampled samples each way: in input frames
    # that is 10·max(up, down)/up; a few more, rounded up to a whole number of ``down``
    reach = math.ceil((10 * max(up, down) / up + 2) / down) * down
    step = max(down, (chunk // down) * down)
    out = np.empty(-(-n * up // down), dtype=np.float32)  # resample_poly's length: ⌈n·up/down⌉
    for a in range(0, n, step):
        b = min(n, a + step)
        a0, b0 = max(0, a - reach), min(n, b + reach)
        y = resample(to_mono(to_float32(np.asarray(data[a0:b0]))), rate)
        o0 = a // down * up  # a and a0 are multiples of down: whole output samples
        o1 = len(out) if b == n else b // down * up
        j = o0 - a0 // down * up
        out[o0:o1] = y[j : j + (o1 - o0)]
    return out


class _FileChanged(OSError):
    """A WAV read a piece at a time came to an end before its samples did: something else cut
    or rewrote it meanwhile."""


class FileSamples:
    """A WAV's samples left in the file, read a slice of frames at a time (``data[a:b]``): a long
    recording is never held whole in the form it was recorded in. ``dtype`` is what a slice
    comes as, the same as scipy's whole read gives (``width``: bytes a sample in the file; a
    packed 24-bit sample comes as a left-justified 32-bit one, as scipy makes it)."""

    def __init__(
        self,
        path: str,
        offset: int,
        dtype: np.dtype,
        shape: tuple[int, ...],
        width: int | None = None,
    ):
        self.path, self.offset, self.dtype, self.shape = path, int(offset), np.dtype(dtype), shape
        self.ndim = len(shape)
        self.width = self.dtype.itemsize if width is None else int(width)
        self._per_frame = int(np.prod(shape[1:], dtype=np.int64)) if self.ndim > 1 else 1

    def __getitem__(self, frames: slice) -> np.ndarray:
        if not isinstance(frames, slice) or frames.step not in (None, 1):
            raise TypeError("FileSamples takes a plain slice of frames, data[a:b]")
        a, b, _ = frames.indices(self.shape[0])
        n = max(0, b - a)
        count = n * self._per_frame
        with open(self.path, "rb") as fh:
            fh.seek(self.offset + a * self._per_frame * self.width)
            if self.width == self.dtype.itemsize:
                x = np.fromfile(fh, dtype=self.dtype, count=count)
            else:
                raw = np.fromfile(fh, dtype=np.uint8, count=count * self.width)
                x = _widen(raw, self.width, self.dtype)
        if len(x) < count:
            raise _FileChanged(self.path)
        return x.reshape((n,) + tuple(self.shape[1:]))


def _widen(raw: np.ndarray, width: int, dtype: np.dtype) -> np.ndarray:
    """Packed samples of ``width`` bytes (3, 5, 6, 7) → ``dtype`` (4 or 8 bytes), the sample's
    bytes at its top (left-justified), as scipy widens them."""
    n = len(raw) // width
    wide = np.zeros((n, dtype.itemsize), dtype=np.uint8)
    cells = raw[: n * width].reshape(n, width)
    if dtype.byteorder == ">":
        wide[:, :width] = cells
    else:
        wide[:, -width:] = cells
    return wide.view(dtype).reshape(n)


@dataclass(frozen=True)
class WavInfo:
    """What a WAV file held before conversion (for messages and tests)."""

    rate: int
    channels: int
    dtype: str
    frames: int
    missing_s: float = 0.0  # how much shorter than its header says (a recording cut off), s

    @property
    def seconds(self) -> float:
        return self.frames / self.rate if self.rate > 0 else 0.0


QUIET_PEAK_DB = -30.0
"""A recording whose loudest sound is under this (dBFS) is quieter than any the strike decision
was fitted on (their peaks were drawn from −30 to −1 dBFS). Played back at each level, the
benchmark's sessions (540 strokes) were decided right 485 times at −1 dBFS, 480 at −20 and −30,
470 at −40; three sources' 108 strokes 97 times at −1 and 68 at −50 (docs/dev/benchmarks.md)."""


def quiet_note(path: str | os.PathLike, samples: np.ndarray, *, lang: str = "ru") -> str | None:
    """One line telling that a recording is too quiet for the strike detector to hear it well,
    or None when it is not (or holds nothing at all: silence is its own story)."""
    peak = float(np.max(np.abs(samples))) if len(samples) else 0.0
    if peak <= 0.0:
        return None
    peak_db = 20.0 * math.log10(peak)
    if peak_db >= QUIET_PEAK_DB:
        return None
    return trl(
        lang,
        "{path}: a quiet recording (its loudest sound {peak:.0f} dBFS): strikes are heard less "
        "surely under {floor:.0f} dBFS; record with more microphone gain",
    ).format(path=os.fspath(path), peak=peak_db, floor=QUIET_PEAK_DB)


SILENT_PEAK_DB = -80.0
"""A microphone whose loudest sound stays under this (dBFS) hears nothing: muted, unplugged, or
the wrong device (a quiet room with a working microphone is some 20 dB over it)."""


class LevelWatch:
    """Tells once, early, when a live input is silent or too quiet for the strike detector.

    Fed every block: after ``first_s`` of audio it says so if nothing at all was heard (the
    loudest sample under :data:`SILENT_PEAK_DB`), or if something stood out of the room (a voice,
    a knock: a 10 ms block ``stand_out_db`` over the median one) and even that stayed under
    :data:`QUIET_PEAK_DB`. It watches until ``give_up_s`` for a sound to stand out, then stops.
    """

    def __init__(
        self,
        rate: int = RATE,
        first_s: float = 10.0,
        give_up_s: float = 120.0,
        stand_out_db: float = 15.0,
        lang: str = "ru",
        tablet: bool = False,
    ) -> None:
        self.rate, self.first_s, self.give_up_s = rate, first_s, give_up_s
        self.stand_out_db, self.lang = stand_out_db, lang
        self.tablet = tablet  # the pad's microphone: what to check is the tablet, not a device
        self.seconds = 0.0
        self.peak = 0.0
        self._rms: list[np.ndarray] = []  # 10 ms blocks' mean squares, for the room's median
        self._loudest = 0.0  # the largest of them
        self._looked = -1.0  # when the loudest was last held against the median (s of audio)
        self.done = False

    def feed(self, block: np.ndarray) -> str | None:
        """The note to show, once (None until then, and after)."""
        if self.done or not len(block):
            return None
        x = np.asarray(block, dtype=np.float32)
        self.seconds += len(x) / self.rate
        self.peak = max(self.peak, float(np.max(np.abs(x))))
        n = self.rate // 100
        k = len(x) // n
        louder = False
        if k:
            ms = (x[: k * n].reshape(k, n).astype(np.float64) ** 2).mean(axis=1)
            self._rms.append(ms)
            louder = float(ms.max()) > self._loudest
            self._loudest = max(self._loudest, float(ms.max()))
        if self.seconds < self.first_s:
            return None
        peak_db = 20.0 * math.log10(self.peak) if self.peak > 0 else -math.inf
        if peak_db < SILENT_PEAK_DB:
            self.done = True
            text = (
                trl(
                    self.lang,
                    "the tablet's microphone hears nothing (its loudest sound in {s:.0f} s: "
                    "{peak}): is it muted, or taken by another app?",
                )
                if self.tablet
                else trl(
                    self.lang,
                    "the microphone hears nothing (its loudest sound in {s:.0f} s: {peak}): is "
                    "it muted, or another device (--list-devices)?",
                )
            )
            return text.format(
                s=self.seconds,
                peak=trl(self.lang, "{peak:.0f} dBFS").format(peak=peak_db)
                if self.peak > 0
                else trl(self.lang, "silence"),
            )
        if peak_db >= QUIET_PEAK_DB:
            self.done = True  # loud enough, whatever comes
            return None
        # the room's median moves slowly: held against the loudest block when that grows, and
        # once a second of audio (not every block: up to 12,000 blocks before it gives up)
        if not louder and self.seconds - self._looked < 1.0:
            return None
        self._looked = self.seconds
        median = float(np.median(np.concatenate(self._rms))) if self._rms else 0.0
        loud = 10.0 * math.log10(max(self._loudest, 1e-20) / max(median, 1e-20))
        if loud >= self.stand_out_db:
            self.done = True
            text = (
                trl(
                    self.lang,
                    "the tablet's microphone hears quietly (its loudest sound {peak:.0f} dBFS): "
                    "strikes are heard less surely under {floor:.0f} dBFS; put the tablet "
                    "nearer the table",
                )
                if self.tablet
                else trl(
                    self.lang,
                    "the microphone hears quietly (its loudest sound {peak:.0f} dBFS): strikes "
                    "are heard less surely under {floor:.0f} dBFS; turn its gain up",
                )
            )
            return text.format(peak=peak_db, floor=QUIET_PEAK_DB)
        if self.seconds >= self.give_up_s:
            self.done = True
        return None


def file_notes(
    path: str | os.PathLike, samples: np.ndarray, info: WavInfo, *, lang: str = "ru"
) -> list[str]:
    """What a user should know of a WAV that was read (cut off, too quiet): one line each."""
    notes = (cut_short_note(path, info, lang=lang), quiet_note(path, samples, lang=lang))
    return [n for n in notes if n]


def read_wav_noted(path: str | os.PathLike, *, lang: str = "ru") -> tuple[np.ndarray, list[str]]:
    """:func:`read_wav`, and what the user should be told of the file (:func:`file_notes`)."""
    samples, info = read_wav_info(path, lang=lang)
    return samples, file_notes(path, samples, info, lang=lang)


def cut_short_note(path: str | os.PathLike, info: WavInfo, *, lang: str = "ru") -> str | None:
    """One line telling that a WAV ends before its header says (it is read as far as it goes),
    or None when it does not."""
    if info.missing_s <= 0.0:
        return None
    return trl(
        lang,
        "{path}: the file is shorter than its header says ({read:.1f} s of about {whole:.1f} s): "
        "a recording cut off? Only what is there is heard",
    ).format(path=os.fspath(path), read=info.seconds, whole=info.seconds + info.missing_s)


_EOF_EARLY = re.compile(r"Reached EOF prematurely; finished at (\d+) bytes, expected (\d+) bytes")
_CUT_IN_A_FRAME = re.compile(r"cannot reshape|multiple of element size")
_SIZE_UNKNOWN = 0x7FFF0000  # a RIFF size this large is a stream's "not known yet", not a promise
_HEADER_SLACK = 64  # bytes a header may overstate a whole file by (a chunk header never written)
STREAM_BYTES = 16 << 20  # a WAV larger than this is read from the file a piece at a time


def _load(path: str, lang: str) -> tuple[int, np.ndarray | FileSamples, float]:
    """(rate, samples, the size its header gives over the file's own: above 1 when the file
    falls short of it, as a recording cut off does)."""
    from scipy.io import wavfile  # deferred: scipy is slow to load

    if not os.path.exists(path):
        raise AudioFileError(trl(lang, "{path}: no such file").format(path=path))
    if os.path.isdir(path):
        raise AudioFileError(trl(lang, "{path}: is a directory, not a WAV file").format(path=path))
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError as exc:
        raise AudioFileError(
            trl(lang, "{path}: cannot read the file ({strerror})").format(
                path=path, strerror=exc.strerror
            )
        ) from exc
    if size == 0:
        raise AudioFileError(trl(lang, "{path}: the file is empty (0 bytes)").format(path=path))
    kind = recording_kind(head)
    if kind is not None:
        stem, ext = os.path.splitext(path)
        wav = stem + ("-16k.wav" if ext.lower() == ".wav" else ".wav")  # never onto itself
        raise AudioFileError(
            trl(
                lang,
                "{path}: this is a {kind} recording, not a WAV file; convert it first, e.g. "
                "with ffmpeg: {command}",
            ).format(
                path=path,
                kind=kind,
                command=shlex.join(["ffmpeg", "-i", path, "-ac", "1", "-ar", "16000", wav]),
            )
        )
    if len(head) < 12 or head[:4] not in (b"RIFF", b"RIFX", b"RF64") or head[8:12] != b"WAVE":
        raise AudioFileError(
            trl(
                lang,
                "{path}: not a WAV file (no RIFF/WAVE header); "
                "a WAV file (PCM or float) is needed",
            ).format(path=path)
        )

    if size > STREAM_BYTES:
        left = _left_in_file(path, size)
        if left is not None:
            return left

    def read(source):
        with warnings.catch_warnings(record=True) as heard:
            # WavFileWarning on unknown chunks: harmless. On a data chunk cut short scipy warns
            # and returns the samples that are there: a recording cut off (or streamed with no
            # final size in its header) is read as far as it goes, and the caller is told.
            warnings.simplefilter("always")
            return (*wavfile.read(source, mmap=False), heard)

    try:
        try:
            rate, data, heard = read(path)
        except ValueError as exc:
            if not _CUT_IN_A_FRAME.search(str(exc)):
                raise
            # cut inside its last frame (a sample's first byte, or one channel's sample of
            # several): read what is whole, without that frame's part (less than a frame)
            rate, data, heard = _whole_frames(path, read, exc)
    except Exception as exc:  # scipy raises ValueError / EOFError / struct errors on bad files
        raise AudioFileError(_wav_problem(exc, path, size, lang)) from exc
    short = 1.0
    for w in heard:
        m = _EOF_EARLY.search(str(w.message))
        if m and 0 < int(m.group(1)) + _HEADER_SLACK < int(m.group(2)) < _SIZE_UNKNOWN:
            short = max(short, int(m.group(2)) / int(m.group(1)))
    return int(rate), data, short


def recording_kind(head: bytes) -> str | None:
    """The kind of a sound file that is not a WAV, from its first bytes (a phone's voice note is
    M4A, Ogg Opus or AMR; a recorder's MP3 or FLAC), or None when it is none of those."""
    if head[:4] == b"OggS":
        return "Ogg Opus" if b"OpusHead" in head else "Ogg Vorbis" if b"vorbis" in head else "Ogg"
    if head[4:8] == b"ftyp":
        return "3GP" if head[8:11] == b"3gp" else "MP4/M4A (AAC)"
    if head[:3] == b"ID3" or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE6 == 0xE2):
        return "MP3"  # an ID3 tag, or an MPEG audio layer III frame's sync word
    if len(head) > 1 and head[0] == 0xFF and head[1] & 0xF6 == 0xF0:
        return "AAC"  # an ADTS frame's sync word (a bare .aac)
    if head[:4] == b"fLaC":
        return "FLAC"
    if head[:5] == b"#!AMR":
        return "AMR"
    if head[:4] == b"\x1aE\xdf\xa3":
        return "WebM/Matroska"
    if head[:4] == b"FORM" and head[8:12] in (b"AIFF", b"AIFC"):
        return "AIFF"
    if head[:4] == b"caff":
        return "CAF"
    return None


_SUBTYPE_TAIL = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
"""The part every WAVE_FORMAT_EXTENSIBLE sub-format GUID shares after its format tag."""


def _left_in_file(path: str, size: int) -> tuple[int, FileSamples, float] | None:
    """(rate, the samples left in the file, the header's size over the file's own, as
    :func:`_load` gives it) for a plain PCM or float WAV, whole, cut off or streamed with no
    size written yet; None for anything else (RF64, odd layouts, any doubt or damage): the whole
    read, which knows them and what is wrong with them, takes it."""
    try:
        with open(path, "rb") as fh:
            found = _plain_layout(fh, size)
    except (OSError, struct.error):
        return None
    if found is None:
        return None
    rate, dtype, width, channels, offset, frames, read_to, riff_end = found
    # as scipy's whole read finds it: the file ends before the header's size
    short = riff_end / read_to if 0 < read_to + _HEADER_SLACK < riff_end < _SIZE_UNKNOWN else 1.0
    shape = (frames,) if channels == 1 else (frames, channels)
    return rate, FileSamples(path, offset, dtype, shape, width), short


def _plain_layout(fh, size: int):
    """The RIFF chunks of an open WAV walked as scipy walks them, for :func:`_left_in_file`:
    (rate, dtype, width, channels, data offset, frames, where reading ends, RIFF end), or None
    at the first thing that is not plain."""
    head = fh.read(12)
    if len(head) < 12 or head[:4] not in (b"RIFF", b"RIFX"):
        return None
    order = ">" if head[:4] == b"RIFX" else "<"
    riff_end = struct.unpack(order + "I", head[4:8])[0] + 8
    fmt = None
    while True:  # up to the data chunk: chunks that begin inside the RIFF size, as scipy reads
        if fh.tell() >= riff_end:
            return None
        chunk = fh.read(8)
        if len(chunk) < 8:
            return None
        cid, csize = chunk[:4], struct.unpack(order + "I", chunk[4:])[0]
        if cid == b"data":
            break
        if cid == b"fmt ":
            if fmt is not None or csize not in (16, 18, 40):
                return None
            fmt = fh.read(csize)
            if len(fmt) < csize:
                return None
            fh.seek(csize & 1, 1)
        else:
            fh.seek(csize + (csize & 1), 1)
    offset, declared = fh.tell(), csize
    if fmt is None:
        return None
    tag, channels, rate, byte_rate, block_align, bits = struct.unpack(order + "HHIIHH", fmt[:16])
    if tag == 0xFFFE:  # extensible: the sub-format's tag opens its GUID
        if order == ">" or len(fmt) < 40 or fmt[26:40] != _SUBTYPE_TAIL:
            return None
        if struct.unpack("<H", fmt[16:18])[0] < 22:  # cbSize
            return None
        tag = struct.unpack("<H", fmt[24:26])[0]
    if channels < 1 or rate < 1 or block_align < channels or block_align % channels:
        return None
    width = block_align // channels
    if tag == 1 and byte_rate != rate * block_align:
        return None  # scipy calls such a PCM header invalid
    if tag == 1 and 1 <= bits <= 8 and width == 1:
        dtype = np.dtype("u1")
    elif tag == 1 and 8 < bits <= 8 * width and width in (2, 4, 8):
        dtype = np.dtype(f"{order}i{width}")
    elif tag == 1 and 8 < bits <= 8 * width and width in (3, 5, 6, 7):
        dtype = np.dtype(f"{order}i4" if width == 3 else f"{order}i8")
    elif tag == 3 and bits in (32, 64) and width == bits // 8:
        dtype = np.dtype(f"{order}f{width}")
    else:
        return None
    there = size - offset
    if declared == 0:
        return None
    if declared > there:  # cut off, or streamed with no size written yet
        frames = there // block_align
        # where scipy stops: past the samples, and past the pad byte an odd size promises
        read_to = offset + frames * block_align + (declared & 1)
        return rate, dtype, width, channels, offset, frames, read_to, riff_end
    if declared % block_align:
        return None  # a data size no frame count makes: the whole read's way
    # whole: what follows the samples inside the RIFF size must be whole chunks of no
    # consequence (a LIST of tags, a JUNK), as scipy skips them
    pos = offset + declared + (declared & 1)
    fh.seek(pos)
    while pos < min(riff_end, size):
        chunk = fh.read(8)
        if len(chunk) < 8 or chunk[:4] in (b"fmt ", b"data"):
            return None
        csize = struct.unpack(order + "I", chunk[4:])[0]
        pos += 8 + csize + (csize & 1)
        if pos > size:
            return None  # a trailing chunk cut off: the whole read tells it its own way
        fh.seek(pos)
    read_to = max(size, offset + declared + (declared & 1))
    return rate, dtype, width, channels, offset, declared // block_align, read_to, riff_end


def _whole_frames(path: str, read, exc: Exception):
    """``read`` of the file without the bytes of a last frame cut in the middle: fewer than a
    frame's, so at most a frame's worth of tries (each one a copy of the file)."""
    with open(path, "rb") as fh:
        raw = fh.read()
    for cut in range(1, _frame_bytes(raw)):
        try:
            return read(io.BytesIO(raw[:-cut]))
        except ValueError as again:
            if not _CUT_IN_A_FRAME.search(str(again)):
                raise
    raise exc


def _frame_bytes(raw: bytes) -> int:
    """A WAV's frame size (its fmt chunk's block align) from its first bytes; 64 when no fmt
    chunk is found there."""
    i = raw.find(b"fmt ", 12, 4096)
    if i < 0 or len(raw) < i + 22:
        return 64
    order = ">" if raw[:4] == b"RIFX" else "<"
    return max(2, struct.unpack(order + "H", raw[i + 20 : i + 22])[0])


def _wav_problem(exc: Exception, path: str, size: int, lang: str) -> str:
    """scipy's (English, low-level) reason a WAV could not be read → one clear
    line naming the file."""
    text = str(exc)
    if (
        isinstance(exc, (struct.error, EOFError))
        or "Unexpected end of file" in text
        or "Incomplete chunk" in text
    ):
        return trl(
            lang,
            "{path}: the WAV file is truncated or damaged: it ends inside its header (the file "
            "has only {size} bytes)",
        ).format(path=path, size=size)
    m = re.match(r"Unknown wave file format: (\S+?)\.", text)
    if m:
        return trl(
            lang,
            "{path}: unsupported sound encoding in the WAV ({v}); PCM (integer samples) or float "
            "is needed",
        ).format(path=path, v=m.group(1))
    m = re.match(
        r"Unsupported bit depth: the WAV file has (\d+)-bit (integer|floating-point)", text
    )
    if m:
        bits, kind = m.groups()
        return trl(lang, "{path}: unsupported WAV bit depth: {bits}-bit {kind}").format(
            path=path, bits=bits, kind=trl(lang, _SAMPLE_KINDS.get(kind, kind))
        )
    if (
        "not compliant" in text
        or "header is invalid" in text
        or "No fmt chunk" in text
        or "RF64" in text
    ):
        return trl(
            lang, "{path}: the WAV file is damaged: its header (fmt chunk) is invalid"
        ).format(path=path)
    detail = text or type(exc).__name__  # an unforeseen reason: scipy's words, marked as such
    return trl(lang, "{path}: broken or unsupported WAV (scipy: {detail})").format(
        path=path, detail=detail
    )


def read_wav_info(path: str | os.PathLike, *, lang: str = "ru") -> tuple[np.ndarray, WavInfo]:
    """Like :func:`read_wav`, and also what the file held (rate, channels, sample type, frames)."""
    p = os.fspath(path)
    rate, data, short = _load(p, lang)
    channels = 1 if data.ndim == 1 else data.shape[1]
    frames = int(data.shape[0])
    info = WavInfo(
        rate=rate,
        channels=channels,
        dtype=str(data.dtype),
        frames=frames,
        # by sizes, not sample widths (scipy widens 24-bit samples to 32): about, header aside
        missing_s=frames / rate * (short - 1.0) if rate > 0 else 0.0,
    )
    if data.shape[0] == 0 or channels == 0:
        raise AudioFileError(trl(lang, "{p}: the WAV file holds no audio (0 samples)").format(p=p))
    if rate <= 0:
        raise AudioFileError(trl(lang, "{p}: invalid sample rate {rate}").format(p=p, rate=rate))
    try:
        x = to_pipeline_rate(data, rate)
    except TypeError as exc:
        raise AudioFileError(
            trl(lang, "{p}: unsupported sample type {dtype}").format(p=p, dtype=data.dtype)
        ) from exc
    except _FileChanged as exc:
        raise AudioFileError(
            trl(
                lang,
                "{path}: the file changed while it was read (is another program writing it?); "
                "try again once it is finished",
            ).format(path=p)
        ) from exc
    except OSError as exc:
        raise AudioFileError(
            trl(lang, "{path}: cannot read the file ({strerror})").format(
                path=p, strerror=exc.strerror
            )
        ) from exc
    if not np.all(np.isfinite(x)):
        raise AudioFileError(trl(lang, "{p}: the file holds NaN/infinite samples").format(p=p))
    return x, info


def read_wav(path: str | os.PathLike, *, lang: str = "ru") -> np.ndarray:
    """A WAV file as float32 mono at :data:`RATE` (16 kHz).

    Any sample rate and channel count; 8-bit unsigned, 16/24/32/64-bit integer and 32/64-bit
    float PCM (WAVE_FORMAT_EXTENSIBLE included). Channels are averaged; the rate is converted
    with ``scipy.signal.resample_poly``. A missing, empty, non-WAV or broken file raises
    :class:`AudioFileError` naming the file and the problem.
    """
    return read_wav_info(path, lang=lang)[0]


def write_wav(path: str | os.PathLike, samples: np.ndarray, rate: int = RATE) -> None:
    """Write float samples in [-1, 1] as 16-bit PCM WAV (for test audio and recordings)."""
    from scipy.io import wavfile  # deferred: scipy is slow to load

    x = np.clip(np.asarray(samples, dtype=np.float64), -1.0, 1.0)
    wavfile.write(os.fspath(path), int(rate), (x * 32767.0).round().astype(np.int16))
