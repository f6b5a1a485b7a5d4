/**
 * Small hand-built media files for the probe specs: each written from its format's layout, with known size and
 * duration. Not for production: the bodies are zeros or filler, only the structure is real.
 */
import { deflateSync } from 'node:zlib';
import { AviBgr24Writer } from '../encoders/avi-encoder';
import { crc32 } from '../encoders/crc32';

const u16be = (n: number): Buffer => Buffer.from([n >> 8, n & 0xff]);
const u32be = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u32le = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u16le = (n: number): Buffer => Buffer.from([n & 0xff, n >> 8]);
const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

export function samplePng(width: number, height: number): Buffer {
  const chunk = (type: string, body: Buffer): Buffer => {
    const typed = Buffer.concat([ascii(type), body]);
    return Buffer.concat([u32be(body.length), typed, u32be(crc32(typed))]);
  };
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  const rows = deflateSync(Buffer.alloc((1 + 3 * width) * height));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Baseline or progressive JPEG structure: SOI, APP0 (JFIF), DQT, SOFn, DHT, SOS, scan bytes, EOI. */
export function sampleJpeg(width: number, height: number, sof = 0xc0): Buffer {
  const segment = (marker: number, body: Buffer): Buffer =>
    Buffer.concat([Buffer.from([0xff, marker]), u16be(body.length + 2), body]);
  const jfif = Buffer.concat([ascii('JFIF\0'), Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0])]);
  const sofBody = Buffer.concat([
    Buffer.from([8]),
    u16be(height),
    u16be(width),
    Buffer.from([1, 1, 0x11, 0]),
  ]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, jfif),
    segment(0xdb, Buffer.alloc(65, 1)),
    Buffer.from([0xff, 0xff]), // a fill byte before the next marker
    segment(sof, sofBody),
    segment(0xc4, Buffer.concat([Buffer.from([0]), Buffer.alloc(16, 0), Buffer.from([])])),
    segment(0xda, Buffer.from([1, 1, 0, 0, 63, 0])),
    Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]), // scan data with a stuffed FF and a restart marker
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A GIF89a with a global colour table, a graphic control extension, one image and the trailer. */
export function sampleGif(width: number, height: number): Buffer {
  return Buffer.concat([
    ascii('GIF89a'),
    u16le(width),
    u16le(height),
    Buffer.from([0xf0, 0, 0]), // global colour table of 2 entries
    Buffer.alloc(6, 0x80),
    Buffer.from([0x21, 0xf9, 4, 0, 10, 0, 0, 0]), // graphic control extension
    Buffer.from([0x2c]),
    u16le(0),
    u16le(0),
    u16le(width),
    u16le(height),
    Buffer.from([0]),
    Buffer.from([2, 2, 0x4c, 0x01, 0]), // LZW minimum code size 2, one sub-block, terminator
    Buffer.from([0x3b]),
  ]);
}

function riff(form: string, chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  return Buffer.concat([ascii('RIFF'), u32le(4 + body.length), ascii(form), body]);
}
const riffChunk = (id: string, body: Buffer): Buffer =>
  Buffer.concat([ascii(id), u32le(body.length), body, Buffer.alloc(body.length % 2)]);

export function sampleWebp(kind: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  if (kind === 'VP8 ') {
    const frame = Buffer.concat([
      Buffer.from([0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a]),
      u16le(width),
      u16le(height),
    ]);
    return riff('WEBP', [riffChunk('VP8 ', Buffer.concat([frame, Buffer.alloc(8)]))]);
  }
  if (kind === 'VP8L') {
    const bits = u32le(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14));
    return riff('WEBP', [riffChunk('VP8L', Buffer.concat([Buffer.from([0x2f]), bits, Buffer.alloc(4)]))]);
  }
  const canvas = Buffer.alloc(10);
  canvas.writeUIntLE(width - 1, 4, 3);
  canvas.writeUIntLE(height - 1, 7, 3);
  return riff('WEBP', [riffChunk('VP8X', canvas), riffChunk('ALPH', Buffer.alloc(3))]);
}

/** A WAV of `seconds` at the rate and channel count given (16-bit PCM), with a LIST chunk before the data. */
export function sampleWav(seconds: number, sampleRate: number, channels: number): Buffer {
  const byteRate = sampleRate * channels * 2;
  const fmt = Buffer.concat([
    u16le(1),
    u16le(channels),
    u32le(sampleRate),
    u32le(byteRate),
    u16le(channels * 2),
    u16le(16),
  ]);
  const info = Buffer.concat([ascii('INFO'), riffChunk('ISFT', ascii('probe\0'))]);
  return riff('WAVE', [
    riffChunk('fmt ', fmt),
    riffChunk('LIST', info),
    riffChunk('data', Buffer.alloc(Math.round(seconds * byteRate))),
  ]);
}

