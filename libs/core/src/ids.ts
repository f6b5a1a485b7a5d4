import { randomBytes, randomFillSync } from 'node:crypto';
import { Type, type TString } from '@sinclair/typebox';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The time part of a ULID: 10 characters for 48 bits of milliseconds. */
function timePart(now: number): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i += 1) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

/** Every 10-bit value as its two Crockford characters: a random part is 8 lookups. */
const PAIRS = Array.from({ length: 1024 }, (_, v) => CROCKFORD[v >> 5]! + CROCKFORD[v & 31]!);

// Ids are made on every request: the time part is kept for the millisecond it was made in, and the random
// bits are drawn from a pool refilled 4 KiB at a time (exactly 410 ids of 10 bytes each).
let lastTime = -1;
let lastTimePart = '';
const pool = Buffer.alloc(4100);
let poolOffset = pool.length;

/** A ULID (26 Crockford base32 characters): 48-bit millisecond time, then 80 random bits. Sorts by time. */
export function ulid(now: number = Date.now()): string {
  if (now !== lastTime) {
    lastTimePart = timePart(now);
    lastTime = now;
  }
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const b = pool;
  const o = poolOffset;
  poolOffset += 10;
  // The 80 bits of 10 bytes, read as a bit string 10 bits at a time: twice 5 bytes = 4 values of 10 bits.
  const random =
    PAIRS[(b[o]! << 2) | (b[o + 1]! >> 6)]! +
    PAIRS[((b[o + 1]! & 63) << 4) | (b[o + 2]! >> 4)]! +
    PAIRS[((b[o + 2]! & 15) << 6) | (b[o + 3]! >> 2)]! +
    PAIRS[((b[o + 3]! & 3) << 8) | b[o + 4]!]! +
    PAIRS[(b[o + 5]! << 2) | (b[o + 6]! >> 6)]! +
    PAIRS[((b[o + 6]! & 63) << 4) | (b[o + 7]! >> 4)]! +
    PAIRS[((b[o + 7]! & 15) << 6) | (b[o + 8]! >> 2)]! +
    PAIRS[((b[o + 8]! & 3) << 8) | b[o + 9]!]!;
  return lastTimePart + random;
}

/** `<prefix>_<ulid>`, e.g. `req_01JD4ZQ9A1B2C3D4E5F6G7H8J9`. */
export function newId(prefix: string, now?: number): string {
  return `${prefix}_${ulid(now)}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random base62 string of the given length (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A ULID as a regular expression (no anchors): 26 Crockford base32 characters, upper case. */
export const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';

/**
 * The whole-string pattern of the ids `newId(prefix)` makes (`^job_<ulid>$`). Ids taken from a request are
 * checked against it before any query, so a malformed id (NUL, another shape) is a 400, never a lookup.
 */
export function ulidIdPattern(...prefixes: readonly string[]): string {
  const prefix = prefixes.length === 1 ? prefixes[0]! : `(?:${prefixes.join('|')})`;
  return `^${prefix}_${ULID_PATTERN}$`;
}

/** The schema of an id taken from a request (query, body or route parameter): `ulidIdPattern(...prefixes)`. */
export function idSchema(...prefixes: readonly string[]): TString {
  const shapes = prefixes.map((prefix) => `\`${prefix}_\``).join(' or ');
  return Type.String({
    pattern: ulidIdPattern(...prefixes),
    description: `${shapes} and 26 Crockford base32 characters (a ULID); any other text is 400.`,
  });
}
