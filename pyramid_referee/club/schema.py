"""The club schema in PostgreSQL, versioned with migrations.

``club_schema`` holds one row: the version. ``migrate(con)`` brings an empty
database or any earlier version up to ``SCHEMA_VERSION`` in one transaction,
under an advisory lock (two tables starting at once migrate it once).

Tables (v1):

- ``club_tables``: one row a registered table: id, name (unique), the SHA-256 of
  its key (the key itself is printed once at registration and never stored here).
- ``club_matches``: (table_id, match_id) — the table's own match id — players,
  settings, to_wins, status, result, times.
- ``club_strokes``: the stable id of a stroke is (table_id, match_id, local_id),
  ``local_id`` being the row id in the table's SQLite store (never reused, unlike
  seq after a discard); seq, status (active | undone | discarded), the call, the
  outcome, the verdict, the state; ``action_id``: the table's action log position
  that last changed it (an older resend never overwrites a newer state);
  ``received``: when the server stored it.

Trust: tables never write the tables directly. They call ``club_put_match`` and
``club_put_stroke`` (SECURITY DEFINER), which check the key against the table id
given and refuse (SQLSTATE 42501) a key that is not that table's. The role
``pyramid_table`` (NOLOGIN: grant it to the login a table uses) may execute those
functions and nothing else.

v2 adds ``club_table_strokes(table, key)``: a table reads its own strokes back (the
same key check), and no other table's.

v3 is for the club board (``club/board.py``):

- every change replication makes to ``club_tables``, ``club_matches`` or ``club_strokes``
  sends ``NOTIFY club_board`` with the table's id as the payload (a trigger); PostgreSQL
  folds identical payloads within a transaction, so a batch notifies once;
- ``club_tables.seen`` / ``queued``: when the table's sync last reported in and the queue
  it reported, written by ``club_table_seen(table, key, queued)`` (key-checked), which the
  sync calls only when the queue changed or every ``SEEN_EVERY_S`` (``sync.py``): 100
  tables must not write a row each a second;
- the role ``pyramid_board`` (NOLOGIN: grant it to the board's login) may read what the
  board shows (not the key hashes) and write nothing.

v4: two stores with one table's key (a restored backup, a copied laptop) cannot overwrite each
other:

- ``club_put_stroke`` refuses (SQLSTATE ``CONFLICT_STATE``) a stroke whose stable id the server
  already holds with other content (its seq, call, outcome, verdict, state or time), or a live seq
  the server holds under another local id; ``club_put_match`` refuses a match id the server holds
  as another match (created at another time). The whole batch is refused: nothing is overwritten;
- the refused version is kept beside the server's in ``club_conflicts`` (``club_put_conflict``,
  key-checked, called by the table after the refusal), with the strokes of the refused batch the
  server does not hold at all (kind ``later``: nothing of the copy is lost when the table then
  takes the server's version), until it is resolved: the table takes the server's version
  (``club resolve --keep-server``) or registers as a new table;
- ``club_link_check(table, key)``: 'ok', 'removed' (no such table) or 'mismatch' (the table is
  there and the key is not its): a table whose store mixes them is refused at start;
- table numbers come from ``club_schema.last_table``, raised inside the registering transaction:
  a refused registration leaves no gap (a sequence would) and a removed table's number is not
  given again.
"""

from __future__ import annotations

import hashlib
import secrets

from ..catalog import trl
from ..i18n import UserError

SCHEMA_VERSION = 4
CONFLICT_STATE = "PYC01"  # club_put_stroke / club_put_match: that id is held with other content
NOTIFY_CHANNEL = "club_board"  # LISTEN club_board: the payload is the table's id
LOCK_ID = 7107110  # pg_advisory_xact_lock: one migration at a time

