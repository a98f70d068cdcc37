"""What the pages show: the API's state (``GET /api/state``), built from a ``Session``.

The same session code as ``play``: the state is the engine's, the history is the store's
active strokes, the verdict sentences are the engine's own in the user's language. The
standing call (the call heard by ``listen --pad`` or typed on the pad before the strike) is
the store's too (``Session.standing``), so a restart keeps it and another program's reaches the
pages; a stroke takes it. Everything is read from the committed record.
"""

from __future__ import annotations

from ..catalog import trl
from ..match.session import CallReading, Session, Standing, strike_marks
from ..match.text import game_line, match_score_line
from ..rules import clauses, needs
from ..rules.notation import render_outcome


def call_json(
    reading: CallReading | None, lang: str, standing: Standing | None = None
) -> dict | None:
    """The standing call as the scoreboard shows it: «заказ принят: …» / «заказ не принят: …»;
    with ``standing``, also where it came from (typed on the pad, heard by ``listen``) and the
    strike's time when heard."""
    if standing is not None:
        reading = standing.reading
    if reading is None:
        return None
    source = standing.source if standing is not None else "pad"
    strike = standing.strike if standing is not None else None
    if source == "listen":
        heard = (
            trl(lang, "heard by the voice referee, strike at {time:.2f} s").format(time=strike)
            if strike is not None
            else trl(lang, "heard by the voice referee")
        )
    else:
        heard = ""
    return {
        "source": source,
        "strike": strike,
        "heard_line": heard,
        "text": reading.text,
        "status": reading.status,
        "canonical": reading.canonical,
        "call": None if reading.call is None else reading.call.to_json(),
        "refusal": reading.refusal,
        "line": reading.describe(lang),
        # Q13, Q14 (keys added): heard with no strike after it, the outcome takes it; a strike that
        # made it late may be taken back; the strikes taken back since the last stroke
        "strike_heard": None if source != "listen" else strike is not None,
        "can_take_back": bool(standing is not None and standing.voided_by_strike),
        "taken_back": list(standing.taken_back) if standing is not None else [],
    }


def titled(codes, lang: str, settings=None) -> list[dict]:
    """Clause codes with their titles (the verdict's «why»), unknown codes left bare; as played
    under the match's ``settings`` (a short game's E1 names its own target)."""
    target = getattr(settings, "target", clauses.DEFAULT_TARGET)
    penalty = getattr(settings, "penalty", clauses.DEFAULT_PENALTY)
    out = []
    for code in codes or ():
        try:
            out.append({"id": code, "title": clauses.as_played(code, target, penalty).title(lang)})
        except KeyError:
            out.append({"id": code, "title": ""})
    return out


def _stroke_json(s: Session, row, lang: str) -> dict:
    rec = row.record
    replayed = s.verdicts.get(row.seq)
    verdict = replayed.to_json(lang) if replayed is not None else dict(rec.verdict)
    try:
        outcome = render_outcome(rec.outcome)
    except Exception:  # a display courtesy: the stored JSON is the record
        outcome = ""
    return {
        "seq": row.seq,
        "striker": verdict.get("striker", ""),
        "call_text": rec.call_text,
        "call_status": rec.call_status,
        "refusal": (rec.refusal or {}).get("message") if rec.refusal else None,
        "outcome": outcome,
        "message": verdict.get("message", ""),
        "summary": wall_summary(
            verdict.get("message", ""), verdict.get("clauses") or (), s.players, lang
        ),
        "points": verdict.get("points", {}),
        "penalty": verdict.get("penalty"),
        "clauses": titled(verdict.get("clauses"), lang, s.settings),
        "result": verdict.get("result"),
        "strike_marks": strike_marks(
            rec.strike, lang
        ),  # Q13, Q14: «удар не услышан — …», «… снят маркёром»
    }


