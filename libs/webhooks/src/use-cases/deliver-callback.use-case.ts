import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_DIRECTORY, type AccountDirectory } from '@gen/contracts';
import {
  APP_CONFIG,
  CLOCK,
  isSupportedLanguage,
  taskErrorMessage,
  type AppConfig,
  type Clock,
} from '@gen/core';
import { parseAllowPrivateCidrs, type PrivateCidrAllowList } from '@gen/ssrf';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { callbackHeaders, callbackV1Body, callbackV2Body } from '../delivery/callback-bodies';
import { sendWebhook, type SendOutcome } from '../delivery/send-webhook';
import { DeliveryRepository, type DeliveryRow } from '../persistence/delivery.repository';

/** Spec, Limits: a callback attempt times out after 15 seconds. */
export const CALLBACK_TIMEOUT_MS = 15_000;
/** Lifetime of the asset URLs signed for a callback. */
const CALLBACK_URL_SECONDS = 3600;

/** `no_secret`: the account has none, nothing is sent. `unsendable`: the body could not be built. */
type Outcome =
  | SendOutcome
  | { ok: false; reason: 'no_secret' | 'unsendable'; detail: string; durationMs: number; status?: undefined };

/** `WEBHOOK_RETRY_SCHEDULE`: seconds between attempts; attempts in all = entries + 1. */
export function retrySchedule(text: string): number[] {
  return text.split(',').map((s) => Number(s));
}

/**
 * One attempt of a task callback: the account's signing secret and language are read now (a rotation applies
 * at once, also to deliveries being retried), only the asset URLs (and `expiresAt`) are made anew, the body is
 * signed and POSTed with the guarded connection, and the attempt is recorded with the next one scheduled.
 * Without a signing secret the attempt counts as failed and nothing is sent.
 */
@Injectable()
export class DeliverCallbackUseCase {
  private readonly schedule: number[];
  private readonly allowPrivateCidrs: PrivateCidrAllowList;

  constructor(
    private readonly deliveries: DeliveryRepository,
    @Inject(ACCOUNT_DIRECTORY) private readonly accounts: AccountDirectory,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.schedule = retrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
    this.allowPrivateCidrs = parseAllowPrivateCidrs(config.WEBHOOK_ALLOW_PRIVATE_CIDRS);
  }

  async attempt(delivery: DeliveryRow): Promise<Outcome> {
    const n = delivery.attempts + 1;
    const at = this.clock.now();
    const settings = await this.accounts.callbackSettings(delivery.accountId);
    let outcome: Outcome;
    if (!settings?.signingSecret) {
      outcome = {
        ok: false,
        reason: 'no_secret',
        detail: 'the account has no signing secret',
        durationMs: 0,
      };
    } else {
      outcome = await this.send(delivery, settings.signingSecret, settings.language, at).catch(
        (error: unknown): Outcome => ({
          ok: false,
          reason: 'unsendable',
          detail: error instanceof Error ? error.message : String(error),
          durationMs: 0,
        }),
      );
    }
    const delay = this.schedule[n - 1];
    await this.deliveries.recordAttempt({
      deliveryId: delivery.id,
      n,
      at,
      outcome: outcome.ok ? 'delivered' : outcome.reason,
      status: outcome.status,
      detail: outcome.ok ? undefined : outcome.detail.slice(0, 500),
      durationMs: Math.round(outcome.durationMs),
      delivered: outcome.ok,
      nextAttemptAt: outcome.ok || delay === undefined ? null : new Date(at.getTime() + delay * 1000),
    });
    return outcome;
  }

  /** Builds, signs and sends the body; a body that cannot be built (a broken record) throws. */
  private async send(delivery: DeliveryRow, secret: string, languageSetting: string | null, at: Date) {
    const language = languageSetting && isSupportedLanguage(languageSetting) ? languageSetting : 'en';
    const record = await this.fresh(delivery.record, language);
    const body = delivery.payloadVersion === 2 ? callbackV2Body(record, delivery.id) : callbackV1Body(record);
    const headers = callbackHeaders({
      taskId: delivery.taskId,
      body,
      secret,
      timestampSeconds: Math.floor(at.getTime() / 1000),
      payloadVersion: delivery.payloadVersion,
    });
    return sendWebhook({
      url: delivery.url,
      headers,
      body,
      timeoutMs: CALLBACK_TIMEOUT_MS,
      allowPrivateCidrs: this.allowPrivateCidrs,
    });
  }

  /** The record with fresh signed URLs on stored assets, and the errorMessage in the account's language. */
  private async fresh(record: Record<string, unknown>, language: Parameters<typeof taskErrorMessage>[0]) {
    const output = record['output'] as { assets?: Record<string, unknown>[] } | undefined;
    const assets = output?.assets
      ? await Promise.all(
          output.assets.map(async (asset) => {
            if (asset['pending'] || asset['unavailable']) return asset;
            const signed = await this.storage.presignGet({
              key: asset['key'] as string,
              expiresInSeconds: CALLBACK_URL_SECONDS,
            });
            return { ...asset, url: signed.url, expiresAt: signed.expiresAt.toISOString() };
          }),
        )
      : undefined;
    const errorCode = record['errorCode'] as string | undefined;
    return {
      ...record,
      ...(assets ? { output: { ...output, assets } } : {}),
      ...(errorCode ? { errorMessage: taskErrorMessage(language, errorCode) } : {}),
    };
  }
}
