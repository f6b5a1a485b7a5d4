import type { SecureContext } from 'node:tls';
import { performance } from 'node:perf_hooks';
import {
  guardedRequest,
  isBlockedAddressError,
  type GuardedResponse,
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

/**
 * A network error in log form: its code and message (Node's and undici's messages name host and port, never
 * headers). A request refused before anything was sent (an invalid header, for one) gives its code only, as
 * its message may quote a header.
 */
function connectionFailure(error: unknown): Verdict {
  if (isBlockedAddressError(error)) return failure('blocked_address', error.message);
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'UND_ERR_INVALID_ARG') return failure('connection', `request not sent: ${code}`);
  const text = typeof message === 'string' && message !== '' ? message : 'connection failed';
  return failure('connection', typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text);
}

/**
 * The URL to connect to, or why not: http(s) only, no credentials. The address rule (IP literals included)
 * is the guarded client's, at connect time.
 */
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
  return url;
}

/**
 * POSTs `body` once through the guarded client of libs/ssrf (`guardedRequest`) and reports how the attempt
 * ended; it never throws and never follows a redirect. The client judges the destination when it connects
 * (IP literals, and every address a host name resolves to: DNS rebinding is refused there) on a socket of its
 * own. The response body is drained up to `MAX_RESPONSE_BODY_BYTES` and the promise settles once the
 * connection is released.
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
    let response: GuardedResponse | undefined;
    const cancel = new AbortController();
    const settle = (final: Verdict): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(final);
    };
    const timer = setTimeout(() => {
      // A status already received decides the outcome; only the rest of its body was too slow.
      settle(verdict ?? failure('timeout', `no response within ${request.timeoutMs} ms`));
      response?.discard();
      cancel.abort();
    }, request.timeoutMs);

    guardedRequest(url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body, 'utf8')) },
      body: Buffer.from(request.body, 'utf8'),
      signal: cancel.signal,
      ...(request.allowPrivateCidrs ? { allowPrivateCidrs: request.allowPrivateCidrs } : {}),
      ...(request.resolver ? { resolver: request.resolver } : {}),
      ...(request.secureContext ? { secureContext: request.secureContext } : {}),
    }).then(
      (incoming) => {
        response = incoming;
        verdict = verdictOf(incoming.status);
        if (settled) {
          incoming.discard();
          return;
        }
        // Drained (and discarded) up to the cap, then cut; how the body ends never changes the verdict.
        const final = verdict;
        incoming.read(MAX_RESPONSE_BODY_BYTES, 0).then(
          () => settle(final),
          () => settle(final),
        );
      },
      (error: unknown) => settle(connectionFailure(error)),
    );
  });
}
