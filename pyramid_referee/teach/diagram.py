"""Pictures of calls: a call's route drawn on a Russian pyramid table as a self-contained SVG.

``call_svg(call_or_text, lang=, mode=, balls_left=)`` → the SVG text (no external fonts,
images or scripts). The table is seen from above with the striker at the near short cushion
(the bottom of the picture), so «левый», «правый», «дальний», «ближний (к себе)» mean what the
call language means by them (``grammar/call.py``, ``Pocket``): far corners at the top, near
corners at the bottom, the middle pockets halfway along the long cushions.

What is drawn:

- the table (cloth 2:1, as a 12-foot pyramid table), its six pockets, each named;
- the called pocket ringed in red (when the call leaves a part open — «в левый угол» with no end,
  «в середину» with no side — every pocket that fits is ringed, and the ball goes into the first:
  far before middle before near, left before right);
- the cue ball (plain white, labelled «биток»), every ball of the route (white, numbered), the
  called ball ringed in red;
- one arrow (an SVG ``<path class="contact">`` with ``data-actor``/``data-target``) for every
  contact of the route ``[[actor, target], …]``, in order, numbered; a cushion contact ends at a
  mark on the cushion, a contre-coup at its own mark; the cue ball's arrows are white, a driving
  ball's amber, the called ball's red;
- the caption: the call in its canonical phrasing (``grammar.render``), and a legend.

Positions are schematic: a call names no positions. The route is laid out as one polyline from
the cue ball to the pocket whose points move steadily in one direction along the table
(towards the pocket), so no two arrows ever cross.

A refused text is not an error here: ``call_svg`` returns a picture of the empty table that says
«не принят» with the reason and how to say it (``data-ok="false"`` on the root), so a page's
``<img>`` always shows something. Misuse (not a str or Call, a bad mode, a route no call can
say) raises ``DiagramError``.

``learn_fragment(text, lang)`` gives what the teaching page shows for a typed call: the reading,
the right phrasing, what to fix and the SVG.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from xml.sax.saxutils import escape

from ..grammar import Call, GrammarError, Pocket, Refusal, explain, parse, render
from ..grammar.call import CONTRE_COUP, CUE, CUSHION, POCKET
from ..grammar.messages import N_, trl
from ..grammar.render import decompose
from ..i18n import UserError


class DiagramError(UserError, ValueError):
    """A diagram asked for with something that is not a call (misuse of this API, not a refused
    call: a refused call is drawn with its reason)."""


# -- geometry (SVG user units) ------------------------------------------------------------------

W, L = 500.0, 1000.0  # the cloth: 2:1, the long axis from the striker (bottom) to the far end
RAIL = 38.0  # the cushions and the wooden rail
MARGIN_X, MARGIN_TOP = 62.0, 74.0
OX, OY = MARGIN_X + RAIL, MARGIN_TOP + RAIL  # the cloth's top-left corner
WIDTH = 2 * (MARGIN_X + RAIL) + W
BALL_R = 21.0
POCKET_R = 27.0
CAPTION_CHARS = 38  # characters a caption line holds at the caption's size

# (kind, side, end) → the pocket's centre on the cloth (x, y), its name, where its name goes
_POCKETS = (
    (("corner", "left", "far"), (0.0, 0.0), N_("left far corner")),
    (("corner", "right", "far"), (W, 0.0), N_("right far corner")),
    (("middle", "left", None), (0.0, L / 2), N_("left middle")),
    (("middle", "right", None), (W, L / 2), N_("right middle")),
    (("corner", "left", "near"), (0.0, L), N_("left near corner")),
    (("corner", "right", "near"), (W, L), N_("right near corner")),
)

# colours
CLOTH, CLOTH_EDGE, WOOD = "#1d6b3a", "#15532c", "#6b3f1f"
CUE_PATH, DRIVER_PATH, CALLED_PATH, CALLED = "#ffffff", "#ffb52e", "#ff4b3e", "#e0241b"
IVORY = "#f6f1e3"
CONTRE = "#d9a6ff"


@dataclass(frozen=True)
class _Point:
    x: float
    y: float
    kind: str  # "cue" | "ball" | "cushion" | "contre_coup" | "pocket"
    ball: int | None = (
        None  # the number of a ball point (None for the cue ball and the unnamed C5 ball)
    )


def _fitting_pockets(pocket: Pocket) -> list[int]:
    """Indexes into _POCKETS of every pocket the called pocket fits (its open parts match any)."""
    return [i for i, (key, _, _) in enumerate(_POCKETS) if pocket.fits(Pocket(*key))]


def _layout(call: Call, target: tuple[float, float]) -> list[_Point]:
    """The route as points on the cloth, from the cue ball to the pocket: one point a contact.

    Every contact [actor, target] is the segment from the previous point to the target's point
    (the actor is the ball at the previous point: the cue ball after a carom, a ball after the
    one it kissed). The points are laid out backwards from the pocket, each a step further
    from it along the table, so the polyline is monotone along the long axis and never crosses
    itself; cushion points alternate between the long cushions, balls zigzag about the centre.
    """
    route = list(call.route)
    kinds = []
    for _actor, tgt in route[:-1]:
        if tgt == CUSHION:
            kinds.append(("cushion", None))
        elif tgt == CONTRE_COUP:
            kinds.append(("contre_coup", None))
        else:
            kinds.append(("ball", tgt))
    tx, ty = target
    # the cue ball starts at the striker's end; into a near pocket the route runs towards it
    if ty >= L:
        start_y, end_y = ty, 0.3 * L
    else:
        start_y, end_y = ty, L - 0.09 * L
    steps = len(kinds) + 1
    ys = [_along(start_y, end_y, (k + 1) / steps) for k in range(steps)]
    # short steps (many contacts into a middle pocket) zigzag wider, so each arrow stays visible
    spread = 0.17 if steps == 1 or min(abs(b - a) for a, b in zip(ys, ys[1:])) >= 120 else 0.3
    points: list[_Point] = [_Point(tx, ty, "pocket")]
    nxt_x = tx
    wobble = 1
    # backwards: the last contact's target first
    for k, (kind, ball) in enumerate(reversed(kinds)):
        y = ys[k]
        if kind in ("cushion", "contre_coup"):
            x = W if nxt_x < W / 2 else 0.0
        else:
            x = _ball_x(nxt_x, wobble, points[-1].kind, spread)
            wobble = -wobble
        points.append(_Point(x, y, kind, ball))
        nxt_x = x
    # the cue ball
    if kinds and kinds[0][0] in ("cushion", "contre_coup"):
        cx = 0.7 * W if nxt_x == 0.0 else 0.3 * W
    else:
        cx = _ball_x(nxt_x, wobble, points[-1].kind, spread)
    points.append(_Point(cx, ys[-1], "cue"))
    points.reverse()
    return points


MIDDLE_BAND = 75.0  # no route point this close (along the table) to the middle pockets


def _along(start_y: float, end_y: float, u: float) -> float:
    """The point a share ``u`` of the way from ``start_y`` to ``end_y``, the stretch beside the
    middle pockets left out (a cushion contact there would touch the pocket's jaws)."""
    lo, hi = min(start_y, end_y), max(start_y, end_y)
    band_lo, band_hi = max(lo, L / 2 - MIDDLE_BAND), min(hi, L / 2 + MIDDLE_BAND)
    skip = max(0.0, band_hi - band_lo)
    d = u * (hi - lo - skip)
    if end_y > start_y:
        y = lo + d
        return y + skip if y > band_lo or (skip and band_lo == lo) else y
    y = hi - d
    return y - skip if y < band_hi or (skip and band_hi == hi) else y


def _ball_x(next_x: float, wobble: int, next_kind: str, spread: float) -> float:
    """Where a ball goes across the table, given where it (or the ball it drives) goes next."""
    if next_kind in ("cushion", "contre_coup"):
        return 0.62 * W if next_x == 0.0 else 0.38 * W
    if next_kind == "pocket":
        return 0.3 * W if next_x < W / 2 else 0.7 * W
    x = next_x + wobble * spread * W
    return min(max(x, 0.22 * W), 0.78 * W)


# -- SVG pieces --------------------------------------------------------------------------------


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _text(
    x,
    y,
    s: str,
    size: float,
    *,
    anchor="middle",
    weight="normal",
    fill="#1b1b1b",
    cls: str | None = None,
    rotate: float | None = None,
) -> str:
    extra = f' class="{cls}"' if cls else ""
    rot = f' transform="rotate({_fmt(rotate)} {_fmt(x)} {_fmt(y)})"' if rotate is not None else ""
    return (
        f'<text x="{_fmt(x)}" y="{_fmt(y)}" font-size="{_fmt(size)}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}"{extra}{rot}>{escape(s)}</text>'
    )


def _table(lang: str, called: list[int], target: int | None) -> list[str]:
    out = [
        f'<rect x="{_fmt(OX - RAIL)}" y="{_fmt(OY - RAIL)}" width="{_fmt(W + 2 * RAIL)}" '
        f'height="{_fmt(L + 2 * RAIL)}" rx="18" fill="{WOOD}" class="rail"/>',
        f'<rect x="{_fmt(OX - 10)}" y="{_fmt(OY - 10)}" width="{_fmt(W + 20)}" '
        f'height="{_fmt(L + 20)}" fill="{CLOTH_EDGE}"/>',
        f'<rect x="{_fmt(OX)}" y="{_fmt(OY)}" width="{_fmt(W)}" height="{_fmt(L)}" fill="{CLOTH}" '
        'class="cloth"/>',
    ]
    # the diamonds (sights) on the rail: they make the cloth read as a billiards table
    for i in range(1, 8):
        y = OY + L * i / 8
        if i != 4:
            for x in (OX - RAIL / 2, OX + W + RAIL / 2):
                out.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="3" fill="#e8d9b0"/>')
    for i in range(1, 4):
        x = OX + W * i / 4
        for y in (OY - RAIL / 2, OY + L + RAIL / 2):
            out.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="3" fill="#e8d9b0"/>')
    # the «point» (the pyramid's apex spot) and the head string, faint: the table's landmarks
    out.append(
        f'<line x1="{_fmt(OX)}" y1="{_fmt(OY + 0.75 * L)}" x2="{_fmt(OX + W)}" '
        f'y2="{_fmt(OY + 0.75 * L)}" stroke="#ffffff" stroke-opacity="0.18" stroke-width="2"/>'
    )
    for i, ((kind, side, end), (px, py), name) in enumerate(_POCKETS):
        cx, cy = OX + px, OY + py
        cls = "pocket"
        ring = ""
        if i in called:
            cls += " called" + (" target" if i == target else "")
            dash = "" if i == target else ' stroke-dasharray="8 6"'
            ring = (
                f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(POCKET_R + 9)}" fill="none" '
                f'stroke="{CALLED}" stroke-width="6"{dash}/>'
            )
        key = f"{kind}-{side}" + (f"-{end}" if end else "")
        out.append(
            f'<g class="{cls}" data-pocket="{key}"><circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" '
            f'r="{_fmt(POCKET_R)}" fill="#0d0d0d"/>{ring}</g>'
        )
        label = trl(lang, name)
        colour = CALLED if i in called else "#333333"
        weight = "bold" if i in called else "normal"
        if kind == "middle":
            lx = OX - RAIL - 16 if side == "left" else OX + W + RAIL + 16
            out.append(
                _text(
                    lx,
                    cy,
                    label,
                    19,
                    fill=colour,
                    weight=weight,
                    cls="pocket-name",
                    rotate=-90 if side == "left" else 90,
                )
            )
        else:
            ly = OY - RAIL - 14 if end == "far" else OY + L + RAIL + 30
            lx = OX - RAIL + 2 if side == "left" else OX + W + RAIL - 2
            out.append(
                _text(
                    lx,
                    ly,
                    label,
                    19,
                    anchor="start" if side == "left" else "end",
                    fill=colour,
                    weight=weight,
                    cls="pocket-name",
                )
            )
    return out


