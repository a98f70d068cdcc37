"""Drills for learners: a shot told in plain words; the learner phrases the call.

Pure logic, no I/O. ``generate(seed, level, count)`` makes a deterministic list of
``Exercise``; ``grade(exercise, answer)`` parses the answer with the grammar and
compares the ``Call`` (never the string) with the expected one, naming what
differs. Two kinds of exercise:

- ``phrase``: the shot is described (prose or a list of contacts, in words that
  are not the call language); say the call.
- ``fix``: a refused call for that shot is shown; say a corrected one.

Levels: 1 чисто into a named pocket; 2 от борта, абриколь, от шара X;
3 шаром / N шарами, карамболь, several cushions, the last ball unnamed (C5).

Correct means: the same ball (or, under C5, the lone ball either named or not),
the same route (C2; none under ball and pocket, C7) and a pocket that fits the
one described: a pocket word left out where the rules allow it (near/far, the
side of a middle pocket; a corner's side under pocket_precision "any", Q2) is
still right.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace

from ..catalog import N_, trl, trn
from ..grammar import Call, Pocket, Refusal, parse, render
from ..grammar.call import CONTRE_COUP, CUE, CUSHION, POCKET
from ..grammar.lexicon import render_forms
from ..grammar.render import decompose, phrase_blocks
from ..rules.settings import mode_setting
from .diagram import call_svg

LEVELS = (1, 2, 3)
MODES = ("clean", "ball_and_pocket")
PRECISIONS = ("side_for_corners", "any")
FIX_SHARE = 0.25  # about one exercise in four is «fix this call»

# -- words for describing a shot (not the call language's phrasing) ---------------------------
# The Russian names of the balls and pockets are declined (nominative, accusative): they are word
# forms, like the lexicon's, not messages; the sentences built from them are in the catalog.

_NOM = (
    "туз",
    "двойка",
    "тройка",
    "четвёрка",
    "пятёрка",
    "шестёрка",
    "семёрка",
    "восьмёрка",
    "девятка",
    "десятка",
    "одиннадцатый шар",
    "двенадцатый шар",
    "тринадцатый шар",
    "четырнадцатый шар",
    "пятнадцатый шар",
)


def _name(ball, case: str, lang: str) -> str:
    if ball == CUE:
        return trl(lang, "the cue ball")
    if lang == "en":
        return trl(lang, "ball {ball}").format(ball=ball)
    return _NOM[ball - 1] if case == "nom" else render_forms()["ball"][str(ball)][case]


def _pocket(p: Pocket, lang: str, case: str = "acc") -> str:
    if lang == "en":
        return " ".join(x for x in ("the", p.side, p.end, p.kind, "pocket") if x)
    acc = case == "acc"
    side = {"left": ("левая", "левую"), "right": ("правая", "правую")}.get(p.side, ("", ""))[acc]
    end = {"near": ("ближняя", "ближнюю"), "far": ("дальняя", "дальнюю")}.get(p.end, ("", ""))[acc]
    kind = {"corner": ("угловая", "угловую"), "middle": ("средняя", "среднюю")}[p.kind][acc]
    return " ".join(x for x in (side, end, kind, ("луза", "лузу")[acc]) if x)


def _clause(route, i: int, lang: str) -> str:
    """One contact of the route as a plain clause: «шестёрка бьёт тройку» (``{pocket}`` is left
    to fill once the whole sentence is built)."""
    a, t = route[i]
    who = _name(a, "nom", lang)
    own_contacts = any(x != POCKET for y, x in route if y == route[-1][0])
    if t == POCKET:
        if own_contacts:
            return trl(lang, "{who} drops into {pocket}").format(who=who, pocket="{pocket}")
        return trl(lang, "{who} drops into {pocket} touching nothing else").format(
            who=who, pocket="{pocket}"
        )
    if t == CUSHION:
        if a == CUE:
            return trl(lang, "{who} first bounces off a cushion").format(who=who)
        return trl(lang, "{who} bounces off a cushion").format(who=who)
    if t == CONTRE_COUP:
        return trl(lang, "{who} rebounds by contre-coup").format(who=who)
    if a == CUE and i + 1 < len(route) and route[i + 1][0] == CUE:  # a carom off t
        return trl(lang, "{who} glances off {ball} and rolls on").format(
            who=who, ball=_name(t, "acc", lang)
        )
    if a == route[-1][0]:  # the called ball touches another ball on its way
        return trl(lang, "{who} touches {ball}").format(who=who, ball=_name(t, "acc", lang))
    return trl(lang, "{who} hits {ball}").format(who=who, ball=_name(t, "acc", lang))


def describe(shot: Call, style: str, lang: str = "ru") -> str:
    """The shot in plain words: ``prose`` (one sentence) or ``list`` (numbered contacts)."""
    pocket = _pocket(shot.pocket, lang)
    if style == "list":
        steps = []
        for a, t in shot.route:
            target = (
                _pocket(shot.pocket, lang, "nom")
                if t == POCKET
                else (trl(lang, "cushion") if t == CUSHION else _name(t, "nom", lang))
            )
            steps.append(f"{len(steps) + 1}) {_name(a, 'nom', lang)} → {target}")
        return "; ".join(steps) + "."
    clauses = [_clause(shot.route, i, lang) for i in range(len(shot.route))]
    text = trl(lang, "{clauses}, and {last}").format(
        clauses=", ".join(clauses[:-1]), last=clauses[-1]
    )
    text = text.format(pocket=pocket)
    return text[0].upper() + text[1:] + "."


# -- exercises --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Exercise:
    """One drill: the situation, the shot and the call expected for it."""

    index: int
    level: int
    kind: str  # "phrase" | "fix"
    mode: str  # "clean" | "ball_and_pocket"
    pocket_precision: str
    balls_left: tuple[int, ...]
    shot: Call  # the whole shot (route always given, the ball always numbered)
    expected: Call  # what the call must say (route null under C7, ball null under C5)
    style: str = "prose"  # "prose" | "list"
    broken: str | None = None  # kind "fix": the refused call shown
    broken_code: str | None = None

    @property
    def canonical(self) -> str:
        return render(self.expected)

    def description(self, lang: str = "ru") -> str:
        return describe(self.shot, self.style, lang)

    def prompt(self, lang: str = "ru") -> str:
        lines = [
            trl(lang, "Exercise {index} (level {level}). On the table: {balls}.").format(
                index=self.index, level=self.level, balls=", ".join(map(str, self.balls_left))
            )
        ]
        if self.mode == "ball_and_pocket":
            lines.append(trl(lang, "Mode: ball and pocket (the way need not be named, C7)."))
        else:
            lines.append(trl(lang, "Mode: clean designation (ball, pocket and the way, C2)."))
        if self.pocket_precision == "any":
            lines.append(trl(lang, "A corner may be called without its side (Q2)."))
        lines.append(trl(lang, "The shot: {shot}").format(shot=self.description(lang)))
        if self.kind == "fix":
            lines.append(
                trl(
                    lang, "This call is refused: «{call}». Say a correct one for the same shot."
                ).format(call=self.broken)
            )
        else:
            lines.append(trl(lang, "Call this shot."))
        return "\n".join(lines)

    def hint(self, lang: str = "ru") -> str:
        if self.kind == "fix":
            refusal = self._parse(self.broken)
            return _sentences(refusal.message(lang), refusal.hint(lang))
        if self.expected.ball is None:
            ball = trl(lang, "the last ball may go unnamed (C5)")
        else:
            ball = _name(self.expected.ball, "nom", lang)
        parts = [
            trl(lang, "ball: {ball}").format(ball=ball),
            trl(lang, "pocket: {pocket}").format(
                pocket=_pocket(self.expected.pocket, lang, "nom")
            ),
        ]
        if self.expected.route is None:
            parts.append(trl(lang, "the way need not be named"))
        else:
            parts.append(
                trl(lang, "the way: {ways}").format(ways=", ".join(_ways(self.expected, lang)))
            )
        return "; ".join(parts)

    def _parse(self, text: str):
        return parse(
            text,
            mode=self.mode,
            balls_left=self.balls_left,
            pocket_precision=self.pocket_precision,
        )

    def to_json(self, lang: str = "ru") -> dict:
        return {
            "index": self.index,
            "level": self.level,
            "kind": self.kind,
            "mode": self.mode,
            "pocket_precision": self.pocket_precision,
            "balls_left": list(self.balls_left),
            "description": self.description(lang),
            "broken": self.broken,
            "shot": self.shot.to_json(),
        }


def _sentences(*parts: str) -> str:
    return " ".join(
        p[:1].upper() + p[1:] + ("" if p.endswith((".", "!", "?")) else ".") for p in parts
    )


def _ways(call: Call, lang: str) -> list[str]:
    """The named parts of a route, in the learner's terms (for hints)."""
    parts = decompose(call)
    out = [trl(lang, "abricole")] if parts["abricole"] else []
    out += [trl(lang, "carom off ball {ball}").format(ball=x) for x in parts["caroms"]]
    if parts["drivers"]:
        n = len(parts["drivers"])
        out.append(
            trn("played with {n} ball: {balls}", "played with {n} balls: {balls}", n, lang).format(
                n=n, balls=", ".join(map(str, parts["drivers"]))
            )
        )
    own = Counter(parts["own"])
    if own[CUSHION]:
        out.append(
            trn("off {n} cushion", "off {n} cushions", own[CUSHION], lang).format(n=own[CUSHION])
        )
    out += [
        trl(lang, "off ball {ball}").format(ball=x) for x in parts["own"] if isinstance(x, int)
    ]
    return out or [trl(lang, "straight in (чисто)")]


