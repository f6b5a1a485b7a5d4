import type { SecureContext } from 'node:tls';
import type { HostResolver, PrivateCidrAllowList } from '@gen/ssrf';

/** How long an upload URL works. */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** How long after its URL expired a pending upload can still be committed; then the retention sweep removes it. */
export const COMMIT_WINDOW_SECONDS = 60 * 60;

/** Retry-After of an import refused because its key has as many in progress as it may. */
export const IMPORT_RETRY_AFTER_SECONDS = 5;

/** How the media module behaves, from the configuration read once. */
export interface MediaOptions {
  readonly uploadUrlSeconds: number;
  readonly commitWindowSeconds: number;
  /** How long one fetch of a user-given URL may take in all (`FETCH_DEADLINE_SECONDS`), milliseconds. */
  readonly fetchDeadlineMs: number;
  /** Imports one API key may have in progress at once (`IMPORT_CONCURRENCY_PER_KEY`). */
  readonly importsPerKey: number;
  /** How imports fetch: `FETCH_ALLOW_PRIVATE_CIDRS`, the CAs of `FETCH_CA_FILE`, and (tests) the resolver. */
  readonly fetch: {
    readonly allowPrivateCidrs: PrivateCidrAllowList;
    readonly secureContext?: SecureContext;
    readonly resolver?: HostResolver;
  };
}

export const MEDIA_OPTIONS = Symbol('MEDIA_OPTIONS');
