import { decodePng, readPngChunks } from '../testing/png-reader';
import { renderSketch } from './render-sketch';

describe('renderSketch (local/sketch PNG)', () => {
  it('writes a valid PNG: signature, IHDR, IDAT, IEND, every chunk CRC correct', () => {
    const image = renderSketch({ prompt: 'a lighthouse at dusk', width: 768, height: 512 });
    const chunks = readPngChunks(image.bytes);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(chunks.every((c) => c.crcValid)).toBe(true);
    expect(image.contentType).toBe('image/png');
  });

  it('is exactly width x height, 8-bit RGB, with height * (1 + 3 * width) bytes of filter-0 scanlines', () => {
    const image = renderSketch({ prompt: 'x', width: 136, height: 64 });
    const png = decodePng(image.bytes);
    expect(png).toMatchObject({ width: 136, height: 64, bitDepth: 8, colourType: 2, interlace: 0 });
    expect([image.width, image.height]).toEqual([136, 64]);
    expect(png.raw.length).toBe(64 * (1 + 3 * 136));
    for (let y = 0; y < 64; y++) expect(png.raw[y * (1 + 3 * 136)]).toBe(0);
  });

  it('uses the schema defaults (512 x 512) and bills one image and its megapixels', () => {
    const image = renderSketch({ prompt: 'defaults' });
    expect([decodePng(image.bytes).width, decodePng(image.bytes).height]).toEqual([512, 512]);
    expect(image.usage).toEqual({ images: 1, megapixels: 0.262144 });
  });

  it('gives the same bytes for the same input, different bytes for another prompt, seed or image index', () => {
    const input = { prompt: 'a cat', seed: 42, width: 128, height: 96 };
    const same = renderSketch(input).bytes;
    expect(renderSketch({ ...input }).bytes.equals(same)).toBe(true);
    expect(renderSketch({ ...input, prompt: 'a dog' }).bytes.equals(same)).toBe(false);
    expect(renderSketch({ ...input, seed: 43 }).bytes.equals(same)).toBe(false);
    expect(renderSketch(input, 1).bytes.equals(same)).toBe(false);
    expect(renderSketch({ ...input, simulate: 'success', delay_ms: 5 }).bytes.equals(same)).toBe(true);
  });

  it('draws a picture, not a flat fill', () => {
    const { raw } = decodePng(renderSketch({ prompt: 'colours', width: 64, height: 64 }).bytes);
    const pixels = new Set<string>();
    for (let o = 1; o < raw.length; o += 3)
      if (o % (1 + 3 * 64) !== 0) pixels.add(raw.toString('hex', o, o + 3));
    expect(pixels.size).toBeGreaterThan(20);
  });

  it('rejects sizes outside the schema (64..2048, multiple of 8)', () => {
    expect(() => renderSketch({ prompt: 'x', width: 2056 })).toThrow(RangeError);
    expect(() => renderSketch({ prompt: 'x', height: 60 })).toThrow(RangeError);
    expect(() => renderSketch({ prompt: 'x', width: 100 })).toThrow(/multiple of 8/);
  });

  it('renders the largest image the schema allows (2048 x 2048) in well under a second', () => {
    const started = performance.now();
    const image = renderSketch({ prompt: 'the largest', width: 2048, height: 2048, seed: 4294967295 });
    const elapsed = performance.now() - started;
    expect(decodePng(image.bytes).raw.length).toBe(2048 * (1 + 3 * 2048));
    expect(elapsed).toBeLessThan(1000);
  });
});
