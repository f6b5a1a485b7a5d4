import {
  createScratchPostgres,
  metricValue,
  OtlpReceiver,
  type ReceivedSpan,
  type ScratchDatabase,
} from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceCalls, serviceSettings, startAppProcess, type AppProcess } from '../support/app-process';

const root = join(__dirname, '..', '..');
type Json = Record<string, unknown>;

const TRACE_ID = randomBytes(16).toString('hex');
const CALLER_SPAN = randomBytes(8).toString('hex');

/**
 * OpenTelemetry across the fleet: the gateway, tasks, billing, runner, webhooks and catalog apps as processes
 * (distributed mode: PostgreSQL, Kafka, Redis, S3), each exporting its spans over OTLP/HTTP JSON to a test
 * receiver. One createTask with a `traceparent` becomes one trace: through the tasks outbox and Kafka to the
 * runner, its report back to tasks, the terminal event to webhooks and the callback.
 */
describe('one trace for a whole task across the fleet (distributed mode)', () => {
  let database: ScratchDatabase;
  let dataDir: string;
  let receiver: OtlpReceiver;
  let hook: Server;
  let hookUrl: string;
  const apps: AppProcess[] = [];
  const app = (name: string): AppProcess => apps.find((a) => a.name === name)!;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    database = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-traces-'));
    receiver = await OtlpReceiver.start();
    hook = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end());
    });
    const host = `127.0.0.${10 + Math.floor(Math.random() * 200)}`;
    await new Promise<void>((resolve) => hook.listen(80, host, resolve));
    hookUrl = `http://${host}/hook`;
    const run = randomBytes(4).toString('hex');
    const env = {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      // Topics, groups and keys of this test only: nothing left by another test reaches these apps.
      KAFKA_TOPIC_PREFIX: `e2e-traces-${run}.`,
      REDIS_KEY_PREFIX: `e2e-traces-${run}:`,
      S3_KEY_PREFIX: `e2e-traces-${run}/`,
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    };
    // Together: the gateway's first start credits the demo account through the billing app (service calls).
    const calls = await serviceCalls();
    apps.push(
      ...(await Promise.all(
        ['gateway', 'tasks', 'billing', 'runner', 'webhooks', 'catalog'].map((name) =>
          startAppProcess(name, { ...env, ...calls.env(name) }),
        ),
      )),
    );
  });

  afterAll(async () => {
    const codes = await Promise.all(apps.map((a) => a.stop()));
    await receiver?.close();
    await new Promise((resolve) => hook?.close(resolve));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    expect(codes.filter((code) => code !== 0)).toEqual([]);
  });

  it('createTask -> tasks (-> gateway, billing over service calls) -> runner -> tasks -> billing, webhooks: one trace id, each span under its cause', async () => {
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
    };
    const created = await fetch(`${app('tasks').baseUrl}/api/v1/jobs/createTask`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
      },
      body: JSON.stringify({
        model: 'local/sketch',
        input: { prompt: 'a traced kite', width: 64, height: 64 },
        callBackUrl: hookUrl,
      }),
    });
    expect(created.status).toBe(202);
    const taskId = ((await created.json()) as { data: Json }).data['taskId'] as string;

    // Each process exports on its own schedule: the webhooks app's callback span can arrive before the tasks
    // app's span that caused it. Wait for the whole trace: the callback, and every span's parent.
    const spans = await receiver.until((all) => {
      const trace = all.filter((s) => s.traceId === TRACE_ID);
      const ids = new Set(trace.map((s) => s.spanId));
      const whole = trace.every(
        (s) => !s.parentSpanId || s.parentSpanId === CALLER_SPAN || ids.has(s.parentSpanId),
      );
      return whole && trace.some((s) => s.name === 'webhook callback') && trace;
    });
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentOf = (span: ReceivedSpan | undefined) =>
      span?.parentSpanId ? byId.get(span.parentSpanId) : undefined;
    const find = (service: string, name: string, group?: string): ReceivedSpan => {
      const found = spans.find(
        (s) =>
          s.service === service &&
          s.name.endsWith(name) &&
          (group === undefined ||
            s.attributes['messaging.consumer.group.name']?.toString().startsWith(group)),
      );
      if (!found) throw new Error(`no ${service} span ${name}:\n${receiver.describe(spans)}`);
      return found;
    };

    // Spans of five processes share the caller's trace id.
    expect([...new Set(spans.map((s) => s.service))].sort()).toEqual([
      'billing',
      'gateway',
      'runner',
      'tasks',
      'webhooks',
    ]);
    const request = find('tasks', 'POST /api/v1/jobs/createTask');
    expect(request).toMatchObject({ kind: 2, parentSpanId: CALLER_SPAN });
    // Service calls carry the trace: the key check in the gateway and the hold in billing are children of the
    // tasks app's client spans, under the request.
    for (const [callee, method] of [
      ['gateway', 'accounts.apiKeys.authenticate'],
      ['billing', 'billing.holds.reserve'],
    ] as const) {
      const answered = find(callee, `answer ${method}`);
      expect(answered.kind).toBe(2);
      const caller = parentOf(answered);
      expect(caller).toMatchObject({ service: 'tasks', kind: 3, name: `call ${method}` });
      let ancestor = parentOf(caller);
      while (ancestor && ancestor !== request) ancestor = parentOf(ancestor);
      expect(ancestor).toBe(request);
    }
    // The tasks app relays the row its request wrote: its producer span continues the request (outbox hop).
    const relayed = spans.find(
      (s) =>
        s.service === 'tasks' &&
        s.kind === 4 &&
        s.name.endsWith('task.lifecycle publish') &&
        parentOf(s) === request,
    );
    expect(relayed).toBeDefined();
    // The runner consumes it (W3C headers in the Kafka message), queues the task, runs it, reports it.
    const execute = find('runner', 'execute task');
    expect(execute.attributes['gen.task_id']).toBe(taskId);
    const consumed = parentOf(execute);
    expect(consumed).toMatchObject({ service: 'runner', kind: 5 });
    expect(consumed!.name).toMatch(/task\.lifecycle process$/);
    expect(consumed!.attributes['messaging.consumer.group.name']).toMatch(
      /\.runner@e2e-traces-.*task\.lifecycle$/,
    );
    expect(parentOf(consumed)).toBe(relayed);
    const report = find('runner', 'task.execution publish');
    expect(parentOf(report)).toBe(execute);
    const applied = spans.filter((s) => s.service === 'tasks' && s.name.endsWith('task.execution process'));
    expect(applied.length).toBeGreaterThanOrEqual(2);
    for (const span of applied) expect(parentOf(parentOf(span))).toBe(execute);
    // The terminal event, relayed by tasks, consumed by webhooks, which sends the callback.
    const callback = find('webhooks', 'webhook callback');
    expect(callback).toMatchObject({
      kind: 3,
      attributes: { 'gen.task_id': taskId, 'gen.webhook.outcome': 'delivered' },
    });
    const queued = parentOf(callback)!;
    expect(queued).toMatchObject({ service: 'webhooks', kind: 5 });
    const terminal = parentOf(queued)!;
    expect(terminal).toMatchObject({ service: 'tasks', kind: 4 });
    expect(applied).toContain(parentOf(terminal));
  });

  it('every app serves its metrics: consumer lag and outbox depth where they consume and relay', async () => {
    const text = async (name: string) => (await fetch(`${app(name).baseUrl}/metrics`)).text();
    const tasks = await text('tasks');
    const prefix = /kafka_consumer_lag\{topic="(e2e-traces-[^"]+)\.task\.execution"/.exec(tasks)?.[1];
    expect(prefix).toBeDefined();
    expect(
      metricValue(tasks, 'kafka_consumer_lag', {
        topic: `${prefix}.task.execution`,
        group: `${prefix}.tasks@${prefix}.task.execution`,
      }),
    ).toBeGreaterThanOrEqual(0);
    expect(metricValue(tasks, 'outbox_rows', { schema: 'tasks' })).toBeGreaterThanOrEqual(0);
    expect(metricValue(await text('billing'), 'billing_open_holds')).toBeGreaterThanOrEqual(0);
    expect(metricValue(await text('webhooks'), 'webhook_deliveries_pending', { kind: 'callback' })).toBe(0);
    // The tasks app took the createTask; the gateway (accounts) consumes nothing: no lag family at all.
    expect(
      metricValue(tasks, 'http_server_request_duration_seconds_count', { family: 'native', status: '202' }),
    ).toBe(1);
    expect(await text('gateway')).not.toContain('kafka_consumer_lag');
  });
});
