import type { Database } from '@gen/persistence';
import { cached, type Metrics } from '@gen/observability';

/** How long one reading of an outbox serves scrapes. */
export const OUTBOX_METRICS_CACHE_MS = 1000;

export interface OutboxDepth {
  /** Rows in the outbox: waiting to be published, or published in the last second and not yet deleted. */
  readonly rows: number;
  /** Age of the oldest row, in seconds; 0 when the outbox is empty. */
  readonly oldestAgeSeconds: number;
}

/**
 * One statement over the outbox, a transit queue that holds only what waits (see OutboxRelay): cheap while
 * the relay keeps up, and the number to watch when it does not (the bus is down, the relay stuck).
 */
export async function outboxDepth(database: Pick<Database, 'query'>, schema: string): Promise<OutboxDepth> {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const [row] = await database.query<{ rows: number | string; age: number | string | null }>(
    `SELECT count(*)::int AS "rows",
            COALESCE(EXTRACT(EPOCH FROM (clock_timestamp() - min("created_at"))), 0)::float8 AS "age"
     FROM "${schema}"."outbox"`,
  );
  return { rows: Number(row?.rows ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)) };
}

/**
 * Reports a schema's outbox on scrape: `outbox_rows{schema}` and `outbox_oldest_age_seconds{schema}`, from one
 * statement read at most once a second. Registered by the process that relays the schema; returns what
 * removes it (the relay stopped).
 */
export function outboxMetrics(
  metrics: Metrics,
  database: Pick<Database, 'query'>,
  schema: string,
): () => void {
  const read = cached(OUTBOX_METRICS_CACHE_MS, () => outboxDepth(database, schema));
  const labels = { schema };
  const removers = [
    metrics
      .gauge('outbox_rows', 'Rows in the transactional outbox of a schema, waiting for its relay.', [
        'schema',
      ])
      .source(async () => [{ labels, value: (await read()).rows }]),
    metrics
      .gauge(
        'outbox_oldest_age_seconds',
        'Age of the oldest row of a schema outbox (0 when empty): how far its relay is behind.',
        ['schema'],
      )
      .source(async () => [{ labels, value: (await read()).oldestAgeSeconds }]),
  ];
  return () => removers.forEach((remove) => remove());
}
