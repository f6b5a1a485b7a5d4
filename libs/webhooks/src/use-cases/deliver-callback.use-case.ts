import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_DIRECTORY, type AccountDirectory, type CallbackSettings } from '@gen/contracts';
import { CLOCK, type Clock } from '@gen/core';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { attemptRecord, unsendable, type AttemptOutcome } from '../outbound/attempt-outcome';
import { inAttemptSpan } from '../outbound/attempt-span';
import { callbackHeaders, callbackV1Body, callbackV2Body } from '../domain/callback-bodies';
import { deliveryLanguage, deliveryRecord } from '../domain/delivery-record';
import { WebhookSender } from '../outbound/webhook-sender';
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

  /**
   * Attempts a claimed batch side by side, reading each account's settings once for the batch: a rotation
   * still applies to the next batch at once, and a batch of one account costs one read instead of one each.
   */
  attemptAll(deliveries: readonly DeliveryRow[]): Promise<AttemptOutcome[]> {
    const settings = new Map<string, Promise<CallbackSettings | null>>();
    const settingsOf = (accountId: string): Promise<CallbackSettings | null> => {
      let read = settings.get(accountId);
      if (!read) {
        read = this.accounts.callbackSettings(accountId);
        settings.set(accountId, read);
      }
      return read;
    };
    return Promise.all(deliveries.map((delivery) => this.attempt(delivery, settingsOf)));
  }

  attempt(
    delivery: DeliveryRow,
    settingsOf: (accountId: string) => Promise<CallbackSettings | null> = (accountId) =>
      this.accounts.callbackSettings(accountId),
  ): Promise<AttemptOutcome> {
    return inAttemptSpan('webhook callback', delivery, () => this.attemptNow(delivery, settingsOf));
  }

  private async attemptNow(
    delivery: DeliveryRow,
    settingsOf: (accountId: string) => Promise<CallbackSettings | null>,
  ): Promise<AttemptOutcome> {
    const n = delivery.attempts + 1;
    const at = this.clock.now();
    const settings = await settingsOf(delivery.accountId);
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
