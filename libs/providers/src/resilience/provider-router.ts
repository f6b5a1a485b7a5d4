import {
  MediaInputError,
  ProviderFailure,
  endpointKey,
  type ChatCallOptions,
  type ChatEvent,
  type ChatRequest,
  type CircuitStatePort,
  type GenerationErrorCode,
  type MediaResult,
  type MediaTask,
  type ModelBinding,
  type ModelRoute,
  type ModelRoutesPort,
  type ProviderPort,
} from '@gen/contracts';
import type { Logger } from '@gen/core';
import { imageUrlsOf, readImage, type InlineImage, type ReadImages } from '../chat/request-parts';
import { UpstreamError } from '../chat/upstream-error';
import type { ProviderRegistry } from '../registry/provider-registry';
import type { UpstreamAdapter } from '../registry/upstream-adapter';
import { ConcurrencyLimits, maxConcurrency, type Release } from './concurrency-limit';
import {
  RETRY_DEFAULTS,
  abortableSleep,
  retrying,
  retrySettings,
  type RetrySettings,
  type AbortableSleep,
} from './retry-policy';
import { UpstreamBreakers, linkedController } from './upstream-breakers';

export interface ProviderRouterOptions {
  routes: ModelRoutesPort;
  registry: ProviderRegistry;
  /** Where breaker transitions are reported, and read back (another process's open breaker counts too). */
  circuits: CircuitStatePort;
  logger?: Logger;
  now?: () => number;
  sleep?: AbortableSleep;
  random?: () => number;
}

/** A binding an attempt can use now, with its adapter. */
interface Pick {
  readonly binding: ModelBinding;
  readonly adapter: UpstreamAdapter;
  readonly endpoint: string;
}

/** No binding of the model can take an attempt: none usable here, or every circuit open. Final, never retried. */
class NoUsableBinding extends UpstreamError {
  constructor(model: string) {
    super('failed', `no upstream of ${model} can take a call now`);
  }
}

/** An opened chat stream: its first step already read, holding its endpoint's slot. */
interface OpenedStream {
  readonly pick: Pick;
  readonly iterator: AsyncIterator<ChatEvent>;
  readonly first: IteratorResult<ChatEvent>;
  readonly release: Release;
}

/**
 * The one way to a model ({@link ProviderPort}): picks the first binding of the model's route whose adapter is
 * registered, whose credentials are set and whose circuit is not open (so a fallback serves while an earlier
 * upstream is down, and the earlier one again once its breaker closes), and runs each attempt inside that
 * endpoint's concurrency limit and breaker, retrying inside the deadline. Everything is injected: no globals,
 * so a bench can build as many as it likes.
 */
export class ProviderRouter implements ProviderPort {
  readonly breakers: UpstreamBreakers;
  readonly limits = new ConcurrencyLimits();
  private readonly now: () => number;
  private readonly sleep: AbortableSleep;
  private readonly random: () => number;

  constructor(private readonly options: ProviderRouterOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
    this.breakers = new UpstreamBreakers(options.circuits, { logger: options.logger, now: this.now });
  }

