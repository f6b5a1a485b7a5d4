import { AviBgr24Writer } from '../encoders/avi-encoder';
import { boundedInteger, OFFLINE_LIMITS, REEL_FPS, REEL_RESOLUTIONS, type ReelInput } from './offline-inputs';
import { colourAt, digestOf, randomFrom } from './seeded-random';

/**
 * Format: an uncompressed AVI (24-bit DIB frames, see `AviBgr24Writer`). It needs no codec, so it is honestly
 * playable (ffmpeg/ffprobe, VLC, mpv, Windows players) and written in plain TypeScript; browsers play no
 * AVI, and MP4/WebM would need an H.264/VP8 encoder. Uncompressed frames are big, so the file is a preview:
 * frames fit inside 256 x 144 with the requested aspect ratio (320x240 gives 192x144; 640x360 and 1280x720
 * give 256x144), at min(fps, 6) frames a second. The duration is exactly `duration_seconds` (1 to 10):
 * the default (2 s, 320x240) is about 1 MB, the largest (10 s, 16:9) about 6.6 MB.
 */
export const REEL_MAX_WIDTH = 256;
export const REEL_MAX_HEIGHT = 144;
export const REEL_MAX_FPS = 6;

export interface ReelVideo {
  readonly bytes: Buffer;
  readonly contentType: 'video/x-msvideo';
  readonly durationSeconds: number;
  /** The encoded frame size and rate (see the format note above), not the requested ones. */
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  readonly frames: number;
  /** `perSecond` bills the requested duration, which the file has exactly. */
  readonly usage: { readonly seconds: number };
}

export function reelFrameSize(resolution: (typeof REEL_RESOLUTIONS)[number]): {
  width: number;
  height: number;
} {
  const [w, h] = resolution.split('x').map(Number) as [number, number];
  const scale = Math.min(REEL_MAX_WIDTH / w, REEL_MAX_HEIGHT / h, 1);
  const even4 = (n: number) => Math.max(4, Math.floor((n * scale) / 4) * 4);
  return { width: even4(w), height: even4(h) };
}

/** A `local/reel` request: a disc crossing a drifting two-colour gradient, colours from SHA-256(prompt). */
export function renderReel(input: ReelInput): ReelVideo {
  const bounds = OFFLINE_LIMITS.reel;
  const durationSeconds = boundedInteger('duration_seconds', input.duration_seconds, bounds.durationSeconds);
  const resolution = input.resolution ?? bounds.resolution;
  const requestedFps = input.fps ?? bounds.fps;
  if (!REEL_RESOLUTIONS.includes(resolution)) throw new RangeError(`unknown resolution "${resolution}"`);
  if (!REEL_FPS.includes(requestedFps)) throw new RangeError(`fps must be one of ${REEL_FPS.join(', ')}`);
  const { width, height } = reelFrameSize(resolution);
  const fps = Math.min(requestedFps, REEL_MAX_FPS);
  const frames = durationSeconds * fps;
  const digest = digestOf('local/reel', input.prompt, resolution, requestedFps);
  const random = randomFrom(digest);
  const [from, to, ball] = [colourAt(digest, 4), colourAt(digest, 7), colourAt(digest, 10)];
  const radius = (0.12 + random() * 0.1) * height;
  const r2 = radius * radius;
  const [phaseX, phaseY] = [random() * Math.PI * 2, random() * Math.PI * 2];
  const avi = new AviBgr24Writer({ width, height, fps, frameCount: frames });
  for (let f = 0; f < frames; f++) {
    const pixels = avi.frame(f);
    const t = f / fps;
    const cx = width / 2 + (width / 2 - radius) * Math.sin(phaseX + t * 1.7);
    const cy = height / 2 + (height / 2 - radius) * Math.sin(phaseY + t * 2.3);
    const drift = (f * 4) % (2 * width);
    // Hot loop: integer and typed-array operations only (Math.* calls are slow under Jest's VM context).
    for (let y = 0; y < height; y++) {
      let o = (height - 1 - y) * avi.stride; // DIB rows are stored bottom-up
      const dy2 = (y - cy) * (y - cy);
      for (let x = 0; x < width; x++) {
        const wave = ((x + drift) % (2 * width)) - width;
        const w = (((wave < 0 ? -wave : wave) * 256) / width) | 0; // a triangle wave, 0..256
        const inside = (x - cx) * (x - cx) + dy2 <= r2;
        pixels[o++] = inside ? ball[2] : from[2] + (((to[2] - from[2]) * w) >> 8);
        pixels[o++] = inside ? ball[1] : from[1] + (((to[1] - from[1]) * w) >> 8);
        pixels[o++] = inside ? ball[0] : from[0] + (((to[0] - from[0]) * w) >> 8);
      }
    }
  }
  return {
    bytes: avi.bytes,
    contentType: 'video/x-msvideo',
    durationSeconds,
    width,
    height,
    fps,
    frames,
    usage: { seconds: durationSeconds },
  };
}
