import { Inject, Injectable } from '@nestjs/common';
import { BusinessCode, IdPrefix } from '@gen/contracts';
import { CLOCK, DomainError, type Clock } from '@gen/core';
import { deliveryView, messageView } from '../http/delivery.dto';
import { DeliveryRepository } from '../persistence/delivery.repository';
import { MessageRepository } from '../persistence/message.repository';

/**
 * POST /admin/v1/webhook-deliveries/{id}/redeliver : the callback delivery (`whd_`) or endpoint message
 * (`msg_`) is due again now, whatever its state, with the same id: a message resends its stored body under the
 * same `webhook-id` (to the endpoint's current URL, with fresh timestamp and signatures; dropped again unsent
 * while the endpoint is disabled). Unknown: 404. POST /console/v1/webhook-deliveries/{id}/redeliver: the same,
 * for the session's account only (another account's delivery is the same 404).
 */
@Injectable()
export class RedeliverWebhookUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly messages: MessageRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(id: string, accountId: string | null = null) {
    const now = this.clock.now();
    const view = id.startsWith(`${IdPrefix.webhookMessage}_`)
      ? await this.messages.redeliver(id, now, accountId).then((m) => m && messageView(m))
      : await this.deliveries.redeliver(id, now, accountId).then((d) => d && deliveryView(d));
    if (!view) throw new DomainError(BusinessCode.NotFound, 'request.not_found');
    return view;
  }
}
