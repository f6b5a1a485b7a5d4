import { Agent, request, type Dispatcher } from 'undici';
import type { ChatEvent } from './chat-adapter';
import { SseParser, type SseFrame } from './sse';
import { UpstreamError, errorKindForStatus, retryAfterMs, retryDelayMs } from './upstream-error';

/** Turns one upstream's SSE frames into canonical events. */
export interface FrameDecoder {
  /** The events of one frame; throws an UpstreamError for an error frame or malformed JSON. */
  decode(frame: SseFrame): ChatEvent[];
  /** The events at the end of the body; throws a retryable UpstreamError when the stream was cut short. */
  end(): ChatEvent[];
}

export interface UpstreamStreamCall {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  decoder: FrameDecoder;
}

/** An upstream endpoint: the configured base URL (with or without trailing slashes) and the API's path. */
export function upstreamUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/**
 * The connections to the upstreams: keep-alive pools per origin (undici's request API, without the WHATWG
 * streams of `fetch`, which cost a chat answer about a tenth of the service's CPU). Timeouts are the caller's
 * (see `streamUpstream`), so undici's own are off; an idle connection is kept as `fetch` keeps it (undici's
 * default, or the server's own Keep-Alive hint), so a server that closes idle connections early is not raced.
 */
const upstreams = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** The upstream's text kept for the log: the start of an error body. */
const LOGGED_TEXT_CHARS = 4096;

/**
 * POSTs a JSON body, reads the SSE response incrementally and yields the decoder's events. `timeoutMs` bounds the
 * wait for the headers and for each chunk (not the whole generation); the caller's signal cancels, and stopping
 * the iteration early closes the connection.
 */
export async function* streamUpstream(call: UpstreamStreamCall): AsyncGenerator<ChatEvent> {
  const { signal } = call;
  signal?.throwIfAborted();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const arm = (): void => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, call.timeoutMs);
  };
  const transportError = (error: unknown): unknown => {
    if (signal?.aborted) return signal.reason;
    if (error instanceof UpstreamError) return error;
    if (timedOut) return new UpstreamError('retryable', `upstream sent nothing for ${call.timeoutMs} ms`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    const text = error instanceof Error ? `${error.message} ${cause}`.trim() : String(error);
    return new UpstreamError('retryable', 'connection to the upstream failed', { upstreamText: text });
  };
  // Set once the body was read to its end: the connection is then back in the pool, nothing to cancel (an
  // abort would only make an AbortError nobody reads, a few per cent of a request's CPU).
  let bodyRead = false;
  try {
    arm();
    let response: Dispatcher.ResponseData;
    try {
      response = await request(call.url, {
        dispatcher: upstreams,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...call.headers },
        body: JSON.stringify(call.body),
        signal: controller.signal,
      });
      if (response.statusCode < 200 || response.statusCode > 299) throw await httpError(response);
    } catch (error) {
      throw transportError(error);
    } finally {
      clearTimeout(timer);
    }
    const body = response.body[Symbol.asyncIterator]();
    const parser = new SseParser();
    for (;;) {
      arm();
      let chunk: IteratorResult<Buffer>;
      try {
        chunk = (await body.next()) as IteratorResult<Buffer>;
      } catch (error) {
        throw transportError(error);
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) bodyRead = true;
      const frames = chunk.done ? parser.end() : parser.push(chunk.value);
      for (const frame of frames) yield* call.decoder.decode(frame);
      if (chunk.done) break;
    }
    yield* call.decoder.end();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    // Stopped early (the consumer, a decoder error, a timeout): close the connection.
    if (!bodyRead) controller.abort();
  }
}

async function httpError(response: Dispatcher.ResponseData): Promise<UpstreamError> {
  const text = (await response.body.text()).slice(0, LOGGED_TEXT_CHARS);
  const kind = errorKindForStatus(response.statusCode, text);
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return new UpstreamError(kind, `the upstream answered ${response.statusCode}`, {
    status: response.statusCode,
    retryAfterMs: retryAfterMs(headers) ?? retryDelayMs(text),
    upstreamText: text,
  });
}

/** Parses a frame's JSON; malformed JSON is a `failed` UpstreamError (the stream cannot be trusted further). */
export function parseFrameJson(frame: SseFrame): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(frame.data);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UpstreamError('failed', 'the upstream sent a frame that is not a JSON object', {
    upstreamText: frame.data.slice(0, LOGGED_TEXT_CHARS),
  });
}

/** The stream ended before the upstream's end marker: a dropped connection, worth another attempt. */
export function cutShort(): UpstreamError {
  return new UpstreamError('retryable', 'the upstream stream ended before its end marker');
}
