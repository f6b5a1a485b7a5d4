import { createServer, type Server } from 'node:http';
import { startTracing, stopTracing } from '@gen/observability';
import { OtlpReceiver, type ReceivedSpan } from '@gen/testing';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

type Json = Record<string, unknown>;
jest.setTimeout(90_000);

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

/**
 * One task through the embedded app with tracing on: the caller's `traceparent` is continued by the request's
 * span, survives the outbox row (its envelope), the in-process bus, the runner queue (its row), the execution
 * report and the webhook delivery queue (its row), so every span of the task's work is in the caller's trace.
 */
describe('traces of a task in embedded mode', () => {
  let receiver: OtlpReceiver;
  let app: Embedded;
  let hook: Server;
  let hookUrl: string;
  const callbacks: string[] = [];

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    startTracing({
      serviceName: 'embedded-test',
      tracesUrl: `${receiver.endpoint}/v1/traces`,
      scheduledDelayMs: 100,
    });
    app = await startEmbedded({ WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', LOG_LEVEL: 'warn' });
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        callbacks.push(body);
        // The receiver is a third party: it is sent no trace context.
        if (req.headers['traceparent'] !== undefined) res.writeHead(500);
        res.end();
      });
    });
    const host = `127.0.0.${2 + Math.floor(Math.random() * 200)}`;
    await new Promise<void>((resolve) => hook.listen(80, host, resolve));
    hookUrl = `http://${host}/hook`;
  });
  afterAll(async () => {
    await app.close();
    await stopTracing();
    await receiver.close();
    await new Promise((resolve) => hook.close(resolve));
  });

  it("keeps the caller's trace id from createTask to the callback, each span under the step that caused it", async () => {
    const created = await app.call('POST', '/api/v1/jobs/createTask', {
      headers: {
        authorization: `Bearer ${app.boot.apiKey}`,
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
      },
      body: {
        model: 'local/sketch',
        input: { prompt: 'a kite', width: 64, height: 64 },
        callBackUrl: hookUrl,
      },
    });
    expect(created.status).toBe(202);
    const taskId = (created.json['data'] as Json)['taskId'] as string;

    const spans = await receiver.until((all) => {
      const trace = all.filter((s) => s.traceId === TRACE_ID);
      return trace.some((s) => s.name === 'webhook callback') && trace;
    });
    const named = (name: string): ReceivedSpan[] => spans.filter((s) => s.name === name);
    const one = (name: string): ReceivedSpan => {
      const found = named(name);
      if (found.length !== 1)
        throw new Error(`${found.length} spans named ${name}:\n${receiver.describe(spans)}`);
      return found[0]!;
    };
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentOf = (span: ReceivedSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined);

    const request = one('POST /api/v1/jobs/createTask');
    expect(request).toMatchObject({
      kind: 2,
      service: 'embedded-test',
      parentSpanId: CALLER_SPAN,
      attributes: { 'http.route': '/api/v1/jobs/createTask', 'http.response.status_code': 202 },
    });
    // The runner's consumption of task.created continues the envelope the request wrote in the outbox.
    const runnerConsume = spans.find(
      (s) =>
        s.name === 'task.lifecycle process' && s.attributes['messaging.consumer.group.name'] === 'runner',
    )!;
    expect(parentOf(runnerConsume)).toBe(request);
    // The execution continues the runner queue's row, written while consuming.
    const execute = one('execute task');
    expect(execute.attributes['gen.task_id']).toBe(taskId);
    expect(parentOf(execute)).toBe(runnerConsume);
    // Its reports are consumed by the tasks service under it.
    const reports = spans.filter((s) => s.name === 'task.execution process');
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const report of reports) expect(parentOf(report)).toBe(execute);
    // The callback attempt continues the delivery's row, queued while consuming the terminal event.
    const callback = one('webhook callback');
    expect(callback).toMatchObject({
      kind: 3,
      status: 0,
      attributes: {
        'gen.task_id': taskId,
        'gen.webhook.outcome': 'delivered',
        'http.response.status_code': 200,
      },
    });
    const queuedBy = parentOf(callback)!;
    expect(queuedBy).toMatchObject({
      name: 'task.lifecycle process',
      attributes: { 'messaging.consumer.group.name': 'webhooks' },
    });
    // ... whose event was written by the tasks service while it applied the success report.
    expect(reports).toContain(parentOf(queuedBy));
    expect(callbacks).toHaveLength(1);
    // Billing settles the hold while consuming the same terminal event, and its outbox row (built in SQL)
    // carries the trace on to the tasks service's consumption of billing.holds.
    const settlement = await receiver.until((all) =>
      all.find((s) => s.traceId === TRACE_ID && s.name === 'billing.holds process'),
    );
    expect(
      byId.get(settlement.parentSpanId!) ?? receiver.spans.find((s) => s.spanId === settlement.parentSpanId),
    ).toMatchObject({
      name: 'task.lifecycle process',
      attributes: { 'messaging.consumer.group.name': 'billing' },
    });
    // Nothing of this task's work started a trace of its own.
    const ownTraces = receiver.spans.filter(
      (s) => s.traceId !== TRACE_ID && JSON.stringify(s.attributes).includes(taskId),
    );
    expect(ownTraces).toEqual([]);
  });

  it('names server spans by route template and family, never by the raw path', async () => {
    await app.call('GET', '/api/v1/models/local%2Fsketch', {
      headers: { authorization: `Bearer ${app.boot.apiKey}` },
    });
    await app.call('GET', '/api/v1/chat/credit');
    const [model, refused] = await receiver.until((all) => {
      const model = all.find(
        (s) => s.kind === 2 && s.attributes['url.path'] === '/api/v1/models/local%2Fsketch',
      );
      const refused = all.find((s) => s.kind === 2 && s.attributes['url.path'] === '/api/v1/chat/credit');
      return model && refused && ([model, refused] as const);
    });
    expect(model.name).toBe('GET /api/v1/models/*');
    expect(model.attributes['gen.route_family']).toBe('native');
    // Refused by the edge before any handler: still a span, with its status.
    expect(refused.attributes['http.response.status_code']).toBe(401);
    expect(refused.parentSpanId).toBeUndefined();
  });
});
