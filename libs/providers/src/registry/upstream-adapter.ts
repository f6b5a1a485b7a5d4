import type { ChatEvent, ChatRequest, MediaResult, MediaTask, ModelBinding } from '@gen/contracts';
import type { ReadImages } from '../chat/request-parts';
import type { PrivateCidrAllowList } from '@gen/ssrf';

/**
 * One upstream as an adapter sees it: built from a catalog binding plus credentials from the environment. An
 * adapter speaks one wire format and nothing else: breakers, retries, limits and fallbacks are the router's.
 *
 * Failures are thrown as `UpstreamError` (kind `retryable`, `rejected` or `failed`); the router decides what
 * to retry and maps the rest to `upstream_failed` / `content_rejected`. An aborted `signal` rejects with the
 * signal's reason.
 */
export interface UpstreamAdapter {
  /**
   * True for an adapter that runs here, with no upstream (the offline models): the router calls it directly,
   * with no breaker, concurrency limit or timeout, since nothing remote can fail or be overloaded.
   */
  readonly inProcess?: boolean;
  /** Media models: the generated files (their bytes; what they are is measured by the runner). */
  generate?(task: MediaTask, signal: AbortSignal): Promise<MediaResult>;
  /**
   * Text models: the canonical event stream; errors surface through the iteration. `images` holds the bytes of
   * each image URL `readsImage` selected, read by the router before the attempt (a URL the caller gave is the
   * caller's matter: failing to read it is no failure of the upstream).
   */
  chat?(request: ChatRequest, signal: AbortSignal, images: ReadImages): AsyncIterable<ChatEvent>;
  /** Text models: whether an image URL must be read to bytes before `chat` (absent: none). */
  readsImage?(url: string): boolean;
}

/** What an adapter may take from its surroundings besides its binding. */
export interface AdapterEnvironment {
  /** The value of a named credential (an environment variable), or undefined. */
  credential(name: string): string | undefined;
  /**
   * CIDRs that output URLs returned by an upstream may resolve to despite the public-address rule
   * (`PROVIDER_ALLOW_PRIVATE_CIDRS`). Output URLs on the upstream's own configured origin are always allowed.
   */
  readonly allowPrivateCidrs?: PrivateCidrAllowList;
}

/** Builds an adapter for one binding; throws an Error naming the setting when the binding is unusable. */
export type AdapterFactory = (binding: ModelBinding, environment: AdapterEnvironment) => UpstreamAdapter;

/** A string setting of a binding, or the fallback. */
export function stringSetting(binding: ModelBinding, name: string, fallback: string): string {
  const value = binding.settings[name];
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}

/** A positive integer setting of a binding (milliseconds, counts), or the fallback. */
export function integerSetting(binding: ModelBinding, name: string, fallback: number): number {
  const value = binding.settings[name];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The first credential's value (the API key or token), '' when the binding names none (a local server). */
export function apiKeyOf(binding: ModelBinding, environment: AdapterEnvironment): string {
  const [name] = binding.credentials;
  return name === undefined ? '' : (environment.credential(name) ?? '');
}
