import type { SecureContext } from 'node:tls';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import { BlockedAddressError, createGuardedLookup, isRefusedIpLiteral } from './guarded-lookup';
import type { HostResolver } from './host-resolver';
import { PrivateCidrAllowList } from './private-cidr-allow-list';

/** Who may be connected to, and how. */
export interface GuardedClientOptions {
  /** Private ranges a destination may resolve to anyway (the caller's `*_ALLOW_PRIVATE_CIDRS`); none by default. */
  readonly allowPrivateCidrs?: PrivateCidrAllowList;
  /** The resolver the guard asks (the system's by default); for tests. */
  readonly resolver?: HostResolver;
  /** The CAs an https destination's certificate is checked against; Node's bundled CAs when absent. */
  readonly secureContext?: SecureContext;
  /**
   * The caller vouches for the destination (a provider binding's own configured origin): no address rule at
   * all. Everything else (no connection reuse, timeouts, body limits) is the same.
   */
  readonly trustedDestination?: boolean;
}

/**
 * The one way out to a URL someone else chose (callback and endpoint receivers, providers' output files,
 * imports and media URLs): an undici `Agent` whose every connection is judged when it is made. An IP-literal
 * host is judged before connecting; a host name is resolved by the guarded lookup, which refuses the
 * connection when ANY resolved address is not public (or allow-listed), so a DNS answer that changed after
 * acceptance (rebinding) is refused too. Either refusal fails the request with `BlockedAddressError`, before a
 * byte is sent.
 *
 * Connections are never reused (`pipelining: 0`, `Connection: close`) and speak http/1.1 only; undici's own
 * timeouts are off (the request's idle timeout and the callers' deadlines bound the wait). Each request gets an
 * agent, and so a socket, of its own, as `agent: false` gave `node:http`.
 */
function createGuardedAgent(options: GuardedClientOptions, onConnected: () => void): Agent {
  const allowList = options.allowPrivateCidrs ?? PrivateCidrAllowList.EMPTY;
  const connector = buildConnector({
    allowH2: false,
    timeout: 0,
    ...(options.secureContext ? { secureContext: options.secureContext } : {}),
    ...(options.trustedDestination
      ? {}
      : {
          lookup: createGuardedLookup({
            allowPrivateCidrs: allowList,
            ...(options.resolver ? { lookup: options.resolver } : {}),
          }),
        }),
  });
  const connect: buildConnector.connector = (target, callback) => {
    // Node connects to an IP literal without calling `lookup`: judge it here.
    if (!options.trustedDestination && isRefusedIpLiteral(target.hostname, allowList)) {
      callback(new BlockedAddressError(), null);
      return;
    }
    connector(target, (...result) => {
      if (result[0] === null) onConnected();
      callback(...result);
    });
  };
  return new Agent({ connect, allowH2: false, pipelining: 0, headersTimeout: 0, bodyTimeout: 0 });
}

export interface GuardedRequest extends GuardedClientOptions {
  readonly method: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as is. */
  readonly body?: Buffer;
  /** Aborts the request or the body's reading; the promise (or `read`) then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * How long the destination may send nothing: no headers yet, no next chunk of the body (`IdleTimeoutError`).
   * It starts once connected, or at the start of the request with `idleTimeoutCoversConnecting` (resolving
   * and connecting then share the first window). None when absent.
   */
  readonly idleTimeoutMs?: number;
  readonly idleTimeoutCoversConnecting?: boolean;
}

/** The destination sent nothing for the request's `idleTimeoutMs`. */
export class IdleTimeoutError extends Error {
  override readonly name = 'IdleTimeoutError';
  readonly code = 'ERR_IDLE_TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`nothing received for ${timeoutMs} ms`);
  }
}

/** A body bigger than the reader's limit: the connection is closed as soon as it is known. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  readonly code = 'ERR_RESPONSE_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`the response body is bigger than ${limit} bytes`);
  }
}

export interface GuardedResponse {
  readonly status: number;
  readonly headers: Dispatcher.ResponseData['headers'];
  /**
   * Reads the body to its end, keeping at most `keepBytes` of it (all by default). A declared Content-Length
   * over `maxBytes`, or more bytes than that arriving, fails with `ResponseTooLargeError`; a connection cut
   * rejects with undici's error, an idle one with `IdleTimeoutError`, an abort with the signal's reason. The
   * connection is closed when it settles.
   */
  read(maxBytes: number, keepBytes?: number): Promise<Buffer>;
  /** Closes the connection without reading (the rest of) the body. */
  discard(): void;
}

/**
 * Sends one request through a guarded agent of its own (see `createGuardedAgent`) and resolves once the
 * response headers are in. Redirects are never followed: a 3xx is returned like any other status, and a
 * caller that follows one must judge the new URL itself. Rejects with `BlockedAddressError` for a refused
 * destination, the signal's reason when aborted, `IdleTimeoutError`, and otherwise Node's or undici's error
 * as it is (its `code` kept: ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, ...).
 */
export async function guardedRequest(url: string | URL, options: GuardedRequest): Promise<GuardedResponse> {
  options.signal?.throwIfAborted();
  const stopped = new AbortController();
  // The body, once the headers are in: a stop or the end destroys it too.
  const held: { body?: Dispatcher.ResponseData['body'] } = {};
  const stop = (reason: unknown): void => {
    stopped.abort(reason);
    held.body?.destroy(reason instanceof Error ? reason : undefined);
  };
  const onAbort = (): void => stop(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const idleMs = options.idleTimeoutMs;
  const arm = (): void => {
    if (idleMs === undefined) return;
    clearTimeout(timer);
    timer = setTimeout(() => stop(new IdleTimeoutError(idleMs)), idleMs);
  };
  const agent = createGuardedAgent(options, () => {
    if (!options.idleTimeoutCoversConnecting) arm();
  });
  const finish = (): void => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    held.body?.destroy();
    agent.destroy().catch(() => undefined);
  };
  // Whatever surfaced (undici's abort error, a socket error), a stop says why.
  const reasonOf = (error: unknown): unknown => (stopped.signal.aborted ? stopped.signal.reason : error);
  if (options.idleTimeoutCoversConnecting) arm();
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      dispatcher: agent,
      method: options.method,
      ...(options.headers ? { headers: { ...options.headers } } : {}),
      ...(options.body === undefined ? {} : { body: options.body }),
      signal: stopped.signal,
    });
  } catch (error) {
    finish();
    throw reasonOf(error);
  }
  held.body = response.body;
  response.body.on('error', () => undefined);
  arm();
  return {
    status: response.statusCode,
    headers: response.headers,
    discard: finish,
    read: async (maxBytes, keepBytes = Number.POSITIVE_INFINITY) => {
      try {
        if (Number(response.headers['content-length'] ?? 0) > maxBytes)
          throw new ResponseTooLargeError(maxBytes);
        const kept: Buffer[] = [];
        let size = 0;
        let keptSize = 0;
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          arm();
          size += chunk.length;
          if (size > maxBytes) throw new ResponseTooLargeError(maxBytes);
          if (keptSize < keepBytes) {
            const part = chunk.subarray(0, Math.max(0, keepBytes - keptSize));
            kept.push(part);
            keptSize += part.length;
          }
        }
        stopped.signal.throwIfAborted();
        return Buffer.concat(kept, keptSize);
      } catch (error) {
        throw error instanceof ResponseTooLargeError ? error : reasonOf(error);
      } finally {
        finish();
      }
    },
  };
}
