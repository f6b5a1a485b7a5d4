import type { Provider } from '@nestjs/common';
import { BusinessCode } from '@gen/contracts';
import { APP_CONFIG, DomainError, type AppConfig } from '@gen/core';
import {
  checkCallbackUrl,
  parseAllowPrivateCidrs,
  type HostResolver,
  type PrivateCidrAllowList,
} from '@gen/ssrf';

/**
 * The save-time check of an endpoint URL (spec, Events, Account-level endpoint deliveries, item 1): HTTPS on
 * port 443, no credentials, and every address the host resolves to public (or inside
 * `WEBHOOK_ALLOW_PRIVATE_CIDRS`). A refusal is 400 "Invalid callback URL" and never names the host or address.
 */
export class EndpointUrlPolicy {
  constructor(
    private readonly allowPrivateCidrs: PrivateCidrAllowList,
    /** The system resolver by default; tests give their own. */
    private readonly lookup?: HostResolver,
  ) {}

  /** The URL to store (WHATWG-normalised), or a 400. */
  async accept(raw: string): Promise<string> {
    const checked = await checkCallbackUrl(raw, {
      requireHttps: true,
      allowPrivateCidrs: this.allowPrivateCidrs,
      ...(this.lookup ? { lookup: this.lookup } : {}),
    });
    // The check allows ports 80 and 443; an https URL keeps an explicit port only when it is not 443. The
    // rule broken goes along as `reason` (scheme, credentials, port, host, unresolvable, private_address, ...):
    // only the console's answers carry it, and it never names the host or an address.
    if (!checked.ok)
      throw new DomainError(BusinessCode.InvalidRequest, 'callback.invalid', { reason: checked.reason });
    if (new URL(checked.url).port !== '')
      throw new DomainError(BusinessCode.InvalidRequest, 'callback.invalid', { reason: 'port' });
    return checked.url;
  }
}

export const endpointUrlPolicyProvider: Provider = {
  provide: EndpointUrlPolicy,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) =>
    new EndpointUrlPolicy(parseAllowPrivateCidrs(config.WEBHOOK_ALLOW_PRIVATE_CIDRS)),
};
