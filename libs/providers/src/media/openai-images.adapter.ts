import type { GeneratedFile, MediaResult, MediaTask } from '@gen/contracts';
import { UpstreamError } from '../chat/upstream-error';
import { upstreamUrl } from '../chat/upstream-stream';
import { apiKeyOf, integerSetting, stringSetting, type AdapterFactory } from '../registry/upstream-adapter';
import { decodeDataUrl } from './data-url';
import { DEFAULT_OUTPUT_MAX_BYTES, fetchOutput } from './fetch-output';
import { requestJson } from './upstream-json';
import { upstreamInput } from './upstream-input';

/**
 * OpenAI-style image generation (OpenAI, Azure-compatible gateways, LocalAI, ...): `POST {baseUrl}/images/generations`
 * with `{ model, ...input }` (the input already matches the model's catalog schema; media fields the runner
 * read are sent as `data:` URLs) and a Bearer key. Each
 * `data[]` entry is a `b64_json` image or a `url` downloaded through `fetchOutput`.
 *
 * Settings: `baseUrl` (default OpenAI's), `timeoutMs` for the response (default 120 s), `maxOutputBytes`.
 */
export const openAiImagesAdapter: AdapterFactory = (binding, environment) => {
  const baseUrl = stringSetting(binding, 'baseUrl', 'https://api.openai.com/v1');
  const timeoutMs = integerSetting(binding, 'timeoutMs', 120_000);
  const maxBytes = integerSetting(binding, 'maxOutputBytes', DEFAULT_OUTPUT_MAX_BYTES);
  const apiKey = apiKeyOf(binding, environment);
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  return {
    async generate(task: MediaTask, signal: AbortSignal): Promise<MediaResult> {
      const answer = await requestJson({
        method: 'POST',
        url: upstreamUrl(baseUrl, '/images/generations'),
        headers,
        body: { ...upstreamInput(task), model: binding.upstreamModel },
        timeoutMs,
        signal,
      });
      const entries = Array.isArray(answer.data) ? (answer.data as unknown[]) : [];
      if (entries.length === 0) throw malformed('the upstream returned no images', answer);
      const files: GeneratedFile[] = [];
      for (const entry of entries) {
        const { b64_json: b64, url } = (entry ?? {}) as Record<string, unknown>;
        if (typeof b64 === 'string' && b64 !== '') {
          files.push(decodeDataUrl(`data:;base64,${b64}`, maxBytes));
        } else if (typeof url === 'string') {
          const options = { baseUrl, baseUrlHeaders: headers, maxBytes, signal, idleTimeoutMs: timeoutMs };
          files.push(
            await fetchOutput(url, { ...options, allowPrivateCidrs: environment.allowPrivateCidrs }),
          );
        } else throw malformed('an image entry has neither b64_json nor url', answer);
      }
      return { status: 'succeeded', files, assets: 'ready' };
    },
  };
};

function malformed(message: string, answer: unknown): UpstreamError {
  return new UpstreamError('failed', message, { upstreamText: JSON.stringify(answer).slice(0, 4096) });
}
