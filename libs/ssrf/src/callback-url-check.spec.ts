import {
  checkCallbackUrl,
  hasUserInfo,
  INVALID_CALLBACK_URL_MESSAGE,
  MAX_CALLBACK_URL_LENGTH,
} from './callback-url-check';
import type { HostResolver, ResolvedAddress } from './host-resolver';
import { parseAllowPrivateCidrs } from './private-cidr-allow-list';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** A fake DNS: unknown names fail like getaddrinfo does. */
function resolverOf(zone: Record<string, readonly ResolvedAddress[]>): HostResolver {
  return async (host) => {
    const answer = zone[host];
    if (answer === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };
}

const lookup = resolverOf({
  'hooks.example.com': [v4('93.184.215.14')],
  'hooks.example.com.': [v4('93.184.215.14')],
  'xn--bcher-kva.example': [v4('93.184.215.15')],
  'dual.example.com': [v4('93.184.215.14'), v6('2606:2800:21f:cb07:6820:80da:af6b:8b2c')],
  'mixed.example.com': [v4('93.184.215.14'), v4('10.0.0.5')],
  'mixed6.example.com': [v6('2606:4700:4700::1111'), v6('fd00::5')],
  localhost: [v4('127.0.0.1'), v6('::1')],
  'metadata.example.com': [v4('169.254.169.254')],
  'mapped.example.com': [v6('::ffff:127.0.0.1')],
  'nat64.example.com': [v6('64:ff9b::a9fe:a9fe')],
  'sixtofour.example.com': [v6('2002:c0a8:101::1')],
  'teredo.example.com': [v6('2001:0:4136:e378:8000:63bf:3fff:fdd2')],
  'cgnat.example.com': [v4('100.64.1.1')],
  'internal.corp': [v4('10.1.2.3')],
  'empty.example.com': [],
  'garbage.example.com': [v4('not-an-address')],
});

describe('hasUserInfo', () => {
  it.each([
    ['http://:@host/', true],
    ['http://@host/', true],
    ['http://a:b@host/', true],
    ['http:host@x/', true],
    ['http://host/', false],
    ['http://host/path@x', false],
    ['http://host?q=@', false],
    ['http://host#@', false],
    ['http://host\\@x', false],
    ['https://hooks.example.com/a@b?c=@d', false],
  ])('%s: %s', (raw, expected) => {
    expect(hasUserInfo(raw)).toBe(expected);
  });
});

describe('checkCallbackUrl', () => {
  it.each([
    ['ftp://hooks.example.com/', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['gopher://hooks.example.com/', 'scheme'],
    ['ws://hooks.example.com/', 'scheme'],
    ['http://hooks.example.com:8080/', 'port'],
    ['https://hooks.example.com:8443/', 'port'],
    ['http://hooks.example.com:22/', 'port'],
    ['http://hooks.example.com:0/', 'port'],
    ['http://user@hooks.example.com/', 'credentials'],
    ['https://user:secret@hooks.example.com/', 'credentials'],
    ['https://:secret@hooks.example.com/', 'credentials'],
    // Empty user info is still user info, although WHATWG URL drops it from the parsed URL.
    ['http://:@93.184.216.34/', 'credentials'],
    ['http://@93.184.216.34/', 'credentials'],
    ['https://:@hooks.example.com/', 'credentials'],
    ['http::@93.184.216.34/', 'credentials'],
    ['http:\\\\:@93.184.216.34/', 'credentials'],
    ['http:///:@93.184.216.34/', 'credentials'],
    ['HTTP://:@93.184.216.34/', 'credentials'],
    ['http://', 'malformed'],
    ['not a url', 'malformed'],
    ['hooks.example.com/path', 'malformed'],
    [' https://hooks.example.com/', 'malformed'],
    ['https://hooks.example.com/\n', 'malformed'],
    ['https://hooks.exa\tmple.com/', 'malformed'],
    ['http://256.1.1.1/', 'malformed'],
    ['http://exa<mple.com/', 'malformed'],
    ['http://exa%00mple.com/', 'malformed'],
    ['http://exa mple.com/', 'malformed'],
    ['http://[fe80::1%25eth0]/', 'malformed'],
    [`https://hooks.example.com/${'a'.repeat(MAX_CALLBACK_URL_LENGTH)}`, 'too_long'],
    [`https://hooks.example.com/${'é'.repeat(700)}`, 'too_long'],
    [`https://${'a.'.repeat(127)}com/`, 'host'],
    ['https://nowhere.example.com/', 'unresolvable'],
    ['https://empty.example.com/', 'unresolvable'],
    ['http://localhost/', 'private_address'],
    ['http://127.0.0.1/', 'private_address'],
    ['http://127.0.0.1:80/', 'private_address'],
    ['http://2130706433/', 'private_address'],
    ['http://017700000001/', 'private_address'],
    ['http://0x7f.1/', 'private_address'],
    ['http://0x7f000001/', 'private_address'],
    ['http://127.1/', 'private_address'],
    ['http://0/', 'private_address'],
    ['http://0.0.0.0/', 'private_address'],
    ['http://10.0.0.1/', 'private_address'],
    ['http://172.16.5.4/', 'private_address'],
    ['http://192.168.0.1/', 'private_address'],
    ['http://100.64.0.1/', 'private_address'],
    ['http://169.254.169.254/latest/meta-data/', 'private_address'],
    ['http://0xa9fea9fe/', 'private_address'],
    ['http://224.0.0.1/', 'private_address'],
    ['http://255.255.255.255/', 'private_address'],
    ['http://192.0.2.10/', 'private_address'],
    ['http://198.18.0.1/', 'private_address'],
    ['http://[::1]/', 'private_address'],
    ['http://[::]/', 'private_address'],
    ['http://[::ffff:127.0.0.1]/', 'private_address'],
    ['http://[::ffff:7f00:1]/', 'private_address'],
    ['http://[::ffff:169.254.169.254]/', 'private_address'],
    ['http://[fc00::1]/', 'private_address'],
    ['http://[fd00::1]/', 'private_address'],
    ['http://[fe80::1]/', 'private_address'],
    ['http://[ff02::1]/', 'private_address'],
    ['http://[64:ff9b::127.0.0.1]/', 'private_address'],
    ['http://[2002:7f00:1::]/', 'private_address'],
    ['http://[2001::1]/', 'private_address'],
    ['http://[2001:db8::1]/', 'private_address'],
    ['https://metadata.example.com/', 'private_address'],
    ['https://mapped.example.com/', 'private_address'],
    ['https://nat64.example.com/', 'private_address'],
    ['https://sixtofour.example.com/', 'private_address'],
    ['https://teredo.example.com/', 'private_address'],
    ['https://cgnat.example.com/', 'private_address'],
    ['https://internal.corp/', 'private_address'],
    ['https://garbage.example.com/', 'private_address'],
  ])('refuses %s (%s)', async (raw, reason) => {
    const result = await checkCallbackUrl(raw, { lookup });
    expect(result).toEqual({ ok: false, reason, message: 'Invalid callback URL' });
  });

  it.each([
    ['https://hooks.example.com/callback', 'https://hooks.example.com/callback'],
    ['http://hooks.example.com/callback?x=1', 'http://hooks.example.com/callback?x=1'],
    ['https://hooks.example.com:443/', 'https://hooks.example.com/'],
    ['http://hooks.example.com:80/', 'http://hooks.example.com/'],
    ['https://hooks.example.com:80/', 'https://hooks.example.com:80/'],
    ['http://hooks.example.com:443/', 'http://hooks.example.com:443/'],
    ['HTTPS://HOOKS.EXAMPLE.COM/Path', 'https://hooks.example.com/Path'],
    ['https://hooks.example.com./', 'https://hooks.example.com./'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['https://xn--bcher-kva.example/', 'https://xn--bcher-kva.example/'],
    ['https://dual.example.com/', 'https://dual.example.com/'],
    ['http:///hooks.example.com/', 'http://hooks.example.com/'],
    ['http://93.184.215.14/', 'http://93.184.215.14/'],
    ['http://1572394766/', 'http://93.184.215.14/'],
    ['http://[2606:4700:4700::1111]/', 'http://[2606:4700:4700::1111]/'],
    ['http://[::ffff:8.8.8.8]/', 'http://[::ffff:808:808]/'],
  ])('accepts %s as %s', async (raw, href) => {
    const result = await checkCallbackUrl(raw, { lookup });
    expect(result).toMatchObject({ ok: true, url: href });
  });

  it('refuses a host that resolves to one public and one private address', async () => {
    expect(await checkCallbackUrl('https://mixed.example.com/', { lookup })).toMatchObject({
      reason: 'private_address',
    });
    expect(await checkCallbackUrl('https://mixed6.example.com/', { lookup })).toMatchObject({
      reason: 'private_address',
    });
  });

  it('refuses an invalid punycode host (malformed or, where the URL parser lets it through, unresolvable)', async () => {
    const result = await checkCallbackUrl('http://xn--a.com/', { lookup });
    expect(result.ok).toBe(false);
    expect(['malformed', 'unresolvable']).toContain(result.ok ? '' : result.reason);
  });

  it('returns every judged address on acceptance', async () => {
    const result = await checkCallbackUrl('https://dual.example.com/', { lookup });
    expect(result).toMatchObject({ ok: true, host: 'dual.example.com', isIpLiteral: false });
    expect(result.ok && result.addresses).toHaveLength(2);
  });

  it('never puts the host, address or DNS detail in the message', async () => {
    for (const raw of ['https://internal.corp/', 'https://nowhere.example.com/', 'http://10.0.0.1:8080/']) {
      const result = await checkCallbackUrl(raw, { lookup });
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.message).toBe(INVALID_CALLBACK_URL_MESSAGE);
      expect(Object.keys(result).sort()).toEqual(['message', 'ok', 'reason']);
    }
  });

  it('lets allow-listed private CIDRs through, but still checks ports and schemes', async () => {
    const allowPrivateCidrs = parseAllowPrivateCidrs('10.0.0.0/8,fd00::/8');
    const options = { lookup, allowPrivateCidrs };
    expect(await checkCallbackUrl('https://internal.corp/', options)).toMatchObject({ ok: true });
    expect(await checkCallbackUrl('http://10.9.9.9/', options)).toMatchObject({ ok: true });
    expect(await checkCallbackUrl('http://[fd00::1]/', options)).toMatchObject({ ok: true });
    expect(await checkCallbackUrl('https://mixed.example.com/', options)).toMatchObject({ ok: true });
    expect(await checkCallbackUrl('https://internal.corp:8080/', options)).toMatchObject({ reason: 'port' });
    expect(await checkCallbackUrl('http://10.9.9.9:8443/', options)).toMatchObject({ reason: 'port' });
    expect(await checkCallbackUrl('ftp://internal.corp/', options)).toMatchObject({ reason: 'scheme' });
    expect(await checkCallbackUrl('http://127.0.0.1/', options)).toMatchObject({ reason: 'private_address' });
    expect(await checkCallbackUrl('https://metadata.example.com/', options)).toMatchObject({
      reason: 'private_address',
    });
  });

  it('refuses plain http when HTTPS is required (webhook endpoints)', async () => {
    expect(await checkCallbackUrl('http://hooks.example.com/', { lookup, requireHttps: true })).toMatchObject(
      {
        reason: 'scheme',
      },
    );
    expect(
      await checkCallbackUrl('https://hooks.example.com/', { lookup, requireHttps: true }),
    ).toMatchObject({
      ok: true,
    });
  });

  it('refuses a host whose resolution does not finish in time', async () => {
    const hanging: HostResolver = () => new Promise(() => undefined);
    const result = await checkCallbackUrl('https://slow.example.com/', {
      lookup: hanging,
      resolveTimeoutMs: 20,
    });
    expect(result).toMatchObject({ reason: 'unresolvable' });
  });

  it('judges IP literals without asking the resolver', async () => {
    const resolver = jest.fn(lookup);
    expect(await checkCallbackUrl('http://8.8.8.8/', { lookup: resolver })).toMatchObject({ ok: true });
    expect(resolver).not.toHaveBeenCalled();
  });

  it('uses the system resolver by default', async () => {
    expect(await checkCallbackUrl('http://localhost/')).toMatchObject({ reason: 'private_address' });
  });
});
