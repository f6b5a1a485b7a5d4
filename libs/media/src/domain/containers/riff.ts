import { DAMAGED, TRAILING, WELL_FORMED, type ContainerCheck } from './container-check';

/**
 * A RIFF file of `form` (WAVE, WEBP): the declared size covers exactly the file (a pad byte after an odd
 * size allowed), every chunk fits, and the chunks `required` are there.
 */
export function checkRiff(bytes: Buffer, form: string, required: (ids: string[]) => boolean): ContainerCheck {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF') return DAMAGED;
  if (bytes.toString('latin1', 8, 12) !== form) return DAMAGED;
  const end = 8 + bytes.readUInt32LE(4);
  if (end > bytes.length) return DAMAGED;
  if (end < bytes.length && !(end % 2 === 1 && end + 1 === bytes.length)) return TRAILING;
  const ids: string[] = [];
  for (let offset = 12; offset < end;) {
    if (offset + 8 > end) return DAMAGED;
    const size = bytes.readUInt32LE(offset + 4);
    if (offset + 8 + size > end) return DAMAGED;
    ids.push(bytes.toString('latin1', offset, offset + 4));
    offset += 8 + size + (size % 2);
  }
  return required(ids) ? WELL_FORMED : DAMAGED;
}

export const checkWav = (bytes: Buffer): ContainerCheck =>
  checkRiff(bytes, 'WAVE', (ids) => ids.includes('fmt ') && ids.includes('data'));

export const checkWebp = (bytes: Buffer): ContainerCheck =>
  checkRiff(bytes, 'WEBP', (ids) => ['VP8 ', 'VP8L', 'VP8X'].includes(ids[0] ?? ''));