def _route(ball, abricole=False, caroms=(), drivers=(), own=()) -> tuple:
    route = [(CUE, CUSHION)] if abricole else []
    route += [(CUE, x) for x in caroms]
    chain = [CUE, *drivers, ball]
    route += list(zip(chain, chain[1:]))
    route += [(ball, x) for x in own] + [(ball, POCKET)]
    return tuple(route)


def _shot(rng: random.Random, level: int) -> tuple[Call, bool]:
    """A random shot for the level; True when the last ball is left unnamed (C5)."""
    balls = rng.sample(range(1, 16), 5)
    b, others = balls[0], balls[1:]
    pocket = rng.choice(
        [Pocket("corner", s, e) for s in ("left", "right") for e in ("near", "far")]
        + [Pocket("middle", s) for s in ("left", "right")]
    )
    if level == 1:
        return Call(b, pocket, _route(b)), False
    if level == 2:
        shape = rng.choice(("cushion", "abricole", "off_ball"))
        return Call(
            b,
            pocket,
            _route(
                b,
                abricole=shape == "abricole",
                own=(CUSHION,)
                if shape == "cushion"
                else (others[0],)
                if shape == "off_ball"
                else (),
            ),
        ), False
    shape = rng.choice(("driver", "drivers", "carom", "cushions", "last_ball"))
    if shape == "last_ball":
        return Call(
            b, pocket, _route(b, abricole=rng.random() < 0.5, own=(CUSHION,) * rng.randint(0, 2))
        ), True
    if shape == "cushions":
        return Call(b, pocket, _route(b, own=(CUSHION,) * rng.randint(2, 3))), False
    if shape == "carom":
        return Call(
            b,
            pocket,
            _route(b, caroms=others[:1], drivers=others[1:2] if rng.random() < 0.5 else ()),
        ), False
    n = 1 if shape == "driver" else rng.randint(2, 3)
    return Call(
        b, pocket, _route(b, drivers=others[:n], own=(CUSHION,) if rng.random() < 0.3 else ())
    ), False


