"""The voice: audio in, Vosk recognition, strike detection, the model files."""

from .audio import (
    RATE,
    Frame,
    Frames,
    array_frames,
    file_frames,
    read_wav,
    read_wav_info,
    to_pcm16,
)
from .errors import AudioDeviceError, AudioFileError, ModelError, VoiceError
from .mic import DeviceInfo, MicrophoneSource, list_devices
from .strike import Candidate, Sound, StrikeDetector, StrikeParams, detect_strikes, run_detector

__all__ = [
    "RATE",
    "Frame",
    "Frames",
    "array_frames",
    "file_frames",
    "read_wav",
    "read_wav_info",
    "to_pcm16",
    "DeviceInfo",
    "MicrophoneSource",
    "list_devices",
    "StrikeDetector",
    "StrikeParams",
    "detect_strikes",
    "run_detector",
    "Candidate",
    "Sound",
    "VoiceError",
    "AudioFileError",
    "AudioDeviceError",
    "ModelError",
]
