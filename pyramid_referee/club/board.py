"""The club board: what a club server holds, read for the board (``serve --club``), and nothing
written.

``snapshot(con, lang)`` is the whole picture (``GET /api/club/state``): ``tables(…)`` and
``club(…)`` are its two halves, read apart so the web board can re-read the tables on every
change and the day and the statistics less often.

- every registered table: its current match (the one the server heard of last), the players,
  the scores and what each still needs (P3, from the state after the last *active* stroke:
  undone and discarded strokes do not count), games won in a longer match, the last verdict
  as the referee's sentence (``Verdict.message``, the table's own wording), and whether the
  table is in sync: на связи / в очереди N / нет связи с ЧЧ:ММ, or in conflict (another store with
  its key sent other strokes, refused and kept aside: the card shows the server's version);
- the day's finished партии and matches;
- the players' statistics across the club: партии played and won, points per партия,
  penalties, calls accepted and refused.

Only ``SELECT``: the board's login needs no more than the role ``pyramid_board`` (schema v3).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ..catalog import trl, trn
from ..grammar.call import Call
from ..rules import Match, Outcome, Settings

STALE_S = (
    30.0  # a table not heard of for this long is shown as not connected (it reports every 10 s)
)

_TABLES_SQL = """
SELECT t.id, t.name, t.queued, greatest(t.seen, m.received) AS heard,
       extract(epoch FROM now() - greatest(t.seen, m.received)) AS silent_s,
       m.match_id, m.players, m.settings, m.to_wins, m.status, m.result,
       s.seq, s.verdict, s.state, s.lang, c.seq, c.status,
       (SELECT jsonb_object_agg(w.winner, w.n) FROM (
            SELECT e.verdict->'result'->>'winner' AS winner, count(*) AS n FROM club_strokes e
            WHERE e.table_id = t.id AND e.match_id = m.match_id AND e.status = 'active'
              AND e.verdict->'result' <> 'null'::jsonb GROUP BY 1) w WHERE w.winner IS NOT NULL),
       (SELECT count(*) FROM club_conflicts k
        WHERE k.table_id = t.id AND k.resolved IS NULL AND k.kind <> 'later')
FROM club_tables t
LEFT JOIN LATERAL (SELECT * FROM club_matches x WHERE x.table_id = t.id
                   ORDER BY x.received DESC, x.match_id DESC LIMIT 1) m ON true
LEFT JOIN LATERAL (SELECT y.seq, y.verdict, y.state, y.lang FROM club_strokes y
                   WHERE y.table_id = t.id AND y.match_id = m.match_id AND y.status = 'active'
                   ORDER BY y.seq DESC LIMIT 1) s ON true
LEFT JOIN LATERAL (SELECT z.seq, z.status FROM club_strokes z
                   WHERE z.table_id = t.id AND z.match_id = m.match_id
                   ORDER BY z.action_id DESC, z.seq DESC LIMIT 1) c ON true
ORDER BY t.name, t.id
"""

# The strokes that ended a партия (active only), with their table, match and players.
_GAME_ENDS_SQL = """
SELECT t.name, s.table_id, s.match_id, s.seq, m.players, s.state->'scores', s.verdict->'result',
       s.time::timestamptz
FROM club_strokes s JOIN club_matches m ON m.table_id = s.table_id AND m.match_id = s.match_id
JOIN club_tables t ON t.id = s.table_id
WHERE s.status = 'active' AND s.verdict->'result' <> 'null'::jsonb
ORDER BY s.time DESC, s.table_id, s.match_id, s.seq DESC
"""

_MATCHES_TODAY_SQL = """
SELECT t.name, m.table_id, m.match_id, m.players, m.to_wins, m.result, m.updated::timestamptz
FROM club_matches m JOIN club_tables t ON t.id = m.table_id
WHERE m.status = 'finished' AND m.updated::timestamptz >= %s
ORDER BY m.updated DESC
"""

# Per player: calls accepted and refused (as the striker), penalties (as the offender),
# active strokes only.
_PLAYER_STROKES_SQL = """
SELECT p, sum(accepted)::int, sum(refused)::int, sum(penalties)::int FROM (
    SELECT verdict->>'striker' AS p, count(*) FILTER (WHERE call_status = 'accepted') AS accepted,
           count(*) FILTER (WHERE call_status = 'refused') AS refused, 0 AS penalties
    FROM club_strokes WHERE status = 'active' GROUP BY 1
    UNION ALL
    SELECT verdict->'penalty'->>'player', 0, 0, count(*) FROM club_strokes
    WHERE status = 'active' AND verdict->'penalty' <> 'null'::jsonb GROUP BY 1
) x WHERE p IS NOT NULL GROUP BY p
"""


def _day_start() -> datetime:
    """Midnight today where the board is shown: «today» and every time on the board are the club's
    local time, whatever time zone the club server keeps."""
    return datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)


def _hm(at: datetime) -> str:
    """ЧЧ:ММ in the board's local time; a day other than today also gets its date."""
    local = at.astimezone()
    return local.strftime("%H:%M") if local >= _day_start() else local.strftime("%d.%m.%Y %H:%M")


