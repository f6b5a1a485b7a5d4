import sharp from 'sharp';
import type { SketchInput } from './offline-inputs';
import { drawSketch, sketchImage, type SketchImage } from './render-sketch';

/** The largest input picture decoded, in pixels (as commits allow). */
const MAX_INPUT_PIXELS = 100_000_000;

/**
 * Image `index` of a `local/sketch` image-to-image request: the input image fitted to width x height (EXIF
 * orientation applied, scaled to cover and centred, transparency flattened onto white), with the prompt's
 * sketch (`drawSketch`) laid over it at a quarter: each channel is (3 x input + sketch) / 4. So the output
 * keeps the input's picture, tinted by the prompt, seed and index; the same input gives the same bytes.
 */
export async function renderSketchFromImage(
  input: SketchInput,
  image: Buffer,
  index = 0,
): Promise<SketchImage> {
  const lines = drawSketch(input, index);
  const { width, height, data } = lines;
  const fitted = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(width, height, { fit: 'cover', position: 'centre' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (fitted.info.channels !== 3)
    throw new Error(`the input image decoded to ${fitted.info.channels} channels`);
  const pixels = fitted.data;
  for (let y = 0, i = 0; y < height; y++) {
    const end = lines.rowOffset(y) + 3 * width;
    for (let o = lines.rowOffset(y); o < end; o++, i++) data[o] = (3 * pixels[i]! + data[o]!) >> 2;
  }
  return sketchImage(lines);
}
