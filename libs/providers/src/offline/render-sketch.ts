import { encodePng, PngScanlines } from '../encoders/png-encoder';
import type { MediaUsage } from './media-output';
import { boundedInteger, OFFLINE_LIMITS, type SketchInput } from './offline-inputs';
import { colourAt, digestOf, randomFrom, type Rgb } from './seeded-random';

export interface SketchImage {
  readonly bytes: Buffer;
  readonly contentType: 'image/png';
  readonly width: number;
  readonly height: number;
  /** One image: `perImage` bills `images`, `perMegapixel` bills `megapixels` (width x height / 1e6). */
  readonly usage: Required<Pick<MediaUsage, 'images' | 'megapixels'>>;
}

function side(name: string, value: number | undefined): number {
  const bounds = OFFLINE_LIMITS.sketch.side;
  const v = boundedInteger(name, value, bounds);
  if (v % bounds.multipleOf !== 0) throw new RangeError(`${name} must be a multiple of ${bounds.multipleOf}`);
  return v;
}

/**
 * Image `index` (0-based, below `num_images`) of a `local/sketch` request: an 8-bit RGB PNG of exactly
 * width x height. Drawn from SHA-256(prompt, seed, image, index): a diagonal two-colour gradient, a few
 * discs and faint hatching. With an input `image`, see render-sketch-from-image.ts.
 * Cost: one pass over the pixels, then one deflate (2048 x 2048 renders in a few hundred ms at most).
 */
export function renderSketch(input: SketchInput, index = 0): SketchImage {
  return sketchImage(drawSketch(input, index));
}

/** The drawing of `renderSketch`, before it is encoded. */
export function drawSketch(input: SketchInput, index = 0): PngScanlines {
  const width = side('width', input.width);
  const height = side('height', input.height);
  if (input.seed !== undefined) boundedInteger('seed', input.seed, OFFLINE_LIMITS.sketch.seed);
  const digest = digestOf('local/sketch', input.prompt, input.seed, input.image, index);
  const random = randomFrom(digest);
  const lines = new PngScanlines(width, height);
  drawGradient(lines, colourAt(digest, 4), colourAt(digest, 7), random);
  for (let i = 0, discs = 3 + Math.floor(random() * 4); i < discs; i++) {
    drawDisc(lines, colourAt(digest, 10 + 3 * i), random);
  }
  return lines;
}

/** Encodes a drawing as the PNG of one image, billed one image and its megapixels. */
export function sketchImage(lines: PngScanlines): SketchImage {
  const { width, height } = lines;
  return {
    bytes: encodePng(lines),
    contentType: 'image/png',
    width,
    height,
    usage: { images: 1, megapixels: (width * height) / 1_000_000 },
  };
}

function drawGradient(lines: PngScanlines, from: Rgb, to: Rgb, random: () => number): void {
  const { width, height, data } = lines;
  const angle = random() * Math.PI * 2;
  const ax = Math.cos(angle);
  const ay = Math.sin(angle);
  const min = Math.min(0, ax * width) + Math.min(0, ay * height);
  const span = Math.abs(ax * width) + Math.abs(ay * height) || 1;
  const hatch = 6 + Math.floor(random() * 10);
  const k = 256 / span;
  // Hot loop: integer and typed-array operations only (Math.* calls are slow under Jest's VM context).
  for (let y = 0; y < height; y++) {
    let o = lines.rowOffset(y);
    const shade = y % hatch === 0 ? 24 : 0;
    const base = (ay * y - min) * k;
    for (let x = 0; x < width; x++) {
      const t = (base + ax * k * x) | 0; // 0..256
      const r = from[0] + (((to[0] - from[0]) * t) >> 8) - shade;
      const g = from[1] + (((to[1] - from[1]) * t) >> 8) - shade;
      const b = from[2] + (((to[2] - from[2]) * t) >> 8) - shade;
      data[o++] = r < 0 ? 0 : r;
      data[o++] = g < 0 ? 0 : g;
      data[o++] = b < 0 ? 0 : b;
    }
  }
}

/** A disc blended half over the background, filled a row span at a time. */
function drawDisc(lines: PngScanlines, colour: Rgb, random: () => number): void {
  const { width, height, data } = lines;
  const radius = (0.08 + random() * 0.22) * Math.min(width, height);
  const cx = random() * width;
  const cy = random() * height;
  const top = Math.max(0, Math.ceil(cy - radius));
  const bottom = Math.min(height - 1, Math.floor(cy + radius));
  for (let y = top; y <= bottom; y++) {
    const half = Math.sqrt(radius * radius - (y - cy) * (y - cy));
    const left = Math.max(0, Math.ceil(cx - half));
    const right = Math.min(width - 1, Math.floor(cx + half));
    let o = lines.rowOffset(y) + 3 * left;
    for (let x = left; x <= right; x++) {
      data[o] = (data[o]! + colour[0]) >> 1;
      data[o + 1] = (data[o + 1]! + colour[1]) >> 1;
      data[o + 2] = (data[o + 2]! + colour[2]) >> 1;
      o += 3;
    }
  }
}
