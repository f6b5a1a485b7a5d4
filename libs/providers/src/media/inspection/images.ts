import { DAMAGED, sized, type ContainerWalk } from './container-walk';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG: IHDR first (its size both sides above 0), then chunks by their lengths up to IEND. */
export function walkPng(bytes: Buffer): ContainerWalk {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return DAMAGED;
  let size: { width: number; height: number } | undefined;
  for (let offset = 8; offset + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return DAMAGED;
    if (offset === 8) {
      if (type !== 'IHDR' || length !== 13) return DAMAGED;
      size = sized(bytes.readUInt32BE(offset + 8), bytes.readUInt32BE(offset + 12));
      if (!size) return DAMAGED;
    }
    if (type === 'IEND') return { ok: true, facts: { mime: 'image/png', ...size }, end };
    offset = end;
  }
  return DAMAGED;
}

/** Markers that stand alone (no length): TEM and the restart markers. */
const standalone = (marker: number): boolean => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

/** Start-of-frame markers: C0..CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * JPEG: marker segments by their lengths, the first SOFn giving the size (height, width) before any start of
 * scan; after each start of scan, the entropy-coded data (where FF is followed by 00, a restart marker or fill)
 * up to the next marker; the container ends after EOI.
 */
export function walkJpeg(bytes: Buffer): ContainerWalk {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return DAMAGED;
  let offset = 2;
  let size: { width: number; height: number } | undefined;
  let scanned = false;
  while (offset + 2 <= bytes.length) {
    if (bytes[offset] !== 0xff) return DAMAGED;
    let marker = bytes[offset + 1]!;
    while (marker === 0xff && offset + 2 < bytes.length) marker = bytes[++offset + 1]!; // fill bytes
    offset += 2;
    if (marker === 0xd9) {
      return scanned && size ? { ok: true, facts: { mime: 'image/jpeg', ...size }, end: offset } : DAMAGED;
    }
    if (standalone(marker)) continue;
    if (marker === 0xd8 || marker === 0xff || offset + 2 > bytes.length) return DAMAGED;
    const length = bytes.readUInt16BE(offset);
    if (length < 2 || offset + length > bytes.length) return DAMAGED;
    if (isStartOfFrame(marker) && !size) {
      if (length < 7) return DAMAGED;
      size = sized(bytes.readUInt16BE(offset + 5), bytes.readUInt16BE(offset + 3));
      if (!size) return DAMAGED;
    }
    offset += length;
    if (marker === 0xda) {
      if (!size) return DAMAGED;
      scanned = true;
      offset = endOfEntropyData(bytes, offset);
    }
  }
  return DAMAGED;
}

/** The offset of the first marker after entropy-coded data starting at `from` (the length when none). */
function endOfEntropyData(bytes: Buffer, from: number): number {
  for (let i = bytes.indexOf(0xff, from); i !== -1 && i + 1 < bytes.length; i = bytes.indexOf(0xff, i + 1)) {
    const next = bytes[i + 1]!;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      i += 1;
      continue;
    }
    if (next !== 0xff) return i;
  }
  return bytes.length;
}

/**
 * GIF: the logical screen size (both sides above 0) and colour table, then extension and image blocks to the
 * trailer, where the container ends.
 */
export function walkGif(bytes: Buffer): ContainerWalk {
  const magic = bytes.toString('latin1', 0, 6);
  if (bytes.length < 14 || (magic !== 'GIF87a' && magic !== 'GIF89a')) return DAMAGED;
  const size = sized(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
  if (!size) return DAMAGED;
  const colourTable = (flags: number): number => (flags & 0x80 ? 3 << ((flags & 0x07) + 1) : 0);
  /** Skips data sub-blocks to just after their zero terminator; -1 when cut short. */
  const skipSubBlocks = (at: number): number => {
    for (let o = at; o < bytes.length; o += 1 + bytes[o]!) if (bytes[o] === 0) return o + 1;
    return -1;
  };
  let offset = 13 + colourTable(bytes[10]!);
  while (offset >= 0 && offset < bytes.length) {
    const block = bytes[offset]!;
    if (block === 0x3b) return { ok: true, facts: { mime: 'image/gif', ...size }, end: offset + 1 };
    if (block === 0x21) offset = offset + 2 <= bytes.length ? skipSubBlocks(offset + 2) : -1;
    else if (block === 0x2c) {
      if (offset + 11 > bytes.length) return DAMAGED;
      offset = skipSubBlocks(offset + 10 + colourTable(bytes[offset + 9]!) + 1); // + LZW minimum code size
    } else return DAMAGED;
  }
  return DAMAGED;
}
