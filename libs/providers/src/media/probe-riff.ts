import type { MediaFacts } from './media-facts';

interface Chunk {
  readonly id: string;
  /** The chunk's data (for a LIST, after its list type). */
  readonly data: Buffer;
  readonly listType?: string;
}

/** The chunks inside `area`, by their declared sizes (padded to even); null when one runs past the end. */
function chunksOf(area: Buffer): Chunk[] | null {
  const chunks: Chunk[] = [];
  for (let offset = 0; offset + 8 <= area.length;) {
    const id = area.toString('latin1', offset, offset + 4);
    const size = area.readUInt32LE(offset + 4);
    const start = offset + 8;
    if (start + size > area.length) return null;
    const data = area.subarray(start, start + size);
    if (id === 'LIST') {
      if (size < 4) return null;
      chunks.push({ id, data: data.subarray(4), listType: data.toString('latin1', 0, 4) });
    } else chunks.push({ id, data });
    offset = start + size + (size % 2);
  }
  return chunks;
}

/** The RIFF form's chunks when the file is RIFF of this form and its declared size fits in the bytes. */
function riffForm(bytes: Buffer, form: string): Chunk[] | null {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF') return null;
  if (bytes.toString('latin1', 8, 12) !== form) return null;
  const size = bytes.readUInt32LE(4);
  if (size < 4 || 8 + size > bytes.length) return null;
  return chunksOf(bytes.subarray(12, 8 + size));
}

/** WAV: duration = data bytes / the fmt chunk's byte rate. */
export function probeWav(bytes: Buffer): MediaFacts | null {
  const chunks = riffForm(bytes, 'WAVE');
  const fmt = chunks?.find((c) => c.id === 'fmt ');
  const data = chunks?.find((c) => c.id === 'data');
  if (!fmt || !data || fmt.data.length < 16) return null;
  const byteRate = fmt.data.readUInt32LE(8);
  if (byteRate === 0) return null;
  return { mime: 'audio/wav', durationSeconds: data.data.length / byteRate };
}

/**
 * AVI: width and height from the main header (avih). The duration is the video stream's length x scale / rate
 * (strh) when there is one, which is exact, and the frame rate rate / scale; otherwise avih's total frames x
 * microseconds per frame, which is rounded to whole microseconds (6 fps is written as 166667 us).
 */
export function probeAvi(bytes: Buffer): MediaFacts | null {
  const chunks = riffForm(bytes, 'AVI ');
  const hdrl = chunks?.find((c) => c.listType === 'hdrl');
  const hdrlChunks = hdrl && chunksOf(hdrl.data);
  const avih = hdrlChunks?.find((c) => c.id === 'avih');
  if (!hdrlChunks || !avih || avih.data.length < 40) return null;
  if (!chunks!.some((c) => c.listType === 'movi')) return null;
  const width = avih.data.readUInt32LE(32);
  const height = avih.data.readUInt32LE(36);
  if (width === 0 || height === 0) return null;
  const microsPerFrame = avih.data.readUInt32LE(0);
  let durationSeconds = (avih.data.readUInt32LE(16) * microsPerFrame) / 1_000_000;
  let fps = microsPerFrame > 0 ? 1_000_000 / microsPerFrame : undefined;
  for (const strl of hdrlChunks.filter((c) => c.listType === 'strl')) {
    const strh = chunksOf(strl.data)?.find((c) => c.id === 'strh');
    if (!strh || strh.data.length < 36 || strh.data.toString('latin1', 0, 4) !== 'vids') continue;
    const scale = strh.data.readUInt32LE(20);
    const rate = strh.data.readUInt32LE(24);
    if (scale > 0 && rate > 0) {
      durationSeconds = (strh.data.readUInt32LE(32) * scale) / rate;
      fps = rate / scale;
    }
    break;
  }
  return { mime: 'video/x-msvideo', width, height, durationSeconds, ...(fps ? { fps } : {}) };
}
