"""What a stored match says: per-player statistics and exports (JSON, CSV, a replay
script, a game record).

Everything here reads the stored records (the verdicts as shown), not a new
judgement; ``match.session`` is what checks them against a replay.

Statistics, per player, over the active strokes (the current line of play):

- ``strokes``: strokes played; ``calls``: accepted calls made and ``fulfilled``;
  ``refused``: calls the referee refused (C4, C9); ``no_call``: strokes without one.
- ``by_route``: calls made / fulfilled by route kind, derived from the call's
  route: ``ball_and_pocket`` (no way named, C7); ``clean`` (чисто:
  cue ball → the ball → the pocket, nothing else); and the features a route
  may have — ``abricole`` (the cue ball off a cushion before its first ball),
  ``bank`` (the called ball off a cushion: дуплет / от борта), ``kiss`` (the
  called ball off another ball: от шара), ``combination`` (another ball drives
  the called ball: шаром / шарами), ``carom`` (the cue ball touches two or more
  balls: карамболем), ``contre_coup`` (от контр-ку). A route with several
  features counts under each of them.
- ``fouls``: penalty strokes by P1 letter (a stroke with several letters counts
  under each; P4: it is still one penalty), ``penalties``: penalty strokes.
- ``high_run``: a turn is a maximal run of consecutive strokes by the same
  player (the turn passes unless a call is fulfilled without penalty, Q3).
  ``calls`` = the most fulfilled calls in one turn; ``points`` = the most points
  from balls in one turn (the striker's points on strokes without a penalty).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..catalog import trl
from ..grammar import Call, parse, render
from ..rules.notation import NotationError, parse_outcome, render_outcome
from ..rules.verdict import FOUL_WORDS
from .record import write_record
from .session import Session
from .store import MatchRow, Store, StoreError, StrokeRow

ROUTE_KINDS = (
    "ball_and_pocket",
    "clean",
    "abricole",
    "bank",
    "kiss",
    "combination",
    "carom",
    "contre_coup",
)


def route_kinds(call: dict | None) -> tuple[str, ...]:
    """The route kinds of a call (JSON form); () for no call."""
    if call is None:
        return ()
    route = call.get("route")
    if route is None:
        return ("ball_and_pocket",)
    ball = call.get("ball")
    kinds: list[str] = []
    cue_balls = [
        t for a, t in route if a == "cue" and t not in ("cushion", "pocket", "contre_coup")
    ]
    first_ball_at = next(
        (
            i
            for i, (a, t) in enumerate(route)
            if a == "cue" and t not in ("cushion", "pocket", "contre_coup")
        ),
        len(route),
    )
    if any(a == "cue" and t == "cushion" for a, t in route[:first_ball_at]):
        kinds.append("abricole")
    if any(a == ball and t == "cushion" for a, t in route):
        kinds.append("bank")
    if any(a == ball and t not in ("cushion", "pocket", "contre_coup") for a, t in route):
        kinds.append("kiss")
    if any(
        a not in ("cue", ball) and t not in ("cushion", "pocket", "contre_coup") for a, t in route
    ):
        kinds.append("combination")
    if len(cue_balls) >= 2:
        kinds.append("carom")
    if any(t == "contre_coup" for _, t in route):
        kinds.append("contre_coup")
    if not kinds:
        kinds.append("clean")
    return tuple(kinds)


def _blank(players: list[str]) -> dict:
    return {
        p: {
            "strokes": 0,
            "calls": 0,
            "fulfilled": 0,
            "refused": 0,
            "no_call": 0,
            "by_route": {k: {"made": 0, "fulfilled": 0} for k in ROUTE_KINDS},
            "fouls": {},
            "penalties": 0,
            "high_run": {"calls": 0, "points": 0},
        }
        for p in players
    }


def stats(match: MatchRow, strokes: list[StrokeRow]) -> dict:
    """Per-player statistics of the given (active) strokes."""
    players = list(match.players)
    out = _blank(players)
    run_player = None
    run_calls = run_points = 0

    def close_run():
        if run_player is not None:
            hr = out[run_player]["high_run"]
            hr["calls"] = max(hr["calls"], run_calls)
            hr["points"] = max(hr["points"], run_points)

    for row in strokes:
        v = row.record.verdict
        who = v["striker"]
        st = out[who]
        st["strokes"] += 1
        status = row.record.call_status
        fulfilled = bool(v.get("fulfilled")) and status == "accepted"
        if status == "accepted":
            st["calls"] += 1
            st["fulfilled"] += fulfilled
            for k in route_kinds(row.record.call):
                st["by_route"][k]["made"] += 1
                st["by_route"][k]["fulfilled"] += fulfilled
        elif status == "refused":
            st["refused"] += 1
        else:
            st["no_call"] += 1
        pen = v.get("penalty")
        if pen is not None:
            st["penalties"] += 1
            for letter in v.get("fouls", []):
                st["fouls"][letter] = st["fouls"].get(letter, 0) + 1
        if who != run_player:
            close_run()
            run_player, run_calls, run_points = who, 0, 0
        if fulfilled:
            run_calls += 1
        if pen is None:
            run_points += max(0, int(v.get("points", {}).get(who, 0)))
    close_run()
    for p in players:
        st = out[p]
        st["by_route"] = {k: n for k, n in st["by_route"].items() if n["made"]}
        st["fouls"] = dict(sorted(st["fouls"].items(), key=lambda kv: "абвгдежзи".index(kv[0])))
    return {"match": match.id, "players": players, "strokes": len(strokes), "stats": out}


# ---------------------------------------------------------------------- export


def export_json(store: Store, match_id: int) -> dict:
    m = store.get_match(match_id)
    active = store.strokes(match_id)
    undone = store.strokes(match_id, statuses=("undone",))
    return {
        "match": m.to_json(),
        "strokes": [r.to_json() for r in active],
        "undone": [r.to_json() for r in undone],
        "final": active[-1].record.state if active else None,
    }


def export_script(store: Store, match_id: int) -> str:
    """The match as a match script for ``pyramid-referee replay``: a
    header line, then one ``{"call", "outcome"}`` a stroke of the current line of
    play. A call is written in the players' own words, its text as said (the replay
    reads it again, in the same position, as long as the call language has not
    changed); an accepted call stored without its text (none said) as its call JSON;
    no call as null."""
    m = store.get_match(match_id)
    header: dict = {"settings": m.settings, "players": m.players}
    if m.start is not None:
        header["start"] = m.start
    if m.to_wins > 1:  # a match of several games (партии) replays as one
        header["to_wins"] = m.to_wins
    lines = [json.dumps(header, ensure_ascii=False)]
    for r in store.strokes(match_id):
        rec = r.record
        if rec.call_status == "none":
            call = None
        elif rec.call_text:
            call = rec.call_text
        else:
            call = rec.call
        lines.append(json.dumps({"call": call, "outcome": rec.outcome}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def export_record(store: Store, match_id: int) -> str:
    """The match as a written game record (record.py): ``validate`` checks
    it, ``replay`` judges it; what it cannot hold is refused in the store's language."""
    return write_record(store.get_match(match_id), store.strokes(match_id), store.lang)


