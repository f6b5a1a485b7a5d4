import type { ChatCallOptions, ChatEvent, ChatRequest } from './chat';
import type { MediaField, MediaInputErrorCode, ResolvedMedia } from './media-input.ports';

/**
 * How the service reaches a model's upstream, from the catalog entry and never from a request: the adapter
 * (a name in the provider registry), the upstream's model id, its settings (`baseUrl`, `timeoutMs`,
 * `maxConcurrency`, ...) and the names of the environment variables that hold its credentials.
 */
export interface ModelBinding {
  readonly adapter: string;
  readonly upstreamModel: string;
  readonly credentials: readonly string[];
  readonly settings: Readonly<Record<string, unknown>>;
}

/** A model's upstreams in order of preference: the first, then fallbacks used while an earlier one's circuit is open. */
export interface ModelRoute {
  readonly model: string;
  readonly modality: 'image' | 'video' | 'audio' | 'text';
  readonly bindings: readonly ModelBinding[];
  /** The input fields that take a media file (none when absent): the runner reads each given one first. */
  readonly mediaFields?: readonly MediaField[];
}

/** Implemented by the catalog; used by the runner and the compatibility layer. */
export interface ModelRoutesPort {
  /** The route of an exact catalog id; null when the catalog does not know it. */
  routeFor(modelId: string): ModelRoute | null;
}
export const MODEL_ROUTES = Symbol('ModelRoutes');

/**
 * The circuit of one upstream endpoint: `adapter` and the configured `baseUrl`. Two models on the same server
 * share it (the server is what fails), and every process computes the same key from the catalog.
 */
export function endpointKey(binding: Pick<ModelBinding, 'adapter' | 'settings'>): string {
  const baseUrl = typeof binding.settings.baseUrl === 'string' ? binding.settings.baseUrl : '';
  return `${binding.adapter} ${baseUrl.replace(/\/+$/, '')}`.trim();
}

/**
 * Which upstream circuits are open, shared by every process of a fleet: the runners (and the compatibility
 * layer) report their breakers' transitions; the catalog reads it to set `available`. An open mark expires on
 * its own at `untilMs`, when the breaker lets a probe through, so a runner that died cannot leave a model
 * unavailable.
 */
export interface CircuitStatePort {
  /** The endpoint's breaker opened: the circuit counts as open until `untilMs` (epoch milliseconds). */
  markOpen(endpoint: string, untilMs: number): Promise<void>;
  /** The endpoint's breaker closed (a probe succeeded). */
  markClosed(endpoint: string): Promise<void>;
  /** True while the endpoint's circuit is open. Synchronous: answered from what this process knows now. */
  isOpen(endpoint: string): boolean;
}
export const CIRCUIT_STATE = Symbol('CircuitState');

/** A media task as the provider port runs it: the validated input of an accepted task. */
export interface MediaTask {
  readonly taskId: string;
  /** The exact catalog id. */
  readonly model: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** ISO time: no attempt (nor retry) starts after it, and the signal aborts at it. */
  readonly deadlineAt: string;
  /**
   * The media fields of `input` read to their bytes by the runner (by field name): `input` still holds the
   * `service://` URI or URL the client sent, which an adapter must never pass on as is.
   */
  readonly media?: Readonly<Record<string, ResolvedMedia>>;
}

/** One file an upstream produced. What it is (type, size, duration) is measured from the bytes, not trusted. */
export interface GeneratedFile {
  readonly bytes: Buffer;
  /** The type the upstream claimed, for the log only. */
  readonly claimedType?: string;
}

/** What files become (spec, Task record, Asset): stored with a URL, stored without one yet, or not stored. */
export type AssetState = 'ready' | 'pending' | 'unavailable';

/**
 * The error codes a generation fails with (spec, Errors): the upstream's own text goes to the log only.
 * `service_interrupted`: a text answer the service itself cut before any of it was delivered (it stopped).
 */
export type GenerationErrorCode = 'upstream_failed' | 'content_rejected' | 'service_interrupted';

export type MediaResult =
  | { readonly status: 'succeeded'; readonly files: readonly GeneratedFile[]; readonly assets: AssetState }
  | { readonly status: 'failed'; readonly errorCode: GenerationErrorCode };

/**
 * The one way to a model: media generation for the runner, chat streams for the compatibility layer. The
 * implementation picks the model's binding (a fallback while a circuit is open), applies the breaker, the
 * retries inside the deadline and the per-upstream concurrency limit, and calls the adapter.
 */
export interface ProviderPort {
  /** Resolves with the files or a failure; rejects only when `signal` aborted (the runner is stopping). */
  generate(task: MediaTask, signal: AbortSignal): Promise<MediaResult>;
  /**
   * The model's canonical event stream. Failures surface through the iteration as a `ProviderFailure`
   * (`errorCode`); a stream is retried only before its first event. An image of the request that the upstream
   * must get as bytes is read through `options.readImage` first; one that cannot be read fails the stream with
   * that MediaInputError (the caller's matter, not the upstream's).
   */
  chat(
    model: string,
    request: ChatRequest,
    signal: AbortSignal,
    options?: ChatCallOptions,
  ): AsyncIterable<ChatEvent>;
  /** True when the model has a binding this process can run now: adapter known, credentials set, circuit not open. */
  canRun(model: string): boolean;
}
export const PROVIDER_PORT = Symbol('ProviderPort');

/** A chat stream or generation that failed for good: what the caller reports (`upstream_failed`, `content_rejected`). */
export class ProviderFailure extends Error {
  override readonly name = 'ProviderFailure';
  constructor(
    /** A chat run also fails as `input_unavailable` / `input_invalid` when an image it must send cannot be used. */
    readonly errorCode: GenerationErrorCode | MediaInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}
