import { UpstreamError, errorKindForStatus, retryAfterMs, retryDelayMs } from '../chat/upstream-error';

/** The upstream's text kept for the log: the start of an error body. */
const LOGGED_TEXT_CHARS = 4096;

export interface JsonCall {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Bounds the whole exchange: headers and body. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * One JSON request to a media upstream, answered by a JSON object. Non-2xx answers are UpstreamErrors by
 * `errorKindForStatus` (with Retry-After), a body that is not a JSON object is `failed`, a timeout or a lost
 * connection is `retryable`, and an aborted signal rejects with its reason.
 */
export async function requestJson(call: JsonCall): Promise<Record<string, unknown>> {
  const { signal } = call;
  signal?.throwIfAborted();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, call.timeoutMs);
  try {
    const response = await fetch(call.url, {
      method: call.method,
      headers: {
        accept: 'application/json',
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...call.headers,
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: controller.signal,
    });
    const text = await response.text();
    if (!response.ok) {
      const logged = text.slice(0, LOGGED_TEXT_CHARS);
      throw new UpstreamError(
        errorKindForStatus(response.status, logged),
        `the upstream answered ${response.status}`,
        {
          status: response.status,
          retryAfterMs: retryAfterMs(response.headers) ?? retryDelayMs(logged),
          upstreamText: logged,
        },
      );
    }
    return jsonObject(text, response.status);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof UpstreamError) throw error;
    if (timedOut)
      throw new UpstreamError('retryable', `the upstream did not answer within ${call.timeoutMs} ms`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    const text = error instanceof Error ? `${error.message} ${cause}`.trim() : String(error);
    throw new UpstreamError('retryable', 'connection to the upstream failed', { upstreamText: text });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function jsonObject(text: string, status: number): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UpstreamError('failed', 'the upstream answered with something that is not a JSON object', {
    status,
    upstreamText: text.slice(0, LOGGED_TEXT_CHARS),
  });
}
