import { DAMAGED, type ContainerWalk } from './container-walk';

/** Element ids (with their length marker, as the Matroska specification writes them). */
const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackType: 0x83,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
} as const;

interface Element {
  readonly id: number;
  /** Where its data starts and ends; `end` is the parent's end for an element of unknown size. */
  readonly start: number;
  readonly end: number;
}

/** A variable-length integer at `at`: its value (marker bit removed, or kept for ids) and its length. */
function vint(
  bytes: Buffer,
  at: number,
  keepMarker: boolean,
): { value: number; length: number; allOnes: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i += 1) {
    value = value * 256 + bytes[at + i]!;
    allOnes &&= bytes[at + i] === 0xff;
  }
  return { value, length, allOnes };
}

/** The element whose id starts at `offset`, its end bounded by `to`; null when malformed or past `to`. */
function elementAt(bytes: Buffer, offset: number, to: number): Element | null {
  const id = vint(bytes, offset, true);
  const size = id && vint(bytes, offset + id.length, false);
  if (!id || !size) return null;
  const start = offset + id.length + size.length;
  const end = size.allOnes ? to : start + size.value;
  return end > to ? null : { id: id.value, start, end };
}

/** The elements between `from` and `to`; null when one is malformed or runs past `to`. */
function elements(bytes: Buffer, from: number, to: number): Element[] | null {
  const out: Element[] = [];
  for (let offset = from; offset < to;) {
    const element = elementAt(bytes, offset, to);
    if (!element) return null;
    out.push(element);
    offset = element.end;
  }
  return out;
}

const find = (list: readonly Element[] | null, id: number): Element | undefined =>
  list?.find((e) => e.id === id);

function uint(bytes: Buffer, e: Element | undefined): number | undefined {
  if (!e || e.end - e.start > 6 || e.end === e.start) return undefined;
  return bytes.readUIntBE(e.start, e.end - e.start);
}

function float(bytes: Buffer, e: Element | undefined): number | undefined {
  if (!e) return undefined;
  if (e.end - e.start === 4) return bytes.readFloatBE(e.start);
  if (e.end - e.start === 8) return bytes.readDoubleBE(e.start);
  return undefined;
}

/** The first video track's PixelWidth and PixelHeight. */
function pictureSize(bytes: Buffer, segment: readonly Element[]): { width: number; height: number } | null {
  const tracks = find(segment, ID.tracks);
  const entries = tracks ? elements(bytes, tracks.start, tracks.end) : null;
  for (const entry of entries?.filter((e) => e.id === ID.trackEntry) ?? []) {
    const video = find(elements(bytes, entry.start, entry.end), ID.video);
    if (!video) continue;
    const fields = elements(bytes, video.start, video.end);
    const width = uint(bytes, find(fields, ID.pixelWidth));
    const height = uint(bytes, find(fields, ID.pixelHeight));
    return width && height ? { width, height } : null;
  }
  return null;
}

/** Whether Tracks holds a video (TrackType 1) or audio (2) track: without one there is nothing to play. */
function hasPlayableTrack(bytes: Buffer, segment: readonly Element[]): boolean {
  const tracks = find(segment, ID.tracks);
  const entries = tracks ? elements(bytes, tracks.start, tracks.end) : null;
  return (entries ?? []).some((entry) => {
    if (entry.id !== ID.trackEntry) return false;
    const type = uint(bytes, find(elements(bytes, entry.start, entry.end), ID.trackType));
    return type === 1 || type === 2;
  });
}

/**
 * WebM (Matroska): an EBML header of DocType `webm`, then one Segment, where the container ends (a segment of
 * unknown size, as live recorders write, runs to the end of the file); the Segment's top-level elements must fit
 * it, and its Tracks must hold a video or audio track (else `noTrack`). The duration is Info's Duration x
 * TimecodeScale (nanoseconds). Nothing inside a segment followed by other bytes is read.
 */
export function walkWebm(bytes: Buffer): ContainerWalk {
  const header = elementAt(bytes, 0, bytes.length);
  if (!header || header.id !== ID.ebml) return DAMAGED;
  const docType = find(elements(bytes, header.start, header.end), ID.docType);
  if (!docType || bytes.toString('latin1', docType.start, docType.end).replace(/\0+$/, '') !== 'webm') {
    return DAMAGED;
  }
  // Bounded by infinity, so that a segment longer than the file is seen as cut rather than as malformed.
  const segment = elementAt(bytes, header.end, Number.MAX_SAFE_INTEGER);
  if (!segment || segment.id !== ID.segment) return DAMAGED;
  const end = segment.end === Number.MAX_SAFE_INTEGER ? bytes.length : segment.end;
  if (end > bytes.length) return DAMAGED;
  if (end < bytes.length) return { ok: true, facts: { mime: 'video/webm' }, end };
  const children = elements(bytes, segment.start, end);
  if (!children) return DAMAGED;
  const info = find(children, ID.info);
  const fields = info ? elements(bytes, info.start, info.end) : null;
  const scale = uint(bytes, find(fields, ID.timecodeScale)) ?? 1_000_000;
  const duration = float(bytes, find(fields, ID.duration));
  const size = pictureSize(bytes, children);
  return {
    ok: true,
    facts: {
      mime: 'video/webm',
      ...(duration !== undefined && Number.isFinite(duration)
        ? { durationSeconds: (duration * scale) / 1e9 }
        : {}),
      ...(size ?? {}),
    },
    end,
    ...(hasPlayableTrack(bytes, children) ? {} : { noTrack: true as const }),
  };
}
