-- Every statement inserting into the outbox wakes the relay at commit, in whichever process it runs.
CREATE OR REPLACE FUNCTION "billing"."outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox_billing', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "outbox_notify" AFTER INSERT ON "billing"."outbox"
  FOR EACH STATEMENT EXECUTE FUNCTION "billing"."outbox_notify"();
