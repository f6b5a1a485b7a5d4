import { Inject, Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { APP_CONFIG, type AppConfig } from '@gen/core';
import { parseAllowPrivateCidrs, type PrivateCidrAllowList } from '@gen/ssrf';
import { sendWebhook, type SendOutcome } from './send-webhook';

/** Spec, Limits: a delivery attempt times out after 15 seconds (callbacks and endpoint messages alike). */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** `WEBHOOK_RETRY_SCHEDULE`: seconds between attempts; attempts in all = entries + 1. */
export function retrySchedule(text: string): number[] {
  return text.split(',').map((s) => Number(s));
}

/**
 * The trust of deliveries over HTTPS: the bundled public CAs plus the PEM bundle of `WEBHOOK_CA_FILE`
 * (on-premise receivers, tests). Undefined without the setting: Node's defaults apply. An unreadable file
 * stops start-up with a message naming the setting.
 */
export function deliveryTrust(caFile: string | undefined): SecureContext | undefined {
  if (!caFile) return undefined;
  let pem: string;
  try {
    pem = readFileSync(caFile, 'utf8');
  } catch (error) {
    throw new Error(`WEBHOOK_CA_FILE ${caFile} cannot be read: ${(error as Error).message}`);
  }
  return createSecureContext({ ca: [...rootCertificates, pem] });
}

/**
 * How every webhook attempt goes out, from the configuration read once: the guarded connection (the address
 * rule with `WEBHOOK_ALLOW_PRIVATE_CIDRS` as its only exception), the CA trust, the 15-second timeout, and the
 * retry schedule (`WEBHOOK_RETRY_SCHEDULE`, shared by task callbacks and endpoint messages).
 */
@Injectable()
export class WebhookSender {
  private readonly schedule: number[];
  private readonly allowPrivateCidrs: PrivateCidrAllowList;
  private readonly trust: SecureContext | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.schedule = retrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
    this.allowPrivateCidrs = parseAllowPrivateCidrs(config.WEBHOOK_ALLOW_PRIVATE_CIDRS);
    this.trust = deliveryTrust(config.WEBHOOK_CA_FILE);
  }

  /** One POST of the exact `body`; never throws, never follows a redirect. */
  send(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<SendOutcome> {
    return sendWebhook({
      url,
      headers,
      body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      allowPrivateCidrs: this.allowPrivateCidrs,
      ...(this.trust ? { secureContext: this.trust } : {}),
    });
  }

  /** When attempt `n + 1` is due after attempt `n` failed at `at`; null once the schedule has run out. */
  retryAt(n: number, at: Date): Date | null {
    const delay = this.schedule[n - 1];
    return delay === undefined ? null : new Date(at.getTime() + delay * 1000);
  }
}
