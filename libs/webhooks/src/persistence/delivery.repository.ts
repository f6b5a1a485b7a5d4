import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, rowDate, rowJson, rowOptionalDate, type Database } from '@gen/persistence';
import { WebhooksPrisma } from './webhooks-prisma';

/** One task callback delivery: its target, the record it carries, and where its attempts stand. */
export interface DeliveryRow {
  readonly id: string;
  readonly taskId: string;
  readonly accountId: string;
  readonly url: string;
  readonly payloadVersion: 1 | 2;
  readonly record: Record<string, unknown>;
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly lastOutcome: string | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
}

const COLUMNS = `"id", "task_id", "account_id", "url", "payload_version", "record", "state", "attempts",
  "next_attempt_at", "last_outcome", "created_at", "delivered_at"`;

function rowOf(raw: Record<string, unknown>): DeliveryRow {
  return {
    id: raw['id'] as string,
    taskId: raw['task_id'] as string,
    accountId: raw['account_id'] as string,
    url: raw['url'] as string,
    payloadVersion: Number(raw['payload_version']) === 1 ? 1 : 2,
    record: rowJson<Record<string, unknown>>(raw['record'])!,
    state: raw['state'] as DeliveryRow['state'],
    attempts: Number(raw['attempts']),
    nextAttemptAt: rowOptionalDate(raw['next_attempt_at']),
    lastOutcome: (raw['last_outcome'] as string | null) ?? null,
    createdAt: rowDate(raw['created_at']),
    deliveredAt: rowOptionalDate(raw['delivered_at']),
  };
}

/**
 * Data access of the webhooks schema. Attempts are rows, and a delivery's schedule lives in the database, so
 * restarts lose nothing; a claimed delivery is leased, so replicas never send one twice at once.
 */
@Injectable()
export class DeliveryRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    // Injected so that the schema's migrations have run before the first query.
    readonly prisma: WebhooksPrisma,
  ) {}

  /** Queues the callback of a task, once per task (a redelivered event changes nothing). */
  async enqueue(row: {
    id: string;
    taskId: string;
    accountId: string;
    url: string;
    payloadVersion: 1 | 2;
    record: Record<string, unknown>;
    now: Date;
  }): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO "webhooks"."deliveries"
         ("id", "task_id", "account_id", "url", "payload_version", "record", "state", "next_attempt_at", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6::json, 'pending', $7, $7)
       ON CONFLICT ("task_id") DO NOTHING RETURNING 1 AS "new"`,
      [row.id, row.taskId, row.accountId, row.url, row.payloadVersion, JSON.stringify(row.record), row.now],
    );
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` due deliveries: their next attempt moves `leaseMs` ahead, so another replica (or this
   * one) does not take them again while they are being sent; the attempt's result replaces it.
   */
  async claimDue(now: Date, leaseMs: number, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db.query(
      `UPDATE "webhooks"."deliveries" SET "next_attempt_at" = $2
       WHERE "id" IN (
         SELECT "id" FROM "webhooks"."deliveries"
         WHERE "state" = 'pending' AND "next_attempt_at" <= $1
         ORDER BY "next_attempt_at" LIMIT $3 FOR UPDATE SKIP LOCKED
       )
       RETURNING ${COLUMNS}`,
      [now, new Date(now.getTime() + leaseMs), limit],
    );
    return rows.map(rowOf);
  }

  /** Records an attempt and the delivery's new state in one statement. */
  async recordAttempt(attempt: {
    deliveryId: string;
    n: number;
    at: Date;
    outcome: string;
    status?: number;
    detail?: string;
    durationMs: number;
    delivered: boolean;
    nextAttemptAt: Date | null;
  }): Promise<void> {
    await this.db.query(
      `WITH "attempt" AS (
         INSERT INTO "webhooks"."attempts" ("delivery_id", "n", "attempted_at", "outcome", "status", "detail", "duration_ms")
         VALUES ($1, $2, $3, $4, $5, $6, $7)
       )
       UPDATE "webhooks"."deliveries" SET
         "attempts" = $2, "last_attempt_at" = $3, "last_outcome" = $4,
         "state" = CASE WHEN $8 THEN 'delivered' WHEN $9::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
         "next_attempt_at" = $9::timestamptz,
         "delivered_at" = CASE WHEN $8 THEN $3 ELSE "delivered_at" END
       WHERE "id" = $1`,
      [
        attempt.deliveryId,
        attempt.n,
        attempt.at,
        attempt.outcome,
        attempt.status ?? null,
        attempt.detail ?? null,
        attempt.durationMs,
        attempt.delivered,
        attempt.nextAttemptAt,
      ],
    );
  }

  /** The deliveries of a task (administration). */
  async findByTask(taskId: string): Promise<DeliveryRow[]> {
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM "webhooks"."deliveries" WHERE "task_id" = $1 ORDER BY "created_at" LIMIT 100`,
      [taskId],
    );
    return rows.map(rowOf);
  }

  async attemptsOf(
    deliveryId: string,
  ): Promise<{ n: number; attemptedAt: Date; outcome: string; status: number | null; durationMs: number }[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT "n", "attempted_at", "outcome", "status", "duration_ms" FROM "webhooks"."attempts"
       WHERE "delivery_id" = $1 ORDER BY "n"`,
      [deliveryId],
    );
    return rows.map((r) => ({
      n: Number(r['n']),
      attemptedAt: rowDate(r['attempted_at']),
      outcome: r['outcome'] as string,
      status: r['status'] === null ? null : Number(r['status']),
      durationMs: Number(r['duration_ms']),
    }));
  }

  /** Manual redelivery: the same delivery (same id, same record) is due again now, whatever its state. */
  async redeliver(id: string, now: Date): Promise<DeliveryRow | null> {
    const rows = await this.db.query(
      `UPDATE "webhooks"."deliveries" SET "state" = 'pending', "next_attempt_at" = $2 WHERE "id" = $1
       RETURNING ${COLUMNS}`,
      [id, now],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }
}
