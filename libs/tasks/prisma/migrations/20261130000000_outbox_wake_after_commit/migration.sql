-- Outbox relays are woken by a NOTIFY their writers send after the commit (OutboxWakeUp in @gen/messaging),
-- no longer by this trigger inside the writing transaction: PostgreSQL serializes the commits of all
-- transactions that notify, which put every task and hold write of a busy service in one line.
DROP TRIGGER IF EXISTS "outbox_notify" ON "tasks"."outbox";
DROP FUNCTION IF EXISTS "tasks"."outbox_notify"();
