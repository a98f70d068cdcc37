"""Words one slip away from a word of the call language («четырнадцатй» → «четырнадцатый»).

``near_words(word)`` gives the words of the vocabulary at Damerau-Levenshtein distance 1 (one
letter left out, added, changed, or two neighbours swapped). Candidates come from an index of
every word with one letter deleted (the "symmetric delete" method), so a lookup costs a few
dict accesses, whatever the size of the vocabulary. Whether a candidate is a confident
suggestion is the parser's decision (``parser._typo_suggestion``: the call must read with it).
"""

from __future__ import annotations

from functools import lru_cache

from .lexicon import normalize, vocabulary

MIN_LENGTH = 3  # shorter words have too many neighbours for a guess to mean anything
MAX_LENGTH = 24  # no word of the language is longer; a longer one is no slip


def _deletes(word: str) -> set[str]:
    return {word[:k] + word[k + 1:] for k in range(len(word))}


@lru_cache(maxsize=1)
def _index() -> tuple[dict[str, set[str]], dict[str, str]]:
    """(each word and its one-letter deletions → the words they come from, normalized word →
    the form shown: the ё-spelling where there is one, as ``render`` writes)."""
    index: dict[str, set[str]] = {}
    shown: dict[str, str] = {}
    for form in vocabulary():
        if " " in form or "-" in form or len(form) < MIN_LENGTH - 1:
            continue
        norm = normalize(form)
        if "ё" in form or norm not in shown:
            shown[norm] = form
        for key in _deletes(norm) | {norm}:
            index.setdefault(key, set()).add(norm)
    return index, shown


def distance_at_most_one(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` at most one edit apart (an insertion, a deletion, a change, or a swap
    of two neighbouring letters)?"""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    i = 0
    while i < min(la, lb) and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1:] == b[i + 1:]:
            return True  # one letter changed
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:]
    if la > lb:
        return a[i + 1:] == b[i:]
    return a[i:] == b[i + 1:]


def near_words(word: str) -> list[str]:
    """The vocabulary's words one edit from ``word`` (not ``word`` itself), as shown, sorted."""
    norm = normalize(word)
    if not MIN_LENGTH <= len(norm) <= MAX_LENGTH or not norm.isalpha():
        return []
    index, shown = _index()
    found: set[str] = set()
    for key in _deletes(norm) | {norm}:
        found.update(index.get(key, ()))
    found.discard(norm)
    return sorted(shown[w] for w in found if distance_at_most_one(norm, w))
