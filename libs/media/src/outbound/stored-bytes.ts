import type { ObjectStorage } from '@gen/storage';

/**
 * The bytes stored at `key`, read to the end but never more than `limit` (a larger object gives its first
 * `limit + 1` bytes, enough to tell it is too large); null when there is no object.
 */
export async function readStoredBytes(
  storage: ObjectStorage,
  key: string,
  limit: number,
): Promise<Buffer | null> {
  const object = await storage.read(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of object.stream) {
      const part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(part);
      size += part.length;
      if (size > limit) break;
    }
  } finally {
    object.stream.destroy();
  }
  return Buffer.concat(chunks, Math.min(size, limit + 1));
}
