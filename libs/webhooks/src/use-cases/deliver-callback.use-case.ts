import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_DIRECTORY, type AccountDirectory } from '@gen/contracts';
import { CLOCK, type Clock } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { attemptRecord, unsendable, type AttemptOutcome } from '../delivery/attempt-outcome';
import { callbackHeaders, callbackV1Body, callbackV2Body } from '../delivery/callback-bodies';
import { deliveryLanguage, deliveryRecord } from '../delivery/delivery-record';
import { WebhookSender } from '../delivery/webhook-sender';
import { DeliveryRepository, type DeliveryRow } from '../persistence/delivery.repository';

/** Lifetime of the asset URLs signed for a callback attempt. */
const CALLBACK_URL_SECONDS = 3600;

/**
 * One attempt of a task callback: the account's signing secret and language are read now (a rotation applies
 * at once, also to deliveries being retried), only the asset URLs (and `expiresAt`) are made anew, the body is
 * signed and POSTed with the guarded connection, and the attempt is recorded with the next one scheduled.
 * Without a signing secret the attempt counts as failed and nothing is sent.
 */
@Injectable()
export class DeliverCallbackUseCase {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly sender: WebhookSender,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async attempt(delivery: DeliveryRow): Promise<AttemptOutcome> {
    const n = delivery.attempts + 1;
    const at = this.clock.now();
    const settings = await this.accounts.callbackSettings(delivery.accountId);
    const outcome: AttemptOutcome = settings?.signingSecret
      ? await this.send(delivery, settings.signingSecret, settings.language, at).catch(unsendable)
      : { ok: false, reason: 'no_secret', detail: 'the account has no signing secret', durationMs: 0 };
    await this.deliveries.recordAttempt(
      attemptRecord(delivery.id, n, at, outcome, this.sender.retryAt(n, at)),
    );
    return outcome;
  }

  /** Builds, signs and sends the body; a body that cannot be built (a broken record) throws. */
  private async send(delivery: DeliveryRow, secret: string, language: string | null, at: Date) {
    const record = await deliveryRecord(delivery.record, {
      storage: this.storage,
      language: deliveryLanguage(language),
      urlSeconds: CALLBACK_URL_SECONDS,
    });
    const body = delivery.payloadVersion === 2 ? callbackV2Body(record, delivery.id) : callbackV1Body(record);
    const headers = callbackHeaders({
      taskId: delivery.taskId,
      body,
      secret,
      timestampSeconds: Math.floor(at.getTime() / 1000),
      payloadVersion: delivery.payloadVersion,
    });
    return this.sender.send(delivery.url, headers, body);
  }
}
