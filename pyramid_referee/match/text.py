"""The text a person reads about a match, the same from every front end (``play``, ``match``,
``listen``, ``serve``): the scoreboard, the games of a match and its score, the end of a game,
and what the clauses a verdict cites mean («почему»).
"""

from __future__ import annotations

from typing import Any

from ..catalog import trl
from ..rules.clauses import DEFAULT_PENALTY, DEFAULT_TARGET, cited, explained
from ..rules.messages import num

# ---------------------------------------------------------------------- games of a match


def _result_text(result, scores: dict, lang: str) -> str:
    score = " : ".join(num(v) for v in scores.values())
    if result is None:
        return trl(lang, "in play, {score}").format(score=score)
    if result.winner is not None:
        return trl(lang, "{winner} won {score}").format(winner=result.winner, score=score)
    return trl(lang, "drawn {score}").format(score=score)


def game_line(g, lang: str) -> str:
    """One game (партия) of a match: its strokes, who broke, how it ended."""
    if g.first > g.last:
        line = trl(lang, "game {number} (no strokes yet, broken by {breaker}): {result}")
    elif g.first == g.last:
        line = trl(lang, "game {number} (stroke {first}, broken by {breaker}): {result}")
    else:
        line = trl(lang, "game {number} (strokes {first}–{last}, broken by {breaker}): {result}")
    return line.format(
        number=g.number,
        first=g.first,
        last=g.last,
        breaker=g.breaker,
        result=_result_text(g.result, g.scores, lang),
    )


def match_score_line(s, lang: str) -> str:
    """The match score in games won, and what it is played to."""
    p = s.players
    wins = s.match.wins()
    score = f"{p[0]} {wins[p[0]]} : {wins[p[1]]} {p[1]}"
    if s.match.decided:
        if s.to_wins > 1:
            winner = max(wins, key=wins.get)
            return trl(lang, "match over: {winner} won, games {score}").format(
                winner=winner, score=score
            )
        return trl(lang, "match over: one game")
    return trl(lang, "match to {wins} wins: games {score}").format(wins=s.to_wins, score=score)


def game_end_text(s, lang: str) -> str:
    """After a game's last stroke in a longer match: the match score and who breaks next."""
    number = len([g for g in s.match.games() if g.result is not None])
    if s.match.decided:
        return match_score_line(s, lang)
    breaker = s.upcoming.striker
    return trl(
        lang, "game {number} over; {match}; {breaker} breaks game {next} from the house"
    ).format(number=number, match=match_score_line(s, lang), breaker=breaker, next=number + 1)


# ---------------------------------------------------------------------- scoreboard


def scoreboard_line(st: dict, lang: str) -> str:
    p = st["players"]
    sc = f"{p[0]} {num(st['scores'][p[0]])} : {num(st['scores'][p[1]])} {p[1]}"
    table = " ".join(str(b) for b in st["on_table"]) or "—"
    if st.get("result"):
        r = st["result"]
        if "winner" in r:
            line = trl(lang, "score: {score}; on the table: {table}; game over, winner {winner}")
        else:
            line = trl(lang, "score: {score}; on the table: {table}; game over, draw")
        return line.format(score=sc, table=table, winner=r.get("winner"))
    if st.get("from_hand"):
        line = trl(lang, "score: {score}; on the table: {table}; {player} to play from hand")
    else:
        line = trl(lang, "score: {score}; on the table: {table}; {player} to play")
    return line.format(score=sc, table=table, player=st["to_play"])


def _penalties(received: int, paid: int) -> str:
    """Penalty points received and paid, without a «−0»: «+5», «−10», «+5 −10», or «—»."""
    parts = ([f"+{received}"] if received else []) + ([num(-paid)] if paid else [])
    return " ".join(parts) or "—"


def render_scoreboard(st: dict, match_id: Any, lang: str):
    from rich.table import Table  # deferred: rich is loaded only where a table is drawn

    p = st["players"]
    t = Table(
        title=trl(lang, "match {match_id}").format(match_id=match_id),
        show_header=True,
        header_style="bold",
    )
    t.add_column("")
    t.add_column(trl(lang, "player"))
    t.add_column(trl(lang, "points"), justify="right")
    t.add_column(trl(lang, "from balls"), justify="right")
    t.add_column(trl(lang, "penalties ±"), justify="right")
    for name in p:
        marker = "▶" if (st["to_play"] == name and not st.get("result")) else ""
        t.add_row(
            marker,
            name,
            num(st["scores"][name]),
            num(st["from_balls"][name]),
            _penalties(st["received"][name], st["paid"][name]),
        )
    table = " ".join(str(b) for b in st["on_table"]) or "—"
    t.caption = scoreboard_line(st, lang).split("; ", 1)[1] if table else ""
    return t


# --------------------------------------------------------------------- the clauses a verdict cites


def why_lines(codes, lang: str, full: bool, settings=None) -> list[str]:
    """What a verdict's clause codes mean: their titles on one line, or (``--why``) each in full;
    as played under the match's ``settings`` (a short game's E1 names its own target)."""
    target = getattr(settings, "target", DEFAULT_TARGET)
    penalty = getattr(settings, "penalty", DEFAULT_PENALTY)
    if full:
        return explained(codes, lang, target, penalty)
    titles = cited(codes, lang, target, penalty)
    return [trl(lang, "Clauses: {titles}.").format(titles=titles)] if titles else []
