-- CreateTable
CREATE TABLE "webhooks"."messages" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_outcome" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks"."message_attempts" (
    "message_id" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "status" INTEGER,
    "detail" TEXT,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "message_attempts_pkey" PRIMARY KEY ("message_id","n")
);

-- CreateIndex
CREATE UNIQUE INDEX "messages_endpoint_id_task_id_key" ON "webhooks"."messages"("endpoint_id", "task_id");

-- CreateIndex
CREATE INDEX "messages_task_id_idx" ON "webhooks"."messages"("task_id");

-- CreateIndex
CREATE INDEX "messages_due_idx" ON "webhooks"."messages"("state", "next_attempt_at");
