import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, GroupCommit, rowBigint, type Database } from '@gen/persistence';
import type { TaskState } from '../domain/task-state';
import { TASK_COLUMNS, taskRowOf, type TaskRow } from './task-row';
import { OutboxSignal, outboxRows, type OutgoingEvent } from '@gen/messaging';
import { TasksMigrations } from './tasks-schema';

/** A stream lease as it is written with its task: who holds it, for how long from now. */
export interface StreamLease {
  readonly owner: string;
  readonly leaseMs: number;
}

export interface IdempotencyRecord {
  readonly keyId: string;
  readonly fingerprint: string;
  readonly taskId: string;
}

/** Events written with a change, in their order: built by `newEvent`, so checked against the event map. */
export type OutboxEvents = readonly OutgoingEvent[];

/** What a transition sets; the rest of the row stays. */
export interface TaskChange {
  readonly state: TaskState;
  readonly startedAt?: Date;
  readonly completedAt?: Date;
  readonly errorCode?: string;
  readonly assets?: unknown;
  readonly usage?: unknown;
  readonly textOutput?: unknown;
  readonly costE9?: bigint;
}

/**
 * The outbox rows of a statement whose first CTE is "task": one row per event, in their order (so `seq`
 * follows it), each on its type's topic, and none when "task" is empty. Parameters from `first`: ids, topics,
 * keys, envelopes.
 */
const OUTBOX_INSERT = (first: number): string =>
  `INSERT INTO "tasks"."outbox" ("id", "topic", "key", "envelope")
   SELECT e."id", e."topic", e."key", e."envelope"::json
   FROM unnest($${first}::text[], $${first + 1}::text[], $${first + 2}::text[], $${first + 3}::text[]) WITH ORDINALITY
     AS e("id", "topic", "key", "envelope", "n")
   WHERE EXISTS (SELECT 1 FROM "task")
   ORDER BY e."n"`;

const outboxParams = (outbox: OutboxEvents): unknown[] => {
  const rows = outboxRows(outbox);
  return [rows.ids, rows.topics, rows.keys, rows.envelopes];
};

/** One accepted task to insert, with its events and, for a stream, its lease. */
interface TaskInsert {
  readonly task: TaskRow;
  readonly outbox: OutboxEvents;
  readonly lease?: StreamLease;
}

/** One transition to apply (see `TaskRepository.transition`). */
interface TaskTransition {
  readonly taskId: string;
  readonly from: readonly TaskState[];
  readonly change: TaskChange;
  readonly outbox: OutboxEvents;
  readonly forget: boolean;
  readonly settled: boolean;
}

/** A stream lease a sweeper claimed, with what it must know of its task (null fields: the task is gone). */
export interface LapsedStreamLease {
  readonly taskId: string;
  readonly state: TaskState | null;
  readonly requestId: string | null;
  readonly settled: boolean;
  readonly costE9: bigint | null;
}

/** A task as the final report of its run finds it. */
export interface ReportedTask {
  readonly task: TaskRow;
  /** It has a stream lease: a text task streamed to a client (see `ApplyExecutionUseCase`). */
  readonly streamed: boolean;
}

/** The SQL type of each value of `taskValues`, in TASK_COLUMNS order (json travels as text). */
const TASK_INSERT_TYPES = [
  'text',
  'text',
  'text',
  'text',
  'text',
  'json',
  'text',
  'bigint',
  'text',
  'bigint',
  'boolean',
  'text',
  'json',
  'json',
  'json',
  'text',
  'text',
  'int',
  'timestamptz',
  'timestamptz',
  'timestamptz',
  'timestamptz',
  'timestamptz',
] as const;

/** A task's values in TASK_COLUMNS order, as statement parameters. */
function taskValues(task: TaskRow): unknown[] {
  return [
    task.id,
    task.accountId,
    task.keyId,
    task.model,
    task.state,
    task.input === null ? null : JSON.stringify(task.input),
    task.callbackUrl,
    task.estimatedE9.toString(),
    task.priceMultiplier,
    task.costE9?.toString() ?? null,
    task.settled,
    task.errorCode,
    task.assets === null ? null : JSON.stringify(task.assets),
    task.usage === null ? null : JSON.stringify(task.usage),
    task.textOutput === null ? null : JSON.stringify(task.textOutput),
    task.requestId,
    task.sourceTaskId,
    task.retentionSeconds,
    task.createdAt.toISOString(),
    task.startedAt?.toISOString() ?? null,
    task.completedAt?.toISOString() ?? null,
    task.deadlineAt.toISOString(),
    task.purgedAt?.toISOString() ?? null,
  ];
}

