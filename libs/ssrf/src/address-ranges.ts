import { BlockList } from 'node:net';
import { bareAddress, ipFamily, ipv4FromWords, ipv6Words, mappedIpv4, type IpFamily } from './ip-address';

/**
 * Address ranges that are never a public destination, from the IANA special-purpose registries, chosen
 * conservatively: a range that is only "sometimes" globally reachable is refused.
 */
const IPV4_NON_PUBLIC: readonly (readonly [label: string, cidr: string])[] = [
  ['this network / unspecified', '0.0.0.0/8'],
  ['private', '10.0.0.0/8'],
  ['carrier-grade NAT', '100.64.0.0/10'],
  ['loopback', '127.0.0.0/8'],
  ['link-local (cloud metadata)', '169.254.0.0/16'],
  ['private', '172.16.0.0/12'],
  ['IETF protocol assignments', '192.0.0.0/24'],
  ['documentation', '192.0.2.0/24'],
  ['6to4 relay anycast (deprecated)', '192.88.99.0/24'],
  ['private', '192.168.0.0/16'],
  ['benchmarking', '198.18.0.0/15'],
  ['documentation', '198.51.100.0/24'],
  ['documentation', '203.0.113.0/24'],
  ['multicast', '224.0.0.0/4'],
  ['reserved / broadcast', '240.0.0.0/4'],
];

/** IPv6 ranges inside global unicast 2000::/3 that are still not public. Everything outside 2000::/3 is refused. */
const IPV6_NON_PUBLIC: readonly (readonly [label: string, cidr: string])[] = [
  ['IETF protocol assignments (Teredo, benchmarking, ORCHID)', '2001::/23'],
  ['documentation', '2001:db8::/32'],
  ['documentation', '3fff::/20'],
];
const GLOBAL_UNICAST = compile([['global unicast', '2000::/3']], 'ipv6');

interface CompiledRange {
  readonly label: string;
  readonly list: BlockList;
}

function compile(ranges: readonly (readonly [string, string])[], family: IpFamily): CompiledRange[] {
  return ranges.map(([label, cidr]) => {
    const [network = '', prefix = ''] = cidr.split('/');
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), family);
    return { label, list };
  });
}

const IPV4_RANGES = compile(IPV4_NON_PUBLIC, 'ipv4');
const IPV6_RANGES = compile(IPV6_NON_PUBLIC, 'ipv6');

function ipv4Range(address: string): string | undefined {
  return IPV4_RANGES.find((range) => range.list.check(address, 'ipv4'))?.label;
}

/** IPv6 forms that carry an IPv4 address the packet effectively goes to, judged by that IPv4 address. */
function embeddedIpv4(words: readonly number[]): { via: string; ipv4: string } | undefined {
  const mapped = mappedIpv4(words);
  if (mapped !== undefined) return { via: 'IPv4-mapped', ipv4: mapped };
  const isNat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (isNat64) return { via: 'NAT64', ipv4: ipv4FromWords(words[6] ?? 0, words[7] ?? 0) };
  if (words[0] === 0x2002) return { via: '6to4', ipv4: ipv4FromWords(words[1] ?? 0, words[2] ?? 0) };
  return undefined;
}

/**
 * The label of the non-public range that holds `address` (IPv4 or IPv6, brackets and zone id tolerated),
 * or undefined when the address is public. Text that is not an IP address is reported as `not an IP address`.
 * The label is for tests and operators' logs only; it must never reach an API response.
 */
export function nonPublicRange(text: string): string | undefined {
  const address = bareAddress(text);
  const family = ipFamily(address);
  if (family === 'ipv4') return ipv4Range(address);
  const words = family === 'ipv6' ? ipv6Words(address) : undefined;
  if (words === undefined) return 'not an IP address';
  const embedded = embeddedIpv4(words);
  if (embedded !== undefined) {
    const range = ipv4Range(embedded.ipv4);
    return range === undefined ? undefined : `${embedded.via} ${range}`;
  }
  if (!GLOBAL_UNICAST.some((range) => range.list.check(address, 'ipv6'))) {
    return 'outside global unicast (loopback, unspecified, ULA, link-local, multicast, reserved)';
  }
  return IPV6_RANGES.find((range) => range.list.check(address, 'ipv6'))?.label;
}

/** True when `address` is an IP address in no non-public range. */
export function isPublicAddress(address: string): boolean {
  return nonPublicRange(address) === undefined;
}
