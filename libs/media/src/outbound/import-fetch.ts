import type { SecureContext } from 'node:tls';
import { BusinessCode } from '@gen/contracts';
import { DomainError, type MessageId, type MessageParams } from '@gen/core';
import {
  fetchGuarded,
  GuardedFetchError,
  type FetchedBody,
  type GuardedFetchFailure,
  type HostResolver,
  type PrivateCidrAllowList,
} from '@gen/ssrf';

export interface ImportFetchOptions {
  /** Sent once, as `Authorization: Bearer`, to the first URL only (never to a redirect's target). */
  readonly accessToken?: string;
  readonly allowPrivateCidrs: PrivateCidrAllowList;
  readonly secureContext?: SecureContext;
  readonly resolver?: HostResolver;
  /** Bigger bodies fail while they stream in (413). */
  readonly maxBytes: number;
  /** How long the source may send nothing (no headers, no next chunk). */
  readonly idleTimeoutMs: number;
  /** How long the whole fetch may take, redirects included (FETCH_DEADLINE_SECONDS); refused past it (400). */
  readonly deadlineMs?: number;
  readonly maxRedirects: number;
  /** Aborts the fetch (the client gone); it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export type FetchedFile = FetchedBody;

/** The User-Agent of every fetch of a user-given URL (imports, media URLs in task input). */
export const FETCH_USER_AGENT = 'Service-Import/1';

const MESSAGES: Readonly<Record<Exclude<GuardedFetchFailure, 'too_large' | 'deadline'>, MessageId>> = {
  url_refused: 'import.invalid_url',
  redirect_refused: 'import.redirect_refused',
  http_status: 'import.http_status',
  unreachable: 'import.unreachable',
};

/**
 * Fetches a user-given URL for an import through the shared guard (`fetchGuarded` of libs/ssrf, the guard
 * of callbacks): https on port 443, no credentials, public addresses at acceptance and at connection,
 * redirects checked the same way, the size limit enforced while the body arrives, the whole fetch within its
 * deadline. Refusals are DomainErrors (400, or 413 when too large); nothing here logs the URL's query or the
 * token.
 */
export async function fetchImport(url: string, options: ImportFetchOptions): Promise<FetchedFile> {
  try {
    return await fetchGuarded(url, { ...options, userAgent: FETCH_USER_AGENT });
  } catch (error) {
    if (!(error instanceof GuardedFetchError)) throw error;
    if (error.reason === 'too_large') {
      throw new DomainError(BusinessCode.PayloadTooLarge, 'import.too_large', { limit: options.maxBytes });
    }
    if (error.reason === 'deadline') {
      throw new DomainError(BusinessCode.InvalidRequest, 'import.deadline', {
        seconds: Math.round((options.deadlineMs ?? 0) / 1000),
      });
    }
    const params: MessageParams = error.status === undefined ? {} : { status: error.status };
    throw new DomainError(BusinessCode.InvalidRequest, MESSAGES[error.reason], params);
  }
}
