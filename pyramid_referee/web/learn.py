"""The teaching page ``/learn``: a typed call read, phrased right and drawn; drills.

Read-only: nothing here touches the match or its store, so no PIN is asked. Every answer is
computed from the request's few query parameters, each checked (a length or a range, a word
from a fixed list) before use; none becomes a path or SQL.

- ``GET /api/learn?call=TEXT`` → ``diagram.learn_fragment``: ``{"ok", "text", "reading",
  "canonical", "notes", "fix", "svg", "call", "error"}`` (a refused call is 200 with ``ok``
  false: refusing is the answer, not an error of the request).
- ``GET /api/drill?seed=S&level=L&n=N[&mode=M]`` → the N-th exercise of ``drill.generate(S, L)``:
  its task in words (``prompt``), the shot's picture (``svg``, captioned with the task, never
  with the call), ``hint`` and ``answer`` (the page shows them only when asked).
- ``GET /api/drill/check?seed=S&level=L&n=N[&mode=M]&answer=TEXT`` → ``drill.grade``: ``correct``,
  ``differences`` (what is wrong, in words), ``notes``; the right phrasing only once it is right.
"""

from __future__ import annotations

import json
import random

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..catalog import trl
from ..i18n import UserError
from ..rules.settings import mode_setting
from ..teach import diagram, drill
from ..teach.drill import drill_svg

MAX_CALL = 300  # characters of a typed call or answer (a spoken call is far shorter)
MAX_SEED = 10**9
MAX_INDEX = 100  # exercises of one seed: generating the N-th makes the N before it


class LearnInputError(UserError, ValueError):
    """A query parameter the teaching page's API cannot use (422 with the Russian message)."""


def learn_texts(lang: str) -> dict:
    """The words of the teaching page and of its script, in ``lang``."""
    return {
        "title": trl(lang, "Learning to call"),
        "to_board": trl(lang, "scoreboard"),
        "type_call": trl(lang, "Type a call and see how it reads"),
        "placeholder": trl(lang, "e.g. тройку от борта в правый дальний угол"),
        "reading": trl(lang, "How it reads"),
        "say_it_as": trl(lang, "Say it as"),
        "to_fix": trl(lang, "What to fix"),
        "accepted": trl(lang, "call accepted"),
        "refused": trl(lang, "call refused"),
        "drills": trl(lang, "Drills: the shot is drawn; say its call"),
        "level": trl(lang, "level"),
        "levels": {
            "1": trl(lang, "1: straight in"),
            "2": trl(lang, "2: cushion, abricole, off a ball"),
            "3": trl(lang, "3: driving balls, carom, several cushions"),
        },
        "your_call": trl(lang, "your call for this shot"),
        "check": trl(lang, "Check"),
        "hint": trl(lang, "Hint"),
        "answer": trl(lang, "Answer"),
        "next": trl(lang, "Next"),
        "right": trl(lang, "Right."),
        "wrong": trl(lang, "Not right."),
        "answer_is": trl(lang, "Answer: «{call}»"),
        "waiting": trl(lang, "reading…"),
        "offline": trl(lang, "the server does not answer"),
    }


def _int(
    request: Request, lang: str, name: str, low: int, high: int, default: int | None = None
) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        if default is not None:
            return default
        raise LearnInputError(
            trl(lang, "give «{name}»: a whole number from {low} to {high}").format(
                name=name, low=low, high=high
            )
        )
    if len(raw) > 12 or not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise LearnInputError(
            trl(lang, "«{name}» must be a whole number from {low} to {high}").format(
                name=name, low=low, high=high
            )
        )
    return int(raw)


def _text(request: Request, lang: str, name: str) -> str:
    text = request.query_params.get(name, "")
    if not text.strip():
        raise LearnInputError(
            trl(lang, "give the call: «?{name}=…» (at most {n} characters)").format(
                name=name, n=MAX_CALL
            )
        )
    if len(text) > MAX_CALL:
        raise LearnInputError(
            trl(lang, "the call is too long: at most {n} characters").format(n=MAX_CALL)
        )
    return text


def _exercise(request: Request, lang: str) -> drill.Exercise:
    seed = _int(request, lang, "seed", 0, MAX_SEED)
    level = _int(request, lang, "level", 1, 3, 1)
    n = _int(request, lang, "n", 1, MAX_INDEX, 1)
    mode = mode_setting(request.query_params.get("mode", "clean"))
    if mode not in drill.MODES:
        raise LearnInputError(trl(lang, "mode must be «clean» or «ball_and_pocket»"))
    return drill.generate(seed, level, n, mode)[-1]


def _json(data: dict, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def learn_routes(render_page, lang: str) -> list[Route]:
    """The page and its API. ``render_page(template, **context)`` → the page's HTMLResponse."""
    texts = learn_texts(lang)
    texts_json = json.dumps(texts, ensure_ascii=False)

    def guarded(handler):
        async def wrapped(request: Request) -> Response:
            try:
                return handler(request)
            except LearnInputError as exc:
                return _json({"error": str(exc)}, 422)

        return wrapped

    @guarded
    def page(request: Request) -> Response:
        seed = _int(request, lang, "seed", 0, MAX_SEED, -1)
        if seed < 0:  # a fresh set of exercises each visit, unless a seed is asked for
            seed = random.SystemRandom().randrange(MAX_SEED)
        level = _int(request, lang, "level", 1, 3, 1)
        return render_page(
            "learn.html",
            lt=texts,
            learn_json=texts_json,
            drill_json=json.dumps({"seed": seed, "level": level, "n": 1, "max_n": MAX_INDEX}),
        )

    @guarded
    def api_learn(request: Request) -> Response:
        return _json(diagram.learn_fragment(_text(request, lang, "call"), lang))

    @guarded
    def api_drill(request: Request) -> Response:
        ex = _exercise(request, lang)
        return _json(
            {
                **ex.to_json(lang),
                "prompt": ex.prompt(lang).split("\n"),
                "svg": drill_svg(ex, lang),
                "hint": ex.hint(lang),
                "answer": ex.canonical,
            }
        )

    @guarded
    def api_check(request: Request) -> Response:
        ex = _exercise(request, lang)
        g = drill.grade(ex, _text(request, lang, "answer"), lang)
        return _json(
            {
                "answer": g.answer,
                "correct": g.correct,
                "differences": [d.to_json() for d in g.differences],
                "notes": list(g.notes),
                "canonical": g.canonical if g.correct else None,
            }
        )

    return [
        Route("/learn", page),
        Route("/api/learn", api_learn),
        Route("/api/drill", api_drill),
        Route("/api/drill/check", api_check),
    ]