def _ball(x: float, y: float, label: str, *, cue=False, called=False, number=None) -> str:
    cx, cy = OX + x, OY + y
    cls = "ball cue" if cue else "ball called" if called else "ball"
    data = (
        ' data-ball="cue"'
        if cue
        else f' data-ball="{number if number is not None else "unnamed"}"'
    )
    parts = [
        f'<g class="{cls}"{data}>',
        f'<circle cx="{_fmt(cx + 2)}" cy="{_fmt(cy + 3)}" r="{_fmt(BALL_R)}" fill="#000000" '
        'fill-opacity="0.3"/>',
        f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(BALL_R)}" '
        f'fill="{IVORY if not cue else "#ffffff"}" stroke="{"#555555" if not called else CALLED}" '
        f'stroke-width="{4 if called else 1.5}"/>',
    ]
    if cue:
        parts.append(f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="5" fill="{CALLED}"/>')
    else:
        parts.append(_text(cx, cy + 7.5, label, 21, weight="bold"))
    parts.append("</g>")
    return "".join(parts)


def _ball_again(x: float, y: float, label: str, number) -> str:
    """A ball the route reaches a second time: drawn where the route meets it again, dashed."""
    cx, cy = OX + x, OY + y
    return (
        f'<g class="ball-again" data-ball="{number}"><circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" '
        f'r="{_fmt(BALL_R)}" fill="{IVORY}" fill-opacity="0.35" stroke="{IVORY}" stroke-width="3" '
        'stroke-dasharray="6 4"/>'
        + _text(cx, cy + 7.5, label, 21, weight="bold", fill="#ffffff")
        + "</g>"
    )


def _mark(x: float, y: float, kind: str, lang: str) -> str:
    """A contact with a cushion (a bar on the cushion's nose) or a contre-coup (a ring on the
    cushion, its name written along the rail)."""
    cx, cy = OX + x, OY + y
    if kind == "cushion":
        return (
            f'<g class="mark cushion"><line x1="{_fmt(cx)}" y1="{_fmt(cy - 16)}" x2="{_fmt(cx)}" '
            f'y2="{_fmt(cy + 16)}" stroke="#ffe14d" stroke-width="7" stroke-linecap="round"/></g>'
        )
    rail_x = cx - RAIL / 2 if x == 0.0 else cx + RAIL / 2
    label = _text(
        rail_x + (6 if x == 0.0 else -6),
        cy,
        trl(lang, "contre-coup"),
        15,
        fill="#ffffff",
        weight="bold",
        rotate=-90 if x == 0.0 else 90,
    )
    return (
        '<g class="mark contre_coup">'
        f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="13" fill="none" stroke="{CONTRE}" '
        'stroke-width="6"/>'
        f"{label}</g>"
    )


def _arrow(a: _Point, b: _Point, colour: str, n: int, actor, target, label: str | None) -> str:
    """The arrow of one contact: from the ball at ``a`` to ``b`` (stopping at a ball's edge)."""
    ax, ay, bx, by = OX + a.x, OY + a.y, OX + b.x, OY + b.y
    dx, dy = bx - ax, by - ay
    dist = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    ux, uy = dx / dist, dy / dist
    start_cut = BALL_R + 3 if a.kind in ("cue", "ball") else 4
    end_cut = {
        "ball": 2 * BALL_R + 1,
        "pocket": POCKET_R * 0.45,
        "cushion": 12,
        "contre_coup": 15,
    }.get(b.kind, 0)
    sx, sy = ax + ux * start_cut, ay + uy * start_cut
    ex, ey = bx - ux * end_cut, by - uy * end_cut
    marker = {CUE_PATH: "head-cue", DRIVER_PATH: "head-driver", CALLED_PATH: "head-called"}[colour]
    # the number of the contact, beside the middle of the arrow
    mx, my = (sx + ex) / 2 - uy * 17, (sy + ey) / 2 + ux * 17
    title = f"<title>{escape(label)}</title>" if label else ""
    return (
        f'<g class="contact-group"><path class="contact" data-actor="{actor}" '
        f'data-target="{target}" data-step="{n}" d="M {_fmt(sx)} {_fmt(sy)} L {_fmt(ex)} '
        f'{_fmt(ey)}" stroke="{colour}" stroke-width="5" fill="none" stroke-linecap="round" '
        f'marker-end="url(#{marker})">{title}</path><circle cx="{_fmt(mx)}" cy="{_fmt(my)}" '
        'r="11" fill="#0f3d22" fill-opacity="0.85"/>'
        + _text(mx, my + 5, str(n), 14, fill="#ffffff", weight="bold")
        + "</g>"
    )


_DEFS = (
    "<defs>"
    + "".join(
        f'<marker id="{name}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" '
        'markerHeight="4" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        f'fill="{colour}"/></marker>'
        for name, colour in (
            ("head-cue", CUE_PATH),
            ("head-driver", DRIVER_PATH),
            ("head-called", CALLED_PATH),
        )
    )
    + "</defs>"
)


def _wrap(s: str) -> list[str]:
    return textwrap.wrap(s, CAPTION_CHARS) or [""]


def _document(
    body: list[str],
    caption: list[tuple[str, float, str, str]],
    ok: bool,
    title: str,
    legend: list[tuple[str, str]],
) -> str:
    y = OY + L + RAIL + 30 + 36
    tail: list[str] = []
    for line, size, colour, weight in caption:
        y += size * 1.3
        tail.append(_text(WIDTH / 2, y, line, size, fill=colour, weight=weight, cls="caption"))
    if legend:
        y += 38
        parts, y = _legend(y, legend)
        tail.extend(parts)
        y += 14
    height = y + 22
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(WIDTH)} {_fmt(height)}" '
        f'width="{_fmt(WIDTH)}" height="{_fmt(height)}" role="img" '
        f'data-ok="{"true" if ok else "false"}" '
        'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">'
        f"<title>{escape(title)}</title>{_DEFS}"
        '<rect width="100%" height="100%" fill="#faf8f2"/>'
        + "".join(body)
        + "".join(tail)
        + "</svg>"
    )


