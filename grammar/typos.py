"""Words one slip away from a word of the call language («четырнадцатй» → «четырнадцатый»).

``near_words(word)`` gives the words of the vocabulary at Damerau-Levenshtein distance 1 (one
letter left out, added, changed, or two neighbours swapped). Candidates come from an index of
every word with one letter deleted (the "symmetric delete" method), so a lookup costs a few
dict accesses, whatever the size of the vocabulary. Whether a candidate is a confident
suggestion is ``suggestion``'s: the call must read with it, and no other candidate may.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .call import Call
from .errors import GrammarError
from .lexicon import normalize, vocabulary
from .render import render

if TYPE_CHECKING:
    from .lexicon import Word
    from .refusal import Refusal

MIN_LENGTH = 3  # shorter words have too many neighbours for a guess to mean anything
MAX_LENGTH = 24  # no word of the language is longer; a longer one is no slip
MAX_CANDIDATES = 5  # more words one edit away than this: no confident guess


def _deletes(word: str) -> set[str]:
    return {word[:k] + word[k + 1 :] for k in range(len(word))}


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
        if a[i + 1 :] == b[i + 1 :]:
            return True  # one letter changed
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
    if la > lb:
        return a[i + 1 :] == b[i:]
    return a[i:] == b[i + 1 :]


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


def suggestion(
    text: str, word: Word, read: Callable[[str], tuple[Call, Any] | Refusal]
) -> dict[str, str] | None:
    """The one word of the language that the unknown ``word`` (a lexicon ``Word``) is a slip of,
    when the call reads with it: {"suggestion", "example"}; None when no candidate, or more than
    one, fits. ``read(text)``: the parser's reading of a text (a (call, corrections) pair or a
    Refusal), without suggestions of its own.

    A candidate is one edit away (``near_words``) and fits when the call with it is a call,
    or is refused only for what the call says (no way, no pocket…), not for its words. Of several
    that fit, the only one that makes a call is taken; otherwise there is no confident guess."""
    candidates = near_words(word.text)
    if len(candidates) > MAX_CANDIDATES:
        return None  # so many words this close: no guess is confident (and each costs a parse)
    made: list[tuple[str, Any]] = []
    fit: list[tuple[str, Any]] = []
    for candidate in candidates:
        got = read(text[: word.start] + candidate + text[word.end :])
        if isinstance(got, tuple):
            made.append((candidate, got[0]))
        elif got.code not in _NOT_A_FIT:
            fit.append((candidate, got))
    picked = made if made else fit
    if len(picked) > 1 and len({r if made else (r.code, r.reason) for _, r in picked}) == 1:
        # several spellings of one reading («четырнадцатый», «четырнадцать»): the closest to
        # what was typed
        picked = _closest(word.text, picked)
    if len(picked) != 1:
        return None
    candidate, got = picked[0]
    out = {"suggestion": candidate}
    if isinstance(got, Call):
        try:
            out["example"] = render(got)
        except GrammarError:
            pass
    elif "example" in got.params:  # the example of what the call still lacks, built on it
        out["example"] = got.params["example"]
    return out


def _closest(typed: str, candidates: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The candidates that keep the most of the letters typed, in place (a common beginning
    and end): «четырнадцатй» keeps all of «четырнадцатый», one less of «четырнадцать»."""
    typed = normalize(typed)

    def kept(word: str) -> int:
        word = normalize(word)
        head = next(
            (k for k, (a, b) in enumerate(zip(typed, word)) if a != b), min(len(typed), len(word))
        )
        tail = next(
            (k for k, (a, b) in enumerate(zip(reversed(typed), reversed(word))) if a != b),
            min(len(typed), len(word)),
        )
        return min(head + tail, len(typed))

    best = max(kept(c) for c, _ in candidates)
    return [(c, call) for c, call in candidates if kept(c) == best]


# Refusals that say the words still do not make a call: a candidate that leaves one is no fit.
_NOT_A_FIT = frozenset(
    {
        "unknown_word",
        "unexpected_word",
        "incomplete",
        "several_calls_unclear",
        "contradiction",
        "ambiguous",
        "empty",
        "too_long",
    }
)
