import { Inject, Injectable } from '@nestjs/common';
import { activeTraceparent } from '@gen/observability';
import { DATABASE, type Database } from '@gen/persistence';
import { DISABLED_GONE_410 } from '../domain/endpoint';
import {
  OutboundQueue,
  PROGRESS_COLUMNS,
  progressOfRow,
  type AttemptRecord,
  type OutboundProgress,
  type OutboundTables,
} from './outbound-queue';
import { WebhooksMigrations } from './webhooks-schema';

/**
 * `dropped`: not sent (further) because its endpoint was disabled or deleted; `failed`: its endpoint answered
 * 410, or the retry schedule ran out.
 */
export type MessageState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** One message to an account-level endpoint: the exact body every attempt sends, and where its attempts stand. */
export interface MessageRow extends OutboundProgress<MessageState> {
  /** `msg_`: the `webhook-id` of every attempt. */
  readonly id: string;
  readonly endpointId: string;
  readonly accountId: string;
  readonly taskId: string;
  readonly eventType: string;
  readonly body: string;
  /** The trace context it was queued in (tracing on), which its attempts' spans continue. */
  readonly traceparent?: string;
}

export type NewMessage = Pick<
  MessageRow,
  'id' | 'endpointId' | 'accountId' | 'taskId' | 'eventType' | 'body'
>;

/** How an attempt leaves the endpoint: its failure count reset, counted up, or the endpoint disabled (410). */
export type EndpointEffect = 'delivered' | 'failed' | 'gone';

const COLUMNS = `"id", "endpoint_id", "account_id", "task_id", "event_type", "body", "traceparent", ${PROGRESS_COLUMNS}`;

const TABLES: OutboundTables = {
  rows: '"webhooks"."messages"',
  attempts: '"webhooks"."message_attempts"',
  ref: '"message_id"',
  columns: COLUMNS,
};

function rowOf(raw: Record<string, unknown>): MessageRow {
  return {
    id: raw['id'] as string,
    endpointId: raw['endpoint_id'] as string,
    accountId: raw['account_id'] as string,
    taskId: raw['task_id'] as string,
    eventType: raw['event_type'] as string,
    body: raw['body'] as string,
    ...(raw['traceparent'] ? { traceparent: raw['traceparent'] as string } : {}),
    ...progressOfRow<MessageState>(raw),
  };
}

/** Data access of endpoint messages and their attempts (the schedule and leases of `OutboundQueue`). */
@Injectable()
export class MessageRepository extends OutboundQueue<MessageRow> {
  constructor(
    @Inject(DATABASE) db: Database,
    // Injected so that the schema's migrations have run before the first query.
    readonly migrations: WebhooksMigrations,
  ) {
    super(db, TABLES, rowOf);
  }

  /**
   * Queues messages due now, at most one per endpoint and task (a redelivered event queues nothing new),
   * with the active trace context (tracing on: the consumption of the event). Returns how many were new.
   */
  async enqueue(messages: readonly NewMessage[], now: Date): Promise<number> {
    if (messages.length === 0) return 0;
    const column = (name: keyof NewMessage) => messages.map((m) => m[name]);
    const rows = await this.db.query(
      `INSERT INTO "webhooks"."messages"
         ("id", "endpoint_id", "account_id", "task_id", "event_type", "body", "state", "next_attempt_at", "created_at",
          "traceparent")
       SELECT m."id", m."endpoint_id", m."account_id", m."task_id", m."event_type", m."body", 'pending', $7, $7, $8
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
         AS m("id", "endpoint_id", "account_id", "task_id", "event_type", "body")
       ON CONFLICT ("endpoint_id", "task_id") DO NOTHING RETURNING 1 AS "new"`,
      [
        column('id'),
        column('endpointId'),
        column('accountId'),
        column('taskId'),
        column('eventType'),
        column('body'),
        now,
        activeTraceparent() ?? null,
      ],
    );
    return rows.length;
  }

  /**
   * Records an attempt with its effect on the endpoint, in one statement: delivered resets the endpoint's
   * `consecutive_failures`, failed counts it up, and gone (410) disables the endpoint (`gone_410`) and drops
   * every other pending message of it.
   */
  recordAttemptOn(message: MessageRow, attempt: AttemptRecord, effect: EndpointEffect): Promise<void> {
    return this.recordAttempt(attempt, {
      ctes: `"endpoint" AS (
         UPDATE "webhooks"."endpoints" SET
           "consecutive_failures" = CASE $12::text WHEN 'delivered' THEN 0 WHEN 'failed' THEN "consecutive_failures" + 1
                                    ELSE "consecutive_failures" END,
           "status" = CASE WHEN $12::text = 'gone' THEN 'disabled' ELSE "status" END,
           "disabled_reason" = CASE WHEN $12::text = 'gone' THEN $13 ELSE "disabled_reason" END,
           "updated_at" = CASE WHEN $12::text = 'gone' THEN $3 ELSE "updated_at" END
         WHERE "account_id" = $10 AND "id" = $11
       ), "dropped" AS (
         UPDATE "webhooks"."messages" SET "state" = 'dropped', "next_attempt_at" = NULL, "last_outcome" = $13
         WHERE $12::text = 'gone' AND "endpoint_id" = $11 AND "state" = 'pending' AND "id" <> $1
       )`,
      params: [message.accountId, message.endpointId, effect, DISABLED_GONE_410],
    });
  }

  /** Drops a message unsent (its endpoint is disabled or gone): `outcome` says why. */
  async drop(id: string, outcome: string): Promise<void> {
    await this.db.query(
      `UPDATE "webhooks"."messages" SET "state" = 'dropped', "next_attempt_at" = NULL, "last_outcome" = $2
       WHERE "id" = $1 AND "state" = 'pending'`,
      [id, outcome],
    );
  }

  /** The messages of a task, oldest first: of any account (administration, `accountId` null) or of one. */
  async findByTask(taskId: string, accountId: string | null = null): Promise<MessageRow[]> {
    const rows =
      accountId === null
        ? await this.db.query(
            `SELECT ${COLUMNS} FROM "webhooks"."messages" WHERE "task_id" = $1 ORDER BY "created_at", "id" LIMIT 100`,
            [taskId],
          )
        : await this.db.query(
            `SELECT ${COLUMNS} FROM "webhooks"."messages" WHERE "task_id" = $1 AND "account_id" = $2
             ORDER BY "created_at", "id" LIMIT 100`,
            [taskId, accountId],
          );
    return rows.map(rowOf);
  }

  /** The latest messages of one endpoint of this account, newest first. */
  async recentForEndpoint(accountId: string, endpointId: string, limit: number): Promise<MessageRow[]> {
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM "webhooks"."messages" WHERE "account_id" = $1 AND "endpoint_id" = $2
       ORDER BY "created_at" DESC, "id" DESC LIMIT $3`,
      [accountId, endpointId, limit],
    );
    return rows.map(rowOf);
  }
}
