import {
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SecureContext } from 'node:tls';
import { performance } from 'node:perf_hooks';
import {
  assertConnectionTarget,
  createGuardedLookup,
  isBlockedAddressError,
  type HostResolver,
  type PrivateCidrAllowList,
} from '@gen/ssrf';

/** One delivery attempt: a signed POST to a receiver (spec, Events, "Callback to callBackUrl", item 7). */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The exact bytes signed; sent as UTF-8, never re-serialized. */
  readonly body: string;
  /** Bound on the whole attempt, connection and response together: 15000 in production. */
  readonly timeoutMs: number;
  /** Parsed `WEBHOOK_ALLOW_PRIVATE_CIDRS`; empty by default. */
  readonly allowPrivateCidrs?: PrivateCidrAllowList;
  /** The CAs an HTTPS receiver's certificate is checked against; Node's bundled CAs when left out. */
  readonly secureContext?: SecureContext;
  /** For tests: the DNS resolver the guarded lookup uses (the system resolver by default). */
  readonly resolver?: HostResolver;
}

export type SendFailureReason =
  'redirect' | 'status' | 'timeout' | 'connection' | 'blocked_address' | 'invalid_url';

export type SendOutcome =
  | { readonly ok: true; readonly status: number; readonly durationMs: number }
  | {
      readonly ok: false;
      readonly reason: SendFailureReason;
      readonly status?: number;
      /** For logs: never holds request headers (they carry the signature). */
      readonly detail: string;
      readonly durationMs: number;
    };

/** Response bytes read (and discarded) before the response is cut off; reading frees the socket. */
export const MAX_RESPONSE_BODY_BYTES = 64 * 1024;

type Verdict =
  { readonly ok: true; readonly status: number } | Omit<Extract<SendOutcome, { ok: false }>, 'durationMs'>;

const failure = (reason: SendFailureReason, detail: string, status?: number): Verdict =>
  status === undefined ? { ok: false, reason, detail } : { ok: false, reason, status, detail };

/** The verdict of a final status: any 2xx acknowledges, a 3xx is never followed, anything else fails. */
function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status >= 300 && status < 400) {
    return failure('redirect', `receiver answered HTTP ${status}; redirects are not followed`, status);
  }
  return failure('status', `receiver answered HTTP ${status}`, status);
}

/** A network error in log form: its code and message (Node's messages name host and port, never headers). */
function connectionFailure(error: unknown): Verdict {
  if (isBlockedAddressError(error)) return failure('blocked_address', error.message);
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : 'connection failed';
  return failure('connection', typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text);
}

/** The URL to connect to, or why not: http(s) only, no credentials, IP literals judged by the address rule. */
function targetOf(request: WebhookRequest): URL | Verdict {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failure('invalid_url', 'the URL does not parse');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return failure('invalid_url', `scheme ${url.protocol} is not http or https`);
  }
  if (url.username !== '' || url.password !== '') {
    return failure('invalid_url', 'the URL carries a user name or password');
  }
  try {
    assertConnectionTarget(url, { allowPrivateCidrs: request.allowPrivateCidrs });
  } catch (error) {
    return isBlockedAddressError(error)
      ? failure('blocked_address', error.message)
      : connectionFailure(error);
  }
  return url;
}

/**
 * POSTs `body` once and reports how the attempt ended; it never throws and never follows a redirect. The
 * connection resolves the host through the SSRF guard at connect time (DNS rebinding is refused there) on a
 * socket of its own (`agent: false`: a pooled socket would skip the guard). The response body is drained up
 * to `MAX_RESPONSE_BODY_BYTES` and the promise settles once the socket is released.
 */
export async function sendWebhook(request: WebhookRequest): Promise<SendOutcome> {
  const started = performance.now();
  const withDuration = (verdict: Verdict): SendOutcome => ({
    ...verdict,
    durationMs: Math.max(0, Math.round(performance.now() - started)),
  });
  const target = targetOf(request);
  if (!(target instanceof URL)) return withDuration(target);
  const verdict = await attempt(target, request).catch(() => failure('connection', 'request not sent'));
  return withDuration(verdict);
}

function attempt(url: URL, request: WebhookRequest): Promise<Verdict> {
  return new Promise<Verdict>((resolve) => {
    let verdict: Verdict | undefined;
    let settled = false;
    let outgoing: ClientRequest | undefined;
    let response: IncomingMessage | undefined;
    const settle = (final: Verdict): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(final);
    };
    const timer = setTimeout(() => {
      // A status already received decides the outcome; only the rest of its body was too slow.
      settle(verdict ?? failure('timeout', `no response within ${request.timeoutMs} ms`));
      response?.destroy();
      outgoing?.destroy();
    }, request.timeoutMs);

    const options: RequestOptions = {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body, 'utf8')) },
      agent: false,
      ...(request.secureContext ? { secureContext: request.secureContext } : {}),
      lookup: createGuardedLookup({
        allowPrivateCidrs: request.allowPrivateCidrs,
        ...(request.resolver ? { lookup: request.resolver } : {}),
      }),
    };
    try {
      outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options);
    } catch (error) {
      // Thrown before anything is sent (an invalid header, for one): the code only, as a message may quote
      // a header value.
      const code = (error as { code?: unknown } | null)?.code;
      settle(
        failure('connection', `request not sent: ${typeof code === 'string' ? code : 'invalid request'}`),
      );
      return;
    }
    outgoing.on('error', (error) => settle(verdict ?? connectionFailure(error)));
    outgoing.on('close', () => {
      if (response === undefined) settle(failure('connection', 'connection closed without a response'));
    });
    outgoing.on('response', (incoming) => {
      response = incoming;
      verdict = verdictOf(incoming.statusCode ?? 0);
      let received = 0;
      incoming.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BODY_BYTES) incoming.destroy();
      });
      incoming.on('error', () => undefined);
      incoming.on('close', () => settle(verdict!));
    });
    outgoing.end(request.body, 'utf8');
  });
}
