import type { EventEnvelope } from '@gen/contracts';
import type { Database, SqlTransaction } from '@gen/persistence';
import type { EventBus } from './event-bus';

const SAFE_SCHEMA = /^[a-z][a-z0-9_]{0,62}$/;
function table(schema: string, name: string): string {
  if (!SAFE_SCHEMA.test(schema)) throw new Error(`invalid schema name ${schema}`);
  return `"${schema}"."${name}"`;
}

/**
 * The tables of the outbox and of consumer deduplication, for a service's own migration (the SQL goes into
 * the service's migrations folder, so it is recorded like any other migration).
 */
export function outboxMigrationSql(schema: string): string {
  return `-- CreateTable
CREATE TABLE ${table(schema, 'outbox')} (
    "seq" BIGSERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "envelope" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "outbox_id_key" ON ${table(schema, 'outbox')}("id");

-- CreateIndex
CREATE INDEX "outbox_unpublished_idx" ON ${table(schema, 'outbox')}("published_at", "seq");

-- CreateTable
CREATE TABLE ${table(schema, 'processed_events')} (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);
`;
}

/**
 * Writes events into the outbox inside the caller's transaction: they exist exactly when the change does.
 * One statement for all of them; `seq` follows their order, so the relay publishes them in that order.
 */
export async function appendToOutbox(
  tx: SqlTransaction,
  schema: string,
  topic: string,
  events: readonly EventEnvelope[],
): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `INSERT INTO ${table(schema, 'outbox')} ("id", "topic", "key", "envelope")
     SELECT e."id", $1, e."key", e."envelope"::json
     FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS e("id", "key", "envelope", "n")
     ORDER BY e."n"`,
    [topic, events.map((e) => e.id), events.map((e) => e.key), events.map((e) => JSON.stringify(e))],
  );
}

/**
 * Applies `effect` at most once per (consumer, event id), in the same transaction as the record that it did:
 * a redelivered event finds the record and is skipped. Returns false when the event was already handled.
 */
export async function handleOnce(
  tx: SqlTransaction,
  schema: string,
  consumer: string,
  eventId: string,
  effect: () => Promise<void>,
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO ${table(schema, 'processed_events')} ("consumer", "event_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1 AS "new"`,
    [consumer, eventId],
  );
  if (inserted.length === 0) return false;
  await effect();
  return true;
}

export interface OutboxRelayOptions {
  readonly schema: string;
  readonly batchSize?: number;
  readonly pollMs?: number;
}

/**
 * Publishes a service's outbox in order. One relay per schema works at a time (advisory lock), reading the
 * oldest unpublished rows, publishing them per topic in sequence order (so per key in order), then marking
 * them. A crash between publishing and marking publishes those rows again: duplicates, never losses;
 * consumers deduplicate with `handleOnce`.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly bus: EventBus,
    private readonly options: OutboxRelayOptions,
  ) {}

  /** Publishes one batch; returns how many rows it published. */
  drainOnce(): Promise<number> {
    const outbox = table(this.options.schema, 'outbox');
    return this.database.withLock(`outbox:${this.options.schema}`, async (db) => {
      const rows = await db.query<{ seq: string; topic: string; envelope: EventEnvelope | string }>(
        `SELECT "seq", "topic", "envelope" FROM ${outbox} WHERE "published_at" IS NULL ORDER BY "seq" LIMIT $1`,
        [this.options.batchSize ?? 500],
      );
      if (rows.length === 0) return 0;
      const byTopic = new Map<string, EventEnvelope[]>();
      for (const row of rows) {
        const envelope =
          typeof row.envelope === 'string' ? (JSON.parse(row.envelope) as EventEnvelope) : row.envelope;
        byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), envelope]);
      }
      for (const [topic, events] of byTopic) await this.bus.publish(topic, events);
      await db.query(`UPDATE ${outbox} SET "published_at" = now() WHERE "seq" = ANY($1::bigint[])`, [
        rows.map((r) => r.seq),
      ]);
      return rows.length;
    });
  }

  /** Polls until stopped; a full batch is followed at once by the next. */
  start(): void {
    const tick = (): void => {
      if (this.stopped) return;
      this.running = this.drainOnce();
      this.running.then(
        (count) => {
          if (!this.stopped)
            this.timer = setTimeout(
              tick,
              count >= (this.options.batchSize ?? 500) ? 0 : (this.options.pollMs ?? 50),
            );
        },
        () => {
          if (!this.stopped) this.timer = setTimeout(tick, 1000);
        },
      );
    };
    tick();
  }

  /** Stops polling and waits for the batch in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }
}