def _j(value: Any) -> Any:
    """A jsonb column as psycopg gives it (decoded), or text from an older driver setting."""
    return json.loads(value) if isinstance(value, str) else value


def snapshot(con, lang: str = "ru", *, stale_s: float = STALE_S) -> dict:
    """The whole board (``GET /api/club/state``): ``{"tables": […],
    "day": {…}, "players": […]}``."""
    return {"tables": tables(con, lang, stale_s=stale_s), **club(con, lang)}


# ---------------------------------------------------------------------- tables
def tables(con, lang: str = "ru", *, stale_s: float = STALE_S) -> list[dict]:
    """Every registered table as the board shows it (see the module's text)."""
    out = []
    for (
        tid,
        name,
        queued,
        heard,
        silent_s,
        match_id,
        players,
        settings,
        to_wins,
        mstatus,
        _mresult,
        seq,
        verdict,
        state,
        vlang,
        changed_seq,
        changed_status,
        wins,
        conflicts,
    ) in con.execute(_TABLES_SQL):
        players, settings, verdict, state = _j(players), _j(settings) or {}, _j(verdict), _j(state)
        target = int(settings.get("target", 71))
        entry: dict[str, Any] = {
            "id": tid,
            "name": name,
            "match": match_id,
            "players": players or [],
            "scores": {},
            "needs": {},
            "target": target,
            "to_play": None,
            "to_wins": to_wins or 1,
            "wins": {},
            "seq": seq or 0,
            "finished": mstatus == "finished",
            "last_verdict": None,
            "undone_line": "",
            "result_line": "",
        }
        if players:
            scores = (state or {}).get("scores") or {p: 0 for p in players}
            entry["scores"] = scores
            entry["needs"] = {
                p: max(0, target - int(scores.get(p, 0))) for p in players
            }  # P3, E1: target − score
            entry["to_play"] = (state or {}).get("to_play", players[0])
            entry["wins"] = {p: int((_j(wins) or {}).get(p, 0)) for p in players}
            r = (state or {}).get("result")
            if r:
                entry["result_line"] = _game_result_line(r, scores, lang)
        if verdict is not None:
            entry["last_verdict"] = {
                "seq": seq,
                "striker": verdict.get("striker", ""),
                "line": verdict_line(con, tid, match_id, seq, verdict, vlang, lang),
            }
        if changed_status == "undone" and changed_seq is not None and changed_seq > (seq or 0):
            entry["undone_line"] = trl(lang, "stroke {seq} undone").format(seq=changed_seq)
        entry["sync"] = sync_json(
            heard, silent_s, queued, None if heard is None else _hm(heard), stale_s, lang
        )
        if (
            conflicts
        ):  # another store with this table's key sent other strokes: what is shown is the server's
            entry["sync"] = {
                **entry["sync"],
                "online": False,
                "conflict": int(conflicts),
                "line": trl(lang, "conflict: another store with this table's key"),
            }
        out.append(entry)
    return out


def sync_json(heard, silent_s, queued, heard_at: str | None, stale_s: float, lang: str) -> dict:
    """Is the table in sync: heard of within ``stale_s`` (its report or its
    strokes), and its queue."""
    queued = int(queued or 0)
    if heard is None:
        return {
            "online": False,
            "queued": queued,
            "seen": None,
            "line": trl(lang, "not connected: the table has not reported yet"),
        }
    online = float(silent_s) <= stale_s
    if not online:
        line = trl(lang, "not connected since {time}").format(time=heard_at)
    elif queued:
        line = trn(
            "connected, {n} stroke in the queue",
            "connected, {n} strokes in the queue",
            queued,
            lang,
        ).format(n=queued)
    else:
        line = trl(lang, "connected")
    return {
        "online": online,
        "queued": queued,
        "seen": heard.isoformat(timespec="seconds"),
        "line": line,
    }


def _game_result_line(result: dict, scores: dict, lang: str) -> str:
    score = " : ".join(str(v) for v in scores.values())
    if result.get("winner"):
        return trl(lang, "game over: {player} won, {score}").format(
            player=result["winner"], score=score
        )
    return trl(lang, "game over: a draw, {score}").format(score=score)


# The referee's sentence in another language than the table's: the match replayed once per change.
_replayed: dict[tuple, str] = {}


def verdict_line(
    con, table_id: int, match_id: int, seq: int, verdict: dict, stroke_lang: str, lang: str
) -> str:
    """The last verdict as the table showed it («#12 Аня: Заказ выполнен; …»). In the stroke's own
    language that is the stored sentence; in the other one, the match's active strokes are judged
    again and the sentence is the replayed verdict's, provided the replay gives the stored verdict
    (a match picked up from a score sheet cannot be replayed here: its stored sentence stays)."""
    message = verdict.get("message", "")
    if stroke_lang != lang:
        key = (table_id, match_id, seq, json.dumps(verdict, sort_keys=True), lang)
        if key not in _replayed:
            if len(_replayed) > 1000:
                _replayed.clear()
            _replayed[key] = (
                _replay_message(con, table_id, match_id, verdict, stroke_lang, lang) or message
            )
        message = _replayed[key]
    return f"#{seq} {verdict.get('striker', '')}: {message}"


