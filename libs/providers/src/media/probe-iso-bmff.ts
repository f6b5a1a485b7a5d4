import type { MediaFacts } from './media-facts';

interface Box {
  readonly type: string;
  /** The box's payload, after its header. */
  readonly body: Buffer;
}

/** The boxes inside `area` by their declared sizes (32-bit, 64-bit, or 0 = to the end); null when one runs past. */
function boxesOf(area: Buffer): Box[] | null {
  const boxes: Box[] = [];
  for (let offset = 0; offset < area.length;) {
    if (offset + 8 > area.length) return null;
    let size = area.readUInt32BE(offset);
    const type = area.toString('latin1', offset + 4, offset + 8);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > area.length) return null;
      const large = area.readBigUInt64BE(offset + 8);
      if (large > BigInt(area.length)) return null;
      size = Number(large);
      header = 16;
    } else if (size === 0) size = area.length - offset;
    if (size < header || offset + size > area.length) return null;
    boxes.push({ type, body: area.subarray(offset + header, offset + size) });
    offset += size;
  }
  return boxes;
}

function child(boxes: readonly Box[] | null | undefined, type: string): Box | undefined {
  return boxes?.find((box) => box.type === type);
}

/** A full box's version-dependent field: 32-bit at `v0` (version 0) or 64-bit at `v1` (version 1). */
function versioned(body: Buffer, v0: number, v1: number): number {
  return body[0] === 1 ? Number(body.readBigUInt64BE(v1)) : body.readUInt32BE(v0);
}

interface Track {
  readonly handler: string;
  readonly width: number;
  readonly height: number;
}

function trackOf(trak: Box): Track | null {
  const boxes = boxesOf(trak.body);
  const tkhd = child(boxes, 'tkhd');
  const hdlr = child(boxesOf(child(boxes, 'mdia')?.body ?? Buffer.alloc(0)), 'hdlr');
  if (!tkhd || !hdlr || hdlr.body.length < 12) return null;
  const at = tkhd.body[0] === 1 ? 88 : 76;
  if (tkhd.body.length < at + 8) return null;
  return {
    handler: hdlr.body.toString('latin1', 8, 12),
    width: tkhd.body.readUInt32BE(at) / 65536,
    height: tkhd.body.readUInt32BE(at + 4) / 65536,
  };
}

/**
 * MP4/MOV (ISO base media): `ftyp` first (or a QuickTime file starting with its movie box), then `moov`:
 * the duration is mvhd's duration / timescale, the size the video track's tkhd width and height (16.16 fixed,
 * rounded). Every box must fit inside its parent, so a cut file (mdat or moov cut short) is null.
 */
export function probeIsoBmff(bytes: Buffer): MediaFacts | null {
  const firstType = bytes.toString('latin1', 4, 8);
  if (bytes.length < 16 || (firstType !== 'ftyp' && firstType !== 'moov')) return null;
  const top = boxesOf(bytes);
  const moov = child(top, 'moov');
  if (!top || !moov) return null;
  const brand = firstType === 'ftyp' ? top[0]!.body.toString('latin1', 0, 4) : 'qt  ';
  const inner = boxesOf(moov.body);
  const mvhd = child(inner, 'mvhd');
  if (!inner || !mvhd || mvhd.body.length < (mvhd.body[0] === 1 ? 32 : 20)) return null;
  const timescale = mvhd.body.readUInt32BE(mvhd.body[0] === 1 ? 20 : 12);
  const duration = versioned(mvhd.body, 16, 24);
  if (timescale === 0) return null;
  const tracks = inner.filter((box) => box.type === 'trak').map(trackOf);
  if (tracks.some((track) => track === null)) return null;
  const video = tracks.find((track) => track!.handler === 'vide');
  const audioOnly = !video && tracks.some((track) => track!.handler === 'soun');
  const mime = brand === 'qt  ' ? 'video/quicktime' : audioOnly ? 'audio/mp4' : 'video/mp4';
  const facts: { mime: string; width?: number; height?: number; durationSeconds?: number } = { mime };
  const unknown = mvhd.body[0] === 1 ? false : duration === 0xffffffff;
  if (!unknown) facts.durationSeconds = duration / timescale;
  if (video && video.width >= 1 && video.height >= 1) {
    facts.width = Math.round(video.width);
    facts.height = Math.round(video.height);
  }
  return facts;
}
