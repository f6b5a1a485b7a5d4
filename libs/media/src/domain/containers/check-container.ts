import type { MediaType } from '../media-types';
import type { ContainerCheck } from './container-check';
import { checkWebm } from './ebml';
import { checkGif, checkJpeg, checkPng } from './images';
import { checkIsoBmff } from './iso-bmff';
import { checkMpegAudio } from './mpeg-audio';
import { checkWav, checkWebp } from './riff';

const CHECKS: Readonly<Record<MediaType, (bytes: Buffer) => ContainerCheck>> = {
  'image/jpeg': checkJpeg,
  'image/png': checkPng,
  'image/webp': checkWebp,
  'image/gif': checkGif,
  'video/mp4': checkIsoBmff,
  'video/webm': checkWebm,
  'audio/mpeg': checkMpegAudio,
  'audio/wav': checkWav,
};

/**
 * Walks the file as one container of `type` from its first byte to its last. Never throws: a read past the end
 * that a bounds check missed is damage. Every loop advances, so hostile input costs at most one pass.
 */
export function checkContainer(type: MediaType, bytes: Buffer): ContainerCheck {
  try {
    return CHECKS[type](bytes);
  } catch {
    return { ok: false, problem: 'damaged' };
  }
}
