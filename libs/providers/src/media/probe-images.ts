import type { MediaFacts } from './media-facts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Both sides positive, or null: a zero-sized picture is not a picture. */
function sized(mime: string, width: number, height: number): MediaFacts | null {
  return width > 0 && height > 0 ? { mime, width, height } : null;
}

/** PNG: the IHDR chunk gives the size; every chunk must fit, up to IEND (a cut file has none). */
export function probePng(bytes: Buffer): MediaFacts | null {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  let facts: MediaFacts | null = null;
  for (let offset = 8; offset + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return null;
    if (offset === 8) {
      if (type !== 'IHDR' || length !== 13) return null;
      facts = sized('image/png', bytes.readUInt32BE(offset + 8), bytes.readUInt32BE(offset + 12));
      if (!facts) return null;
    }
    if (type === 'IEND') return facts;
    offset = end;
  }
  return null;
}

/** Start-of-frame markers: C0..CF except DHT (C4), JPG (C8) and DAC (CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * JPEG: walks the marker segments to the first SOFn (height, width), then requires a start of scan and an end
 * of image after it (a cut file has no EOI; entropy-coded data never contains FF D9).
 */
export function probeJpeg(bytes: Buffer): MediaFacts | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let facts: MediaFacts | null = null;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    let marker = bytes[offset + 1]!;
    while (marker === 0xff && offset + 2 < bytes.length) marker = bytes[++offset + 1]!; // fill bytes
    offset += 2;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xff || marker === 0xd8 || marker === 0xd9 || offset + 2 > bytes.length) return null;
    const length = bytes.readUInt16BE(offset);
    if (length < 2 || offset + length > bytes.length) return null;
    if (isStartOfFrame(marker) && !facts) {
      if (length < 7) return null;
      facts = sized('image/jpeg', bytes.readUInt16BE(offset + 5), bytes.readUInt16BE(offset + 3));
      if (!facts) return null;
    }
    if (marker === 0xda) {
      if (!facts) return null;
      const eoi = bytes.lastIndexOf(Buffer.from([0xff, 0xd9]));
      return eoi >= offset + length ? facts : null;
    }
    offset += length;
  }
  return null;
}

/** GIF: the logical screen size, and a walk over the blocks to the trailer (a cut file has none). */
export function probeGif(bytes: Buffer): MediaFacts | null {
  const magic = bytes.toString('latin1', 0, 6);
  if (bytes.length < 13 || (magic !== 'GIF87a' && magic !== 'GIF89a')) return null;
  const facts = sized('image/gif', bytes.readUInt16LE(6), bytes.readUInt16LE(8));
  if (!facts) return null;
  const colourTable = (flags: number): number => (flags & 0x80 ? 3 << ((flags & 0x07) + 1) : 0);
  let offset = 13 + colourTable(bytes[10]!);
  /** Skips data sub-blocks (a size byte, then that many bytes) to just after the zero terminator; -1 when cut. */
  const skipSubBlocks = (at: number): number => {
    for (let o = at; o < bytes.length; o += 1 + bytes[o]!) if (bytes[o] === 0) return o + 1;
    return -1;
  };
  while (offset < bytes.length) {
    const block = bytes[offset]!;
    if (block === 0x3b) return facts;
    if (block === 0x21) {
      offset = offset + 2 <= bytes.length ? skipSubBlocks(offset + 2) : -1;
    } else if (block === 0x2c) {
      if (offset + 10 > bytes.length) return null;
      offset = skipSubBlocks(offset + 10 + colourTable(bytes[offset + 9]!) + 1); // + LZW minimum code size
    } else return null;
    if (offset < 0) return null;
  }
  return null;
}

/** WebP: the canvas size of a lossy (VP8), lossless (VP8L) or extended (VP8X) file. */
export function probeWebp(bytes: Buffer): MediaFacts | null {
  if (bytes.length < 30 || bytes.toString('latin1', 0, 4) !== 'RIFF') return null;
  if (bytes.toString('latin1', 8, 12) !== 'WEBP' || bytes.readUInt32LE(4) + 8 > bytes.length) return null;
  const chunk = bytes.toString('latin1', 12, 16);
  const size = bytes.readUInt32LE(16);
  if (20 + size > bytes.length) return null;
  if (chunk === 'VP8 ') {
    if (size < 10 || bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return sized('image/webp', bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (size < 5 || bytes[20] !== 0x2f) return null;
    const bits = bytes.readUInt32LE(21);
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    if (size < 10) return null;
    return sized('image/webp', bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1);
  }
  return null;
}
