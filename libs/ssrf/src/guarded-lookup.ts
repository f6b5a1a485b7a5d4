import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { bareAddress } from './ip-address';
import {
  DEFAULT_RESOLVE_TIMEOUT_MS,
  resolveWithin,
  systemResolver,
  type HostResolver,
} from './host-resolver';
import type { ResolvedAddress } from './host-resolver';
import { isPermittedAddress, PrivateCidrAllowList } from './private-cidr-allow-list';

export const BLOCKED_ADDRESS_ERROR_CODE = 'ERR_SSRF_BLOCKED_ADDRESS';

/**
 * The connection was refused because the destination is not a public (or allow-listed) address. The message
 * names neither host nor address, so it is safe in a delivery record; `code` tells it apart from network errors.
 */
export class BlockedAddressError extends Error {
  readonly code = BLOCKED_ADDRESS_ERROR_CODE;
  constructor() {
    super('Outbound connection refused: the destination is not a public address');
    this.name = 'BlockedAddressError';
  }
}

export function isBlockedAddressError(error: unknown): error is BlockedAddressError {
  return (error as { code?: unknown } | null)?.code === BLOCKED_ADDRESS_ERROR_CODE;
}

export interface GuardedLookupOptions {
  /** Parsed `WEBHOOK_ALLOW_PRIVATE_CIDRS`; empty by default. */
  readonly allowPrivateCidrs?: PrivateCidrAllowList;
  /** `dns.promises.lookup(host, { all: true, verbatim: true })` by default. */
  readonly lookup?: HostResolver;
  readonly resolveTimeoutMs?: number;
}

function wantedFamily(family: LookupOptions['family']): number {
  if (family === 'IPv4') return 4;
  if (family === 'IPv6') return 6;
  return typeof family === 'number' ? family : 0;
}

/**
 * A `lookup` for `http.request` / `https.request` / `net.connect` (`{ lookup }` option) that resolves the host,
 * judges EVERY address with the acceptance rules (ports are not judged here: that is the acceptance check's
 * job), and fails the connection with `BlockedAddressError` when any address is not permitted. This is the
 * defence against DNS rebinding: an answer that changed to a private address after acceptance is refused.
 *
 * It is the lookup of the guarded client (`createGuardedAgent` in guarded-client.ts), which also judges
 * IP-literal hosts (Node never calls `lookup` for them, see `isRefusedIpLiteral`) and never reuses a socket
 * (a pooled keep-alive socket would skip `lookup`). Use that client rather than this lookup on its own.
 */
export function createGuardedLookup(options: GuardedLookupOptions = {}): LookupFunction {
  const resolver = options.lookup ?? systemResolver;
  const allowList = options.allowPrivateCidrs ?? PrivateCidrAllowList.EMPTY;
  const timeoutMs = options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
  return (hostname, lookupOptions, callback) => {
    const answer = async (): Promise<readonly ResolvedAddress[]> => {
      const addresses = await resolveWithin(resolver, hostname, timeoutMs);
      if (!addresses.every(({ address }) => isPermittedAddress(address, allowList))) {
        throw new BlockedAddressError();
      }
      const family = wantedFamily(lookupOptions.family);
      const wanted = addresses.filter((a) => family === 0 || a.family === family);
      if (wanted.length === 0) {
        throw Object.assign(new Error(`no address of family ${family} for ${hostname}`), {
          code: 'ENOTFOUND',
        });
      }
      return wanted;
    };
    // The callback runs outside the promise chain so an exception thrown by it is not swallowed.
    answer().then(
      (addresses) => {
        process.nextTick(() => {
          const [first] = addresses;
          if (lookupOptions.all === true) callback(null, addresses as LookupAddress[]);
          else callback(null, first?.address ?? '', first?.family ?? 4);
        });
      },
      (error: NodeJS.ErrnoException) => {
        process.nextTick(() => callback(error, '', 0));
      },
    );
  };
}

/**
 * True when `hostname` (a URL's host, brackets tolerated) is an IP literal that is not permitted: Node connects
 * to literals without calling `lookup`, so the guarded client judges them with this before connecting. Host
 * names are false here and are judged by `createGuardedLookup`.
 */
export function isRefusedIpLiteral(hostname: string, allowList: PrivateCidrAllowList): boolean {
  const host = bareAddress(hostname);
  return isIP(host) !== 0 && !isPermittedAddress(host, allowList);
}
