import { isIPv4, isIPv6 } from 'node:net';

export type IpFamily = 'ipv4' | 'ipv6';

/** Strips URL brackets (`[::1]`) and an IPv6 zone id (`fe80::1%eth0`). */
export function bareAddress(text: string): string {
  const unbracketed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/** The family of a bare IP address, or undefined when the text is not one. */
export function ipFamily(address: string): IpFamily | undefined {
  if (isIPv4(address)) return 'ipv4';
  if (isIPv6(address)) return 'ipv6';
  return undefined;
}

/** The eight 16-bit words of a valid bare IPv6 address (embedded dotted quads included), else undefined. */
export function ipv6Words(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined;
  let text = address.toLowerCase();
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = text
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    const prefix = text.slice(0, lastColon + 1);
    text = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
  }
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const gap = text.indexOf('::');
  const head = parse(gap === -1 ? text : text.slice(0, gap));
  const rest = gap === -1 ? [] : parse(text.slice(gap + 2));
  const zeros = new Array<number>(8 - head.length - rest.length - tail.length).fill(0);
  return [...head, ...zeros, ...rest, ...tail];
}

/** Dotted-quad text of the IPv4 address held in two 16-bit words. */
export function ipv4FromWords(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The IPv4 address of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), else undefined. */
export function mappedIpv4(words: readonly number[]): string | undefined {
  const isMapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  return isMapped ? ipv4FromWords(words[6] ?? 0, words[7] ?? 0) : undefined;
}