def state_json(s: Session, standing: Standing | None, lang: str) -> dict:
    """The whole picture a page needs; its keys are the JSON API's contract."""
    st = s.state.to_json()
    target = s.settings.target
    players = st["players"]
    rows = s.store.strokes(s.id)
    games = s.match.games()
    # The game on the board: the one of the last stroke, so a finished game stays up (its result,
    # its table, its strokes) until the next one's first stroke.
    game = next(
        (g for g in games if rows and g.first <= rows[-1].seq <= g.last),
        games[-1] if games else None,
    )
    in_game = [r for r in rows if game is None or game.first <= r.seq <= game.last]
    history = [_stroke_json(s, r, lang) for r in in_game]
    last = _stroke_json(s, rows[-1], lang) if rows else None
    upcoming = s.upcoming.to_json()
    wins = s.match.wins()
    return {
        "match": s.id,
        "seq": s.seq,
        "lang": lang,
        "players": players,
        "scores": st["scores"],
        "to_play": upcoming["to_play"],
        "from_hand": upcoming["from_hand"],
        "on_table": upcoming["on_table"],  # what the next stroke is judged from (the pad's balls)
        "board_on_table": st["on_table"],  # the table of the game on the board
        "target": target,
        "needs": {p: needs(s.state, p, s.settings) for p in players},  # P3, E1
        "from_balls": st["from_balls"],
        "received": st["received"],
        "paid": st["paid"],
        "phase": st["phase"],
        "standing_call": call_json(None, lang, standing),
        "last_verdict": last,
        "result": s.result_json(),
        "game_result": st["result"],
        "history": history,
        "games": [
            {
                "number": g.number,
                "line": game_line(g, lang),
                "board_line": board_game_line(g, players, lang),
                "started": g.first <= g.last,
                "scores": g.scores,
                "result": None if g.result is None else g.result.to_json(),
            }
            for g in games
        ],
        "to_wins": s.to_wins,
        "wins": wins,
        "match_line": match_score_line(s, lang)
        if (s.to_wins > 1 or len(games) > 1 or s.match.decided)
        else "",
        "decided": s.match.decided,
        "can_undo": bool(s.match.history),
        "can_redo": bool(s.store.strokes(s.id, statuses=("undone",))),
        "mismatches": [m.describe(lang) for m in s.mismatches],
        "game_over_line": _game_over_line(st, lang),
        "next_game_note": (
            trl(lang, "game over; {player} breaks the next one from the house").format(
                player=upcoming["to_play"]
            )
            if st["result"] is not None and not s.match.decided
            else ""
        ),
    }


# The verdict's last part when the game goes on: who strikes next (the engine's own words).
_TO_PLAY = (
    "{player} to play again from hand",
    "{player} to play again",
    "{player} to play from hand",
    "{player} to play",
)


def wall_summary(message: str, codes, players, lang: str) -> str:
    """A stroke's verdict as a line of the wall's history: the engine's sentence without the clause
    codes at its end (the chips under the verdict name them) and without who strikes next (the next
    line of the history says it). Anything not in that shape is left whole."""
    text = message.strip()
    tail = f" ({', '.join(codes)})."
    if codes and text.endswith(tail):
        text = text[: -len(tail)]
    parts = text.split("; ")
    nexts = {trl(lang, m).format(player=p).lower() for m in _TO_PLAY for p in players}
    if len(parts) > 1 and parts[-1].lower() in nexts:
        parts.pop()
    return "; ".join(parts)


def board_game_line(g, players, lang: str = "ru") -> str:
    """One game of the match as the wall shows it: «партия 1: 73 : 48, победитель — Иван»."""
    score = " : ".join(str(g.scores.get(p, 0)) for p in players)
    if g.result is None:
        return trl(lang, "game {number}: {score}, in play").format(number=g.number, score=score)
    if g.result.winner is not None:
        return trl(lang, "game {number}: {score}, {player} won").format(
            number=g.number, score=score, player=g.result.winner
        )
    return trl(lang, "game {number}: {score}, a draw").format(number=g.number, score=score)


def _game_over_line(st: dict, lang: str) -> str:
    """«партия окончена: победитель — Иван, 71 : 40» (or a draw) once the game
    has ended, else ''."""
    r = st.get("result")
    if not r:
        return ""
    score = " : ".join(str(v) for v in st["scores"].values())
    if r.get("winner"):
        return trl(lang, "game over: {player} won, {score}").format(
            player=r["winner"], score=score
        )
    return trl(lang, "game over: a draw, {score}").format(score=score)
