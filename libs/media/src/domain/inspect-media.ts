// The declaration of file-type (see file-type.d.ts) must reach every program that compiles this file, the apps'
// own typecheck included; an import cannot load a declaration-only script.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./file-type.d.ts" />
import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { parseBuffer } from 'music-metadata';
import sharp, { type SharpOptions } from 'sharp';
import { walkContainer, type WellFormed } from '@gen/providers/media-inspection';
import type { MediaFacts, Refusal } from './media-file';
import { MAX_MEDIA_SECONDS, kindOf, mediaTypeOf, type MediaType } from './media-types';

export type Inspection =
  { readonly ok: true; readonly facts: MediaFacts } | { readonly ok: false; readonly refusal: Refusal };

/** Largest picture decoded, in pixels (sharp's limitInputPixels; a decompression bomb is refused unread). */
export const MAX_IMAGE_PIXELS = 100_000_000;

const refuse = (messageId: Refusal['messageId'], params: Refusal['params']): Inspection => ({
  ok: false,
  refusal: { messageId, params },
});

/** The supported type the bytes are, by their magic numbers (file-type); null for any other. */
export async function detectMediaType(bytes: Buffer): Promise<MediaType | null> {
  const detected = await fileTypeFromBuffer(bytes);
  return detected ? mediaTypeOf(detected.mime) : null;
}

/** An image over MAX_IMAGE_PIXELS: its size (a frame's, for an animation) and its pixels in all. */
interface TooManyPixels {
  readonly width: number;
  readonly height: number;
  readonly pixels: number;
}

/**
 * Decodes every pixel row (to a small picture, which keeps memory and time low: a PNG is inflated whole, a
 * JPEG's every entropy-coded block is read; a picture already that small is decoded as it is, never enlarged);
 * the size, or null when it fails. Decoder warnings count as failures: a JPEG cut short whose end marker was
 * put back decodes with a warning only. A picture over the pixel limit is never decoded (sharp refuses it
 * first); its header then says how big it is, so that the refusal names the limit rather than damage.
 */
async function decodeImage(
  bytes: Buffer,
): Promise<{ width: number; height: number } | { tooMany: TooManyPixels } | null> {
  const options: SharpOptions = {
    failOn: 'warning',
    limitInputPixels: MAX_IMAGE_PIXELS,
    animated: true,
    sequentialRead: true,
  };
  try {
    // Both start now, on libuv's thread pool: the header's facts and the decode of every row. Two instances
    // over the same buffer: `clone()` would copy the bytes (structuredClone of its options).
    const [metadata] = await Promise.all([
      sharp(bytes, options).metadata(),
      sharp(bytes, options).resize(256, 256, { fit: 'inside', withoutEnlargement: true }).raw().toBuffer(),
    ]);
    const height = metadata.pageHeight ?? metadata.height;
    return metadata.width && height ? { width: metadata.width, height } : null;
  } catch {
    return oversized(bytes, options);
  }
}

/** The size of a picture whose decode failed, when it is over the pixel limit (the header alone is read). */
async function oversized(bytes: Buffer, options: SharpOptions): Promise<{ tooMany: TooManyPixels } | null> {
  try {
    const header = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
    // Animated: `height` is every frame's stacked, as the decoder (and its limit) counts them.
    const pixels = (header.width ?? 0) * (header.height ?? 0);
    if (!header.width || !header.height || pixels <= MAX_IMAGE_PIXELS) return null;
    return { tooMany: { width: header.width, height: header.pageHeight ?? header.height, pixels } };
  } catch {
    return null;
  }
}

const sha256Of = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** An audio file's duration as music-metadata measures it (MP3: every frame counted); undefined when it cannot. */
async function audioDuration(bytes: Buffer, type: MediaType): Promise<number | undefined> {
  try {
    const parsed = await parseBuffer(
      bytes,
      { mimeType: type, size: bytes.length },
      { duration: true, skipCovers: true },
    );
    return parsed.format.duration;
  } catch {
    return undefined;
  }
}

/**
 * The refusal a well-formed container earns as an upload, or null: bytes after the container's end (a
 * polyglot: appended data), a video without a track to play, a header whose fields contradict each other.
 */
function containerRefusal(
  walk: WellFormed,
  declared: MediaType,
  length: number,
): [Refusal['messageId'], Refusal['params']] | null {
  if (walk.end < length) return ['media.trailing_data', { contentType: declared }];
  if (walk.noTrack) return ['media.no_track', { contentType: declared }];
  if (walk.headerFault) return ['media.inconsistent_header', { contentType: declared, ...walk.headerFault }];
  return null;
}

/**
 * Verifies that `bytes` are one well-formed file of the `declared` type, from the bytes alone: not empty; the
 * type of the magic numbers is the declared one; the container spans exactly the bytes (no cut part, nothing
 * appended: a polyglot is refused); an image decodes; audio and video have a measurable duration of at most
 * 600 seconds. Gives the facts (SHA-256, size, duration) or the refusal to show the client.
 */
export async function inspectMedia(bytes: Buffer, declared: MediaType): Promise<Inspection> {
  if (bytes.length === 0) return refuse('media.empty', {});
  const detected = await detectMediaType(bytes);
  if (!detected) return refuse('media.type_unknown', { declared });
  if (detected !== declared) return refuse('media.type_mismatch', { declared, detected });
  const walk = walkContainer(bytes, declared);
  if (!walk.ok) return refuse('media.damaged', { contentType: declared });
  const refusal = containerRefusal(walk, declared, bytes.length);
  if (refusal) return refuse(...refusal);
  const container = walk.facts;
  const kind = kindOf(declared);
  if (kind === 'image') {
    // The decoder runs on libuv's thread pool: the hash is computed here meanwhile, not after it.
    const decoding = decodeImage(bytes);
    const sha256 = sha256Of(bytes);
    const size = await decoding;
    if (size && 'tooMany' in size)
      return refuse('media.too_many_pixels', { ...size.tooMany, max: MAX_IMAGE_PIXELS });
    return size
      ? { ok: true, facts: { sha256, ...size } }
      : refuse('media.damaged', { contentType: declared });
  }
  const sha256 = sha256Of(bytes);
  const duration = kind === 'audio' ? await audioDuration(bytes, declared) : container.durationSeconds;
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) {
    return refuse('media.no_duration', { contentType: declared });
  }
  const seconds = Math.round(duration * 1000) / 1000;
  if (seconds > MAX_MEDIA_SECONDS) return refuse('media.too_long', { seconds, max: MAX_MEDIA_SECONDS });
  const picture =
    container.width && container.height ? { width: container.width, height: container.height } : {};
  return { ok: true, facts: { sha256, durationSeconds: seconds, ...picture } };
}
