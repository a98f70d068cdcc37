"""explain(text): the reading in plain words, the canonical phrasing, what to fix."""

from __future__ import annotations

from dataclasses import dataclass, field

from .call import CONTRE_COUP, CUE, CUSHION, POCKET, Call
from .errors import GrammarError
from .lexicon import TooLong, tag_words
from .parser import WAY_ONLY_TAGS, parse_with_corrections
from .refusal import Refusal
from .render import decompose, render

# Pocket words agree with «луза» (feminine): «левая дальняя угловая луза».
_SIDE = {"left": ("левая", "left"), "right": ("правая", "right"), None: ("", "")}
_END = {"near": ("ближняя", "near"), "far": ("дальняя", "far"), None: ("", "")}


def _pocket_words(p, lang: str) -> str:
    k = 1 if lang == "en" else 0
    if p.kind == "middle":
        return " ".join(x for x in (_SIDE[p.side][k], ("средняя луза", "middle pocket")[k]) if x)
    words = " ".join(x for x in (_SIDE[p.side][k], _END[p.end][k], ("угловая луза", "corner pocket")[k]) if x)
    if p.side is None:  # pocket_precision "any" (Q2): the side was not said
        words += " (side not named)" if k else " (сторона не названа)"
    return words


def _actor(x, lang: str) -> str:
    if x == CUE:
        return "биток" if lang != "en" else "the cue ball"
    if x is None:
        return "последний шар" if lang != "en" else "the last ball"
    return f"шар {x}" if lang != "en" else f"ball {x}"


def _target(x, lang: str) -> str:
    en = lang == "en"
    if x == CUSHION:
        return "the cushion" if en else "борт"
    if x == POCKET:
        return "the pocket" if en else "луза"
    if x == CONTRE_COUP:
        return "contre-coup («от контр-ку»)" if en else "контр-ку"
    return _actor(x, lang)


@dataclass(frozen=True)
class Explanation:
    """What explain found: the call or the refusal, the reading, notes and the fix."""

    text: str
    result: Call | Refusal
    lines: tuple[str, ...] = ()
    canonical: str | None = None
    notes: tuple[str, ...] = ()
    fix: str | None = None
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def ok(self) -> bool:
        return isinstance(self.result, Call)

    def to_json(self, lang: str = "ru") -> dict:
        out = {"ok": self.ok, "reading": list(self.lines), "canonical": self.canonical,
               "notes": list(self.notes), "fix": self.fix}
        # optional, extend-only: what corrections replaced; a way said in ball and pocket (C7)
        out.update({k: v for k, v in self.extra.items() if k in ("corrections", "way_not_judged")})
        if self.ok:
            out["call"] = self.result.to_json()
        else:
            out["error"] = self.result.to_json(lang)
        return out

    def render_text(self) -> str:
        return "\n".join([*self.lines, *self.notes] + ([self.fix] if self.fix else []))


