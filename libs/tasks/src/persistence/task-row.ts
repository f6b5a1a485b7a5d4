import type { ExecutionAsset, ExecutionText, ExecutionUsage } from '@gen/contracts';
import { rowBigint, rowDate, rowJson, rowOptionalDate } from '@gen/persistence';
import type { TaskState } from '../domain/task-state';

/** One row of tasks.tasks, as the domain sees it. */
export interface TaskRow {
  readonly id: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly model: string;
  readonly state: TaskState;
  /** Null once purged. */
  readonly input: Record<string, unknown> | null;
  readonly callbackUrl: string | null;
  readonly estimatedE9: bigint;
  /** The account group's price multiplier at acceptance: the charge uses the prices the hold used. */
  readonly priceMultiplier: string;
  readonly costE9: bigint | null;
  readonly settled: boolean;
  readonly errorCode: string | null;
  readonly assets: readonly ExecutionAsset[] | null;
  readonly usage: ExecutionUsage | null;
  /** A succeeded text task's answer; null for media tasks and once purged. */
  readonly textOutput: ExecutionText | null;
  readonly requestId: string;
  readonly sourceTaskId: string | null;
  readonly retentionSeconds: number;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly completedAt: Date | null;
  readonly deadlineAt: Date;
  readonly purgedAt: Date | null;
}

export const TASK_COLUMNS = `"id", "account_id", "key_id", "model", "state", "input", "callback_url", "estimated_e9",
  "price_multiplier", "cost_e9", "settled", "error_code", "assets", "usage", "text_output", "request_id", "source_task_id", "retention_seconds",
  "created_at", "started_at", "completed_at", "deadline_at", "purged_at"`;

type Raw = Record<string, unknown>;
/** One row of tasks.tasks, read alike from pg and PGlite. */
export function taskRowOf(raw: Raw): TaskRow {
  return {
    id: raw['id'] as string,
    accountId: raw['account_id'] as string,
    keyId: raw['key_id'] as string,
    model: raw['model'] as string,
    state: raw['state'] as TaskState,
    input: rowJson<Record<string, unknown>>(raw['input']),
    callbackUrl: (raw['callback_url'] as string | null) ?? null,
    estimatedE9: rowBigint(raw['estimated_e9']),
    priceMultiplier: raw['price_multiplier'] as string,
    costE9: raw['cost_e9'] === null || raw['cost_e9'] === undefined ? null : rowBigint(raw['cost_e9']),
    settled: raw['settled'] === true,
    errorCode: (raw['error_code'] as string | null) ?? null,
    assets: rowJson<ExecutionAsset[]>(raw['assets']),
    usage: rowJson<ExecutionUsage>(raw['usage']),
    textOutput: rowJson<ExecutionText>(raw['text_output']),
    requestId: raw['request_id'] as string,
    sourceTaskId: (raw['source_task_id'] as string | null) ?? null,
    retentionSeconds: Number(raw['retention_seconds']),
    createdAt: rowDate(raw['created_at']),
    startedAt: rowOptionalDate(raw['started_at']),
    completedAt: rowOptionalDate(raw['completed_at']),
    deadlineAt: rowDate(raw['deadline_at']),
    purgedAt: rowOptionalDate(raw['purged_at']),
  };
}
