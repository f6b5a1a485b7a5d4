/**
 * Inputs of the offline media models as their catalog `inputSchema`s define them
 * (libs/catalog/catalog/models.json). The catalog validates a request with ajv before a task exists; the
 * bounds are repeated here so a generator never builds an unbounded file, and a spec checks they match.
 */
export const SIMULATE_BEHAVIOURS = [
  'success',
  'upstream_failed',
  'content_rejected',
  'asset_unavailable',
  'asset_pending',
] as const;
export type SimulateBehaviour = (typeof SIMULATE_BEHAVIOURS)[number];

/** The test behaviours every offline media model declares. */
export interface TestBehaviourInput {
  readonly simulate?: SimulateBehaviour;
  readonly delay_ms?: number;
}

export interface SketchInput extends TestBehaviourInput {
  readonly prompt: string;
  /** A media field: the `service://` URI or https URL of the input image (the runner reads its bytes). */
  readonly image?: string;
  readonly width?: number;
  readonly height?: number;
  readonly num_images?: number;
  readonly seed?: number;
}

export const TONE_VOICES = ['alto', 'bass', 'soprano'] as const;
export interface ToneInput extends TestBehaviourInput {
  readonly text: string;
  readonly voice?: (typeof TONE_VOICES)[number];
  readonly speed?: number;
}

export const REEL_RESOLUTIONS = ['320x240', '640x360', '1280x720'] as const;
export const REEL_FPS = [12, 24, 30] as const;
export interface ReelInput extends TestBehaviourInput {
  readonly prompt: string;
  readonly duration_seconds?: number;
  readonly resolution?: (typeof REEL_RESOLUTIONS)[number];
  readonly fps?: (typeof REEL_FPS)[number];
}

/** Schema bounds and defaults, by model. */
export const OFFLINE_LIMITS = {
  delayMs: { minimum: 0, maximum: 600_000, default: 0 },
  sketch: {
    side: { minimum: 64, maximum: 2048, multipleOf: 8, default: 512 },
    numImages: { minimum: 1, maximum: 4, default: 1 },
    seed: { minimum: 0, maximum: 4_294_967_295 },
  },
  tone: { textMaxLength: 5000, speed: { minimum: 0.5, maximum: 2, default: 1 }, voice: 'alto' },
  reel: { durationSeconds: { minimum: 1, maximum: 10, default: 2 }, resolution: '320x240', fps: 12 },
} as const;

/** An integer in [minimum, maximum] or the default; anything else is a caller bug (the schema rejects it). */
export function boundedInteger(
  name: string,
  value: number | undefined,
  bounds: { minimum: number; maximum: number; default?: number },
): number {
  const resolved = value ?? bounds.default;
  if (resolved === undefined || !Number.isInteger(resolved)) {
    throw new RangeError(`${name} must be an integer`);
  }
  if (resolved < bounds.minimum || resolved > bounds.maximum) {
    throw new RangeError(`${name} must be between ${bounds.minimum} and ${bounds.maximum}`);
  }
  return resolved;
}
