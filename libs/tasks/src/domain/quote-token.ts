import { createHmac, timingSafeEqual } from 'node:crypto';

/** Spec, Limits: a quote is valid for five minutes. */
export const QUOTE_VALIDITY_MS = 5 * 60 * 1000;
const PREFIX = 'quo_';

/** What a quote binds: the account, the API key, the exact normalized request, and the price. */
export interface QuoteClaims {
  readonly accountId: string;
  readonly keyId: string;
  /** sha256 of the normalized model, input and callback URL. */
  readonly request: string;
  /** Customer price, USD decimal. */
  readonly price: string;
  /** Maximum charge (the hold), USD decimal. */
  readonly maxCharge: string;
  /** Unix milliseconds. */
  readonly expiresAt: number;
}

/**
 * A quote id is the claims themselves, signed: `quo_<base64url(json)>.<base64url(hmac)>`. Nothing is stored,
 * so a quote creates nothing, and any process holding the key can check it.
 */
export function signQuote(claims: QuoteClaims, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${PREFIX}${body}.${mac(body, key)}`;
}

/** The claims of a genuine quote id, or null for anything else (forged, altered, malformed). */
export function readQuote(quoteId: string, key: Buffer): QuoteClaims | null {
  if (!quoteId.startsWith(PREFIX) || quoteId.length > 4096) return null;
  const [body, signature, extra] = quoteId.slice(PREFIX.length).split('.');
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(body, key));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as QuoteClaims;
  } catch {
    return null;
  }
}

function mac(body: string, key: Buffer): string {
  return createHmac('sha256', key).update(`quote.v1.${body}`).digest('base64url');
}
