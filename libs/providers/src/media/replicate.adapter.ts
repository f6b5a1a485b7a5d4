import { randomUUID } from 'node:crypto';
import type { GeneratedFile, MediaResult, MediaTask } from '@gen/contracts';
import { UpstreamError } from '../chat/upstream-error';
import { upstreamUrl } from '../chat/upstream-stream';
import {
  apiKeyOf,
  integerSetting,
  stringSetting,
  type AdapterEnvironment,
  type AdapterFactory,
} from '../registry/upstream-adapter';
import { DEFAULT_OUTPUT_MAX_BYTES, fetchOutput } from './fetch-output';
import { isPredictionRefusal, predictionOutputUrls } from './replicate-output';
import { abortableSleep } from '../resilience/retry-policy';
import { requestJson } from './upstream-json';
import { upstreamInput } from './upstream-input';

type Prediction = Record<string, unknown>;

interface ReplicateConfig {
  readonly api: 'replicate' | 'cog';
  readonly baseUrl: string;
  readonly upstreamModel: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly pollIntervalMs: number;
  readonly pollRetries: number;
  readonly maxBytes: number;
  readonly environment: AdapterEnvironment;
}

/**
 * Replicate predictions and self-hosted Cog servers (setting `api`: `replicate`, the default, or `cog`).
 *
 * Replicate: `POST {baseUrl}/models/{owner}/{name}/predictions` with `{input}` (or `POST {baseUrl}/predictions`
 * with `{version, input}` for `owner/name:version`), then polls the prediction every `pollIntervalMs` until it
 * succeeded, failed or was canceled. A prediction given up (signal aborted, polls failing) is canceled, best
 * effort. Cog: `POST {baseUrl}/predictions` with `{id, input}` answers when the prediction is done.
 *
 * Media inputs (the fields of `task.media`, read by the runner) are sent as `data:` URLs. Outputs (URLs or
 * data: URIs) are downloaded through `fetchOutput`; a failed prediction whose error mentions
 * NSFW/safety/content policy is `rejected`, any other failure or a cancellation `failed`.
 *
 * Settings: `api`, `baseUrl` (required for cog), `timeoutMs` (each HTTP exchange; for cog the whole
 * prediction: default 120 s, 600 s for cog), `pollIntervalMs` (1000), `pollRetries` (consecutive retryable poll
 * failures tolerated, 3: a new attempt would pay for a new prediction), `maxOutputBytes`.
 */
export const replicateAdapter: AdapterFactory = (binding, environment) => {
  const api = stringSetting(binding, 'api', 'replicate');
  if (api !== 'replicate' && api !== 'cog') {
    throw new Error(`setting "api" must be "replicate" or "cog", not "${api}"`);
  }
  if (api === 'cog' && stringSetting(binding, 'baseUrl', '') === '') {
    throw new Error('setting "baseUrl" is required with api "cog" (the Cog server)');
  }
  const apiKey = apiKeyOf(binding, environment);
  const config: ReplicateConfig = {
    api,
    baseUrl: stringSetting(binding, 'baseUrl', 'https://api.replicate.com/v1'),
    upstreamModel: binding.upstreamModel,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    timeoutMs: integerSetting(binding, 'timeoutMs', api === 'cog' ? 600_000 : 120_000),
    pollIntervalMs: integerSetting(binding, 'pollIntervalMs', 1000),
    pollRetries: integerSetting(binding, 'pollRetries', 3),
    maxBytes: integerSetting(binding, 'maxOutputBytes', DEFAULT_OUTPUT_MAX_BYTES),
    environment,
  };
  return {
    async generate(task: MediaTask, signal: AbortSignal): Promise<MediaResult> {
      const prediction =
        api === 'cog' ? await runCog(config, task, signal) : await runReplicate(config, task, signal);
      return outcome(config, prediction, signal);
    },
  };
};