def _legend(y: float, items: list[tuple[str, str]]) -> tuple[list[str], float]:
    """Small keys, in rows: what the arrow colours and marks mean (each on a patch of cloth);
    the elements and the last row's baseline."""
    out = ['<g class="legend">']
    x = 24.0
    for colour, text in items:
        if x > 24.0 and x + 52 + len(text) * 10.2 > WIDTH - 16:
            x, y = 24.0, y + 34
        out.append(
            f'<rect x="{_fmt(x)}" y="{_fmt(y - 18)}" width="34" height="24" rx="5" '
            f'fill="{CLOTH}"/>'
        )
        if colour == "contre":
            out.append(
                f'<circle cx="{_fmt(x + 17)}" cy="{_fmt(y - 6)}" r="7" fill="none" '
                f'stroke="{CONTRE}" stroke-width="4"/>'
            )
        elif colour == "fits":
            out[-1] = (
                f'<circle cx="{_fmt(x + 17)}" cy="{_fmt(y - 6)}" r="11" fill="#0d0d0d" '
                f'stroke="{CALLED}" stroke-width="3" stroke-dasharray="4 3"/>'
            )
        elif colour == "mark":
            out.append(
                f'<line x1="{_fmt(x + 17)}" y1="{_fmt(y - 14)}" x2="{_fmt(x + 17)}" '
                f'y2="{_fmt(y + 2)}" stroke="#ffe14d" stroke-width="6" stroke-linecap="round"/>'
            )
        else:
            out.append(
                f'<line x1="{_fmt(x + 5)}" y1="{_fmt(y - 6)}" x2="{_fmt(x + 29)}" '
                f'y2="{_fmt(y - 6)}" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>'
            )
        out.append(_text(x + 40, y, text, 16, anchor="start", fill="#333333"))
        x += 52 + len(text) * 10.2
    out.append("</g>")
    return out, y