def outcome_as_typed(text: str | None, outcome: dict) -> str:
    """The outcome in the marker's own words («промах», «касание») when the notation reads them as
    the stored outcome; else the outcome written out in the notation (JSON typed, or a notation
    that reads differently now)."""
    typed = " ".join((text or "").split())
    if typed and not typed.startswith("{"):
        try:
            if parse_outcome(typed) == outcome:
                return typed
        except NotationError:
            pass
    return render_outcome(outcome)


def outcome_for_people(text: str | None, outcome: dict, call_status: str, lang: str) -> str:
    """The outcome as a person reads it in an export: as typed (``outcome_as_typed``), except
    that the short form's mark «по заказу» / «не по заказу» (what the pad writes) is left out
    where it says nothing: after no call or a refused one, and «не по заказу» beside a miss or
    with nothing fallen. Nothing left is «ничего не упало» — never «ничего», which in the
    notation is a miss."""
    shown = outcome_as_typed(text, outcome)
    if "route_ok" not in outcome:
        return shown
    items = [x.strip() for x in shown.split(";")]
    pocketed = any(e.get("type") in ("pocket", "off_table") for e in outcome.get("events", []))
    keep = call_status == "accepted" and (
        outcome["route_ok"] or (pocketed and "а" not in outcome.get("fouls", []))
    )
    items = [x for x in items if x and (keep or x not in ("по заказу", "не по заказу"))]
    return "; ".join(items) if items else trl(lang, "nothing fell")