def _replay_message(
    con, table_id: int, match_id: int, verdict: dict, stroke_lang: str, lang: str
) -> str | None:
    m = con.execute(
        "SELECT players, settings, to_wins FROM club_matches "
        "WHERE table_id = %s AND match_id = %s",
        (table_id, match_id),
    ).fetchone()
    rows = con.execute(
        "SELECT call, call_status, outcome FROM club_strokes WHERE table_id = %s AND match_id = %s"
        " AND status = 'active' ORDER BY seq",
        (table_id, match_id),
    ).fetchall()
    try:
        match = Match(Settings.from_json(_j(m[1])), _j(m[0]), None, to_wins=m[2])
        last = None
        for call, call_status, outcome in rows:
            call = _j(call)
            last = match.stroke(
                None if call is None else Call.from_json(call),
                Outcome.from_json(_j(outcome)),
                call_status=call_status,
            )
    except Exception:  # noqa: BLE001 -- a display courtesy: the stored sentence is the record
        return None
    if last is None or last.to_json(stroke_lang) != verdict:
        return None
    return last.message(lang)


# ---------------------------------------------------------------------- the day and the players
def club(con, lang: str = "ru") -> dict:
    """The day's finished партии and matches, and every player's statistics across the club."""
    games_today: list[dict] = []
    stats: dict[str, dict] = {}

    def player(name: str) -> dict:
        return stats.setdefault(
            name,
            {
                "name": name,
                "games": 0,
                "won": 0,
                "points": 0,
                "points_per_game": 0.0,
                "penalties": 0,
                "calls_accepted": 0,
                "calls_refused": 0,
            },
        )

    day = _day_start()
    for table, _tid, match_id, seq, players, scores, result, ended in con.execute(_GAME_ENDS_SQL):
        players, scores, result = _j(players) or [], _j(scores) or {}, _j(result) or {}
        for p in players:
            st = player(p)
            st["games"] += 1
            st["points"] += int(scores.get(p, 0))
            st["won"] += result.get("winner") == p
        if ended >= day:
            games_today.append(
                {
                    "table": table,
                    "match": match_id,
                    "seq": seq,
                    "time": _hm(ended),
                    "players": players,
                    "scores": scores,
                    "result": result,
                    "line": _day_game_line(table, players, scores, result, lang),
                }
            )
    matches_today = []
    for table, _tid, match_id, players, to_wins, result, ended in con.execute(
        _MATCHES_TODAY_SQL, (day,)
    ):
        players, result = _j(players) or [], _j(result) or {}
        matches_today.append(
            {
                "table": table,
                "match": match_id,
                "time": _hm(ended),
                "players": players,
                "to_wins": to_wins,
                "result": result,
                "line": _day_match_line(table, players, to_wins, result, lang),
            }
        )
    for (players,) in con.execute(
        "SELECT DISTINCT players FROM club_matches"
    ):  # everyone who has played
        for name in _j(players) or []:
            player(name)
    for name, accepted, refused, penalties in con.execute(_PLAYER_STROKES_SQL):
        st = player(name)
        st["calls_accepted"], st["calls_refused"], st["penalties"] = accepted, refused, penalties
    for st in stats.values():
        st["points_per_game"] = round(st["points"] / st["games"], 1) if st["games"] else 0.0
    ranked = sorted(stats.values(), key=lambda s: (-s["won"], -s["points_per_game"], s["name"]))
    return {"day": {"games": games_today, "matches": matches_today}, "players": ranked}


def _day_game_line(table: str, players: list, scores: dict, result: dict, lang: str) -> str:
    score = (
        f"{players[0]} {scores.get(players[0], 0)} : {scores.get(players[1], 0)} {players[1]}"
        if len(players) == 2
        else ""
    )
    if result.get("winner"):
        return trl(lang, "{table}: {score}, {winner} won").format(
            table=table, score=score, winner=result["winner"]
        )
    return trl(lang, "{table}: {score}, a draw").format(table=table, score=score)


def _day_match_line(table: str, players: list, to_wins: int, result: dict, lang: str) -> str:
    names = " — ".join(players)
    wins = result.get("wins")
    if wins and result.get("winner"):
        games = " : ".join(str(wins.get(p, 0)) for p in players)
        return trl(lang, "{table}: {players}, match won by {winner}, games {games}").format(
            table=table, players=names, winner=result["winner"], games=games
        )
    if result.get("winner"):
        return trl(lang, "{table}: {players}, match won by {winner}").format(
            table=table, players=names, winner=result["winner"]
        )
    return trl(lang, "{table}: {players}, match drawn").format(table=table, players=names)
