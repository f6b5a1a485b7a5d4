import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkCallbackUrl } from './callback-url-check';
import {
  guardedRequest,
  IdleTimeoutError,
  ResponseTooLargeError,
  type GuardedRequest,
} from './guarded-client';
import {
  BLOCKED_ADDRESS_ERROR_CODE,
  BlockedAddressError,
  isBlockedAddressError,
  isRefusedIpLiteral,
} from './guarded-lookup';
import type { HostResolver, ResolvedAddress } from './host-resolver';
import { parseAllowPrivateCidrs, PrivateCidrAllowList } from './private-cidr-allow-list';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });
const LOOPBACK = parseAllowPrivateCidrs('127.0.0.0/8');

/** A resolver answering `answer` and recording the names it was asked. */
function answering(...answer: ResolvedAddress[]): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (host: string): Promise<readonly ResolvedAddress[]> => {
    calls.push(host);
    return answer;
  };
  return Object.assign(resolver, { calls });
}

/**
 * Every address form of the SSRF suites of the three former clients (webhooks, providers' output files,
 * imports) and of the guarded lookup, run against the one client. A local receiver on 127.0.0.1 counts the
 * connections it gets: a refused form must fail with `BlockedAddressError` and reach nothing.
 */
describe('guardedRequest: the address rule at connect time', () => {
  let server: Server;
  let port: number;
  let connections: number;
  let received: { host: string | undefined; body: string }[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ host: req.headers.host, body: Buffer.concat(chunks).toString() });
        if (req.url === '/big') res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
        else if (req.url === '/stream') {
          res.writeHead(200);
          res.write(Buffer.alloc(3000));
          setTimeout(() => res.end(Buffer.alloc(3000)), 20);
        } else if (req.url === '/stall') res.writeHead(200).write('a first chunk, then nothing');
        else if (req.url === '/moved') res.writeHead(302, { location: 'http://127.0.0.1/elsewhere' }).end();
        else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    connections = 0;
    received = [];
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const get = (url: string, options: Partial<GuardedRequest> = {}) =>
    guardedRequest(url.replace('PORT', String(port)), { method: 'GET', ...options });

  async function refusal(url: string, options: Partial<GuardedRequest> = {}): Promise<unknown> {
    return get(url, options).then(
      (response) => {
        response.discard();
        return undefined;
      },
      (error: unknown) => error,
    );
  }

  it.each([
    ['loopback IPv4 literal', 'http://127.0.0.1:PORT/'],
    ['loopback IPv4 literal over https', 'https://127.0.0.1:PORT/files/x.png'],
    ['loopback IPv6 literal', 'http://[::1]:PORT/hook'],
    ['loopback IPv6 literal over https', 'https://[::1]:PORT/files/x.png'],
    ['loopback as a decimal integer', 'http://2130706433:PORT/hook'],
    ['loopback in hex shorthand', 'http://0x7f.1:PORT/'],
    ['IPv4-mapped loopback literal', 'http://[::ffff:127.0.0.1]:PORT/'],
    ['IPv4-mapped metadata literal', 'http://[::ffff:169.254.169.254]/'],
    ['cloud metadata literal', 'http://169.254.169.254/latest/meta-data'],
    ['private RFC1918 literal', 'https://10.0.0.1/x.png'],
  ])('refuses the IP literal form %s (%s) without resolving or connecting', async (_, url) => {
    const resolver = answering(v4('93.184.215.14'));
    const error = await refusal(url, { resolver });
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(resolver.calls).toEqual([]);
    expect(connections).toBe(0);
  });

  it.each([
    ['loopback', [v4('127.0.0.1')]],
    ['cloud metadata', [v4('169.254.169.254')]],
    ['private RFC1918', [v4('10.0.0.7')]],
    ['one public and one private', [v4('93.184.215.14'), v4('192.168.0.10')]],
    ['one private among public ones', [v4('93.184.215.14'), v4('10.0.0.7')]],
    ['IPv6 loopback', [v6('::1')]],
    ['IPv4-mapped loopback', [v6('::ffff:127.0.0.1')]],
    ['a private address of the other family', [v4('93.184.215.14'), v6('fd00::1')]],
  ])('refuses a host name resolving to %s, before connecting', async (_, answer) => {
    for (const url of ['http://receiver.test:PORT/hook', 'https://cdn.example.test:PORT/files/x.png']) {
      const resolver = answering(...answer);
      const error = await refusal(url, { resolver });
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(isBlockedAddressError(error)).toBe(true);
      expect((error as BlockedAddressError).code).toBe(BLOCKED_ADDRESS_ERROR_CODE);
      expect((error as Error).message).not.toMatch(/receiver|cdn|127|169|192|10\.0|fd00|::/);
      expect(resolver.calls).toEqual([new URL(url.replace('PORT', '1')).hostname]);
    }
    expect(connections).toBe(0);
  });

  it('refuses localhost with the system resolver', async () => {
    expect(await refusal('http://localhost:PORT/callback')).toBeInstanceOf(BlockedAddressError);
    expect(connections).toBe(0);
  });

  it('refuses at connection time a DNS answer that changed to a private address after acceptance', async () => {
    let answer = v4('93.184.215.14');
    const calls: string[] = [];
    const rebinding: HostResolver = async (host) => {
      calls.push(host);
      return [answer];
    };
    const accepted = await checkCallbackUrl('http://receiver.test/callback', { lookup: rebinding });
    expect(accepted).toMatchObject({ ok: true });

    answer = v4('127.0.0.1');
    const error = await refusal('http://receiver.test:PORT/callback', { resolver: rebinding });
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect((error as Error).message).not.toMatch(/receiver|127\.0\.0\.1/);
    expect(calls).toEqual(['receiver.test', 'receiver.test']);
    expect(connections).toBe(0);
  });

  it('connects to an allow-listed literal, and to a name whose every address is allow-listed', async () => {
    const literal = await get('http://127.0.0.1:PORT/', { allowPrivateCidrs: LOOPBACK });
    expect(literal.status).toBe(200);
    expect((await literal.read(1024)).toString()).toBe('ok');

    const resolver = answering(v4('127.0.0.1'));
    const named = await get('http://receiver.test:PORT/hook', { allowPrivateCidrs: LOOPBACK, resolver });
    expect(named.status).toBe(200);
    await named.read(1024);
    expect(resolver.calls).toEqual(['receiver.test']);
    expect(received.map((r) => r.host)).toEqual([`127.0.0.1:${port}`, `receiver.test:${port}`]);
    expect(connections).toBe(2);

    // The allow list relaxes only what it lists.
    const outside = answering(v4('10.0.0.1'));
    expect(
      await refusal('http://receiver.test:PORT/hook', { allowPrivateCidrs: LOOPBACK, resolver: outside }),
    ).toBeInstanceOf(BlockedAddressError);
    expect(connections).toBe(2);
  });

  it('applies no address rule to a trusted destination (a binding’s own origin)', async () => {
    const response = await get('http://127.0.0.1:PORT/', { trustedDestination: true });
    expect(response.status).toBe(200);
    await response.read(1024);
    expect(connections).toBe(1);
  });

  it('passes resolver failures through as they are', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND receiver.test'), { code: 'ENOTFOUND' });
    };
    const error = await refusal('http://receiver.test:PORT/hook', { resolver: failing });
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
    expect(isBlockedAddressError(error)).toBe(false);
  });

  it('uses a connection of its own for every request (a pooled socket would skip the guard)', async () => {
    for (let i = 0; i < 3; i += 1) {
      const response = await get('http://127.0.0.1:PORT/', { allowPrivateCidrs: LOOPBACK });
      await response.read(1024);
    }
    expect(connections).toBe(3);
  });

  it('returns a 3xx as it is, never following it', async () => {
    const response = await get('http://127.0.0.1:PORT/moved', { allowPrivateCidrs: LOOPBACK });
    expect(response.status).toBe(302);
    expect(response.headers['location']).toBe('http://127.0.0.1/elsewhere');
    response.discard();
    expect(received).toHaveLength(1);
  });

  it('sends the method, headers and body given', async () => {
    const response = await get('http://127.0.0.1:PORT/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"a":"é"}'),
      allowPrivateCidrs: LOOPBACK,
    });
    await response.read(1024);
    expect(received).toEqual([{ host: `127.0.0.1:${port}`, body: '{"a":"é"}' }]);
  });

  it('reads a body within its limit, keeping what it is asked to keep', async () => {
    const options = { allowPrivateCidrs: LOOPBACK };
    expect(await (await get('http://127.0.0.1:PORT/stream', options)).read(6000)).toHaveLength(6000);
    expect(await (await get('http://127.0.0.1:PORT/stream', options)).read(6000, 100)).toHaveLength(100);
    const declared = await get('http://127.0.0.1:PORT/big', options);
    await expect(declared.read(4999)).rejects.toBeInstanceOf(ResponseTooLargeError);
    const streamed = await get('http://127.0.0.1:PORT/stream', options);
    await expect(streamed.read(4000)).rejects.toMatchObject({ limit: 4000 });
  });

  it('gives up on a destination idle too long, and on an abort with its reason', async () => {
    const options = { allowPrivateCidrs: LOOPBACK, idleTimeoutMs: 100 };
    const stalled = await get('http://127.0.0.1:PORT/stall', options);
    await expect(stalled.read(1024)).rejects.toBeInstanceOf(IdleTimeoutError);

    const controller = new AbortController();
    const reason = new Error('runner stopping');
    const pending = await get('http://127.0.0.1:PORT/stall', {
      allowPrivateCidrs: LOOPBACK,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending.read(1024)).rejects.toBe(reason);
    await expect(get('http://127.0.0.1:PORT/', { signal: controller.signal })).rejects.toBe(reason);
  });
});

describe('isRefusedIpLiteral', () => {
  it('judges IP literals and leaves host names to the lookup', () => {
    const none = PrivateCidrAllowList.EMPTY;
    expect(isRefusedIpLiteral('[::ffff:169.254.169.254]', none)).toBe(true);
    expect(isRefusedIpLiteral(new URL('http://0x7f.1/').hostname, none)).toBe(true);
    expect(isRefusedIpLiteral('93.184.215.14', none)).toBe(false);
    expect(isRefusedIpLiteral('localhost', none)).toBe(false);
    expect(isRefusedIpLiteral('127.0.0.1', LOOPBACK)).toBe(false);
  });
});
