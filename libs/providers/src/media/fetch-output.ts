import type { GeneratedFile } from '@gen/contracts';
import {
  guardedRequest,
  isBlockedAddressError,
  IdleTimeoutError,
  ResponseTooLargeError,
  type GuardedRequest,
  type GuardedResponse,
  type HostResolver,
  type PrivateCidrAllowList,
} from '@gen/ssrf';
import { UpstreamError, errorKindForStatus, retryAfterMs } from '../chat/upstream-error';
import { decodeDataUrl } from './data-url';

/** The largest output file accepted by default: 512 MiB (a long video). */
export const DEFAULT_OUTPUT_MAX_BYTES = 512 * 1024 * 1024;
/** How long the upstream may send nothing (no headers, no next chunk) before the download is given up. */
export const DEFAULT_OUTPUT_IDLE_TIMEOUT_MS = 30_000;

export interface FetchOutputOptions {
  /**
   * The binding's configured `baseUrl`. URLs on its origin are trusted (a self-hosted Cog server serves its own
   * files, over http and on a private address); every other origin must be https to a public address.
   */
  readonly baseUrl?: string;
  /** Headers sent to the baseUrl's origin only (its API key), never to another origin. */
  readonly baseUrlHeaders?: Readonly<Record<string, string>>;
  /** Private ranges other origins may resolve to anyway (`PROVIDER_ALLOW_PRIVATE_CIDRS`). */
  readonly allowPrivateCidrs?: PrivateCidrAllowList;
  /** Bigger files fail (`failed`): a runaway or hostile upstream cannot fill the memory. */
  readonly maxBytes?: number;
  /** Bounds the wait for the headers and for each chunk, not the whole download. */
  readonly idleTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The resolver the SSRF guard asks (the system's by default); for tests. */
  readonly resolver?: HostResolver;
}

/**
 * Downloads one output file an upstream named: a `data:` URL is decoded; an http(s) URL is fetched through the
 * guarded client of libs/ssrf (`guardedRequest`), with its address rule unless it is on the configured
 * baseUrl's origin. Redirects are never followed (a 3xx is `failed`: a redirect could lead past the guard). A
 * refused URL is `failed`; 429, 5xx, timeouts and dropped connections are `retryable`; an aborted signal
 * rejects with its reason.
 */
export async function fetchOutput(url: string, options: FetchOutputOptions = {}): Promise<GeneratedFile> {
  options.signal?.throwIfAborted();
  const maxBytes = options.maxBytes ?? DEFAULT_OUTPUT_MAX_BYTES;
  if (url.startsWith('data:')) return decodeDataUrl(url, maxBytes);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw refused('it is not a URL', url);
  }
  const trusted = options.baseUrl !== undefined && sameOrigin(target, options.baseUrl);
  if (!trusted && target.protocol !== 'https:') throw refused('it is not https', url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw refused('it is not http(s)', url);
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_OUTPUT_IDLE_TIMEOUT_MS;
  const request: GuardedRequest = {
    method: 'GET',
    headers: { accept: '*/*', ...(trusted ? options.baseUrlHeaders : {}) },
    // The baseUrl's origin is the binding's own (over http, on a private address): no address rule there.
    ...(trusted
      ? { trustedDestination: true }
      : {
          ...(options.allowPrivateCidrs ? { allowPrivateCidrs: options.allowPrivateCidrs } : {}),
          ...(options.resolver ? { resolver: options.resolver } : {}),
        }),
    ...(options.signal ? { signal: options.signal } : {}),
    idleTimeoutMs,
    idleTimeoutCoversConnecting: true,
  };
  let response: GuardedResponse;
  try {
    response = await guardedRequest(target, request);
  } catch (error) {
    throw transportError(error, target, idleTimeoutMs, options.signal);
  }
  return readOutput(response, maxBytes, idleTimeoutMs, options.signal);
}

function sameOrigin(target: URL, baseUrl: string): boolean {
  try {
    return new URL(baseUrl).origin === target.origin;
  } catch {
    return false;
  }
}

function refused(why: string, url: string): UpstreamError {
  return new UpstreamError('failed', `the upstream's output URL was refused: ${why}`, {
    upstreamText: url.slice(0, 512),
  });
}

/** Why the request got no answer: refused by the guard, aborted, idle too long, or the connection failed. */
function transportError(error: unknown, target: URL, idleTimeoutMs: number, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (isBlockedAddressError(error)) return refused('it is not a public address', target.href);
  if (error instanceof IdleTimeoutError) return idle(idleTimeoutMs);
  return new UpstreamError('retryable', 'the connection to the output URL failed', {
    upstreamText: error instanceof Error ? error.message : String(error),
  });
}

function idle(idleTimeoutMs: number): UpstreamError {
  return new UpstreamError('retryable', `the output URL sent nothing for ${idleTimeoutMs} ms`);
}

/** The start of an error body kept for the log. */
const ERROR_TEXT_BYTES = 4096;

async function readOutput(
  response: GuardedResponse,
  maxBytes: number,
  idleTimeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<GeneratedFile> {
  const { status } = response;
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  if (status >= 300 && status < 400) {
    response.discard();
    throw new UpstreamError('failed', `the output URL answered ${status}: redirects are not followed`, {
      status,
      upstreamText: headers.get('location') ?? undefined,
    });
  }
  let body: Buffer;
  try {
    body = await response.read(maxBytes, status === 200 ? undefined : ERROR_TEXT_BYTES);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof ResponseTooLargeError) throw tooBig(maxBytes);
    if (error instanceof IdleTimeoutError) throw idle(idleTimeoutMs);
    throw new UpstreamError('retryable', 'the output download was cut short', {
      status,
      upstreamText: error instanceof Error ? error.message : String(error),
    });
  }
  if (status !== 200) {
    const text = body.toString('utf8');
    throw new UpstreamError(errorKindForStatus(status, text), `the output URL answered ${status}`, {
      status,
      retryAfterMs: retryAfterMs(headers),
      upstreamText: text,
    });
  }
  const claimedType = headers.get('content-type') ?? undefined;
  return claimedType === undefined ? { bytes: body } : { bytes: body, claimedType };
}

function tooBig(maxBytes: number): UpstreamError {
  return new UpstreamError('failed', `the output file is bigger than ${maxBytes} bytes`);
}
