import { DAMAGED, TRAILING, WELL_FORMED, inconsistentHeader, type ContainerCheck } from './container-check';

/** One chunk of a RIFF file: its id and where its data is. */
interface Chunk {
  readonly id: string;
  readonly start: number;
  readonly size: number;
}

/**
 * The chunks of a RIFF file of `form` (WAVE, WEBP): the declared size covers exactly the file (a pad byte after
 * an odd size allowed) and every chunk fits; otherwise the verdict (damaged, trailing data).
 */
function chunksOf(bytes: Buffer, form: string): Chunk[] | ContainerCheck {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF') return DAMAGED;
  if (bytes.toString('latin1', 8, 12) !== form) return DAMAGED;
  const end = 8 + bytes.readUInt32LE(4);
  if (end > bytes.length) return DAMAGED;
  if (end < bytes.length && !(end % 2 === 1 && end + 1 === bytes.length)) return TRAILING;
  const chunks: Chunk[] = [];
  for (let offset = 12; offset < end;) {
    if (offset + 8 > end) return DAMAGED;
    const size = bytes.readUInt32LE(offset + 4);
    if (offset + 8 + size > end) return DAMAGED;
    chunks.push({ id: bytes.toString('latin1', offset, offset + 4), start: offset + 8, size });
    offset += 8 + size + (size % 2);
  }
  return chunks;
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

/**
 * The `fmt ` chunk of a WAV file checked the way a decoder reads it: an encoding whose samples are what they
 * claim (PCM, IEEE float, A-law, mu-law, or WAVE_FORMAT_EXTENSIBLE of PCM or float), at least one channel, a
 * sample rate, bits per sample the encoding allows, and the derived fields consistent with them: blockAlign =
 * numChannels x bitsPerSample / 8 and byteRate = sampleRate x blockAlign (the data's duration is its size /
 * byteRate). A header with 0 channels or a byte rate of 1 would otherwise commit as a WAV of any duration.
 */
function checkWaveFormat(bytes: Buffer, fmt: Chunk): ContainerCheck {
  if (fmt.size < 16) return DAMAGED;
  const at = fmt.start;
  let format = bytes.readUInt16LE(at);
  const channels = bytes.readUInt16LE(at + 2);
  const sampleRate = bytes.readUInt32LE(at + 4);
  const byteRate = bytes.readUInt32LE(at + 8);
  const blockAlign = bytes.readUInt16LE(at + 12);
  const bitsPerSample = bytes.readUInt16LE(at + 14);
  if (format === EXTENSIBLE) {
    // cbSize (22), validBitsPerSample, channelMask, SubFormat (16 bytes).
    if (fmt.size < 40 || bytes.readUInt16LE(at + 16) < 22) return DAMAGED;
    const subFormat = bytes.readUInt16LE(at + 24);
    const known = bytes.subarray(at + 26, at + 40).equals(SUBFORMAT_TAIL);
    if (!known || (subFormat !== PCM && subFormat !== IEEE_FLOAT))
      return inconsistentHeader('subFormat', subFormat, `${PCM}, ${IEEE_FLOAT}`);
    const validBits = bytes.readUInt16LE(at + 18);
    if (validBits < 1 || validBits > bitsPerSample)
      return inconsistentHeader('validBitsPerSample', validBits, `1–${bitsPerSample}`);
    format = subFormat;
  }
  const allowed = BITS[format];
  if (!allowed)
    return inconsistentHeader('audioFormat', format, [PCM, IEEE_FLOAT, A_LAW, MU_LAW, EXTENSIBLE].join(', '));
  if (channels < 1) return inconsistentHeader('numChannels', channels, '≥ 1');
  if (sampleRate < 1 || sampleRate > MAX_WAV_SAMPLE_RATE)
    return inconsistentHeader('sampleRate', sampleRate, `1–${MAX_WAV_SAMPLE_RATE}`);
  if (!allowed.includes(bitsPerSample))
    return inconsistentHeader('bitsPerSample', bitsPerSample, allowed.join(', '));
  const block = (channels * bitsPerSample) / 8;
  if (blockAlign !== block)
    return inconsistentHeader('blockAlign', blockAlign, `${block} (numChannels × bitsPerSample / 8)`);
  if (byteRate !== sampleRate * block)
    return inconsistentHeader('byteRate', byteRate, `${sampleRate * block} (sampleRate × blockAlign)`);
  return WELL_FORMED;
}

/** WAV: a RIFF WAVE file whose `fmt ` chunk comes before its `data` chunk and describes decodable samples. */
export function checkWav(bytes: Buffer): ContainerCheck {
  const chunks = chunksOf(bytes, 'WAVE');
  if (!Array.isArray(chunks)) return chunks;
  const fmt = chunks.findIndex((c) => c.id === 'fmt ');
  const data = chunks.findIndex((c) => c.id === 'data');
  if (fmt < 0 || data < 0 || data < fmt) return DAMAGED;
  return checkWaveFormat(bytes, chunks[fmt]!);
}

/** WebP: a RIFF WEBP file whose first chunk is a VP8, VP8L or VP8X one. */
export function checkWebp(bytes: Buffer): ContainerCheck {
  const chunks = chunksOf(bytes, 'WEBP');
  if (!Array.isArray(chunks)) return chunks;
  return ['VP8 ', 'VP8L', 'VP8X'].includes(chunks[0]?.id ?? '') ? WELL_FORMED : DAMAGED;
}
