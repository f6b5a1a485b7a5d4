import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Tokens and API key secrets are 190+ bit random strings, so a fast keyed-free SHA-256 is the right hash:
 * nothing to brute-force, and it keeps the key lookup on the hot path cheap. Only the hash is stored.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