# version → the SQL that brings a database of that version to the next one (0: empty).
MIGRATIONS: dict[int, str] = {
    0: """
CREATE TABLE club_tables (
    id       serial PRIMARY KEY,
    name     text NOT NULL UNIQUE,
    key_hash text NOT NULL,
    created  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE club_matches (
    table_id integer NOT NULL REFERENCES club_tables(id),
    match_id integer NOT NULL,
    players  jsonb NOT NULL,
    settings jsonb NOT NULL,
    to_wins  integer NOT NULL,
    status   text NOT NULL CHECK (status IN ('open', 'finished')),
    result   jsonb,
    created  text NOT NULL,
    updated  text NOT NULL,
    action_id bigint NOT NULL,
    received timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, match_id)
);
CREATE TABLE club_strokes (
    table_id     integer NOT NULL,
    match_id     integer NOT NULL,
    local_id     integer NOT NULL,
    seq          integer NOT NULL CHECK (seq >= 1),
    status       text NOT NULL CHECK (status IN ('active', 'undone', 'discarded')),
    call_text    text,
    call         jsonb,
    refusal      jsonb,
    call_status  text NOT NULL CHECK (call_status IN ('accepted', 'refused', 'none')),
    outcome_text text,
    outcome      jsonb NOT NULL,
    verdict      jsonb NOT NULL,
    state        jsonb NOT NULL,
    lang         text NOT NULL,
    time         text NOT NULL,
    action_id    bigint NOT NULL,
    received     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, match_id, local_id),
    FOREIGN KEY (table_id, match_id) REFERENCES club_matches(table_id, match_id)
);
CREATE UNIQUE INDEX club_strokes_live ON club_strokes(table_id, match_id, seq)
    WHERE status != 'discarded';

CREATE FUNCTION club_check_key(p_table integer, p_key text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM club_tables WHERE id = p_table
                   AND key_hash = encode(sha256(convert_to(p_key, 'UTF8')), 'hex')) THEN
        RAISE EXCEPTION 'the key is not the key of table %', p_table USING ERRCODE = '42501';
    END IF;
END $$;

CREATE FUNCTION club_put_match(p_table integer, p_key text, p_match integer, p_players jsonb,
    p_settings jsonb, p_to_wins integer, p_status text, p_result jsonb, p_created text,
    p_updated text, p_action bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM club_check_key(p_table, p_key);
    INSERT INTO club_matches AS m (table_id, match_id, players, settings, to_wins, status, result,
                                   created, updated, action_id)
    VALUES (p_table, p_match, p_players, p_settings, p_to_wins, p_status, p_result, p_created,
            p_updated, p_action)
    ON CONFLICT (table_id, match_id) DO UPDATE SET
        players = excluded.players, settings = excluded.settings, to_wins = excluded.to_wins,
        status = excluded.status, result = excluded.result, updated = excluded.updated,
        action_id = excluded.action_id, received = now()
    WHERE m.action_id <= excluded.action_id;
END $$;

CREATE FUNCTION club_put_stroke(p_table integer, p_key text, p_match integer, p_local integer,
    p_seq integer, p_status text, p_call_text text, p_call jsonb, p_refusal jsonb,
    p_call_status text, p_outcome_text text, p_outcome jsonb, p_verdict jsonb, p_state jsonb,
    p_lang text, p_time text, p_action bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM club_check_key(p_table, p_key);
    INSERT INTO club_strokes AS s (table_id, match_id, local_id, seq, status, call_text, call,
                                   refusal, call_status, outcome_text, outcome, verdict, state,
                                   lang, time, action_id)
    VALUES (p_table, p_match, p_local, p_seq, p_status, p_call_text, p_call, p_refusal,
            p_call_status, p_outcome_text, p_outcome, p_verdict, p_state, p_lang, p_time, p_action)
    ON CONFLICT (table_id, match_id, local_id) DO UPDATE SET
        status = excluded.status, action_id = excluded.action_id, received = now()
    WHERE s.action_id <= excluded.action_id;
END $$;

DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pyramid_table') THEN
        CREATE ROLE pyramid_table NOLOGIN;
    END IF;
END $$;
REVOKE ALL ON club_tables, club_matches, club_strokes FROM PUBLIC;
REVOKE ALL ON FUNCTION club_check_key(integer, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION club_put_match(integer, text, integer, jsonb, jsonb, integer, text, jsonb,
    text, text, bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION club_put_stroke(integer, text, integer, integer, integer, text, text,
    jsonb, jsonb, text, text, jsonb, jsonb, jsonb, text, text, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION club_put_match(integer, text, integer, jsonb, jsonb, integer, text,
    jsonb, text, text, bigint) TO pyramid_table;
GRANT EXECUTE ON FUNCTION club_put_stroke(integer, text, integer, integer, integer, text, text,
    jsonb, jsonb, text, text, jsonb, jsonb, jsonb, text, text, bigint) TO pyramid_table;
""",
    # v2: a table reads its own strokes back (to check what the club holds), through the key.
    1: """
CREATE FUNCTION club_table_strokes(p_table integer, p_key text)
RETURNS TABLE (match_id integer, local_id integer, seq integer, status text, action_id bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM club_check_key(p_table, p_key);
    RETURN QUERY SELECT s.match_id, s.local_id, s.seq, s.status, s.action_id FROM club_strokes s
                 WHERE s.table_id = p_table ORDER BY s.match_id, s.seq, s.local_id;
END $$;
REVOKE ALL ON FUNCTION club_table_strokes(integer, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION club_table_strokes(integer, text) TO pyramid_table;
""",
    # v3: the club board: NOTIFY on every change, the table's last report, a read-only role.
    2: """
ALTER TABLE club_tables ADD COLUMN seen timestamptz, ADD COLUMN queued integer;

CREATE FUNCTION club_notify_table() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM pg_notify('club_board', NEW.id::text);
    RETURN NULL;
END $$;
CREATE FUNCTION club_notify_row() RETURNS trigger
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM pg_notify('club_board', NEW.table_id::text);
    RETURN NULL;
END $$;
CREATE TRIGGER club_tables_notify AFTER INSERT OR UPDATE ON club_tables
    FOR EACH ROW EXECUTE FUNCTION club_notify_table();
CREATE TRIGGER club_matches_notify AFTER INSERT OR UPDATE ON club_matches
    FOR EACH ROW EXECUTE FUNCTION club_notify_row();
CREATE TRIGGER club_strokes_notify AFTER INSERT OR UPDATE ON club_strokes
    FOR EACH ROW EXECUTE FUNCTION club_notify_row();
-- the strokes that ended a партия: the board's day and its players' statistics
CREATE INDEX club_strokes_game_ends ON club_strokes(table_id, match_id, seq)
    WHERE status = 'active' AND verdict->'result' <> 'null'::jsonb;
-- a table's last change (the board's «удар N отменён») and its last active stroke
CREATE INDEX club_strokes_changes ON club_strokes(table_id, match_id, action_id);
CREATE INDEX club_strokes_active ON club_strokes(table_id, match_id, seq) WHERE status = 'active';

CREATE FUNCTION club_table_seen(p_table integer, p_key text, p_queued integer) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM club_check_key(p_table, p_key);
    UPDATE club_tables SET seen = now(), queued = p_queued WHERE id = p_table;
END $$;
REVOKE ALL ON FUNCTION club_table_seen(integer, text, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION club_table_seen(integer, text, integer) TO pyramid_table;

DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pyramid_board') THEN
        CREATE ROLE pyramid_board NOLOGIN;
    END IF;
END $$;
GRANT SELECT ON club_schema, club_matches, club_strokes TO pyramid_board;
GRANT SELECT (id, name, created, seen, queued) ON club_tables TO pyramid_board;
""",
    # v4: conflicts between two stores of one table are refused and kept; gapless table numbers.
    3: """
ALTER TABLE club_schema ADD COLUMN last_table integer NOT NULL DEFAULT 0;
UPDATE club_schema SET last_table = (SELECT coalesce(max(id), 0) FROM club_tables);

CREATE TABLE club_conflicts (
    id        serial PRIMARY KEY,
    table_id  integer NOT NULL REFERENCES club_tables(id) ON DELETE CASCADE,
    match_id  integer NOT NULL,
    -- match, stroke: held otherwise on the server; later: a stroke of the refused batch the
    -- server does not hold at all, kept with the conflict (taking the server's version must not
    -- lose it)
    kind      text NOT NULL CHECK (kind IN ('match', 'stroke', 'later')),
    local_id  integer,
    seq       integer,
    copy      jsonb NOT NULL,
    copy_hash text NOT NULL,
    received  timestamptz NOT NULL DEFAULT now(),
    resolved  timestamptz,
    resolution text CHECK (resolution IN ('server', 'new_table')),
    UNIQUE (table_id, match_id, kind, copy_hash)
);

-- The stroke held under that stable id (or at that live seq under another local id) when it is
-- not the one offered: NULL when the offer is the held stroke (or a later status of it) or new.
CREATE FUNCTION club_stroke_clash(p_table integer, p_match integer, p_local integer, p_seq integer,
    p_status text, p_call_text text, p_call_status text, p_outcome_text text, p_outcome jsonb,
    p_verdict jsonb, p_state jsonb, p_time text) RETURNS club_strokes
LANGUAGE plpgsql STABLE SET search_path = public, pg_temp AS $$
DECLARE held club_strokes;
BEGIN
    SELECT * INTO held FROM club_strokes s
     WHERE s.table_id = p_table AND s.match_id = p_match AND s.local_id = p_local;
    IF FOUND THEN
        IF (held.seq, held.call_text, held.call_status, held.outcome_text, held.outcome,
            held.verdict, held.state, held.time) IS DISTINCT FROM
           (p_seq, p_call_text, p_call_status, p_outcome_text, p_outcome, p_verdict, p_state,
            p_time) THEN
            RETURN held;
        END IF;
        RETURN NULL;
    END IF;
    IF p_status <> 'discarded' THEN
        SELECT * INTO held FROM club_strokes s
         WHERE s.table_id = p_table AND s.match_id = p_match AND s.seq = p_seq
           AND s.status <> 'discarded' AND s.local_id <> p_local;
        IF FOUND THEN
            RETURN held;
        END IF;
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION club_put_stroke(p_table integer, p_key text, p_match integer,
    p_local integer, p_seq integer, p_status text, p_call_text text, p_call jsonb,
    p_refusal jsonb, p_call_status text, p_outcome_text text, p_outcome jsonb, p_verdict jsonb,
    p_state jsonb, p_lang text, p_time text, p_action bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE held club_strokes;
BEGIN
    PERFORM club_check_key(p_table, p_key);
    held := club_stroke_clash(p_table, p_match, p_local, p_seq, p_status, p_call_text,
                              p_call_status, p_outcome_text, p_outcome, p_verdict, p_state,
                              p_time);
    IF held.local_id IS NOT NULL THEN
        RAISE EXCEPTION 'the club server holds stroke % of match % of table % with other content',
            p_seq, p_match, p_table
            USING ERRCODE = 'PYC01',
                  DETAIL = format('match=%s seq=%s local=%s', p_match, p_seq, p_local);
    END IF;
    INSERT INTO club_strokes AS s (table_id, match_id, local_id, seq, status, call_text, call,
                                   refusal, call_status, outcome_text, outcome, verdict, state,
                                   lang, time, action_id)
    VALUES (p_table, p_match, p_local, p_seq, p_status, p_call_text, p_call, p_refusal,
            p_call_status, p_outcome_text, p_outcome, p_verdict, p_state, p_lang, p_time, p_action)
    ON CONFLICT (table_id, match_id, local_id) DO UPDATE SET
        status = excluded.status, action_id = excluded.action_id, received = now()
    WHERE s.action_id <= excluded.action_id;
END $$;

CREATE OR REPLACE FUNCTION club_put_match(p_table integer, p_key text, p_match integer,
    p_players jsonb, p_settings jsonb, p_to_wins integer, p_status text, p_result jsonb,
    p_created text, p_updated text, p_action bigint) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM club_check_key(p_table, p_key);
    IF EXISTS (SELECT 1 FROM club_matches m WHERE m.table_id = p_table AND m.match_id = p_match
               AND (m.created, m.players) IS DISTINCT FROM (p_created, p_players)) THEN
        RAISE EXCEPTION 'the club server holds match % of table % as another match',
            p_match, p_table
            USING ERRCODE = 'PYC01', DETAIL = format('match=%s', p_match);
    END IF;
    INSERT INTO club_matches AS m (table_id, match_id, players, settings, to_wins, status, result,
                                   created, updated, action_id)
    VALUES (p_table, p_match, p_players, p_settings, p_to_wins, p_status, p_result, p_created,
            p_updated, p_action)
    ON CONFLICT (table_id, match_id) DO UPDATE SET
        players = excluded.players, settings = excluded.settings, to_wins = excluded.to_wins,
        status = excluded.status, result = excluded.result, updated = excluded.updated,
        action_id = excluded.action_id, received = now()
    WHERE m.action_id <= excluded.action_id;
END $$;

-- After a refused batch the table offers each of its rows here: the ones the server holds
-- otherwise are kept as the table's version (once each); true when this one was such a row.
CREATE FUNCTION club_put_conflict(p_table integer, p_key text, p_match integer, p_kind text,
    p_row jsonb)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE held club_strokes; r jsonb := p_row;
BEGIN
    PERFORM club_check_key(p_table, p_key);
    IF p_kind = 'match' THEN
        IF NOT EXISTS (SELECT 1 FROM club_matches m
                       WHERE m.table_id = p_table AND m.match_id = p_match
                         AND (m.created, m.players)
                             IS DISTINCT FROM (r->>'created', r->'players')) THEN
            RETURN false;
        END IF;
        INSERT INTO club_conflicts(table_id, match_id, kind, copy, copy_hash)
        VALUES (p_table, p_match, 'match', r, md5(r::text)) ON CONFLICT DO NOTHING;
        RETURN true;
    END IF;
    held := club_stroke_clash(p_table, p_match, (r->>'local_id')::integer, (r->>'seq')::integer,
                              r->>'status', r->>'call_text', r->>'call_status', r->>'outcome_text',
                              r->'outcome', r->'verdict', r->'state', r->>'time');
    IF held.local_id IS NULL THEN
        IF NOT EXISTS (SELECT 1 FROM club_strokes s
                       WHERE s.table_id = p_table AND s.match_id = p_match
                         AND s.local_id = (r->>'local_id')::integer) THEN
            INSERT INTO club_conflicts(table_id, match_id, kind, local_id, seq, copy, copy_hash)
            VALUES (p_table, p_match, 'later', (r->>'local_id')::integer, (r->>'seq')::integer, r,
                    md5(r::text))
            ON CONFLICT DO NOTHING;
        END IF;
        RETURN false;
    END IF;
    INSERT INTO club_conflicts(table_id, match_id, kind, local_id, seq, copy, copy_hash)
    VALUES (p_table, p_match, 'stroke', (r->>'local_id')::integer, (r->>'seq')::integer, r,
            md5(r::text))
    ON CONFLICT DO NOTHING;
    RETURN true;
END $$;

-- The table's open conflicts, and the server's version of a match (to take it).
CREATE FUNCTION club_table_conflicts(p_table integer, p_key text)
RETURNS TABLE (match_id integer, kind text, local_id integer, seq integer, copy jsonb,
               received timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM club_check_key(p_table, p_key);
    RETURN QUERY SELECT c.match_id, c.kind, c.local_id, c.seq, c.copy, c.received
                 FROM club_conflicts c
                 WHERE c.table_id = p_table AND c.resolved IS NULL
                 ORDER BY c.match_id, c.seq, c.id;
END $$;

CREATE FUNCTION club_table_match(p_table integer, p_key text, p_match integer)
RETURNS TABLE (local_id integer, seq integer, status text, call_text text, call jsonb,
               refusal jsonb, call_status text, outcome_text text, outcome jsonb, verdict jsonb,
               state jsonb, lang text, stroke_time text, m_players jsonb, m_settings jsonb,
               m_to_wins integer, m_status text, m_result jsonb, m_created text, m_updated text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM club_check_key(p_table, p_key);
    RETURN QUERY SELECT s.local_id, s.seq, s.status, s.call_text, s.call, s.refusal,
                        s.call_status, s.outcome_text, s.outcome, s.verdict, s.state, s.lang,
                        s.time, m.players, m.settings, m.to_wins, m.status, m.result, m.created,
                        m.updated
                 FROM club_matches m
                 LEFT JOIN club_strokes s
                        ON s.table_id = m.table_id AND s.match_id = m.match_id
                 WHERE m.table_id = p_table AND m.match_id = p_match
                 ORDER BY s.seq, s.local_id;
END $$;

CREATE FUNCTION club_resolve_conflicts(p_table integer, p_key text, p_match integer, p_how text)
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE n integer;
BEGIN
    PERFORM club_check_key(p_table, p_key);
    UPDATE club_conflicts SET resolved = now(), resolution = p_how
     WHERE table_id = p_table AND resolved IS NULL AND (p_match IS NULL OR match_id = p_match);
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END $$;

CREATE FUNCTION club_link_check(p_table integer, p_key text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM club_tables WHERE id = p_table) THEN 'removed'
                WHEN EXISTS (SELECT 1 FROM club_tables WHERE id = p_table
                             AND key_hash = encode(sha256(convert_to(p_key, 'UTF8')), 'hex'))
                     THEN 'ok'
                ELSE 'mismatch' END
$$;

REVOKE ALL ON club_conflicts FROM PUBLIC;
REVOKE ALL ON FUNCTION club_stroke_clash(integer, integer, integer, integer, text, text, text,
    text, jsonb, jsonb, jsonb, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION club_put_conflict(integer, text, integer, text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION club_table_conflicts(integer, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION club_table_match(integer, text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION club_resolve_conflicts(integer, text, integer, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION club_link_check(integer, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION club_put_conflict(integer, text, integer, text, jsonb) TO pyramid_table;
GRANT EXECUTE ON FUNCTION club_table_conflicts(integer, text) TO pyramid_table;
GRANT EXECUTE ON FUNCTION club_table_match(integer, text, integer) TO pyramid_table;
GRANT EXECUTE ON FUNCTION club_resolve_conflicts(integer, text, integer, text) TO pyramid_table;
GRANT EXECUTE ON FUNCTION club_link_check(integer, text) TO pyramid_table;
GRANT SELECT (id, table_id, match_id, kind, local_id, seq, copy, received, resolved, resolution)
    ON club_conflicts TO pyramid_board;
""",
}