def _call_for_people(rec, no_call: str) -> str:
    """The call as said; one word for no call however it was typed («-», «без заказа», nothing);
    a call given as its JSON (a program's) in the call language's words."""
    if rec.call_status == "none":
        return no_call
    text = rec.call_text or ""
    if (not text or text.lstrip().startswith("{")) and rec.call is not None:
        try:
            return render(Call.from_json(rec.call))
        except Exception:  # the words are a courtesy; the stored JSON stays what it is
            return text
    return text


def foul_names(letters, lang: str) -> str:
    """P1's letters by their names, each with its clause: «касание шара (P1г), чужой шар (P1д)»."""
    names = [(trl(lang, FOUL_WORDS[x]), x) if x in FOUL_WORDS else (x, "") for x in letters]
    return ", ".join(f"{name} (P1{x})" if x else name for name, x in names)


# -- CSV for a spreadsheet: what Russian Excel opens as is --------------------------------------

CSV_BOM = "\ufeff"  # Excel reads UTF-8 only when the file starts with a BOM
CSV_DELIMITER = (
    ";"  # Excel in a Russian locale splits cells at «;» (the comma is the decimal sign)
)


def csv_number(x: Any) -> str:
    """A number as Russian Excel reads it: a decimal comma (2,5), whole numbers as they are."""
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, float):
        return (f"{x:.6f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))).replace(
            ".", ","
        )
    return str(x)


def _csv_time(stamp: str) -> str:
    """The store's UTC stamp (2026-12-02T13:48:56.732Z) as local time a spreadsheet
    reads as a date."""
    try:
        return (
            datetime.fromisoformat(stamp.replace("Z", "+00:00"))
            .astimezone()
            .strftime("%Y-%m-%d %H:%M:%S")
        )
    except (ValueError, AttributeError):
        return stamp


@dataclass(frozen=True)
class GamePlace:
    """Where a stroke stands in a match of several games (партии)."""

    game: int  # the number of the game the stroke belongs to (1-based)
    ends_game: bool  # the stroke ended its game
    match_over: bool  # ... and with it the match
    next_breaker: (
        str | None
    )  # who breaks the next game (E4: the break alternates); None if none follows


def game_places(match: MatchRow, strokes: list[StrokeRow]) -> list[GamePlace]:
    """For each stroke of the current line of play, its game and, where a game ends, who breaks
    the next one or that the match is over (a one-game match ends with its game, a draw
    included; a longer one when a player has ``to_wins`` games). Read from the stored verdicts
    and states, as shown."""
    out: list[GamePlace] = []
    wins: dict[str, int] = {}
    game = 1
    for r in strokes:
        res = r.record.verdict.get("result")
        if not res:
            out.append(GamePlace(game, False, False, None))
            continue
        if res.get("winner"):
            wins[res["winner"]] = wins.get(res["winner"], 0) + 1
        over = match.to_wins <= 1 or max(wins.values(), default=0) >= match.to_wins
        out.append(GamePlace(game, True, over, None if over else r.record.state.get("next_break")))
        game += 1
    return out


def export_csv(store: Store, match_id: int, lang: str | None = None) -> str:
    """One row a stroke of the current line of play, for a spreadsheet: UTF-8 with a BOM,
    «;» between cells, a decimal comma; headers and words in ``lang`` (None: the store's),
    the outcome in the outcome notation, the call as said.

    Columns are only ever added at the end (other tools read them by position). The last one
    is the game (партия) the stroke belongs to; after a game's last stroke «next to play» is who
    breaks the next game (E4), or empty when the match is over."""
    m = store.get_match(match_id)
    lang = lang or store.lang
    verdicts, refusals = _replayed(store, match_id, lang)
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    w.writerow(_csv_header(lang, *m.players))
    status_words = {
        "accepted": trl(lang, "accepted"),
        "refused": trl(lang, "refused"),
        "none": trl(lang, "no call"),
    }
    strokes = store.strokes(match_id)
    for r, place in zip(strokes, game_places(m, strokes)):
        w.writerow(_csv_row(m, r, place, verdicts, refusals, status_words, lang))
    return CSV_BOM + buf.getvalue()


