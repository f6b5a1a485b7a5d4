import sharp from 'sharp';
import { decodePng } from '../testing/png-reader';
import { OfflineMediaProvider } from './offline-media-provider';
import { renderSketch } from './render-sketch';
import { renderSketchFromImage } from './render-sketch-from-image';

/** A picture whose left half is red and right half blue. */
async function halves(width: number, height: number, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const half = (colour: string) =>
    sharp({ create: { width: width / 2, height, channels: 3, background: colour } })
      .png()
      .toBuffer();
  const image = sharp({ create: { width, height, channels: 3, background: '#000' } }).composite([
    { input: await half('#e01010'), left: 0, top: 0 },
    { input: await half('#1010e0'), left: width / 2, top: 0 },
  ]);
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
}

/** The RGB of pixel (x, y) of a PNG the renderers wrote. */
function pixel(png: Buffer, x: number, y: number): [number, number, number] {
  const { width, raw } = decodePng(png);
  const o = y * (1 + 3 * width) + 1 + 3 * x;
  return [raw[o]!, raw[o + 1]!, raw[o + 2]!];
}

describe('renderSketchFromImage (local/sketch image-to-image)', () => {
  const input = { prompt: 'the same, in winter', width: 128, height: 64, image: 'service://files/fil_x' };

  it('keeps the input picture, fitted to width x height: red on the left, blue on the right', async () => {
    const image = await renderSketchFromImage(input, await halves(300, 150, 'jpeg'));
    expect(decodePng(image.bytes)).toMatchObject({ width: 128, height: 64 });
    expect(image).toMatchObject({ contentType: 'image/png', width: 128, height: 64 });
    expect(image.usage).toEqual({ images: 1, megapixels: 0.008192 });
    for (const y of [5, 32, 60]) {
      const [r1, , b1] = pixel(image.bytes, 10, y);
      const [r2, , b2] = pixel(image.bytes, 118, y);
      expect(r1 - b1).toBeGreaterThan(100);
      expect(b2 - r2).toBeGreaterThan(100);
    }
    // Without the image, the same prompt draws nothing of it.
    const text = renderSketch({ ...input, image: undefined });
    expect(text.bytes.equals(image.bytes)).toBe(false);
  });

  it('covers another aspect ratio by cropping the centre, and flattens transparency onto white', async () => {
    // A 2:1 picture into a square: the centre column (where red meets blue) stays, the sides go.
    const square = await renderSketchFromImage({ ...input, width: 64, height: 64 }, await halves(200, 100));
    const [r1, , b1] = pixel(square.bytes, 4, 32);
    const [r2, , b2] = pixel(square.bytes, 60, 32);
    expect(r1 - b1).toBeGreaterThan(100);
    expect(b2 - r2).toBeGreaterThan(100);
    const clear = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#0000' } })
      .png()
      .toBuffer();
    const white = await renderSketchFromImage({ ...input, width: 64, height: 64 }, clear);
    expect(Math.min(...pixel(white.bytes, 32, 32))).toBeGreaterThan(190);
  });

  it('is deterministic, and varies with the prompt, the seed and the image index', async () => {
    const picture = await halves(64, 32);
    const first = await renderSketchFromImage(input, picture);
    expect((await renderSketchFromImage({ ...input }, picture)).bytes.equals(first.bytes)).toBe(true);
    expect(
      (await renderSketchFromImage({ ...input, prompt: 'summer' }, picture)).bytes.equals(first.bytes),
    ).toBe(false);
    expect((await renderSketchFromImage({ ...input, seed: 9 }, picture)).bytes.equals(first.bytes)).toBe(
      false,
    );
    expect((await renderSketchFromImage(input, picture, 1)).bytes.equals(first.bytes)).toBe(false);
  });

  it('is what the offline model renders for every image of a request with an image', async () => {
    const picture = await halves(64, 32);
    const provider = new OfflineMediaProvider(async () => undefined);
    const result = await provider.generate(
      'local/sketch',
      { ...input, num_images: 2 },
      { image: { bytes: picture } },
    );
    if (result.status !== 'succeeded') throw new Error('expected success');
    expect(result.outputs.map((o) => o.bytes)).toEqual([
      (await renderSketchFromImage(input, picture, 0)).bytes,
      (await renderSketchFromImage(input, picture, 1)).bytes,
    ]);
    expect(result.usage).toEqual({ images: 2, megapixels: 0.016384 });
  });

  it('refuses to draw without the image a request names (a wiring fault, never a silent text-to-image)', async () => {
    const provider = new OfflineMediaProvider(async () => undefined);
    await expect(provider.generate('local/sketch', input)).rejects.toThrow('the input image was not read');
  });

  it('fails on bytes that are no image', async () => {
    await expect(renderSketchFromImage(input, Buffer.from('not an image'))).rejects.toThrow();
  });
});
