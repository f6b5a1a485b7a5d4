import { Inject, Injectable } from '@nestjs/common';
import { activeTraceparent } from '@gen/observability';
import { DATABASE, rowJson, type Database } from '@gen/persistence';
import {
  OutboundQueue,
  PROGRESS_COLUMNS,
  progressOfRow,
  type OutboundProgress,
  type OutboundTables,
} from './outbound-queue';
import { WebhooksMigrations } from './webhooks-schema';

/** One task callback delivery: its target, the record it carries, and where its attempts stand. */
export interface DeliveryRow extends OutboundProgress<'pending' | 'delivered' | 'failed'> {
  readonly id: string;
  readonly taskId: string;
  readonly accountId: string;
  readonly url: string;
  readonly payloadVersion: 1 | 2;
  readonly record: Record<string, unknown>;
  /** The trace context it was queued in (tracing on), which its attempts' spans continue. */
  readonly traceparent?: string;
}

const COLUMNS = `"id", "task_id", "account_id", "url", "payload_version", "record", "traceparent", ${PROGRESS_COLUMNS}`;

function rowOf(raw: Record<string, unknown>): DeliveryRow {
  return {
    id: raw['id'] as string,
    taskId: raw['task_id'] as string,
    accountId: raw['account_id'] as string,
    url: raw['url'] as string,
    payloadVersion: Number(raw['payload_version']) === 1 ? 1 : 2,
    record: rowJson<Record<string, unknown>>(raw['record'])!,
    ...(raw['traceparent'] ? { traceparent: raw['traceparent'] as string } : {}),
    ...progressOfRow<DeliveryRow['state']>(raw),
  };
}

const TABLES: OutboundTables = {
  rows: '"webhooks"."deliveries"',
  attempts: '"webhooks"."attempts"',
  ref: '"delivery_id"',
  columns: COLUMNS,
};

/**
 * Data access of task callback deliveries. Attempts are rows, and a delivery's schedule lives in the database,
 * so restarts lose nothing; a claimed delivery is leased, so replicas never send one twice at once.
 */
@Injectable()
export class DeliveryRepository extends OutboundQueue<DeliveryRow> {
  constructor(
    @Inject(DATABASE) db: Database,
    // Injected so that the schema's migrations have run before the first query.
    readonly migrations: WebhooksMigrations,
  ) {
    super(db, TABLES, rowOf);
  }

  /**
   * Queues the callback of a task, once per task (a redelivered event changes nothing), with the active trace
   * context (tracing on: the consumption of the event).
   */
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
         ("id", "task_id", "account_id", "url", "payload_version", "record", "state", "next_attempt_at", "created_at",
          "traceparent")
       VALUES ($1, $2, $3, $4, $5, $6::json, 'pending', $7, $7, $8)
       ON CONFLICT ("task_id") DO NOTHING RETURNING 1 AS "new"`,
      [
        row.id,
        row.taskId,
        row.accountId,
        row.url,
        row.payloadVersion,
        JSON.stringify(row.record),
        row.now,
        activeTraceparent() ?? null,
      ],
    );
    return rows.length > 0;
  }

  /** The deliveries of a task: of any account (administration, `accountId` null) or of one (the console). */
  async findByTask(taskId: string, accountId: string | null = null): Promise<DeliveryRow[]> {
    const rows =
      accountId === null
        ? await this.db.query(
            `SELECT ${COLUMNS} FROM "webhooks"."deliveries" WHERE "task_id" = $1 ORDER BY "created_at" LIMIT 100`,
            [taskId],
          )
        : await this.db.query(
            `SELECT ${COLUMNS} FROM "webhooks"."deliveries" WHERE "task_id" = $1 AND "account_id" = $2
             ORDER BY "created_at" LIMIT 100`,
            [taskId, accountId],
          );
    return rows.map(rowOf);
  }
}
