import { DAMAGED, NO_TRACK, type ContainerCheck } from './container-check';

interface Box {
  readonly type: string;
  readonly body: Buffer;
}

/**
 * The boxes of `area` by their sizes (32-bit, 64-bit, or 0 = to the end). `complete` is false when the last one
 * runs past the end (a cut file); `rest` counts bytes after the last box too few to be one (trailing data).
 */
function boxesOf(area: Buffer): { boxes: Box[]; complete: boolean; rest: number } {
  const boxes: Box[] = [];
  let offset = 0;
  while (offset + 8 <= area.length) {
    let size = area.readUInt32BE(offset);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > area.length) return { boxes, complete: false, rest: 0 };
      const large = area.readBigUInt64BE(offset + 8);
      size = large > BigInt(area.length) ? area.length + 1 : Number(large);
      header = 16;
    } else if (size === 0) size = area.length - offset;
    if (size < header || offset + size > area.length) return { boxes, complete: false, rest: 0 };
    boxes.push({
      type: area.toString('latin1', offset + 4, offset + 8),
      body: area.subarray(offset + header, offset + size),
    });
    offset += size;
  }
  return { boxes, complete: true, rest: area.length - offset };
}

const child = (boxes: readonly Box[], type: string): Box | undefined => boxes.find((b) => b.type === type);

/** Children of a box whose own boxes must fill it exactly; null otherwise. */
function inner(box: Box | undefined): Box[] | null {
  if (!box) return null;
  const { boxes, complete, rest } = boxesOf(box.body);
  return complete && rest === 0 ? boxes : null;
}

/** A full box's version-dependent field: 32-bit at `v0` (version 0) or 64-bit at `v1` (version 1). */
const versioned = (body: Buffer, v0: number, v1: number): number =>
  body[0] === 1 ? Number(body.readBigUInt64BE(v1)) : body.readUInt32BE(v0);

/** Width and height of the first video track (tkhd, 16.16 fixed point), when there is one. */
function pictureSize(moov: readonly Box[]): { width: number; height: number } | null {
  for (const trak of moov.filter((b) => b.type === 'trak')) {
    const boxes = inner(trak);
    const hdlr = child(inner(child(boxes ?? [], 'mdia')) ?? [], 'hdlr');
    const tkhd = child(boxes ?? [], 'tkhd');
    if (!tkhd || !hdlr || hdlr.body.length < 12 || hdlr.body.toString('latin1', 8, 12) !== 'vide') continue;
    const at = tkhd.body[0] === 1 ? 88 : 76;
    if (tkhd.body.length < at + 8) return null;
    const width = Math.round(tkhd.body.readUInt32BE(at) / 65536);
    const height = Math.round(tkhd.body.readUInt32BE(at + 4) / 65536);
    return width > 0 && height > 0 ? { width, height } : null;
  }
  return null;
}

/** A full box's timescale and duration (mvhd, mdhd: the same layout); null when the box is too short. */
function timing(body: Buffer): { timescale: number; duration: number } | null {
  if (body.length < (body[0] === 1 ? 32 : 20)) return null;
  const duration = versioned(body, 16, 24);
  // All ones in a version 0 box: the duration is not known.
  if (body[0] !== 1 && duration === 0xffffffff) return null;
  return { timescale: body.readUInt32BE(body[0] === 1 ? 20 : 12), duration };
}

/**
 * Whether the movie has a video or audio track that lasts: a `trak` with its track header, a `vide` or `soun`
 * handler and a media header whose duration is above 0 (a fragmented movie's tracks last by their fragments,
 * which `mvex` announces). A movie header alone says how long the movie is, not that there is anything in it.
 */
function hasPlayableTrack(moov: readonly Box[]): boolean {
  const fragmented = child(moov, 'mvex') !== undefined;
  for (const trak of moov.filter((b) => b.type === 'trak')) {
    const boxes = inner(trak);
    const mdia = inner(child(boxes ?? [], 'mdia'));
    const hdlr = child(mdia ?? [], 'hdlr');
    const mdhd = child(mdia ?? [], 'mdhd');
    if (!boxes || !child(boxes, 'tkhd') || !hdlr || !mdhd || hdlr.body.length < 12) continue;
    if (!['vide', 'soun'].includes(hdlr.body.toString('latin1', 8, 12))) continue;
    const media = timing(mdhd.body);
    if (fragmented || (media && media.timescale > 0 && media.duration > 0)) return true;
  }
  return false;
}

/**
 * MP4 (ISO base media): `ftyp` first, every top-level box within the file and together exactly the file,
 * a `moov` whose boxes fill it, with at least one video or audio track that lasts (else `no_track`); the
 * duration is mvhd's duration / timescale, the picture size the video track's.
 */
export function checkIsoBmff(bytes: Buffer): ContainerCheck {
  if (bytes.length < 16 || bytes.toString('latin1', 4, 8) !== 'ftyp') return DAMAGED;
  const top = boxesOf(bytes);
  if (!top.complete) return DAMAGED;
  if (top.rest > 0) return { ok: false, problem: 'trailing_data' };
  const moov = inner(child(top.boxes, 'moov'));
  const mvhd = moov && child(moov, 'mvhd');
  if (!moov || !mvhd || mvhd.body.length < (mvhd.body[0] === 1 ? 32 : 20)) return DAMAGED;
  if (!hasPlayableTrack(moov)) return NO_TRACK;
  const movie = timing(mvhd.body);
  const size = pictureSize(moov);
  return {
    ok: true,
    ...(movie && movie.timescale > 0 ? { durationSeconds: movie.duration / movie.timescale } : {}),
    ...(size ?? {}),
  };
}
