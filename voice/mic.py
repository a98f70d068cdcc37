"""The microphone: sounddevice (PortAudio) input as a stream of :class:`~.audio.Frame` blocks.

The PortAudio callback only copies each block into a queue (no work in the audio thread);
iterating the source takes blocks out. Input overflows (PortAudio status flags) and blocks
dropped because nobody read the queue are counted and reported. The clock is the count of
samples delivered, the same clock as a file's. sounddevice is imported only when a microphone is
used, so a machine without PortAudio can still read files.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from .audio import DEFAULT_BLOCK_MS, RATE, Frame, Frames, block_samples
from .errors import AudioDeviceError
from .messages import trl


def _sounddevice(lang: str = "ru"):
    try:
        import sounddevice as sd  # deferred: PortAudio may be missing
    except ImportError as exc:
        raise AudioDeviceError(
            trl(
                lang,
                "the sounddevice package is missing ({exc}); install it: pip install sounddevice",
            ).format(exc=exc)
        ) from exc
    except OSError as exc:  # sounddevice raises OSError when libportaudio is not installed
        raise AudioDeviceError(
            trl(
                lang,
                "the PortAudio library is missing ({exc}); install it (Debian/Ubuntu: apt-get "
                "install libportaudio2)",
            ).format(exc=exc)
        ) from exc
    return sd


@dataclass(frozen=True)
class DeviceInfo:
    """An input device as PortAudio sees it."""

    index: int
    name: str
    hostapi: str
    max_input_channels: int
    default_samplerate: float
    is_default: bool


def list_devices(*, lang: str = "ru") -> list[DeviceInfo]:
    """The input devices (microphones) PortAudio knows, default first-marked."""
    sd = _sounddevice(lang)
    try:
        devices = sd.query_devices()
        hostapis = sd.query_hostapis()
        default_in = sd.default.device[0]
    except Exception as exc:  # PortAudioError
        raise AudioDeviceError(
            trl(lang, "cannot list audio devices: {exc}").format(exc=exc)
        ) from exc
    out = []
    for d in devices:
        if d["max_input_channels"] <= 0:
            continue
        out.append(
            DeviceInfo(
                index=int(d["index"]),
                name=str(d["name"]),
                hostapi=str(hostapis[d["hostapi"]]["name"]),
                max_input_channels=int(d["max_input_channels"]),
                default_samplerate=float(d["default_samplerate"]),
                is_default=int(d["index"]) == default_in,
            )
        )
    return out


def _parse_device(device: Any) -> Any:
    if isinstance(device, str) and device.strip().lstrip("-").isdigit():
        return int(device.strip())
    return device


class StreamResampler:
    """Causal, stateful rate conversion for a device that cannot run at 16 kHz.

    A Butterworth low-pass (sosfilt, state kept across blocks) below the lower Nyquist, then
    linear interpolation at the exact output positions ``k * rate_in / rate_out``: no drift,
    no block-edge artefacts, vectorized per block.
    """

    def __init__(self, rate_in: int, rate_out: int = RATE) -> None:
        from scipy.signal import butter, sosfilt_zi  # deferred: scipy is slow to load

        self.rate_in, self.rate_out = int(rate_in), int(rate_out)
        cutoff = 0.45 * min(self.rate_in, self.rate_out)
        self._sos = butter(8, cutoff, fs=self.rate_in, output="sos")
        self._zi = sosfilt_zi(self._sos) * 0.0
        self._n_in = 0  # input samples seen
        self._k = 0  # next output sample index
        self._last = 0.0  # last filtered input sample (index n_in - 1)

    def process(self, x: np.ndarray) -> np.ndarray:
        from scipy.signal import sosfilt  # deferred: scipy is slow to load

        if len(x) == 0:
            return np.zeros(0, np.float32)
        y, self._zi = sosfilt(self._sos, np.asarray(x, np.float64), zi=self._zi)
        n0 = self._n_in
        n1 = n0 + len(y) - 1  # last input index available
        k_end = (n1 * self.rate_out) // self.rate_in  # last output index with position <= n1
        ks = np.arange(self._k, k_end + 1)
        pos = ks * (self.rate_in / self.rate_out)
        idx = np.arange(n0 - 1, n1 + 1)
        buf = np.concatenate(([self._last], y))
        out = np.interp(pos, idx, buf).astype(np.float32)
        self._k = k_end + 1
        self._n_in = n1 + 1
        self._last = float(y[-1])
        return out


class MicrophoneSource(Frames):
    """Blocks from a microphone (sounddevice ``InputStream``), iterated like a file's frames.

    ``device``: None (the default input), an index (int or digit string) or part of a name.
    Use as a context manager (or call :meth:`start` / :meth:`close`). Iterating yields
    :class:`Frame` blocks until :meth:`close`; if the device stops delivering audio for
    ``timeout`` seconds (``start_timeout`` for the first block), :class:`AudioDeviceError` is
    raised. If the device refuses 16 kHz it is
    opened at its own rate and converted (:class:`StreamResampler`).

    Reported problems: ``overflows`` (PortAudio input overflow flags: audio the device lost),
    ``dropped`` (blocks dropped because the queue was full: the reader is too slow),
    ``status_log`` (the status texts seen). ``latency``: the device's input latency (s), as
    PortAudio reports it once started (asked for with ``latency``, "low" by default). ``on_status``
    (optional) is called from the audio thread with the status text: keep it cheap.
    """

    def __init__(
        self,
        device: Any = None,
        block_ms: float = DEFAULT_BLOCK_MS,
        rate: int = RATE,
        *,
        lang: str = "ru",
        timeout: float = 2.0,
        start_timeout: float = 6.0,
        max_queue_s: float = 10.0,
        latency: str | float = "low",
        on_status=None,
    ) -> None:
        n = block_samples(block_ms, rate)
        super().__init__(iter(()), rate=rate, block=n, source=f"microphone {device!r}")
        self.device = _parse_device(device)
        self.lang = lang
        self.timeout = float(timeout)
        self.start_timeout = float(start_timeout)  # some servers (PulseAudio) take ~1.5 s to start
        self.overflows = 0
        self.dropped = 0
        self.status_log: list[str] = []
        self.on_status = on_status
        self.device_rate: int | None = None
        self.device_name: str | None = None
        # PortAudio's input latency: "low" (not its default "high": 40 ms more buffering through
        # the ALSA pulse plugin, and a slow start) since the device's buffering adds to the
        # strike's report delay in real time; ``latency`` is the one the stream got (s).
        self.requested_latency = latency
        self.latency: float | None = None
        self._queue: queue.Queue = queue.Queue(maxsize=max(4, int(max_queue_s * 1000 / block_ms)))
        self._stream = None
        self._resampler: StreamResampler | None = None
        self._pending = np.zeros(0, np.float32)
        self._closed = False
        self._got_audio = False
        self._finished = threading.Event()
        self._lock = threading.Lock()

    # -- opening -------------------------------------------------------------------------------
    def _resolve(self, sd) -> dict:
        try:
            info = sd.query_devices(self.device, "input")
        except Exception as exc:  # ValueError (no such device) or PortAudioError
            try:
                n = len([d for d in sd.query_devices() if d["max_input_channels"] > 0])
            except Exception:
                n = 0
            which = trl(self.lang, "default") if self.device is None else repr(self.device)
            raise AudioDeviceError(
                trl(
                    self.lang,
                    "microphone {which} not found ({exc}); input devices available: {n} "
                    "(list them: pyramid-referee strikes --list-devices)",
                ).format(which=which, exc=exc, n=n)
            ) from exc
        if int(info.get("max_input_channels", 0)) <= 0:
            raise AudioDeviceError(
                trl(self.lang, "device {info!r} has no input channels").format(info=info["name"])
            )
        return info

    def start(self) -> MicrophoneSource:
        if self._stream is not None:
            return self
        sd = _sounddevice(self.lang)
        info = self._resolve(sd)
        dev = int(info["index"])
        self.device_name = str(info["name"])
        rate = self.rate
        try:
            sd.check_input_settings(device=dev, channels=1, samplerate=rate, dtype="float32")
        except Exception:
            rate = int(round(float(info["default_samplerate"])))
            self._resampler = StreamResampler(rate, self.rate)
        self.device_rate = rate
        blocksize = block_samples(self.block * 1000.0 / self.rate, rate)
        try:
            self._stream = sd.InputStream(
                device=dev,
                channels=1,
                samplerate=rate,
                blocksize=blocksize,
                dtype="float32",
                latency=self.requested_latency,
                callback=self._callback,
                finished_callback=self._finished.set,
            )
            self._stream.start()
            self.latency = float(self._stream.latency)
        except Exception as exc:
            self._stream = None
            raise AudioDeviceError(
                trl(self.lang, "cannot open microphone {device_name!r} ({rate} Hz): {exc}").format(
                    device_name=self.device_name, rate=rate, exc=exc
                )
            ) from exc
        return self

    def _callback(self, indata, frames, time, status) -> None:  # PortAudio's thread
        if status:
            text = str(status)
            if status.input_overflow:
                self.overflows += 1
            if len(self.status_log) < 1000:
                self.status_log.append(text)
            if self.on_status is not None:
                try:
                    self.on_status(text)
                except Exception:
                    pass
        try:
            self._queue.put_nowait(indata[:, 0].copy())
        except queue.Full:
            self.dropped += 1

    # -- reading -------------------------------------------------------------------------------
    def __next__(self) -> Frame:
        if self._stream is None and not self._closed:
            self.start()
        while len(self._pending) < self.block:
            if self._closed and self._queue.empty():
                raise StopIteration
            wait = self.timeout if self._got_audio else self.start_timeout
            try:
                raw = self._queue.get(timeout=wait)
            except queue.Empty:
                if self._closed:
                    raise StopIteration from None
                if self._finished.is_set():
                    raise AudioDeviceError(
                        trl(
                            self.lang,
                            "the stream of microphone {device_name!r} stopped (device unplugged?)",
                        ).format(device_name=self.device_name)
                    ) from None
                raise AudioDeviceError(
                    trl(
                        self.lang,
                        "microphone {device_name!r} delivers no audio (no data for {wait:g} s)",
                    ).format(device_name=self.device_name, wait=wait)
                ) from None
            self._got_audio = True
            if self._resampler is not None:
                raw = self._resampler.process(raw)
            self._pending = np.concatenate((self._pending, raw.astype(np.float32, copy=False)))
        block, self._pending = self._pending[: self.block], self._pending[self.block :]
        frame = Frame(block, self.samples_read / self.rate)
        self.samples_read += len(block)
        return frame

    def problems(self) -> str | None:
        """A one-line report of lost audio, or None if nothing was lost."""
        if not self.overflows and not self.dropped:
            return None
        return trl(
            self.lang, "audio lost: input overflows {overflows}, blocks dropped {dropped}"
        ).format(overflows=self.overflows, dropped=self.dropped)

    def close(self) -> None:
        self._closed = True
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
            finally:
                stream.close()

    def __enter__(self) -> MicrophoneSource:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
