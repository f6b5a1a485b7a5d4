import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

/** Calls the public catalog (30 requests, then 429, per source address) until it refuses, as `forwardedFor`. */
async function exhaust(app: Embedded, forwardedFor: string): Promise<Reply> {
  let last: Reply | undefined;
  for (let i = 0; i < 40 && last?.status !== 429; i += 1) {
    last = await app.call('GET', '/console/v1/catalog/models', {
      headers: { 'x-forwarded-for': forwardedFor },
    });
  }
  return last!;
}

const asClient = (app: Embedded, forwardedFor: string): Promise<Reply> =>
  app.call('GET', '/console/v1/catalog/models', { headers: { 'x-forwarded-for': forwardedFor } });

describe('the client address behind an ingress (TRUSTED_PROXIES)', () => {
  describe('with the ingress listed (the client reaches the app from 127.0.0.1, as through the fleet ingress)', () => {
    let app: Embedded;
    beforeAll(async () => {
      app = await startEmbedded({ LOG_LEVEL: 'silent', TRUSTED_PROXIES: '127.0.0.1, ::1' });
    });
    afterAll(() => app.close());

    it('limits each forwarded client address on its own', async () => {
      expect((await exhaust(app, '203.0.113.7')).status).toBe(429);
      expect((await asClient(app, '203.0.113.7')).status).toBe(429);
      // Another client behind the same ingress has a bucket of its own.
      const other = await asClient(app, '203.0.113.8');
      expect(other.status).toBe(200);
      expect(other.headers.get('x-ratelimit-remaining')).toBe('29');
      // Through a second proxy that is not listed: that proxy's address is the client.
      expect((await asClient(app, '203.0.113.7, 198.51.100.1')).status).toBe(200);
    });
  });

  describe('unset (the default)', () => {
    let app: Embedded;
    beforeAll(async () => {
      app = await startEmbedded({ LOG_LEVEL: 'silent' });
    });
    afterAll(() => app.close());

    it('ignores X-Forwarded-For: a client cannot pick its own bucket', async () => {
      expect((await exhaust(app, '203.0.113.7')).status).toBe(429);
      expect((await asClient(app, '203.0.113.8')).status).toBe(429);
      expect((await asClient(app, '198.51.100.1')).status).toBe(429);
    });
  });

  it('refuses a bad entry at start, naming it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gts-trusted-proxies-'));
    try {
      await expect(
        startEmbedded({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/33' }),
      ).rejects.toThrow('TRUSTED_PROXIES: invalid entry "10.0.0.0/33"');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
