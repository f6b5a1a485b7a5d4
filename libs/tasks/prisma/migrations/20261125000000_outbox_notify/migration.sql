-- Every statement inserting into the outbox wakes the relay at commit, in whichever process it runs.
CREATE OR REPLACE FUNCTION "tasks"."outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox_tasks', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "outbox_notify" AFTER INSERT ON "tasks"."outbox"
  FOR EACH STATEMENT EXECUTE FUNCTION "tasks"."outbox_notify"();
