import { Injectable } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { attemptView, deliveryView, messageView } from '../http/delivery.dto';
import { DeliveryRepository } from '../persistence/delivery.repository';
import { MessageRepository } from '../persistence/message.repository';

/**
 * GET /admin/v1/webhook-deliveries?taskId= (any account) and GET /console/v1/tasks/{taskId}/webhooks (the
 * session's account): what was sent about a task, each with its attempts: the callback delivery (`items`, at
 * most one) and the endpoint messages (`messages`, one per endpoint). The console gets 404 when its account
 * has neither for the task (no callback, no endpoint, or not its task: the same answer).
 */
@Injectable()
export class ListTaskWebhooksUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly messages: MessageRepository,
  ) {}

  async execute(taskId: string, accountId: string | null = null) {
    const [deliveries, messages] = await Promise.all([
      this.deliveries.findByTask(taskId, accountId),
      this.messages.findByTask(taskId, accountId),
    ]);
    if (accountId !== null && deliveries.length === 0 && messages.length === 0)
      throw new DomainError(BusinessCode.NotFound, 'request.not_found');
    return {
      items: await Promise.all(
        deliveries.map(async (d) => ({
          ...deliveryView(d),
          attemptLog: (await this.deliveries.attemptsOf(d.id)).map(attemptView),
        })),
      ),
      messages: await Promise.all(
        messages.map(async (m) => ({
          ...messageView(m),
          attemptLog: (await this.messages.attemptsOf(m.id)).map(attemptView),
        })),
      ),
    };
  }
}
