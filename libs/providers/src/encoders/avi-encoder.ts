import { LeWriter } from './le-writer';

/**
 * An uncompressed AVI (RIFF 'AVI ') with one video stream of 24-bit BI_RGB frames:
 *
 *   RIFF 'AVI '
 *     LIST 'hdrl'  avih (main header), LIST 'strl' { strh ('vids', 'DIB '), strf (BITMAPINFOHEADER) }
 *     LIST 'movi'  one '00db' chunk a frame
 *     idx1         one entry a frame (key frame, offset from the 'movi' fourcc, length)
 *
 * Frames are DIBs: rows bottom-up, pixels B, G, R, each row padded to 4 bytes. Every frame is a key frame.
 * ffmpeg/ffprobe, VLC, mpv and Windows players read it without any codec pack; browsers play no AVI at all.
 */
const AVIF_HASINDEX = 0x10;
const AVIIF_KEYFRAME = 0x10;
const STRL_LIST_BYTES = 4 + (8 + 56) + (8 + 40);
const HDRL_LIST_BYTES = 4 + (8 + 56) + (8 + STRL_LIST_BYTES);
const MOVI_LIST_OFFSET = 12 + 8 + HDRL_LIST_BYTES;
const FIRST_FRAME_OFFSET = MOVI_LIST_OFFSET + 12;

export interface AviLayout {
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  readonly frameCount: number;
}

export class AviBgr24Writer {
  readonly stride: number;
  readonly frameBytes: number;
  readonly bytes: Buffer;

  constructor(readonly layout: AviLayout) {
    this.stride = Math.ceil((layout.width * 3) / 4) * 4;
    this.frameBytes = this.stride * layout.height; // even, so no chunk padding byte is needed
    const moviBytes = 4 + layout.frameCount * (8 + this.frameBytes);
    this.bytes = Buffer.alloc(MOVI_LIST_OFFSET + 8 + moviBytes + 8 + 16 * layout.frameCount);
    this.writeHeaders(moviBytes);
  }

  /** The pixel area of frame `index` (bottom-up BGR rows of `stride` bytes) to draw into. */
  frame(index: number): Buffer {
    const start = FIRST_FRAME_OFFSET + index * (8 + this.frameBytes) + 8;
    return this.bytes.subarray(start, start + this.frameBytes);
  }

  private writeHeaders(moviBytes: number): void {
    const { width, height, fps, frameCount } = this.layout;
    const { frameBytes } = this;
    const riffBytes = this.bytes.length - 8;
    const microsPerFrame = Math.round(1_000_000 / fps);
    const bytesPerSecond = frameBytes * fps;
    const suggestedBuffer = frameBytes + 8;
    const w = new LeWriter(this.bytes);
    w.fourcc('RIFF').u32(riffBytes).fourcc('AVI ');
    w.fourcc('LIST').u32(HDRL_LIST_BYTES).fourcc('hdrl');
    w.fourcc('avih').u32(56).u32(microsPerFrame).u32(bytesPerSecond).u32(0); // ..., padding granularity
    w.u32(AVIF_HASINDEX).u32(frameCount).u32(0).u32(1).u32(suggestedBuffer); // ..., initial frames, streams
    w.u32(width).u32(height).skip(16); // dwReserved[4]
    w.fourcc('LIST').u32(STRL_LIST_BYTES).fourcc('strl');
    w.fourcc('strh').u32(56).fourcc('vids').fourcc('DIB ');
    w.u32(0).u16(0).u16(0).u32(0); // flags, priority, language, initial frames
    w.u32(1).u32(fps).u32(0).u32(frameCount); // scale, rate (fps = rate / scale), start, length
    w.u32(frameBytes).u32(0xffffffff).u32(0); // suggested buffer, quality (default), sample size
    w.u16(0).u16(0).u16(width).u16(height); // rcFrame
    w.fourcc('strf').u32(40); // BITMAPINFOHEADER; a positive height means bottom-up rows
    w.u32(40).u32(width).u32(height).u16(1).u16(24).u32(0); // size, w, h, planes, bits, BI_RGB
    w.u32(frameBytes).u32(0).u32(0).u32(0).u32(0);
    w.fourcc('LIST').u32(moviBytes).fourcc('movi');
    for (let i = 0; i < frameCount; i++) w.fourcc('00db').u32(frameBytes).skip(frameBytes);
    w.fourcc('idx1').u32(16 * frameCount);
    for (let i = 0, offset = 4; i < frameCount; i++, offset += 8 + frameBytes) {
      w.fourcc('00db').u32(AVIIF_KEYFRAME).u32(offset).u32(frameBytes); // offset from the 'movi' fourcc
    }
    if (w.offset !== this.bytes.length)
      throw new Error(`AVI layout: wrote ${w.offset} of ${this.bytes.length}`);
  }
}
