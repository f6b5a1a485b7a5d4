-- Holds on funds, the double-entry ledger, per-key daily spend, and billing's outbox.
-- Amounts are nano-USD. Every ledger row moves a positive amount from one bucket to another; the buckets are
-- 'external' (money entering from outside), 'source:<funding source id>', 'hold:<hold id>' and 'spent'.

-- AlterTable: the ledger becomes double-entry.
ALTER TABLE "billing"."ledger_entries" ADD COLUMN "from_account" TEXT,
ADD COLUMN "to_account" TEXT,
ADD COLUMN "hold_id" TEXT;

-- Backfill: every existing row is a credit, money entering a funding source from outside.
UPDATE "billing"."ledger_entries"
SET "from_account" = 'external', "to_account" = 'source:' || "source_id"
WHERE "entry_type" LIKE 'credit.%';

ALTER TABLE "billing"."ledger_entries" ALTER COLUMN "from_account" SET NOT NULL,
ALTER COLUMN "to_account" SET NOT NULL,
ADD CONSTRAINT "ledger_entries_amount_e9_check" CHECK ("amount_e9" > 0),
ADD CONSTRAINT "ledger_entries_buckets_check" CHECK ("from_account" <> "to_account");

-- CreateIndex
CREATE INDEX "ledger_entries_hold_id_idx" ON "billing"."ledger_entries"("hold_id");

-- A funding source never goes below zero, nor above what it brought.
ALTER TABLE "billing"."funding_sources" ADD CONSTRAINT "funding_sources_remaining_e9_check"
CHECK ("remaining_e9" >= 0 AND "remaining_e9" <= "amount_e9");

-- CreateTable
CREATE TABLE "billing"."holds" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "amount_e9" BIGINT NOT NULL,
    "charged_e9" BIGINT,
    "status" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "holds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "holds_status_check" CHECK ("status" IN ('reserved', 'confirmed', 'settled', 'released')),
    CONSTRAINT "holds_amounts_check" CHECK (
        "amount_e9" > 0 AND ("charged_e9" IS NULL OR ("charged_e9" >= 0 AND "charged_e9" <= "amount_e9"))
    )
);

-- CreateTable
CREATE TABLE "billing"."hold_allocations" (
    "hold_id" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "amount_e9" BIGINT NOT NULL,

    CONSTRAINT "hold_allocations_pkey" PRIMARY KEY ("hold_id","source_id"),
    CONSTRAINT "hold_allocations_amount_e9_check" CHECK ("amount_e9" > 0)
);

-- CreateTable
CREATE TABLE "billing"."key_daily_spend" (
    "key_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "amount_e9" BIGINT NOT NULL,

    CONSTRAINT "key_daily_spend_pkey" PRIMARY KEY ("key_id","day"),
    CONSTRAINT "key_daily_spend_amount_e9_check" CHECK ("amount_e9" >= 0)
);

-- CreateIndex
CREATE INDEX "holds_account_id_status_idx" ON "billing"."holds"("account_id", "status");

-- CreateIndex
CREATE INDEX "holds_status_expires_at_idx" ON "billing"."holds"("status", "expires_at");

-- CreateIndex
CREATE INDEX "hold_allocations_source_id_idx" ON "billing"."hold_allocations"("source_id");

-- AddForeignKey
ALTER TABLE "billing"."hold_allocations" ADD CONSTRAINT "hold_allocations_hold_id_fkey" FOREIGN KEY ("hold_id") REFERENCES "billing"."holds"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "billing"."hold_allocations" ADD CONSTRAINT "hold_allocations_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "billing"."funding_sources"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The outbox of billing's own events and consumer deduplication: outboxMigrationSql('billing') of @gen/messaging.
-- CreateTable
CREATE TABLE "billing"."outbox" (
    "seq" BIGSERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "envelope" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "outbox_id_key" ON "billing"."outbox"("id");

-- CreateIndex
CREATE INDEX "outbox_unpublished_idx" ON "billing"."outbox"("published_at", "seq");

-- CreateTable
CREATE TABLE "billing"."processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- Reserve: one statement, so one round trip and one transaction. Idempotent per hold id: a hold that exists
-- is returned as it is. Otherwise the key's daily spend grows only if it stays within the cap, then the
-- account's live sources are taken in the funding order (grants of this model, promotional credit, wallet;
-- earliest expiry first, no expiry last, then oldest), each locked. A refusal raises GB402 (cap) or GB401
-- (funds), which rolls back every change. Locks are taken in one order everywhere (hold, daily spend row,
-- sources in the funding order), so reserves and settlements never deadlock each other.
CREATE FUNCTION "billing"."reserve_hold"(
    p_hold_id TEXT,
    p_account_id TEXT,
    p_key_id TEXT,
    p_model TEXT,
    p_amount_e9 BIGINT,
    p_cap_e9 BIGINT,
    p_day DATE,
    p_now TIMESTAMPTZ,
    p_expires_at TIMESTAMPTZ,
    p_ledger_id TEXT
) RETURNS TABLE ("hold_status" TEXT, "hold_amount_e9" BIGINT, "hold_charged_e9" BIGINT, "hold_created" BOOLEAN)
LANGUAGE plpgsql AS $$
DECLARE
    v_needed BIGINT := p_amount_e9;
    v_take BIGINT;
    v_position INTEGER := 0;
    v_source RECORD;