def _striker(lang: str) -> str:
    y = OY + L + RAIL + 58
    return _text(
        WIDTH / 2,
        y,
        trl(lang, "▲ the striker's side: the near cushion"),
        18,
        fill="#555555",
        cls="striker",
    )


# -- the public functions ------------------------------------------------------------------------


def _read(call_or_text, mode: str, balls_left, pocket_precision: str):
    if isinstance(call_or_text, Call):
        return call_or_text
    if not isinstance(call_or_text, str):
        raise DiagramError(f"call_svg expects a Call or a str, not {type(call_or_text).__name__}")
    try:
        return parse(
            call_or_text, mode=mode, balls_left=balls_left, pocket_precision=pocket_precision
        )
    except GrammarError as exc:
        raise DiagramError(str(exc)) from None


def call_svg(
    call_or_text,
    *,
    lang: str = "ru",
    mode: str = "clean",
    balls_left=None,
    pocket_precision: str = "side_for_corners",
    caption: str | None = None,
    legend: bool = True,
    on_table=None,
) -> str:
    """The SVG picture of a call (a ``Call`` or its text, parsed with ``mode``, ``balls_left``
    and ``pocket_precision`` as ``grammar.parse`` does).

    ``caption`` replaces the call's canonical phrasing under the table (drills: the learner must
    say the call, so the picture must not); ``caption=""`` and ``legend=False`` leave the table
    alone (a scoreboard prints the call in its own large type). A refused text gives the picture of
    the refusal (``data-ok="false"``); see the module's docstring. ``on_table``: every ball on the
    table is drawn (a drill's text names them all): the route's where the route puts them, the rest
    plain, off the route (``_place_others``).
    """
    if lang not in ("ru", "en"):
        raise DiagramError(f"lang must be 'ru' or 'en', not {lang!r}")
    result = _read(call_or_text, mode, balls_left, pocket_precision)
    if isinstance(result, Refusal):
        return refusal_svg(result, lang=lang)
    call = result
    if call.route is not None:
        try:
            decompose(call)
        except GrammarError as exc:
            raise DiagramError(str(exc)) from None
    called = _fitting_pockets(call.pocket)
    target = called[0]
    # the called ball's number: given, or the one ball left (C5), or «?»
    number = call.ball
    if number is None and balls_left is not None and len(tuple(balls_left)) == 1:
        number = tuple(balls_left)[0]
    body = _table(lang, called, target)
    body.append(_striker(lang))
    keys = [(CUE_PATH, trl(lang, "the cue ball"))]
    draw = _open_way if call.route is None else _route
    drawn, more_keys = draw(call, _POCKETS[target][1], number, on_table, lang)
    body += drawn
    keys += more_keys
    if len(called) > 1:
        keys.append(("fits", trl(lang, "fits the call too")))
    said = caption if caption is not None else render(call)
    lines = (
        []
        if caption == ""
        else [
            (s, 24.0, "#111111", "bold")
            for s in _wrap(said if caption is not None else f"«{said}»")
        ]
    )
    title = said
    return _document(body, lines, True, title, keys if legend else [])