def _unnamed(call: Call) -> Call:
    """The same call with its ball left unnamed (C5)."""
    b = call.ball
    route = (
        None
        if call.route is None
        else tuple(tuple(None if x == b else x for x in c) for c in call.route)
    )
    return Call(None, call.pocket, route)


def _broken_calls(ex: Exercise, rng: random.Random) -> list[tuple[str, str]]:
    """Refused variants of the expected call: (text, the refusal code it must get)."""
    blocks = phrase_blocks(ex.expected)
    out = []
    i = blocks.index(next(b for b in blocks if b.startswith("в ")))
    if ex.expected.pocket.kind == "corner" and ex.pocket_precision == "side_for_corners":
        out.append((" ".join(blocks[:i] + ["в угол"]), "pocket_not_definite"))
    else:
        out.append((" ".join(blocks[:i] + ["в лузу"]), "pocket_not_definite"))
    if ex.mode == "clean" and ex.expected.ball is not None:
        out.append((render(Call(ex.expected.ball, ex.expected.pocket, None)), "no_route"))
    # the way's mistakes are said over the whole shot (under C7 its words are still checked)
    shot_blocks, parts = phrase_blocks(ex.shot), decompose(ex.shot)
    if len(parts["drivers"]) >= 2:
        forms = render_forms()["count_ins"]
        wrong = rng.choice([n for n in (2, 3, 4) if n != len(parts["drivers"])])
        said = " ".join(shot_blocks).replace(
            forms[str(len(parts["drivers"]))], forms[str(wrong)], 1
        )
        out.append((said, "count_mismatch"))
    if parts["own"]:
        j = len(shot_blocks) - 2  # the called ball's own contacts come just before the pocket
        out.append(
            (" ".join(shot_blocks[: j + 1] + ["чисто"] + shot_blocks[j + 1 :]), "contradiction")
        )
    return out


