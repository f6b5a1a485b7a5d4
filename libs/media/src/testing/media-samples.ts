import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Real media files made in code for tests (and benches): images through sharp, WAV, MP3, MP4 and WebM written
 * byte by byte with the structures their specifications define.
 */

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 20 } } });

export const pngSample = (width = 32, height = 24): Promise<Buffer> => solid(width, height).png().toBuffer();
export const jpegSample = (width = 32, height = 24): Promise<Buffer> =>
  solid(width, height).jpeg().toBuffer();
export const webpSample = (width = 32, height = 24): Promise<Buffer> =>
  solid(width, height).webp().toBuffer();
export const gifSample = (width = 32, height = 24): Promise<Buffer> => solid(width, height).gif().toBuffer();

/** An image of random pixels (incompressible): about `width * height * 3` bytes as PNG. */
export function noisePng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** PCM WAV, 8-bit mono: `seconds` of a square wave at `rate` samples a second. */
export function wavSample(seconds: number, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples + (samples % 2));
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate, 28); // bytes a second
  wav.writeUInt16LE(1, 32);
  wav.writeUInt16LE(8, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples, 40);
  for (let i = 0; i < samples; i += 1) wav[44 + i] = Math.floor(i / 20) % 2 ? 160 : 96;
  return wav;
}

export interface WavFormat {
  /** 1 PCM (default), 3 IEEE float, 6 A-law, 7 mu-law. */
  readonly format?: number;
  readonly channels?: number;
  readonly bits?: number;
  /** Written as WAVE_FORMAT_EXTENSIBLE with `format` as its SubFormat. */
  readonly extensible?: boolean;
}

/** A WAV of `seconds` of silence in any consistent format (the header's every field derived as decoders expect). */
export function wavOf(seconds: number, rate: number, wave: WavFormat = {}): Buffer {
  const { format = 1, channels = 1, bits = 16, extensible = false } = wave;
  const block = (channels * bits) / 8;
  const data = Math.round(seconds * rate) * block;
  const fmt = Buffer.alloc(extensible ? 40 : 16);
  fmt.writeUInt16LE(extensible ? 0xfffe : format, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate * block, 8);
  fmt.writeUInt16LE(block, 12);
  fmt.writeUInt16LE(bits, 14);
  if (extensible) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(bits, 18);
    fmt.writeUInt32LE(channels === 2 ? 3 : 4, 20);
    fmt.writeUInt16LE(format, 24);
    Buffer.from('000000001000800000aa00389b71', 'hex').copy(fmt, 26);
  }
  const chunk = (id: string, body: Buffer) => {
    const header = Buffer.alloc(8);
    header.write(id, 0, 'latin1');
    header.writeUInt32LE(body.length, 4);
    return Buffer.concat([header, body, Buffer.alloc(body.length % 2)]);
  };
  const body = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', fmt), chunk('data', Buffer.alloc(data))]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** A PNG whose header says `width` x `height` (8-bit grey), with only its first rows of pixel data. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(4 * (width + 1)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** MPEG-1 Layer III at 128 kbit/s, 44.1 kHz: silent frames of 417 bytes, 1152 samples each. */
export function mp3Sample(seconds: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  const frames = Math.floor((seconds * 44100) / 1152);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

const UNITY = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];

/**
 * An MP4 (ISO base media) with one video track of `seconds` (timescale 1000) and a media data box holding
 * `mdat` (64 bytes by default; bench/media passes megabytes to make a file of a real size). `tracks: false`
 * makes the 144-byte movie of a header alone (ftyp, then moov with mvhd only); `handler` and `mediaSeconds`
 * change the track's kind and its own duration.
 */