def _open_way(call: Call, pocket_xy, number, on_table, lang: str):
    """Ball and pocket (C7): no way named; the ball and a dotted line to the pocket. The SVG
    elements and the legend's keys."""
    tx, ty = pocket_xy
    body: list[str] = []
    bx, by = (
        (0.3 * W if tx < W / 2 else 0.7 * W),
        (0.5 * L if ty < L / 2 else 0.3 * L if ty >= L else 0.75 * L),
    )
    body.append(
        f'<line class="way-open" x1="{_fmt(OX + bx)}" y1="{_fmt(OY + by)}" x2="{_fmt(OX + tx)}" '
        f'y2="{_fmt(OY + ty)}" stroke="{CALLED_PATH}" stroke-width="4" stroke-dasharray="3 12" '
        f'stroke-linecap="round"/>'
    )
    cue_y = L - 0.09 * L if ty < L else 0.12 * L
    body.append(_ball(0.5 * W, cue_y, "", cue=True))
    body.append(
        _ball(bx, by, str(number) if number is not None else "?", called=True, number=number)
    )
    note_y = 0.62 * L if ty < L else 0.5 * L
    body.append(
        _text(
            OX + W / 2,
            OY + note_y,
            trl(lang, "the way is not named (C7)"),
            20,
            fill="#ffffff",
            cls="note",
        )
    )
    placed = [(0.5 * W, cue_y), (bx, by)]
    segments = [
        ((bx, by), (tx, ty)),
        ((0.15 * W, note_y - 10), (0.85 * W, note_y - 10)),
    ]  # the way, the note
    body += _others(on_table, {number}, placed, segments)
    return body, [(CALLED_PATH, trl(lang, "the called ball"))]


