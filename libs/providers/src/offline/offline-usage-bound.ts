import type { ExecutionUsage } from '@gen/contracts';
import {
  boundedInteger,
  OFFLINE_LIMITS,
  type ReelInput,
  type SketchInput,
  type ToneInput,
} from './offline-inputs';
import type { OfflineMediaModel } from './offline-media-provider';
import { toneDurationMs } from './render-tone';

/** Whether a catalog model id is one of the offline media models. */
export function isOfflineMediaModel(model: string): model is OfflineMediaModel {
  return model === 'local/sketch' || model === 'local/tone' || model === 'local/reel';
}

/**
 * The most a request can use, known before it runs: the hold of a task is this usage at the account's prices.
 * Offline models are deterministic, so for them the bound is exactly what a success measures.
 */
export function offlineUsageBound(model: OfflineMediaModel, input: Record<string, unknown>): ExecutionUsage {
  switch (model) {
    case 'local/sketch': {
      const sketch = input as unknown as SketchInput;
      const { side, numImages } = OFFLINE_LIMITS.sketch;
      const images = boundedInteger('num_images', sketch.num_images, numImages);
      const width = boundedInteger('width', sketch.width, side);
      const height = boundedInteger('height', sketch.height, side);
      return { images, pixels: images * width * height };
    }
    case 'local/tone': {
      const tone = input as unknown as ToneInput;
      return { milliseconds: toneDurationMs(tone.text, tone.speed ?? OFFLINE_LIMITS.tone.speed.default) };
    }
    case 'local/reel': {
      const reel = input as unknown as ReelInput;
      const seconds = boundedInteger(
        'duration_seconds',
        reel.duration_seconds,
        OFFLINE_LIMITS.reel.durationSeconds,
      );
      return { milliseconds: seconds * 1000 };
    }
  }
}
