import { GroupCommit, rowDate, rowOptionalDate, type Database } from '@gen/persistence';

/**
 * The tables of one kind of outbound delivery (task callbacks, endpoint messages): a row per delivery with
 * its state and next attempt time (`state`, `attempts`, `next_attempt_at`, `last_attempt_at`, `last_outcome`,
 * `delivered_at`), and a row per attempt keyed by the delivery's id and the attempt number.
 */
export interface OutboundTables {
  /** The delivery rows, e.g. `"webhooks"."deliveries"`. */
  readonly rows: string;
  /** Their attempts, e.g. `"webhooks"."attempts"`. */
  readonly attempts: string;
  /** The column of `attempts` that holds the delivery id, e.g. `"delivery_id"`. */
  readonly ref: string;
  /** The columns `rowOf` reads. */
  readonly columns: string;
}

/** Where the attempts of one delivery stand: the columns every delivery kind has, besides its `state`. */
export interface OutboundProgress<State extends string> {
  readonly state: State;
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly lastOutcome: string | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
}

/** The columns `progressOfRow` reads, for a kind's column list. */
export const PROGRESS_COLUMNS = `"state", "attempts", "next_attempt_at", "last_outcome", "created_at", "delivered_at"`;

export function progressOfRow<State extends string>(raw: Record<string, unknown>): OutboundProgress<State> {
  return {
    state: raw['state'] as State,
    attempts: Number(raw['attempts']),
    nextAttemptAt: rowOptionalDate(raw['next_attempt_at']),
    lastOutcome: (raw['last_outcome'] as string | null) ?? null,
    createdAt: rowDate(raw['created_at']),
    deliveredAt: rowOptionalDate(raw['delivered_at']),
  };
}

/** One attempt and the delivery's next step. `nextAttemptAt` null: no further automatic attempt. */
export interface AttemptRecord {
  readonly id: string;
  readonly n: number;
  readonly at: Date;
  readonly outcome: string;
  readonly status?: number;
  readonly detail?: string;
  readonly durationMs: number;
  readonly delivered: boolean;
  readonly nextAttemptAt: Date | null;
}

export interface AttemptLogEntry {
  readonly n: number;
  readonly attemptedAt: Date;
  readonly outcome: string;
  readonly status: number | null;
  /** The error's class of a failure without an answer (ECONNREFUSED, ETIMEDOUT, ...): never an address. */
  readonly error: string | null;
  readonly durationMs: number;
}

/** The error code in an attempt's detail (Node's `E...` codes, undici's `UND_ERR_...`), or null. */
export function errorClassOf(detail: string | null | undefined): string | null {
  return /\b(E[A-Z][A-Z0-9_]+|UND_ERR_[A-Z_]+|ERR_[A-Z_]+)\b/.exec(detail ?? '')?.[1] ?? null;
}

/**
 * What the two delivery kinds share: leased claims of due rows, attempt records, the attempt log and manual
 * redelivery (each kind's repository extends it). The schedule lives in the rows, so a restart loses nothing,
 * and a claim leases the rows (`FOR UPDATE SKIP LOCKED`), so replicas never send one delivery twice at once.
 *
 * Attempt records are group-committed: the first is written at once, and those that finish while a write is
 * under way are written together by the next one (one statement for up to 500), so a busy worker spends a
 * statement per group instead of one per attempt, and an idle one waits for nothing.
 */
export class OutboundQueue<Row> {
  private readonly attemptRecords = new GroupCommit<AttemptRecord, void>({
    many: async (group) => {
      await this.recordMany(group);
      return group.map(() => undefined);
    },
    one: (attempt) => this.recordOne(attempt),
    // Two attempts of one delivery are written in the order they were made.
    keyOf: (attempt) => attempt.id,
  });

  constructor(
    protected readonly db: Database,
    private readonly tables: OutboundTables,
    private readonly rowOf: (raw: Record<string, unknown>) => Row,
  ) {}

  /**
   * Claims up to `limit` due deliveries: their next attempt moves `leaseMs` ahead, so another replica (or this
   * one) does not take them again while they are being sent; the attempt's result replaces it.
   */
  async claimDue(now: Date, leaseMs: number, limit: number): Promise<Row[]> {
    const { rows, columns } = this.tables;
    const claimed = await this.db.query(
      `UPDATE ${rows} SET "next_attempt_at" = $2
       WHERE "id" IN (
         SELECT "id" FROM ${rows}
         WHERE "state" = 'pending' AND "next_attempt_at" <= $1
         ORDER BY "next_attempt_at" LIMIT $3 FOR UPDATE SKIP LOCKED
       )
       RETURNING ${columns}`,
      [now, new Date(now.getTime() + leaseMs), limit],
    );
    return claimed.map(this.rowOf);
  }

  /**
   * Records an attempt and the delivery's new state, atomically; resolves once it is committed. `also` adds
   * data-modifying CTEs to the attempt's own statement (its parameters follow the nine of the attempt, from
   * `$10`); attempts without it are group-committed. A delivery dropped meanwhile stays dropped unless this
   * attempt delivered it.
   */
  recordAttempt(attempt: AttemptRecord, also?: { ctes: string; params: unknown[] }): Promise<void> {
    return also ? this.recordOne(attempt, also) : this.attemptRecords.run(attempt);
  }

