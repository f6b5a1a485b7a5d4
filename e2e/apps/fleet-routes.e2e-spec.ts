import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  serviceCalls,
  serviceSettings,
  startAppProcess,
  startIngress,
  type AppProcess,
  type AppsIngress,
} from '../support/app-process';

const root = join(__dirname, '..', '..');

/** The apps started besides the gateway, compat-protocols and media, which the tests below name. */
const OTHERS = ['catalog', 'tasks', 'billing', 'runner', 'webhooks'] as const;

type Credential = 'key' | 'admin' | 'console' | 'none';

/**
 * A route of each app that serves routes (docs/architecture.md, "Which app serves which routes"), with the
 * credential it takes: each app serves its own and none of the others'. The runner serves none.
 */
const SAMPLE_ROUTES: readonly { app: string; path: string; credential: Credential; documented: string }[] = [
  {
    app: 'gateway',
    path: '/admin/v1/accounts/{accountId}',
    credential: 'admin',
    documented: '/admin/v1/accounts/{accountId}',
  },
  { app: 'gateway', path: '/console/v1/session', credential: 'console', documented: '/console/v1/session' },
  { app: 'tasks', path: '/api/v1/jobs', credential: 'key', documented: '/api/v1/jobs' },
  { app: 'billing', path: '/api/v1/chat/credit', credential: 'key', documented: '/api/v1/chat/credit' },
  { app: 'catalog', path: '/api/v1/models', credential: 'key', documented: '/api/v1/models' },
  { app: 'catalog', path: '/v1/models', credential: 'key', documented: '/v1/models' },
  {
    app: 'catalog',
    path: '/console/v1/catalog/models',
    credential: 'none',
    documented: '/console/v1/catalog/models',
  },
  {
    app: 'webhooks',
    path: '/console/v1/webhook-endpoints',
    credential: 'console',
    documented: '/console/v1/webhook-endpoints',
  },
  {
    app: 'webhooks',
    path: '/admin/v1/webhook-deliveries?taskId=job_01JZZZZZZZZZZZZZZZZZZZZZZZ',
    credential: 'admin',
    documented: '/admin/v1/webhook-deliveries',
  },
  { app: 'media', path: '/api/v1/assets', credential: 'key', documented: '/api/v1/assets' },
];

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
  let ingress: AppsIngress;
  const appNamed = (name: string): AppProcess =>
    ({ gateway, 'compat-protocols': compat, media })[name] ?? others.get(name)!;

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
    ingress = await startIngress([gateway, compat, media, ...others.values()]);
  }, 240_000);

  afterAll(async () => {
    ingress?.close();
    await Promise.all([gateway, compat, media, ...others.values()].filter(Boolean).map((app) => app.stop()));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const billing = (): AppProcess => others.get('billing')!;
  // An app's own port, or the ingress in front of them all.
  const get = (app: { baseUrl: string }, path: string, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}${path}`, { headers });
  const post = (app: { baseUrl: string }, path: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${app.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  describe('each app serves its own routes with the credentials they take, and none of the others', () => {
    const credentials = (credential: Credential): Record<string, string> =>
      ({
        key: { authorization: `Bearer ${apiKey}` },
        admin,
        console: consoleAuth,
        none: {},
      })[credential];
    const bad: Record<Exclude<Credential, 'none'>, Record<string, string>> = {
      key: { authorization: 'Bearer gts_nope' },
      admin: { authorization: 'Bearer adm_nope' },
      console: { authorization: 'Bearer cst_nope' },
    };
    const pathOf = (route: (typeof SAMPLE_ROUTES)[number]) => route.path.replace('{accountId}', accountId);

    it.each(['gateway', 'tasks', 'billing', 'catalog', 'webhooks', 'media', 'runner'])(
      '%s: its routes answer 200 with their credential and 401 with a bad one; the others 404',
      async (name) => {
        const app = appNamed(name);
        for (const route of SAMPLE_ROUTES) {
          const path = pathOf(route);
          const good = await get(app, path, credentials(route.credential));
          const expected = route.app === name ? 200 : 404;
          expect({ path, status: good.status }).toEqual({ path, status: expected });
          if (route.app === name && route.credential !== 'none') {
            const refused = await get(app, path, bad[route.credential]);
            expect({ path, status: refused.status }).toEqual({ path, status: 401 });
          }
        }
        expect((await get(app, '/healthz')).status).toBe(200);
        // Its OpenAPI document lists its own routes; the gateway's is the whole API's, the others' only theirs.
        const paths = Object.keys(
          ((await (await get(app, '/openapi.json')).json()) as { paths: object }).paths,
        );
        for (const route of SAMPLE_ROUTES) {
          const listed = name === 'gateway' || route.app === name;
          expect({ route: route.documented, listed: paths.includes(route.documented) }).toEqual({
            route: route.documented,
            listed,
          });
        }
      },
    );

    it('through the ingress, every route reaches the app that serves it', async () => {
      for (const route of SAMPLE_ROUTES) {
        const path = pathOf(route);
        const response = await fetch(`${ingress.baseUrl}${path}`, { headers: credentials(route.credential) });
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
      }
    });

    it("the gateway forwards the admin routes under /admin/v1/accounts/{id}/ that are billing's and media's", async () => {
      // Media's asset limits: the same answer through the gateway (forwarded) as from media itself.
      const limits = `/admin/v1/accounts/${accountId}/asset-limits`;
      const direct = await get(media, limits, admin);
      expect(direct.status).toBe(200);
      const forwarded = await get(gateway, limits, admin);
      expect(forwarded.status).toBe(200);
      const data = (response: Json) => response['data'];
      expect(data((await forwarded.json()) as Json)).toEqual(data((await direct.json()) as Json));
      expect((await get(gateway, limits, bad.admin)).status).toBe(401);
      // Billing's credit route, through the ingress: the balance grows by exactly the credit.
      const balance = async () =>
        ((await (await get(billing(), '/api/v1/chat/credit', credentials('key'))).json()) as { data: Json })
          .data['available'];
      const before = await balance();
      const credited = await fetch(`${ingress.baseUrl}/admin/v1/accounts/${accountId}/credits`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: '1.25' }),
      });
      expect(credited.status).toBe(200);
      expect(await credited.json()).toMatchObject({ code: 200, data: { accountId } });
      expect(Number(await balance()) - Number(before)).toBeCloseTo(1.25, 9);
    });

    it('no app logged an error while starting and serving', () => {
      for (const app of [gateway, compat, media, ...others.values()]) {
        expect({ app: app.name, errors: errorLines(app.output()) }).toEqual({ app: app.name, errors: [] });
        expect(app.output()).not.toContain('could not find');
        // kafkajs' negative timer delay is dropped (libs/messaging), not written to stderr.
        expect(app.output()).not.toContain('TimeoutNegativeWarning');
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
      // The task is the account's like any other: the tasks app's recordInfo finds it.
      const info = await get(others.get('tasks')!, `/api/v1/jobs/recordInfo?taskId=${taskId}`, good);
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

    it("through the ingress, Google's methods under /v1/models/ reach compat-protocols, the model list the catalog", async () => {
      // Where @google/genai 3.x calls by default (no apiVersion): /v1, not /v1beta.
      const google = { 'x-goog-api-key': apiKey };
      const contents = { contents: [{ role: 'user', parts: [{ text: 'hello over v1' }] }] };
      const whole = await post(ingress, '/v1/models/local/echo/chat:generateContent', google, contents);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('x-service-task-id')).toMatch(/^job_/);
      expect(await whole.json()).toMatchObject({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Echo: hello over v1' }] } }],
      });
      const sse = await post(
        ingress,
        '/v1/models/local/echo/chat:streamGenerateContent?alt=sse',
        google,
        contents,
      );
      expect([sse.status, sse.headers.get('content-type')]).toEqual([
        200,
        'text/event-stream; charset=utf-8',
      ]);
      // The answer streams a token a chunk: the chunks' text parts joined are the whole answer.
      const streamed = (await sse.text())
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map(
          (line) =>
            JSON.parse(line.slice('data: '.length)) as {
              candidates?: { content?: { parts?: { text?: string }[] } }[];
            },
        )
        .flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? [])
        .map((part) => part.text ?? '')
        .join('');
      expect(streamed).toBe('Echo: hello over v1');
      const unknown = await post(ingress, '/v1/models/nobody/none/chat:generateContent', google, contents);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
      const list = await get(ingress, '/v1/models', { authorization: `Bearer ${apiKey}` });
      expect(list.status).toBe(200);
      expect(await list.json()).toMatchObject({ object: 'list' });
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

    it('serves no native, admin or console route, nor /v1/models (the catalog app serves it)', async () => {
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
        '/v1/models/{model}:generateContent',
        '/v1/models/{model}:streamGenerateContent',
        '/v1/responses',
        '/v1/videos',
        '/v1/videos/{id}',
        '/v1/videos/{id}/content',
        '/v1beta/models/{model}:generateContent',
        '/v1beta/models/{model}:streamGenerateContent',
      ]);
    });

    it("the apps share the key's rate-limit bucket (Redis): billing's route, then compat-protocols'", async () => {
      const good = { authorization: `Bearer ${apiKey}` };
      const first = await get(billing(), '/api/v1/chat/credit', good);
      expect(first.status).toBe(200);
      const second = await post(compat, '/v1/chat/completions', good, { model: 'local/echo/chat', messages });
      expect(second.status).toBe(200);
      expect(second.headers.get('x-ratelimit-limit')).toBe('1000');
      // An in-memory bucket per process would not see billing's token.
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      );
    });
  });

  describe('the admin and console routes of other apps', () => {
    it('`npm run cli -- webhooks deliveries` works against the ingress', async () => {
      // Not execFileSync: the ingress runs in this process and must keep serving while the CLI waits.
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          join(root, 'dist', 'apps', 'cli', 'src', 'main.js'),
          '--url',
          ingress.baseUrl,
          '--admin-token',
          admin['authorization']!.slice('Bearer '.length),
          'webhooks',
          'deliveries',
          '--task',
          'job_01JZZZZZZZZZZZZZZZZZZZZZZZ',
        ],
        { env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir } },
      );
      expect(JSON.parse(stdout)).toEqual(expect.objectContaining({ items: [] }));
    });

    it('the gateway documents every public family', async () => {
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

    it('the gateway takes no task: createTask on its port answers 404 and creates nothing', async () => {
      const tasks = others.get('tasks')!;
      const history = async () => {
        const reply = await get(tasks, '/api/v1/jobs', { authorization: `Bearer ${apiKey}` });
        expect(reply.status).toBe(200);
        // Ids only: the compatibility tasks above may still be settling.
        return ((await reply.json()) as { data: { items: { taskId: string }[] } }).data.items.map(
          (task) => task.taskId,
        );
      };
      const before = await history();
      const created = await fetch(`${gateway.baseUrl}/api/v1/jobs/createTask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'local/sketch', input: { prompt: 'a cat' } }),
      });
      expect(created.status).toBe(404);
      expect(((await created.json()) as { code: number }).code).toBe(404);
      expect(await history()).toEqual(before);
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
      // Committing again answers the same record; the gateway does not serve the family.
      const again = await post(media, `/api/v1/files/${fileId}/commit`, good, {});
      expect(((await again.json()) as { data: Json }).data).toEqual(file);
      expect((await post(gateway, `/api/v1/files/${fileId}/commit`, good, {})).status).toBe(404);
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