export function sampleAvi(width: number, height: number, fps: number, frameCount: number): Buffer {
  return new AviBgr24Writer({ width, height, fps, frameCount }).bytes;
}

/** An MPEG-1 layer III frame header: 128 kbps, 44.1 kHz, stereo (417 bytes, 418 with padding). */
function mp3Header(padding: boolean): Buffer {
  return Buffer.from([0xff, 0xfb, 0x90 | (padding ? 0x02 : 0), 0x00]);
}
export const MP3_FRAME_SAMPLES = 1152;
export const MP3_SAMPLE_RATE = 44_100;

/** `frames` CBR frames (every third padded), optionally behind an ID3v2 tag and ahead of an ID3v1 tag. */
export function sampleMp3(frames: number, tags = false): Buffer {
  const parts: Buffer[] = [];
  if (tags)
    parts.push(Buffer.concat([ascii('ID3'), Buffer.from([4, 0, 0, 0, 0, 1, 0x05]), Buffer.alloc(133)]));
  for (let i = 0; i < frames; i++) {
    const padded = i % 3 === 2;
    parts.push(Buffer.concat([mp3Header(padded), Buffer.alloc(padded ? 414 : 413)]));
  }
  if (tags) parts.push(Buffer.concat([ascii('TAG'), Buffer.alloc(125, 0x20)]));
  return Buffer.concat(parts);
}

/** A first frame holding a Xing header that says `frames` frames follow, then only `present` of them. */
export function sampleMp3Xing(frames: number, present: number): Buffer {
  const first = Buffer.concat([mp3Header(false), Buffer.alloc(413)]);
  first.write('Xing', 4 + 32, 'latin1');
  first.writeUInt32BE(0x1, 4 + 36); // flags: frame count only
  first.writeUInt32BE(frames, 4 + 40);
  return Buffer.concat([first, sampleMp3(present)]);
}

const box = (type: string, ...body: Buffer[]): Buffer => {
  const inner = Buffer.concat(body);
  return Buffer.concat([u32be(8 + inner.length), ascii(type), inner]);
};

function tkhd(width: number, height: number): Buffer {
  const body = Buffer.alloc(84);
  body.writeUInt32BE(1, 12); // track id
  body.writeUInt32BE(Math.round(width * 65536), 76);
  body.writeUInt32BE(Math.round(height * 65536), 80);
  return box('tkhd', body);
}

function track(handler: 'vide' | 'soun', width: number, height: number): Buffer {
  const hdlr = Buffer.alloc(25);
  hdlr.write(handler, 8, 'latin1');
  return box('trak', tkhd(width, height), box('mdia', box('mdhd', Buffer.alloc(24)), box('hdlr', hdlr)));
}

export interface Mp4Layout {
  brand?: string;
  timescale: number;
  duration: number;
  /** Pixel size of the video track (none: audio only). */
  video?: { width: number; height: number };
  /** Version 1 mvhd (64-bit times). */
  version1?: boolean;
  /** moov after mdat, as most encoders write it. */
  moovLast?: boolean;
}

export function sampleMp4(layout: Mp4Layout): Buffer {
  const ftyp = box('ftyp', ascii(layout.brand ?? 'isom'), u32be(512), ascii('isomiso2mp41'));
  let mvhd: Buffer;
  if (layout.version1) {
    mvhd = Buffer.alloc(112);
    mvhd[0] = 1;
    mvhd.writeUInt32BE(layout.timescale, 20);
    mvhd.writeBigUInt64BE(BigInt(layout.duration), 24);
  } else {
    mvhd = Buffer.alloc(100);
    mvhd.writeUInt32BE(layout.timescale, 12);
    mvhd.writeUInt32BE(layout.duration, 16);
  }
  const tracks = [track('soun', 0, 0)];
  if (layout.video) tracks.unshift(track('vide', layout.video.width, layout.video.height));
  const moov = box('moov', box('mvhd', mvhd), ...tracks);
  const mdat = box('mdat', Buffer.alloc(300, 7));
  return Buffer.concat(layout.moovLast ? [ftyp, mdat, moov] : [ftyp, moov, mdat]);
}
