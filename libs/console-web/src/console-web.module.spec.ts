import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Controller, Get, Global, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LOGGER, createLogger } from '@gen/core';
import { EnvelopeExceptionFilter } from '@gen/edge';
import { ConsoleWebModule } from './console-web.module';
import { CONTENT_SECURITY_POLICY } from './security-headers';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/console/assets/index-AbC123.js"></script></head><body><div id="app"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

/** Stands for the console's API routes that share the Fastify instance with the pages. */
@Controller('console/v1')
class FakeConsoleApi {
  @Get('keys/:keyId')
  key(@Param('keyId') keyId: string) {
    return { keyId };
  }
  @Post('sign-out')
  signOut() {
    return { signedOut: true };
  }
}

@Global()
@Module({ providers: [{ provide: LOGGER, useValue: createLogger('silent') }], exports: [LOGGER] })
class LoggerModule {}

async function appServing(dir: string): Promise<NestFastifyApplication> {
  @Module({ imports: [LoggerModule, ConsoleWebModule.forRoot({ dir })], controllers: [FakeConsoleApi] })
  class Root {}
  const app = await NestFactory.create<NestFastifyApplication>(Root, new FastifyAdapter(), { logger: false });
  app.useGlobalFilters(new EnvelopeExceptionFilter(1_000_000));
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

describe('the web console pages at /console', () => {
  let dir: string;
  let app: NestFastifyApplication;
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gts-console-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-AbC123.js'), SCRIPT);
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await appServing(dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at /console, revalidated on every load, with the security headers', async () => {
    for (const url of ['/console', '/console/']) {
      const reply = await get(url);
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(reply.body).toBe(INDEX);
      expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['referrer-policy']).toBe('no-referrer');
      expect(reply.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('has a policy that runs no inline script or style and is never framed', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
    );
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  it('answers the app routes (/console/sign-in, /console/keys, deeper) with index.html', async () => {
    for (const url of ['/console/sign-in', '/console/keys', '/console/tasks/job_123?state=failed']) {
      const reply = await get(url);
      expect([url, reply.statusCode, reply.body]).toEqual([url, 200, INDEX]);
      expect(reply.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves a content-hashed asset as immutable for a year, gzipped when accepted', async () => {
    const plain = await get('/console/assets/index-AbC123.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);

    const gzipped = await get('/console/assets/index-AbC123.js', { 'accept-encoding': 'gzip, br' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['vary']).toBe('accept-encoding');
    expect(gzipped.rawPayload.length).toBeLessThan(SCRIPT.length);
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);
    // Each encoding has an ETag of its own, so no cache takes one body for the other.
    expect(gzipped.headers['etag']).not.toBe(plain.headers['etag']);
    const revalidated = await get('/console/assets/index-AbC123.js', {
      'accept-encoding': 'gzip',
      'if-none-match': String(gzipped.headers['etag']),
    });
    expect(revalidated.statusCode).toBe(304);
    const other = await get('/console/assets/index-AbC123.js', {
      'if-none-match': String(gzipped.headers['etag']),
    });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(SCRIPT);
  });

  it('revalidates a built file without a content hash, and answers 304 to its ETag', async () => {
    const icon = await get('/console/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
    const again = await get('/console/favicon.svg', { 'if-none-match': String(icon.headers['etag']) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const page = await get('/console/keys');
    expect((await get('/console', { 'if-none-match': String(page.headers['etag']) })).statusCode).toBe(304);
  });

  it('never answers a missing asset with the page (a script tag would get HTML)', async () => {
    const reply = await get('/console/assets/index-Gone99.js');
    expect(reply.statusCode).toBe(404);
    expect(reply.headers['content-type']).toContain('application/json');
    expect(reply.json()).toMatchObject({ code: 404 });
  });

  it('leaves /console/v1 to the API: its routes answer, unknown ones are the API 404, never the page', async () => {
    const key = await get('/console/v1/keys/key_42');
    expect(key.statusCode).toBe(200);
    expect(key.json()).toEqual({ keyId: 'key_42' });
    expect((await app.inject({ method: 'POST', url: '/console/v1/sign-out' })).json()).toEqual({
      signedOut: true,
    });
    for (const url of [
      '/console/v1',
      '/console/v1/',
      '/console/v1/nothing',
      '/console/v1/keys',
      '/console/v1/tasks/job_1',
    ]) {
      const reply = await get(url);
      expect([url, reply.statusCode]).toEqual([url, 404]);
      expect(reply.headers['content-type']).toContain('application/json');
      expect(reply.headers['content-security-policy']).toBeUndefined();
      expect(reply.body).not.toContain('<html');
    }
  });

  it('serves pages for GET and HEAD only', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/console/keys' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect((await app.inject({ method: 'POST', url: '/console/keys' })).statusCode).toBe(404);
  });

  it('answers 404 everywhere under /console when the console is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'gts-console-web-empty-'));
    const bare = await appServing(empty);
    try {
      for (const url of ['/console', '/console/keys', '/console/assets/index-AbC123.js'])
        expect((await bare.inject({ method: 'GET', url })).statusCode).toBe(404);
      expect((await bare.inject({ method: 'GET', url: '/console/v1/keys/key_1' })).statusCode).toBe(200);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