BEGIN
    INSERT INTO "billing"."holds" ("id", "account_id", "key_id", "model", "amount_e9", "status", "day", "created_at", "expires_at")
    VALUES (p_hold_id, p_account_id, p_key_id, p_model, p_amount_e9, 'reserved', p_day, p_now, p_expires_at)
    ON CONFLICT ("id") DO NOTHING;
    IF NOT FOUND THEN
        RETURN QUERY SELECT h."status", h."amount_e9", h."charged_e9", FALSE FROM "billing"."holds" h WHERE h."id" = p_hold_id;
        RETURN;
    END IF;

    INSERT INTO "billing"."key_daily_spend" AS t ("key_id", "day", "amount_e9")
    SELECT p_key_id, p_day, p_amount_e9 WHERE p_amount_e9 <= p_cap_e9
    ON CONFLICT ("key_id", "day") DO UPDATE SET "amount_e9" = t."amount_e9" + excluded."amount_e9"
    WHERE t."amount_e9" + excluded."amount_e9" <= p_cap_e9;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'spend_cap.reached' USING ERRCODE = 'GB402';
    END IF;

    FOR v_source IN
        SELECT s."id", s."remaining_e9" FROM "billing"."funding_sources" s
        WHERE s."account_id" = p_account_id AND s."remaining_e9" > 0
          AND (s."expires_at" IS NULL OR s."expires_at" > p_now)
          AND (s."kind" <> 'grant' OR s."model" = p_model)
        ORDER BY CASE s."kind" WHEN 'grant' THEN 0 WHEN 'promo' THEN 1 ELSE 2 END,
                 s."expires_at" NULLS LAST, s."created_at", s."id"
        FOR UPDATE
    LOOP
        v_take := LEAST(v_needed, v_source."remaining_e9");
        v_position := v_position + 1;
        UPDATE "billing"."funding_sources" SET "remaining_e9" = "remaining_e9" - v_take WHERE "id" = v_source."id";
        INSERT INTO "billing"."hold_allocations" ("hold_id", "source_id", "position", "amount_e9")
        VALUES (p_hold_id, v_source."id", v_position, v_take);
        INSERT INTO "billing"."ledger_entries"
            ("id", "account_id", "source_id", "hold_id", "entry_type", "from_account", "to_account", "amount_e9", "created_at")
        VALUES (p_ledger_id || '_' || lpad(v_position::TEXT, 3, '0'), p_account_id, v_source."id", p_hold_id,
                'hold.reserve', 'source:' || v_source."id", 'hold:' || p_hold_id, v_take, p_now);
        v_needed := v_needed - v_take;
        EXIT WHEN v_needed = 0;
    END LOOP;
    IF v_needed > 0 THEN
        RAISE EXCEPTION 'balance.insufficient' USING ERRCODE = 'GB401';
    END IF;

    RETURN QUERY SELECT 'reserved'::TEXT, p_amount_e9, NULL::BIGINT, TRUE;
END;
$$;

