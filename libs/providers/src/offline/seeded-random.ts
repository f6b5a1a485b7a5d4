import { createHash } from 'node:crypto';

/**
 * Determinism: every offline output is drawn from a SHA-256 of its inputs, so the same input gives the same
 * bytes on every machine and any change of prompt, seed or option gives a different file.
 */
export function digestOf(...parts: readonly (string | number | undefined)[]): Buffer {
  return createHash('sha256')
    .update(JSON.stringify(parts.map((p) => p ?? null)))
    .digest();
}

/** mulberry32 seeded from the first 4 bytes of a digest: a small, fast, reproducible PRNG in [0, 1). */
export function randomFrom(digest: Buffer): () => number {
  let state = digest.readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rgb = readonly [number, number, number];

/** A colour from three digest bytes, kept away from pure black and white so shapes stay visible. */
export function colourAt(digest: Buffer, offset: number): Rgb {
  const c = (i: number) => 32 + Math.floor((digest[(offset + i) % digest.length]! * 191) / 255);
  return [c(0), c(1), c(2)];
}
