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
from typing import Any

from .errors import GrammarError

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
    "й": ("B_NOM",),
    "ый": ("B_NOM",),
    "ой": ("B_NOM",),
    "ий": ("B_NOM",),
    "го": ("B_GEN", "B_NOM"),
    "ого": ("B_GEN", "B_NOM"),
    "его": ("B_GEN", "B_NOM"),
    "м": ("B_INS",),
    "ым": ("B_INS",),
    "им": ("B_INS",),
    "мя": ("COUNT_INS",),
    "ю": ("COUNT_INS",),
    "ью": ("COUNT_INS",),
    "х": ("B_GEN", "NUM_GEN", "NUM_ELL"),
    "ех": ("B_GEN", "NUM_GEN", "NUM_ELL"),
    "ти": ("B_GEN", "NUM_GEN"),
    "и": ("B_GEN", "NUM_GEN"),
}

POCKET_TAGS = frozenset({"V", "CORNER", "MIDDLE", "LUZA", "SIDE", "END", "MASC"})
IGNORED_TAGS = frozenset({"FILLER", "TECH", "CORR", "NOT"})


_COMBINING = (
    "\u0306",
    "\u0308",
)  # breve (й = и + ◌̆), diaeresis (ё = е + ◌̈) in decomposed (NFD) text


def normalize(word: str) -> str:
    """Lowercase, composed (NFC) where a decomposed й/ё came in, ё → е."""
    word = word.lower()
    if _COMBINING[0] in word or _COMBINING[1] in word:
        word = unicodedata.normalize("NFC", word)
    return word.replace("ё", "е")


# Latin letters that look like Cyrillic ones, as a keyboard in the wrong layout types them
# («чиcто» with a Latin «c»): lowercase a c e o p x y, capitals A B C E H K M O P T X.
LOOKALIKES = str.maketrans("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ")
_LATIN_LOOKALIKE = frozenset("aceopxyABCEHKMOPTX")
_HAS_LOOKALIKE = re.compile(
    "[aceopxyABCEHKMOPTX]"
)  # one scan of the text: almost every call has none


class Lookalike:
    """A word read as Cyrillic though it has Latin look-alike letters: what was typed, what
    it was read as, its span and the Latin letters (in the order typed, each once)."""

    __slots__ = ("typed", "read_as", "start", "end", "letters")

    def __init__(self, typed: str, start: int, end: int):
        self.typed, self.start, self.end = typed, start, end
        self.read_as = typed.translate(LOOKALIKES)
        self.letters = tuple(dict.fromkeys(c for c in typed if c in _LATIN_LOOKALIKE))

    def to_json(self) -> dict[str, Any]:
        return {
            "word": self.typed,
            "read_as": self.read_as,
            "letters": list(self.letters),
            "span": [self.start, self.end],
        }

    def __repr__(self) -> str:
        return f"Lookalike({self.typed!r} → {self.read_as!r})"


def _mixed_script(word: str) -> bool:
    """Cyrillic letters with Latin look-alikes among them (a pure Latin word is not one)."""
    has_cyrillic = has_latin = False
    for c in word:
        if "а" <= c.lower() <= "я" or c in "ёЁ":
            has_cyrillic = True
        elif c in _LATIN_LOOKALIKE:
            has_latin = True
        elif c.isalpha():
            return False  # another Latin (or other) letter: not a layout slip
    return has_cyrillic and has_latin


class Word:
    """A word of the input: its text, char span, tags ((type, value), …) and tag types;
    ``lookalikes``: the words in it read as Cyrillic though typed with Latin look-alike
    letters (empty for almost every word)."""

    __slots__ = ("text", "start", "end", "tags", "types", "index", "lookalikes")

    def __init__(
        self,
        text: str,
        start: int,
        end: int,
        tags: tuple[Any, ...],
        index: int,
        types: frozenset[Any] | None = None,
        lookalikes: tuple[Any, ...] = (),
    ) -> None:
        self.text = text
        self.start = start
        self.end = end
        self.tags = tags  # ((type, value), ...); empty when the word is unknown
        self.types = _types(tags) if types is None else types
        self.index = index  # 0-based position among the words
        self.lookalikes = lookalikes

    @property
    def known(self) -> bool:
        return bool(self.tags)

    def has(self, *types: str) -> bool:
        return not self.types.isdisjoint(types)

    def __repr__(self) -> str:
        return f"Word({self.text!r}, {self.start}, {self.end}, {self.tags!r})"


_TYPES_CACHE: dict[tuple[Any, ...], frozenset[Any]] = {}


def _types(tags: tuple[Any, ...]) -> frozenset[Any]:
    got = _TYPES_CACHE.get(tags)
    if got is None:
        got = _TYPES_CACHE[tags] = frozenset(t for t, _ in tags)
    return got


def _parse_tag(tag: str) -> tuple[Any, ...]:
    kind, _, value = tag.partition(":")
    if not value:
        return (kind, None)
    return (kind, int(value) if value.isdigit() else value)


