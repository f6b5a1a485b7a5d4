import { DAMAGED, type ContainerWalk } from './container-walk';

interface Box {
  readonly type: string;
  /** The box's payload, after its header. */
  readonly body: Buffer;
}

/**
 * The boxes of `area` by their sizes (32-bit, 64-bit, or 0 = to the end). `complete` is false when one runs
 * past the end (a cut file); `rest` counts bytes after the last box too few to be one.
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

/** A full box's timescale and duration (mvhd, mdhd: the same layout); null when too short or not known. */
function timing(body: Buffer): { timescale: number; duration: number } | null {
  if (body.length < (body[0] === 1 ? 32 : 20)) return null;
  const duration = versioned(body, 16, 24);
  // All ones in a version 0 box: the duration is not known.
  if (body[0] !== 1 && duration === 0xffffffff) return null;
  return { timescale: body.readUInt32BE(body[0] === 1 ? 20 : 12), duration };
}

interface Track {
  readonly handler: string;
  readonly width: number;
  readonly height: number;
  /** It lasts: its media header's duration is above 0 (or the movie is fragmented). */
  readonly lasts: boolean;
}

/** A `trak`: its handler, its header's size (16.16 fixed) and whether it lasts; null when malformed. */
function trackOf(trak: Box, fragmented: boolean): Track | null {
  const boxes = inner(trak);
  const mdia = inner(child(boxes ?? [], 'mdia'));
  const tkhd = child(boxes ?? [], 'tkhd');
  const hdlr = child(mdia ?? [], 'hdlr');
  if (!tkhd || !hdlr || hdlr.body.length < 12) return null;
  const at = tkhd.body[0] === 1 ? 88 : 76;
  if (tkhd.body.length < at + 8) return null;
  const mdhd = child(mdia!, 'mdhd');
  const media = mdhd && timing(mdhd.body);
  return {
    handler: hdlr.body.toString('latin1', 8, 12),
    width: tkhd.body.readUInt32BE(at) / 65536,
    height: tkhd.body.readUInt32BE(at + 4) / 65536,
    lasts: mdhd !== undefined && (fragmented || (!!media && media.timescale > 0 && media.duration > 0)),
  };
}

/**
 * MP4/MOV (ISO base media): `ftyp` first (or a QuickTime file starting with its movie box), every top-level box
 * within the file, and a `moov` whose boxes fill it, every `trak` readable. The type is QuickTime by the `qt  `
 * brand, audio/mp4 when the only tracks are sound, else video/mp4; the duration is mvhd's duration / timescale,
 * the picture size the first video track's header's (rounded). A movie without a video or audio track that
 * lasts (a media header whose duration is above 0, or fragments that `mvex` announces) is `noTrack`: a movie
 * header alone says how long the movie is, not that there is anything in it. The container has no end marker:
 * it ends after its last whole box.
 */
export function walkIsoBmff(bytes: Buffer): ContainerWalk {
  const firstType = bytes.toString('latin1', 4, 8);
  if (bytes.length < 16 || (firstType !== 'ftyp' && firstType !== 'moov')) return DAMAGED;
  const top = boxesOf(bytes);
  if (!top.complete) return DAMAGED;
  const moov = inner(child(top.boxes, 'moov'));
  const mvhd = moov && child(moov, 'mvhd');
  if (!moov || !mvhd || mvhd.body.length < (mvhd.body[0] === 1 ? 32 : 20)) return DAMAGED;
  const fragmented = child(moov, 'mvex') !== undefined;
  const tracks: Track[] = [];
  for (const trak of moov.filter((b) => b.type === 'trak')) {
    const track = trackOf(trak, fragmented);
    if (!track) return DAMAGED;
    tracks.push(track);
  }
  const brand = firstType === 'ftyp' ? top.boxes[0]!.body.toString('latin1', 0, 4) : 'qt  ';
  const video = tracks.find((t) => t.handler === 'vide');
  const audioOnly = !video && tracks.some((t) => t.handler === 'soun');
  const mime = brand === 'qt  ' ? 'video/quicktime' : audioOnly ? 'audio/mp4' : 'video/mp4';
  const movie = timing(mvhd.body);
  const size =
    video && video.width >= 1 && video.height >= 1
      ? { width: Math.round(video.width), height: Math.round(video.height) }
      : {};
  const playable = tracks.some((t) => (t.handler === 'vide' || t.handler === 'soun') && t.lasts);
  return {
    ok: true,
    facts: {
      mime,
      ...(movie && movie.timescale > 0 ? { durationSeconds: movie.duration / movie.timescale } : {}),
      ...size,
    },
    end: bytes.length - top.rest,
    unmarkedEnd: true,
    ...(playable ? {} : { noTrack: true as const }),
    ...(mvhd.body.readUInt32BE(mvhd.body[0] === 1 ? 20 : 12) === 0 ? { zeroTimescale: true as const } : {}),
  };
}