def make_exercise(
    rng: random.Random,
    index: int,
    level: int,
    mode: str = "clean",
    pocket_precision: str = "side_for_corners",
) -> Exercise:
    shot, unnamed = _shot(rng, level)
    route_balls = {x for c in shot.route for x in c if isinstance(x, int)}
    if unnamed:
        balls_left = (shot.ball,)
    else:
        extra = rng.sample(sorted(set(range(1, 16)) - route_balls), rng.randint(1, 6))
        balls_left = tuple(sorted(route_balls | set(extra)))
    expected = Call(shot.ball, shot.pocket, shot.route if mode == "clean" else None)
    if unnamed:
        expected = _unnamed(expected)
    ex = Exercise(
        index,
        level,
        "phrase",
        mode,
        pocket_precision,
        balls_left,
        shot,
        expected,
        rng.choice(("prose", "list")),
    )
    if rng.random() < FIX_SHARE:
        options = [
            (t, c)
            for t, c in _broken_calls(ex, rng)
            if isinstance(r := ex._parse(t), Refusal) and r.code == c
        ]
        if options:
            text, code = rng.choice(options)
            ex = replace(ex, kind="fix", broken=text, broken_code=code)
    return ex


def generate(
    seed: int,
    level: int = 1,
    count: int = 10,
    mode: str = "clean",
    pocket_precision: str = "side_for_corners",
) -> list[Exercise]:
    """``count`` exercises of ``level``; the same seed gives the same list."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    mode = mode_setting(mode)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if pocket_precision not in PRECISIONS:
        raise ValueError(f"pocket_precision must be one of {PRECISIONS}, not {pocket_precision!r}")
    rng = random.Random(f"drill:{seed}:{level}:{mode}:{pocket_precision}")
    return [make_exercise(rng, i + 1, level, mode, pocket_precision) for i in range(count)]


# -- grading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """One thing the answer got wrong: ``kind`` (stable key) and a message."""

    # ball | pocket_kind | pocket_side | pocket_end | route_missing | route_extra |
    # route_order | refused
    kind: str
    message: str
    code: str | None = None  # the refusal's code, for kind "refused"

    def to_json(self) -> dict:
        out = {"kind": self.kind, "message": self.message}
        if self.code:
            out["code"] = self.code
        return out


@dataclass(frozen=True)
class Grade:
    """The verdict on one answer, with the canonical phrasing and what differs."""

    answer: str
    correct: bool
    got: Call | Refusal
    canonical: str
    differences: tuple[Difference, ...] = ()
    notes: tuple[str, ...] = ()
    lang: str = field(default="ru", compare=False)

    def to_json(self, exercise: Exercise) -> dict:
        got = self.got.to_json() if isinstance(self.got, Call) else self.got.to_json(self.lang)
        return {
            "exercise": exercise.to_json(self.lang),
            "answer": self.answer,
            "correct": self.correct,
            "expected": exercise.expected.to_json(),
            "got": got,
            "canonical": self.canonical,
            "differences": [d.to_json() for d in self.differences],
            "notes": list(self.notes),
        }

    def render_text(self) -> str:
        head = trl(self.lang, "Right.") if self.correct else trl(self.lang, "Not right.")
        lines = [head, *(f"- {d.message}" for d in self.differences), *self.notes]
        lines.append(trl(self.lang, "Say it as: «{call}»").format(call=self.canonical))
        return "\n".join(lines)


def _part_label(part: str, x, lang: str) -> str:
    if part == "abricole":
        return trl(lang, "abricole (the cue ball off a cushion first)")
    if part == "caroms":
        return trl(lang, "carom off ball {ball}").format(ball=x)
    if part == "drivers":
        return trl(lang, "ball {ball} driving the called ball (шаром)").format(ball=x)
    if x == CUSHION:
        return trl(lang, "the called ball off a cushion")
    if x == CONTRE_COUP:
        return trl(lang, "the called ball by contre-coup")
    return trl(lang, "the called ball off ball {ball}").format(ball=x)


# What a part of the way is called when its contacts come in another order.
_ORDERED_PARTS = {
    "caroms": N_("caroms"),
    "drivers": N_("driving balls"),
    "own": N_("the called ball's contacts"),
}


def _route_differences(expected: Call, got: Call, lang: str) -> list[Difference]:
    want, have = decompose(expected), decompose(got)
    out = []
    for part in ("abricole", "caroms", "drivers", "own"):
        w = [True] if want[part] is True else [] if want[part] is False else list(want[part])
        h = [True] if have[part] is True else [] if have[part] is False else list(have[part])
        missing, extra = Counter(w) - Counter(h), Counter(h) - Counter(w)
        for x in missing.elements():
            out.append(
                Difference(
                    "route_missing",
                    trl(lang, "missing: {what}").format(what=_part_label(part, x, lang)),
                )
            )
        for x in extra.elements():
            out.append(
                Difference(
                    "route_extra",
                    trl(lang, "extra: {what}").format(what=_part_label(part, x, lang)),
                )
            )
        if not missing and not extra and w != h:
            said, need = (" → ".join(_short(x, lang) for x in seq) for seq in (h, w))
            out.append(
                Difference(
                    "route_order",
                    trl(lang, "{what} in another order: said {said}, needed {need}").format(
                        what=trl(lang, _ORDERED_PARTS[part]), said=said, need=need
                    ),
                )
            )
    return out


def _short(x, lang: str) -> str:
    return trl(lang, "cushion") if x == CUSHION else str(x)


# (said, needed): the Russian agrees with the noun's gender, so whole sentences
_POCKET_KIND_SAID = {
    ("corner", "middle"): N_("pocket: said a corner, needed a middle pocket"),
    ("middle", "corner"): N_("pocket: said a middle pocket, needed a corner"),
}
_POCKET_WORD_SAID = {  # (said, needed) of a pocket's side or end
    ("left", "right"): N_("pocket: said left, needed right"),
    ("right", "left"): N_("pocket: said right, needed left"),
    ("near", "far"): N_("pocket: said near, needed far"),
    ("far", "near"): N_("pocket: said far, needed near"),
}


def _pocket_differences(want: Pocket, have: Pocket, lang: str) -> list[Difference]:
    if want.kind != have.kind:
        return [Difference("pocket_kind", trl(lang, _POCKET_KIND_SAID[(have.kind, want.kind)]))]
    out = []
    for key, kind in (("side", "pocket_side"), ("end", "pocket_end")):
        h, w = getattr(have, key), getattr(want, key)
        if h is not None and h != w:
            out.append(Difference(kind, trl(lang, _POCKET_WORD_SAID[(h, w)])))
    return out


def _named(call: Call, balls_left: tuple[int, ...]) -> Call:
    """Under C5 (one ball left) the number may be named or not: compare in the unnamed form."""
    if len(balls_left) == 1 and call.ball == balls_left[0]:
        return _unnamed(call)
    return call


def _as_ball(call: Call, ball) -> Call | None:
    """``call`` with its ball renamed ``ball`` (to compare the way of a call on the wrong ball)."""
    try:
        renamed = Call(
            ball,
            call.pocket,
            tuple(tuple(ball if x == call.ball else x for x in c) for c in call.route),
        )
        decompose(renamed)
        return renamed
    except ValueError:  # the renamed ball was already in the route: no way to compare
        return None


def grade(ex: Exercise, answer: str, lang: str = "ru") -> Grade:
    """Grade a learner's answer: parse it and compare the Call with ``ex.expected``."""
    got = ex._parse(answer)
    canonical = ex.canonical
    if isinstance(got, Refusal):
        msg = _sentences(
            got.message(lang), trl(lang, "How to say it: {hint}").format(hint=got.hint(lang))
        )
        return Grade(
            answer, False, got, canonical, (Difference("refused", msg, got.code),), lang=lang
        )
    want, have = _named(ex.expected, ex.balls_left), _named(got, ex.balls_left)
    diffs: list[Difference] = []
    if have.ball != want.ball:
        diffs.append(
            Difference(
                "ball",
                trl(lang, "ball: said {said}, the shot plays {needed}").format(
                    said=have.ball, needed=want.ball
                ),
            )
        )
    diffs += _pocket_differences(want.pocket, have.pocket, lang)
    if want.route is not None:
        same_ball = have if have.ball == want.ball else _as_ball(have, want.ball)
        if same_ball is not None:
            diffs += _route_differences(want, same_ball, lang)
    notes = []
    if not diffs and have.pocket != want.pocket:
        notes.append(
            trl(
                lang,
                "The pocket was said less precisely than it could be; the rules accept it (Q2).",
            )
        )
    if not diffs and ex.mode == "ball_and_pocket":
        clean = parse(answer, balls_left=ex.balls_left, pocket_precision=ex.pocket_precision)
        if (
            isinstance(clean, Call)
            and _named(clean, ex.balls_left).route != _named(ex.shot, ex.balls_left).route
        ):
            notes.append(
                trl(
                    lang,
                    "The way said is not this shot's; in ball and pocket it does not bind (C7).",
                )
            )
    return Grade(answer, not diffs, got, canonical, tuple(diffs), tuple(notes), lang)


