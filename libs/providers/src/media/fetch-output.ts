import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { GeneratedFile } from '@gen/contracts';
import {
  assertConnectionTarget,
  createGuardedLookup,
  isBlockedAddressError,
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
 * Downloads one output file an upstream named: a `data:` URL is decoded; an http(s) URL is fetched, through the
 * SSRF guard unless it is on the configured baseUrl's origin. Redirects are never followed (a 3xx is `failed`:
 * a redirect could lead past the guard). A refused URL is `failed`; 429, 5xx, timeouts and dropped connections
 * are `retryable`; an aborted signal rejects with its reason.
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
  const requestOptions: RequestOptions = { method: 'GET', agent: false, headers: { accept: '*/*' } };
  if (trusted) {
    requestOptions.headers = { ...requestOptions.headers, ...options.baseUrlHeaders };
  } else {
    if (target.protocol !== 'https:') throw refused('it is not https', url);
    const guard = { allowPrivateCidrs: options.allowPrivateCidrs, lookup: options.resolver };
    try {
      assertConnectionTarget(target, guard);
    } catch (error) {
      if (isBlockedAddressError(error)) throw refused('it is not a public address', url);
      throw error;
    }
    requestOptions.lookup = createGuardedLookup(guard);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw refused('it is not http(s)', url);
  return download(target, requestOptions, {
    maxBytes,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_OUTPUT_IDLE_TIMEOUT_MS,
    signal: options.signal,
  });
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

interface DownloadLimits {
  maxBytes: number;
  idleTimeoutMs: number;
  signal: AbortSignal | undefined;
}

function download(target: URL, options: RequestOptions, limits: DownloadLimits): Promise<GeneratedFile> {
  const { signal, maxBytes, idleTimeoutMs } = limits;
  return new Promise<GeneratedFile>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (error: unknown, file?: GeneratedFile): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (file) resolve(file);
      else {
        req.destroy();
        reject(error);
      }
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(
        () => finish(new UpstreamError('retryable', `the output URL sent nothing for ${idleTimeoutMs} ms`)),
        idleTimeoutMs,
      );
    };
    const onAbort = (): void => finish(signal?.reason);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, options, (response) => {
      arm();
      readBody(response, maxBytes, arm).then(
        (file) => finish(undefined, file),
        (error: unknown) => finish(error),
      );
    });
    req.on('error', (error) => {
      if (isBlockedAddressError(error)) finish(refused('it is not a public address', target.href));
      else
        finish(
          new UpstreamError('retryable', 'the connection to the output URL failed', {
            upstreamText: error.message,
          }),
        );
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    req.end();
  });
}

async function readBody(
  response: IncomingMessage,
  maxBytes: number,
  onChunk: () => void,
): Promise<GeneratedFile> {
  const status = response.statusCode ?? 0;
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  if (status >= 300 && status < 400) {
    response.destroy();
    throw new UpstreamError('failed', `the output URL answered ${status}: redirects are not followed`, {
      status,
      upstreamText: headers.get('location') ?? undefined,
    });
  }
  const declared = Number(headers.get('content-length') ?? Number.NaN);
  if (status === 200 && declared > maxBytes) {
    response.destroy();
    throw tooBig(maxBytes);
  }
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const part of response as AsyncIterable<Buffer>) {
      onChunk();
      size += part.length;
      if (size > maxBytes) {
        response.destroy();
        throw tooBig(maxBytes);
      }
      if (status === 200 || parts.length === 0) parts.push(part);
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw new UpstreamError('retryable', 'the output download was cut short', {
      status,
      upstreamText: error instanceof Error ? error.message : String(error),
    });
  }
  if (!response.complete)
    throw new UpstreamError('retryable', 'the output download was cut short', { status });
  const body = Buffer.concat(parts);
  if (status !== 200) {
    const text = body.subarray(0, 4096).toString('utf8');
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
