import { formatOf, walkContainer } from './inspection';
import type { MediaFacts } from './media-facts';

export type { MediaFacts } from './media-facts';

/**
 * The type, pixel size and duration of an image, audio or video file: PNG, JPEG, GIF, WebP, WAV, MP3 (MPEG
 * audio), AVI, MP4/MOV, by the one walk of its container (`walkContainer`, as uploads are inspected). Null for
 * any other, truncated or corrupt input: a part cut short or malformed, a WAV header whose fields contradict
 * each other, MP3 frames that change sample rate or layer, an MP4 movie timescale of 0, bytes after the last
 * frame or box of a format with no end marker (MP3, MP4), or a size, duration or frame rate that is not above
 * 0. Bytes after a marked end (PNG's IEND, JPEG's EOI, GIF's trailer, a RIFF form's size) are left alone, as
 * they always were on this path; uploads refuse them. Never throws; hostile input costs at most one pass.
 */
export function probeMedia(bytes: Buffer): MediaFacts | null {
  const format = formatOf(bytes);
  if (!format || format === 'video/webm') return null; // WebM/Matroska is not an output this path knows
  const walk = walkContainer(bytes, format);
  if (!walk.ok) return null;
  if (walk.headerFault || walk.mixedFrames || walk.zeroTimescale) return null;
  if (walk.unmarkedEnd && walk.end !== bytes.length) return null;
  return valid(walk.facts) ? walk.facts : null;
}

function valid(facts: MediaFacts): boolean {
  const positive = (n: number | undefined): boolean => n === undefined || (Number.isFinite(n) && n > 0);
  return (
    positive(facts.width) && positive(facts.height) && positive(facts.durationSeconds) && positive(facts.fps)
  );
}
