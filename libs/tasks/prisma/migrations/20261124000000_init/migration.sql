-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "tasks";

-- CreateTable
CREATE TABLE "tasks"."tasks" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "input" JSON,
    "callback_url" TEXT,
    "estimated_e9" BIGINT NOT NULL,
    "price_multiplier" TEXT NOT NULL,
    "cost_e9" BIGINT,
    "settled" BOOLEAN NOT NULL DEFAULT false,
    "error_code" TEXT,
    "assets" JSON,
    "usage" JSON,
    "request_id" TEXT NOT NULL,
    "source_task_id" TEXT,
    "retention_seconds" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "deadline_at" TIMESTAMPTZ(3) NOT NULL,
    "purged_at" TIMESTAMPTZ(3),

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tasks"."idempotency_records" (
    "account_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "idem_key" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("account_id","scope","idem_key")
);

-- CreateTable
CREATE TABLE "tasks"."outbox" (
    "seq" BIGSERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "envelope" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "tasks"."processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE INDEX "tasks_key_created_idx" ON "tasks"."tasks"("key_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "tasks_account_created_idx" ON "tasks"."tasks"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "tasks_state_deadline_idx" ON "tasks"."tasks"("state", "deadline_at");

-- CreateIndex
CREATE INDEX "idempotency_records_created_at_idx" ON "tasks"."idempotency_records"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_id_key" ON "tasks"."outbox"("id");

-- CreateIndex
CREATE INDEX "outbox_unpublished_idx" ON "tasks"."outbox"("published_at", "seq");
