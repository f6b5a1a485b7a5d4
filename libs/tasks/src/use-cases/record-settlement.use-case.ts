import { Injectable } from '@nestjs/common';
import type { HoldEventName, TypedEvent } from '@gen/contracts';
import { parseUsd } from '@gen/core';
import { TaskRepository } from '../persistence/task.repository';

/** Billing's final word on a task's hold (topic billing.holds): the charge is final and `settled` true. */
@Injectable()
export class RecordSettlementUseCase {
  constructor(private readonly tasks: TaskRepository) {}

  /** Returns the task's final charge when this event settled it, null when it changed nothing. */
  async apply(event: TypedEvent<HoldEventName>): Promise<{ taskId: string; charged: string } | null> {
    const { payload } = event;
    const settled = await this.tasks.markSettled(payload.holdId, parseUsd(payload.charged) ?? 0n);
    return settled ? { taskId: payload.holdId, charged: payload.charged } : null;
  }
}
