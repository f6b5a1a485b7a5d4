import { Inject, Injectable } from '@nestjs/common';
import type { TaskCreatedPayload } from '@gen/contracts';
import { DATABASE, GroupCommit, type Database } from '@gen/persistence';
import { RUNNER_SCHEMA, RunnerMigrations } from './runner-schema';

/** A task in the runner queue, as a runner claims it. */
export interface Job {
  readonly task: TaskCreatedPayload;
  /** The id of the task.created event: the cause of every report. */
  readonly causationId: string;
  /** The request that created the task (`X-Request-Id`), carried by every report. */
  readonly correlationId: string;
  /** How many times a runner claimed it, this claim included (above 1: it is run again). */
  readonly runs: number;
  /** The trace context it was queued in (tracing on), which its execution continues. */
  readonly traceparent?: string;
}

/** What a job is queued with besides the task: its cause, correlation and trace context. */
export interface JobCause {
  readonly causationId: string;
  readonly correlationId: string;
  readonly traceparent?: string;
}

/** What a claim may take: per model, how many of its tasks this runner already runs, against the limit. */
export interface ClaimRequest {
  readonly owner: string;
  readonly leaseMs: number;
  readonly perModel: number;
  readonly running: ReadonlyMap<string, number>;
  /** Rows looked at per claim; default 256. */
  readonly window?: number;
}

interface JobRow {
  task: TaskCreatedPayload | string;
  causation_id: string;
  correlation_id: string;
  runs: number;
  traceparent: string | null;
}

const T = `"${RUNNER_SCHEMA.schema}"."jobs"`;

/**
 * The runner queue (`runner.jobs`, SQL through DATABASE like the other hot queues). Adding is idempotent per
 * task id; a claim takes waiting rows with `FOR UPDATE SKIP LOCKED`, so runners never take the same row, and
 * leases every row it takes; rows whose lease lapsed are waiting again. Hot writes are group-committed.
 */
@Injectable()
export class JobRepository {
  private readonly adds = new GroupCommit<{ task: TaskCreatedPayload } & JobCause, void>({
    many: async (inputs) => {
      await this.database.query(
        `INSERT INTO ${T} ("task_id", "model", "task", "causation_id", "correlation_id", "deadline_at", "traceparent")
         SELECT j."task_id", j."model", j."task"::jsonb, j."causation_id", j."correlation_id",
                j."deadline_at"::timestamptz, j."traceparent"
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
           AS j("task_id", "model", "task", "causation_id", "correlation_id", "deadline_at", "traceparent")
         ON CONFLICT ("task_id") DO NOTHING`,
        [
          inputs.map((i) => i.task.taskId),
          inputs.map((i) => i.task.model),
          inputs.map((i) => JSON.stringify(i.task)),
          inputs.map((i) => i.causationId),
          inputs.map((i) => i.correlationId),
          inputs.map((i) => i.task.deadlineAt),
          inputs.map((i) => i.traceparent ?? null),
        ],
      );
      return inputs.map(() => undefined);
    },
  });

  private readonly finishes = new GroupCommit<{ taskId: string; owner: string }, void>({
    many: async (inputs) => {
      await this.database.query(
        `UPDATE ${T} j SET "finished_at" = now(), "owner" = NULL, "lease_until" = NULL
         FROM unnest($1::text[], $2::text[]) AS f("task_id", "owner")
         WHERE j."task_id" = f."task_id" AND j."owner" = f."owner"`,
        [inputs.map((i) => i.taskId), inputs.map((i) => i.owner)],
      );
      return inputs.map(() => undefined);
    },
  });

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    // Built first, so the migrations have run when the queue is used.
    readonly migrations: RunnerMigrations,
  ) {}

  /** Records a created task; resolves once it is durable. A task already queued (or finished) is kept. */
  add(task: TaskCreatedPayload, cause: JobCause): Promise<void> {
    return this.adds.run({ task, ...cause });
  }

  /**
   * Claims waiting tasks in arrival order, as many per model as the limit leaves free, for `leaseMs`. Models
   * at their limit are skipped, so one busy model does not keep the others waiting. Rows past their deadline
   * are never claimed: the tasks service expires those tasks.
   */
  async claim(request: ClaimRequest): Promise<Job[]> {
    const models = [...request.running.keys()];
    const counts = models.map((m) => request.running.get(m) ?? 0);
    const full = models.filter((m) => (request.running.get(m) ?? 0) >= request.perModel);
    const rows = await this.database.query<JobRow>(
      `WITH candidates AS (
         SELECT "task_id", "model", "created_at" FROM ${T}
         WHERE "finished_at" IS NULL AND ("lease_until" IS NULL OR "lease_until" < now())
           AND "deadline_at" > now() AND NOT ("model" = ANY($5::text[]))
         ORDER BY "created_at", "task_id" LIMIT $6
         FOR UPDATE SKIP LOCKED
       ), ranked AS (
         SELECT c."task_id",
                row_number() OVER (PARTITION BY c."model" ORDER BY c."created_at", c."task_id") AS "n",
                $2::int - COALESCE(r."running", 0) AS "free"
         FROM candidates c LEFT JOIN unnest($3::text[], $4::int[]) AS r("model", "running") ON r."model" = c."model"
       )
       UPDATE ${T} j
       SET "owner" = $1, "lease_until" = now() + $7::int * interval '1 millisecond', "runs" = j."runs" + 1
       FROM ranked
       WHERE j."task_id" = ranked."task_id" AND ranked."n" <= ranked."free"
       RETURNING j."task", j."causation_id", j."correlation_id", j."runs", j."traceparent"`,
      [request.owner, request.perModel, models, counts, full, request.window ?? 256, request.leaseMs],
    );
    return rows.map((row) => ({
      task: typeof row.task === 'string' ? (JSON.parse(row.task) as TaskCreatedPayload) : row.task,
      causationId: row.causation_id,
      correlationId: row.correlation_id,
      runs: Number(row.runs),
      ...(row.traceparent ? { traceparent: row.traceparent } : {}),
    }));
  }

  /** Extends the leases of the tasks this runner runs; returns the task ids it still holds. */
  async renew(owner: string, taskIds: readonly string[], leaseMs: number): Promise<Set<string>> {
    if (taskIds.length === 0) return new Set();
    const rows = await this.database.query<{ task_id: string }>(
      `UPDATE ${T} SET "lease_until" = now() + $3::int * interval '1 millisecond'
       WHERE "owner" = $1 AND "task_id" = ANY($2::text[]) AND "finished_at" IS NULL
       RETURNING "task_id"`,
      [owner, [...taskIds], leaseMs],
    );
    return new Set(rows.map((r) => r.task_id));
  }

  /** The task was reported: it is not run again, even if its task.created is delivered again. */
  finish(taskId: string, owner: string): Promise<void> {
    return this.finishes.run({ taskId, owner });
  }

  /** Gives tasks back unfinished (the runner stops): any runner may claim them at once. */
  async release(owner: string, taskIds: readonly string[]): Promise<void> {
    if (taskIds.length === 0) return;
    await this.database.query(
      `UPDATE ${T} SET "owner" = NULL, "lease_until" = NULL
       WHERE "owner" = $1 AND "task_id" = ANY($2::text[]) AND "finished_at" IS NULL`,
      [owner, [...taskIds]],
    );
  }

  /** Deletes rows past their deadline: a task.created delivered after it is not run anyway. */
  async deleteExpired(): Promise<number> {
    const rows = await this.database.query(
      `DELETE FROM ${T} WHERE "deadline_at" < now() RETURNING 1 AS "gone"`,
    );
    return rows.length;
  }
}
