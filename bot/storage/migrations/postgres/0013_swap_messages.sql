-- 0013_swap_messages.sql (PostgreSQL): a game's messages swapped in one call.
--
-- After a move the bot forgets the game's DMs whose buttons went out of date (each
-- row is taken by the one process whose DELETE returns it, which then closes or edits
-- that DM: once), remembers again under the new version those it brings up to date,
-- and remembers the DMs it just sent (Storage.swap_messages, cogs/publisher.py). One
-- statement each was a round trip each; this function is one.
--
-- p_claim: the kinds to forget. The rows to write come as parallel arrays, each with
-- p_from, the kind it replaces (written only if this call forgot that one) or NULL
-- (written anyway); the caller gives one row a kind (bot/storage/sql.py, swap_writes),
-- so the INSERT never meets the same row twice. Returns the rows forgotten, by kind.
-- The DELETE runs before the INSERT, as two statements: a new row may take the kind
-- of one forgotten (a DM sent again for the same version). SQLite's twin,
-- ../0013_swap_messages.sql, is empty.

CREATE FUNCTION tallyho_swap_messages(
    p_game BIGINT,
    p_now TIMESTAMPTZ,
    p_claim TEXT[],
    p_from TEXT[],
    p_kind TEXT[],
    p_channel BIGINT[],
    p_message BIGINT[],
    p_content TEXT[]
) RETURNS TABLE (
    kind TEXT, channel_id BIGINT, message_id BIGINT, updated_at TIMESTAMPTZ, content TEXT
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    gone_kind TEXT[];
    gone_channel BIGINT[];
    gone_message BIGINT[];
    gone_at TIMESTAMPTZ[];
    gone_content TEXT[];
BEGIN
    WITH gone AS (
        DELETE FROM messages AS m
        WHERE m.game_id = p_game AND m.kind = ANY (p_claim)
        RETURNING m.kind, m.channel_id, m.message_id, m.updated_at, m.content
    )
    SELECT array_agg(g.kind ORDER BY g.kind), array_agg(g.channel_id ORDER BY g.kind),
        array_agg(g.message_id ORDER BY g.kind), array_agg(g.updated_at ORDER BY g.kind),
        array_agg(g.content ORDER BY g.kind)
    INTO gone_kind, gone_channel, gone_message, gone_at, gone_content
    FROM gone AS g;
    INSERT INTO messages AS m (game_id, kind, channel_id, message_id, updated_at, content)
    SELECT p_game, w.kind, w.channel_id, w.message_id, p_now, w.content
    FROM unnest(p_from, p_kind, p_channel, p_message, p_content)
        AS w (replaces, kind, channel_id, message_id, content)
    WHERE w.replaces IS NULL OR w.replaces = ANY (coalesce(gone_kind, '{}'))
    ON CONFLICT ON CONSTRAINT messages_pkey DO UPDATE SET channel_id = excluded.channel_id,
        message_id = excluded.message_id, updated_at = excluded.updated_at,
        content = excluded.content;
    RETURN QUERY
    SELECT * FROM unnest(gone_kind, gone_channel, gone_message, gone_at, gone_content);
END;
$$;
