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

/** A spoofed or a proxy's view of the scheme and host the client called. */
const FORWARDED = { 'x-forwarded-host': 'console.example:8443', 'x-forwarded-proto': 'https' };

/** A console sign-in link asked for with `headers`, then signed in with (same headers): its URL and cookie. */
async function linkAndSignIn(
  app: Embedded,
  headers: Record<string, string>,
): Promise<{ url: string; cookie: string; csrfToken: string }> {
  const link = await app.call('POST', `/admin/v1/accounts/${app.boot.accountId}/console-links`, {
    headers: { ...headers, authorization: `Bearer ${app.boot.adminToken}` },
  });
  expect(link.status).toBe(200);
  const { url } = link.json['data'] as { url: string };
  const token = url.slice(url.indexOf('#token=') + '#token='.length);
  const signIn = await app.call('POST', '/console/v1/sign-in', { headers, body: { token } });
  expect(signIn.status).toBe(200);
  const { csrfToken } = signIn.json['data'] as { csrfToken: string };
  return { url, cookie: signIn.headers.get('set-cookie')!, csrfToken };
}

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

    it("honours the ingress's X-Forwarded-Host and X-Forwarded-Proto: the link's origin, the Secure cookie", async () => {
      const { url, cookie } = await linkAndSignIn(app, FORWARDED);
      expect(url).toMatch(/^https:\/\/console\.example:8443\/console\/sign-in#token=gcl_/);
      expect(cookie.split('; ')).toContain('Secure');
      // Without them, the request's own Host and scheme.
      const direct = await linkAndSignIn(app, {});
      expect(direct.url.startsWith(`${app.baseUrl}/console/sign-in#token=`)).toBe(true);
      expect(direct.cookie.split('; ')).not.toContain('Secure');
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

    it("ignores a client's X-Forwarded-Host and X-Forwarded-Proto: the link's origin is the Host it called, no Secure on plain HTTP", async () => {
      const { url, cookie, csrfToken } = await linkAndSignIn(app, FORWARDED);
      expect(url.startsWith(`${app.baseUrl}/console/sign-in#token=gcl_`)).toBe(true);
      expect(url).not.toContain('console.example');
      expect(cookie).toMatch(/^console_session=gcs_/);
      expect(cookie.split('; ')).not.toContain('Secure');
      // Sign-out clears the cookie the same way.
      const signOut = await app.call('POST', '/console/v1/sign-out', {
        headers: { ...FORWARDED, cookie: cookie.split(';')[0]!, 'x-csrf-token': csrfToken },
      });
      expect(signOut.status).toBe(200);
      expect(signOut.headers.get('set-cookie')).toMatch(/^console_session=; /);
      expect(signOut.headers.get('set-cookie')!.split('; ')).not.toContain('Secure');
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
