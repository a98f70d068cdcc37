"""A refused call: the code (docs/refusals.md), where (char span), and the reason a referee gives.

Messages and hints are Russian by default and English with ``lang="en"``.
Codes: the call's JSON contract set (empty, unknown_word, no_ball, no_pocket,
pocket_not_definite, no_route, several_calls_unclear, contradiction, ambiguous,
count_mismatch, ball_not_on_table, incomplete) plus two added here: ``too_long``
(over 40 words or 300 characters, refused at once) and ``unexpected_word`` (a known word where no
phrase of a call can use it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .messages import N_, trl

CODES = (
    "empty",
    "unknown_word",
    "no_ball",
    "no_pocket",
    "pocket_not_definite",
    "no_route",
    "several_calls_unclear",
    "contradiction",
    "ambiguous",
    "count_mismatch",
    "ball_not_on_table",
    "incomplete",
    "too_long",
    "unexpected_word",
)

# The clause each refusal rests on (docs/rules.md).
CLAUSES = {
    "empty": "C9",
    "unknown_word": "C4",
    "no_ball": "C2",
    "no_pocket": "C2",
    "pocket_not_definite": "Q2",
    "no_route": "C2",
    "several_calls_unclear": "Q8",
    "contradiction": "C9",
    "ambiguous": "C9",
    "count_mismatch": "C2",
    "ball_not_on_table": "C2",
    "incomplete": "C9",
    "too_long": "C4",
    "unexpected_word": "C4",
}

# (code, reason) → (message, hint), in English; their Russian text is in the message catalog
# (``messages.trl``). Reason "" is the default. Fields in braces come from the refusal's params.
TEXTS: dict[tuple[str, str], tuple[str, str]] = {
    ("empty", ""): (
        N_("there is no call: no ball and no pocket were said"),
        N_("name the ball, the pocket and the way, e.g. «{example}»"),
    ),
    ("too_long", ""): (
        N_("the call is too long (over {limit} words): a referee would not take it (C4)"),
        N_("say it briefly: ball, pocket and way, e.g. «{example}»"),
    ),
    ("too_long", "chars"): (
        N_("the call is too long (over {limit} characters): a referee would not take it (C4)"),
        N_("say it briefly: ball, pocket and way, e.g. «{example}»"),
    ),
    ("unknown_word", ""): (
        N_("unknown word «{word}» (word {position})"),
        N_("a call holds only ball numbers, pockets and the way: e.g. «{example}»"),
    ),
    # one edit from a word that makes the call read: the hint names it
    ("unknown_word", "typo"): (
        N_("unknown word «{word}» (word {position})"),
        N_("«{suggestion}»? e.g. «{example}»"),
    ),
    ("unknown_word", "no_such_ball"): (
        N_("«{word}» (word {position}): there is no such ball; balls are 1 to 15"),
        N_("name a ball from 1 to 15, e.g. «{example}»"),
    ),
    # a number no ball has, in digits or words («16», «шестнадцатый», «двадцать первый»)
    ("unknown_word", "ball_out_of_range"): (
        N_("«{word}» (word {position}): there is no ball {n}; balls are 1 to 15"),
        N_("name a ball from 1 to 15, e.g. «{example}»"),
    ),
    ("unexpected_word", ""): (
        N_("the word «{word}» (word {position}) belongs to nothing here"),
        N_("say, for example: «{example}»"),
    ),
    ("incomplete", ""): (
        N_("the call is not finished: after «{word}» {expected} was expected"),
        N_("finish it, e.g. «{example}»"),
    ),
    ("incomplete", "placeholder"): (
        N_("«{word}» is not a ball number: in the rules' template a ball is named here"),
        N_("name the balls, e.g. «{example}»"),
    ),
    ("incomplete", "count_without_balls"): (
        N_("«{word}» was said, but not which balls (C2)"),
        N_("name each ball, e.g. «{example}»"),
    ),
    ("incomplete", "retracted"): (
        N_("the call was taken back with «{word}» and no new one was said (C9)"),
        N_("say the call again, e.g. «{example}»"),
    ),
    ("incomplete", "not_without_but"): (
        N_("«{word}» was said, but not what instead: a correction is «не …, а …» (C9)"),
        N_("say, e.g. «не тройку, а пятёрку чисто в левый угол»"),
    ),
    ("incomplete", "correction_unplaced"): (
        N_(
            "the correction «{word}» replaces nothing: «не» and «а» are followed by the same "
            "part, the ball, the pocket or the way (C9)"
        ),
        N_(
            "say, e.g. «не тройку, а пятёрку чисто в левый угол» or «пятёрку, а не тройку, чисто "
            "в левый угол»"
        ),
    ),
    ("incomplete", "not_what_was_said"): (
        N_("«не {word}» takes back what was not said: the call said «{said}» (C9)"),
        N_("correct what was said: «нет, не {said}, а …»"),
    ),
    ("unknown_word", "obj_form"): (
        N_(
            "«{word}» (word {position}): «чужой» in a call means an object ball; it does not name "
            "a pocket"
        ),
        N_("the far pocket is «дальний», your own «ближний»: say {options}"),
    ),
    ("incomplete", "v_without_pocket"): (
        N_("no pocket is named after «в»"),
        N_("name the pocket: «в левый угол», «в правый дальний угол», «в середину»"),
    ),
    ("no_ball", ""): (
        N_("no ball is named (C2)"),
        N_("name the ball's number, e.g. «{example}»"),
    ),
    ("no_ball", "obj"): (
        N_("a ball without a number («{word}») may be called only when one ball is left (C5)"),
        N_("name the ball's number, e.g. «{example}»"),
    ),
    ("no_ball", "cue"): (
        N_("«{word}» is the cue ball, which is never called: no object ball is named (C2, C5)"),
        N_("name the object ball, e.g. «{example}»"),
    ),
    ("no_pocket", ""): (
        N_("no pocket is named (C2)"),
        N_("add the pocket, e.g. «{example}»"),
    ),
    ("pocket_not_definite", ""): (
        N_(
            "the pocket is not definite: «{word}»: it is not said whether the corner is the left "
            "or the right one (Q2)"
        ),
        N_("say {options}"),
    ),
    # a side and no kind: the corner and the middle pocket on that side both fit
    ("pocket_not_definite", "side_only"): (
        N_("«{word}» names both the corner and the middle pocket on that side (Q2)"),
        N_("say {options}"),
    ),
    # no kind, no side, no end («в лузу»)
    ("pocket_not_definite", "no_kind"): (
        N_("it is not said whether the pocket is a corner or a middle one: «{word}» (Q2)"),
        N_("say {options}"),
    ),
    # «чужой» is an object ball (C5), never a pocket's end
    ("incomplete", "obj_as_pocket"): (
        N_(
            "«{word}» is said among the pocket's words, but in a call it means an object ball "
            "(C5), not a pocket"
        ),
        N_("the far pocket is «дальний», your own «ближний»: say {options}"),
    ),
    ("no_route", ""): (
        N_("the way the ball falls is not said: clean designation requires it (C2)"),
        N_("add the way, e.g. «{example}» (or play ball-and-pocket)"),
    ),
    ("several_calls_unclear", ""): (
        N_("after a call another one was started and not finished: «{word}» (Q8, C9)"),
        N_("say the whole call again, e.g. «{example}»"),
    ),
    ("contradiction", "two_balls"): (
        N_("two balls in one call: {first} and {second} (C9)"),
        N_("one ball is called: «{example}»"),
    ),
    ("contradiction", "two_pockets"): (
        N_("two pockets in one call (C9; a ball is called into one pocket)"),
        N_("name one pocket: «{example}»"),
    ),
    ("contradiction", "pocket_words"): (
        N_("the pocket words contradict each other: «{word}»"),
        N_("name one pocket: «в левый угол», «в правую середину»"),
    ),
    ("contradiction", "middle_end"): (
        N_("a middle pocket has no near or far end: «{word}»"),
        N_("say {options}"),
    ),
    ("contradiction", "self"): (
        N_("ball {ball} cannot play itself (C9)"),
        N_("name another ball, e.g. «{example}»"),
    ),
    ("contradiction", "repeated"): (
        N_("ball {ball} is named twice in the way (C9)"),
        N_("name each ball once, e.g. «{example}»"),
    ),
    ("contradiction", "clean_and_contact"): (
        N_("«{word}» (straight in) contradicts the contact {contact} (C9)"),
        N_("say one of the two, e.g. «{example}»"),
    ),
    ("ambiguous", ""): (
        N_("the call can be read in different ways: {readings} (C9)"),
        N_("say it so that it has one reading, e.g. «{example}»"),
    ),
    ("ambiguous", "whose_contact"): (
        N_(
            "it is unclear whose contact «{word}» is: said right next to «{contact}», it may be "
            "that ball's (or the cue ball's) way, not the called ball's (C9)"
        ),
        N_("say the contact right after the called ball, e.g. «{example}»"),
    ),
    ("ambiguous", "cushions_twice"): (
        N_("«{word}» and «{contact}»: the same cushions or more of them? (C9)"),
        N_(
            "name the cushions once: «тройку от борта в середину», «тройку от двух бортов в "
            "середину»"
        ),
    ),
    ("ambiguous", "side_or_cushion"): (
        N_("«{word}» right after «{contact}»: is it that cushion's side or the pocket's? (C9)"),
        N_("say the side with the pocket, e.g. «{example}»"),
    ),
    ("ambiguous", "too_many"): (
        N_("too many readings: a referee could not follow it (C4)"),
        N_("say it more simply, e.g. «{example}»"),
    ),
    ("count_mismatch", ""): (
        N_("«{word}» ({count}) was said, but {named} ball(s) are named (C2)"),
        N_("the count must match the balls named: «{example}»"),
    ),
    ("ball_not_on_table", ""): (
        N_("ball {ball} is not on the table (C2)"),
        N_("on the table: {on_table}"),
    ),
}

# Ball and pocket (C7): the call is the ball and the pocket, the way is not part of it. A
# refusal that rests on clean designation (C2) cites C7 there, and no hint asks for a way
# (the examples are ball-and-pocket calls: «тройку в левый угол»).
BALL_AND_POCKET = "ball_and_pocket"
MODE_CLAUSES = {BALL_AND_POCKET: {"no_ball": "C7", "no_pocket": "C7", "ball_not_on_table": "C7"}}
# (code, reason) → (message, hint) in that mode; None keeps the text of TEXTS.
MODE_TEXTS: dict[str, dict[tuple[str, str], tuple[str | None, str | None]]] = {
    BALL_AND_POCKET: {
        ("empty", ""): (None, N_("name the ball and the pocket, e.g. «{example}»")),
        ("too_long", ""): (
            N_("the call is too long (over {limit} words): a referee would not take it (C4, C7)"),
            N_("say it briefly: the ball and the pocket, e.g. «{example}»"),
        ),
        ("too_long", "chars"): (
            N_(
                "the call is too long (over {limit} characters): a referee would not take it "
                "(C4, C7)"
            ),
            N_("say it briefly: the ball and the pocket, e.g. «{example}»"),
        ),
        ("unknown_word", ""): (
            None,
            N_("in ball and pocket a call names the ball and the pocket: e.g. «{example}»"),
        ),
        ("incomplete", "not_without_but"): (
            None,
            N_("say, e.g. «не тройку, а пятёрку в левый угол»"),
        ),
        ("incomplete", "correction_unplaced"): (
            N_(
                "the correction «{word}» replaces nothing: «не» and «а» are followed by the same "
                "part, the ball or the pocket (C9)"
            ),
            N_(
                "say, e.g. «не тройку, а пятёрку в левый угол» or «пятёрку, а не тройку, в левый "
                "угол»"
            ),
        ),
        ("no_ball", ""): (
            N_("no ball is named: in ball and pocket the ball and the pocket are named (C7)"),
            None,
        ),
        ("no_ball", "cue"): (
            N_(
                "«{word}» is the cue ball, which is never called: no object ball is named (C7, C5)"
            ),
            None,
        ),
        ("no_pocket", ""): (
            N_("no pocket is named: in ball and pocket the ball and the pocket are named (C7)"),
            None,
        ),
        ("ball_not_on_table", ""): (N_("ball {ball} is not on the table (C7)"), None),
    }
}
DEFAULT_EXAMPLES = {BALL_AND_POCKET: "тройку в левый угол"}

EXPECTED = {
    "ball": N_("a ball number"),
    "ball_or_cushion": N_("a ball or a cushion"),
    "of_ball": N_("«от» and a ball"),
    "cushions": N_("«бортов» (cushions)"),
    "balls": N_("«шарами» and which balls"),
    "more": N_("more of the call"),
}


def _or(items: Iterable[str], lang: str, sep: str | None) -> str:
    """«a», «b» or «c» (``sep`` ", ") or «a» or «b» or «c» (``sep`` None), in ``lang``."""
    items = list(items)
    out: str
    if sep is not None and len(items) > 2:
        items = [sep.join(items[:-1]), items[-1]]
    out = items[0]
    for item in items[1:]:
        out = trl(lang, "{first} or {then}").format(first=out, then=item)
    return out


MAX_QUOTE = 60  # longer words are cut in messages (the span still covers them)


@dataclass(frozen=True)
class Refusal:
    """A refused call: ``code``, ``span`` (char offsets in the input) and params."""

    code: str
    span: tuple[int, int]
    reason: str = ""
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    # the game mode the call was read in: "clean" (C2) or "ball_and_pocket" (C7)
    mode: str = field(default="clean", compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown refusal code {self.code!r}")

    @property
    def clause(self) -> str:
        return MODE_CLAUSES.get(self.mode, {}).get(self.code) or CLAUSES[self.code]

    def _texts(self) -> tuple[str, str]:
        key = (self.code, self.reason) if (self.code, self.reason) in TEXTS else (self.code, "")
        message, hint = TEXTS[key]
        own = MODE_TEXTS.get(self.mode, {}).get(key)
        if own is None:
            return message, hint
        return own[0] or message, own[1] or hint

    def _fill(self, template: str, lang: str) -> str:
        params = dict(self.params)
        for key in ("word", "first", "second", "contact"):
            value = params.get(key)
            if isinstance(value, str):
                if len(value) > MAX_QUOTE:
                    value = value[:MAX_QUOTE] + "…"
                # control and other unprintable characters are shown escaped
                params[key] = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in value)
        params.setdefault("example", DEFAULT_EXAMPLES.get(self.mode, "тройку чисто в левый угол"))
        params.setdefault(
            "expected",
            trl(lang, EXPECTED.get(params.get("expected_key", "more"), EXPECTED["more"])),
        )
        for key in (
            "readings",
            "options",
        ):  # the readings or pockets offered, joined in the user's language
            if isinstance(params.get(key), (list, tuple)):
                params[key] = _or(params[key], lang, ", " if key == "options" else None)
        try:
            return template.format(**params)
        except (KeyError, IndexError):  # a param a template needs is missing
            return template

    def message(self, lang: str = "ru") -> str:
        return self._fill(trl(lang, self._texts()[0]), lang)

    def hint(self, lang: str = "ru") -> str:
        return self._fill(trl(lang, self._texts()[1]), lang)

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message(lang),
            "span": [self.span[0], self.span[1]],
            "hint": self.hint(lang),
        }