  /**
   * Resolves with the adapter's result (an adapter's own `failed` result passes through, not retried and not
   * counted by the breaker) or `{status:'failed'}`: `content_rejected` for a refusal, `upstream_failed`
   * otherwise. Rejects only with the signal's reason.
   */
  async generate(task: MediaTask, signal: AbortSignal): Promise<MediaResult> {
    signal.throwIfAborted();
    const route = this.options.routes.routeFor(task.model);
    let last: Pick | undefined;
    try {
      if (!route) throw new NoUsableBinding(task.model);
      return await retrying(
        async (attempt) => {
          const pick = this.pick(route, 'generate');
          last = pick;
          if (pick.adapter.inProcess) return await pick.adapter.generate!(task, signal);
          const release = await this.limits.acquire(pick.endpoint, maxConcurrency(pick.binding), signal);
          const link = linkedController(signal);
          try {
            return await this.breakers.fire(pick.binding, link.controller, (attemptSignal) =>
              pick.adapter.generate!(task, attemptSignal),
            );
          } catch (error) {
            if (!signal.aborted) this.logAttempt(task.model, pick, attempt, error);
            throw error;
          } finally {
            link.unlink();
            release();
          }
        },
        this.retryRun(Date.parse(task.deadlineAt), signal, () => last),
      );
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof NoUsableBinding || !last) this.logNoBinding(task.model, error);
      return { status: 'failed', errorCode: errorCodeOf(error) };
    }
  }

  /**
   * The model's events. Each attempt (slot, breaker, retry) covers opening the stream and reading its first
   * event; once an event was yielded nothing is retried, and an error ends the stream with a ProviderFailure.
   * The slot is held until the stream ends or the consumer stops reading.
   */
  async *chat(
    model: string,
    request: ChatRequest,
    signal: AbortSignal,
    options?: ChatCallOptions,
  ): AsyncIterable<ChatEvent> {
    signal.throwIfAborted();
    const opened = await this.openStream(model, request, signal, new ImageCache(request, options));
    const { iterator, pick } = opened;
    try {
      let step = opened.first;
      while (!step.done) {
        yield step.value;
        try {
          step = await iterator.next();
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          this.logAttempt(model, pick, 'streaming', error);
          throw new ProviderFailure(errorCodeOf(error), failureMessage(errorCodeOf(error)));
        }
      }
    } finally {
      opened.release();
      // Closes the connection when the consumer stopped early; a no-op on a finished stream.
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  }

  /** A binding this process can run now: adapter known, credentials set, breaker (here or elsewhere) not open. */
  canRun(model: string): boolean {
    const route = this.options.routes.routeFor(model);
    return !!route && route.bindings.some((binding) => this.usable(binding, 'report'));
  }

  /** Stops the breakers' timers. */
  close(): void {
    this.breakers.shutdown();
  }

  private async openStream(
    model: string,
    request: ChatRequest,
    signal: AbortSignal,
    images: ImageCache,
  ): Promise<OpenedStream> {
    const route = this.options.routes.routeFor(model);
    let last: Pick | undefined;
    try {
      if (!route) throw new NoUsableBinding(model);
      return await retrying(
        async (attempt) => {
          const pick = this.pick(route, 'chat');
          last = pick;
          // The caller's images, read before the attempt: a URL that cannot be read is no failure of the upstream.
          const read = await images.for(pick.adapter, signal);
          if (pick.adapter.inProcess) {
            // Nothing remote: no slot, breaker or timeout (a `[[delay_ms:N]]` may outlast any timeout).
            const iterator = pick.adapter.chat!(request, signal, read)[Symbol.asyncIterator]();
            return { pick, iterator, first: await iterator.next(), release: () => undefined };
          }
          const slot = await this.limits.acquire(pick.endpoint, maxConcurrency(pick.binding), signal);
          // The stream keeps the caller's signal linked to its attempt until it ends.
          const link = linkedController(signal);
          const release = (): void => {
            link.unlink();
            slot();
          };
          let iterator: AsyncIterator<ChatEvent> | undefined;
          try {
            const first = await this.breakers.fire(pick.binding, link.controller, (attemptSignal) => {
              iterator = pick.adapter.chat!(request, attemptSignal, read)[Symbol.asyncIterator]();
              return iterator.next();
            });
            return { pick, iterator: iterator!, first, release };
          } catch (error) {
            release();
            if (iterator) void Promise.resolve(iterator.return?.()).catch(() => undefined);
            if (!signal.aborted) this.logAttempt(model, pick, attempt, error);
            throw error;
          }
        },
        this.retryRun(Number.POSITIVE_INFINITY, signal, () => last),
      );
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      // An image of the request that cannot be used fails the call as itself (the runner reports its code).
      if (error instanceof MediaInputError) throw error;
      if (error instanceof NoUsableBinding || !last) this.logNoBinding(model, error);
      const code = errorCodeOf(error);
      throw new ProviderFailure(code, failureMessage(code));
    }
  }

  private retryRun(deadlineMs: number, signal: AbortSignal, last: () => Pick | undefined) {
    return {
      deadlineMs,
      signal,
      settings: (): RetrySettings => {
        const pick = last();
        return pick ? retrySettings(pick.binding) : RETRY_DEFAULTS;
      },
      now: this.now,
      sleep: this.sleep,
      random: this.random,
    };
  }

  /** The first binding that can take an attempt now; throws NoUsableBinding when there is none. */
  private pick(route: ModelRoute, call: 'generate' | 'chat'): Pick {
    for (const binding of route.bindings) {
      if (!this.usable(binding, 'call')) continue;
      let adapter: UpstreamAdapter;
      try {
        adapter = this.options.registry.adapterFor(binding);
      } catch (error) {
        this.options.logger?.error(
          { err: error, model: route.model, adapter: binding.adapter },
          'provider binding unusable',
        );
        continue;
      }
      if (typeof adapter[call] !== 'function') continue;
      return { binding, adapter, endpoint: endpointKey(binding) };
    }
    throw new NoUsableBinding(route.model);
  }

  /**
   * `report` (canRun): the breaker is not open. `call` (an attempt): the breaker would also let a call through
   * now, which excludes a half-open breaker whose one probe is already out.
   */
  private usable(binding: ModelBinding, use: 'report' | 'call'): boolean {
    const { registry, circuits } = this.options;
    if (!registry.has(binding.adapter) || !registry.hasCredentials(binding)) return false;
    if (circuits.isOpen(endpointKey(binding)) || this.breakers.isOpen(binding)) return false;
    return use === 'report' || this.breakers.admits(binding);
  }

  private logAttempt(model: string, pick: Pick, attempt: number | 'streaming', error: unknown): void {
    const upstream = error instanceof UpstreamError ? error : undefined;
    this.options.logger?.warn(
      {
        model,
        adapter: pick.binding.adapter,
        endpoint: pick.endpoint,
        status: upstream?.status,
        attempt,
        upstream: upstream?.upstreamText,
        ...(upstream ? { kind: upstream.kind } : { err: error }),
      },
      upstream ? `upstream attempt failed: ${upstream.message}` : 'upstream attempt failed',
    );
  }

  private logNoBinding(model: string, error: unknown): void {
    this.options.logger?.warn(
      { model, reason: error instanceof Error ? error.message : String(error) },
      'no upstream attempt made',
    );
  }
}

