import { LeWriter } from './le-writer';

/**
 * A Motion-JPEG AVI (RIFF 'AVI ') of already encoded JPEG frames, one video stream:
 *
 *   RIFF 'AVI '
 *     LIST 'hdrl'  avih (main header), LIST 'strl' { strh ('vids', 'MJPG'), strf (BITMAPINFOHEADER, 'MJPG') }
 *     LIST 'movi'  one '00dc' chunk a frame (padded to an even size)
 *     idx1         one entry a frame (key frame, offset from the 'movi' fourcc, unpadded length)
 *
 * MJPEG is the codec every AVI reader knows (ffmpeg/ffprobe, VLC, mpv, Windows players); each frame is a
 * key frame, so the file is as simple as the uncompressed one and about thirty times smaller.
 */
const AVIF_HASINDEX = 0x10;
const AVIIF_KEYFRAME = 0x10;
const STRL_LIST_BYTES = 4 + (8 + 56) + (8 + 40);
const HDRL_LIST_BYTES = 4 + (8 + 56) + (8 + STRL_LIST_BYTES);
const MOVI_LIST_OFFSET = 12 + 8 + HDRL_LIST_BYTES;

export interface MjpegAviLayout {
  readonly width: number;
  readonly height: number;
  /** Whole frames a second. */
  readonly fps: number;
}

export function writeMjpegAvi(layout: MjpegAviLayout, frames: readonly Buffer[]): Buffer {
  const { width, height, fps } = layout;
  const padded = (n: number) => n + (n % 2);
  const moviBytes = 4 + frames.reduce((sum, frame) => sum + 8 + padded(frame.length), 0);
  const bytes = Buffer.alloc(MOVI_LIST_OFFSET + 8 + moviBytes + 8 + 16 * frames.length);
  const largest = frames.reduce((max, frame) => Math.max(max, frame.length), 0);
  const average = frames.length ? (moviBytes - 4) / frames.length : 0;
  const w = new LeWriter(bytes);
  w.fourcc('RIFF')
    .u32(bytes.length - 8)
    .fourcc('AVI ');
  w.fourcc('LIST').u32(HDRL_LIST_BYTES).fourcc('hdrl');
  w.fourcc('avih')
    .u32(56)
    .u32(Math.round(1_000_000 / fps))
    .u32(Math.ceil(average * fps))
    .u32(0);
  w.u32(AVIF_HASINDEX)
    .u32(frames.length)
    .u32(0)
    .u32(1)
    .u32(largest + 8); // ..., initial frames, streams
  w.u32(width).u32(height).skip(16); // dwReserved[4]
  w.fourcc('LIST').u32(STRL_LIST_BYTES).fourcc('strl');
  w.fourcc('strh').u32(56).fourcc('vids').fourcc('MJPG');
  w.u32(0).u16(0).u16(0).u32(0); // flags, priority, language, initial frames
  w.u32(1).u32(fps).u32(0).u32(frames.length); // scale, rate (fps = rate / scale), start, length
  w.u32(largest).u32(0xffffffff).u32(0); // suggested buffer, quality (default), sample size
  w.u16(0).u16(0).u16(width).u16(height); // rcFrame
  w.fourcc('strf').u32(40); // BITMAPINFOHEADER
  w.u32(40).u32(width).u32(height).u16(1).u16(24).fourcc('MJPG'); // size, w, h, planes, bits, compression
  w.u32(width * height * 3)
    .u32(0)
    .u32(0)
    .u32(0)
    .u32(0);
  w.fourcc('LIST').u32(moviBytes).fourcc('movi');
  for (const frame of frames) {
    w.fourcc('00dc').u32(frame.length);
    frame.copy(bytes, w.offset);
    w.skip(padded(frame.length));
  }
  w.fourcc('idx1').u32(16 * frames.length);
  let offset = 4; // from the 'movi' fourcc
  for (const frame of frames) {
    w.fourcc('00dc').u32(AVIIF_KEYFRAME).u32(offset).u32(frame.length);
    offset += 8 + padded(frame.length);
  }
  if (w.offset !== bytes.length) throw new Error(`AVI layout: wrote ${w.offset} of ${bytes.length}`);
  return bytes;
}
