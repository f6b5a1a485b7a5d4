import { DAMAGED, sized, type ContainerWalk, type HeaderFault } from './container-walk';

/** One chunk of a RIFF file: its id and where its data is (for a LIST, after its list type). */
interface Chunk {
  readonly id: string;
  readonly start: number;
  readonly size: number;
  readonly listType?: string;
}

/** The chunks between `from` and `to`, by their sizes (padded to even); null when one runs past `to`. */
function chunksIn(bytes: Buffer, from: number, to: number): Chunk[] | null {
  const chunks: Chunk[] = [];
  for (let offset = from; offset < to;) {
    if (offset + 8 > to) return null;
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const start = offset + 8;
    if (start + size > to) return null;
    if (id === 'LIST') {
      if (size < 4) return null;
      const listType = bytes.toString('latin1', start, start + 4);
      chunks.push({ id, start: start + 4, size: size - 4, listType });
    } else chunks.push({ id, start, size });
    offset = start + size + (size % 2);
  }
  return chunks;
}

/**
 * A RIFF file of `form` (WAVE, WEBP, AVI ): its chunks, every one within the declared size, and where the form
 * ends (after the pad byte of an odd size when the file has it); null when the declared size runs past the end.
 */
function riffForm(bytes: Buffer, form: string): { chunks: Chunk[]; end: number } | null {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF') return null;
  if (bytes.toString('latin1', 8, 12) !== form) return null;
  const end = 8 + bytes.readUInt32LE(4);
  if (end > bytes.length) return null;
  const chunks = chunksIn(bytes, 12, end);
  if (!chunks) return null;
  return { chunks, end: end % 2 === 1 && end + 1 === bytes.length ? bytes.length : end };
}

/** WAVE_FORMAT_* tags of uncompressed (and G.711) audio, whose every field can be checked against the others. */
const PCM = 1;
const IEEE_FLOAT = 3;
const A_LAW = 6;
const MU_LAW = 7;
const EXTENSIBLE = 0xfffe;

/** The bits per sample each encoding allows. */
const BITS: Readonly<Record<number, readonly number[]>> = {
  [PCM]: [8, 16, 24, 32],
  [IEEE_FLOAT]: [32, 64],
  [A_LAW]: [8],
  [MU_LAW]: [8],
};
/** The highest sample rate accepted (the highest rate audio interfaces offer). */
export const MAX_WAV_SAMPLE_RATE = 768_000;
/** The GUID of WAVE_FORMAT_EXTENSIBLE's SubFormat after its first two bytes (the format tag it stands for). */
const SUBFORMAT_TAIL = Buffer.from('000000001000800000aa00389b71', 'hex');

const fault = (field: string, value: number, expected: string): HeaderFault => ({ field, value, expected });

/**
 * The `fmt ` chunk of a WAV file checked the way a decoder reads it: an encoding whose samples are what they
 * claim (PCM, IEEE float, A-law, mu-law, or WAVE_FORMAT_EXTENSIBLE of PCM or float), at least one channel, a
 * sample rate, bits per sample the encoding allows, and the derived fields consistent with them: blockAlign =
 * numChannels x bitsPerSample / 8 and byteRate = sampleRate x blockAlign (the data's duration is its size /
 * byteRate). A header with 0 channels or a byte rate of 1 would otherwise pass as a WAV of any duration.
 * `damaged` when the chunk is too short for its format; null when consistent.
 */
function waveFormatFault(bytes: Buffer, fmt: Chunk): HeaderFault | 'damaged' | null {
  const at = fmt.start;
  let format = bytes.readUInt16LE(at);
  const channels = bytes.readUInt16LE(at + 2);
  const sampleRate = bytes.readUInt32LE(at + 4);
  const byteRate = bytes.readUInt32LE(at + 8);
  const blockAlign = bytes.readUInt16LE(at + 12);
  const bitsPerSample = bytes.readUInt16LE(at + 14);
  if (format === EXTENSIBLE) {
    // cbSize (22), validBitsPerSample, channelMask, SubFormat (16 bytes).
    if (fmt.size < 40 || bytes.readUInt16LE(at + 16) < 22) return 'damaged';
    const subFormat = bytes.readUInt16LE(at + 24);
    const known = bytes.subarray(at + 26, at + 40).equals(SUBFORMAT_TAIL);
    if (!known || (subFormat !== PCM && subFormat !== IEEE_FLOAT))
      return fault('subFormat', subFormat, `${PCM}, ${IEEE_FLOAT}`);
    const validBits = bytes.readUInt16LE(at + 18);
    if (validBits < 1 || validBits > bitsPerSample)
      return fault('validBitsPerSample', validBits, `1–${bitsPerSample}`);
    format = subFormat;
  }
  const allowed = BITS[format];
  if (!allowed) return fault('audioFormat', format, [PCM, IEEE_FLOAT, A_LAW, MU_LAW, EXTENSIBLE].join(', '));
  if (channels < 1) return fault('numChannels', channels, '≥ 1');
  if (sampleRate < 1 || sampleRate > MAX_WAV_SAMPLE_RATE)
    return fault('sampleRate', sampleRate, `1–${MAX_WAV_SAMPLE_RATE}`);
  if (!allowed.includes(bitsPerSample)) return fault('bitsPerSample', bitsPerSample, allowed.join(', '));
  const block = (channels * bitsPerSample) / 8;
  if (blockAlign !== block)
    return fault('blockAlign', blockAlign, `${block} (numChannels × bitsPerSample / 8)`);
  if (byteRate !== sampleRate * block)
    return fault('byteRate', byteRate, `${sampleRate * block} (sampleRate × blockAlign)`);
  return null;
}

