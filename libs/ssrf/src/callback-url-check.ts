import { isIP } from 'node:net';
import { bareAddress } from './ip-address';
import {
  DEFAULT_RESOLVE_TIMEOUT_MS,
  resolveWithin,
  systemResolver,
  type HostResolver,
} from './host-resolver';
import type { ResolvedAddress } from './host-resolver';
import { isPermittedAddress, PrivateCidrAllowList } from './private-cidr-allow-list';

/** The only text a caller may show the client for any refusal (the spec forbids host, IP or DNS detail). */
export const INVALID_CALLBACK_URL_MESSAGE = 'Invalid callback URL';

/** Longest accepted URL, in characters, both as given and after WHATWG normalisation. */
export const MAX_CALLBACK_URL_LENGTH = 2048;

/** Longest host name DNS can carry. */
const MAX_HOSTNAME_LENGTH = 253;
const ALLOWED_PORTS = new Set(['', '80', '443']);

/** Why a URL was refused: for logs and metrics only, never for the response. */
export type CallbackUrlRefusalReason =
  'too_long' | 'malformed' | 'scheme' | 'credentials' | 'port' | 'host' | 'unresolvable' | 'private_address';

export interface CallbackUrlRefusal {
  readonly ok: false;
  readonly reason: CallbackUrlRefusalReason;
  readonly message: typeof INVALID_CALLBACK_URL_MESSAGE;
}

export interface ParsedCallbackUrl {
  readonly ok: true;
  /** The WHATWG-normalised URL (`href`); store and deliver to this, not to the raw text. */
  readonly url: string;
  /** Punycode host name, or the bare IP address for literals (no brackets). */
  readonly host: string;
  readonly isIpLiteral: boolean;
}

export interface AcceptedCallbackUrl extends ParsedCallbackUrl {
  /** The addresses judged; informational (connection-time checks resolve again). */
  readonly addresses: readonly ResolvedAddress[];
}

export interface CallbackUrlPolicy {
  /** Parsed `WEBHOOK_ALLOW_PRIVATE_CIDRS`; empty by default. */
  readonly allowPrivateCidrs?: PrivateCidrAllowList;
  /** Refuse plain http (account-level webhook endpoints must be HTTPS). */
  readonly requireHttps?: boolean;
}

export interface CallbackUrlCheckOptions extends CallbackUrlPolicy {
  /** `dns.promises.lookup(host, { all: true, verbatim: true })` by default. */
  readonly lookup?: HostResolver;
  readonly resolveTimeoutMs?: number;
}

function refuse(reason: CallbackUrlRefusalReason): CallbackUrlRefusal {
  return { ok: false, reason, message: INVALID_CALLBACK_URL_MESSAGE };
}

/**
 * True when the authority of `raw`, as WHATWG URL finds it for http and https, holds an `@`: user info, even
 * empty. WHATWG drops an empty one (`http://:@host/` parses with no username and no password), so the
 * parsed URL cannot tell; the text can. The authority starts after the scheme's `:` and any run of `/` or
 * `\` (special schemes accept both, and any number), and ends at the first `/`, `\`, `?` or `#`.
 */
export function hasUserInfo(raw: string): boolean {
  let start = raw.indexOf(':') + 1;
  while (raw[start] === '/' || raw[start] === '\\') start += 1;
  const rest = raw.slice(start);
  const end = rest.search(/[/\\?#]/);
  return (end === -1 ? rest : rest.slice(0, end)).includes('@');
}

/**
 * The syntactic half of the check, without DNS: length, WHATWG parse, scheme, credentials (any `@` in the
 * authority, even an empty `:@`), port, host, and IP literals judged by the address rule. Decimal, octal
 * and hex IPv4 forms are normalised by WHATWG URL (`http://2130706433/` is 127.0.0.1) before they are judged.
 */
export function parseCallbackUrl(
  raw: string,
  policy: CallbackUrlPolicy = {},
): CallbackUrlRefusal | ParsedCallbackUrl {
  if (typeof raw !== 'string') return refuse('malformed');
  if (raw.length > MAX_CALLBACK_URL_LENGTH) return refuse('too_long');
  // WHATWG URL silently strips these; refuse them so the text checked is the text the client sent.
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return refuse('malformed');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('malformed');
  }
  if (url.href.length > MAX_CALLBACK_URL_LENGTH) return refuse('too_long');
  if (url.protocol !== 'https:' && (url.protocol !== 'http:' || policy.requireHttps === true)) {
    return refuse('scheme');
  }
  if (url.username !== '' || url.password !== '' || hasUserInfo(raw)) return refuse('credentials');
  if (!ALLOWED_PORTS.has(url.port)) return refuse('port');
  const host = bareAddress(url.hostname);
  if (host === '' || host.length > MAX_HOSTNAME_LENGTH) return refuse('host');
  const isIpLiteral = isIP(host) !== 0;
  const allowList = policy.allowPrivateCidrs ?? PrivateCidrAllowList.EMPTY;
  if (isIpLiteral && !isPermittedAddress(host, allowList)) return refuse('private_address');
  return { ok: true, url: url.href, host, isIpLiteral };
}

/**
 * The acceptance check for `callBackUrl` and webhook endpoint URLs: `parseCallbackUrl`, then the host must
 * resolve and EVERY resolved address must be public (or allow-listed). On refusal answer the client with
 * `message` only and log `reason`.
 *
 * This does not protect the later connection on its own: DNS can change (rebinding), so deliveries must
 * connect through the guarded client (`guardedRequest`, which judges every address again when it connects
 * and never follows a redirect: a caller that follows one checks the new URL again).
 */
export async function checkCallbackUrl(
  raw: string,
  options: CallbackUrlCheckOptions = {},
): Promise<CallbackUrlRefusal | AcceptedCallbackUrl> {
  const parsed = parseCallbackUrl(raw, options);
  if (!parsed.ok) return parsed;
  if (parsed.isIpLiteral)
    return { ...parsed, addresses: [{ address: parsed.host, family: isIP(parsed.host) }] };
  let addresses: readonly ResolvedAddress[];
  try {
    const resolver = options.lookup ?? systemResolver;
    addresses = await resolveWithin(
      resolver,
      parsed.host,
      options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS,
    );
  } catch {
    return refuse('unresolvable');
  }
  if (addresses.length === 0) return refuse('unresolvable');
  const allowList = options.allowPrivateCidrs ?? PrivateCidrAllowList.EMPTY;
  if (!addresses.every(({ address }) => isPermittedAddress(address, allowList))) {
    return refuse('private_address');
  }
  return { ...parsed, addresses };
}
