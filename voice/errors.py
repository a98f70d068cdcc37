"""The voice's error hierarchy: every failure a user can cause says what and where."""

from __future__ import annotations


class VoiceError(Exception):
    """Base of every voice error (model, audio device, audio file)."""


class ModelError(VoiceError):
    """The Vosk model is missing, half-unpacked, of the wrong kind, or cannot be fetched."""


class AudioFileError(VoiceError):
    """An audio file cannot be read or decoded."""


class AudioDeviceError(VoiceError):
    """The microphone (PortAudio, the device) is missing, dead or misconfigured."""
