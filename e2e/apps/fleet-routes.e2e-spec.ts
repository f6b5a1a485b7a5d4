import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceSettings, startAppProcess, type AppProcess } from '../support/app-process';

const root = join(__dirname, '..', '..');

/** Every app but the gateway: none serves a public route (docs/architecture.md, "Which app serves which routes"). */
const OTHERS = ['compat-protocols', 'catalog', 'tasks', 'billing', 'media', 'runner', 'webhooks'] as const;

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
    };
    gateway = await startAppProcess('gateway', env);
    const started = await Promise.all(OTHERS.map((app) => startAppProcess(app, env)));
    for (const app of started) others.set(app.name, app);
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
    await Promise.all([gateway, ...others.values()].filter(Boolean).map((app) => app.stop()));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (app: AppProcess, path: string, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}${path}`, { headers });

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
        // Valid admin and console credentials too: the apps that host the accounts module for its ports know
        // them, and still serve none of their routes.
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
      for (const app of [gateway, ...others.values()]) {
        expect({ app: app.name, errors: errorLines(app.output()) }).toEqual({ app: app.name, errors: [] });
        expect(app.output()).not.toContain('could not find');
      }
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
      ])
        expect(paths).toContain(path);
    });

    it('the tasks app takes no task: createTask on its port answers 404 and creates nothing', async () => {
      const tasks = others.get('tasks')!;
      const created = await fetch(`${tasks.baseUrl}/api/v1/jobs/createTask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'local/sketch', input: { prompt: 'a cat' } }),
      });
      expect(created.status).toBe(404);
      expect(((await created.json()) as { code: number }).code).toBe(404);
      const history = await get(gateway, '/api/v1/jobs', { authorization: `Bearer ${apiKey}` });
      expect(history.status).toBe(200);
      expect(((await history.json()) as { data: { items: unknown[] } }).data.items).toEqual([]);
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
});
