"""explain(text): the reading in plain words, the canonical phrasing, what to fix."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .call import CONTRE_COUP, CUE, CUSHION, POCKET, Call, Pocket
from .corrections import Correction
from .errors import GrammarError
from .lexicon import Lookalike, TooLong, Word, tag_words
from .messages import N_, trl
from .parser import WAY_ONLY_TAGS, parse_with_corrections
from .refusal import Refusal
from .render import decompose, render

# Every pocket by (kind, side, end); with no side (pocket_precision "any", Q2) the side
# was not said.
_POCKETS = {
    ("middle", "left", None): N_("left middle pocket"),
    ("middle", "right", None): N_("right middle pocket"),
    ("middle", None, None): N_("middle pocket"),
    ("corner", "left", None): N_("left corner pocket"),
    ("corner", "right", None): N_("right corner pocket"),
    ("corner", "left", "near"): N_("left near corner pocket"),
    ("corner", "right", "near"): N_("right near corner pocket"),
    ("corner", "left", "far"): N_("left far corner pocket"),
    ("corner", "right", "far"): N_("right far corner pocket"),
    ("corner", None, None): N_("corner pocket (side not named)"),
    ("corner", None, "near"): N_("near corner pocket (side not named)"),
    ("corner", None, "far"): N_("far corner pocket (side not named)"),
}


def _pocket_words(p: Pocket, lang: str) -> str:
    return trl(lang, _POCKETS[(p.kind, p.side, p.end if p.kind == "corner" else None)])


def _actor(x: str | int | None, lang: str) -> str:
    if x == CUE:
        return trl(lang, "the cue ball")
    if x is None:
        return trl(lang, "the last ball")
    return _ball(int(x), lang)


def _ball(n: int, lang: str) -> str:
    """A ball by its number; ball 1 is «туз» in Russian, as players call it."""
    return trl(lang, "ball 1") if n == 1 else trl(lang, "ball {n}").format(n=n)


_TARGETS = {
    CUSHION: N_("the cushion"),
    POCKET: N_("the pocket"),
    CONTRE_COUP: N_("contre-coup («от контр-ку»)"),
}


def _target(x: str | int | None, lang: str) -> str:
    return trl(lang, _TARGETS[x]) if x in _TARGETS else _actor(x, lang)


@dataclass(frozen=True)
class Explanation:
    """What explain found: the call or the refusal, the reading, notes and the fix."""

    text: str
    result: Call | Refusal
    lines: tuple[str, ...] = ()
    canonical: str | None = None
    notes: tuple[str, ...] = ()
    fix: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def ok(self) -> bool:
        return isinstance(self.result, Call)

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        out = {
            "ok": self.ok,
            "reading": list(self.lines),
            "canonical": self.canonical,
            "notes": list(self.notes),
            "fix": self.fix,
        }
        # optional, extend-only: what corrections replaced; a way said in ball and pocket (C7);
        # the words read as Cyrillic though typed with Latin look-alike letters
        out.update(
            {
                k: v
                for k, v in self.extra.items()
                if k in ("corrections", "way_not_judged", "lookalikes")
            }
        )
        if isinstance(self.result, Call):  # self.ok (spelled out so a type checker narrows it)
            out["call"] = self.result.to_json()
        else:
            out["error"] = self.result.to_json(lang)
        return out

    def render_text(self) -> str:
        return "\n".join([*self.lines, *self.notes] + ([self.fix] if self.fix else []))


def explain(
    text: str,
    *,
    mode: str = "clean",
    balls_left: Iterable[int] | None = None,
    lang: str = "ru",
    pocket_precision: str = "side_for_corners",
) -> Explanation:
    """Explain how ``text`` reads as a call (or why it is refused) and how to say it.

    ``mode``, ``balls_left`` and ``pocket_precision`` as for ``parse``."""
    if lang not in ("ru", "en"):
        raise GrammarError(f"lang must be 'ru' or 'en', not {lang!r}")
    got = parse_with_corrections(
        text, mode=mode, balls_left=balls_left, pocket_precision=pocket_precision
    )
    result, corrections = (got, []) if isinstance(got, Refusal) else got
    words = _words_read(text, result)
    notes: list[str] = []
    extra: dict[str, Any] = {}
    slips = [slip for w in words for slip in w.lookalikes]
    if slips:  # never a silent repair: say which letters were read as Russian ones
        notes.extend(_lookalike_note(slip, lang) for slip in slips)
        extra["lookalikes"] = [slip.to_json() for slip in slips]
    if isinstance(result, Refusal):
        return _refused(text, result, notes, extra, lang)
    return _called(text, result, corrections, words, notes, extra, lang)


def lookalikes(text: str) -> list[dict[str, Any]]:
    """The words of ``text`` typed with Latin look-alike letters and read as Cyrillic, as JSON
    (what ``explain`` reports under ``lookalikes``); none for a call too long to read."""
    try:
        return [slip.to_json() for w in tag_words(text) for slip in w.lookalikes]
    except TooLong:
        return []


def _words_read(text: str, result: Call | Refusal) -> list[Word]:
    """The words of ``text`` as the lexicon tags them; none for a call too long to read."""
    if isinstance(result, Refusal) and result.code == "too_long":
        return []
    try:
        return tag_words(text)
    except TooLong:
        return []


def _refused(
    text: str, refusal: Refusal, notes: list[str], extra: dict[str, Any], lang: str
) -> Explanation:
    """A refused call: the reason, where it is in the text, and how to say it."""
    lines = [trl(lang, "Refused: {reason}").format(reason=refusal.message(lang))]
    if refusal.span[1] > refusal.span[0]:
        start, end = refusal.span
        where = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text[start:end][:80])
        if end - start > 80:
            where += "…"
        lines.append(
            trl(lang, "Where: «{where}» (characters {start}–{end})").format(
                where=where, start=start + 1, end=end
            )
        )
    return Explanation(
        text,
        refusal,
        tuple(lines),
        None,
        tuple(notes),
        trl(lang, "How to say it: {hint}").format(hint=refusal.hint(lang)),
        extra,
    )


def _called(
    text: str,
    call: Call,
    corrections: list[Correction],
    words: list[Word],
    notes: list[str],
    extra: dict[str, Any],
    lang: str,
) -> Explanation:
    """An accepted call: the ball and the pocket, the corrections made, the way, the words
    not needed, and the call in its canonical words."""
    ball = (
        trl(lang, "the last ball on the table (C5)")
        if call.ball is None
        else _ball(call.ball, lang)
    )
    lines = [
        trl(lang, "Called: {ball} → {pocket}").format(
            ball=ball, pocket=_pocket_words(call.pocket, lang)
        )
    ]
    lines.extend(_correction_line(c, lang) for c in corrections)
    if corrections:
        extra["corrections"] = [c.to_json() for c in corrections]
    if call.route is None:
        way = _way_words(text, words)
        if way:  # C7: read and shown, but not judged
            extra["way_not_judged"] = way
        lines.append(_way_not_judged_line(way, lang))
    else:
        lines.append(_route_line(call.route, lang, _route_labels(call, lang)))
        if any(t == CONTRE_COUP for _, t in call.route):
            notes.append(
                trl(
                    lang, "«от контр-ку» is kept as said: no stored source defines it for pyramid."
                )
            )
    notes.extend(_words_not_needed(words, corrections, lang))
    canonical = render(call)
    return Explanation(
        text,
        call,
        tuple(lines),
        canonical,
        tuple(notes),
        trl(lang, "Say it as: «{canonical}»").format(canonical=canonical),
        extra,
    )


def _way_not_judged_line(way: list[str], lang: str) -> str:
    """Ball and pocket (C7): the way said is read and shown, but not judged."""
    if not way:
        return trl(lang, "No way is needed in ball and pocket (C7).")
    quoted = ", ".join(f"«{w}»" for w in way)
    return trl(lang, "Way said: {quoted}: not judged in ball and pocket (C7).").format(
        quoted=quoted
    )


def _route_labels(call: Call, lang: str) -> dict[int, str]:
    """The route's steps that have a name (абриколь, карамболь), by their index."""
    parts = decompose(call)
    labels = {}
    k = 0
    if parts["abricole"]:
        labels[0] = trl(lang, "abricole")
        k = 1
    for j in range(len(parts["caroms"])):
        labels[k + j] = trl(lang, "carom")
    return labels