/**
 * WAV: a RIFF WAVE file whose `fmt ` chunk comes before its `data` chunk; the duration is the data's size / the
 * byte rate. A `fmt ` whose fields are inconsistent is reported as the header fault.
 */
export function walkWav(bytes: Buffer): ContainerWalk {
  const form = riffForm(bytes, 'WAVE');
  if (!form) return DAMAGED;
  const fmt = form.chunks.findIndex((c) => c.id === 'fmt ');
  const data = form.chunks.findIndex((c) => c.id === 'data');
  if (fmt < 0 || data < 0 || data < fmt || form.chunks[fmt]!.size < 16) return DAMAGED;
  const headerFault = waveFormatFault(bytes, form.chunks[fmt]!);
  if (headerFault === 'damaged') return DAMAGED;
  const byteRate = bytes.readUInt32LE(form.chunks[fmt]!.start + 8);
  const facts = {
    mime: 'audio/wav',
    ...(byteRate > 0 ? { durationSeconds: form.chunks[data]!.size / byteRate } : {}),
  };
  return { ok: true, facts, end: form.end, ...(headerFault ? { headerFault } : {}) };
}

/** WebP: a RIFF WEBP file whose first chunk is a lossy (VP8), lossless (VP8L) or extended (VP8X) one: the canvas. */
export function walkWebp(bytes: Buffer): ContainerWalk {
  const form = riffForm(bytes, 'WEBP');
  const first = form?.chunks[0];
  if (!form || !first) return DAMAGED;
  const at = first.start;
  let size: { width: number; height: number } | undefined;
  if (first.id === 'VP8 ') {
    if (first.size < 10 || bytes[at + 3] !== 0x9d || bytes[at + 4] !== 0x01 || bytes[at + 5] !== 0x2a)
      return DAMAGED;
    size = sized(bytes.readUInt16LE(at + 6) & 0x3fff, bytes.readUInt16LE(at + 8) & 0x3fff);
  } else if (first.id === 'VP8L') {
    if (first.size < 5 || bytes[at] !== 0x2f) return DAMAGED;
    const bits = bytes.readUInt32LE(at + 1);
    size = sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  } else if (first.id === 'VP8X') {
    if (first.size < 10) return DAMAGED;
    size = sized(bytes.readUIntLE(at + 4, 3) + 1, bytes.readUIntLE(at + 7, 3) + 1);
  }
  return size ? { ok: true, facts: { mime: 'image/webp', ...size }, end: form.end } : DAMAGED;
}

const findChunk = (chunks: readonly Chunk[], match: (c: Chunk) => boolean): Chunk | undefined =>
  chunks.find(match);

/**
 * AVI: width and height from the main header (avih), and a `movi` list. The duration is the video stream's
 * length x scale / rate (strh) when there is one, which is exact, and the frame rate rate / scale; otherwise
 * avih's total frames x microseconds per frame, which is rounded to whole microseconds (6 fps is 166667 us).
 */
export function walkAvi(bytes: Buffer): ContainerWalk {
  const form = riffForm(bytes, 'AVI ');
  const hdrl = form && findChunk(form.chunks, (c) => c.listType === 'hdrl');
  const hdrlChunks = hdrl && chunksIn(bytes, hdrl.start, hdrl.start + hdrl.size);
  const avih = hdrlChunks && findChunk(hdrlChunks, (c) => c.id === 'avih');
  if (!form || !hdrlChunks || !avih || avih.size < 40) return DAMAGED;
  if (!form.chunks.some((c) => c.listType === 'movi')) return DAMAGED;
  const size = sized(bytes.readUInt32LE(avih.start + 32), bytes.readUInt32LE(avih.start + 36));
  if (!size) return DAMAGED;
  const microsPerFrame = bytes.readUInt32LE(avih.start);
  let durationSeconds = (bytes.readUInt32LE(avih.start + 16) * microsPerFrame) / 1_000_000;
  let fps = microsPerFrame > 0 ? 1_000_000 / microsPerFrame : undefined;
  for (const strl of hdrlChunks.filter((c) => c.listType === 'strl')) {
    const inner = chunksIn(bytes, strl.start, strl.start + strl.size);
    const strh = inner && findChunk(inner, (c) => c.id === 'strh');
    if (!strh || strh.size < 36 || bytes.toString('latin1', strh.start, strh.start + 4) !== 'vids') continue;
    const scale = bytes.readUInt32LE(strh.start + 20);
    const rate = bytes.readUInt32LE(strh.start + 24);
    if (scale > 0 && rate > 0) {
      durationSeconds = (bytes.readUInt32LE(strh.start + 32) * scale) / rate;
      fps = rate / scale;
    }
    break;
  }
  const facts = { mime: 'video/x-msvideo', ...size, durationSeconds, ...(fps ? { fps } : {}) };
  return { ok: true, facts, end: form.end };
}
