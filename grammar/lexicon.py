"""The lexicon and the lexer: words of a call in, tagged words out.

The lexicon (``data/lexicon.json``, built by ``lexicon_build.py`` from
pymorphy3 and unicode-rbnf) maps each word form to its tags. Lookup is one dict
access per word after normalization (lowercase, ё → е). Digits are read by a
pattern: «12», «12-й», «12-го», «11-м», «№12», «3-мя (шарами)».
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

DATA_FILE = Path(__file__).with_name("data") / "lexicon.json"  # built by lexicon_build.py

# A call longer than any real one is refused before any work (too_long): the longest
# calls the rules' template gives («тремя шарами …, от шара …, … в правый дальний угол»)
# are some 15 words and 120 characters.
MAX_WORDS = 40
MAX_CHARS = 300

# A word: anything up to a space or punctuation; hyphens stay inside words
# («контр-ку», «12-й», «такого-то»), a hyphen alone or at a word's edge is a dash.
_CHAR = r"[^\s,.;:!?«»\"'()\[\]{}<>—–…/\\|*\-‐‑]"
WORD_RE = re.compile(rf"{_CHAR}+(?:[\-‐‑]+{_CHAR}+)*")
DIGIT_RE = re.compile(r"№?(\d{1,3})(?:-?([а-я]{1,3}))?")
# Case endings after digits and the role they give (as on the ordinal words).
DIGIT_SUFFIX = {
    None: ("B_BARE", "NUM_GEN"),  # «12»; «от 2 бортов» (a count, only before «бортов»)
    "й": ("B_NOM",), "ый": ("B_NOM",), "ой": ("B_NOM",), "ий": ("B_NOM",),
    "го": ("B_GEN", "B_NOM"), "ого": ("B_GEN", "B_NOM"), "его": ("B_GEN", "B_NOM"),
    "м": ("B_INS",), "ым": ("B_INS",), "им": ("B_INS",),
    "мя": ("COUNT_INS",), "ю": ("COUNT_INS",), "ью": ("COUNT_INS",),
    "х": ("B_GEN", "NUM_GEN", "NUM_ELL"), "ех": ("B_GEN", "NUM_GEN", "NUM_ELL"), "ти": ("B_GEN", "NUM_GEN"),
    "и": ("B_GEN", "NUM_GEN"),
}

POCKET_TAGS = frozenset({"V", "CORNER", "MIDDLE", "LUZA", "SIDE", "END", "MASC"})
IGNORED_TAGS = frozenset({"FILLER", "TECH", "CORR", "NOT"})


_COMBINING = ("\u0306", "\u0308")  # breve (й = и + ◌̆), diaeresis (ё = е + ◌̈) in decomposed (NFD) text


def normalize(word: str) -> str:
    """Lowercase, composed (NFC) where a decomposed й/ё came in, ё → е."""
    word = word.lower()
    if _COMBINING[0] in word or _COMBINING[1] in word:
        word = unicodedata.normalize("NFC", word)
    return word.replace("ё", "е")


class Word:
    """A word of the input: its text, char span, tags ((type, value), …) and tag types."""

    __slots__ = ("text", "start", "end", "tags", "types", "index")

    def __init__(self, text: str, start: int, end: int, tags: tuple, index: int, types=None):
        self.text = text
        self.start = start
        self.end = end
        self.tags = tags  # ((type, value), ...); empty when the word is unknown
        self.types = _types(tags) if types is None else types
        self.index = index  # 0-based position among the words

    @property
    def known(self) -> bool:
        return bool(self.tags)

    def has(self, *types: str) -> bool:
        return not self.types.isdisjoint(types)

    def __repr__(self) -> str:
        return f"Word({self.text!r}, {self.start}, {self.end}, {self.tags!r})"


_TYPES_CACHE: dict = {}


def _types(tags: tuple) -> frozenset:
    got = _TYPES_CACHE.get(tags)
    if got is None:
        got = _TYPES_CACHE[tags] = frozenset(t for t, _ in tags)
    return got


def _parse_tag(tag: str) -> tuple:
    kind, _, value = tag.partition(":")
    if not value:
        return (kind, None)
    return (kind, int(value) if value.isdigit() else value)


@lru_cache(maxsize=1)
def load() -> tuple[dict, dict, list[str]]:
    """(word → tags, ((w1, w2, …) → tags, first word → phrase lengths), every form
    as stored) from the shipped file."""
    data = json.loads(Path(DATA_FILE).read_text(encoding="utf-8"))
    words: dict[str, tuple] = {}
    forms = []
    for form, tags in data["words"].items():
        forms.append(form)
        key = normalize(form)
        merged = set(words.get(key, ())) | {_parse_tag(t) for t in tags}
        words[key] = tuple(sorted(merged, key=str))
    phrases: dict[tuple, tuple] = {}
    for phrase, tags in data["phrases"].items():
        forms.extend(phrase.split())
        phrases[tuple(normalize(phrase).split())] = tuple(_parse_tag(t) for t in tags)
    # entry: (tags, tag types); each phrase's first word → the phrase lengths, longest first
    entries = {w: (tags, _types(tags)) for w, tags in words.items()}
    firsts: dict[str, tuple] = {}
    for p in phrases:
        firsts[p[0]] = tuple(sorted(set(firsts.get(p[0], ())) | {len(p)}, reverse=True))
    return entries, (phrases, firsts), forms


@lru_cache(maxsize=1)
def render_forms() -> dict:
    return json.loads(Path(DATA_FILE).read_text(encoding="utf-8"))["render"]


def _digit_tags(norm: str) -> tuple:
    m = DIGIT_RE.fullmatch(norm)
    if not m:
        return ()
    n = int(m.group(1))
    suffix = m.group(2)
    if suffix not in DIGIT_SUFFIX:
        return ()
    types = DIGIT_SUFFIX[suffix]
    if not 1 <= n <= 15:
        return ()
    if types == ("COUNT_INS",) and n < 2:
        return ()
    return tuple((t, n) for t in types if t != "NUM_ELL" or n <= 3)


class TooLong(Exception):
    def __init__(self, span):
        self.span = span


def split_words(text: str, limit: int | None = MAX_WORDS) -> list[tuple[str, int, int]]:
    """The words of ``text`` with their char spans; raises TooLong past ``limit`` words."""
    out = []
    append = out.append
    for m in WORD_RE.finditer(text):
        if len(out) == limit:
            raise TooLong((out[0][1], len(text.rstrip())))
        start, end = m.span()
        append((m.group(), start, end))
    return out


def tag_words(text: str, limit: int | None = MAX_WORDS) -> list[Word]:
    """Tag every word (longest phrase first); unknown words get no tags.

    Raises TooLong past ``limit`` words (None: no limit)."""
    entries, (phrases, firsts), _ = load()
    raw = split_words(text, limit)
    norms = [normalize(w) for w, _, _ in raw]
    out: list[Word] = []
    i = 0
    n = len(raw)
    while i < n:
        norm = norms[i]
        lengths = firsts.get(norm)
        if lengths is not None:
            tags = None
            for size in lengths:  # the longest phrase first («со стороны игрока»)
                if i + size <= n:
                    tags = phrases.get(tuple(norms[i:i + size]))
                    if tags:
                        break
            if tags:
                last = i + size - 1
                out.append(Word(text[raw[i][1]:raw[last][2]], raw[i][1], raw[last][2], tags, len(out)))
                i += size
                continue
        w, s, e = raw[i]
        entry = entries.get(norm)
        if entry is None:
            out.append(Word(w, s, e, _digit_tags(norm), len(out)))
        else:
            out.append(Word(w, s, e, entry[0], len(out), entry[1]))
        i += 1
    return out


def vocabulary() -> list[str]:
    """Every word form the call language knows: lowercase, ё and е spellings both."""
    _, _, forms = load()
    out = set()
    for f in forms:
        f = f.lower()
        if f == "№":
            continue
        out.add(f)
        out.add(f.replace("ё", "е"))
    return sorted(out)


NOT_CALL_WORDS = IGNORED_TAGS | {"CUE", "STROKE"}  # «биток упал», «хороший удар»: talk, not a call


def is_call_word(word: Word) -> bool:
    """A ball, pocket or route word (not a filler, technique word, the cue ball or unknown)."""
    return any(t not in NOT_CALL_WORDS for t, _ in word.tags)
