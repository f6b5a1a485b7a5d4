-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "webhooks";

-- CreateTable
CREATE TABLE "webhooks"."deliveries" (
    "id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "payload_version" INTEGER NOT NULL,
    "record" JSON NOT NULL,
    "state" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_outcome" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks"."attempts" (
    "delivery_id" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "status" INTEGER,
    "detail" TEXT,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "attempts_pkey" PRIMARY KEY ("delivery_id","n")
);

-- CreateIndex
CREATE UNIQUE INDEX "deliveries_task_id_key" ON "webhooks"."deliveries"("task_id");

-- CreateIndex
CREATE INDEX "deliveries_due_idx" ON "webhooks"."deliveries"("state", "next_attempt_at");
