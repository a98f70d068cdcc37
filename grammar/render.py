"""Canonical Russian phrasing of a call: ``render(call)`` parses back to the same call.

Word order: [абриколем] [карамболем от X …] [driving balls] BALL [own contacts
| чисто] POCKET (with no number, C5, after «абриколем»: «чужой» before own contacts), e.g.
«карамболем от шестёрки одиннадцатым шаром тройку чисто в середину». The forms (cases, genders)
were inflected with pymorphy3 when the lexicon was built and are read from ``data/lexicon.json``.
"""

from __future__ import annotations

from typing import Any

from .call import CONTRE_COUP, CUE, CUSHION, POCKET, Call, Pocket
from .errors import GrammarError
from .lexicon import render_forms


def _ball(n: int, case: str) -> str:
    form: str = render_forms()["ball"][str(n)][case]
    return form


def render_pocket(pocket: Pocket) -> str:
    forms = render_forms()["pocket"][pocket.kind]
    words = ["в"]
    if pocket.side:
        words.append(forms[pocket.side])
    if pocket.end:
        words.append(forms[pocket.end])
    if pocket.kind == "middle" and not pocket.side:
        return "в середину"
    words.append(forms["noun"])
    return " ".join(words)


def _join(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " и " + items[-1]


def decompose(call: Call) -> dict[str, Any]:
    """The route as the call language says it: abricole, caroms, drivers, own contacts.

    Raises GrammarError when the route has a shape no call can say.
    """
    b = call.ball
    if call.route is None:
        raise TypeError("a ball-and-pocket call has no route")
    route = list(call.route)
    bad = GrammarError(f"the route {[list(c) for c in route]} cannot be said in the call language")
    if not route or route[-1] != (b, POCKET):
        raise bad
    route.pop()
    i = 0
    abricole = False
    if i < len(route) and route[i] == (CUE, CUSHION):
        abricole = True
        i += 1
    caroms = []
    while (
        i + 1 < len(route)
        and route[i][0] == CUE
        and route[i + 1][0] == CUE
        and isinstance(route[i][1], int)
    ):
        caroms.append(route[i][1])
        i += 1
    if i >= len(route) or route[i][0] != CUE:
        raise bad
    drivers = []
    prev: str | int = CUE
    while True:
        if i >= len(route) or route[i][0] != prev:
            raise bad
        target = route[i][1]
        i += 1
        if target == b:
            break
        if not isinstance(target, int) or isinstance(target, bool):
            raise bad
        drivers.append(target)
        prev = target
    own = []
    for actor, target in route[i:]:
        if actor != b or target == POCKET or target == CUE:
            raise bad
        own.append(target)
    return {"abricole": abricole, "caroms": caroms, "drivers": drivers, "own": own}


def render(call: Call) -> str:
    """The canonical Russian call for ``call`` (parses back to the same call).

    A call with ``route`` null is a ball-and-pocket call (parse it with
    mode="ball_and_pocket"); a call with ``ball`` null is the last-ball call of
    C5 (parse it with that one ball in ``balls_left``).
    """
    return " ".join(phrase_blocks(call))


def phrase_blocks(call: Call) -> list[str]:
    """The canonical call as blocks that may be said in any order (free word
    order): абриколем, the caroms, the driving balls, the ball with its own
    contacts (or the ball, and чисто), the pocket. Each block is one stretch (see
    assembly.py); own contacts stay right after their ball word, so that no order
    puts them next to another ball's phrase (whose contact, C9)."""
    if not isinstance(call, Call):
        raise GrammarError(f"render expects a Call, not {type(call).__name__}")
    blocks: list[str] = []
    if call.route is None:
        if call.ball is not None:
            blocks.append(_ball(call.ball, "acc"))
        blocks.append(render_pocket(call.pocket))
        return blocks
    parts = decompose(call)
    if parts["abricole"]:
        blocks.append("абриколем")
    if parts["caroms"]:
        blocks.append(" ".join(f"карамболем от {_ball(x, 'gen')}" for x in parts["caroms"]))
    drivers = parts["drivers"]
    if len(drivers) == 1:
        blocks.append(_ball(drivers[0], "ins"))
    elif drivers:
        forms = render_forms()
        blocks.append(
            f"{forms['count_ins'][str(len(drivers))]} {forms['balls_ins_plural']} "
            + _join([_ball(x, "ins_short") for x in drivers])
        )
    own = parts["own"]
    words: list[str] = []
    k = 0
    while k < len(own):
        target = own[k]
        if target == CUSHION:
            run = 1
            while k + run < len(own) and own[k + run] == CUSHION:
                run += 1
            if run == 1:
                words.append("от борта")
            else:
                forms = render_forms()
                words.append(
                    f"от {forms['num_gen'][str(run)] if run <= 15 else run} "
                    f"{forms['cushions_gen']}"
                )
            k += run
            continue
        if target == CONTRE_COUP:
            words.append("от контр-ку")
        elif isinstance(target, int):
            words.append(f"от {_ball(target, 'gen')}")
        else:
            raise GrammarError(f"the route target {target!r} cannot be said in the call language")
        k += 1
    if words:
        # The own contacts are said right after the ball word, in one block: after
        # «абриколем», a carom or a driving ball they could be that ball's
        # (assembly.py, whose contact). With no number (C5) and such a phrase in the
        # call, «чужой» is the ball word they follow.
        if call.ball is not None:
            blocks.append(f"{_ball(call.ball, 'acc')} {' '.join(words)}")
        elif blocks:
            blocks.append(f"чужой {' '.join(words)}")
        else:
            blocks.append(" ".join(words))
    else:
        if call.ball is not None:
            blocks.append(_ball(call.ball, "acc"))
        blocks.append("чисто")
    blocks.append(render_pocket(call.pocket))
    return blocks


DEFAULT_POCKET = Pocket("corner", "left", None)


def example_for(ball: object, pocket: object, bank: bool = False) -> str:
    """A clean straight call with this ball and pocket (off one cushion if ``bank``), for hints."""
    b = ball if isinstance(ball, int) else 3
    p = (
        pocket
        if isinstance(pocket, Pocket) and (pocket.kind == "middle" or pocket.side)
        else DEFAULT_POCKET
    )
    return render(Call(b, p, ((CUE, b),) + (((b, CUSHION),) if bank else ()) + ((b, POCKET),)))


def example_plain(ball: object, pocket: object) -> str:
    """A ball-and-pocket call (C7: no way) with this ball and pocket, for hints."""
    b = ball if isinstance(ball, int) else 3
    p = (
        pocket
        if isinstance(pocket, Pocket) and (pocket.kind == "middle" or pocket.side)
        else DEFAULT_POCKET
    )
    return render(Call(b, p, None))


def example_combo(ball: object, pocket: object, n: int) -> str:
    """A combination of ``n`` driving balls, for hints about counts."""
    b = ball if isinstance(ball, int) else 12
    p = (
        pocket
        if isinstance(pocket, Pocket) and (pocket.kind == "middle" or pocket.side)
        else DEFAULT_POCKET
    )
    n = max(1, min(int(n), 14))
    drivers = [x for x in (5, 9, 2, 7, 4, 6, 8, 10, 11, 13, 14, 15, 1, 3, 12) if x != b][:n]
    route = [(CUE, drivers[0])] + list(zip(drivers, drivers[1:])) + [(drivers[-1], b), (b, POCKET)]
    return render(Call(b, p, tuple(route)))
