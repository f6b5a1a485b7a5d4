import { PrivateCidrAllowList } from '@gen/ssrf';
import { UpstreamError } from '../chat/upstream-error';
import { samplePng } from '../testing/media-samples';
import { ScriptedServer } from '../testing/scripted-server';
import { fetchOutput } from './fetch-output';

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(error)}`);
  return error;
}

describe('fetchOutput', () => {
  const png = samplePng(6, 5);
  let upstream: ScriptedServer;
  let elsewhere: ScriptedServer;
  beforeEach(async () => {
    [upstream, elsewhere] = await Promise.all([ScriptedServer.start(), ScriptedServer.start()]);
    for (const server of [upstream, elsewhere]) {
      server.on('GET', '/files/x.png', { body: png, headers: { 'content-type': 'image/png' } });
    }
  });
  afterEach(() => Promise.all([upstream.close(), elsewhere.close()]));

  const baseUrl = (): string => `${upstream.origin}/v1`;

  it("fetches a URL on the baseUrl's origin (a Cog server's own files), sending the baseUrl headers there", async () => {
    const file = await fetchOutput(`${upstream.origin}/files/x.png`, {
      baseUrl: baseUrl(),
      baseUrlHeaders: { authorization: 'Bearer r8_key' },
    });
    expect(file.bytes.equals(png)).toBe(true);
    expect(file.claimedType).toBe('image/png');
    expect(upstream.requests).toMatchObject([{ method: 'GET', path: '/files/x.png' }]);
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer r8_key');
  });

  it('refuses another origin on a private address without connecting to it', async () => {
    const urls = [
      `http://127.0.0.1:${elsewhere.port}/files/x.png`, // not https
      `https://127.0.0.1:${elsewhere.port}/files/x.png`, // an IP literal: refused before any request
      `https://[::1]:${elsewhere.port}/files/x.png`,
      'https://10.0.0.1/x.png',
      'file:///etc/passwd',
    ];
    for (const url of urls) {
      const error = await failure(fetchOutput(url, { baseUrl: baseUrl() }));
      expect(error).toMatchObject({
        kind: 'failed',
        message: expect.stringContaining('output URL was refused'),
      });
      expect(error.message).not.toContain('127.0.0.1');
    }
    // A host name that resolves to a private address: refused by the guarded lookup, before connecting.
    const resolver = jest.fn(async () => [{ address: '127.0.0.1', family: 4 }]);
    const error = await failure(
      fetchOutput(`https://cdn.example.test:${elsewhere.port}/files/x.png`, { baseUrl: baseUrl(), resolver }),
    );
    expect(error).toMatchObject({ kind: 'failed', message: expect.stringContaining('not a public address') });
    expect(resolver).toHaveBeenCalledWith('cdn.example.test');
    expect(elsewhere.connections).toBe(0);
    expect(upstream.connections).toBe(0);
  });

  it('lets an allow-listed private range through the guard (the TLS handshake to a plain server then fails)', async () => {
    const allowPrivateCidrs = new PrivateCidrAllowList(['127.0.0.0/8']);
    const error = await failure(
      fetchOutput(`https://127.0.0.1:${elsewhere.port}/files/x.png`, {
        baseUrl: baseUrl(),
        allowPrivateCidrs,
      }),
    );
    expect(error.kind).toBe('retryable');
    expect(elsewhere.connections).toBe(1);
  });

  it('decodes data: URLs, base64 or percent-encoded', async () => {
    const file = await fetchOutput(`data:image/png;base64,${png.toString('base64')}`);
    expect(file.bytes.equals(png)).toBe(true);
    expect(file.claimedType).toBe('image/png');
    expect(await fetchOutput('data:,a%20b%FF')).toEqual({ bytes: Buffer.from([0x61, 0x20, 0x62, 0xff]) });
    expect(await failure(fetchOutput('data:image/png;base64,!!!'))).toMatchObject({ kind: 'failed' });
    expect(await failure(fetchOutput('data:text/plain,%zz'))).toMatchObject({ kind: 'failed' });
    const big = `data:application/octet-stream;base64,${Buffer.alloc(300).toString('base64')}`;
    expect(await failure(fetchOutput(big, { maxBytes: 299 }))).toMatchObject({ kind: 'failed' });
    expect((await fetchOutput(big, { maxBytes: 300 })).bytes).toHaveLength(300);
  });

  it('fails a file over maxBytes, whether its length is declared or it is streamed', async () => {
    upstream.on('GET', '/files/big', { body: Buffer.alloc(5000), headers: { 'content-length': '5000' } });
    upstream.on('GET', '/files/chunked', {
      body: Buffer.alloc(5000),
      pieces: 10,
      pieceDelayMs: 5,
      headers: { 'transfer-encoding': 'chunked' },
    });
    for (const path of ['/files/big', '/files/chunked']) {
      const error = await failure(
        fetchOutput(`${upstream.origin}${path}`, { baseUrl: baseUrl(), maxBytes: 4999 }),
      );
      expect(error).toMatchObject({ kind: 'failed', message: expect.stringContaining('bigger than 4999') });
    }
    const file = await fetchOutput(`${upstream.origin}/files/chunked`, {
      baseUrl: baseUrl(),
      maxBytes: 5000,
    });
    expect(file.bytes).toHaveLength(5000);
  });

  it('refuses to follow a redirect', async () => {
    upstream.on('GET', '/files/moved', {
      status: 302,
      headers: { location: `http://127.0.0.1:${elsewhere.port}/files/x.png` },
    });
    const error = await failure(fetchOutput(`${upstream.origin}/files/moved`, { baseUrl: baseUrl() }));
    expect(error).toMatchObject({ kind: 'failed', status: 302 });
    expect(elsewhere.connections).toBe(0);
  });

  it('classifies HTTP errors, timeouts and dropped downloads', async () => {
    upstream.on('GET', '/files/500', { status: 500, body: 'oops' });
    upstream.on('GET', '/files/404', { status: 404, body: { detail: 'expired' } });
    upstream.on('GET', '/files/429', { status: 429, headers: { 'retry-after': '3' }, body: '' });
    upstream.on('GET', '/files/slow', { body: png, delayMs: 300 });
    upstream.on('GET', '/files/stall', { body: png, pieces: 2, pieceDelayMs: 300 });
    upstream.on('GET', '/files/drop', {
      body: png,
      pieces: 4,
      drop: true,
      headers: { 'content-length': '999' },
    });
    const get = (path: string) =>
      failure(fetchOutput(`${upstream.origin}/files/${path}`, { baseUrl: baseUrl(), idleTimeoutMs: 100 }));
    expect(await get('500')).toMatchObject({ kind: 'retryable', status: 500, upstreamText: 'oops' });
    expect(await get('404')).toMatchObject({ kind: 'failed', status: 404 });
    expect(await get('429')).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 3000 });
    expect(await get('slow')).toMatchObject({
      kind: 'retryable',
      message: expect.stringContaining('100 ms'),
    });
    expect(await get('stall')).toMatchObject({
      kind: 'retryable',
      message: expect.stringContaining('100 ms'),
    });
    expect(await get('drop')).toMatchObject({
      kind: 'retryable',
      message: expect.stringContaining('cut short'),
    });
    const closed = await ScriptedServer.start();
    const port = closed.port;
    await closed.close();
    const refusedConnection = await failure(
      fetchOutput(`http://127.0.0.1:${port}/files/x.png`, { baseUrl: `http://127.0.0.1:${port}` }),
    );
    expect(refusedConnection.kind).toBe('retryable');
  });

  it("rejects with the signal's reason when the caller aborts", async () => {
    upstream.on('GET', '/files/slow', { body: png, delayMs: 2000 });
    const controller = new AbortController();
    const reason = new Error('runner stopping');
    const pending = fetchOutput(`${upstream.origin}/files/slow`, {
      baseUrl: baseUrl(),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(reason), 50);
    const started = Date.now();
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(fetchOutput('data:,x', { signal: controller.signal })).rejects.toBe(reason);
  });
});
