"""The voice: audio in, Vosk recognition, strike detection, the model files."""
