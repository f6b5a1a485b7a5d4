import { deflateSync } from 'node:zlib';
import { crc32 } from './crc32';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Raw PNG scanlines of an 8-bit RGB image: `height` rows of one filter byte (0, None) then 3 bytes a pixel.
 * A renderer writes pixels straight into it, then hands it to `encodePng` (no copy in between).
 */
export class PngScanlines {
  readonly data: Buffer;
  readonly stride: number;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.stride = 1 + 3 * width;
    this.data = Buffer.alloc(this.stride * height); // zero-filled: every filter byte is already 0
  }

  /** Byte offset of pixel (0, y), just after the row's filter byte. */
  rowOffset(y: number): number {
    return y * this.stride + 1;
  }
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(head.subarray(4), body), 0);
  return Buffer.concat([head, body, crc]);
}

/**
 * A complete PNG: signature, IHDR (8-bit truecolour, no interlace), one IDAT deflated once, IEND.
 * Level 6 is zlib's default; the renderers draw smooth areas, which deflate fast at it.
 */
export function encodePng(scanlines: PngScanlines, level = 6): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(scanlines.width, 0);
  ihdr.writeUInt32BE(scanlines.height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour (RGB)
  // compression 0, filter method 0, interlace 0: already zero
  const idat = deflateSync(scanlines.data, { level });
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}
