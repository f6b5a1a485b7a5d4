-- The lease of a text task streamed to a client (docs/reliability.md, "Text answers when the process stops"):
-- the process that streams it (`owner`) holds it from acceptance and renews it while it streams, and gives it
-- up once the answer is reported. A lease that lapsed (its process died) ends the task: failed with
-- `service_interrupted`, its hold released, its Idempotency-Key free again.
CREATE TABLE "tasks"."stream_leases" (
    "task_id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "lease_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_leases_pkey" PRIMARY KEY ("task_id")
);

-- The sweeper looks for lapsed leases, oldest first.
CREATE INDEX "stream_leases_lease_until_idx" ON "tasks"."stream_leases"("lease_until");