  /** `recordOne` for several deliveries at once, in one statement. */
  private async recordMany(group: readonly AttemptRecord[]): Promise<void> {
    const { rows, attempts, ref } = this.tables;
    const column = <T>(pick: (a: AttemptRecord) => T) => group.map(pick);
    await this.db.query(
      `WITH "a" AS (
         SELECT "id", "n"::int AS "n", "at"::timestamptz AS "at", "outcome", "status"::int AS "status", "detail",
                "duration_ms"::int AS "duration_ms", "delivered"::boolean AS "delivered",
                "next_at"::timestamptz AS "next_at"
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::text[])
           AS u("id", "n", "at", "outcome", "status", "detail", "duration_ms", "delivered", "next_at")
       ), "attempt" AS (
         INSERT INTO ${attempts} (${ref}, "n", "attempted_at", "outcome", "status", "detail", "duration_ms")
         SELECT "id", "n", "at", "outcome", "status", "detail", "duration_ms" FROM "a"
       )
       UPDATE ${rows} AS r SET
         "attempts" = a."n", "last_attempt_at" = a."at", "last_outcome" = a."outcome",
         "state" = CASE WHEN a."delivered" THEN 'delivered' WHEN r."state" = 'dropped' THEN 'dropped'
                        WHEN a."next_at" IS NULL THEN 'failed' ELSE 'pending' END,
         "next_attempt_at" = CASE WHEN r."state" = 'dropped' THEN NULL ELSE a."next_at" END,
         "delivered_at" = CASE WHEN a."delivered" THEN a."at" ELSE r."delivered_at" END
       FROM "a" WHERE r."id" = a."id"`,
      [
        column((a) => a.id),
        column((a) => String(a.n)),
        column((a) => a.at.toISOString()),
        column((a) => a.outcome),
        column((a) => (a.status === undefined ? null : String(a.status))),
        column((a) => a.detail ?? null),
        column((a) => String(a.durationMs)),
        column((a) => String(a.delivered)),
        column((a) => a.nextAttemptAt?.toISOString() ?? null),
      ],
    );
  }

  private async recordOne(attempt: AttemptRecord, also?: { ctes: string; params: unknown[] }): Promise<void> {
    const { rows, attempts, ref } = this.tables;
    await this.db.query(
      `WITH "attempt" AS (
         INSERT INTO ${attempts} (${ref}, "n", "attempted_at", "outcome", "status", "detail", "duration_ms")
         VALUES ($1, $2, $3, $4, $5, $6, $7)
       )${also ? `, ${also.ctes}` : ''}
       UPDATE ${rows} SET
         "attempts" = $2, "last_attempt_at" = $3, "last_outcome" = $4,
         "state" = CASE WHEN $8 THEN 'delivered' WHEN "state" = 'dropped' THEN 'dropped'
                        WHEN $9::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
         "next_attempt_at" = CASE WHEN "state" = 'dropped' THEN NULL ELSE $9::timestamptz END,
         "delivered_at" = CASE WHEN $8 THEN $3 ELSE "delivered_at" END
       WHERE "id" = $1`,
      [
        attempt.id,
        attempt.n,
        attempt.at,
        attempt.outcome,
        attempt.status ?? null,
        attempt.detail ?? null,
        attempt.durationMs,
        attempt.delivered,
        attempt.nextAttemptAt,
        ...(also?.params ?? []),
      ],
    );
  }

  /**
   * Deliveries still to send (`pending`: neither delivered, failed for good nor dropped), and those of them
   * whose last attempt failed and wait for a retry. One statement over the due index; read on scrape.
   */
  async backlog(): Promise<{ pending: number; failing: number }> {
    const [row] = await this.db.query<{ pending: number | string; failing: number | string }>(
      `SELECT count(*)::int AS "pending", (count(*) FILTER (WHERE "attempts" > 0))::int AS "failing"
       FROM ${this.tables.rows} WHERE "state" = 'pending'`,
    );
    return { pending: Number(row?.pending ?? 0), failing: Number(row?.failing ?? 0) };
  }

  async attemptsOf(id: string): Promise<AttemptLogEntry[]> {
    const { attempts, ref } = this.tables;
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT "n", "attempted_at", "outcome", "status", "detail", "duration_ms" FROM ${attempts}
       WHERE ${ref} = $1 ORDER BY "n"`,
      [id],
    );
    return rows.map((r) => ({
      n: Number(r['n']),
      attemptedAt: rowDate(r['attempted_at']),
      outcome: r['outcome'] as string,
      status: r['status'] === null ? null : Number(r['status']),
      error: errorClassOf(r['detail'] as string | null),
      durationMs: Number(r['duration_ms']),
    }));
  }

  /**
   * Manual redelivery: the same delivery (same id, same content) is due again now, whatever its state.
   * `accountId`: only a delivery of that account (the console); null: any (administration).
   */
  async redeliver(id: string, now: Date, accountId: string | null = null): Promise<Row | null> {
    const { rows, columns } = this.tables;
    const updated =
      accountId === null
        ? await this.db.query(
            `UPDATE ${rows} SET "state" = 'pending', "next_attempt_at" = $2 WHERE "id" = $1 RETURNING ${columns}`,
            [id, now],
          )
        : await this.db.query(
            `UPDATE ${rows} SET "state" = 'pending', "next_attempt_at" = $2
             WHERE "id" = $1 AND "account_id" = $3 RETURNING ${columns}`,
            [id, now, accountId],
          );
    return updated[0] ? this.rowOf(updated[0]) : null;
  }
}
