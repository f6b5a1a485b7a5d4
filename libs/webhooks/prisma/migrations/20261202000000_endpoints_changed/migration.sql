-- Every process that queues endpoint messages keeps the accounts' endpoints it looked up (EndpointRepository),
-- so that a terminal task event costs no query. A change that decides who receives what (an endpoint added or
-- removed, its events, `enabled` or `status`) tells them at commit: NOTIFY webhooks_endpoints. Delivery
-- bookkeeping (`consecutive_failures`, secrets, `updated_at`) does not notify: it decides nothing a cached entry
-- is used for, and a NOTIFY per attempt would serialize the attempts' commits.
CREATE FUNCTION "webhooks"."endpoints_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('webhooks_endpoints', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "endpoints_added_or_removed" AFTER INSERT OR DELETE ON "webhooks"."endpoints"
  FOR EACH STATEMENT EXECUTE FUNCTION "webhooks"."endpoints_changed"();

CREATE TRIGGER "endpoints_receivers_changed" AFTER UPDATE ON "webhooks"."endpoints"
  FOR EACH ROW WHEN (
    OLD."enabled" IS DISTINCT FROM NEW."enabled"
    OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."enabled_events" IS DISTINCT FROM NEW."enabled_events"
    OR OLD."account_id" IS DISTINCT FROM NEW."account_id"
  )
  EXECUTE FUNCTION "webhooks"."endpoints_changed"();