def _csv_header(lang: str, p0: str, p1: str) -> list[str]:
    return [
        trl(lang, "match"),
        trl(lang, "stroke"),
        trl(lang, "time"),
        trl(lang, "striker"),
        trl(lang, "call"),
        trl(lang, "call status"),
        trl(lang, "why refused"),
        trl(lang, "outcome"),
        trl(lang, "fulfilled"),
        trl(lang, "points {p0}").format(p0=p0),
        trl(lang, "points {p1}").format(p1=p1),
        trl(lang, "penalty paid by"),
        trl(lang, "fouls"),
        trl(lang, "balls counted"),
        trl(lang, "balls re-spotted"),
        trl(lang, "score {p0}").format(p0=p0),
        trl(lang, "score {p1}").format(p1=p1),
        trl(lang, "next to play"),
        trl(lang, "result"),
        trl(lang, "clauses"),
        trl(lang, "verdict"),
        trl(lang, "game"),
    ]


def _csv_row(
    m: MatchRow, r: StrokeRow, place: GamePlace, verdicts, refusals, status_words, lang: str
) -> list:
    """One stroke's cells, in the order of ``_csv_header``."""
    p0, p1 = m.players
    rec, v, st = r.record, r.record.verdict, r.record.state
    pen = v.get("penalty")
    next_player = (v.get("next") or {}).get("player", "")
    if place.ends_game:
        next_player = place.next_breaker or ""
    res = v.get("result")
    if not res:
        result = ""
    elif res.get("winner"):
        result = trl(lang, "{res} won").format(res=res["winner"])
    else:
        result = trl(lang, "draw")
    return [
        m.id,
        r.seq,
        _csv_time(r.time),
        v.get("striker"),
        _call_for_people(rec, status_words["none"]),
        status_words.get(rec.call_status, ""),
        refusals.get(r.seq, (rec.refusal or {}).get("message", "")),
        outcome_for_people(rec.outcome_text, rec.outcome, rec.call_status, lang),
        trl(lang, "yes") if v.get("fulfilled") else trl(lang, "no"),
        csv_number(v["points"][p0]),
        csv_number(v["points"][p1]),
        "" if pen is None else pen["player"],
        foul_names(v.get("fouls", []), lang),
        " ".join(map(str, v.get("counted", []))),
        " ".join(map(str, v.get("respotted", []))),
        csv_number(st["scores"][p0]),
        csv_number(st["scores"][p1]),
        next_player,
        result,
        " ".join(v.get("clauses", [])),
        verdicts[r.seq].message(lang) if r.seq in verdicts else v.get("message", ""),
        place.game,
    ]


def _replayed(store: Store, match_id: int, lang: str) -> tuple[dict, dict]:
    """(seq → the verdict replayed by the rules engine, seq → why a refused call was refused),
    to be said in the reader's language (the stored sentences are in the language they were
    shown in); empty where the replay cannot be made."""
    try:
        session = Session(store, match_id, lang=lang)
    except (StoreError, ValueError):
        return {}, {}
    refusals = {}
    for i, r in enumerate(store.strokes(match_id)):
        if r.record.call_status != "refused" or not r.record.call_text:
            continue
        before = session.match.state_before(i)
        got = parse(
            r.record.call_text,
            mode=session.settings.mode,
            balls_left=sorted(before.on_table),
            pocket_precision=session.settings.pocket_precision,
        )
        if hasattr(
            got, "code"
        ):  # read again as it was then: the same refusal, in the reader's words
            refusals[r.seq] = got.message(lang)
    return dict(session.verdicts), refusals
