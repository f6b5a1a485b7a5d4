import { InvalidCidrListError, isPermittedAddress, parseAllowPrivateCidrs } from './private-cidr-allow-list';

describe('parseAllowPrivateCidrs', () => {
  it('gives the empty list for unset, empty and blank text', () => {
    for (const raw of [undefined, '', '  ']) {
      const list = parseAllowPrivateCidrs(raw);
      expect(list.cidrs).toEqual([]);
      expect(list.allows('127.0.0.1')).toBe(false);
    }
  });

  it('parses IPv4 and IPv6 CIDRs and bare addresses, trimming whitespace', () => {
    const list = parseAllowPrivateCidrs(' 10.0.0.0/8, fd00::/8 ,192.168.1.5,::1');
    expect(list.cidrs).toEqual(['10.0.0.0/8', 'fd00::/8', '192.168.1.5/32', '::1/128']);
    expect(list.allows('10.200.0.1')).toBe(true);
    expect(list.allows('fd00::1234')).toBe(true);
    expect(list.allows('192.168.1.5')).toBe(true);
    expect(list.allows('192.168.1.6')).toBe(false);
    expect(list.allows('::1')).toBe(true);
    expect(list.allows('11.0.0.1')).toBe(false);
  });

  it('matches an IPv4-mapped IPv6 address by its IPv4 address', () => {
    const list = parseAllowPrivateCidrs('127.0.0.0/8');
    expect(list.allows('::ffff:127.0.0.1')).toBe(true);
    expect(list.allows('::ffff:10.0.0.1')).toBe(false);
  });

  it.each([
    ['10.0.0.0/33', '"10.0.0.0/33"', 'from 0 to 32'],
    ['fd00::/129', '"fd00::/129"', 'from 0 to 128'],
    ['10.0.0.0/-1', '"10.0.0.0/-1"', 'prefix length'],
    ['10.0.0.0/8/8', '"10.0.0.0/8/8"', 'address/prefix'],
    ['10.0.0/8', '"10.0.0/8"', 'not an IPv4 or IPv6 address'],
    ['example.com/32', '"example.com/32"', 'not an IPv4 or IPv6 address'],
    ['[::1]/128', '"[::1]/128"', 'not an IPv4 or IPv6 address'],
    ['10.0.0.0/', '"10.0.0.0/"', 'prefix length'],
    ['10.0.0.0/8,,fd00::/8', '""', 'empty entry'],
    ['10.0.0.0/8,', '""', 'empty entry'],
  ])('rejects %s naming the bad entry', (raw, entry, detail) => {
    expect(() => parseAllowPrivateCidrs(raw)).toThrow(InvalidCidrListError);
    expect(() => parseAllowPrivateCidrs(raw)).toThrow(`WEBHOOK_ALLOW_PRIVATE_CIDRS: invalid entry ${entry}`);
    expect(() => parseAllowPrivateCidrs(raw)).toThrow(detail);
  });

  it('names the configuration source given', () => {
    expect(() => parseAllowPrivateCidrs('nope', 'MY_VAR')).toThrow('MY_VAR: invalid entry "nope"');
  });
});

describe('isPermittedAddress', () => {
  it('permits public addresses, and private ones only inside the allow list', () => {
    const list = parseAllowPrivateCidrs('10.0.0.0/8');
    expect(isPermittedAddress('8.8.8.8', list)).toBe(true);
    expect(isPermittedAddress('10.1.1.1', list)).toBe(true);
    expect(isPermittedAddress('192.168.1.1', list)).toBe(false);
    expect(isPermittedAddress('not-an-ip', list)).toBe(false);
  });
});
