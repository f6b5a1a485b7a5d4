import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:http';
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

/**
 * The whole native task flow in distributed mode: the gateway, compat-protocols, tasks, billing, webhooks,
 * catalog and runner apps as separate processes over PostgreSQL, Kafka, Redis and S3. The client talks to them
 * through the fleet's ingress, which sends each route to the app that serves it.
 */
describe('the task flow across separate processes (distributed mode)', () => {
  let database: ScratchDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  const apps: AppProcess[] = [];
  let gateway: AppProcess;
  let tasks: AppProcess;
  let compat: AppProcess;
  let ingress: AppsIngress;
  let runner: AppProcess;
  let auth: Record<string, string>;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    database = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-task-flow-'));
    env = {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      TASK_DEADLINE_SECONDS: '8',
      // The callback receiver below listens on port 80 of a loopback address.
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      // Info: the task trail of every app is checked below.
      LOG_LEVEL: process.env['E2E_LOG_LEVEL'] ?? 'info',
    };
    // Migrations run under advisory locks, so the apps may start together; they must: the gateway's first
    // start credits the demo account through the billing app (service calls).
    const calls = await serviceCalls();
    const start = (app: string) => startAppProcess(app, { ...env, ...calls.env(app) });
    apps.push(
      ...(await Promise.all(
        ['gateway', 'runner', 'tasks', 'billing', 'webhooks', 'compat-protocols', 'catalog'].map(start),
      )),
    );
    [gateway, runner, tasks] = [apps[0]!, apps[1]!, apps[2]!];
    compat = apps.find((app) => app.name === 'compat-protocols')!;
    ingress = await startIngress(apps);
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
    };
    auth = { authorization: `Bearer ${apiKey}` };
  });

  afterAll(async () => {
    ingress?.close();
    const codes = await Promise.all(apps.map((app) => app.stop()));
    if (process.env['E2E_DUMP_DIR']) {
      for (const app of [...apps, runner])
        writeFileSync(join(process.env['E2E_DUMP_DIR'], `${app.name}.log`), app.output());
    }
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    // Every app drains and exits cleanly on SIGTERM (the killed runner is not in the list any more).
    expect(codes.filter((code) => code !== 0)).toEqual([]);
  });

  async function call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: Json; requestId: string }> {
    const response = await fetch(`${ingress.baseUrl}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      json: (await response.json()) as Json,
      requestId: response.headers.get('x-request-id') ?? '',
    };
  }

  async function until(taskId: string, done: (task: Json) => boolean, ms = 60_000): Promise<Json> {
    const deadline = Date.now() + ms;
    for (;;) {
      const reply = await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`);
      expect(reply.status).toBe(200);
      const task = reply.json['data'] as Json;
      if (done(task)) return task;
      if (Date.now() > deadline) throw new Error(`${taskId} stayed ${JSON.stringify(task)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const balance = async () => (await call('GET', '/api/v1/chat/credit')).json['data'] as Json;

  it('creates, runs and settles tasks; outputs are served from S3; failures give the hold back', async () => {
    const created = await call('POST', '/api/v1/jobs/createTask', {
      model: 'local/sketch',
      input: { prompt: 'a lighthouse', width: 64, height: 64 },
    });
    expect(created.status).toBe(202);
    const taskId = (created.json['data'] as Json)['taskId'] as string;
    const failed = await call('POST', '/api/v1/jobs/createTask', {
      model: 'local/tone',
      input: { text: 'no', simulate: 'upstream_failed' },
    });
    const failedId = (failed.json['data'] as Json)['taskId'] as string;

    const task = await until(taskId, (t) => t['settled'] === true);
    expect(task).toMatchObject({ state: 'succeeded', cost: '0.004', settled: true });
    const asset = (task['output'] as { assets: Json[] }).assets[0]!;
    const png = await fetch(asset['url'] as string);
    expect(png.status).toBe(200);
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
    expect(await until(failedId, (t) => t['settled'] === true)).toMatchObject({
      state: 'failed',
      errorCode: 'upstream_failed',
      cost: '0',
    });
    expect(await balance()).toMatchObject({ available: '24.996', held: '0' });
  });

  it('download tickets are presigned S3 GETs of an output, for the creating key only', async () => {
    const created = await call('POST', '/api/v1/jobs/createTask', {
      model: 'local/sketch',
      input: { prompt: 'a download', width: 64, height: 64, num_images: 2 },
    });
    const taskId = (created.json['data'] as Json)['taskId'] as string;
    const task = await until(taskId, (t) => t['settled'] === true);
    const assets = (task['output'] as { assets: { key: string; url: string; bytes: number }[] }).assets;
    const bytesOf = async (url: string) => {
      const response = await fetch(url);
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    for (const [body, asset] of [
      [{ taskId }, assets[0]!],
      [{ taskId, key: assets[1]!.key }, assets[1]!],
    ] as const) {
      const ticket = await call('POST', '/api/v1/common/download-url', body);
      expect(ticket.status).toBe(200);
      const { url, key, expiresAt } = ticket.json['data'] as { url: string; key: string; expiresAt: string };
      expect(key).toBe(asset.key);
      expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
      const downloaded = await bytesOf(url);
      expect([downloaded.status, downloaded.bytes.length]).toEqual([200, asset.bytes]);
      expect(downloaded.bytes.equals((await bytesOf(asset.url)).bytes)).toBe(true);
      // S3 checks the signature: a URL changed after signing is refused by the storage itself.
      const forged = new URL(url);
      const signature = forged.searchParams.get('X-Amz-Signature')!;
      forged.searchParams.set(
        'X-Amz-Signature',
        `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
      );
      expect((await bytesOf(forged.toString())).status).toBe(403);
    }
    const missing = await call('POST', '/api/v1/common/download-url', {
      taskId,
      key: `outputs/${taskId}/9.png`,
    });
    expect([missing.status, missing.json['code']]).toEqual([404, 404]);

    // Another key of the same account: 404, as for an unknown task.
    const { accountId, adminToken } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      accountId: string;
      adminToken: string;
    };
    const key = await fetch(`${ingress.baseUrl}/admin/v1/accounts/${accountId}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const { apiKey } = ((await key.json()) as { data: { apiKey: string } }).data;
    const sibling = await fetch(`${ingress.baseUrl}/api/v1/common/download-url`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ taskId }),
    });
    expect([sibling.status, ((await sibling.json()) as Json)['code']]).toEqual([404, 404]);
  });

  it('text runs across the fleet: a task in the runner, a stream in the tasks app, a chat completion in compat-protocols, each settled', async () => {
    const messages = [{ role: 'user', content: 'distributed hello' }];
    const created = await call('POST', '/api/v1/jobs/createTask', {
      model: 'local/echo/chat',
      input: { messages },
    });
    expect(created.status).toBe(202);
    const queued = await until(
      (created.json['data'] as Json)['taskId'] as string,
      (t) => t['settled'] === true,
    );
    expect(queued).toMatchObject({ state: 'succeeded', output: { text: 'Echo: distributed hello' } });

    const streamed = await fetch(`${ingress.baseUrl}/api/v1/jobs/stream`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/echo/chat', input: { messages } }),
    });
    expect(streamed.status).toBe(200);
    const body = await streamed.text();
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
    const streamedTask = await until(
      streamed.headers.get('x-service-task-id')!,
      (t) => t['settled'] === true,
    );
    expect(streamedTask).toMatchObject({ state: 'succeeded', output: { text: 'Echo: distributed hello' } });

    // A chat completion: the text runs in compat-protocols, where the client is, reports on task.execution,
    // and the tasks and billing apps settle it.
    const taskOf = new Map<AppProcess, string>();
    for (const edge of [compat]) {
      const completion = await fetch(`${ingress.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'local/echo/chat', messages }),
      });
      expect({ edge: edge.name, status: completion.status }).toEqual({ edge: edge.name, status: 200 });
      const answer = (await completion.json()) as { choices: { message: { content: string } }[] };
      expect(answer.choices[0]!.message.content).toBe('Echo: distributed hello');
      const taskId = completion.headers.get('x-service-task-id')!;
      expect(taskId).toMatch(/^job_/);
      taskOf.set(edge, taskId);
      const completed = await until(taskId, (t) => t['settled'] === true);
      expect(completed).toMatchObject({ state: 'succeeded', output: { text: 'Echo: distributed hello' } });
      expect(Number(completed['cost'])).toBeGreaterThan(0);
    }
    // The tasks app accepted both text tasks (the completion's over the service transport, for compat-protocols,
    // which owns no table and ran it where its client was); no other app accepted either.
    const accepted = (app: AppProcess, taskId: string): boolean =>
      app
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{') && line.includes(taskId))
        .some((line) => (JSON.parse(line) as Json)['msg'] === 'task accepted');
    const streamedId = streamed.headers.get('x-service-task-id')!;
    for (const taskId of [taskOf.get(compat)!, streamedId]) {
      expect(accepted(tasks, taskId)).toBe(true);
      expect(accepted(compat, taskId)).toBe(false);
      expect(accepted(gateway, taskId)).toBe(false);
    }
  });

  it('the webhooks app sends the signed callback of a finished task', async () => {
    const got: { headers: Record<string, unknown>; body: string }[] = [];
    const host = `127.0.0.${10 + Math.floor(Math.random() * 200)}`;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(80, host, resolve));
    try {
      const { accountId } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
        accountId: string;
      };
      const { adminToken } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
        adminToken: string;
      };
      const rotated = await fetch(`${ingress.baseUrl}/admin/v1/accounts/${accountId}/signing-secret/rotate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      const secret = ((await rotated.json()) as { data: { secret: string } }).data.secret;
      const created = await call('POST', '/api/v1/jobs/createTask', {
        model: 'local/sketch',
        input: { prompt: 'a kite', width: 64, height: 64 },
        callBackUrl: `http://${host}/hook`,
      });
      const taskId = (created.json['data'] as Json)['taskId'] as string;
      const deadline = Date.now() + 60_000;
      while (got.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(got).toHaveLength(1);
      const body = JSON.parse(got[0]!.body) as {
        request_id: string;
        data: { taskId: string; state: string };
      };
      expect(body.data).toMatchObject({ taskId, state: 'succeeded' });
      expect(body.request_id).toMatch(/^whd_/);
      const timestamp = String(got[0]!.headers['x-webhook-timestamp']);
      const digest = createHash('sha256').update(got[0]!.body).digest('hex');
      const expected = createHmac('sha256', secret)
        .update(`${taskId}.${timestamp}.${digest}`)
        .digest('base64');
      expect(got[0]!.headers['x-webhook-signature']).toBe(expected);

      // The task can be followed through the fleet: one info line per step, each with the task id, the
      // X-Request-Id of the createTask call and the app that wrote it.
      const requestId = created.requestId;
      const deadlineTrail = Date.now() + 10_000;
      const steps = (): string[] =>
        apps
          .flatMap((app) => app.output().split('\n'))
          .filter((line) => line.startsWith('{') && line.includes(taskId))
          .map((line) => JSON.parse(line) as Json)
          .filter((line) => line['taskId'] === taskId && 'msg' in line)
          .map(
            (line) => `${String(line['app'])}: ${String(line['msg'])} ${String(line['request_id'] ?? '-')}`,
          );
      const expectedSteps = [
        `tasks: task accepted ${requestId}`,
        `runner: task dispatched to the runner queue ${requestId}`,
        `runner: task started ${requestId}`,
        `runner: task succeeded ${requestId}`,
        `tasks: task running ${requestId}`,
        `tasks: task succeeded ${requestId}`,
        `billing: hold settled ${requestId}`,
        `tasks: task settled ${requestId}`,
        `webhooks: callback delivered -`,
      ];
      while (expectedSteps.some((step) => !steps().includes(step)) && Date.now() < deadlineTrail)
        await new Promise((r) => setTimeout(r, 100));
      expect(steps()).toEqual(expect.arrayContaining(expectedSteps));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a runner killed mid-task loses nothing: the task expires at its deadline and its hold is released', async () => {
    const before = await balance();
    const created = await call('POST', '/api/v1/jobs/createTask', {
      model: 'local/sketch',
      input: { prompt: 'never finished', width: 64, height: 64, delay_ms: 30_000 },
    });
    const taskId = (created.json['data'] as Json)['taskId'] as string;
    await until(taskId, (t) => t['state'] === 'running', 30_000);
    expect(await balance()).toMatchObject({ held: '0.004' });
    await runner.stop('SIGKILL');
    apps.splice(apps.indexOf(runner), 1);
    const task = await until(taskId, (t) => t['settled'] === true, 30_000);
    expect(task).toMatchObject({ state: 'expired', cost: '0', settled: true });
    expect(await balance()).toMatchObject({ available: before['available'], held: '0' });
  });
});