/** What a transition sets, as statement parameters: state, started, completed, error, assets, usage, cost, text. */
function changeValues(change: TaskChange): unknown[] {
  return [
    change.state,
    change.startedAt?.toISOString() ?? null,
    change.completedAt?.toISOString() ?? null,
    change.errorCode ?? null,
    change.assets === undefined ? null : JSON.stringify(change.assets),
    change.usage === undefined ? null : JSON.stringify(change.usage),
    change.costE9?.toString() ?? null,
    change.textOutput === undefined ? null : JSON.stringify(change.textOutput),
  ];
}

/**
 * Data access of the tasks schema, in SQL on the process's database (the hot path of createTask is two short
 * statements). Reads a client can cause are scoped by account and key, so another tenant's task is never read.
 */
@Injectable()
export class TaskRepository {
  /**
   * Reads by id that arrive together (every text answer's final report reads its task) share one statement;
   * the first of an idle moment goes alone at once, so nobody waits for a group.
   */
  private readonly reads = new GroupCommit<string, TaskRow | null>({
    many: async (ids) => {
      const rows = await this.db.query(
        `SELECT ${TASK_COLUMNS} FROM "tasks"."tasks" WHERE "id" = ANY($1::text[])`,
        [ids],
      );
      const byId = new Map(rows.map((row) => taskRowOf(row)).map((task) => [task.id, task]));
      return ids.map((id) => byId.get(id) ?? null);
    },
  });

  /** Reads of a task with its stream lease's presence, for the final reports of runs (see `reads`). */
  private readonly reportReads = new GroupCommit<string, ReportedTask | null>({
    many: async (ids) => {
      const rows = await this.db.query(
        `SELECT ${TASK_COLUMNS.replace(/"([a-z_0-9]+)"/g, 't."$1"')},
                EXISTS (SELECT 1 FROM "tasks"."stream_leases" l WHERE l."task_id" = t."id") AS "streamed"
         FROM "tasks"."tasks" t WHERE t."id" = ANY($1::text[])`,
        [ids],
      );
      const byId = new Map(
        rows.map((row): [string, ReportedTask] => {
          const task = taskRowOf(row);
          return [task.id, { task, streamed: row['streamed'] === true }];
        }),
      );
      return ids.map((id) => byId.get(id) ?? null);
    },
  });

  /** Settlements recorded together share one statement (see `reads`). */
  private readonly settlements = new GroupCommit<{ taskId: string; costE9: bigint }, boolean>({
    many: async (items) => {
      const rows = await this.db.query<{ id: string }>(
        `WITH "settled" AS (
           UPDATE "tasks"."tasks" AS t SET "settled" = true, "cost_e9" = s."cost_e9"
           FROM unnest($1::text[], $2::bigint[]) AS s("id", "cost_e9")
           WHERE t."id" = s."id" AND t."settled" = false
           RETURNING t."id"
         ), "unleased" AS (
           DELETE FROM "tasks"."stream_leases" l USING "settled" WHERE l."task_id" = "settled"."id"
         )
         SELECT "id" FROM "settled"`,
        [items.map((i) => i.taskId), items.map((i) => i.costE9.toString())],
      );
      const done = new Set(rows.map((row) => row.id));
      return items.map((i) => done.has(i.taskId));
    },
    keyOf: (item) => item.taskId,
  });

  /** Inserts that arrive together share one statement (see `insert`). */
  private readonly inserts = new GroupCommit<TaskInsert, void>({
    many: (inserts) => this.insertMany(inserts),
    keyOf: (insert) => insert.task.id,
  });

