import { randomBytes, randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID (26 Crockford base32 characters): 48-bit millisecond time, then 80 random bits. Sorts by time. */
export function ulid(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i += 1) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let random = '';
  for (let i = 0; i < 16; i += 1) random += CROCKFORD[nextRandomByte() & 31];
  return time + random;
}

// Ids are made on every request: draw their random bits from a pool refilled 4 KiB at a time.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function nextRandomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
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
