import { Inject, Injectable } from '@nestjs/common';
import {
  ACCOUNT_DIRECTORY,
  IdPrefix,
  type AccountDirectory,
  type EventEnvelope,
  type TaskTerminalPayload,
} from '@gen/contracts';
import { CLOCK, newId, type Clock } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { deliveryLanguage, deliveryRecord } from '../domain/delivery-record';
import { endpointMessageBody } from '../domain/endpoint-message';
import { EndpointDirectory } from '../persistence/endpoint-directory';
import { MessageRepository } from '../persistence/message.repository';

/**
 * Lifetime of the asset URLs signed into an endpoint message when it is queued: the body is never rebuilt, so
 * the URLs must outlast the retry schedule (8 h 42 min 40 s by default). After that receivers read recordInfo.
 */
export const MESSAGE_URL_SECONDS = 86_400;

/**
 * Queues the messages of a terminal task event: one per endpoint of the account that is active and
 * subscribed to the event's type, at most one per endpoint and task (a redelivered event queues nothing new).
 * Each body is built now, once: the task record with asset URLs signed now and `errorMessage` in the account's
 * language. Returns how many messages are new.
 */
@Injectable()
export class QueueEndpointMessagesUseCase {
  constructor(
    private readonly endpoints: EndpointDirectory,
    private readonly messages: MessageRepository,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(event: EventEnvelope<TaskTerminalPayload>): Promise<number> {
    const { payload, type } = event;
    if (!payload.record) return 0;
    const receivers = await this.endpoints.receivers(payload.accountId, type);
    if (receivers.length === 0) return 0;
    const settings = await this.accounts.callbackSettings(payload.accountId);
    const object = await deliveryRecord(payload.record, {
      storage: this.storage,
      language: deliveryLanguage(settings?.language),
      urlSeconds: MESSAGE_URL_SECONDS,
    });
    const now = this.clock.now();
    const occurred = Date.parse(event.occurredAt);
    const created = Math.floor((Number.isNaN(occurred) ? now.getTime() : occurred) / 1000);
    const messages = receivers.map((endpoint) => {
      const id = newId(IdPrefix.webhookMessage, now.getTime());
      return {
        id,
        endpointId: endpoint.id,
        accountId: payload.accountId,
        taskId: payload.taskId,
        eventType: type,
        body: endpointMessageBody({ id, type, created, object }),
      };
    });
    return this.messages.enqueue(messages, now);
  }
}
