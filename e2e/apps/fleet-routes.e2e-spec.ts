import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceCalls, serviceSettings, startAppProcess, type AppProcess } from '../support/app-process';

const root = join(__dirname, '..', '..');

/**
 * Every app but the edges (gateway, compat-protocols, media): none serves a public route (docs/architecture.md,
 * "Which app serves which routes").
 */
const OTHERS = ['catalog', 'tasks', 'billing', 'runner', 'webhooks'] as const;

type Json = Record<string, unknown>;

/** The log lines at level error or fatal: pino JSON (`level` >= 50 or its label), or plain text naming an error. */
function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (!line.trim()) return false;
    try {
      const { level } = JSON.parse(line) as { level?: unknown };
      return typeof level === 'number' ? level >= 50 : level === 'error' || level === 'fatal';
    } catch {
      return /\b(error|fatal)\b/i.test(line);
    }
  });
}

describe('the fleet in distributed mode: one entry point, and every app accepts the credentials of its routes', () => {
  let database: ScratchDatabase;
  let dataDir: string;
  let gateway: AppProcess;
  let compat: AppProcess;
  let media: AppProcess;
  const others = new Map<string, AppProcess>();
  let apiKey: string;
  let admin: Record<string, string>;
  let accountId: string;
  let consoleAuth: Record<string, string>;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    database = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-fleet-routes-'));
    const env = {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      KAFKA_TOPIC_PREFIX: `e2e-routes-${randomBytes(4).toString('hex')}.`,
      // A large bucket that does not refill within the run: what each request takes is visible (the bucket
      // shared by the two edges, below).
      RATE_LIMIT_BURST: '1000',
      RATE_LIMIT_PER_MINUTE: '1',
    };
    const calls = await serviceCalls();
    const start = (app: string) => startAppProcess(app, { ...env, ...calls.env(app) });
    // Together: the gateway's first start credits the demo account through the billing app, which checks the
    // account against the gateway (service calls both ways).
    [gateway, compat, media] = await Promise.all([
      start('gateway'),
      start('compat-protocols'),
      start('media'),
      ...OTHERS.map(async (app) => others.set(app, await start(app))),
    ]);
    const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
      adminToken: string;
      accountId: string;
    };
    apiKey = boot.apiKey;
    accountId = boot.accountId;
    admin = { authorization: `Bearer ${boot.adminToken}` };
    const session = await fetch(`${gateway.baseUrl}/admin/v1/accounts/${accountId}/console-tokens`, {
      method: 'POST',
      headers: admin,
    });
    expect(session.status).toBe(200);
    consoleAuth = {
      authorization: `Bearer ${((await session.json()) as { data: { token: string } }).data.token}`,
    };
  }, 240_000);

  afterAll(async () => {
    await Promise.all([gateway, compat, media, ...others.values()].filter(Boolean).map((app) => app.stop()));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (app: AppProcess, path: string, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}${path}`, { headers });
  const post = (app: AppProcess, path: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  describe('credentials (each app wires the verifiers its routes need, or mounts no authenticated route)', () => {
    it('gateway: a valid key is accepted on /api/v1 and /v1, a bad one refused', async () => {
      const good = { authorization: `Bearer ${apiKey}` };
      const models = await get(gateway, '/api/v1/models', good);
      expect(models.status).toBe(200);
      expect(((await models.json()) as { data: { items: unknown[] } }).data.items.length).toBeGreaterThan(0);
      const openAi = await get(gateway, '/v1/models', good);
      expect(openAi.status).toBe(200);
      expect(((await openAi.json()) as { object: string }).object).toBe('list');

      const bad = await get(gateway, '/api/v1/models', {
        authorization: `Bearer ${apiKey.slice(0, -4)}xxxx`,
      });
      expect(bad.status).toBe(401);
      expect(((await bad.json()) as { code: number }).code).toBe(401);
      expect((await get(gateway, '/v1/models', { authorization: 'Bearer gts_nope' })).status).toBe(401);
    });

    it.each(OTHERS)(
      '%s: serves no authenticated route, so a valid key meets 404, never 401',
      async (name) => {
        const app = others.get(name)!;
        const good = { authorization: `Bearer ${apiKey}` };
        for (const path of [
          '/api/v1/models',
          '/v1/models',
          '/api/v1/chat/credit',
          '/console/v1/catalog/models',
        ]) {
          const response = await get(app, path, good);
          expect({ path, status: response.status }).toEqual({ path, status: 404 });
        }
        // Valid admin and console credentials too: no route of theirs is served here.
        expect((await get(app, `/admin/v1/accounts/${accountId}`, admin)).status).toBe(404);
        expect(
          (await get(app, '/admin/v1/webhook-deliveries?taskId=job_01JZZZZZZZZZZZZZZZZZZZZZZZ', admin))
            .status,
        ).toBe(404);
        expect((await get(app, '/console/v1/webhook-endpoints', consoleAuth)).status).toBe(404);
        expect((await get(app, '/console/v1/session', consoleAuth)).status).toBe(404);
        expect((await get(app, '/healthz')).status).toBe(200);
        // Its OpenAPI document lists no public route.
        const paths = Object.keys(
          ((await (await get(app, '/openapi.json')).json()) as { paths: object }).paths,
        );
        expect(paths.filter((p) => /^\/(api|admin|console|v1)/.test(p))).toEqual([]);
      },
    );

    it('no app logged an error while starting and serving', () => {
      for (const app of [gateway, compat, media, ...others.values()]) {
        expect({ app: app.name, errors: errorLines(app.output()) }).toEqual({ app: app.name, errors: [] });
        expect(app.output()).not.toContain('could not find');
      }
    });
  });

  describe('compat-protocols serves the compatibility family, and only that', () => {
    const messages = [{ role: 'user', content: 'hello from the compat edge' }];

    it('a chat completion on its own port runs there: 200, the OpenAI shape, X-Service-Task-Id', async () => {
      const good = { authorization: `Bearer ${apiKey}` };
      const reply = await post(compat, '/v1/chat/completions', good, { model: 'local/echo/chat', messages });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      const requestId = reply.headers.get('x-request-id')!;
      expect(requestId).toMatch(/^req_/);
      const taskId = reply.headers.get('x-service-task-id')!;
      expect(taskId).toMatch(/^job_/);
      const body = (await reply.json()) as Json;
      expect(body).toMatchObject({
        id: `chatcmpl-${requestId}`,
        object: 'chat.completion',
        model: 'local/echo/chat',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Echo: hello from the compat edge' },
            finish_reason: 'stop',
          },
        ],
      });
      expect((body['usage'] as { total_tokens: number }).total_tokens).toBeGreaterThan(0);
      // The task is the account's like any other: the gateway's recordInfo finds it.
      const info = await get(gateway, `/api/v1/jobs/recordInfo?taskId=${taskId}`, good);
      expect(info.status).toBe(200);
      expect(((await info.json()) as { data: Json }).data).toMatchObject({
        taskId,
        model: 'local/echo/chat',
      });
    });

    it('the other protocols and their key headers work there too (x-api-key, x-goog-api-key)', async () => {
      const anthropic = await post(
        compat,
        '/v1/messages',
        { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
        { model: 'local/echo/chat', max_tokens: 20, messages },
      );
      expect(anthropic.status).toBe(200);
      expect(anthropic.headers.get('x-service-task-id')).toMatch(/^job_/);
      expect(await anthropic.json()).toMatchObject({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'Echo: hello from the compat edge' }],
      });
      const google = await post(
        compat,
        '/v1beta/models/local/echo/chat:generateContent',
        { 'x-goog-api-key': apiKey },
        { contents: [{ role: 'user', parts: [{ text: 'hello from the compat edge' }] }] },
      );
      expect(google.status).toBe(200);
      expect(google.headers.get('x-service-task-id')).toMatch(/^job_/);
      expect(await google.json()).toMatchObject({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Echo: hello from the compat edge' }] } }],
      });
    });

    it("a bad or missing key is refused in each protocol's error shape, before any task", async () => {
      const bad = `${apiKey.slice(0, -4)}xxxx`;
      const openAi = await post(
        compat,
        '/v1/chat/completions',
        { authorization: `Bearer ${bad}` },
        { model: 'local/echo/chat', messages },
      );
      expect(openAi.status).toBe(401);
      expect(openAi.headers.get('x-service-task-id')).toBeNull();
      expect(await openAi.json()).toMatchObject({
        error: { type: 'authentication_error', code: 'invalid_api_key' },
      });
      const anthropic = await post(
        compat,
        '/v1/messages',
        { 'x-api-key': bad },
        { model: 'local/echo/chat', max_tokens: 20, messages },
      );
      expect(anthropic.status).toBe(401);
      expect(await anthropic.json()).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error' },
        request_id: anthropic.headers.get('x-request-id'),
      });
      const google = await post(
        compat,
        '/v1beta/models/local/echo/chat:generateContent',
        { 'x-goog-api-key': bad },
        { contents: [{ role: 'user', parts: [{ text: 'x' }] }] },
      );
      expect(google.status).toBe(401);
      expect(await google.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
      const none = await post(compat, '/v1/responses', {}, { model: 'local/echo/chat', input: 'x' });
      expect(none.status).toBe(401);
      expect(await none.json()).toMatchObject({ error: { type: 'authentication_error' } });
    });

    it('paths the protocols do not have answer 404 in the protocol shape', async () => {
      const good = { authorization: `Bearer ${apiKey}` };
      const embeddings = await post(compat, '/v1/embeddings', good, { input: 'x' });
      expect(embeddings.status).toBe(404);
      expect(await embeddings.json()).toMatchObject({
        error: { type: 'not_found_error', code: 'not_found' },
      });
      const gemini = await post(compat, '/v1beta/models/local/echo/chat:embedContent', good, {});
      expect(gemini.status).toBe(404);
      expect(await gemini.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    });

    it('serves no native, admin or console route, nor /v1/models (the gateway keeps the catalog)', async () => {
      const good = { authorization: `Bearer ${apiKey}` };
      for (const path of ['/api/v1/models', '/api/v1/chat/credit', '/api/v1/jobs', '/api/v1/usage']) {
        const response = await get(compat, path, good);
        expect({ path, status: response.status }).toEqual({ path, status: 404 });
        expect(((await response.json()) as { code: number }).code).toBe(404);
      }
      const created = await post(compat, '/api/v1/jobs/createTask', good, {
        model: 'local/echo/chat',
        input: { messages },
      });
      expect(created.status).toBe(404);
      const streamed = await post(compat, '/api/v1/jobs/stream', good, {
        model: 'local/echo/chat',
        input: { messages },
      });
      expect(streamed.status).toBe(404);
      expect(streamed.headers.get('x-service-task-id')).toBeNull();
      expect((await get(compat, '/v1/models', good)).status).toBe(404);
      expect((await get(compat, '/console/v1/catalog/models')).status).toBe(404);
      expect((await get(compat, `/admin/v1/accounts/${accountId}`, admin)).status).toBe(404);
      expect((await get(compat, '/console/v1/session', consoleAuth)).status).toBe(404);
      expect((await get(compat, '/healthz')).status).toBe(200);
      expect((await get(compat, '/readyz')).status).toBe(200);
      // Its OpenAPI document lists the routes it serves, the compatibility family, and none of the gateway's.
      const paths = Object.keys(
        ((await (await get(compat, '/openapi.json')).json()) as { paths: object }).paths,
      );
      expect(paths.filter((p) => /^\/(api|admin|console)/.test(p) || p === '/v1/models')).toEqual([]);
      expect(paths.filter((p) => /^\/v1/.test(p)).sort()).toEqual([
        '/v1/chat/completions',
        '/v1/messages',
        '/v1/responses',
        '/v1/videos',
        '/v1/videos/{id}',
        '/v1/videos/{id}/content',
        '/v1beta/models/{model}:generateContent',
        '/v1beta/models/{model}:streamGenerateContent',
      ]);
    });

    it("the two edges share the key's rate-limit bucket (Redis), and the gateway still serves the family", async () => {
      const good = { authorization: `Bearer ${apiKey}` };
      const first = await post(gateway, '/v1/chat/completions', good, { model: 'local/echo/chat', messages });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-service-task-id')).toMatch(/^job_/);
      const second = await post(compat, '/v1/chat/completions', good, { model: 'local/echo/chat', messages });
      expect(second.status).toBe(200);
      expect(second.headers.get('x-ratelimit-limit')).toBe('1000');
      // An in-memory bucket per process would not see the gateway's token.
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      );
    });
  });

  describe('one entry point (the gateway serves every public route family)', () => {
    it('the gateway serves the webhook deliveries (admin) and endpoints (console)', async () => {
      const deliveries = await get(
        gateway,
        '/admin/v1/webhook-deliveries?taskId=job_01JZZZZZZZZZZZZZZZZZZZZZZZ',
        admin,
      );
      expect(deliveries.status).toBe(200);
      expect(((await deliveries.json()) as { code: number }).code).toBe(200);
      expect(
        (await get(gateway, '/admin/v1/webhook-deliveries', { authorization: 'Bearer nope' })).status,
      ).toBe(401);

      const endpoints = await get(gateway, '/console/v1/webhook-endpoints', consoleAuth);
      expect(endpoints.status).toBe(200);
      expect(((await endpoints.json()) as { data: { items: unknown[] } }).data.items).toEqual([]);
      expect((await get(gateway, '/console/v1/webhook-events', consoleAuth)).status).toBe(200);
      expect((await get(gateway, '/console/v1/webhook-endpoints')).status).toBe(401);
    });

    it('`npm run cli -- webhooks deliveries` works against the gateway', () => {
      const out = execFileSync(
        process.execPath,
        [
          join(root, 'dist', 'apps', 'cli', 'src', 'main.js'),
          '--url',
          gateway.baseUrl,
          '--admin-token',
          admin['authorization']!.slice('Bearer '.length),
          'webhooks',
          'deliveries',
          '--task',
          'job_01JZZZZZZZZZZZZZZZZZZZZZZZ',
        ],
        { env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir } },
      ).toString();
      expect(JSON.parse(out)).toEqual(expect.objectContaining({ items: [] }));
    });

    it('the gateway documents every public family it serves', async () => {
      const paths = Object.keys(
        ((await (await get(gateway, '/openapi.json')).json()) as { paths: object }).paths,
      );
      for (const path of [
        '/api/v1/jobs/createTask',
        '/api/v1/models',
        '/admin/v1/webhook-deliveries',
        '/console/v1/webhook-endpoints',
        '/v1/models',
        '/v1/chat/completions',
        '/v1beta/models/{model}:streamGenerateContent',
        '/v1/videos/{id}/content',
      ])
        expect(paths).toContain(path);
    });

    it('the tasks app takes no task: createTask on its port answers 404 and creates nothing', async () => {
      const tasks = others.get('tasks')!;
      const history = async () => {
        const reply = await get(gateway, '/api/v1/jobs', { authorization: `Bearer ${apiKey}` });
        expect(reply.status).toBe(200);
        // Ids only: the compatibility tasks above may still be settling.
        return ((await reply.json()) as { data: { items: { taskId: string }[] } }).data.items.map(
          (task) => task.taskId,
        );
      };
      const before = await history();
      const created = await fetch(`${tasks.baseUrl}/api/v1/jobs/createTask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'local/sketch', input: { prompt: 'a cat' } }),
      });
      expect(created.status).toBe(404);
      expect(((await created.json()) as { code: number }).code).toBe(404);
      // The compatibility tests above made the only tasks; this call added none.
      expect(await history()).toEqual(before);
    });

    it('the webhooks app serves neither the endpoints nor the deliveries', async () => {
      const webhooks = others.get('webhooks')!;
      const deliveries = await get(
        webhooks,
        '/admin/v1/webhook-deliveries?taskId=job_01JZZZZZZZZZZZZZZZZZZZZZZZ',
        admin,
      );
      expect(deliveries.status).toBe(404);
      expect(((await deliveries.json()) as { code: number }).code).toBe(404);
      expect((await get(webhooks, '/console/v1/webhook-endpoints', consoleAuth)).status).toBe(404);
    });
  });

  describe('media serves the media family, and only that', () => {
    it("an upload ticket, the PUT and the commit on its own port; the file is the account's everywhere", async () => {
      const good = { authorization: `Bearer ${apiKey}` };
      // A 1x1 PNG.
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      );
      const ticket = await post(media, '/api/v1/common/upload-url', good, {
        fileName: 'dot.png',
        contentType: 'image/png',
        bytes: png.length,
      });
      expect(ticket.status).toBe(200);
      const { fileId, uploadUrl, headers } = ((await ticket.json()) as { data: Json }).data as {
        fileId: string;
        uploadUrl: string;
        headers: Record<string, string>;
      };
      expect(fileId).toMatch(/^fil_/);
      expect((await fetch(uploadUrl, { method: 'PUT', headers, body: png })).status).toBe(200);
      const committed = await post(media, `/api/v1/files/${fileId}/commit`, good, {});
      expect(committed.status).toBe(200);
      const file = ((await committed.json()) as { data: Json }).data;
      expect(file).toMatchObject({
        fileId,
        uri: `service://files/${fileId}`,
        state: 'ready',
        width: 1,
        height: 1,
      });
      // The gateway serves the family too, over the same tables: the commit is the same record there.
      const again = await post(gateway, `/api/v1/files/${fileId}/commit`, good, {});
      expect(((await again.json()) as { data: Json }).data).toEqual(file);
      // The asset library on the media app.
      const saved = await post(
        media,
        '/api/v1/assets',
        { ...good, 'idempotency-key': 'fleet-1' },
        { uri: file['uri'] },
      );
      expect(saved.status).toBe(200);
      expect((await get(media, '/api/v1/assets/usage', good)).status).toBe(200);
    });

    it('refuses a bad key, and serves none of the other families', async () => {
      const bad = await post(
        media,
        '/api/v1/common/upload-url',
        { authorization: 'Bearer gts_nope' },
        {
          fileName: 'a.png',
          contentType: 'image/png',
          bytes: 10,
        },
      );
      expect(bad.status).toBe(401);
      const good = { authorization: `Bearer ${apiKey}` };
      for (const path of ['/api/v1/models', '/api/v1/jobs', '/v1/models', '/api/v1/chat/credit']) {
        expect({ path, status: (await get(media, path, good)).status }).toEqual({ path, status: 404 });
      }
      expect((await post(media, '/v1/chat/completions', good, { model: 'local/echo/chat' })).status).toBe(
        404,
      );
      const paths = Object.keys(
        ((await (await get(media, '/openapi.json')).json()) as { paths: object }).paths,
      );
      expect(paths).toEqual(expect.arrayContaining(['/api/v1/common/upload-url', '/api/v1/assets']));
      expect(paths.filter((p) => /^\/(v1|v1beta)\/|^\/api\/v1\/jobs/.test(p))).toEqual([]);
    });
  });
});