def explain(text: str, *, mode: str = "clean", balls_left=None, lang: str = "ru",
            pocket_precision: str = "side_for_corners") -> Explanation:
    """Explain how ``text`` reads as a call (or why it is refused) and how to say it.

    ``mode``, ``balls_left`` and ``pocket_precision`` as for ``parse``."""
    if lang not in ("ru", "en"):
        raise GrammarError(f"lang must be 'ru' or 'en', not {lang!r}")
    got = parse_with_corrections(text, mode=mode, balls_left=balls_left, pocket_precision=pocket_precision)
    result, corrections = (got, []) if isinstance(got, Refusal) else got
    en = lang == "en"
    lines: list[str] = []
    notes: list[str] = []
    try:
        words = tag_words(text)
    except TooLong:
        words = []
    ignored = [w.text for w in words if w.types and w.types <= {"FILLER", "TECH", "CUE", "STROKE"}]
    tech = [w.text for w in words if "TECH" in w.types]
    if isinstance(result, Refusal):
        lines.append(("Refused: " if en else "Не принят: ") + result.message(lang))
        if result.span[1] > result.span[0]:
            start, end = result.span
            where = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text[start:end][:80])
            if end - start > 80:
                where += "…"
            lines.append(("Where: " if en else "Где: ") + f"«{where}» "
                         + (f"(characters {start + 1}–{end})" if en else f"(символы {start + 1}–{end})"))
        return Explanation(text, result, tuple(lines), None, tuple(notes),
                           ("How to say it: " if en else "Как сказать: ") + result.hint(lang))
    call = result
    if any(c.word in ("не … а", "а не") for c in corrections):  # «а» is part of the correction there
        ignored = [w for w in ignored if w.lower() != "а"]
    ball = ("the last ball on the table (C5)" if en else "последний шар на столе (C5)") if call.ball is None \
        else (f"ball {call.ball}" if en else f"шар {call.ball}")
    lines.append(("Called: " if en else "Заказан: ") + f"{ball} → {_pocket_words(call.pocket, lang)}")
    for c in corrections:
        lines.append(_correction_line(c, lang))
    extra: dict = {}
    if corrections:
        extra["corrections"] = [c.to_json() for c in corrections]
    if call.route is None:
        way = _way_words(text, words)
        if way:  # C7: read and shown, but not judged
            extra["way_not_judged"] = way
            quoted = ", ".join(f"«{w}»" for w in way)
            lines.append(f"Way said: {quoted}: not judged in ball and pocket (C7)." if en
                         else f"Способ сказан: {quoted}; в игре «шар и луза» он не судится (C7).")
        else:
            lines.append("No way is needed in ball and pocket (C7)." if en
                         else "Способ называть не нужно: игра «шар и луза» (C7).")
    else:
        parts = decompose(call)
        labels = {}
        k = 0
        if parts["abricole"]:
            labels[0] = "abricole" if en else "абриколь"
            k = 1
        for j in range(len(parts["caroms"])):
            labels[k + j] = "carom" if en else "карамболь"
        steps = []
        for j, (a, t) in enumerate(call.route):
            step = f"{_actor(a, lang)} → {_target(t, lang)}"
            steps.append(f"{step} ({labels[j]})" if j in labels else step)
        lines.append(("Way: " if en else "Путь: ") + "; ".join(steps))
        if any(t == CONTRE_COUP for _, t in call.route):
            notes.append("«от контр-ку» is kept as said: no stored source defines it for pyramid." if en
                         else "«от контр-ку» записан как сказан: ни один источник не определяет его для пирамиды.")
    if tech:
        notes.append(("Stroke technique, not binding: " if en else "Техника удара, не обязывает: ")
                     + ", ".join(f"«{t}»" for t in tech))
    if ignored and not tech:
        notes.append(("Words not needed, they may be left out: " if en
                      else "Лишние слова, их можно не говорить: ") + ", ".join(f"«{t}»" for t in ignored))
    canonical = render(call)
    return Explanation(text, call, tuple(lines), canonical, tuple(notes),
                       ("Say it as: " if en else "Правильно сказать: ") + f"«{canonical}»", extra)


_PARTS = {"ball": ("шар", "the ball"), "pocket": ("луза", "the pocket"), "way": ("способ", "the way"),
          "call": ("весь заказ", "the whole call")}


def _correction_line(c, lang: str) -> str:
    """«Исправлено («вернее»): луза «в правый угол» → «в левый»»."""
    ru, en = _PARTS[c.part]
    if lang == "en":
        return f"Corrected («{c.word}»): {en} «{c.was}» → «{c.now}»."
    return f"Исправлено («{c.word}»): {ru} «{c.was}» → «{c.now}»."


def _way_words(text: str, words) -> list[str]:
    """The stretches of words that say the way (for ball and pocket, C7: shown, not judged)."""
    out: list[str] = []
    start = end = None
    for w in words:
        way = bool(w.types) and (w.types & WAY_ONLY_TAGS - {"CUE", "STROKE"} or (
            start is not None and w.types & {"B_BARE", "B_GEN", "NUM_GEN"} and not w.types & {"B_NOM"}))
        if way:
            start = w.start if start is None else start
            end = w.end
        elif start is not None and not (w.types and w.types <= {"FILLER"} and w.text.lower() == "и"):
            out.append(text[start:end])
            start = None
    if start is not None:
        out.append(text[start:end])
    return out
