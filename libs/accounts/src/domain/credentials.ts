import { createHmac } from 'node:crypto';
import {
  ADMIN_TOKEN_PREFIX,
  API_KEY_PREFIX,
  CONSOLE_LINK_PREFIX,
  CONSOLE_TOKEN_PREFIX,
  IdPrefix,
} from '@gen/contracts';
import { randomBase62 } from '@gen/core';

const KEY_BODY = 16;
const KEY_SECRET = 40;
const API_KEY = new RegExp(`^${API_KEY_PREFIX}([0-9A-Za-z]{${KEY_BODY}})_([0-9A-Za-z]{${KEY_SECRET}})$`);

/** What names a key in the admin API, as a pattern: its id (`key_<16 base62>`) or the whole key. */
export const KEY_REFERENCE_PATTERN =
  `^(?:${IdPrefix.apiKey}_[0-9A-Za-z]{${KEY_BODY}}` +
  `|${API_KEY_PREFIX}[0-9A-Za-z]{${KEY_BODY}}_[0-9A-Za-z]{${KEY_SECRET}})$`;

export interface IssuedApiKey {
  readonly keyId: string;
  /** The whole key, shown once: `gts_<16 chars>_<40 chars>`. */
  readonly apiKey: string;
}

/** A new API key: a fixed prefix, the public lookup part (the key id's body) and a 238-bit secret part. */
export function issueApiKey(): IssuedApiKey {
  const body = randomBase62(KEY_BODY);
  return {
    keyId: `${IdPrefix.apiKey}_${body}`,
    apiKey: `${API_KEY_PREFIX}${body}_${randomBase62(KEY_SECRET)}`,
  };
}

/** The key id a presented key claims, or null when the text is not shaped like one of our keys. */
export function keyIdOf(presented: string): string | null {
  const match = API_KEY.exec(presented);
  return match ? `${IdPrefix.apiKey}_${match[1]}` : null;
}

export const issueConsoleToken = (): string => `${CONSOLE_TOKEN_PREFIX}${randomBase62(43)}`;
/** The one-time token of a console sign-in link (256 bits). */
export const issueConsoleLinkToken = (): string => `${CONSOLE_LINK_PREFIX}${randomBase62(43)}`;

/**
 * The CSRF token of a cookie session: derived from the session token (HMAC keyed by it), so the server can
 * hand it out again to a reloaded page that still holds the cookie, while only its hash is stored. Knowing
 * it reveals nothing of the session token.
 */
export const csrfTokenOf = (sessionToken: string): string =>
  createHmac('sha256', sessionToken).update('console csrf v1').digest('base64url');

/** The public part of an API key that the console lists: the fixed prefix and the key id's body. */
export const keyPrefixOf = (keyId: string): string =>
  `${API_KEY_PREFIX}${keyId.slice(IdPrefix.apiKey.length + 1)}`;
export const issueAdminToken = (): string => `${ADMIN_TOKEN_PREFIX}${randomBase62(40)}`;
/** The account-wide callback signing secret (HMAC key of task callbacks). */
export const issueSigningSecret = (): string => `sk_sign_${randomBase62(32)}`;