# -- the summary ------------------------------------------------------------------------------

KIND_LABELS = {
    "ball": N_("wrong ball"),
    "pocket_kind": N_("corner or middle mixed up"),
    "pocket_side": N_("wrong side of the pocket"),
    "pocket_end": N_("near and far mixed up"),
    "route_missing": N_("part of the way missing"),
    "route_extra": N_("something extra in the way"),
    "route_order": N_("contacts out of order"),
}


REFUSAL_LABELS = {
    "empty": N_("nothing said"),
    "unknown_word": N_("an unknown word"),
    "unexpected_word": N_("a word out of place"),
    "no_ball": N_("no ball"),
    "no_pocket": N_("no pocket"),
    "pocket_not_definite": N_("the pocket not definite"),
    "no_route": N_("no way named"),
    "count_mismatch": N_("the count of balls wrong"),
    "contradiction": N_("a contradiction"),
    "ambiguous": N_("ambiguous"),
    "ball_not_on_table": N_("a ball not on the table"),
    "incomplete": N_("unfinished"),
    "several_calls_unclear": N_("two calls mixed"),
    "too_long": N_("too long"),
}


def mistake_label(kind: str, code: str | None, lang: str = "ru") -> str:
    if kind == "refused":
        what = trl(lang, REFUSAL_LABELS[code]) if code in REFUSAL_LABELS else code
        return trl(lang, "refused: {what} ({code})").format(what=what, code=code)
    return trl(lang, KIND_LABELS[kind]) if kind in KIND_LABELS else kind


