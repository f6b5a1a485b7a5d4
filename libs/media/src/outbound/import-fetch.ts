import { request, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { SecureContext } from 'node:tls';
import { BusinessCode } from '@gen/contracts';
import { DomainError, type MessageId, type MessageParams } from '@gen/core';
import {
  checkCallbackUrl,
  createGuardedLookup,
  isBlockedAddressError,
  type HostResolver,
  type PrivateCidrAllowList,
} from '@gen/ssrf';

export interface ImportFetchOptions {
  /** Sent once, as `Authorization: Bearer`, to the first URL only (never to a redirect's target). */
  readonly accessToken?: string;
  readonly allowPrivateCidrs: PrivateCidrAllowList;
  readonly secureContext?: SecureContext;
  readonly resolver?: HostResolver;
  /** Bigger bodies fail while they stream in (413). */
  readonly maxBytes: number;
  /** How long the source may send nothing (no headers, no next chunk). */
  readonly idleTimeoutMs: number;
  readonly maxRedirects: number;
}

export interface FetchedFile {
  readonly bytes: Buffer;
  /** The Content-Type the source declared, when it did. */
  readonly contentType: string | undefined;
  /** The URL the bytes came from (the last of any redirects). */
  readonly url: string;
}

const refusal = (messageId: MessageId, params: MessageParams = {}): DomainError =>
  new DomainError(BusinessCode.InvalidRequest, messageId, params);

/**
 * Fetches a user-given URL for an import, through the same guard as callbacks: https on port 443, no
 * credentials in the URL, every resolved address public (or in `FETCH_ALLOW_PRIVATE_CIDRS`), checked when the
 * URL is accepted and again when the connection is made (DNS rebinding), on a socket of its own. A redirect
 * is followed only to a URL that passes the same checks, at most `maxRedirects` times, and never carries the
 * token. The body is read with the size limit enforced while it arrives. Refusals are DomainErrors (400, or
 * 413 when too large); nothing here logs the URL's query or the token.
 */
export async function fetchImport(url: string, options: ImportFetchOptions): Promise<FetchedFile> {
  let current = url;
  for (let hop = 0; ; hop += 1) {
    const checked = await checkCallbackUrl(current, {
      requireHttps: true,
      allowPrivateCidrs: options.allowPrivateCidrs,
      ...(options.resolver ? { lookup: options.resolver } : {}),
    });
    if (!checked.ok) throw refusal(hop === 0 ? 'import.invalid_url' : 'import.redirect_refused');
    const response = await get(checked.url, hop === 0 ? options.accessToken : undefined, options, hop);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400) {
      const location = response.headers.location;
      response.destroy();
      if (!location || hop >= options.maxRedirects) throw refusal('import.redirect_refused');
      try {
        current = new URL(location, checked.url).href;
      } catch {
        throw refusal('import.redirect_refused');
      }
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw refusal('import.http_status', { status });
    }
    const bytes = await readBody(response, options);
    const contentType = response.headers['content-type'];
    return { bytes, contentType, url: checked.url };
  }
}

function get(
  url: string,
  token: string | undefined,
  options: ImportFetchOptions,
  hop: number,
): Promise<IncomingMessage> {
  const requestOptions: RequestOptions = {
    method: 'GET',
    agent: false,
    headers: {
      accept: '*/*',
      'user-agent': 'Service-Import/1',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    lookup: createGuardedLookup({
      allowPrivateCidrs: options.allowPrivateCidrs,
      ...(options.resolver ? { lookup: options.resolver } : {}),
    }),
    ...(options.secureContext ? { secureContext: options.secureContext } : {}),
  };
  return new Promise((resolve, reject) => {
    const outgoing = request(url, requestOptions, resolve);
    outgoing.setTimeout(options.idleTimeoutMs, () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', (error) =>
      reject(
        isBlockedAddressError(error)
          ? refusal(hop === 0 ? 'import.invalid_url' : 'import.redirect_refused')
          : refusal('import.unreachable'),
      ),
    );
    outgoing.end();
  });
}

async function readBody(response: IncomingMessage, options: ImportFetchOptions): Promise<Buffer> {
  const tooLarge = () =>
    new DomainError(BusinessCode.PayloadTooLarge, 'import.too_large', { limit: options.maxBytes });
  if (Number(response.headers['content-length'] ?? 0) > options.maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    response.destroy();
    throw error instanceof DomainError ? error : refusal('import.unreachable');
  }
  if (!response.complete) throw refusal('import.unreachable');
  return Buffer.concat(chunks, size);
}
