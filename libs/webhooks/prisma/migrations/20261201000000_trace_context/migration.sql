-- The W3C trace context of the consumption of the task.lifecycle event that queued a delivery, when tracing is
-- on: every attempt's span continues that trace, whichever replica sends it and however late. NULL when
-- tracing is off (and for rows queued before this column).
ALTER TABLE "webhooks"."deliveries" ADD COLUMN "traceparent" TEXT;
ALTER TABLE "webhooks"."messages" ADD COLUMN "traceparent" TEXT;