  /** Transitions that arrive together share one statement (see `transition`). */
  private readonly transitions = new GroupCommit<TaskTransition, TaskRow | null>({
    many: (transitions) => this.transitionMany(transitions),
    keyOf: (transition) => transition.taskId,
  });

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    // Injected so that the schema's migrations have run before the first query.
    readonly migrations: TasksMigrations,
    private readonly outboxSignal: OutboxSignal,
  ) {}

  /**
   * Inserts an accepted task and its events in one statement (so in one transaction, and one round trip:
   * a createTask costs as few round trips as possible). A task streamed to a client gets its stream lease in
   * the same statement: there is no moment when it exists without one. Inserts that arrive together share one
   * statement (and one commit); the first of an idle moment goes alone at once.
   */
  async insert(task: TaskRow, outbox: OutboxEvents, lease?: StreamLease): Promise<void> {
    await this.inserts.run({ task, outbox, ...(lease ? { lease } : {}) });
    if (outbox.length > 0) this.outboxSignal.notify();
  }

  /**
   * Several inserts in one statement: all or none (a duplicate id fails the statement, and GroupCommit then
   * writes each alone, so only its own caller fails).
   */
  private async insertMany(inserts: readonly TaskInsert[]): Promise<void[]> {
    const columns: unknown[][] = TASK_INSERT_TYPES.map(() => []);
    for (const { task } of inserts) taskValues(task).forEach((value, i) => columns[i]!.push(value));
    const leased = inserts.filter((i) => i.lease !== undefined);
    const events = inserts.flatMap((i) => i.outbox);
    const leaseAt = TASK_INSERT_TYPES.length + 1;
    const eventsAt = leaseAt + 3;
    await this.db.query(
      `WITH "task" AS (
         INSERT INTO "tasks"."tasks" (${TASK_COLUMNS})
         SELECT ${TASK_INSERT_TYPES.map((type, i) => (type === 'json' ? `r.c${i}::json` : `r.c${i}`)).join(', ')}
         FROM unnest(${TASK_INSERT_TYPES.map((type, i) => `$${i + 1}::${type === 'json' ? 'text' : type}[]`).join(', ')})
           AS r(${TASK_INSERT_TYPES.map((_, i) => `c${i}`).join(', ')})
         RETURNING "id"
       ), "lease" AS (
         INSERT INTO "tasks"."stream_leases" ("task_id", "owner", "lease_until")
         SELECT l."task_id", l."owner", now() + l."ms" * interval '1 millisecond'
         FROM unnest($${leaseAt}::text[], $${leaseAt + 1}::text[], $${leaseAt + 2}::int[]) AS l("task_id", "owner", "ms")
         WHERE EXISTS (SELECT 1 FROM "task")
       )
       ${OUTBOX_INSERT(eventsAt)}`,
      [
        ...columns,
        leased.map((i) => i.task.id),
        leased.map((i) => i.lease!.owner),
        leased.map((i) => i.lease!.leaseMs),
        ...outboxParams(events),
      ],
    );
    return inserts.map(() => undefined);
  }

  /** Extends `owner`'s stream leases of `taskIds` by `leaseMs` from now; the task ids it still holds. */
  async renewStreamLeases(owner: string, taskIds: readonly string[], leaseMs: number): Promise<string[]> {
    if (taskIds.length === 0) return [];
    const rows = await this.db.query<{ task_id: string }>(
      `UPDATE "tasks"."stream_leases" SET "lease_until" = now() + $3::int * interval '1 millisecond'
       WHERE "owner" = $1 AND "task_id" = ANY($2::text[])
       RETURNING "task_id"`,
      [owner, [...taskIds], leaseMs],
    );
    return rows.map((row) => row.task_id);
  }

  /** Deletes `owner`'s stream leases of `taskIds` (a sweeper's claims, once it reported their tasks). */
  async releaseStreamLeases(owner: string, taskIds: readonly string[]): Promise<void> {
    if (taskIds.length === 0) return;
    await this.db.query(
      `DELETE FROM "tasks"."stream_leases" WHERE "owner" = $1 AND "task_id" = ANY($2::text[])`,
      [owner, [...taskIds]],
    );
  }

  /**
   * Claims up to `limit` stream leases that lapsed (their process died, or stopped renewing) for `claimMs`, as
   * `owner` (a sweeper): another sweeper skips them meanwhile, and takes them over if this one dies before it
   * deletes them. Each comes with its task's state and request id (null when the task row is gone).
   */
  async claimLapsedStreamLeases(owner: string, claimMs: number, limit: number): Promise<LapsedStreamLease[]> {
    const rows = await this.db.query<{
      task_id: string;
      state: TaskState | null;
      request_id: string | null;
      settled: boolean | null;
      cost_e9: unknown;
    }>(
      `WITH "claimed" AS (
         UPDATE "tasks"."stream_leases" l
         SET "owner" = $1, "lease_until" = now() + $2::int * interval '1 millisecond'
         FROM (
           SELECT "task_id" FROM "tasks"."stream_leases" WHERE "lease_until" < now()
           ORDER BY "lease_until" LIMIT $3 FOR UPDATE SKIP LOCKED
         ) d
         WHERE l."task_id" = d."task_id"
         RETURNING l."task_id"
       )
       SELECT c."task_id", t."state", t."request_id", t."settled", t."cost_e9"
       FROM "claimed" c LEFT JOIN "tasks"."tasks" t ON t."id" = c."task_id"`,
      [owner, claimMs, limit],
    );
    return rows.map((row) => ({
      taskId: row.task_id,
      state: row.state,
      requestId: row.request_id,
      settled: row.settled === true,
      costE9: row.cost_e9 === null || row.cost_e9 === undefined ? null : rowBigint(row.cost_e9),
    }));
  }

  /**
   * The task if this account's key created it; null otherwise (unknown, other account, other key). `keyId`
   * null: any key of the account (the console).
   */
  async findVisible(taskId: string, accountId: string, keyId: string | null): Promise<TaskRow | null> {
    // Two statement texts rather than `$3 IS NULL OR ...`, so each keeps its own plan on the key index.
    const rows =
      keyId === null
        ? await this.db.query(
            `SELECT ${TASK_COLUMNS} FROM "tasks"."tasks" WHERE "id" = $1 AND "account_id" = $2`,
            [taskId, accountId],
          )
        : await this.db.query(
            `SELECT ${TASK_COLUMNS} FROM "tasks"."tasks" WHERE "id" = $1 AND "account_id" = $2 AND "key_id" = $3`,
            [taskId, accountId, keyId],
          );
    return rows[0] ? taskRowOf(rows[0]) : null;
  }

  /** For event consumers: the task by id (events come from our own services, never from a client). */
  findById(taskId: string): Promise<TaskRow | null> {
    return this.reads.run(taskId);
  }

  /**
   * Claims an idempotency key for a new task: inserted, or taken over when the existing record is older than
   * the window. Returns null when claimed, else the record that holds the key.
   */
  async claimIdempotencyKey(claim: {
    accountId: string;
    scope: string;
    idemKey: string;
    keyId: string;
    fingerprint: string;
    taskId: string;
    now: Date;
    windowStart: Date;
  }): Promise<IdempotencyRecord | null> {
    const claimed = await this.db.query(
      `INSERT INTO "tasks"."idempotency_records" AS r
         ("account_id", "scope", "idem_key", "key_id", "fingerprint", "task_id", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT ("account_id", "scope", "idem_key") DO UPDATE
         SET "key_id" = excluded."key_id", "fingerprint" = excluded."fingerprint",
             "task_id" = excluded."task_id", "created_at" = excluded."created_at"
         WHERE r."created_at" < $8
       RETURNING 1 AS "claimed"`,
      [
        claim.accountId,
        claim.scope,
        claim.idemKey,
        claim.keyId,
        claim.fingerprint,
        claim.taskId,
        claim.now,
        claim.windowStart,
      ],
    );
    if (claimed.length > 0) return null;
    const rows = await this.db.query<{ key_id: string; fingerprint: string; task_id: string }>(
      `SELECT "key_id", "fingerprint", "task_id" FROM "tasks"."idempotency_records"
       WHERE "account_id" = $1 AND "scope" = $2 AND "idem_key" = $3`,
      [claim.accountId, claim.scope, claim.idemKey],
    );
    const row = rows[0];
    // Deleted between the two statements (its request was refused): the caller may try again.
    if (!row) return { keyId: claim.keyId, fingerprint: '', taskId: '' };
    return { keyId: row.key_id, fingerprint: row.fingerprint, taskId: row.task_id };
  }

  /** Gives a claimed key back when its request was refused: a refused request leaves nothing behind. */
  async releaseIdempotencyKey(
    accountId: string,
    scope: string,
    idemKey: string,
    taskId: string,
  ): Promise<void> {
    await this.db.query(
      `DELETE FROM "tasks"."idempotency_records"
       WHERE "account_id" = $1 AND "scope" = $2 AND "idem_key" = $3 AND "task_id" = $4`,
      [accountId, scope, idemKey, taskId],
    );
  }

  /** Deletes idempotency records older than the window. */
  async deleteIdempotencyBefore(before: Date): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM "tasks"."idempotency_records" WHERE "created_at" < $1 RETURNING 1 AS "gone"`,
      [before],
    );
    return rows.length;
  }

  /**
   * Applies a transition once, in one statement: the row is updated only while its state is one of `from`,
   * and the events are written to the outbox only if it was. The events are built beforehand from a snapshot
   * of the task (its identity never changes) and the change. Returns the updated task, or null when the news
   * was stale. Transitions of several tasks that arrive together share one statement (one commit); two of one
   * task never do.
   *
   * `settled`: the caller finished the task's hold beforehand (a streamed text task whose terminal event
   * nothing would read: ApplyExecutionUseCase), so the task ends settled, at the change's cost, and its stream
   * lease is deleted, all in this statement. Otherwise a stream lease stays until the task is settled
   * (`markSettled` deletes it): a lease that lapses on an ended, unsettled task is the sweeper's cue to settle it
   * (InterruptStreams).
   */
  async transition(
    taskId: string,
    from: readonly TaskState[],
    change: TaskChange,
    outbox: OutboxEvents | null,
    options: { forgetIdempotencyKey?: boolean; settled?: boolean } = {},
  ): Promise<TaskRow | null> {
    const events = outbox ?? [];
    const done = await this.transitions.run({
      taskId,
      from,
      change,
      outbox: events,
      forget: options.forgetIdempotencyKey === true,
      settled: options.settled === true,
    });
    if (done && events.length > 0) this.outboxSignal.notify();
    return done;
  }

  /** The task with whether it is streamed (has a stream lease); reads that arrive together share a statement. */
  findForReport(taskId: string): Promise<ReportedTask | null> {
    return this.reportReads.run(taskId);
  }

  /**
   * Several transitions (of distinct tasks) in one statement: each row is updated only from its own states;
   * an event is written only with its task's change, the events in their order.
   */
  private async transitionMany(transitions: readonly TaskTransition[]): Promise<(TaskRow | null)[]> {
    const changes = transitions.map((t) => changeValues(t.change));
    const column = (i: number): unknown[] => changes.map((values) => values[i]);
    const events = transitions.flatMap((t) => t.outbox.map(() => t.taskId));
    const rows = await this.db.query(
      `WITH "task" AS (
         UPDATE "tasks"."tasks" AS t SET
           "state" = c."to_state",
           "started_at" = COALESCE(c."to_started_at", t."started_at"),
           "completed_at" = COALESCE(c."to_completed_at", t."completed_at"),
           "error_code" = COALESCE(c."to_error_code", t."error_code"),
           "assets" = COALESCE(c."to_assets"::json, t."assets"),
           "usage" = COALESCE(c."to_usage"::json, t."usage"),
           "cost_e9" = COALESCE(c."to_cost_e9", t."cost_e9"),
           "text_output" = COALESCE(c."to_text_output"::json, t."text_output"),
           "settled" = t."settled" OR c."to_settled"
         FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::text[],
                     $7::text[], $8::text[], $9::bigint[], $10::text[], $11::boolean[], $12::boolean[])
           AS c("to_id", "from_states", "to_state", "to_started_at", "to_completed_at", "to_error_code",
                "to_assets", "to_usage", "to_cost_e9", "to_text_output", "to_forget", "to_settled")
         WHERE t."id" = c."to_id" AND t."state" = ANY(string_to_array(c."from_states", ','))
         RETURNING ${TASK_COLUMNS.replace(/"([a-z_0-9]+)"/g, 't."$1"')}, c."to_forget", c."to_settled"
       ), "events" AS (
         INSERT INTO "tasks"."outbox" ("id", "topic", "key", "envelope")
         SELECT e."id", e."topic", e."key", e."envelope"::json
         FROM unnest($13::text[], $14::text[], $15::text[], $16::text[], $17::text[]) WITH ORDINALITY
           AS e("task_id", "id", "topic", "key", "envelope", "n")
         WHERE EXISTS (SELECT 1 FROM "task" WHERE "task"."id" = e."task_id")
         ORDER BY e."n"
       ), "forget" AS (
         DELETE FROM "tasks"."idempotency_records" r USING "task"
         WHERE "task"."to_forget" AND r."account_id" = "task"."account_id" AND r."scope" = 'create'
           AND r."task_id" = "task"."id"
       ), "unleased" AS (
         DELETE FROM "tasks"."stream_leases" l USING "task" WHERE "task"."to_settled" AND l."task_id" = "task"."id"
       )
       SELECT ${TASK_COLUMNS} FROM "task"`,
      [
        transitions.map((t) => t.taskId),
        transitions.map((t) => t.from.join(',')),
        ...Array.from({ length: 8 }, (_, i) => column(i)),
        transitions.map((t) => t.forget),
        transitions.map((t) => t.settled),
        events,
        ...outboxParams(transitions.flatMap((t) => t.outbox)),
      ],
    );
    const byId = new Map(
      rows.map((row): [string, TaskRow] => {
        const task = taskRowOf(row);
        return [task.id, task];
      }),
    );
    return transitions.map((t) => byId.get(t.taskId) ?? null);
  }

  /** In-flight tasks past their deadline, oldest deadline first. */
  async dueForExpiry(now: Date, limit: number): Promise<TaskRow[]> {
    const rows = await this.db.query(
      `SELECT ${TASK_COLUMNS} FROM "tasks"."tasks" WHERE "state" IN ('queued', 'running') AND "deadline_at" <= $1
       ORDER BY "deadline_at" LIMIT $2`,
      [now, limit],
    );
    return rows.map(taskRowOf);
  }

  /**
   * Records billing's final word: the charge, and `settled`. Only once. A streamed task's stream lease ends
   * with it (in the same statement): nothing is left for the lease to guard.
   */
  markSettled(taskId: string, costE9: bigint): Promise<boolean> {
    return this.settlements.run({ taskId, costE9 });
  }

  /** Destroys the prompt (and a text task's answer) and marks the task purged; the billing fields stay. Terminal tasks only. */
  async markPurged(taskId: string, now: Date): Promise<TaskRow | null> {
    const rows = await this.db.query(
      `UPDATE "tasks"."tasks" SET "input" = NULL, "text_output" = NULL, "purged_at" = COALESCE("purged_at", $2)
       WHERE "id" = $1 AND "state" NOT IN ('queued', 'running')
       RETURNING ${TASK_COLUMNS}`,
      [taskId, now],
    );
    return rows[0] ? taskRowOf(rows[0]) : null;
  }

  /** Terminal tasks whose retention ended and that are not purged yet. */
  async dueForPurge(now: Date, limit: number): Promise<TaskRow[]> {
    const rows = await this.db.query(
      `SELECT ${TASK_COLUMNS} FROM "tasks"."tasks"
       WHERE "purged_at" IS NULL AND "completed_at" IS NOT NULL
         AND "completed_at" + make_interval(secs => "retention_seconds") <= $1
       ORDER BY "completed_at" LIMIT $2`,
      [now, limit],
    );
    return rows.map(taskRowOf);
  }

  /**
   * One page of this key's tasks in [from, to), newest first, after the cursor position if given; `keyId`
   * null: every key of the account.
   */
  async listForKey(query: {
    accountId: string;
    keyId: string | null;
    from: Date;
    to: Date;
    state?: string;
    model?: string;
    after?: { createdAt: Date; taskId: string };
    limit: number;
  }): Promise<TaskRow[]> {
    const params: unknown[] = [query.accountId, query.from, query.to];
    const where = [`"account_id" = $1`, `"created_at" >= $2`, `"created_at" < $3`];
    if (query.keyId !== null) {
      params.push(query.keyId);
      where.push(`"key_id" = $${params.length}`);
    }
    if (query.state !== undefined) {
      params.push(query.state);
      where.push(`"state" = $${params.length}`);
    }
    if (query.model !== undefined) {
      params.push(query.model);
      where.push(`"model" = $${params.length}`);
    }
    if (query.after) {
      params.push(query.after.createdAt, query.after.taskId);
      where.push(`("created_at", "id") < ($${params.length - 1}, $${params.length})`);
    }
    params.push(query.limit);
    const rows = await this.db.query(
      `SELECT ${TASK_COLUMNS} FROM "tasks"."tasks" WHERE ${where.join(' AND ')}
       ORDER BY "created_at" DESC, "id" DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(taskRowOf);
  }

  /** Calls and settled spend of this key's (null: the account's) tasks created in [from, to), per UTC day and model. */
  async usageForKey(query: {
    accountId: string;
    keyId: string | null;
    from: Date;
    to: Date;
  }): Promise<{ day: string; model: string; calls: number; spendE9: bigint }[]> {
    const rows = await this.db.query<{ day: string; model: string; calls: string | number; spend: unknown }>(
      `SELECT to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "day", "model",
              count(*) AS "calls",
              COALESCE(sum("cost_e9") FILTER (WHERE "settled"), 0) AS "spend"
       FROM "tasks"."tasks"
       WHERE "account_id" = $1 AND "created_at" >= $2 AND "created_at" < $3${query.keyId === null ? '' : ' AND "key_id" = $4'}
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [query.accountId, query.from, query.to, ...(query.keyId === null ? [] : [query.keyId])],
    );
    return rows.map((r) => ({
      day: r.day,
      model: r.model,
      calls: Number(r.calls),
      spendE9: BigInt(String(r.spend)),
    }));
  }
}
