import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, CATALOG_PORT, type CatalogPort } from '@gen/contracts';
import { CLOCK, DomainError, formatUsd, type Clock } from '@gen/core';
import { resolveDateRange, startOf } from '../domain/date-range';
import { decodeCursor, encodeCursor, type ListFilters } from '../domain/list-cursor';
import { withinBudget } from '../domain/query-budget';
import type { TaskScope } from '../domain/task-scope';
import type { TaskRow } from '../persistence/task-row';
import { TaskRepository } from '../persistence/task.repository';
import { costOf } from '../mappers/task-record';

export interface ListTasksQuery {
  readonly from?: string;
  readonly to?: string;
  readonly state?: string;
  readonly model?: string;
  readonly limit?: string;
  readonly cursor?: string;
  /** Account-wide lists only (the console): the tasks of one key of the account. */
  readonly keyId?: string;
}

/** A task summary: metadata only (no input, output, URL or processing detail). */
export interface TaskSummary {
  readonly taskId: string;
  readonly model: string;
  readonly state: string;
  readonly createdAt: string;
  readonly completedAt?: string;
  readonly cost: string;
  readonly settled: boolean;
  readonly estimatedCost: string;
  /** The X-Request-Id of the call that created the task. */
  readonly requestId: string;
  readonly sourceTaskId?: string;
  readonly purged?: true;
  /** Account-wide lists only (the console): the key that created the task. */
  readonly keyId?: string;
}

export interface TaskPage {
  readonly items: TaskSummary[];
  /** Absent on the last page. */
  readonly nextCursor?: string;
}

const FILTERS = ['from', 'to', 'state', 'model', 'keyId'] as const;

/**
 * GET /api/v1/jobs: the calling key's tasks (GET /console/v1/tasks: the account's, optionally of one key),
 * newest first by createdAt then taskId. A cursor freezes the
 * filters of the first page (including the default dates); the same filters may be repeated with it, other
 * values are 400. Pages read live state. The whole read has the five-second budget.
 */
@Injectable()
export class ListTasksUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(CATALOG_PORT) private readonly catalog: CatalogPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(scope: TaskScope, query: ListTasksQuery): Promise<TaskPage> {
    const limit = query.limit === undefined ? 20 : Number(query.limit);
    const cursor = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
    const filters = cursor ? this.frozen(cursor.filters, query) : this.filtersOf(query);
    const rows = await withinBudget(
      this.tasks.listForKey({
        accountId: scope.accountId,
        keyId: scope.keyId ?? filters.keyId ?? null,
        from: startOf(filters.from),
        to: startOf(filters.to),
        state: filters.state,
        model: filters.model,
        after: cursor ? { createdAt: new Date(cursor.createdAt), taskId: cursor.taskId } : undefined,
        limit: limit + 1,
      }),
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((task) => summaryOf(task, scope.keyId === null)),
      ...(rows.length > limit && last
        ? { nextCursor: encodeCursor({ filters, createdAt: last.createdAt.toISOString(), taskId: last.id }) }
        : {}),
    };
  }

  private filtersOf(query: ListTasksQuery): ListFilters {
    const range = resolveDateRange(query, this.clock.now());
    const model =
      query.model === undefined ? undefined : (this.catalog.resolveModelId(query.model) ?? query.model);
    return {
      ...range,
      ...(query.state !== undefined ? { state: query.state } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(query.keyId !== undefined ? { keyId: query.keyId } : {}),
    };
  }

  /** With a cursor, a filter may be repeated but not changed: the cursor belongs to its first page. */
  private frozen(filters: ListFilters, query: ListTasksQuery): ListFilters {
    for (const name of FILTERS) {
      const given = query[name];
      if (given === undefined) continue;
      const same =
        name === 'model'
          ? (this.catalog.resolveModelId(given) ?? given) === filters.model
          : given === filters[name];
      if (!same)
        throw new DomainError(BusinessCode.InvalidRequest, 'query.cursor_filters_changed', {
          name,
          field: name,
        });
    }
    return filters;
  }
}

function summaryOf(task: TaskRow, withKey: boolean): TaskSummary {
  return {
    taskId: task.id,
    model: task.model,
    state: task.state,
    createdAt: task.createdAt.toISOString(),
    ...(task.completedAt ? { completedAt: task.completedAt.toISOString() } : {}),
    cost: costOf(task),
    settled: task.settled,
    estimatedCost: formatUsd(task.estimatedE9),
    requestId: task.requestId,
    ...(task.sourceTaskId ? { sourceTaskId: task.sourceTaskId } : {}),
    ...(task.purgedAt ? { purged: true as const } : {}),
    ...(withKey ? { keyId: task.keyId } : {}),
  };
}
