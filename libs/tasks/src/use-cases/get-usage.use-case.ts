import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, formatUsd, type Clock } from '@gen/core';
import { resolveDateRange, startOf } from '../domain/date-range';
import { withinBudget } from '../domain/query-budget';
import type { TaskScope } from '../domain/task-scope';
import { TaskRepository } from '../persistence/task.repository';

export interface UsageBucket {
  readonly calls: number;
  /** Settled charges only, never holds. USD decimal. */
  readonly spend: string;
}

export interface UsageView {
  readonly from: string;
  readonly to: string;
  readonly currency: 'USD';
  readonly totals: UsageBucket;
  /** Only days with calls, ascending; each with its models. */
  readonly days: (UsageBucket & {
    readonly date: string;
    readonly models: (UsageBucket & { model: string })[];
  })[];
  /** Only models with calls, by id. */
  readonly models: (UsageBucket & { readonly model: string })[];
}

/**
 * GET /api/v1/usage: calls of this key (GET /console/v1/usage: of the account, or of one of its keys) by the
 * UTC day of their creation, and settled spend. Late settlement
 * changes an earlier day. Not a cash statement and not a remaining budget.
 */
@Injectable()
export class GetUsageUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(scope: TaskScope, query: { from?: string; to?: string; keyId?: string }): Promise<UsageView> {
    const range = resolveDateRange(query, this.clock.now());
    const rows = await withinBudget(
      this.tasks.usageForKey({
        accountId: scope.accountId,
        keyId: scope.keyId ?? query.keyId ?? null,
        from: startOf(range.from),
        to: startOf(range.to),
      }),
    );
    const days = new Map<
      string,
      { calls: number; spend: bigint; models: { model: string; calls: number; spend: bigint }[] }
    >();
    const models = new Map<string, { calls: number; spend: bigint }>();
    let calls = 0;
    let spend = 0n;
    for (const row of rows) {
      const day = days.get(row.day) ?? { calls: 0, spend: 0n, models: [] };
      day.calls += row.calls;
      day.spend += row.spendE9;
      day.models.push({ model: row.model, calls: row.calls, spend: row.spendE9 });
      days.set(row.day, day);
      const model = models.get(row.model) ?? { calls: 0, spend: 0n };
      model.calls += row.calls;
      model.spend += row.spendE9;
      models.set(row.model, model);
      calls += row.calls;
      spend += row.spendE9;
    }
    return {
      ...range,
      currency: 'USD',
      totals: { calls, spend: formatUsd(spend) },
      days: [...days].map(([date, d]) => ({
        date,
        calls: d.calls,
        spend: formatUsd(d.spend),
        models: d.models.map((m) => ({ model: m.model, calls: m.calls, spend: formatUsd(m.spend) })),
      })),
      models: [...models]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([model, m]) => ({ model, calls: m.calls, spend: formatUsd(m.spend) })),
    };
  }
}
