-- The W3C trace context of the consumption of task.created that queued the task, when tracing is on: the
-- runner's span of the execution continues that trace, however long the task waited and whichever runner
-- claims it. NULL when tracing is off (and for rows queued before this column).
ALTER TABLE "runner"."jobs" ADD COLUMN "traceparent" TEXT;