def _route(call: Call, pocket_xy, number, on_table, lang: str):
    """A named way: its arrows, marks and balls, then the other balls on the table. The SVG
    elements and the legend's keys."""
    points = _layout(call, pocket_xy)
    marks, arrows = _route_arrows(call, points, lang)
    body = marks + arrows + _route_balls(call, points, number)
    body += _others(
        on_table,
        {p.ball for p in points if p.kind == "ball"} | {number, call.ball},
        [(p.x, p.y) for p in points],
        [((a.x, a.y), (b.x, b.y)) for a, b in zip(points, points[1:])],
    )
    keys = []
    drivers = set(decompose(call)["drivers"])
    if drivers or any(a not in (CUE, call.ball) for a, _ in call.route):
        keys.append((DRIVER_PATH, trl(lang, "a driving ball")))
    keys.append((CALLED_PATH, trl(lang, "the called ball")))
    if any(t == CUSHION for _, t in call.route):
        keys.append(("mark", trl(lang, "cushion")))
    if any(t == CONTRE_COUP for _, t in call.route):
        keys.append(("contre", trl(lang, "contre-coup")))
    return body, keys


def _route_arrows(call: Call, points, lang: str) -> tuple[list[str], list[str]]:
    """One numbered arrow a contact of the route, coloured by who moves; the cushions' and
    contre-coups' marks."""
    marks: list[str] = []
    arrows: list[str] = []
    for n, ((actor, tgt), a, b) in enumerate(zip(call.route, points, points[1:]), 1):
        if actor == CUE:
            colour = CUE_PATH
        elif actor == call.ball:
            colour = CALLED_PATH
        else:
            colour = DRIVER_PATH
        arrows.append(
            _arrow(
                a,
                b,
                colour,
                n,
                "cue" if actor == CUE else "ball" if actor is None else actor,
                "ball" if tgt is None else tgt,
                _contact_words(actor, tgt, lang),
            )
        )
        if b.kind in ("cushion", "contre_coup"):
            marks.append(_mark(b.x, b.y, b.kind, lang))
    return marks, arrows


