import type { EventEnvelope, EventType } from '@gen/contracts';
import type { Database, Listening, SqlTransaction } from '@gen/persistence';
import type { EventBus } from './event-bus';
import type { OutboxSignal } from './outbox-signal';
import { outboxRows, type OutgoingEvent } from './typed-events';

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

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "outbox_id_key" ON ${table(schema, 'outbox')}("id");

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
 * One statement for all of them; `seq` follows their order, so the relay publishes them in that order. Each
 * goes to its type's topic. Only `newEvent`'s envelopes are taken: their payloads were checked when built.
 */
export async function appendToOutbox<T extends EventType>(
  tx: SqlTransaction,
  schema: string,
  events: readonly OutgoingEvent<T>[],
): Promise<void> {
  if (events.length === 0) return;
  const rows = outboxRows(events);
  await tx.query(
    `INSERT INTO ${table(schema, 'outbox')} ("id", "topic", "key", "envelope")
     SELECT e."id", e."topic", e."key", e."envelope"::json
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS e("id", "topic", "key", "envelope", "n")
     ORDER BY e."n"`,
    [rows.ids, rows.topics, rows.keys, rows.envelopes],
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

/** The notification channel of a schema's outbox. */
export function outboxChannel(schema: string): string {
  return `outbox_${schema}`;
}

/**
 * History: the SQL of the trigger that made every statement inserting into `<schema>.outbox` send NOTIFY
 * `outbox_<schema>` at commit. Written out once in the migrations `libs/billing/prisma/migrations/
 * 20261125000000_outbox_notify` and `libs/tasks/prisma/migrations/20261125000000_outbox_notify` (applied
 * migrations are never edited: their checksum is recorded), and dropped by `dropOutboxNotifySql` in the
 * migrations `20261130000000_outbox_wake_after_commit`: a NOTIFY inside the writing transaction serializes
 * every notifying commit of the database. Relays are now woken after the commit (`OutboxWakeUp`).
 * `outbox.spec.ts` ("service outboxes") checks both migrations against these functions.
 */
export function outboxNotifySql(schema: string): string {
  return `CREATE OR REPLACE FUNCTION "${schema}"."outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${outboxChannel(schema)}', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "outbox_notify" AFTER INSERT ON "${schema}"."outbox"
  FOR EACH STATEMENT EXECUTE FUNCTION "${schema}"."outbox_notify"();
`;
}

/** Drops the trigger of `outboxNotifySql` (see there): relays are woken after the commit instead. */
export function dropOutboxNotifySql(schema: string): string {
  return `DROP TRIGGER IF EXISTS "outbox_notify" ON "${schema}"."outbox";
DROP FUNCTION IF EXISTS "${schema}"."outbox_notify"();
`;
}

export interface OutboxRelayOptions {
  readonly schema: string;
  readonly batchSize?: number;
  /**
   * The safety-net poll while idle; default 1000. New rows normally wake the relay at once: their writer
   * nudges it through its OutboxSignal, in its own process directly and in others by NOTIFY
   * `outbox_<schema>` after the commit (`OutboxWakeUp`), which the relay listens to.
   */
  readonly pollMs?: number;
  /** How long a running relay keeps its lock before giving another relay a chance; default 1000. */
  readonly leaseMs?: number;
  /** Commits of this process that the relay should publish at once (it is nudged while it runs). */
  readonly signal?: OutboxSignal;
}

/**
 * Publishes a service's outbox in order. One relay per schema works at a time (advisory lock), reading the
 * oldest rows, publishing them per topic in sequence order (so per key in order), then deleting them (in the
 * statement of its next read, see `drain`): the
 * outbox is a transit queue (the bus keeps the history), so every read is of the few rows waiting, by primary
 * key, and the table stays small. A crash between publishing and deleting publishes those rows again:
 * duplicates, never losses; consumers deduplicate with `handleOnce`.
 */
export class OutboxRelay {
  private running: Promise<void> | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;
  private nudged = false;
  private listening: Listening | undefined;

  constructor(
    private readonly database: Database,
    private readonly bus: EventBus,
    private readonly options: OutboxRelayOptions,
  ) {}

  private get lockName(): string {
    return `outbox:${this.options.schema}`;
  }

  /** Publishes one batch; returns how many rows it published. */
  drainOnce(): Promise<number> {
    return this.database.withLock(this.lockName, async (db) => {
      const published = await this.drain(db, []);
      await this.forget(db, published);
      return published.length;
    });
  }

  /**
   * One batch on a connection that holds the relay lock: read, publish in order. Returns the `seq` of the rows
   * it published, which the caller deletes: in the same statement as the next read when the relay keeps
   * going (`done`, the rows the previous batch published, are deleted and skipped by this read), so a busy
   * relay spends one statement per batch instead of two.
   */
  private async drain(db: Pick<Database, 'query'>, done: readonly string[]): Promise<string[]> {
    const outbox = table(this.options.schema, 'outbox');
    const limit = this.options.batchSize ?? 500;
    type Row = { seq: string; topic: string; envelope: EventEnvelope | string };
    // A data-modifying CTE and the main query see the same snapshot: the read must skip `done` itself.
    const rows =
      done.length === 0
        ? await db.query<Row>(`SELECT "seq", "topic", "envelope" FROM ${outbox} ORDER BY "seq" LIMIT $1`, [
            limit,
          ])
        : await db.query<Row>(
            `WITH "gone" AS (DELETE FROM ${outbox} WHERE "seq" = ANY($2::bigint[]))
             SELECT "seq", "topic", "envelope" FROM ${outbox} WHERE NOT ("seq" = ANY($2::bigint[]))
             ORDER BY "seq" LIMIT $1`,
            [limit, done],
          );
    if (rows.length === 0) return [];
    const byTopic = new Map<string, EventEnvelope[]>();
    for (const row of rows) {
      const envelope =
        typeof row.envelope === 'string' ? (JSON.parse(row.envelope) as EventEnvelope) : row.envelope;
      const events = byTopic.get(row.topic);
      if (events) events.push(envelope);
      else byTopic.set(row.topic, [envelope]);
    }
    for (const [topic, events] of byTopic) await this.bus.publish(topic, events);
    return rows.map((r) => r.seq);
  }

  /** Deletes rows already published. */
  private async forget(db: Pick<Database, 'query'>, published: readonly string[]): Promise<void> {
    if (published.length === 0) return;
    const outbox = table(this.options.schema, 'outbox');
    await db.query(`DELETE FROM ${outbox} WHERE "seq" = ANY($1::bigint[])`, [published]);
  }

  /** Waits `ms`, or less when the relay is stopped or nudged meanwhile. */
  private pause(ms: number): Promise<void> {
    if (this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        this.wake = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /**
   * New rows were just committed in this process: drain now instead of at the next poll. A nudge during a
   * drain makes the relay look again right after it. Rows written by other processes wait for the poll.
   */
  nudge(): void {
    if (this.stopped) return;
    if (this.wake) this.wake();
    else this.nudged = true;
  }

  /**
   * Polls until stopped; a full batch is followed at once by the next. The relay keeps its lock (and its
   * connection) for a lease of `leaseMs` (default 1 s) and polls under it, so a batch costs no lock round
   * trips; between leases another relay of the same schema may take over. An error (the connection died)
   * ends the lease; the relay tries again a second later.
   */
  start(): void {
    this.options.signal?.listen(() => this.nudge());
    this.listening = this.database.listen(outboxChannel(this.options.schema), () => this.nudge());
    const batchSize = this.options.batchSize ?? 500;
    const pollMs = this.options.pollMs ?? 1000;
    const leaseMs = this.options.leaseMs ?? 1000;
    const lease = async (db: Pick<Database, 'query'>): Promise<void> => {
      const until = Date.now() + leaseMs;
      // Published rows wait to be deleted by the next read (see `drain`), at most until the lease ends: a
      // crash meanwhile publishes them again, which consumers deduplicate, as after any crash.
      let published: string[] = [];
      while (!this.stopped && Date.now() < until) {
        published = await this.drain(db, published);
        if (published.length < batchSize && !this.stopped) await this.pause(pollMs);
      }
      await this.forget(db, published);
    };
    this.running = (async () => {
      while (!this.stopped) {
        try {
          await this.database.withLock(this.lockName, lease);
        } catch {
          if (!this.stopped) await this.pause(1000);
        }
      }
    })();
  }

  /** Stops polling and waits for the batch in flight. */
  async stop(): Promise<void> {
    this.options.signal?.listen(undefined);
    this.stopped = true;
    this.wake?.();
    await this.listening?.stop();
    await this.running;
  }
}
