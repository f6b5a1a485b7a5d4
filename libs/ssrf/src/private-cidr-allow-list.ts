import { BlockList } from 'node:net';
import { isPublicAddress } from './address-ranges';
import { bareAddress, ipFamily, ipv6Words, mappedIpv4 } from './ip-address';

/** A configuration error in the allow list; the message names the bad entry. */
export class InvalidCidrListError extends Error {
  constructor(
    readonly entry: string,
    detail: string,
    source: string,
  ) {
    super(`${source}: invalid entry "${entry}": ${detail}`);
    this.name = 'InvalidCidrListError';
  }
}

/**
 * CIDRs that callback and endpoint URLs may resolve to despite the public-address rule
 * (`WEBHOOK_ALLOW_PRIVATE_CIDRS`: on-premise receivers, tests). It only relaxes the address rule; schemes
 * and ports are still checked.
 */
export class PrivateCidrAllowList {
  static readonly EMPTY = new PrivateCidrAllowList([]);
  private readonly list = new BlockList();

  /** `cidrs` must already be valid (use `parseAllowPrivateCidrs` for configuration text). */
  constructor(readonly cidrs: readonly string[]) {
    for (const cidr of cidrs) {
      const [network = '', prefix = ''] = cidr.split('/');
      const family = ipFamily(network);
      if (family !== undefined) this.list.addSubnet(network, Number(prefix), family);
    }
  }

  /** True when the address (an IPv4-mapped IPv6 address also by its IPv4 address) is in a listed CIDR. */
  allows(text: string): boolean {
    if (this.cidrs.length === 0) return false;
    const address = bareAddress(text);
    const family = ipFamily(address);
    if (family === undefined) return false;
    if (this.list.check(address, family)) return true;
    const words = family === 'ipv6' ? ipv6Words(address) : undefined;
    const mapped = words === undefined ? undefined : mappedIpv4(words);
    return mapped !== undefined && this.list.check(mapped, 'ipv4');
  }
}

function parseEntry(entry: string, source: string): string {
  const fail = (detail: string): never => {
    throw new InvalidCidrListError(entry, detail, source);
  };
  const parts = entry.split('/');
  if (parts.length > 2) fail('expected address/prefix');
  const [network = '', prefixText] = parts;
  const family = ipFamily(network);
  if (family === undefined)
    return fail('not an IPv4 or IPv6 address (zone ids and brackets are not allowed)');
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return `${network}/${max}`;
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) {
    fail(`prefix length must be an integer from 0 to ${max} for ${family === 'ipv4' ? 'IPv4' : 'IPv6'}`);
  }
  return `${network}/${Number(prefixText)}`;
}

/**
 * Parses the `WEBHOOK_ALLOW_PRIVATE_CIDRS` format: comma-separated IPv4/IPv6 CIDRs, whitespace around
 * entries ignored; a bare address means that single address (/32 or /128). Empty or unset text gives the
 * empty list. Throws `InvalidCidrListError` naming the first bad entry (an empty entry between commas
 * included), so a typo fails at boot instead of silently allowing nothing or too much.
 */
export function parseAllowPrivateCidrs(
  raw: string | undefined,
  source = 'WEBHOOK_ALLOW_PRIVATE_CIDRS',
): PrivateCidrAllowList {
  if (raw === undefined || raw.trim() === '') return PrivateCidrAllowList.EMPTY;
  const cidrs = raw.split(',').map((part) => {
    const entry = part.trim();
    if (entry === '') throw new InvalidCidrListError(entry, 'empty entry between commas', source);
    return parseEntry(entry, source);
  });
  return new PrivateCidrAllowList(cidrs);
}

/** The one address rule: public, or inside an allow-listed CIDR. */
export function isPermittedAddress(address: string, allowList: PrivateCidrAllowList): boolean {
  return isPublicAddress(address) || allowList.allows(address);
}