/** Creates the prediction and polls it to a final state; cancels it when giving up. */
async function runReplicate(
  config: ReplicateConfig,
  task: MediaTask,
  signal: AbortSignal,
): Promise<Prediction> {
  const call = { headers: config.headers, timeoutMs: config.timeoutMs, signal };
  const [model, version] = config.upstreamModel.split(':', 2) as [string, string | undefined];
  let prediction = await requestJson({
    ...call,
    method: 'POST',
    ...(version
      ? { url: upstreamUrl(config.baseUrl, '/predictions'), body: { version, input: upstreamInput(task) } }
      : {
          url: upstreamUrl(config.baseUrl, `/models/${model}/predictions`),
          body: { input: upstreamInput(task) },
        }),
  });
  const id = prediction.id;
  if (typeof id !== 'string' || id === '') throw malformed('the prediction has no id', prediction);
  const urls = (prediction.urls ?? {}) as Record<string, unknown>;
  const getUrl =
    ownUrl(config, urls.get) ?? upstreamUrl(config.baseUrl, `/predictions/${encodeURIComponent(id)}`);
  const cancelUrl = ownUrl(config, urls.cancel) ?? `${getUrl}/cancel`;
  try {
    for (let failures = 0; !isFinal(prediction);) {
      await abortableSleep(config.pollIntervalMs, signal);
      try {
        prediction = await requestJson({ ...call, method: 'GET', url: getUrl });
        failures = 0;
      } catch (error) {
        const transient = error instanceof UpstreamError && error.kind === 'retryable';
        if (!transient || ++failures > config.pollRetries) throw error;
      }
    }
    return prediction;
  } catch (error) {
    await cancel(config, cancelUrl);
    throw signal.aborted ? signal.reason : error;
  }
}

/** One synchronous Cog prediction; an abort cancels it on the server (by the id sent with it), best effort. */
async function runCog(config: ReplicateConfig, task: MediaTask, signal: AbortSignal): Promise<Prediction> {
  const id = randomUUID();
  try {
    const prediction = await requestJson({
      method: 'POST',
      url: upstreamUrl(config.baseUrl, '/predictions'),
      headers: config.headers,
      body: { id, input: upstreamInput(task) },
      timeoutMs: config.timeoutMs,
      signal,
    });
    if (!isFinal(prediction))
      throw malformed('the Cog server answered with an unfinished prediction', prediction);
    return prediction;
  } catch (error) {
    if (signal.aborted) {
      await cancel(config, upstreamUrl(config.baseUrl, `/predictions/${id}/cancel`));
      throw signal.reason;
    }
    // Cog runs one prediction at a time and answers 409 while busy: worth another attempt.
    if (error instanceof UpstreamError && error.status === 409) {
      throw new UpstreamError('retryable', error.message, { status: 409, upstreamText: error.upstreamText });
    }
    throw error;
  }
}

const RUNNING = new Set(['starting', 'processing']);
const FINAL = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

function isFinal(prediction: Prediction): boolean {
  const { status } = prediction;
  if (typeof status === 'string' && FINAL.has(status)) return true;
  if (typeof status === 'string' && RUNNING.has(status)) return false;
  throw malformed('the prediction has an unknown status', prediction);
}

async function outcome(
  config: ReplicateConfig,
  prediction: Prediction,
  signal: AbortSignal,
): Promise<MediaResult> {
  if (prediction.status === 'failed') {
    const text =
      typeof prediction.error === 'string' ? prediction.error : JSON.stringify(prediction.error ?? null);
    const kind = isPredictionRefusal(text) ? 'rejected' : 'failed';
    throw new UpstreamError(kind, `the prediction failed${kind === 'rejected' ? ': content refused' : ''}`, {
      upstreamText: text.slice(0, 4096),
    });
  }
  if (prediction.status !== 'succeeded') throw malformed('the prediction was canceled', prediction);
  const urls = predictionOutputUrls(prediction.output);
  if (!urls?.length) throw malformed('the prediction has no file output', prediction);
  const files: GeneratedFile[] = [];
  for (const url of urls) {
    files.push(
      await fetchOutput(url, {
        baseUrl: config.baseUrl,
        baseUrlHeaders: config.headers,
        allowPrivateCidrs: config.environment.allowPrivateCidrs,
        maxBytes: config.maxBytes,
        idleTimeoutMs: Math.min(config.timeoutMs, 120_000),
        signal,
      }),
    );
  }
  return { status: 'succeeded', files, assets: 'ready' };
}

/** A URL the upstream gave for its own prediction, when it is on the baseUrl's origin (the token goes there). */
function ownUrl(config: ReplicateConfig, url: unknown): string | undefined {
  try {
    return typeof url === 'string' && new URL(url).origin === new URL(config.baseUrl).origin
      ? url
      : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a failure to cancel is not reported (the prediction ends on its own). */
async function cancel(config: ReplicateConfig, url: string): Promise<void> {
  await requestJson({
    method: 'POST',
    url,
    headers: config.headers,
    timeoutMs: Math.min(config.timeoutMs, 5000),
    signal: undefined,
  }).catch(() => undefined);
}

function malformed(message: string, prediction: Prediction): UpstreamError {
  return new UpstreamError('failed', message, { upstreamText: JSON.stringify(prediction).slice(0, 4096) });
}
