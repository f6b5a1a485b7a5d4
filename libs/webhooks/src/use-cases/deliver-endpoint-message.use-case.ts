import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '@gen/core';
import { standardHeaders } from '@gen/webhook-signing';
import { attemptRecord, unsendable, type AttemptOutcome } from '../outbound/attempt-outcome';
import { inAttemptSpan } from '../outbound/attempt-span';
import { WebhookSender } from '../outbound/webhook-sender';
import { endpointIsActive, secretsForSigning, type WebhookEndpoint } from '../domain/endpoint';
import { EndpointRepository } from '../persistence/endpoint.repository';
import { MessageRepository, type MessageRow } from '../persistence/message.repository';

/** Why a message was dropped unsent: its endpoint was disabled (PATCH or a 410), or is gone. */
export type DropReason = 'endpoint_disabled' | 'endpoint_deleted';

/** HTTP 410 Gone: the receiver asks for the endpoint to be disabled (spec, Events, item 7). */
const GONE = 410;

/**
 * One attempt of an endpoint message. The endpoint is read now, so a changed URL or a rotated secret applies
 * at once; a disabled or deleted endpoint drops the message unsent. The stored body is sent as it is, with
 * `webhook-id`, a fresh `webhook-timestamp` and one `v1,` signature per active secret (two during a rotation
 * grace period). A 2xx resets the endpoint's consecutive failures; a 410 disables the endpoint (`gone_410`)
 * and drops its other queued messages; any other failure counts up its consecutive failures and schedules the
 * next attempt on `WEBHOOK_RETRY_SCHEDULE`.
 */
@Injectable()
export class DeliverEndpointMessageUseCase {
  constructor(
    private readonly messages: MessageRepository,
    private readonly endpoints: EndpointRepository,
    private readonly sender: WebhookSender,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  attempt(message: MessageRow): Promise<AttemptOutcome | DropReason> {
    return inAttemptSpan('webhook endpoint message', message, () => this.attemptNow(message));
  }

  private async attemptNow(message: MessageRow): Promise<AttemptOutcome | DropReason> {
    const endpoint = await this.endpoints.find(message.accountId, message.endpointId);
    if (!endpoint || !endpointIsActive(endpoint)) {
      const reason: DropReason = endpoint ? 'endpoint_disabled' : 'endpoint_deleted';
      await this.messages.drop(message.id, reason);
      return reason;
    }
    const n = message.attempts + 1;
    const at = this.clock.now();
    const outcome = await this.send(message, endpoint, at).catch(unsendable);
    const gone = !outcome.ok && outcome.status === GONE;
    await this.messages.recordAttemptOn(
      message,
      attemptRecord(message.id, n, at, outcome, gone ? null : this.sender.retryAt(n, at)),
      outcome.ok ? 'delivered' : gone ? 'gone' : 'failed',
    );
    return outcome;
  }

  private async send(message: MessageRow, endpoint: WebhookEndpoint, at: Date) {
    const headers = standardHeaders({
      msgId: message.id,
      timestamp: Math.floor(at.getTime() / 1000),
      body: message.body,
      secrets: secretsForSigning(endpoint, at),
    });
    return this.sender.send(endpoint.url, headers, message.body);
  }
}