def _route_line(route: Iterable[tuple[Any, Any]], lang: str, labels: dict[int, str]) -> str:
    """«Путь: биток → шар 6 (карамболь); …»: each contact of the way in its order."""
    steps = []
    for j, (a, t) in enumerate(route):
        step = f"{_actor(a, lang)} → {_target(t, lang)}"
        steps.append(f"{step} ({labels[j]})" if j in labels else step)
    return trl(lang, "Way: {steps}").format(steps="; ".join(steps))


def _words_not_needed(words: list[Word], corrections: list[Correction], lang: str) -> list[str]:
    """The notes on words said that are not binding (technique) or not needed (fillers)."""
    ignored = [w.text for w in words if w.types and w.types <= {"FILLER", "TECH", "CUE", "STROKE"}]
    tech = [w.text for w in words if "TECH" in w.types]
    if any(c.word in ("не … а", "а не") for c in corrections):
        ignored = [w for w in ignored if w.lower() != "а"]  # «а» is part of the correction there
    if tech:
        return [
            trl(lang, "Stroke technique, not binding: {words}").format(
                words=", ".join(f"«{t}»" for t in tech)
            )
        ]
    if ignored:
        return [
            trl(lang, "Words not needed, they may be left out: {words}").format(
                words=", ".join(f"«{t}»" for t in ignored)
            )
        ]
    return []


