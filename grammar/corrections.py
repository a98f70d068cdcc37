"""Corrections inside a call (C9), as people make them.

- «тройку чисто в правый угол, вернее в левый»: after «нет», «вернее», «точнее»,
  «лучше», «то есть», «ой» the words replace **the same part** of the call said
  before (the ball, the pocket or the way) and keep the rest. A pocket correction
  without a noun corrects the pocket word by word («в правый дальний угол, вернее в
  левый» → the left far corner); one that names the kind (угол, середина) replaces
  the pocket.
- «отмена» takes the whole call back: what follows is a new call.
- «не тройку, а пятёрку чисто в правый угол»: the part after «не» is replaced by the
  same part after «а»; with no «а», or no such part after it, the correction cannot
  be placed and the call is refused (never guessed).
- «пятёрку, а не тройку, чисто в правый угол»: what follows «а не» is the same part
  as the one said right before it, taken back; the words after it go on with the call.

Works on the phrase items of ``calls.lark`` (``(kind, value, start, end)``): each
stretch between markers is parsed on its own, and the stretches are folded into one
list of items that ``assembly`` checks as usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .items import Item
from .lexicon import IGNORED_TAGS, Word, normalize
from .refusal import Refusal

BALL, POCKET, WAY = "ball", "pocket", "way"
_BALL_KINDS = ("called", "obj")


def part_of(item: Item) -> str:
    """Which part of a call an item says: the ball, the pocket or the way."""
    if item.kind in _BALL_KINDS:
        return BALL
    if item.kind == "pocket":
        return POCKET
    return WAY


@dataclass(frozen=True)
class Correction:
    """One correction: the part replaced, the words it replaced and the new words."""

    part: str  # "ball" | "pocket" | "way" | "call" (the whole call, «отмена»)
    was: str
    now: str
    word: str  # the correcting word: «вернее», «не … а»

    def to_json(self) -> dict[str, Any]:
        return {"part": self.part, "was": self.was, "now": self.now, "word": self.word}


@dataclass(frozen=True)
class Step:
    """A stretch of words and how it joins the call before it."""

    op: str  # "base" | "corr" | "reset" | "not" (the negated words) | "but" (after «а»)
    # | "and_not" (after «а не»)
    words: tuple[Any, ...]
    marker: Word | None  # the marker Word (None for the base stretch)

    @property
    def content(self) -> list[Any]:
        return [w for w in self.words if not w.types <= IGNORED_TAGS]


def plan(words: list[Any]) -> list[Step] | Refusal:
    """The words split at correction markers, or a Refusal when a «не» has no «а»."""
    steps: list[Step] = []
    cur: list[Any] = []
    op, marker = "base", None
    i, n = 0, len(words)
    while i < n:
        w = words[i]
        if "CORR" in w.types:
            steps.append(Step(op, tuple(cur), marker))
            op = "reset" if ("CORR", "reset") in w.tags else "corr"
            cur, marker = [], w
        elif "NOT" in w.types and i > 0 and normalize(words[i - 1].text) == "а":
            # «пятёрку, а не тройку, чисто в левый угол»: the part said right after «а
            # не» is what the part before it is not; the words after it go on with the call
            steps.append(Step(op, tuple(cur), marker))
            op, cur, marker = "and_not", [], w
        elif "NOT" in w.types:
            steps.append(Step(op, tuple(cur), marker))
            j = i + 1
            while (
                j < n and normalize(words[j].text) != "а" and not words[j].types & {"CORR", "NOT"}
            ):
                j += 1
            if j >= n or normalize(words[j].text) != "а":
                return Refusal(
                    "incomplete",
                    (w.start, words[min(j, n) - 1].end),
                    "not_without_but",
                    {"word": w.text},
                )
            steps.append(Step("not", tuple(words[i + 1 : j]), w))
            op, cur, marker = "but", [], words[j]
            i = j
        else:
            cur.append(w)
        i += 1
    steps.append(Step(op, tuple(cur), marker))
    return steps


def _said(items: list[Any], text: str) -> str:
    if not items:
        return ""
    return text[min(i.start for i in items) : max(i.end for i in items)]


def _merge_pocket(old: list[Any], new: Item) -> Item:
    """A pocket correction: with a kind word (угол, середина) it is a new pocket; without
    one it replaces only the words it says (the side, the end) and keeps the others."""
    parts = new.value
    if any(p[0] in ("CORNER", "MIDDLE") for p in parts) or not old:
        return new
    said = {p[0] for p in parts if p[0] in ("SIDE", "END")}
    if not said:  # «вернее в лузу»: nothing to put in place of anything
        return new
    if "SIDE" in said:  # the gender of the side replaced goes with it («в правый» → «в левую»)
        said.add("MASC")
    kept = [p for item in old for p in item.value if p[0] not in said and p[0] != "V"]
    return new._replace(
        value=tuple(p for p in parts if p[0] == "V")
        + tuple(kept)
        + tuple(p for p in parts if p[0] != "V")
    )


def _says_the_same(negated: list[Any], said: list[Any]) -> bool:
    """Does «не X» take back what was said: the same ball, or pocket words all among the
    pocket said («не в правый» of «в правый угол»)? A way is compared by its kinds of step."""
    if not negated or not said:
        return True
    if part_of(negated[0]) == BALL:
        return {i.value for i in negated} <= {i.value for i in said}
    if part_of(negated[0]) == POCKET:
        # «не в правый» takes back «в правую середину» too: the words, not their gender
        words = {p for i in said for p in i.value if p[0] not in ("V", "MASC")}
        return {p for i in negated for p in i.value if p[0] not in ("V", "MASC")} <= words
    return {(i.kind, i.value) for i in negated} <= {(i.kind, i.value) for i in said}


def correct(
    items: list[Any], fix: list[Any], text: str, word: str
) -> tuple[list[Any], list[Correction]]:
    """``items`` with each part that ``fix`` says replaced by it (in the place the old
    part was said); parts ``fix`` does not say are kept."""
    parts = {part_of(i) for i in fix}
    out: list[Any] = []
    done: set[Any] = set()
    corrections: list[Correction] = []
    for p in (BALL, POCKET, WAY):
        if p in parts:
            old = [i for i in items if part_of(i) == p]
            new = [i for i in fix if part_of(i) == p]
            if old:
                corrections.append(Correction(p, _said(old, text), _said(new, text), word))
    for item in items:
        p = part_of(item)
        if p not in parts:
            out.append(item)
            continue
        if p in done:
            continue
        done.add(p)
        new = [i for i in fix if part_of(i) == p]
        if p == POCKET:
            old = [i for i in items if i.kind == "pocket"]
            new = [_merge_pocket(old, new[0])] + new[1:]
        out.extend(new)
    out.extend(i for i in fix if part_of(i) not in done)
    return out, corrections


def fold(
    steps: list[Step], readings: list[list[Item]], text: str
) -> tuple[list[Item], list[Correction]] | Refusal:
    """One reading of each stretch (``readings[k]`` the items of ``steps[k]``) → the
    items of the corrected call and what was corrected, or why a correction cannot
    be placed."""
    state: list[Item] = []
    corrections: list[Correction] = []
    negated: list[Item] | None = None
    for step, items in zip(steps, readings):
        word = step.marker.text if step.marker is not None else ""
        if step.op == "base":
            state = list(items)
        elif step.op == "reset":
            if state and items:
                corrections.append(
                    Correction("call", _said(state, text), _said(items, text), word)
                )
            state = list(items)
        elif step.op == "corr":
            if state:
                state, got = correct(state, items, text, word)
                corrections.extend(got)
            else:  # «нет, тройку …»: nothing said yet to correct
                state = list(items)
        elif step.op == "not":
            negated = list(items)
        else:
            assert step.marker is not None  # every stretch after the base has its marker
            if step.op == "and_not":
                folded = _after_and_not(state, items, step.marker, text)
            else:  # "but": what follows «а» replaces what followed «не»
                folded = _after_but(state, items, negated or [], step.marker, text)
                negated = None
            if isinstance(folded, Refusal):
                return folded
            state, got = folded
            corrections.extend(got)
    return state, corrections


def _after_and_not(
    state: list[Item], items: list[Item], marker: Word, text: str
) -> tuple[list[Item], list[Correction]] | Refusal:
    """«пятёрку, а не тройку, чисто …»: the part said right after «а не» is what the part
    before it is not; the words after it go on with the call."""
    if not items:  # «тройку чисто в левый угол, а не»: the call stops short
        return Refusal(
            "incomplete",
            (marker.start, marker.end),
            "",
            {"word": marker.text, "expected_key": "more"},
        )
    part = part_of(state[-1]) if state else None
    lead = []
    for item in items:
        if part is None or part_of(item) != part:
            break
        lead.append(item)
    if not lead:  # «тройку, а не в угол»: not what was said before «а»
        return Refusal(
            "incomplete",
            (marker.start, marker.end),
            "correction_unplaced",
            {"word": _said(items[:1], text)},
        )
    corrections = []
    if part is not None:  # (lead is not empty, so part is what it says)
        now = [i for i in state if part_of(i) == part]
        corrections.append(Correction(part, _said(lead, text), _said(now, text), "а не"))
    return state + list(items[len(lead) :]), corrections


def _after_but(
    state: list[Item], items: list[Item], negated: list[Item], marker: Word, text: str
) -> tuple[list[Item], list[Correction]] | Refusal:
    """«не тройку, а пятёрку …»: the parts said after «а» replace the ones said after
    «не» (``negated``); each part «не» takes back must be said after «а»."""
    missing = {part_of(i) for i in negated} - {part_of(i) for i in items}
    if missing:
        return Refusal(
            "incomplete",
            (marker.start, marker.end),
            "correction_unplaced",
            {"word": _said(negated, text)},
        )
    corrections = []
    for p in (BALL, POCKET, WAY):
        old = [i for i in negated if part_of(i) == p]
        if old:
            new = [i for i in items if part_of(i) == p]
            corrections.append(Correction(p, _said(old, text), _said(new, text), "не … а"))
    old_pockets = [i for i in negated if i.kind == "pocket"]
    if old_pockets:  # «не в правый угол, а в левый»: word by word, as after «вернее»
        items = [_merge_pocket(old_pockets, i) if i.kind == "pocket" else i for i in items]
    replaced = {part_of(i) for i in negated} & {part_of(i) for i in state}
    for p in replaced:
        old = [i for i in negated if part_of(i) == p]
        said = [i for i in state if part_of(i) == p]
        if not _says_the_same(old, said):
            # «тройку чисто в правый угол, нет, не в левый, а …»: «не» takes back
            # what was not said: which part is corrected is unclear (C9)
            return Refusal(
                "incomplete",
                (marker.start, marker.end),
                "not_what_was_said",
                {"word": _said(old, text), "said": _said(said, text)},
            )
    if not replaced:
        return state + list(items), corrections
    # «тройку чисто в правый угол, нет, не в правый, а в левый»: the part said
    # before is the one «не» takes back; «а» puts the new one in its place
    # (the pocket word by word: «в правый угол» → «в левый угол»)
    if POCKET in replaced:
        said = [i for i in state if i.kind == "pocket"]
        items = [_merge_pocket(said, i) if i.kind == "pocket" else i for i in items]
    state, _ = correct(state, items, text, "не … а")
    return state, corrections
