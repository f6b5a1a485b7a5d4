import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, serviceSettings } from '../support/app-process';
import { composeFleetAvailable, projectContainers } from '../support/containers';
import { startService, type ServiceKind, type ServiceProcess } from '../support/service-process';

const root = join(__dirname, '..', '..');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const kinds: ServiceKind[] = [
  'embedded',
  'fleet',
  ...(composeFleetAvailable() ? (['containers'] as const) : []),
];
const engine = (): string =>
  spawnSync('podman', ['version'], { stdio: 'ignore' }).status === 0 ? 'podman' : 'docker';

/**
 * "Every public behaviour is the same in both modes": the same HTTP checks, through the public URL only,
 * against `npm start` (embedded, PGlite, in-process bus), `npm run start:fleet` (every app its own process
 * behind the ingress, over PostgreSQL, Kafka, Redis and S3) and `npm run start:containers` (the same fleet as
 * docker/compose.yaml runs it: each app and each service its own container, behind the nginx ingress).
 */
describe.each(kinds)('the public API, %s', (kind) => {
  let service: ServiceProcess;
  let database: ScratchDatabase | undefined;
  let dataDir: string;
  let auth: Record<string, string>;
  let admin: Record<string, string>;
  const project = `gts-e2e-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    dataDir = mkdtempSync(join(tmpdir(), `gts-${kind}-`));
    const tag = randomBytes(4).toString('hex');
    let env: Record<string, string> = { DATA_DIR: dataDir, PORT: '0' };
    if (kind === 'fleet') {
      database = await createScratchPostgres();
      env = {
        ...env,
        ...serviceSettings(),
        DATABASE_URL: database.url,
        KAFKA_TOPIC_PREFIX: `e2e-both-${tag}.`,
        REDIS_KEY_PREFIX: `e2e-both-${tag}:`,
        S3_KEY_PREFIX: `e2e-both-${tag}/`,
      };
    }
    if (kind === 'containers') {
      env = {
        ...env,
        HOME: process.env['HOME'] ?? '/root',
        COMPOSE_PROJECT_NAME: project,
        MINIO_PORT: String(await freePort()),
      };
    }
    service = await startService(kind, env);
    auth = { authorization: `Bearer ${service.bootstrap.apiKey}` };
    admin = { authorization: `Bearer ${service.bootstrap.adminToken}` };
  }, 330_000);

  afterAll(async () => {
    const code = await service?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(0);
  });

  async function call(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; json: Json; headers: Headers }> {
    const response = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      json: text ? (JSON.parse(text) as Json) : {},
      headers: response.headers,
    };
  }

  it('answers the probes and the whole OpenAPI document at the public URL', async () => {
    expect(await call('GET', '/healthz', {})).toMatchObject({ status: 200, json: { status: 'ok' } });
    expect(await call('GET', '/readyz', {})).toMatchObject({ status: 200, json: { status: 'ready' } });
    const { status, json } = await call('GET', '/openapi.json', {});
    expect(status).toBe(200);
    for (const path of [
      '/api/v1/jobs/createTask',
      '/v1/chat/completions',
      '/api/v1/common/upload-url',
      '/admin/v1/accounts',
    ]) {
      expect(Object.keys(json['paths'] as object)).toContain(path);
    }
    expect(service.bootstrap.baseUrl).toBe(service.baseUrl);
  });

  it('refuses a missing or unknown credential in each family shape, without charge', async () => {
    const native = await call('GET', '/api/v1/chat/credit', {});
    expect(native).toMatchObject({
      status: 401,
      json: { code: 401, request_id: expect.stringMatching(/^req_/) },
    });
    const openai = await call('POST', '/v1/chat/completions', { authorization: 'Bearer gts_nope' }, {});
    expect(openai.status).toBe(401);
    expect(openai.json['error']).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    const anthropic = await call('POST', '/v1/messages', {}, {});
    expect(anthropic).toMatchObject({
      status: 401,
      json: { type: 'error', error: { type: 'authentication_error' } },
    });
    const adminRefused = await call('GET', '/admin/v1/groups', { authorization: 'Bearer wrong' });
    expect(adminRefused.status).toBe(401);
    const unknown = await call('GET', '/v1/embeddings', auth);
    expect(unknown.status).toBe(404);
    expect(unknown.json['error']).toBeDefined();
    expect((await call('GET', '/nowhere', auth)).status).toBe(404);
  });

  it('runs an image task to the end and charges its estimate once', async () => {
    const before = await call('GET', '/api/v1/chat/credit', auth);
    expect(before).toMatchObject({
      status: 200,
      json: { code: 200, data: { currency: 'USD', available: '25' } },
    });
    const created = await call('POST', '/api/v1/jobs/createTask', auth, {
      model: 'local/sketch',
      input: { prompt: 'a red fox' },
    });
    expect(created.status).toBe(202);
    expect(created.json['data']).toMatchObject({ state: 'queued', estimatedCost: '0.004' });
    const taskId = created.json['data']['taskId'] as string;
    let record: Json = {};
    for (let i = 0; i < 300; i += 1) {
      record = (await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, auth)).json;
      if (['succeeded', 'failed'].includes(record['data']['state'] as string)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(record['data']).toMatchObject({ state: 'succeeded' });
    const asset = (record['data']['output']['assets'] as Json[])[0]!;
    const image = await fetch(asset['url'] as string);
    expect(image.status).toBe(200);
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    // Settlement reaches the balance through the bus in the fleet: wait for it, then it stays.
    let available = '';
    for (let i = 0; i < 100; i += 1) {
      available = (await call('GET', '/api/v1/chat/credit', auth)).json['data']['available'] as string;
      if (available === '24.996') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(available).toBe('24.996');
  });

  it('answers a chat completion, whole and streamed, through the OpenAI protocol', async () => {
    const whole = await call('POST', '/v1/chat/completions', auth, {
      model: 'local/echo',
      messages: [{ role: 'user', content: 'hello fleet' }],
    });
    expect(whole.status).toBe(200);
    expect(whole.json).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'Echo: hello fleet' } }],
    });
    const streamed = await fetch(`${service.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'local/echo',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await streamed.text()).split('\n\n').filter((e) => e.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    const text = events
      .slice(0, -1)
      .map((e) => (JSON.parse(e.slice(6)) as Json)['choices'][0]?.['delta']?.['content'] ?? '')
      .join('');
    expect(text).toBe('Echo: hi');
    const models = await call('GET', '/v1/models', auth);
    expect(models.status).toBe(200);
    expect((models.json['data'] as Json[]).map((m) => m['id'])).toContain('local/echo/chat');
  });

  it('signs an upload URL (media) and administers accounts (admin API)', async () => {
    const upload = await call('POST', '/api/v1/common/upload-url', auth, {
      fileName: 'fox.png',
      contentType: 'image/png',
      bytes: 1000,
    });
    expect(upload.status).toBe(200);
    expect(upload.json['data']).toMatchObject({
      fileId: expect.stringMatching(/^fil_/),
      uploadUrl: expect.any(String),
    });
    const account = await call('POST', '/admin/v1/accounts', admin, { name: `both-${kind}`, credit: '3' });
    expect(account.status).toBe(200);
    const accountId = account.json['data']['accountId'] as string;
    const key = await call('POST', `/admin/v1/accounts/${accountId}/keys`, admin, {});
    expect(key.status).toBe(200);
    const balance = await call('GET', '/api/v1/chat/credit', {
      authorization: `Bearer ${key.json['data']['apiKey']}`,
    });
    expect(balance.json['data']).toMatchObject({ available: '3' });
  });

  it("serves each app's admin and console routes at the one URL: credits, asset limits, endpoints, history", async () => {
    const account = await call('POST', '/admin/v1/accounts', admin, { name: `routes-${kind}` });
    const accountId = account.json['data']['accountId'] as string;
    // Billing's credit route and media's asset limits sit under the accounts prefix (forwarded in the fleet).
    const credited = await call('POST', `/admin/v1/accounts/${accountId}/credits`, admin, { amount: '2.5' });
    expect(credited).toMatchObject({ status: 200, json: { data: { accountId, balance: '2.5' } } });
    const refused = await call('POST', `/admin/v1/accounts/${accountId}/credits`, admin, { amount: 'x' });
    expect(refused).toMatchObject({ status: 400, json: { code: 400 } });
    const limits = await call('GET', `/admin/v1/accounts/${accountId}/asset-limits`, admin);
    expect(limits).toMatchObject({ status: 200, json: { data: { accountId } } });
    const key = await call('POST', `/admin/v1/accounts/${accountId}/keys`, admin, {});
    const theirs = { authorization: `Bearer ${key.json['data']['apiKey']}` };
    const balance = await call('GET', '/api/v1/chat/credit', theirs);
    expect(balance.json['data']).toMatchObject({ available: '2.5' });
    expect(await call('GET', '/api/v1/jobs', theirs)).toMatchObject({
      status: 200,
      json: { data: { items: [] } },
    });
    // The console: a session, its account's webhook endpoints, the public catalog.
    const session = await call('POST', `/admin/v1/accounts/${accountId}/console-tokens`, admin);
    const consoleAuth = { authorization: `Bearer ${session.json['data']['token']}` };
    expect(await call('GET', '/console/v1/session', consoleAuth)).toMatchObject({
      status: 200,
      json: { data: { accountId } },
    });
    expect(await call('GET', '/console/v1/webhook-endpoints', consoleAuth)).toMatchObject({
      status: 200,
      json: { data: { items: [] } },
    });
    expect((await call('GET', '/console/v1/webhook-endpoints', {})).status).toBe(401);
    const catalog = await call('GET', '/console/v1/catalog/models', {});
    expect(catalog.status).toBe(200);
  });

  it('serves the web console: its pages at any /console path, its hashed files cached for a year', async () => {
    const page = await fetch(`${service.baseUrl}/console/keys`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/console\/assets\//);
    const asset = await fetch(`${service.baseUrl}${script!}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The console's API below it is never the page: without a session, its own 401 in the envelope.
    const api = await fetch(`${service.baseUrl}/console/v1/nothing-here`);
    expect(api.status).toBe(401);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('signs in to the console by a one-time link; the cookie session and its CSRF token work on every console route', async () => {
    const account = await call('POST', '/admin/v1/accounts', admin, { name: `console-${kind}`, credit: '4' });
    const accountId = account.json['data']['accountId'] as string;
    const link = await call('POST', `/admin/v1/accounts/${accountId}/console-links`, admin);
    expect(link.status).toBe(200);
    const token = new URL(link.json['data']['url'] as string).hash.replace(/^#token=/, '');
    const signIn = await call('POST', '/console/v1/sign-in', {}, { token });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect(signIn.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const csrf = { 'x-csrf-token': signIn.json['data']['csrfToken'] as string };
    // The link works once.
    expect((await call('POST', '/console/v1/sign-in', {}, { token })).status).toBe(401);
    const session = { cookie };
    // Each app that serves console routes checks the cookie through the gateway's verifier.
    expect(await call('GET', '/console/v1/balance', session)).toMatchObject({
      status: 200,
      json: { data: { available: '4' } },
    });
    expect((await call('GET', '/console/v1/tasks', session)).status).toBe(200);
    expect((await call('GET', '/console/v1/usage', session)).status).toBe(200);
    expect((await call('GET', '/console/v1/webhook-endpoints', session)).status).toBe(200);
    // A state-changing call needs the CSRF token; refused, it creates nothing.
    const refused = await call('POST', '/console/v1/keys', session, { name: 'no-csrf' });
    expect(refused.status).toBe(403);
    const created = await call('POST', '/console/v1/keys', { ...session, ...csrf }, { name: 'console' });
    expect(created.status).toBe(200);
    const keys = await call('GET', '/console/v1/keys', session);
    expect((keys.json['data']['items'] as Json[]).map((k) => k['name'])).toEqual(['console']);
    // Signed out, the cookie is refused everywhere.
    expect((await call('POST', '/console/v1/sign-out', { ...session, ...csrf })).status).toBe(200);
    expect((await call('GET', '/console/v1/balance', session)).status).toBe(401);
    expect((await call('GET', '/console/v1/keys', session)).status).toBe(401);
  });

  if (kind !== 'embedded') {
    it('limits the public catalog per client behind its ingress, not per ingress (TRUSTED_PROXIES)', async () => {
      const as = (client: string) => call('GET', '/console/v1/catalog/models', { 'x-forwarded-for': client });
      let last = await as('203.0.113.7');
      for (let i = 0; i < 40 && last.status !== 429; i += 1) last = await as('203.0.113.7');
      expect(last.status).toBe(429);
      // Another client through the same ingress has its own bucket (every request reaches the catalog app
      // from the ingress's address).
      const other = await as('203.0.113.8');
      expect(other.status).toBe(200);
      expect(other.headers.get('x-ratelimit-remaining')).toBe('29');
    });
  }

  if (kind === 'fleet') {
    it('keeps /metrics off the public URL and serves it on the metrics port of each process', async () => {
      expect((await call('GET', '/metrics', {})).status).toBe(404);
      const state = JSON.parse(readFileSync(join(dataDir, 'fleet.json'), 'utf8')) as {
        apps: { name: string; metrics: string }[];
      };
      // Every process serves its own; the task created above went through the tasks app.
      const scrapes = await Promise.all(state.apps.map(async (app) => fetch(app.metrics)));
      expect(scrapes.map((scrape) => scrape.status)).toEqual(state.apps.map(() => 200));
      const tasks = state.apps.findIndex((app) => app.name.startsWith('tasks#'));
      expect(await scrapes[tasks]!.text()).toMatch(
        /^http_server_request_duration_seconds_count\{family="native",status="202"\} [1-9]/m,
      );
    });

    it('stops every process it started on SIGTERM, each drained', async () => {
      const state = JSON.parse(readFileSync(join(dataDir, 'fleet.json'), 'utf8')) as {
        apps: { pid: number }[];
      };
      expect(state.apps.length).toBeGreaterThanOrEqual(10);
      expect(state.apps.every((app) => alive(app.pid))).toBe(true);
      expect(await service.stop()).toBe(0);
      expect(state.apps.filter((app) => alive(app.pid))).toEqual([]);
    });
  }

  if (kind === 'containers') {
    it('keeps /metrics off the public URL and serves it on the metrics port inside each app container', async () => {
      expect((await call('GET', '/metrics', {})).status).toBe(404);
      const scrape = spawnSync(
        engine(),
        [
          'exec',
          `${project}_tasks_1`,
          'node',
          '-e',
          "fetch('http://127.0.0.1:9464/metrics').then(r => r.text()).then(t => process.stdout.write(t))",
        ],
        { encoding: 'utf8' },
      );
      expect(scrape.status).toBe(0);
      expect(scrape.stdout).toMatch(
        /^http_server_request_duration_seconds_count\{family="native",status="202"\} [1-9]/m,
      );
    });

    it('takes every container down on SIGTERM and removes them, with their volumes (--remove-data)', async () => {
      const running = projectContainers(engine(), project);
      // Ten apps (two gateways, two runners), the migrations entry, the ingress and four services.
      expect(running.length).toBe(16);
      expect(projectContainers(engine(), project, 'volume').length).toBeGreaterThanOrEqual(3);
      expect(await service.stop()).toBe(0);
      expect(projectContainers(engine(), project)).toEqual([]);
      expect(projectContainers(engine(), project, 'volume')).toEqual([]);
    });
  }
});