def summarize(grades: list[Grade], asked: int, revealed: int = 0, lang: str = "ru") -> dict:
    """N of M right and the kinds of mistakes made (each counted once per answer)."""
    mistakes: Counter = Counter()
    for g in grades:
        for label in {mistake_label(d.kind, d.code, lang) for d in g.differences}:
            mistakes[label] += 1
    right = sum(g.correct for g in grades)
    return {
        "asked": asked,
        "answers": len(grades),
        "right": right,
        "revealed": revealed,
        "mistakes": dict(mistakes.most_common()),
    }


def summary_text(summary: dict, lang: str = "ru") -> str:
    lines = [
        trl(lang, "Right: {right} of {asked}.").format(
            right=summary["right"], asked=summary["asked"]
        )
    ]
    if summary["revealed"]:
        lines.append(trl(lang, "Answers shown: {revealed}.").format(revealed=summary["revealed"]))
    if summary["mistakes"]:
        lines.append(trl(lang, "Mistakes:"))
        lines += [f"- {k}: {v}" for k, v in summary["mistakes"].items()]
    return "\n".join(lines)


def drill_svg(ex, lang: str) -> str:
    """The exercise's shot drawn on the table, captioned with the task, not with the answer."""
    if ex.kind == "fix":
        caption = trl(
            lang, "Exercise {n}: this call is refused: «{broken}». Say a correct one."
        ).format(n=ex.index, broken=ex.broken)
    else:
        caption = trl(lang, "Exercise {n}: call this shot.").format(n=ex.index)
    return call_svg(
        ex.shot, lang=lang, caption=caption, on_table=ex.balls_left
    )  # every ball the text names
