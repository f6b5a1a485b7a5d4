import { crc32, inflateSync } from 'node:zlib';

/**
 * An independent PNG reader for the specs: it checks what the encoder promises with Node's own CRC-32 and
 * inflate, not with the encoder's code.
 */
export interface PngChunk {
  readonly type: string;
  readonly data: Buffer;
  readonly crcValid: boolean;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function readPngChunks(png: Buffer): PngChunk[] {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG signature');
  const chunks: PngChunk[] = [];
  for (let o = 8; o < png.length;) {
    const length = png.readUInt32BE(o);
    const typeAndData = png.subarray(o + 4, o + 8 + length);
    const stored = png.readUInt32BE(o + 8 + length);
    chunks.push({
      type: typeAndData.subarray(0, 4).toString('latin1'),
      data: typeAndData.subarray(4),
      crcValid: crc32(typeAndData) === stored,
    });
    o += 12 + length;
  }
  return chunks;
}

export interface DecodedPng {
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
  readonly colourType: number;
  readonly interlace: number;
  /** The inflated IDAT stream: scanlines with their filter bytes. */
  readonly raw: Buffer;
}

export function decodePng(png: Buffer): DecodedPng {
  const chunks = readPngChunks(png);
  const ihdr = chunks.find((c) => c.type === 'IHDR');
  if (!ihdr) throw new Error('no IHDR');
  const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
  return {
    width: ihdr.data.readUInt32BE(0),
    height: ihdr.data.readUInt32BE(4),
    bitDepth: ihdr.data[8]!,
    colourType: ihdr.data[9]!,
    interlace: ihdr.data[12]!,
    raw: inflateSync(idat),
  };
}
