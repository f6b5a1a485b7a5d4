import sharp from 'sharp';
import { writeMjpegAvi } from '../encoders/avi-mjpeg';
import { boundedInteger, OFFLINE_LIMITS, REEL_FPS, REEL_RESOLUTIONS, type ReelInput } from './offline-inputs';
import { colourAt, digestOf, randomFrom, type Rgb } from './seeded-random';

/**
 * Format: a Motion-JPEG AVI (see `writeMjpegAvi`) at exactly the requested `resolution` and `fps`, lasting
 * exactly `duration_seconds` (1 to 10). It needs no video encoder beyond JPEG (sharp), so it is honestly
 * playable (ffmpeg/ffprobe, VLC, mpv, Windows players); browsers play no AVI. The default (2 s, 320x240 at
 * 12 fps) is about 70 KB; the largest (10 s, 1280x720 at 30 fps, 300 frames) about 4 MB.
 */
export interface ReelVideo {
  readonly bytes: Buffer;
  readonly contentType: 'video/x-msvideo';
  readonly durationSeconds: number;
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  readonly frames: number;
  /** `perSecond` bills the requested duration, which the file has exactly. */
  readonly usage: { readonly seconds: number };
}

/** JPEG quality of the frames. */
const QUALITY = 80;
/** Frames encoded at once (sharp runs them on its thread pool). */
const BATCH = 8;

/** A `local/reel` request: a disc crossing a drifting two-colour gradient, colours from SHA-256(prompt). */
export async function renderReel(input: ReelInput): Promise<ReelVideo> {
  const bounds = OFFLINE_LIMITS.reel;
  const durationSeconds = boundedInteger('duration_seconds', input.duration_seconds, bounds.durationSeconds);
  const resolution = input.resolution ?? bounds.resolution;
  const fps = input.fps ?? bounds.fps;
  if (!REEL_RESOLUTIONS.includes(resolution)) throw new RangeError(`unknown resolution "${resolution}"`);
  if (!REEL_FPS.includes(fps)) throw new RangeError(`fps must be one of ${REEL_FPS.join(', ')}`);
  const [width, height] = resolution.split('x').map(Number) as [number, number];
  const frames = durationSeconds * fps;
  const scene = sceneOf(input.prompt, resolution, fps, width, height);
  const jpegs: Buffer[] = [];
  for (let first = 0; first < frames; first += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, frames - first) }, (_, i) =>
      sharp(scene.draw(first + i), { raw: { width, height, channels: 3 } })
        .jpeg({ quality: QUALITY })
        .toBuffer(),
    );
    jpegs.push(...(await Promise.all(batch)));
  }
  return {
    bytes: writeMjpegAvi({ width, height, fps }, jpegs),
    contentType: 'video/x-msvideo',
    durationSeconds,
    width,
    height,
    fps,
    frames,
    usage: { seconds: durationSeconds },
  };
}

interface Scene {
  /** Frame `f` as packed RGB rows, top-down. */
  draw(f: number): Buffer;
}

/**
 * The picture of every frame, a function of time (`f / fps`), so motion runs at the same speed whatever the
 * frame rate. Each frame costs one row of gradient, a copy of it per row, and the disc.
 */
function sceneOf(prompt: string, resolution: string, fps: number, width: number, height: number): Scene {
  const digest = digestOf('local/reel', prompt, resolution, fps);
  const random = randomFrom(digest);
  const [from, to, ball]: [Rgb, Rgb, Rgb] = [colourAt(digest, 4), colourAt(digest, 7), colourAt(digest, 10)];
  const radius = (0.12 + random() * 0.1) * height;
  const [phaseX, phaseY] = [random() * Math.PI * 2, random() * Math.PI * 2];
  const stride = width * 3;
  const row = Buffer.alloc(stride);
  return {
    draw(f: number): Buffer {
      const t = f / fps;
      const pixels = Buffer.alloc(stride * height);
      const drift = Math.floor(t * width * 0.4) % (2 * width);
      for (let x = 0, o = 0; x < width; x++) {
        const wave = ((x + drift) % (2 * width)) - width;
        const w = (((wave < 0 ? -wave : wave) * 256) / width) | 0; // a triangle wave, 0..256
        row[o++] = from[0] + (((to[0] - from[0]) * w) >> 8);
        row[o++] = from[1] + (((to[1] - from[1]) * w) >> 8);
        row[o++] = from[2] + (((to[2] - from[2]) * w) >> 8);
      }
      for (let y = 0; y < height; y++) row.copy(pixels, y * stride);
      const cx = width / 2 + (width / 2 - radius) * Math.sin(phaseX + t * 1.7);
      const cy = height / 2 + (height / 2 - radius) * Math.sin(phaseY + t * 2.3);
      const top = Math.max(0, Math.ceil(cy - radius));
      const bottom = Math.min(height - 1, Math.floor(cy + radius));
      for (let y = top; y <= bottom; y++) {
        const half = Math.sqrt(radius * radius - (y - cy) * (y - cy));
        const left = Math.max(0, Math.ceil(cx - half));
        const right = Math.min(width - 1, Math.floor(cx + half));
        for (let x = left, o = y * stride + 3 * left; x <= right; x++) {
          pixels[o++] = ball[0];
          pixels[o++] = ball[1];
          pixels[o++] = ball[2];
        }
      }
      return pixels;
    },
  };
}
