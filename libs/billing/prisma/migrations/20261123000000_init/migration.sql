-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "billing";

-- CreateTable
CREATE TABLE "billing"."funding_sources" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "model" TEXT,
    "amount_e9" BIGINT NOT NULL,
    "remaining_e9" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "funding_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "billing"."ledger_entries" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "source_id" TEXT,
    "entry_type" TEXT NOT NULL,
    "amount_e9" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "funding_sources_account_id_idx" ON "billing"."funding_sources"("account_id");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_idx" ON "billing"."ledger_entries"("account_id");
