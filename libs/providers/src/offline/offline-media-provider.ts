import type { MediaOutput, MediaUsage } from './media-output';
import type { ReelInput, SketchInput, ToneInput } from './offline-inputs';
import { boundedInteger, OFFLINE_LIMITS } from './offline-inputs';
import { offlineOutcome, type OfflineAssetState, type OfflineErrorCode } from './offline-outcome';
import { renderReel } from './render-reel';
import { renderSketch } from './render-sketch';
import { renderSketchFromImage } from './render-sketch-from-image';
import { renderTone } from './render-tone';

export type OfflineMediaModel = 'local/sketch' | 'local/tone' | 'local/reel';
export const OFFLINE_MEDIA_MODELS: readonly OfflineMediaModel[] = [
  'local/sketch',
  'local/tone',
  'local/reel',
];

export interface OfflineInputs {
  'local/sketch': SketchInput;
  'local/tone': ToneInput;
  'local/reel': ReelInput;
}

export type OfflineGeneration =
  | {
      readonly status: 'succeeded';
      readonly outputs: readonly MediaOutput[];
      /** What the files measure; billing charges it unless `assets` is `unavailable` (cost 0). */
      readonly usage: MediaUsage;
      readonly assets: OfflineAssetState;
    }
  | { readonly status: 'failed'; readonly errorCode: OfflineErrorCode; readonly charged: false };

/** The bytes of the media fields of an input, read by the runner (MediaTask.media). */
export type OfflineMedia = Readonly<Record<string, { readonly bytes: Buffer }>>;

/** Waits; injected so that tests (and a runner's clock) decide what `delay_ms` costs in real time. */
export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The offline `local/*` media models behind one call: honours `delay_ms` through the injected sleep, then
 * the `simulate` outcome, then renders. Input is expected to be validated against the model's inputSchema,
 * and its media fields read (`media`: `local/sketch`'s `image`).
 */
export class OfflineMediaProvider {
  constructor(private readonly sleep: Sleep = realSleep) {}

  async generate<M extends OfflineMediaModel>(
    model: M,
    input: OfflineInputs[M],
    media: OfflineMedia = {},
  ): Promise<OfflineGeneration> {
    const outcome = offlineOutcome(input);
    if (outcome.delayMs > 0) await this.sleep(outcome.delayMs);
    if (outcome.kind === 'failed') {
      return { status: 'failed', errorCode: outcome.errorCode, charged: false };
    }
    return { status: 'succeeded', ...(await this.render(model, input, media)), assets: outcome.assets };
  }

  private async render(
    model: OfflineMediaModel,
    input: OfflineInputs[OfflineMediaModel],
    media: OfflineMedia,
  ): Promise<{ outputs: MediaOutput[]; usage: MediaUsage }> {
    switch (model) {
      case 'local/sketch':
        return renderSketches(input as SketchInput, media);
      case 'local/tone': {
        const { usage, ...output } = renderTone(input as ToneInput);
        return { outputs: [output], usage };
      }
      case 'local/reel': {
        const { usage, ...output } = await renderReel(input as ReelInput);
        return { outputs: [output], usage };
      }
    }
  }
}

async function renderSketches(
  input: SketchInput,
  media: OfflineMedia,
): Promise<{ outputs: MediaOutput[]; usage: MediaUsage }> {
  const count = boundedInteger('num_images', input.num_images, OFFLINE_LIMITS.sketch.numImages);
  const image = media['image']?.bytes;
  // A given image that was not read is a wiring fault, never a silent text-to-image.
  if (input.image !== undefined && image === undefined) throw new Error('the input image was not read');
  const images = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      image ? renderSketchFromImage(input, image, i) : renderSketch(input, i),
    ),
  );
  const outputs = images.map(({ usage: _usage, ...output }) => output);
  const pixels = images.reduce((sum, image) => sum + image.width * image.height, 0);
  const megapixels = pixels / 1_000_000; // from whole pixels: no float sum drift
  return { outputs, usage: { images: count, megapixels } };
}