def version(con) -> int:
    """The club schema's version in this database (0: empty)."""
    r = con.execute("SELECT to_regclass('club_schema')").fetchone()
    if r[0] is None:
        return 0
    return int(con.execute("SELECT version FROM club_schema").fetchone()[0])


def migrate(con, *, to: int = SCHEMA_VERSION, lang: str = "ru") -> int:
    """Bring the database to version ``to`` (one transaction); the version it had before."""
    with con.transaction():
        con.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_ID,))
        con.execute("CREATE TABLE IF NOT EXISTS club_schema (version integer NOT NULL)")
        if con.execute("SELECT count(*) FROM club_schema").fetchone()[0] == 0:
            con.execute("INSERT INTO club_schema VALUES (0)")
        before = version(con)
        if before > SCHEMA_VERSION:
            raise UserError(
                trl(
                    lang,
                    "the club server's schema is newer (version {version} > {known}); upgrade "
                    "pyramid-referee",
                ).format(version=before, known=SCHEMA_VERSION)
            )
        for v in range(before, to):
            con.execute(MIGRATIONS[v])
        con.execute("UPDATE club_schema SET version = %s", (max(before, to),))
    return before


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def register(con, name: str, *, lang: str = "ru") -> tuple[int, str]:
    """Register a table by name: (its id, its key). The key is returned once; only its hash is
    kept. The number is the club's next one, taken inside this transaction (schema v4's
    ``last_table``): a refused registration uses none, so a club's tables are numbered 1, 2, 3."""
    key = secrets.token_urlsafe(24)
    with con.transaction():
        con.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_ID,))
        taken = (
            con.execute("SELECT 1 FROM club_tables WHERE name = %s", (name,)).fetchone()
            is not None
        )
        if not taken:
            if version(con) >= 4:
                (table_id,) = con.execute(
                    "UPDATE club_schema SET last_table = greatest(last_table, (SELECT "
                    "coalesce(max(id), 0) FROM club_tables)) + 1 RETURNING last_table"
                ).fetchone()
                con.execute(
                    "INSERT INTO club_tables(id, name, key_hash) VALUES (%s, %s, %s)",
                    (table_id, name, key_hash(key)),
                )
            else:  # an older server (tests build them): its serial numbers the table
                (table_id,) = con.execute(
                    "INSERT INTO club_tables(name, key_hash) VALUES (%s, %s) RETURNING id",
                    (name, key_hash(key)),
                ).fetchone()
    if taken:
        raise UserError(
            trl(
                lang,
                "a table named {name} is already registered on the club server; choose another "
                "name",
            ).format(name=name)
        )
    return int(table_id), key


