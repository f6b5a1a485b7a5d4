import { DAMAGED, type ContainerWalk } from './container-walk';

/** kbps by bitrate index 1..14: MPEG-1 layers I, II, III, then MPEG-2/2.5 layer I and layers II/III. */
const BITRATES = {
  v1l1: [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
/** Hz by sample-rate index 0..2, for MPEG-1, MPEG-2 and MPEG-2.5. */
const SAMPLE_RATES = { 1: [44100, 48000, 32000], 2: [22050, 24000, 16000], 25: [11025, 12000, 8000] };

export interface MpegFrame {
  readonly version: 1 | 2 | 25;
  readonly layer: 1 | 2 | 3;
  readonly sampleRate: number;
  readonly bitrateKbps: number;
  readonly samples: number;
  readonly length: number;
  readonly mono: boolean;
}

/** The MPEG audio frame header at `offset`, or null (no sync, reserved values, free-format bitrate). */
export function mpegFrameAt(bytes: Buffer, offset: number): MpegFrame | null {
  if (offset < 0 || offset + 4 > bytes.length) return null;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = ([25, 0, 2, 1] as const)[(b1 >> 3) & 3];
  const layer = ([0, 3, 2, 1] as const)[(b1 >> 1) & 3];
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (!version || !layer || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const table =
    version === 1
      ? [BITRATES.v1l1, BITRATES.v1l2, BITRATES.v1l3][layer - 1]!
      : layer === 1
        ? BITRATES.v2l1
        : BITRATES.v2l23;
  const bitrateKbps = table[bitrateIndex - 1]!;
  const sampleRate = SAMPLE_RATES[version][rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const samples = layer === 1 ? 384 : layer === 3 && version !== 1 ? 576 : 1152;
  const length =
    layer === 1
      ? (Math.floor((12_000 * bitrateKbps) / sampleRate) + padding) * 4
      : Math.floor(((samples / 8) * 1000 * bitrateKbps) / sampleRate) + padding;
  return { version, layer, sampleRate, bitrateKbps, samples, length, mono: bytes[offset + 3]! >> 6 === 3 };
}

/** The size of an ID3v2 tag at the start (header, body, footer), 0 when none; -1 when it is malformed. */
function id3v2Size(bytes: Buffer): number {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 3) !== 'ID3') return 0;
  let size = 0;
  for (let i = 6; i < 10; i++) {
    if (bytes[i]! & 0x80) return -1;
    size = (size << 7) | bytes[i]!;
  }
  return 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
}

/** The frame count (and byte count) of a Xing/Info or VBRI header in the first frame, when it has one. */
function vbrHeader(
  bytes: Buffer,
  offset: number,
  frame: MpegFrame,
): { frames: number; bytes?: number } | null {
  const sideInfo = frame.version === 1 ? (frame.mono ? 17 : 32) : frame.mono ? 9 : 17;
  const xing = offset + 4 + sideInfo;
  const tag = bytes.toString('latin1', xing, xing + 4);
  if ((tag === 'Xing' || tag === 'Info') && xing + 16 <= bytes.length) {
    const flags = bytes.readUInt32BE(xing + 4);
    if (!(flags & 1)) return null;
    return {
      frames: bytes.readUInt32BE(xing + 8),
      bytes: flags & 2 ? bytes.readUInt32BE(xing + 12) : undefined,
    };
  }
  const vbri = offset + 36;
  if (bytes.toString('latin1', vbri, vbri + 4) === 'VBRI' && vbri + 18 <= bytes.length) {
    return { frames: bytes.readUInt32BE(vbri + 14), bytes: bytes.readUInt32BE(vbri + 10) };
  }
  return null;
}

/**
 * MP3 (and MPEG audio layers I/II): after an optional ID3v2 tag, frames back to back from the first byte after
 * it; an ID3v1 tag (128 bytes, `TAG`) may close them. A frame cut short, a malformed ID3v2 size or a Xing/VBRI
 * header that counts no frames or more bytes than the file has is damage. The container ends after the last
 * whole frame (and the ID3v1 tag): it has no end marker, so bytes that are not a frame end it. The duration is
 * the Xing/Info or VBRI frame count when the first frame carries one, otherwise the frames counted (for a
 * constant bitrate, exactly what the size gives). Frames that change sample rate or layer are `mixedFrames`.
 */
export function walkMpegAudio(bytes: Buffer): ContainerWalk {
  const start = id3v2Size(bytes);
  if (start < 0 || start > bytes.length) return DAMAGED;
  const first = mpegFrameAt(bytes, start);
  if (!first || start + first.length > bytes.length) return DAMAGED;
  const vbr = vbrHeader(bytes, start, first);
  if (vbr && (vbr.frames === 0 || (vbr.bytes !== undefined && start + vbr.bytes > bytes.length)))
    return DAMAGED;
  let frames = 0;
  let mixed = false;
  let offset = start;
  while (offset < bytes.length) {
    const frame = mpegFrameAt(bytes, offset);
    if (!frame) break;
    if (offset + frame.length > bytes.length) return DAMAGED;
    mixed ||= frame.sampleRate !== first.sampleRate || frame.layer !== first.layer;
    offset += frame.length;
    frames++;
  }
  const id3v1 = bytes.length - offset === 128 && bytes.toString('latin1', offset, offset + 3) === 'TAG';
  const counted = vbr ? vbr.frames : frames;
  return {
    ok: true,
    facts: { mime: 'audio/mpeg', durationSeconds: (counted * first.samples) / first.sampleRate },
    end: id3v1 ? bytes.length : offset,
    unmarkedEnd: true,
    ...(mixed ? { mixedFrames: true as const } : {}),
  };
}
