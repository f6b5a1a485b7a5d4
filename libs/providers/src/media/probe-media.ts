import { probeGif, probeJpeg, probePng, probeWebp } from './probe-images';
import { probeIsoBmff } from './probe-iso-bmff';
import { probeMpegAudio } from './probe-mpeg-audio';
import { probeAvi, probeWav } from './probe-riff';
import type { MediaFacts } from './media-facts';

export type { MediaFacts } from './media-facts';

/** Tried in order; each answers only for its own magic numbers, so the order matters only for speed. */
const PROBES: readonly ((bytes: Buffer) => MediaFacts | null)[] = [
  probePng,
  probeJpeg,
  probeGif,
  probeWebp,
  probeWav,
  probeAvi,
  probeIsoBmff,
  probeMpegAudio,
];

/**
 * The type, pixel size and duration of an image, audio or video file: PNG, JPEG, GIF, WebP, WAV, MP3 (MPEG
 * audio), AVI, MP4/MOV. WebM/Matroska is not recognised. Null for any other, truncated or corrupt input.
 * Never throws; every loop advances through the bytes, so hostile input costs at most one pass.
 */
export function probeMedia(bytes: Buffer): MediaFacts | null {
  for (const probe of PROBES) {
    try {
      const facts = probe(bytes);
      if (facts) return valid(facts) ? facts : null;
    } catch {
      return null; // a read past the end that a bounds check missed: corrupt input
    }
  }
  return null;
}

function valid(facts: MediaFacts): boolean {
  const positive = (n: number | undefined): boolean => n === undefined || (Number.isFinite(n) && n > 0);
  return (
    positive(facts.width) && positive(facts.height) && positive(facts.durationSeconds) && positive(facts.fps)
  );
}