-- Settle (p_charge_e9 not null) or release (null) a hold that is not final yet; with p_stale_only, only a
-- 'reserved' hold whose expiry has passed at p_now (the sweeper). The charge, at most the amount, is taken
-- from the allocations in their order (hold -> spent); the rest goes back to the sources it came from
-- (hold -> source) and off the key's daily spend. Returns no row for an unknown hold, and `applied` false
-- when nothing changed.
CREATE FUNCTION "billing"."finish_hold"(
    p_hold_id TEXT,
    p_charge_e9 BIGINT,
    p_stale_only BOOLEAN,
    p_now TIMESTAMPTZ,
    p_ledger_id TEXT
) RETURNS TABLE ("hold_status" TEXT, "hold_amount_e9" BIGINT, "hold_charged_e9" BIGINT, "hold_account_id" TEXT, "applied" BOOLEAN)
LANGUAGE plpgsql AS $$
DECLARE
    v_hold "billing"."holds"%ROWTYPE;
    v_status TEXT := CASE WHEN p_charge_e9 IS NULL THEN 'released' ELSE 'settled' END;
    v_charge BIGINT;
    v_left BIGINT;
    v_take BIGINT;
    v_back BIGINT;
    v_n INTEGER := 0;
    v_allocation RECORD;
BEGIN
    SELECT * INTO v_hold FROM "billing"."holds" WHERE "id" = p_hold_id FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF v_hold."status" NOT IN ('reserved', 'confirmed')
       OR (p_stale_only AND (v_hold."status" <> 'reserved' OR v_hold."expires_at" > p_now)) THEN
        RETURN QUERY SELECT v_hold."status", v_hold."amount_e9", v_hold."charged_e9", v_hold."account_id", FALSE;
        RETURN;
    END IF;

    v_charge := LEAST(GREATEST(COALESCE(p_charge_e9, 0), 0), v_hold."amount_e9");
    IF v_charge < v_hold."amount_e9" THEN
        UPDATE "billing"."key_daily_spend" SET "amount_e9" = "amount_e9" - (v_hold."amount_e9" - v_charge)
        WHERE "key_id" = v_hold."key_id" AND "day" = v_hold."day";
        PERFORM 1 FROM "billing"."funding_sources" s
        JOIN "billing"."hold_allocations" a ON a."source_id" = s."id" AND a."hold_id" = p_hold_id
        ORDER BY CASE s."kind" WHEN 'grant' THEN 0 WHEN 'promo' THEN 1 ELSE 2 END,
                 s."expires_at" NULLS LAST, s."created_at", s."id"
        FOR UPDATE OF s;
    END IF;

    v_left := v_charge;
    FOR v_allocation IN
        SELECT a."source_id", a."amount_e9" FROM "billing"."hold_allocations" a
        WHERE a."hold_id" = p_hold_id ORDER BY a."position"
    LOOP
        v_take := LEAST(v_left, v_allocation."amount_e9");
        v_back := v_allocation."amount_e9" - v_take;
        v_left := v_left - v_take;
        IF v_take > 0 THEN
            v_n := v_n + 1;
            INSERT INTO "billing"."ledger_entries"
                ("id", "account_id", "source_id", "hold_id", "entry_type", "from_account", "to_account", "amount_e9", "created_at")
            VALUES (p_ledger_id || '_' || lpad(v_n::TEXT, 3, '0'), v_hold."account_id", v_allocation."source_id", p_hold_id,
                    'hold.charge', 'hold:' || p_hold_id, 'spent', v_take, p_now);
        END IF;
        IF v_back > 0 THEN
            v_n := v_n + 1;
            UPDATE "billing"."funding_sources" SET "remaining_e9" = "remaining_e9" + v_back
            WHERE "id" = v_allocation."source_id";
            INSERT INTO "billing"."ledger_entries"
                ("id", "account_id", "source_id", "hold_id", "entry_type", "from_account", "to_account", "amount_e9", "created_at")
            VALUES (p_ledger_id || '_' || lpad(v_n::TEXT, 3, '0'), v_hold."account_id", v_allocation."source_id", p_hold_id,
                    CASE WHEN p_charge_e9 IS NULL THEN 'hold.release' ELSE 'hold.return' END,
                    'hold:' || p_hold_id, 'source:' || v_allocation."source_id", v_back, p_now);
        END IF;
    END LOOP;

    UPDATE "billing"."holds" SET "status" = v_status, "charged_e9" = v_charge, "finished_at" = p_now
    WHERE "id" = p_hold_id;
    RETURN QUERY SELECT v_status, v_hold."amount_e9", v_charge, v_hold."account_id", TRUE;
END;
$$;
