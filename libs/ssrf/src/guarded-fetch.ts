import type { SecureContext } from 'node:tls';
import { checkCallbackUrl } from './callback-url-check';
import { guardedRequest, ResponseTooLargeError, type GuardedResponse } from './guarded-client';
import { isBlockedAddressError } from './guarded-lookup';
import type { HostResolver } from './host-resolver';
import type { PrivateCidrAllowList } from './private-cidr-allow-list';

export interface GuardedFetchOptions {
  /** Private ranges the source may resolve to anyway (`FETCH_ALLOW_PRIVATE_CIDRS`); none by default. */
  readonly allowPrivateCidrs?: PrivateCidrAllowList;
  /** The CAs to trust (the public ones plus `FETCH_CA_FILE`); Node's default when absent. */
  readonly secureContext?: SecureContext;
  /** The resolver the guard asks (the system's by default); for tests. */
  readonly resolver?: HostResolver;
  /** Sent once, as `Authorization: Bearer`, to the first URL only (never to a redirect's target). */
  readonly accessToken?: string;
  /** Bigger bodies fail (`too_large`) while they stream in. */
  readonly maxBytes: number;
  /** How long the source may send nothing (no headers, no next chunk). */
  readonly idleTimeoutMs: number;
  /**
   * How long the whole fetch may take, from the first connection through every redirect to the last byte
   * (`deadline`): the idle timeout alone restarts on every byte, so a source sending one byte every few
   * seconds would otherwise hold the connection without end. None when absent.
   */
  readonly deadlineMs?: number;
  readonly maxRedirects: number;
  readonly userAgent: string;
  /** Aborts the fetch; it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

export interface FetchedBody {
  readonly bytes: Buffer;
  /** The Content-Type the source declared, when it did. */
  readonly contentType: string | undefined;
  /** The URL the bytes came from (the last of any redirects). */
  readonly url: string;
}

/**
 * Why a guarded fetch failed. `url_refused`: the URL is not https on port 443 without credentials, or its
 * host does not resolve to public (or allowed) addresses, at acceptance or at connection; `redirect_refused`:
 * a redirect whose target fails the same checks, has no Location, or one too many; `http_status`: an answer
 * other than 200 (`status`); `unreachable`: the connection failed, was cut or stayed idle; `too_large`: the
 * body passed `maxBytes` (`limit`); `deadline`: the whole fetch took longer than `deadlineMs`.
 */
export type GuardedFetchFailure =
  'url_refused' | 'redirect_refused' | 'http_status' | 'unreachable' | 'too_large' | 'deadline';

export class GuardedFetchError extends Error {
  override readonly name = 'GuardedFetchError';
  constructor(
    readonly reason: GuardedFetchFailure,
    readonly status?: number,
  ) {
    super(status === undefined ? `guarded fetch: ${reason}` : `guarded fetch: ${reason} (HTTP ${status})`);
  }
}

/**
 * GET of a URL a client gave (an import, a media URL in task input), through the guard of callbacks: https
 * on port 443, no credentials in the URL, every resolved address public (or in the allow list), checked when
 * the URL is accepted and again when the connection is made (DNS rebinding), through the guarded client
 * (`guardedRequest`: a socket of its own). A
 * redirect is followed only to a URL that passes the same checks, at most `maxRedirects` times, and never
 * carries the token. The body is read with the size limit enforced while it arrives. Nothing here logs the
 * URL or the token.
 */
export async function fetchGuarded(url: string, options: GuardedFetchOptions): Promise<FetchedBody> {
  if (options.deadlineMs === undefined) return fetchHops(url, options);
  // One signal for both ends: the caller's (a client gone, a runner stopping) and the deadline's. The request,
  // the body's reading and the checks between hops all stop at it.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new GuardedFetchError('deadline')), options.deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  try {
    return await fetchHops(url, { ...options, signal });
  } catch (error) {
    // Whatever the abort surfaced as (the request's error, the body's), the deadline says why.
    if (deadline.signal.aborted && !options.signal?.aborted) throw deadline.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function fetchHops(url: string, options: GuardedFetchOptions): Promise<FetchedBody> {
  let current = url;
  for (let hop = 0; ; hop += 1) {
    options.signal?.throwIfAborted();
    const refused = hop === 0 ? 'url_refused' : 'redirect_refused';
    const checked = await checkCallbackUrl(current, {
      requireHttps: true,
      allowPrivateCidrs: options.allowPrivateCidrs,
      ...(options.resolver ? { lookup: options.resolver } : {}),
    });
    if (!checked.ok) throw new GuardedFetchError(refused);
    const response = await get(checked.url, hop === 0 ? options.accessToken : undefined, options, refused);
    const { status } = response;
    if (status >= 300 && status < 400) {
      const location = headerText(response.headers['location']);
      response.discard();
      if (!location || hop >= options.maxRedirects) throw new GuardedFetchError('redirect_refused');
      try {
        current = new URL(location, checked.url).href;
      } catch {
        throw new GuardedFetchError('redirect_refused');
      }
      continue;
    }
    if (status !== 200) {
      response.discard();
      throw new GuardedFetchError('http_status', status);
    }
    const bytes = await readBody(response, options);
    return { bytes, contentType: headerText(response.headers['content-type']), url: checked.url };
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** One hop through the guarded client; the idle timeout starts once connected, as a socket timeout did. */
async function get(
  url: string,
  token: string | undefined,
  options: GuardedFetchOptions,
  refused: GuardedFetchFailure,
): Promise<GuardedResponse> {
  try {
    return await guardedRequest(url, {
      method: 'GET',
      headers: {
        accept: '*/*',
        'user-agent': options.userAgent,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(options.allowPrivateCidrs ? { allowPrivateCidrs: options.allowPrivateCidrs } : {}),
      ...(options.resolver ? { resolver: options.resolver } : {}),
      ...(options.secureContext ? { secureContext: options.secureContext } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      idleTimeoutMs: options.idleTimeoutMs,
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (isBlockedAddressError(error)) throw new GuardedFetchError(refused);
    throw new GuardedFetchError('unreachable');
  }
}

async function readBody(response: GuardedResponse, options: GuardedFetchOptions): Promise<Buffer> {
  try {
    return await response.read(options.maxBytes);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw error instanceof ResponseTooLargeError
      ? new GuardedFetchError('too_large')
      : new GuardedFetchError('unreachable');
  }
}
