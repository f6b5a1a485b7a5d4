import type { ExecutionUsage } from '@gen/contracts';

/**
 * What the generated files of any media model (offline or upstream) measure, in whole units billing charges:
 * images and pixels, milliseconds of sound or video (a file with a duration is not an image).
 */
export function measuredUsage(
  outputs: readonly {
    readonly width?: number;
    readonly height?: number;
    readonly durationSeconds?: number;
  }[],
): ExecutionUsage {
  let pixels = 0;
  let milliseconds = 0;
  let images = 0;
  for (const output of outputs) {
    if (output.durationSeconds !== undefined) milliseconds += Math.round(output.durationSeconds * 1000);
    else if (output.width !== undefined && output.height !== undefined) {
      images += 1;
      pixels += output.width * output.height;
    }
  }
  return {
    ...(images > 0 ? { images, pixels } : {}),
    ...(milliseconds > 0 ? { milliseconds } : {}),
  };
}
