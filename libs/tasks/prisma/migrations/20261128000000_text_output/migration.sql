-- The answer of a text task (content, reasoning, tool calls, finish reason): its output, as assets are a media
-- task's. Destroyed with the prompt when the task is purged.
ALTER TABLE "tasks"."tasks" ADD COLUMN "text_output" JSON;
