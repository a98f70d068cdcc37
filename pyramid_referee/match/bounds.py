"""How long the marker's input may be: a call, an outcome, a line of a written record.

No real call, outcome or record line comes near these limits; text beyond them is a paste gone
wrong or a runaway program, and is refused with the limit named, before anything is parsed or
stored. The same limits hold at every door: ``play``, the pad's JSON API (``POST /api/strokes``,
``/api/call``), ``match import`` and ``validate`` / ``replay`` of a record (see docs/play.md,
docs/record.md).
"""

from __future__ import annotations

from ..catalog import trl, trn

#: A call as said: the longest real one («не тройку, а пятёрку от борта через биток в правый
#: дальний угол, от своего…») is under 120 characters and 20 words.
MAX_CALL_CHARS = 300
MAX_CALL_WORDS = 40
#: A call given as its JSON object (the pad's API, a script): the object's text.
MAX_CALL_JSON_CHARS = 2000
#: A line of a written record: the player, a call, an outcome (rules/notation.py bounds it at
#: MAX_OUTCOME_CHARS) and the running score.
MAX_RECORD_LINE_CHARS = 1500


def call_too_long(text: str, lang: str) -> str | None:
    """Why the call text is longer than any call (the limit named, in ``lang``), or None when it
    is not."""
    src = text.strip()
    if src.startswith("{"):
        if len(src) > MAX_CALL_JSON_CHARS:
            return trl(
                lang,
                "the call's JSON is longer than any call: at most {limit} characters are taken",
            ).format(n=len(src), limit=MAX_CALL_JSON_CHARS)
        return None
    if len(src) > MAX_CALL_CHARS:
        return trn(
            "a call of {n} character is longer than any call: at most {limit} are taken",
            "a call of {n} characters is longer than any call: at most {limit} are taken",
            len(src),
            lang,
        ).format(n=len(src), limit=MAX_CALL_CHARS)
    words = len(src.split())
    if words > MAX_CALL_WORDS:
        return trn(
            "a call of {n} word is longer than any call: at most {limit} are taken",
            "a call of {n} words is longer than any call: at most {limit} are taken",
            words,
            lang,
        ).format(n=words, limit=MAX_CALL_WORDS)
    return None