export function mp4Sample(
  seconds: number,
  width = 64,
  height = 48,
  mdat: Buffer = Buffer.alloc(64, 7),
  options: { readonly tracks?: boolean; readonly handler?: string; readonly mediaSeconds?: number } = {},
): Buffer {
  const timescale = 1000;
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(timescale, 12);
  mvhd.writeUInt32BE(Math.round(seconds * timescale), 16);
  mvhd.writeUInt32BE(0x10000, 20);
  mvhd.writeUInt16BE(0x100, 24);
  UNITY.forEach((v, i) => mvhd.writeUInt32BE(v, 36 + i * 4));
  mvhd.writeUInt32BE(2, 96);
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE(3, 0);
  tkhd.writeUInt32BE(1, 12);
  tkhd.writeUInt32BE(Math.round(seconds * timescale), 20);
  UNITY.forEach((v, i) => tkhd.writeUInt32BE(v, 40 + i * 4));
  tkhd.writeUInt32BE(width * 0x10000, 76);
  tkhd.writeUInt32BE(height * 0x10000, 80);
  const mdhd = Buffer.alloc(24);
  mdhd.writeUInt32BE(timescale, 12);
  mdhd.writeUInt32BE(Math.round((options.mediaSeconds ?? seconds) * timescale), 16);
  mdhd.writeUInt16BE(0x55c4, 20);
  const hdlr = Buffer.concat([
    Buffer.alloc(8),
    Buffer.from(options.handler ?? 'vide'),
    Buffer.alloc(12),
    Buffer.from('video\0'),
  ]);
  const empty = (type: string, bytes: number) => box(type, Buffer.alloc(bytes));
  const stbl = box(
    'stbl',
    empty('stsd', 8),
    empty('stts', 8),
    empty('stsc', 8),
    empty('stsz', 12),
    empty('stco', 8),
  );
  const dref = box('dref', Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), box('url ', Buffer.from([0, 0, 0, 1])));
  const minf = box('minf', empty('vmhd', 12), box('dinf', dref), stbl);
  const trak = box('trak', box('tkhd', tkhd), box('mdia', box('mdhd', mdhd), box('hdlr', hdlr), minf));
  const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1'));
  return Buffer.concat([
    ftyp,
    box('moov', box('mvhd', mvhd), ...(options.tracks === false ? [] : [trak])),
    ...(options.tracks === false ? [] : [box('mdat', mdat)]),
  ]);
}

/** An EBML element with an 8-byte size. */
function element(id: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const hex = id.toString(16);
  const idBytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const size = Buffer.alloc(8);
  size.writeUIntBE(body.length, 2, 6);
  size[0] = 0x01;
  return Buffer.concat([idBytes, size, body]);
}

const uintBytes = (value: number, length = 4): Buffer => {
  const out = Buffer.alloc(length);
  out.writeUIntBE(value, 0, length);
  return out;
};

/**
 * A WebM with one VP8 video track of `seconds` (Duration in Info), in one cluster of one block; `tracks: false`
 * leaves out its Tracks.
 */
export function webmSample(
  seconds: number,
  width = 64,
  height = 48,
  options: { readonly tracks?: boolean } = {},
): Buffer {
  const duration = Buffer.alloc(8);
  duration.writeDoubleBE(seconds * 1000); // in TimecodeScale units (1 ms)
  const header = element(
    0x1a45dfa3,
    element(0x4286, uintBytes(1, 1)),
    element(0x42f7, uintBytes(1, 1)),
    element(0x42f2, uintBytes(4, 1)),
    element(0x42f3, uintBytes(8, 1)),
    element(0x4282, Buffer.from('webm')),
    element(0x4287, uintBytes(2, 1)),
    element(0x4285, uintBytes(2, 1)),
  );
  const info = element(0x1549a966, element(0x2ad7b1, uintBytes(1_000_000, 3)), element(0x4489, duration));
  const video = element(0xe0, element(0xb0, uintBytes(width, 2)), element(0xba, uintBytes(height, 2)));
  const track = element(
    0xae,
    element(0xd7, uintBytes(1, 1)),
    element(0x83, uintBytes(1, 1)),
    element(0x86, Buffer.from('V_VP8')),
    video,
  );
  const block = Buffer.concat([Buffer.from([0x81, 0, 0, 0x80]), Buffer.alloc(32, 1)]);
  const cluster = element(0x1f43b675, element(0xe7, uintBytes(0, 1)), element(0xa3, block));
  const tracks = options.tracks === false ? [] : [element(0x1654ae6b, track)];
  return Buffer.concat([header, element(0x18538067, info, ...tracks, cluster)]);
}
