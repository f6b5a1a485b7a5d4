import { Inject, Injectable, Optional } from '@nestjs/common';
import { ExecutionEventType, HoldEventType } from '@gen/contracts';
import { LOGGER, formatUsd, type Logger } from '@gen/core';
import { EVENT_BUS, subscribeEvents, type EventBus, type Subscription } from '@gen/messaging';
import { ApplyExecutionUseCase } from '../use-cases/apply-execution.use-case';
import { RecordSettlementUseCase } from '../use-cases/record-settlement.use-case';

/**
 * The tasks service's two consumers: the runner's reports (`task.execution`: started, succeeded, failed) move
 * tasks on, and billing's settlements (`billing.holds`) record what each task cost. Started and stopped by
 * `TaskBackgroundWork`.
 */
@Injectable()
export class TaskEventConsumers {
  private subscriptions: Subscription[] = [];

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly execution: ApplyExecutionUseCase,
    private readonly settlement: RecordSettlementUseCase,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {}

  async start(): Promise<void> {
    this.subscriptions = [
      await subscribeEvents(
        this.bus,
        { group: 'tasks', types: Object.values(ExecutionEventType), logger: this.logger },
        async (event) => {
          const task = await this.execution.apply(event);
          // The task trail: one line per step, with the task and the request that created it. A streamed
          // text task that ended settled (its quiet end) says so on this line, with billing's charge.
          if (task)
            this.logger?.info(
              {
                taskId: task.id,
                request_id: task.requestId,
                ...(task.settled ? { settled: true, cost: formatUsd(task.costE9 ?? 0n) } : {}),
              },
              `task ${task.state}`,
            );
        },
      ),
      await subscribeEvents(
        this.bus,
        { group: 'tasks', types: Object.values(HoldEventType), logger: this.logger },
        async (event) => {
          const settled = await this.settlement.apply(event);
          if (settled)
            this.logger?.info(
              { taskId: settled.taskId, request_id: event.correlationId, cost: settled.charged },
              'task settled',
            );
        },
      ),
    ];
  }

  /** Stops consuming (a report being applied, its settlement included, is waited for by the bus). */
  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.stop()));
    this.subscriptions = [];
  }
}
