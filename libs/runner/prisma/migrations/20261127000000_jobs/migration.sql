-- The runner's queue of accepted work. A row is written when task.created is consumed, before the event is
-- acknowledged, so a task cannot be lost between the bus and a runner. A runner claims a row with a lease
-- (owner, lease_until) that it renews while the task runs; a row whose lease lapsed (its runner died) is
-- claimed again by any runner. Finished rows stay until the task's deadline, so that a redelivered
-- task.created does not run a finished task again.
CREATE TABLE "runner"."jobs" (
    "task_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "task" JSONB NOT NULL,
    "causation_id" TEXT NOT NULL,
    "correlation_id" TEXT NOT NULL,
    "deadline_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "runs" INTEGER NOT NULL DEFAULT 0,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "jobs_pkey" PRIMARY KEY ("task_id")
);

-- Claims read the unfinished rows in arrival order.
CREATE INDEX "jobs_waiting_idx" ON "runner"."jobs" ("created_at", "task_id") WHERE "finished_at" IS NULL;
-- Renewals and releases read one runner's rows.
CREATE INDEX "jobs_owner_idx" ON "runner"."jobs" ("owner") WHERE "owner" IS NOT NULL;
-- The sweep deletes rows past their deadline.
CREATE INDEX "jobs_deadline_idx" ON "runner"."jobs" ("deadline_at");