def _lookalike_note(slip: Lookalike, lang: str) -> str:
    """«Раскладка: в слове «чиcто» латинская «c» прочитана как русская.»"""
    letters = ", ".join(f"«{c}»" for c in slip.letters)
    if len(slip.letters) == 1:
        text = trl(
            lang,
            "Keyboard layout: in the word «{word}» the Latin {letters} was read as "
            "the Russian letter.",
        )
    else:
        text = trl(
            lang,
            "Keyboard layout: in the word «{word}» the Latin {letters} were read as "
            "the Russian letters.",
        )
    return text.format(word=slip.typed, letters=letters)


_PARTS = {
    "ball": N_("the ball"),
    "pocket": N_("the pocket"),
    "way": N_("the way"),
    "call": N_("the whole call"),
}


def _correction_line(c: Correction, lang: str) -> str:
    """«Исправлено («вернее»): луза «в правый угол» → «в левый»»."""
    return trl(lang, "Corrected («{word}»): {part} «{was}» → «{now}».").format(
        word=c.word, part=trl(lang, _PARTS[c.part]), was=c.was, now=c.now
    )


def _way_words(text: str, words: Iterable[Word]) -> list[str]:
    """The stretches of words that say the way (for ball and pocket, C7: shown, not judged)."""
    out: list[str] = []
    start = end = None
    for w in words:
        way = bool(w.types) and (
            w.types & (WAY_ONLY_TAGS | {"PLACEHOLDER"}) - {"CUE", "STROKE"}
            or (
                start is not None
                and w.types & {"B_BARE", "B_GEN", "NUM_GEN"}
                and not w.types & {"B_NOM"}
            )
        )
        if way:
            start = w.start if start is None else start
            end = w.end
        elif start is not None and not (
            w.types and w.types <= {"FILLER"} and w.text.lower() == "и"
        ):
            out.append(text[start:end])
            start = None
    if start is not None:
        out.append(text[start:end])
    return out