def _route_balls(call: Call, points, number) -> list[str]:
    """The balls on the route: the cue ball, each ball once, a ball hit again as an outline."""
    balls: list[str] = []
    seen: set = set()
    for p in points:
        if p.kind == "cue":
            balls.append(_ball(p.x, p.y, "", cue=True))
        elif p.kind == "ball" and p.ball in seen:
            # the same ball hit again («карамболем от шестёрки шестёркой …»): a dashed outline
            balls.append(_ball_again(p.x, p.y, str(p.ball), p.ball))
        elif p.kind == "ball":
            seen.add(p.ball)
            is_called = p.ball == call.ball
            label = str(p.ball if p.ball is not None else number if number is not None else "?")
            balls.append(
                _ball(
                    p.x,
                    p.y,
                    label,
                    called=is_called,
                    number=p.ball if p.ball is not None else number,
                )
            )
    return balls


def _others(on_table, drawn: set, points: list[tuple[float, float]], segments) -> list[str]:
    """The balls on the table the route does not draw, each plain, placed off the route."""
    if not on_table:
        return []
    rest = sorted(b for b in set(on_table) if b not in drawn)
    return [
        _ball(x, y, str(b), number=b).replace('class="ball"', 'class="ball on-table"', 1)
        for b, (x, y) in zip(rest, _place_others(len(rest), points, segments))
    ]


def _segment_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    u = (
        0.0
        if dx == dy == 0
        else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    )
    return ((px - ax - u * dx) ** 2 + (py - ay - u * dy) ** 2) ** 0.5