@lru_cache(maxsize=1)
def load() -> tuple[
    dict[str, tuple[tuple[Any, ...], frozenset[Any]]],
    tuple[dict[tuple[Any, ...], tuple[Any, ...]], dict[str, tuple[Any, ...]]],
    list[str],
]:
    """(word → tags, ((w1, w2, …) → tags, first word → phrase lengths), every form
    as stored) from the shipped file."""
    data = json.loads(Path(DATA_FILE).read_text(encoding="utf-8"))
    words: dict[str, tuple[Any, ...]] = {}
    forms: list[str] = []
    for form, tags in data["words"].items():
        forms.append(form)
        key = normalize(form)
        merged = set(words.get(key, ())) | {_parse_tag(t) for t in tags}
        words[key] = tuple(sorted(merged, key=str))
    phrases: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for phrase, tags in data["phrases"].items():
        forms.extend(phrase.split())
        phrases[tuple(normalize(phrase).split())] = tuple(_parse_tag(t) for t in tags)
    # entry: (tags, tag types); each phrase's first word → the phrase lengths, longest first
    entries = {w: (tags, _types(tags)) for w, tags in words.items()}
    firsts: dict[str, tuple[Any, ...]] = {}
    for p in phrases:
        firsts[p[0]] = tuple(sorted(set(firsts.get(p[0], ())) | {len(p)}, reverse=True))
    return entries, (phrases, firsts), forms


@lru_cache(maxsize=1)
def _beyond() -> dict[str, int]:
    beyond: dict[str, int] = json.loads(Path(DATA_FILE).read_text(encoding="utf-8")).get(
        "beyond", {}
    )
    return beyond


def number_beyond(words: list[Any], k: int) -> tuple[int, int] | None:
    """Does unknown word ``k`` say a number no ball has («шестнадцатый», «двадцать первый», «16»)?
    (the number, the index of its last word) or None."""
    norm = normalize(words[k].text)
    m = DIGIT_RE.fullmatch(norm)
    if m:
        n = int(m.group(1))
        return (n, k) if not 1 <= n <= 15 and m.group(2) in DIGIT_SUFFIX else None
    beyond = _beyond().get(norm)
    if beyond is None:
        return None
    n = beyond
    if n % 10 == 0 and 20 <= n <= 90 and k + 1 < len(words):  # «двадцать первый»: a ten and a unit
        units = {
            v for t, v in words[k + 1].tags if t.startswith(("B_", "NUM_")) and isinstance(v, int)
        }
        if len(units) == 1 and 1 <= min(units) <= 9:
            return (n + min(units), k + 1)
    return (n, k)


@lru_cache(maxsize=1)
def render_forms() -> dict[str, Any]:
    forms: dict[str, Any] = json.loads(Path(DATA_FILE).read_text(encoding="utf-8"))["render"]
    return forms


def _digit_tags(norm: str) -> tuple[Any, ...]:
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


class TooLong(GrammarError):
    """More words than a call may have (``span``: from the first word to the end)."""

    def __init__(self, span: tuple[int, int]) -> None:
        self.span = span


def split_words(text: str, limit: int | None = MAX_WORDS) -> list[tuple[str, int, int]]:
    """The words of ``text`` with their char spans; raises TooLong past ``limit`` words."""
    out: list[tuple[str, int, int]] = []
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
    # a Cyrillic word typed with Latin look-alike letters is read as the Cyrillic word when that
    # is a word of the language (kept in ``Word.lookalikes``, so that explain says so)
    slips: dict[int, Lookalike] = {}
    for k, norm in enumerate(norms) if _HAS_LOOKALIKE.search(text) else ():
        if norm not in entries and norm not in firsts and _mixed_script(raw[k][0]):
            slip = Lookalike(*raw[k])
            fixed = normalize(slip.read_as)
            if fixed in entries or fixed in _phrase_words():
                norms[k] = fixed
                slips[k] = slip
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
                    tags = phrases.get(tuple(norms[i : i + size]))
                    if tags:
                        break
            if tags:
                last = i + size - 1
                said = tuple(slips[k] for k in range(i, last + 1) if k in slips) if slips else ()
                out.append(
                    Word(
                        text[raw[i][1] : raw[last][2]],
                        raw[i][1],
                        raw[last][2],
                        tags,
                        len(out),
                        lookalikes=said,
                    )
                )
                i += size
                continue
        w, s, e = raw[i]
        entry = entries.get(norm)
        if entry is None:
            out.append(Word(w, s, e, _digit_tags(norm), len(out)))
        else:
            said = (slips[i],) if slips and i in slips else ()
            out.append(Word(w, s, e, entry[0], len(out), entry[1], said))
        i += 1
    return out


@lru_cache(maxsize=1)
def _phrase_words() -> frozenset[str]:
    """Every word that is part of a phrase («лоб» of «в лоб»)."""
    _, (phrases, _), _ = load()
    return frozenset(w for p in phrases for w in p)


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
