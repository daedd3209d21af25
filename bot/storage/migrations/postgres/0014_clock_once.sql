-- 0014_clock_once.sql (PostgreSQL): a move creates a seat's clock at its first
-- decision only.
--
-- tallyho_commit_move (0011, 0012) inserted each opened deadline's seat clock with
-- ON CONFLICT DO NOTHING at every move, although the planner had just read that clock
-- (bot/scheduler.py, DecisionTerms.first): a statement and a foreign-key check a move
-- for a row that was there already (issue 16). The planner now gives a new
-- deadline's seat_bank_seconds only for the seat's first decision, NULL otherwise, and
-- the function writes the clock only then. A bot of an earlier version gives it
-- always, and gets what it got before.
--
-- Everything else is 0012's function as it was. SQLite's twin, ../0014_clock_once.sql,
-- is empty (its transaction does the same: bot/storage/sqlite.py, commit_move).

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
    RETURN QUERY SELECT g, opened_rows, done_ids;
END;
$$;
