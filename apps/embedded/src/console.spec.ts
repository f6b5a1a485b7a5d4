import { DATABASE, type Database } from '@gen/persistence';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;

/** A browser's view of a console session: the cookie it holds and the CSRF token the page keeps. */
interface Browser {
  readonly cookie: string;
  readonly csrfToken: string;
  readonly accountId: string;
}

describe('the web console API: sign-in by link, cookie sessions, CSRF, and the account-scoped routes', () => {
  let app: Embedded;
  let db: Database;

  beforeAll(async () => {
    app = await startEmbedded({ WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' });
    db = app.app.get<Database>(DATABASE);
  });
  afterAll(() => app.close());

  const count = async (table: string): Promise<number> =>
    Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`))[0]!.n);

  async function linkFor(accountId: string): Promise<{ url: string; token: string; expiresAt: string }> {
    const link = (await app.admin('POST', `/admin/v1/accounts/${accountId}/console-links`)) as {
      url: string;
      expiresAt: string;
    };
    const token = new URL(link.url).hash.replace(/^#token=/, '');
    return { ...link, token };
  }

  const signInWith = (token: string, headers: Record<string, string> = {}) =>
    app.call('POST', '/console/v1/sign-in', { headers, body: { token } });

  /** The session cookie of a Set-Cookie header, as a browser would send it back. */
  const cookieOf = (reply: Reply): string => reply.headers.get('set-cookie')!.split(';')[0]!;

  async function signIn(accountId: string): Promise<Browser> {
    const reply = await signInWith((await linkFor(accountId)).token);
    expect(reply.status).toBe(200);
    const data = reply.json['data'] as { csrfToken: string };
    return { cookie: cookieOf(reply), csrfToken: data.csrfToken, accountId };
  }

  /** A call the console page makes: the cookie always, the CSRF token unless told otherwise. */
  const call = (
    browser: Browser,
    method: string,
    path: string,
    options: { body?: unknown; csrf?: string | null } = {},
  ) => {
    const csrf = options.csrf === undefined ? browser.csrfToken : options.csrf;
    return app.call(method, path, {
      headers: { cookie: browser.cookie, ...(csrf !== null ? { 'x-csrf-token': csrf } : {}) },
      body: options.body,
    });
  };

  async function newAccount(name: string, credit = '5'): Promise<{ accountId: string; apiKey: string }> {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name, credit })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {
      name: 'first',
    })) as {
      apiKey: string;
    };
    return { accountId, apiKey };
  }

  function expectRefusal(reply: Reply, status: number, msg?: string): void {
    expect(reply.status).toBe(status);
    expect(reply.json).toEqual({
      code: status,
      msg: msg ?? expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    });
  }

  describe('sign-in by one-time link', () => {
    it('makes a ten-minute link whose token travels in the fragment, and exchanges it for a cookie session', async () => {
      const { accountId } = await newAccount('signin');
      await app.admin('PATCH', `/admin/v1/accounts/${accountId}`, { language: 'ja' });
      const before = Date.now();
      const link = await linkFor(accountId);
      expect(link.url).toMatch(new RegExp(`^${app.baseUrl}/console/sign-in#token=gcl_[0-9A-Za-z]{43}$`));
      expect(Date.parse(link.expiresAt) - before).toBeGreaterThan(9 * 60_000);
      expect(Date.parse(link.expiresAt) - before).toBeLessThanOrEqual(10 * 60_000 + 1000);
      // Only the hash is kept.
      const stored = await db.query<{ token_hash: string }>(
        `SELECT "token_hash" FROM "accounts"."console_links" WHERE "account_id" = $1`,
        [accountId],
      );
      expect(stored).toHaveLength(1);
      expect(stored[0]!.token_hash).not.toContain(link.token);

      const reply = await signInWith(link.token);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('cache-control')).toBe('no-store');
      expect(reply.json['data']).toEqual({
        accountId,
        language: 'ja',
        expiresAt: expect.any(String),
        csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      const cookie = reply.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^console_session=gcs_[0-9A-Za-z]{43}; /);
      const flags = cookie.split('; ').slice(1);
      expect(flags).toEqual(
        expect.arrayContaining(['Path=/console', 'HttpOnly', 'SameSite=Strict', 'Max-Age=43200']),
      );
      expect(flags).not.toContain('Secure');
    });

    it("does not take a client's word for HTTPS: X-Forwarded-* count only from a listed proxy (trusted-proxies.spec)", async () => {
      // TRUSTED_PROXIES is empty here: the request came over plain HTTP to the Host it named.
      const { accountId } = await newAccount('secure');
      const reply = await signInWith((await linkFor(accountId)).token, { 'x-forwarded-proto': 'https' });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('set-cookie')!.split('; ')).not.toContain('Secure');
      const link = await app.call('POST', `/admin/v1/accounts/${accountId}/console-links`, {
        headers: {
          authorization: `Bearer ${app.boot.adminToken}`,
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'evil.example',
        },
      });
      expect((link.json['data'] as { url: string }).url.startsWith(`${app.baseUrl}/console/sign-in#`)).toBe(
        true,
      );
    });

    it('accepts a link once: a second use, an expired or an unknown token is 401 and creates nothing', async () => {
      const { accountId } = await newAccount('once');
      const { token } = await linkFor(accountId);
      expect((await signInWith(token)).status).toBe(200);
      const sessions = await count('"accounts"."console_sessions"');

      const again = await signInWith(token);
      expectRefusal(
        again,
        401,
        'This sign-in link is invalid, has expired or was already used. Ask for a new link.',
      );
      expect(again.headers.get('set-cookie')).toBeNull();

      const expired = await linkFor(accountId);
      await db.query(
        `UPDATE "accounts"."console_links" SET "expires_at" = now() - interval '1 second'
         WHERE "token_hash" = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [expired.token],
      );
      expectRefusal(await signInWith(expired.token), 401);
      expectRefusal(await signInWith('gcl_unknown'), 401);
      const ja = await app.call('POST', '/console/v1/sign-in', {
        headers: { 'accept-language': 'ja' },
        body: { token: 'gcl_unknown' },
      });
      expect(ja.json['msg']).toBe(
        'このサインインリンクは無効、期限切れ、または使用済みです。新しいリンクを依頼してください。',
      );
      expect(await count('"accounts"."console_sessions"')).toBe(sessions);
      expectRefusal(await app.call('POST', '/console/v1/sign-in', { body: {} }), 400);
    });

    it('answers 404 for a link to an unknown account', async () => {
      const reply = await app.call(
        'POST',
        '/admin/v1/accounts/acc_01J0000000000000000000000Z/console-links',
        {
          headers: { authorization: `Bearer ${app.boot.adminToken}` },
        },
      );
      expectRefusal(reply, 404);
    });
  });

  describe('the cookie session', () => {
    it('reads the session and gets its CSRF token back (a reloaded page) without a CSRF header', async () => {
      const { accountId } = await newAccount('session');
      const browser = await signIn(accountId);
      const reply = await call(browser, 'GET', '/console/v1/session', { csrf: null });
      expect(reply.status).toBe(200);
      expect(reply.json['data']).toEqual({
        accountId,
        language: null,
        expiresAt: expect.any(String),
        csrfToken: browser.csrfToken,
      });
    });

    it('requires X-CSRF-Token on state-changing calls with the cookie: 403, nothing changed', async () => {
      const { accountId } = await newAccount('csrf');
      const browser = await signIn(accountId);
      const keys = await count('"accounts"."api_keys"');

      const missing = await call(browser, 'POST', '/console/v1/keys', { body: { name: 'x' }, csrf: null });
      expectRefusal(missing, 403, 'This request needs the X-CSRF-Token header of your console session.');
      const wrong = await call(browser, 'POST', '/console/v1/keys', { body: { name: 'x' }, csrf: 'forged' });
      expectRefusal(wrong, 403, 'The X-CSRF-Token header does not match your console session.');
      // Another session's token is no better.
      const other = await signIn(accountId);
      expectRefusal(
        await call(browser, 'POST', '/console/v1/keys', { body: {}, csrf: other.csrfToken }),
        403,
      );
      expectRefusal(await call(browser, 'POST', '/console/v1/sign-out', { csrf: null }), 403);
      expectRefusal(await call(browser, 'POST', '/console/v1/signing-secret/rotate', { csrf: null }), 403);
      expect(await count('"accounts"."api_keys"')).toBe(keys);
      expect((await call(browser, 'GET', '/console/v1/session', { csrf: null })).status).toBe(200);

      const created = await call(browser, 'POST', '/console/v1/keys', { body: { name: 'x' } });
      expect(created.status).toBe(200);
      expect(await count('"accounts"."api_keys"')).toBe(keys + 1);
    });

    it('needs no CSRF token with a bearer console token, and refuses a cookie session token as bearer', async () => {
      const { accountId } = await newAccount('bearer');
      const { token } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/console-tokens`)) as {
        token: string;
      };
      const created = await app.call('POST', '/console/v1/keys', {
        headers: { authorization: `Bearer ${token}` },
        body: { name: 'script' },
      });
      expect(created.status).toBe(200);
      const session = await app.call('GET', '/console/v1/session', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(session.json['data']).toEqual({ accountId, language: null, expiresAt: expect.any(String) });

      const browser = await signIn(accountId);
      const asBearer = browser.cookie.split('=')[1]!;
      expectRefusal(
        await app.call('GET', '/console/v1/keys', { headers: { authorization: `Bearer ${asBearer}` } }),
        401,
      );
      // A bearer console token put in the cookie is no cookie session either.
      expectRefusal(
        await app.call('GET', '/console/v1/keys', { headers: { cookie: `console_session=${token}` } }),
        401,
      );
    });

    it('never accepts an API key on /console/v1, as a bearer token or as the cookie', async () => {
      const { apiKey } = await newAccount('apikey');
      const attempts: Record<string, string>[] = [
        { authorization: `Bearer ${apiKey}` },
        { cookie: `console_session=${apiKey}` },
        { 'x-api-key': apiKey },
        {},
      ];
      for (const headers of attempts) {
        expectRefusal(await app.call('GET', '/console/v1/keys', { headers }), 401);
      }
      expectRefusal(
        await app.call('POST', '/console/v1/keys', {
          headers: { authorization: `Bearer ${apiKey}` },
          body: {},
        }),
        401,
      );
    });

    it('signs out: the session is revoked, the cookie cleared, later calls are 401', async () => {
      const { accountId } = await newAccount('signout');
      const browser = await signIn(accountId);
      const kept = await signIn(accountId);
      const out = await call(browser, 'POST', '/console/v1/sign-out');
      expect(out.status).toBe(200);
      expect(out.json['data']).toEqual({ signedOut: true });
      const cleared = out.headers.get('set-cookie')!.split('; ');
      expect(cleared).toEqual(
        expect.arrayContaining(['console_session=', 'Max-Age=0', 'Path=/console', 'HttpOnly']),
      );
      expectRefusal(
        await call(browser, 'GET', '/console/v1/session'),
        401,
        'A valid console session is required. Sign in again.',
      );
      expectRefusal(await call(browser, 'POST', '/console/v1/keys', { body: {} }), 401);
      // Another session of the same account is untouched.
      expect((await call(kept, 'GET', '/console/v1/session')).status).toBe(200);
    });

    it('refuses an expired session', async () => {
      const { accountId } = await newAccount('expired');
      const browser = await signIn(accountId);
      await db.query(
        `UPDATE "accounts"."console_sessions" SET "expires_at" = now() - interval '1 second'
         WHERE "account_id" = $1`,
        [accountId],
      );
      expectRefusal(await call(browser, 'GET', '/console/v1/session'), 401);
      expectRefusal(await call(browser, 'GET', '/console/v1/keys'), 401);
    });
  });

  describe('the screens', () => {
    let a: Browser;
    let b: Browser;
    let keyA: string;
    let keyIdA: string;
    let taskId: string;

    async function waitFor<T>(read: () => Promise<T | null>): Promise<T> {
      for (let i = 0; i < 200; i += 1) {
        const value = await read();
        if (value !== null) return value;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('timed out');
    }

    beforeAll(async () => {
      const first = await newAccount('screens-a', '10');
      const second = await newAccount('screens-b', '10');
      keyA = first.apiKey;
      a = await signIn(first.accountId);
      b = await signIn(second.accountId);
      keyIdA = `key_${keyA.slice(4, 20)}`;
      const created = await app.call('POST', '/api/v1/jobs/createTask', {
        headers: { authorization: `Bearer ${keyA}` },
        body: {
          model: 'local/sketch',
          input: { prompt: 'console', width: 64, height: 64 },
          callBackUrl: 'http://127.0.3.9/callback',
        },
      });
      expect(created.status).toBe(202);
      taskId = (created.json['data'] as { taskId: string }).taskId;
      await waitFor(async () => {
        const r = await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, {
          headers: { authorization: `Bearer ${keyA}` },
        });
        return (r.json['data'] as Json)['settled'] === true ? r : null;
      });
    });

    it("lists the keys with prefix, last use and today's spend; creates, renames, caps, clears and revokes", async () => {
      const listed = await call(a, 'GET', '/console/v1/keys');
      expect(listed.status).toBe(200);
      const items = (listed.json['data'] as { items: Json[] }).items;
      expect(items).toEqual([
        {
          keyId: keyIdA,
          accountId: a.accountId,
          prefix: keyA.slice(0, 20),
          name: 'first',
          dailyCap: expect.any(String),
          createdAt: expect.any(String),
          lastUsedAt: expect.any(String),
          revoked: false,
          spentToday: '0.004',
        },
      ]);

      const created = await call(a, 'POST', '/console/v1/keys', { body: { name: 'ci', dailyCap: '2.5' } });
      expect(created.status).toBe(200);
      const fresh = created.json['data'] as { keyId: string; apiKey: string; dailyCap: string };
      expect(fresh).toEqual({
        keyId: expect.stringMatching(/^key_/),
        apiKey: expect.stringMatching(/^gts_/),
        dailyCap: '2.5',
      });

      const renamed = await call(a, 'PATCH', `/console/v1/keys/${fresh.keyId}`, {
        body: { name: 'ci-2', dailyCap: '3' },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.json['data']).toMatchObject({
        keyId: fresh.keyId,
        name: 'ci-2',
        dailyCap: '3',
        lastUsedAt: null,
      });
      const cleared = await call(a, 'PATCH', `/console/v1/keys/${fresh.keyId}`, { body: { dailyCap: null } });
      expect(cleared.json['data']).toMatchObject({ name: 'ci-2', dailyCap: null });
      // A key without a cap still runs tasks (billing treats it as no limit).
      const quote = await app.call('POST', '/api/v1/jobs/quote', {
        headers: { authorization: `Bearer ${fresh.apiKey}` },
        body: { model: 'local/sketch', input: { prompt: 'x', width: 64, height: 64 } },
      });
      expect(quote.status).toBe(200);

      const revoked = await call(a, 'POST', `/console/v1/keys/${fresh.keyId}/revoke`);
      expect(revoked.json['data']).toEqual({ keyId: fresh.keyId, revoked: true });
      await new Promise((r) => setTimeout(r, 1100));
      const refused = await app.call('GET', '/api/v1/chat/credit', {
        headers: { authorization: `Bearer ${fresh.apiKey}` },
      });
      expect(refused.status).toBe(401);
      expectRefusal(await call(a, 'PATCH', '/console/v1/keys/not-a-key', { body: { name: 'x' } }), 400);
    });

    it('rotates the signing secret, shown once', async () => {
      const first = await call(a, 'POST', '/console/v1/signing-secret/rotate');
      const second = await call(a, 'POST', '/console/v1/signing-secret/rotate');
      expect(first.json['data']).toEqual({ secret: expect.stringMatching(/^sk_sign_/) });
      expect(second.json['data']).not.toEqual(first.json['data']);
      expect(first.headers.get('cache-control')).toBe('no-store');
    });

    it('shows the balance with its funding sources as decimal strings', async () => {
      await app.admin('POST', `/admin/v1/accounts/${a.accountId}/credits`, {
        amount: '1.25',
        kind: 'grant',
        model: 'local/sketch',
        expiresAt: '2099-01-01T00:00:00.000Z',
      });
      const reply = await call(a, 'GET', '/console/v1/balance');
      expect(reply.status).toBe(200);
      expect(reply.json['data']).toEqual({
        currency: 'USD',
        available: '11.246',
        held: '0',
        total: '11.246',
        sources: {
          wallet: '9.996',
          credit: '0',
          grants: [
            {
              id: expect.stringMatching(/^fund_/),
              model: 'local/sketch',
              available: '1.25',
              expiresAt: '2099-01-01T00:00:00.000Z',
            },
          ],
        },
      });
      expectRefusal(await call(a, 'GET', '/console/v1/balance?x=1'), 400);
    });

    it('shows usage by day and model, for the account or one key, with the 92-day rule', async () => {
      const reply = await call(a, 'GET', '/console/v1/usage');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('x-ratelimit-limit')).toBe('30');
      const usage = reply.json['data'] as Json;
      expect(usage['totals']).toEqual({ calls: 1, spend: '0.004' });
      expect(usage['models']).toEqual([{ model: 'local/sketch', calls: 1, spend: '0.004' }]);
      expect(usage['days']).toEqual([
        expect.objectContaining({ calls: 1, spend: '0.004', date: new Date().toISOString().slice(0, 10) }),
      ]);
      const other = await call(a, 'GET', '/console/v1/usage?keyId=key_0000000000000000');
      expect((other.json['data'] as Json)['totals']).toEqual({ calls: 0, spend: '0' });
      expectRefusal(await call(a, 'GET', '/console/v1/usage?from=2026-01-01&to=2026-06-01'), 400);
      expect(((await call(b, 'GET', '/console/v1/usage')).json['data'] as Json)['totals']).toEqual({
        calls: 0,
        spend: '0',
      });
    });

    it('lists the history with key and state filters and cursor paging, and reads one task', async () => {
      const second = await app.call('POST', '/api/v1/jobs/createTask', {
        headers: { authorization: `Bearer ${keyA}` },
        body: { model: 'local/sketch', input: { prompt: 'two', width: 64, height: 64 } },
      });
      const secondId = (second.json['data'] as { taskId: string }).taskId;
      const page1 = await call(a, 'GET', `/console/v1/tasks?limit=1&keyId=${keyIdA}`);
      expect(page1.status).toBe(200);
      const data1 = page1.json['data'] as { items: Json[]; nextCursor: string };
      expect(data1.items).toEqual([expect.objectContaining({ taskId: secondId, keyId: keyIdA })]);
      const page2 = await call(a, 'GET', `/console/v1/tasks?limit=1&cursor=${data1.nextCursor}`);
      const data2 = page2.json['data'] as { items: Json[]; nextCursor?: string };
      expect(data2.items).toEqual([expect.objectContaining({ taskId, keyId: keyIdA, state: 'succeeded' })]);
      expect(data2.nextCursor).toBeUndefined();
      expectRefusal(
        await call(a, 'GET', `/console/v1/tasks?cursor=${data1.nextCursor}&keyId=key_0000000000000000`),
        400,
      );
      const succeeded = await call(a, 'GET', '/console/v1/tasks?state=succeeded');
      expect((succeeded.json['data'] as { items: Json[] }).items.map((t) => t['taskId'])).toContain(taskId);

      const record = await call(a, 'GET', `/console/v1/tasks/${taskId}`);
      expect(record.status).toBe(200);
      expect(record.json['data']).toMatchObject({ taskId, state: 'succeeded', cost: '0.004', settled: true });
      expectRefusal(await call(a, 'GET', '/console/v1/tasks/job_bad'), 400);
    });

    it("shows a task's callback delivery with its attempts, and redelivers it", async () => {
      const listed = await waitFor(async () => {
        const r = await call(a, 'GET', `/console/v1/webhook-deliveries?taskId=${taskId}`);
        const items = r.status === 200 ? (r.json['data'] as { items: Json[] }).items : [];
        return items.length > 0 && (items[0]!['attemptLog'] as unknown[]).length > 0 ? r : null;
      });
      const delivery = (listed.json['data'] as { items: Json[]; messages: Json[] }).items[0]!;
      expect(delivery).toMatchObject({
        deliveryId: expect.stringMatching(/^whd_/),
        taskId,
        accountId: a.accountId,
        url: 'http://127.0.3.9/callback',
        attemptLog: [expect.objectContaining({ n: 1 })],
      });
      const again = await call(
        a,
        'POST',
        `/console/v1/webhook-deliveries/${String(delivery['deliveryId'])}/redeliver`,
      );
      expect(again.status).toBe(200);
      expect(again.json['data']).toMatchObject({ deliveryId: delivery['deliveryId'], state: 'pending' });
      expectRefusal(
        await call(a, 'POST', `/console/v1/webhook-deliveries/${String(delivery['deliveryId'])}/redeliver`, {
          csrf: null,
        }),
        403,
      );
    });

    it("shows an endpoint's latest messages", async () => {
      const endpoint = await call(a, 'POST', '/console/v1/webhook-endpoints', {
        body: { url: 'https://93.184.215.14/hook', enabledEvents: ['task.completed'] },
      });
      expect(endpoint.status).toBe(200);
      const id = (endpoint.json['data'] as { id: string }).id;
      const messages = await call(a, 'GET', `/console/v1/webhook-endpoints/${id}/messages?limit=5`);
      expect(messages.status).toBe(200);
      // The second task of the history test may have finished since: every message is this endpoint's.
      for (const m of (messages.json['data'] as { items: Json[] }).items)
        expect(m).toMatchObject({ endpointId: id, attemptLog: expect.any(Array) });
      expectRefusal(await call(a, 'GET', `/console/v1/webhook-endpoints/${id}/messages?limit=0`), 400);
    });

    it("never shows one account another account's keys, tasks, deliveries or endpoints (404)", async () => {
      const keysOfB = (await call(b, 'GET', '/console/v1/keys')).json['data'] as { items: Json[] };
      expect(keysOfB.items.map((k) => k['keyId'])).not.toContain(keyIdA);
      const patched = await call(b, 'PATCH', `/console/v1/keys/${keyIdA}`, {
        body: { name: 'stolen', dailyCap: null },
      });
      expectRefusal(patched, 404, 'API key not found.');
      expectRefusal(await call(b, 'POST', `/console/v1/keys/${keyIdA}/revoke`), 404);
      const mine = (await call(a, 'GET', '/console/v1/keys')).json['data'] as { items: Json[] };
      expect(mine.items.find((k) => k['keyId'] === keyIdA)).toMatchObject({ name: 'first', revoked: false });

      expectRefusal(await call(b, 'GET', `/console/v1/tasks/${taskId}`), 404);
      expect(((await call(b, 'GET', '/console/v1/tasks')).json['data'] as { items: Json[] }).items).toEqual(
        [],
      );
      expect(
        ((await call(b, 'GET', `/console/v1/tasks?keyId=${keyIdA}`)).json['data'] as { items: Json[] }).items,
      ).toEqual([]);
      expectRefusal(await call(b, 'GET', `/console/v1/webhook-deliveries?taskId=${taskId}`), 404);
      const delivery = (
        (await call(a, 'GET', `/console/v1/webhook-deliveries?taskId=${taskId}`)).json['data'] as {
          items: Json[];
        }
      ).items[0]!;
      expectRefusal(
        await call(b, 'POST', `/console/v1/webhook-deliveries/${String(delivery['deliveryId'])}/redeliver`),
        404,
      );

      const endpoints = (await call(a, 'GET', '/console/v1/webhook-endpoints')).json['data'] as {
        items: Json[];
      };
      const endpointId = String(endpoints.items[0]!['id']);
      expectRefusal(await call(b, 'GET', `/console/v1/webhook-endpoints/${endpointId}`), 404);
      expectRefusal(await call(b, 'GET', `/console/v1/webhook-endpoints/${endpointId}/messages`), 404);
      expectRefusal(
        await call(b, 'PATCH', `/console/v1/webhook-endpoints/${endpointId}`, { body: { enabled: false } }),
        404,
      );
      const still = await call(a, 'GET', `/console/v1/webhook-endpoints/${endpointId}`);
      expect(still.json['data']).toMatchObject({ enabled: true });
    });
  });
});