/** What the caller is told: a refusal of the content, or the upstream failing (any other cause). */
function errorCodeOf(error: unknown): GenerationErrorCode {
  if (
    error instanceof ProviderFailure &&
    error.errorCode !== 'input_unavailable' &&
    error.errorCode !== 'input_invalid'
  )
    return error.errorCode;
  return error instanceof UpstreamError && error.kind === 'rejected' ? 'content_rejected' : 'upstream_failed';
}

function failureMessage(code: GenerationErrorCode): string {
  return code === 'content_rejected' ? 'the upstream refused the content' : 'the upstream failed';
}

/**
 * The images of one chat call read to bytes, as each adapter tried needs them (`readsImage`): each URL at most
 * once across attempts and fallbacks, so that a retry does not fetch an image again.
 */
class ImageCache {
  private readonly read = new Map<string, Promise<InlineImage>>();

  constructor(
    private readonly request: ChatRequest,
    private readonly options: ChatCallOptions | undefined,
  ) {}

  async for(adapter: UpstreamAdapter, signal: AbortSignal): Promise<ReadImages> {
    const images = new Map<string, InlineImage>();
    for (const url of imageUrlsOf(this.request)) {
      if (!adapter.readsImage?.(url)) continue;
      let pending = this.read.get(url);
      if (!pending) {
        pending = readImage(url, this.options, signal);
        this.read.set(url, pending);
      }
      images.set(url, await pending);
    }
    return images;
  }
}
