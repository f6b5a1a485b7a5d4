import { Injectable } from '@nestjs/common';
import { attemptView, deliveryView, messageView } from '../http/delivery.dto';
import { DeliveryRepository } from '../persistence/delivery.repository';
import { MessageRepository } from '../persistence/message.repository';

/**
 * GET /admin/v1/webhook-deliveries?taskId= : what was sent about a task, each with its attempts: the
 * callback delivery (`items`, at most one) and the endpoint messages (`messages`, one per endpoint).
 */
@Injectable()
export class ListTaskWebhooksUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly messages: MessageRepository,
  ) {}

  async execute(taskId: string) {
    const [deliveries, messages] = await Promise.all([
      this.deliveries.findByTask(taskId),
      this.messages.findByTask(taskId),
    ]);
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