def _place_others(n: int, points, segments) -> list[tuple[float, float]]:
    """Spots on the cloth for ``n`` balls: clear of the route's balls, marks and arrows (and
    their step numbers), of the pockets and of each other; the first ones nearest the pyramid's
    spot, as balls stand on a table. Positions are schematic, like the route's."""
    step = 2 * BALL_R + 5
    spots = [
        (BALL_R + 8 + i * step, BALL_R + 8 + j * step)
        for i in range(int((W - 2 * BALL_R - 16) // step) + 1)
        for j in range(int((L - 2 * BALL_R - 16) // step) + 1)
    ]
    spots.sort(key=lambda s: ((s[0] - W / 2) ** 2 + (s[1] - 0.25 * L) ** 2, s))
    pockets = [p for _, p, _ in _POCKETS]
    out: list[tuple[float, float]] = []
    for s in spots:
        if len(out) == n:
            break
        if any(
            ((s[0] - x) ** 2 + (s[1] - y) ** 2) ** 0.5 < 2 * BALL_R + 8 for x, y in points + out
        ):
            continue
        if any(
            ((s[0] - x) ** 2 + (s[1] - y) ** 2) ** 0.5 < POCKET_R + BALL_R + 12 for x, y in pockets
        ):
            continue
        if any(_segment_distance(s, a, b) < BALL_R + 16 for a, b in segments):
            continue
        out.append(s)
    return out


def _contact_words(actor, target, lang: str) -> str:
    def who(x):
        if x == CUE:
            return trl(lang, "the cue ball")
        if x is None:
            return trl(lang, "the last ball")
        return trl(lang, "ball {n}").format(n=x)

    what = {
        CUSHION: trl(lang, "the cushion"),
        POCKET: trl(lang, "the pocket"),
        CONTRE_COUP: trl(lang, "contre-coup"),
    }.get(target)
    return f"{who(actor)} → {what if what is not None else who(target)}"


def refusal_svg(refusal: Refusal, *, lang: str = "ru") -> str:
    """The empty table and why the call is refused, with how to say it (``data-ok="false"``)."""
    body = _table(lang, [], None)
    body.append(_striker(lang))
    reason = trl(lang, "Refused: {reason}").format(reason=refusal.message(lang))
    hint = trl(lang, "How to say it: {hint}").format(hint=refusal.hint(lang))
    lines = [(s, 22.0, CALLED, "bold") for s in _wrap(reason)] + [
        (s, 20.0, "#222222", "normal") for s in _wrap(hint)
    ]
    return _document(body, lines, False, reason, [])


def learn_fragment(
    text: str,
    lang: str = "ru",
    *,
    mode: str = "clean",
    balls_left=None,
    pocket_precision: str = "side_for_corners",
) -> dict:
    """What the teaching page shows for a typed call, as plain data for a template or JSON:

    ``{"ok", "text", "reading": [lines], "canonical": str | None, "notes": [lines],
    "fix": str | None, "svg": str, "call": {...} | None, "error": {...} | None}``.

    ``reading`` is how the call reads (or why it is refused and where), ``canonical`` the right
    phrasing, ``fix`` what to say instead («Правильно: …» / «Как сказать: …»), ``svg`` the
    picture (of the call, or of the refusal). A text that is not a str raises ``DiagramError``.
    """
    if not isinstance(text, str):
        raise DiagramError(f"learn_fragment expects a str, not {type(text).__name__}")
    if lang not in ("ru", "en"):
        raise DiagramError(f"lang must be 'ru' or 'en', not {lang!r}")
    try:
        ex = explain(
            text, mode=mode, balls_left=balls_left, lang=lang, pocket_precision=pocket_precision
        )
    except GrammarError as exc:
        raise DiagramError(str(exc)) from None
    data = ex.to_json(lang)
    svg = (
        call_svg(ex.result, lang=lang, balls_left=balls_left)
        if ex.ok
        else refusal_svg(ex.result, lang=lang)
    )
    return {
        "ok": ex.ok,
        "text": text,
        "reading": data["reading"],
        "canonical": data["canonical"],
        "notes": data["notes"],
        "fix": data["fix"],
        "svg": svg,
        "call": data.get("call"),
        "error": data.get("error"),
    }
