import { DAMAGED, TRAILING, WELL_FORMED, type ContainerCheck } from './container-check';

/** kbit/s by [version is MPEG-1][layer 1..3][index]. */
const BITRATES: Readonly<Record<'v1' | 'v2', readonly (readonly number[])[]>> = {
  v1: [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
};
const SAMPLE_RATES = [44100, 48000, 32000] as const;

/** The byte length of the MPEG audio frame whose header is at `at`, or 0 when there is no valid header. */
export function frameLength(bytes: Buffer, at: number): number {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return 0;
  const versionBits = (bytes[at + 1]! >> 3) & 0x03; // 0: 2.5, 2: 2, 3: 1
  const layerBits = (bytes[at + 1]! >> 1) & 0x03; // 1: III, 2: II, 3: I
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 0x03;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
    return 0;
  const layer = 4 - layerBits;
  const v1 = versionBits === 3;
  const bitrate = BITRATES[v1 ? 'v1' : 'v2'][layer - 1]![bitrateIndex]! * 1000;
  const rate = SAMPLE_RATES[rateIndex]! / (v1 ? 1 : versionBits === 2 ? 2 : 4);
  const padding = (bytes[at + 2]! >> 1) & 0x01;
  if (layer === 1) return (Math.floor((12 * bitrate) / rate) + padding) * 4;
  const perFrame = layer === 3 && !v1 ? 72 : 144;
  return Math.floor((perFrame * bitrate) / rate) + padding;
}

/** The length of an ID3v2 tag at the start (with its footer), or 0. */
function id3v2Length(bytes: Buffer): number {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size =
    ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
}

/**
 * MP3 (MPEG audio): an optional ID3v2 tag, then frames back to back to the end of the file, where an ID3v1
 * tag (128 bytes, `TAG`) may close it. A frame cut short is damage; bytes that are not a frame are trailing data.
 */
export function checkMpegAudio(bytes: Buffer): ContainerCheck {
  let offset = id3v2Length(bytes);
  if (offset > bytes.length) return DAMAGED;
  let frames = 0;
  while (offset < bytes.length) {
    const length = frameLength(bytes, offset);
    if (length === 0) break;
    if (offset + length > bytes.length) return DAMAGED;
    offset += length;
    frames += 1;
  }
  if (frames === 0) return DAMAGED;
  if (offset === bytes.length) return WELL_FORMED;
  const id3v1 = bytes.length - offset === 128 && bytes.toString('latin1', offset, offset + 3) === 'TAG';
  return id3v1 ? WELL_FORMED : TRAILING;
}
