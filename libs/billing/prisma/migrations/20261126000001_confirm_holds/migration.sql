-- Confirms several holds in one call (reserved -> confirmed; any other status is left alone), in hold id order
-- so that two calls never wait on each other's locks in a cycle. One row per known hold, with its status
-- after the call; unknown ids give no row. Each hold is one primary-key statement, whatever the planner
-- thinks of the table's size.
CREATE FUNCTION "billing"."confirm_holds"(p_hold_ids TEXT[])
RETURNS TABLE ("hold_id" TEXT, "hold_status" TEXT, "hold_amount_e9" BIGINT, "hold_charged_e9" BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
    v_id TEXT;
BEGIN
    FOR v_id IN SELECT DISTINCT u FROM unnest(p_hold_ids) AS u ORDER BY u LOOP
        RETURN QUERY
            WITH "confirmed" AS (
                UPDATE "billing"."holds" SET "status" = 'confirmed' WHERE "id" = v_id AND "status" = 'reserved'
                RETURNING "id", "status", "amount_e9", "charged_e9"
            )
            SELECT c."id", c."status", c."amount_e9", c."charged_e9" FROM "confirmed" c
            UNION ALL
            SELECT h."id", h."status", h."amount_e9", h."charged_e9" FROM "billing"."holds" h
            WHERE h."id" = v_id AND NOT EXISTS (SELECT 1 FROM "confirmed");
    END LOOP;
END;
$$;
