import { createServer, type Server } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { DomainError } from '@gen/core';
import { parseAllowPrivateCidrs, type HostResolver } from '@gen/ssrf';
import { selfSignedCertificate } from '@gen/testing';
import { fetchImport, type ImportFetchOptions } from './import-fetch';

/** A source on port 443 of its own loopback address (see import.http.spec.ts). */
const ADDRESS = '127.0.1.43';

describe('fetchImport: the SSRF guard at resolve time and again at connect time', () => {
  let dir: string;
  let server: Server;
  let hits = 0;
  let options: Omit<ImportFetchOptions, 'resolver'>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gts-fetch-'));
    const cert = selfSignedCertificate(dir, 'source.test', ['DNS:source.test', `IP:${ADDRESS}`]);
    server = createServer({ key: cert.key, cert: cert.cert }, (request, response) => {
      hits += 1;
      if (request.url === '/slow') return void response.writeHead(200).write('a first chunk, then nothing');
      if (request.url === '/drip') {
        // A byte every 50 ms: never idle, never done.
        response.writeHead(200);
        const timer = setInterval(() => response.write('x'), 50);
        response.on('close', () => clearInterval(timer));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
    await new Promise<void>((resolve) => server.listen(443, ADDRESS, resolve));
    options = {
      allowPrivateCidrs: parseAllowPrivateCidrs(`${ADDRESS}/32`),
      secureContext: createSecureContext({ ca: cert.cert }),
      maxBytes: 1024,
      idleTimeoutMs: 5000,
      maxRedirects: 5,
    };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects to a host name whose every address is allowed', async () => {
    const resolver: HostResolver = async () => [{ address: ADDRESS, family: 4 }];
    const fetched = await fetchImport('https://source.test/a.txt', { ...options, resolver });
    expect(fetched.bytes.toString()).toBe('hello');
    expect(fetched.contentType).toBe('text/plain');
  });

  it('refuses a name that resolves to a private address, and one that changes to it before connecting', async () => {
    const before = hits;
    const privateOnly: HostResolver = async () => [{ address: '10.0.0.7', family: 4 }];
    await expect(
      fetchImport('https://source.test/a.txt', { ...options, resolver: privateOnly }),
    ).rejects.toMatchObject({
      messageId: 'import.invalid_url',
    });
    // DNS rebinding: the acceptance check sees the allowed address, the connection the private one.
    let lookups = 0;
    const rebinding: HostResolver = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? ADDRESS : '10.0.0.7', family: 4 }];
    };
    const error = await fetchImport('https://source.test/a.txt', { ...options, resolver: rebinding }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ messageId: 'import.invalid_url' });
    expect(lookups).toBe(2);
    expect(hits).toBe(before);
  });

  it('gives up when its signal aborts (a runner stopping), with the reason of the signal', async () => {
    const resolver: HostResolver = async () => [{ address: ADDRESS, family: 4 }];
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('runner stopping')), 200);
    await expect(
      fetchImport('https://source.test/slow', { ...options, resolver, signal: controller.signal }),
    ).rejects.toThrow('runner stopping');
    expect(Date.now() - started).toBeLessThan(options.idleTimeoutMs);
    const aborted = AbortSignal.abort(new Error('already stopped'));
    await expect(
      fetchImport('https://source.test/a.txt', { ...options, resolver, signal: aborted }),
    ).rejects.toThrow('already stopped');
  });

  it('ends the whole fetch at its deadline, though every byte restarts the idle timeout', async () => {
    const resolver: HostResolver = async () => [{ address: ADDRESS, family: 4 }];
    const started = Date.now();
    const error = await fetchImport('https://source.test/drip', {
      ...options,
      maxBytes: 1024 * 1024,
      resolver,
      deadlineMs: 1000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ messageId: 'import.deadline', params: { seconds: 1 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(options.idleTimeoutMs);
    // A caller's abort before the deadline keeps the caller's reason; a fetch done in time is not cut.
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('client gone')), 200);
    await expect(
      fetchImport('https://source.test/drip', {
        ...options,
        maxBytes: 1024 * 1024,
        resolver,
        deadlineMs: 5000,
        signal: controller.signal,
      }),
    ).rejects.toThrow('client gone');
    const quick = await fetchImport('https://source.test/a.txt', { ...options, resolver, deadlineMs: 1000 });
    expect(quick.bytes.toString()).toBe('hello');
  });
});
