import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { FakeImagesUpstream, samplePng } from '@gen/providers/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
type Json = Record<string, unknown>;

/** An image model behind the fake upstream whose breaker opens after 3 failures and probes after 2 s. */
function flakyModel(baseUrl: string): Json {
  return {
    id: 'acme/flaky',
    name: 'Flaky',
    description: 'Images from an upstream that fails (e2e).',
    enabled: true,
    modality: 'image',
    task: 'text-to-image',
    created: '2026-03-01',
    provider: {
      adapter: 'openai-images',
      upstreamModel: 'pics-1',
      credentials: ['ACME_PICS_KEY'],
      settings: { baseUrl, maxAttempts: 1, breakerVolume: 3, breakerResetMs: 2000 },
    },
    usageBound: { images: 1 },
    pricing: { perImage: '0.01' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['prompt'],
      properties: { prompt: { type: 'string', minLength: 1, maxLength: 200 } },
    },
    examples: [{ input: { prompt: 'a fox' } }],
  };
}

/**
 * The breaker of an upstream is shared by the fleet through Redis: the runner process trips it, and the
 * catalog and tasks processes (which never call the upstream) list the model unavailable within a second and
 * refuse new tasks with 50301, holding nothing.
 */
describe('an open circuit reaches the whole fleet through Redis (distributed mode)', () => {
  let database: ScratchDatabase;
  let dataDir: string;
  let upstream: FakeImagesUpstream;
  const apps: AppProcess[] = [];
  let ingress: AppsIngress;
  let auth: Record<string, string>;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    upstream = await FakeImagesUpstream.start();
    database = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-breaker-'));
    const shipped = JSON.parse(readFileSync(join(root, 'libs/catalog/catalog/models.json'), 'utf8')) as {
      models: Json[];
    };
    const catalogFile = join(dataDir, 'models.json');
    writeFileSync(
      catalogFile,
      JSON.stringify({ version: 1, models: [...shipped.models, flakyModel(upstream.baseUrl)] }),
    );
    const fleet = `breaker-${randomBytes(4).toString('hex')}`;
    const env = {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      CATALOG_FILE: catalogFile,
      ACME_PICS_KEY: 'sk-e2e',
      KAFKA_TOPIC_PREFIX: `${fleet}.`,
      REDIS_KEY_PREFIX: `${fleet}:`,
    };
    // Together: the gateway's first start credits the demo account through the billing app (service calls).
    const calls = await serviceCalls();
    apps.push(
      ...(await Promise.all(
        ['gateway', 'runner', 'tasks', 'billing', 'catalog'].map((app) =>
          startAppProcess(app, { ...env, ...calls.env(app) }),
        ),
      )),
    );
    ingress = await startIngress(apps);
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
    };
    auth = { authorization: `Bearer ${apiKey}` };
  });

  afterAll(async () => {
    ingress?.close();
    const codes = await Promise.all(apps.map((app) => app.stop()));
    await upstream?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    expect(codes.filter((code) => code !== 0)).toEqual([]);
  });

  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${ingress.baseUrl}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Json };
  }

  async function settled(taskId: string): Promise<Json> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const task = (await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`)).json['data'] as Json;
      if (task['settled'] === true) return task;
      if (Date.now() > deadline) throw new Error(`${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function available(): Promise<unknown> {
    const reply = await call('GET', `/api/v1/models/${encodeURIComponent('acme/flaky')}`);
    return (reply.json['data'] as Json)['available'];
  }

  it('the runner trips the breaker; the catalog shows it within a second and refuses with 50301; a probe recovers', async () => {
    expect(await available()).toBe(true);
    const boom = FakeImagesUpstream.error(500, { message: 'boom', type: 'server_error' });
    upstream.answer(boom, boom, boom);
    for (let i = 0; i < 3; i += 1) {
      const created = await call('POST', '/api/v1/jobs/createTask', {
        model: 'acme/flaky',
        input: { prompt: 'a fox' },
      });
      expect(created.status).toBe(202);
      const taskId = (created.json['data'] as Json)['taskId'] as string;
      expect(await settled(taskId)).toMatchObject({
        state: 'failed',
        errorCode: 'upstream_failed',
        cost: '0',
      });
    }
    const started = Date.now();
    while ((await available()) !== false) {
      if (Date.now() - started > 1000) throw new Error('the catalog still lists the model available');
      await new Promise((r) => setTimeout(r, 50));
    }
    // Each app reads the shared circuit marks every 250 ms on its own timer: the catalog app's view is not the
    // tasks app's. Two of its refreshes later the tasks app has it too (CI once sent the createTask below in the
    // moment between the two).
    await new Promise((r) => setTimeout(r, 600));
    const before = (await call('GET', '/api/v1/chat/credit')).json['data'];
    const refused = await call('POST', '/api/v1/jobs/createTask', {
      model: 'acme/flaky',
      input: { prompt: 'x' },
    });
    expect([refused.status, refused.json['code']]).toEqual([503, 50301]);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect((await call('GET', '/api/v1/chat/credit')).json['data']).toEqual(before);
    expect(upstream.generations).toHaveLength(3);

    // The mark expires when the breaker would let a probe through; the probe's success closes it.
    const reset = Date.now();
    while ((await available()) !== true) {
      if (Date.now() - reset > 6000) throw new Error('the circuit never let a probe through');
      await new Promise((r) => setTimeout(r, 100));
    }
    upstream.answer(FakeImagesUpstream.b64([samplePng(32, 32)]));
    const probe = await call('POST', '/api/v1/jobs/createTask', {
      model: 'acme/flaky',
      input: { prompt: 'y' },
    });
    expect(probe.status).toBe(202);
    expect(await settled((probe.json['data'] as Json)['taskId'] as string)).toMatchObject({
      state: 'succeeded',
      cost: '0.01',
    });
    expect(await available()).toBe(true);
  });
});
