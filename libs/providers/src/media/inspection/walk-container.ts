import { DAMAGED, type ContainerWalk } from './container-walk';
import { walkWebm } from './ebml';
import { walkGif, walkJpeg, walkPng } from './images';
import { walkIsoBmff } from './iso-bmff';
import { walkMpegAudio } from './mpeg-audio';
import { walkAvi, walkWav, walkWebp } from './riff';

/** The container formats walked, by the type their magic numbers name. */
export const CONTAINER_FORMATS = {
  'image/png': walkPng,
  'image/jpeg': walkJpeg,
  'image/gif': walkGif,
  'image/webp': walkWebp,
  'audio/wav': walkWav,
  'video/x-msvideo': walkAvi,
  'video/mp4': walkIsoBmff,
  'video/webm': walkWebm,
  'audio/mpeg': walkMpegAudio,
} as const satisfies Record<string, (bytes: Buffer) => ContainerWalk>;

export type ContainerFormat = keyof typeof CONTAINER_FORMATS;

/** The format the first bytes announce (MPEG audio: an ID3v2 tag or a frame sync); null for any other. */
export function formatOf(bytes: Buffer): ContainerFormat | null {
  const at = (offset: number, text: string): boolean =>
    bytes.toString('latin1', offset, offset + text.length) === text;
  if (bytes[0] === 0x89 && at(1, 'PNG')) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (at(0, 'GIF8')) return 'image/gif';
  if (at(0, 'RIFF')) {
    const form = bytes.toString('latin1', 8, 12);
    return form === 'WEBP'
      ? 'image/webp'
      : form === 'WAVE'
        ? 'audio/wav'
        : form === 'AVI '
          ? 'video/x-msvideo'
          : null;
  }
  if (at(4, 'ftyp') || at(4, 'moov')) return 'video/mp4';
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'video/webm';
  if (at(0, 'ID3') || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return 'audio/mpeg';
  return null;
}

/**
 * Walks `bytes` as one container of `format` (by default, the one its magic numbers announce) from its first
 * byte: what the container records and where it ends, or damage. Never throws: a read past the end that a
 * bounds check missed is damage. Every loop advances through the bytes, so hostile input costs at most one pass.
 */
export function walkContainer(
  bytes: Buffer,
  format: ContainerFormat | null = formatOf(bytes),
): ContainerWalk {
  if (!format) return DAMAGED;
  try {
    return CONTAINER_FORMATS[format](bytes);
  } catch {
    return DAMAGED;
  }
}
