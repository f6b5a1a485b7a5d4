import { Injectable } from '@nestjs/common';
import { HoldEventType, type EventEnvelope, type HoldFinalPayload } from '@gen/contracts';
import { parseUsd } from '@gen/core';
import { TaskRepository } from '../persistence/task.repository';

/** Billing's final word on a task's hold (topic billing.holds): the charge is final and `settled` true. */
@Injectable()
export class RecordSettlementUseCase {
  constructor(private readonly tasks: TaskRepository) {}

  async apply(event: EventEnvelope): Promise<void> {
    if (event.type !== HoldEventType.settled && event.type !== HoldEventType.released) return;
    const payload = event.payload as HoldFinalPayload;
    await this.tasks.markSettled(payload.holdId, parseUsd(payload.charged) ?? 0n);
  }
}
