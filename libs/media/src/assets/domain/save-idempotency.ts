import { BusinessCode } from '@gen/contracts';
import { DomainError } from '@gen/core';
import { createHash } from 'node:crypto';

/** How long an Idempotency-Key of POST /api/v1/assets answers with the asset it saved (as for createTask). */
export const ASSET_IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header saving requires: absent is 400, so is one that is not 1-255 visible ASCII. */
export function requiredIdempotencyKey(header: string | undefined): string {
  if (header === undefined) throw new DomainError(BusinessCode.InvalidRequest, 'idempotency.required');
  if (!IDEMPOTENCY_KEY.test(header)) {
    throw new DomainError(BusinessCode.InvalidRequest, 'idempotency.invalid_key');
  }
  return header;
}

/** What makes two saves the same request: the body with its defaults filled in. */
export interface SaveRequest {
  readonly uri: string;
  readonly name?: string;
  readonly favorite?: boolean;
  readonly collectionId?: string;
}

/** The fingerprint a repeated key is compared with: `{uri}` and `{uri, favorite: false}` are the same save. */
export function saveFingerprint(request: SaveRequest): string {
  const normalized = [
    request.uri,
    request.name ?? null,
    request.favorite ?? false,
    request.collectionId ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(normalized)).digest('hex');
}
