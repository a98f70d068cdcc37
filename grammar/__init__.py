"""The call language: Russian words in, a checked Call (or a Refusal) out.

- ``parse(text, mode=, balls_left=, pocket_precision=)`` → ``Call | Refusal``
  (never raises on a str); ``pocket_precision`` "side_for_corners" (default) or
  "any" is the match setting of Q2
- ``parse_with_corrections(text, ...)`` → ``(Call, [Correction])`` or ``Refusal``: the
  call and what each correction («вернее в левый», «не тройку, а пятёрку») replaced
- ``render(call)`` → the canonical Russian call (parses back to the same call)
- ``vocabulary()`` → every word form the language knows (Vosk's runtime grammar)
- ``mentions_call(text)`` → does the text hold a ball, pocket or route word?
- ``explain(text, ...)`` → the reading in plain words, the canonical phrasing, the fix (and
  the letters of a word read as Cyrillic though typed in the Latin layout)
- ``MAX_WORDS``, ``MAX_CHARS``: a longer call is refused at once (``too_long``)
- ``GrammarError``: misuse of the API (a bad mode, bad ``balls_left``)
"""

from .call import Call, CallFormatError, Pocket
from .errors import GrammarError
from .explain import Explanation, explain, lookalikes
from .lexicon import MAX_CHARS, MAX_WORDS, is_call_word, tag_words, vocabulary as _vocabulary
from .parser import MODES, parse, parse_with_corrections
from .refusal import CODES, Refusal
from .render import render


def vocabulary() -> list[str]:
    """Every word form the call language knows: lowercase, as Vosk outputs words,
    ё and е spellings both (digits are not words Vosk outputs, so not listed)."""
    return _vocabulary()


def mentions_call(text: str) -> bool:
    """True when ``text`` holds a call-language word that is not a filler
    (a ball, pocket or route word, or a digit ball)."""
    if not isinstance(text, str):
        return False
    return any(is_call_word(w) for w in tag_words(text, limit=None))


__all__ = [
    "CODES",
    "Call",
    "CallFormatError",
    "Explanation",
    "GrammarError",
    "MAX_CHARS",
    "MAX_WORDS",
    "MODES",
    "Pocket",
    "Refusal",
    "explain",
    "lookalikes",
    "mentions_call",
    "parse",
    "parse_with_corrections",
    "render",
    "vocabulary",
]
