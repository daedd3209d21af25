-- 0015_planned_moves.sql (PostgreSQL): a move committed only if the rows it was planned
-- on are unchanged; what the next click of the game reads ahead, returned with it.
--
-- A click on a game reads, before its move, the game's settings, its server's, its
-- seats and their players' settings, its live deadlines and its seat clocks (the
-- read-ahead of bot/storage/postgres.py), and plans the move on them: the moves nobody
-- is asked for, the deadlines settled and opened. That read was a round trip of every
-- click. A process now keeps those rows from one click of a game to its next, and the
-- move is committed by tallyho_commit_planned, given the stamp of the rows it was
-- planned on (tallyho_ahead_stamp): the transaction ids that wrote them (xmin), which
-- any write of one of them, by any process, changes. It is 0014's tallyho_commit_move,
-- its statements as they were, with two additions. Once the game's row is locked at the
-- version expected (a game whose version moved on returns no row, as before), the
-- stamp is checked: one that differs from the rows' now raises TH002, which rolls the
-- move back whole, and the caller reads the rows again and plans the move again. And
-- the call returns, with what the move returned, the game's live deadlines and seat
-- clocks after it and their new stamp: what the next click reads ahead, without a
-- round trip. A move nobody plans again (a deadline's default) gives no stamp (NULL):
-- nothing is checked or read back. (A function calling tallyho_commit_move instead
-- cost the server twice the move's own time.) The move's statements now live in this
-- function only: tallyho_commit_move, kept for a process of the previous release still
-- running, calls it. SQLite's twin, ../0015_planned_moves.sql, is empty.

-- The stamp of what a click on p_game reads ahead: each row's xmin, tagged with its
-- table (xmin * 8 + part: an xid has 32 bits), in order. In PL/pgSQL, whose plans a
-- connection keeps: a SQL function's are made again at every call (a quarter of a
-- millisecond for this one).
CREATE FUNCTION tallyho_ahead_stamp(p_game BIGINT) RETURNS BIGINT[]
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN ARRAY(
        SELECT r.x FROM (
            SELECT s.xmin::text::bigint * 8 + 1 AS x
            FROM game_settings AS s WHERE s.game_id = p_game
            UNION ALL
            SELECT s.xmin::text::bigint * 8 + 2 FROM guild_settings AS s
            WHERE s.guild_id = (SELECT g.guild_id FROM games AS g WHERE g.id = p_game)
            UNION ALL
            SELECT t.xmin::text::bigint * 8 + 3 FROM seats AS t WHERE t.game_id = p_game
            UNION ALL
            SELECT u.xmin::text::bigint * 8 + 4 FROM user_settings AS u
            WHERE u.user_id IN (SELECT t.user_id FROM seats AS t WHERE t.game_id = p_game)
            UNION ALL
            SELECT d.xmin::text::bigint * 8 + 5 FROM deadlines AS d
            WHERE d.game_id = p_game AND d.done_at IS NULL AND d.cancelled_at IS NULL
            UNION ALL
            SELECT c.xmin::text::bigint * 8 + 6 FROM seat_clocks AS c WHERE c.game_id = p_game
        ) AS r
        ORDER BY r.x % 8, r.x
    );
END;
$$;

CREATE FUNCTION tallyho_commit_planned(
    p_ahead BIGINT[],
    p_game BIGINT,
    p_version BIGINT,
    p_deadline BIGINT,
    p_now TIMESTAMPTZ,
    p_stamp TIMESTAMPTZ,
    p_seats TEXT[],
    p_actions TEXT[],
    p_states TEXT[],
    p_settle BIGINT[],
    p_acted BOOLEAN[],
    p_used BIGINT[],
    p_cancel_all BOOLEAN,
    p_reset TEXT[],
    p_openings JSONB,
    p_result JSONB
) RETURNS TABLE (
    game games, opened deadlines[], closed BIGINT[], live deadlines[],
    clocks seat_clocks[], ahead BIGINT[]
)
LANGUAGE plpgsql AS $$
DECLARE
    g games;
    d deadlines;
    o RECORD;
    done_ids BIGINT[] := '{}';
    opened_rows deadlines[] := '{}';
    i INTEGER;
    claimed RECORD;
BEGIN
    IF p_deadline IS NOT NULL THEN  -- locked until the move commits: applied once
        SELECT x.game_id, x.fired_at, x.done_at, x.cancelled_at INTO claimed
        FROM deadlines AS x WHERE x.id = p_deadline FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'does not exist' USING ERRCODE = 'TH001';
        ELSIF claimed.done_at IS NOT NULL THEN
            RAISE EXCEPTION 'is already done' USING ERRCODE = 'TH001';
        ELSIF claimed.cancelled_at IS NOT NULL THEN
            RAISE EXCEPTION 'was cancelled' USING ERRCODE = 'TH001';
        ELSIF claimed.fired_at IS NULL THEN
            RAISE EXCEPTION 'is not claimed' USING ERRCODE = 'TH001';
        ELSIF claimed.game_id <> p_game THEN
            RAISE EXCEPTION 'is not a deadline of game %', p_game USING ERRCODE = 'TH001';
        END IF;
    END IF;
    FOR i IN 1 .. cardinality(p_actions) LOOP
        UPDATE games AS x SET version = x.version + 1, updated_at = p_now,
            last_seq = x.last_seq + 1
        WHERE x.id = p_game AND x.version = p_version + i - 1
        RETURNING x.* INTO g;
        IF NOT FOUND THEN
            RETURN;  -- no row: the caller finds the game stale or gone
        END IF;
        IF i = 1 AND p_ahead IS NOT NULL
                AND tallyho_ahead_stamp(p_game) IS DISTINCT FROM p_ahead THEN
            -- The game is locked and at the version expected: what the move was
            -- planned on is checked now, and a change rolls the move back whole.
            RAISE EXCEPTION 'the rows game % was planned on changed', p_game
                USING ERRCODE = 'TH002';
        END IF;
        INSERT INTO actions (game_id, seq, seat, action, created_at)
        VALUES (p_game, g.last_seq, p_seats[i], p_actions[i], p_now);
        IF p_states[i] IS NOT NULL THEN
            INSERT INTO snapshots (game_id, seq, state, created_at)
            VALUES (p_game, g.last_seq, p_states[i]::jsonb, p_now);
        END IF;
    END LOOP;
    IF p_deadline IS NOT NULL THEN
        UPDATE deadlines AS x SET done_at = p_now, updated_at = p_now WHERE x.id = p_deadline;
    END IF;
    FOR i IN 1 .. coalesce(cardinality(p_settle), 0) LOOP
        UPDATE deadlines AS x SET cancelled_at = p_stamp, updated_at = p_stamp
        WHERE x.id = p_settle[i] AND x.game_id = p_game AND x.fired_at IS NULL
            AND x.done_at IS NULL AND x.cancelled_at IS NULL;
        IF FOUND THEN
            done_ids := done_ids || p_settle[i];
        END IF;
        IF p_acted[i] THEN
            UPDATE seat_clocks AS c SET missed_in_a_row = 0,
                time_bank_seconds = GREATEST(0, c.time_bank_seconds - p_used[i]),
                updated_at = p_stamp
            WHERE (c.game_id, c.seat) = (SELECT x.game_id, x.seat FROM deadlines AS x
                                         WHERE x.id = p_settle[i] AND x.game_id = p_game);
        END IF;
    END LOOP;
    IF p_cancel_all THEN
        WITH cancelled AS (
            UPDATE deadlines AS x SET cancelled_at = p_stamp, updated_at = p_stamp
            WHERE x.game_id = p_game AND x.done_at IS NULL AND x.cancelled_at IS NULL
            RETURNING x.id
        )
        SELECT done_ids || coalesce(array_agg(c.id ORDER BY c.id), '{}') INTO done_ids
        FROM cancelled AS c;
    END IF;
    IF cardinality(p_reset) > 0 THEN
        UPDATE seat_clocks AS c SET missed_in_a_row = 0, updated_at = p_now
        WHERE c.game_id = p_game AND c.seat = ANY (p_reset) AND c.missed_in_a_row <> 0;
    END IF;
    FOR o IN
        SELECT * FROM jsonb_to_recordset(p_openings) AS y(
            seat TEXT, kind TEXT, decision_key TEXT, user_id BIGINT,
            created_at TIMESTAMPTZ, duration_seconds BIGINT, bank_seconds BIGINT,
            due_at TIMESTAMPTZ, expires_at TIMESTAMPTZ, reminder_ats TIMESTAMPTZ[],
            seat_bank_seconds BIGINT
        )
    LOOP
        IF o.seat_bank_seconds IS NOT NULL THEN  -- the seat's first decision
            INSERT INTO seat_clocks (game_id, seat, time_bank_seconds, updated_at)
            VALUES (p_game, o.seat, o.seat_bank_seconds, p_now)
            ON CONFLICT (game_id, seat) DO NOTHING;
        END IF;
        INSERT INTO deadlines AS x (game_id, seat, kind, decision_key, user_id, created_at,
            duration_seconds, bank_seconds, due_at, expires_at, reminder_ats,
            reminders_sent, next_at, attempts, updated_at)
        VALUES (p_game, o.seat, o.kind, o.decision_key, o.user_id, o.created_at,
            o.duration_seconds, o.bank_seconds, o.due_at, o.expires_at, o.reminder_ats, 0,
            coalesce(o.reminder_ats[1], o.expires_at), 0, p_now)
        ON CONFLICT (game_id, seat, decision_key) DO NOTHING
        RETURNING x.* INTO d;
        IF NOT FOUND THEN
            SELECT x.* INTO d FROM deadlines AS x
            WHERE x.game_id = p_game AND x.seat = o.seat AND x.decision_key = o.decision_key;
        END IF;
        opened_rows := opened_rows || d;
    END LOOP;
    IF p_result IS NOT NULL THEN
        UPDATE games AS x SET version = x.version + 1, updated_at = p_now,
            status = 'finished', finished_at = COALESCE(x.finished_at, p_now),
            result = p_result
        WHERE x.id = p_game
        RETURNING x.* INTO g;
    END IF;
    IF p_ahead IS NULL THEN  -- a move nobody plans again: nothing to read back
        RETURN QUERY SELECT g, opened_rows, done_ids,
            NULL::deadlines[], NULL::seat_clocks[], NULL::BIGINT[];
        RETURN;
    END IF;
    RETURN QUERY SELECT g, opened_rows, done_ids,
        ARRAY(SELECT x FROM deadlines AS x
              WHERE x.game_id = p_game AND x.done_at IS NULL AND x.cancelled_at IS NULL
              ORDER BY x.next_at, x.id),
        ARRAY(SELECT c FROM seat_clocks AS c WHERE c.game_id = p_game),
        tallyho_ahead_stamp(p_game);
END;
$$;

-- The move as the previous release calls it (a process of it still running while this
-- one migrated): the same statements, in the one function that holds them.
CREATE OR REPLACE FUNCTION tallyho_commit_move(
    p_game BIGINT,
    p_version BIGINT,
    p_deadline BIGINT,
    p_now TIMESTAMPTZ,
    p_stamp TIMESTAMPTZ,
    p_seats TEXT[],
    p_actions TEXT[],
    p_states TEXT[],
    p_settle BIGINT[],
    p_acted BOOLEAN[],
    p_used BIGINT[],
    p_cancel_all BOOLEAN,
    p_reset TEXT[],
    p_openings JSONB,
    p_result JSONB
) RETURNS TABLE (game games, opened deadlines[], closed BIGINT[])
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY SELECT p.game, p.opened, p.closed
    FROM tallyho_commit_planned(NULL, p_game, p_version, p_deadline, p_now, p_stamp,
        p_seats, p_actions, p_states, p_settle, p_acted, p_used, p_cancel_all, p_reset,
        p_openings, p_result) AS p;
END;
$$;