def knows(con, table_id: int, key: str) -> bool:
    """Does the server still hold that table with that key (not removed
    since it was registered)?"""
    return (
        con.execute(
            "SELECT 1 FROM club_tables WHERE id = %s AND key_hash = %s", (table_id, key_hash(key))
        ).fetchone()
        is not None
    )


def status(con) -> list[dict]:
    """Every table with its last stored stroke and the lag (seconds from the
    stroke to the server)."""
    rows = con.execute("""
        SELECT t.id, t.name, s.match_id, s.seq, s.time, s.received,
               extract(epoch FROM s.received - s.time::timestamptz),
               (SELECT count(*) FROM club_strokes c
                WHERE c.table_id = t.id AND c.status = 'active')
        FROM club_tables t
        LEFT JOIN LATERAL (SELECT * FROM club_strokes c WHERE c.table_id = t.id
                           ORDER BY c.received DESC, c.action_id DESC, c.seq DESC, c.local_id DESC
                           LIMIT 1) s ON true
        ORDER BY t.id""").fetchall()
    out = []
    for tid, name, match_id, seq, time, received, lag, active in rows:
        out.append(
            {
                "id": tid,
                "name": name,
                "strokes": int(active),
                "last_stroke": None
                if match_id is None
                else {
                    "match": match_id,
                    "seq": seq,
                    "time": time,
                    "received": received.isoformat(timespec="milliseconds"),
                },
                "lag_s": None if lag is None else round(float(lag), 3),
                "conflicts": [],
            }
        )
    if out and version(con) >= 4:
        by_id = {t["id"]: t for t in out}
        for tid, match_id, kind, seq, received in con.execute(
            "SELECT table_id, match_id, kind, seq, received FROM club_conflicts WHERE resolved IS "
            "NULL AND kind <> 'later' ORDER BY table_id, match_id, seq, id"
        ):
            by_id[tid]["conflicts"].append(
                {
                    "match": match_id,
                    "kind": kind,
                    "seq": seq,
                    "received": received.isoformat(timespec="seconds"),
                }
            )
    return out


def conflicts(con, table_id: int, key: str) -> list[dict]:
    """This table's open conflicts (its key checked): what the server refused, by match and seq."""
    return [
        {
            "match": m,
            "kind": kind,
            "local_id": local,
            "seq": seq,
            "copy": copy,
            "received": received,
        }
        for m, kind, local, seq, copy, received in con.execute(
            "SELECT match_id, kind, local_id, seq, copy, received FROM "
            "club_table_conflicts(%s, %s)",
            (table_id, key),
        )
    ]
