import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { Topics, type EventEnvelope } from '@gen/contracts';
import { EVENT_BUS, type EventBus } from '@gen/messaging';
import { OpenApiCheck, listenOnLoopback443, selfSignedCertificate, type TestCertificate } from '@gen/testing';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

type Json = Record<string, unknown>;
jest.setTimeout(90_000);

interface Received {
  /** As Node hands them over: lower-case names, one value each (the headers sent here are never repeated). */
  readonly headers: Record<string, string>;
  readonly raw: string;
  readonly json: Json;
}

interface Receiver {
  readonly url: string;
  readonly got: Received[];
  close(): Promise<void>;
}

/**
 * The receivers' TLS: one self-signed certificate for every address of 127.0.0.0/24 (IP SANs), made with
 * openssl at test time; the service trusts it through WEBHOOK_CA_FILE.
 */
function makeCertificate(dir: string): TestCertificate {
  const addresses = Array.from({ length: 254 }, (_, i) => `IP:127.0.0.${i + 1}`);
  return selfSignedCertificate(dir, 'webhook receivers', addresses);
}

let tls: { key: string; cert: string; file: string };

/**
 * A real HTTPS receiver: records every request and answers with the status `answer` gives it (200 by
 * default). Endpoint URLs must be https on port 443, so each receiver takes port 443 on an address of its own
 * in 127.0.0.0/8 (allowed by WEBHOOK_ALLOW_PRIVATE_CIDRS); this needs the right to bind port 443.
 */
async function receiver(answer: (request: Received, index: number) => number = () => 200): Promise<Receiver> {
  const got: Received[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const request = { headers: req.headers as Record<string, string>, raw, json: JSON.parse(raw) as Json };
      got.push(request);
      res.writeHead(answer(request, got.length - 1)).end();
    });
  });
  const { host, close } = await listenOnLoopback443(server);
  return { url: `https://${host}/hook`, got, close };
}

async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The record without what is made anew on each read: asset `url` and `expiresAt`. */
function withoutUrls(record: Json): Json {
  const output = record['output'] as { assets?: Json[] } | undefined;
  if (!output?.assets) return record;
  const assets = output.assets.map(({ url: _url, expiresAt: _expiresAt, ...rest }) => rest);
  return { ...record, output: { ...output, assets } };
}

describe('account-level endpoint deliveries (Standard Webhooks)', () => {
  let app: Embedded;
  let dir: string;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gts-endpoint-tls-'));
    tls = makeCertificate(dir);
    app = await startEmbedded({
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_CA_FILE: tls.file,
      WEBHOOK_RETRY_SCHEDULE: '2,2,2,2,2',
      RATE_LIMIT_BURST: '2000',
    });
  });
  afterAll(async () => {
    await app.close();
    await Promise.all(receivers.map((r) => r.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function hook(answer?: (request: Received, index: number) => number): Promise<Receiver> {
    const made = await receiver(answer);
    receivers.push(made);
    return made;
  }

  async function customer() {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'ep', credit: '5' })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    await app.admin('POST', `/admin/v1/accounts/${accountId}/signing-secret/rotate`);
    const { token } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/console-tokens`)) as {
      token: string;
    };
    const console = async (method: string, path: string, body?: unknown) => {
      const reply = await app.call(method, `/console/v1${path}`, {
        headers: { authorization: `Bearer ${token}` },
        body,
      });
      expect(reply.status).toBe(200);
      return reply.json['data'] as Json;
    };
    const endpoint = async (url: string, enabledEvents: string[]) =>
      (await console('POST', '/webhook-endpoints', { url, enabledEvents })) as {
        id: string;
        secret: string;
      };
    return { accountId, auth: { authorization: `Bearer ${apiKey}` }, console, endpoint };
  }

  async function createTask(auth: Record<string, string>, input: Json = {}, callBackUrl?: string) {
    const reply = await app.call('POST', '/api/v1/jobs/createTask', {
      headers: auth,
      body: {
        model: 'local/sketch',
        input: { prompt: 'a kite', width: 64, height: 64, ...input },
        ...(callBackUrl ? { callBackUrl } : {}),
      },
    });
    expect(reply.status).toBe(202);
    return (reply.json['data'] as Json)['taskId'] as string;
  }

  /** An admin call whose answer is checked against the OpenAPI document. */
  async function admin(method: string, path: string): Promise<Json> {
    const document = (await app.call('GET', '/openapi.json')).json;
    const reply = await app.call(method, path, {
      headers: { authorization: `Bearer ${app.boot.adminToken}` },
    });
    new OpenApiCheck(document).check(method, path, reply.status, reply.headers, reply.json);
    expect(reply.status).toBe(200);
    return reply.json['data'] as Json;
  }

  const webhooksOf = async (taskId: string) =>
    (await admin('GET', `/admin/v1/webhook-deliveries?taskId=${taskId}`)) as {
      items: Json[];
      messages: Json[];
    };

  it('sends one signed message per matching endpoint, none to others, and the callback beside them', async () => {
    const [all, succeeded, failedOnly, disabled, callback] = await Promise.all([
      hook(),
      hook(),
      hook(),
      hook(),
      hook(),
    ]);
    const { auth, console, endpoint } = await customer();
    const toAll = await endpoint(all.url, ['task.completed']);
    const toSucceeded = await endpoint(succeeded.url, ['task.succeeded']);
    await endpoint(failedOnly.url, ['task.failed', 'task.expired']);
    const off = await endpoint(disabled.url, ['task.completed']);
    await console('PATCH', `/webhook-endpoints/${off.id}`, { enabled: false });

    const taskId = await createTask(auth, {}, callback.url);
    await until(() => all.got.length > 0 && succeeded.got.length > 0 && callback.got.length > 0);

    for (const [received, secret] of [
      [all.got[0]!, toAll.secret],
      [succeeded.got[0]!, toSucceeded.secret],
    ] as const) {
      expect(new Webhook(secret).verify(received.raw, received.headers)).toEqual(received.json);
      expect(() =>
        new Webhook(toAll.secret === secret ? toSucceeded.secret : toAll.secret).verify(
          received.raw,
          received.headers,
        ),
      ).toThrow();
      expect(received.headers['user-agent']).toBe('Service-Webhook/2');
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.headers['webhook-id']).toBe(received.json['id']);
      expect(received.json).toMatchObject({
        id: expect.stringMatching(/^msg_/),
        type: 'task.succeeded',
        api_version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
      expect(Number.isInteger(received.json['created'])).toBe(true);
      expect(Math.abs((received.json['created'] as number) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(all.got[0]!.json['id']).not.toBe(succeeded.got[0]!.json['id']);
    // The task callback is sent too, in its own shape (spec, Events, item 10).
    expect(callback.got[0]!.headers['x-webhook-payload-version']).toBe('2');
    expect(callback.got[0]!.json).toMatchObject({ code: 200, data: { taskId, state: 'succeeded' } });

    // data.object: the record as recordInfo shows it (but for the signed URLs, and the settlement after it).
    const object = (all.got[0]!.json['data'] as Json)['object'] as Json;
    const record = await until(async () => {
      const reply = await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth });
      const data = reply.json['data'] as Json;
      return data['settled'] === true && data;
    });
    const { settled, cost, ...snapshot } = withoutUrls(object);
    const { settled: _settled, cost: finalCost, ...current } = withoutUrls(record);
    expect(snapshot).toEqual(current);
    expect(cost).toBe(settled ? finalCost : record['estimatedCost']);
    const asset = (object['output'] as { assets: Json[] }).assets[0]!;
    expect((await fetch(asset['url'] as string)).status).toBe(200);
    expect(Date.parse(asset['expiresAt'] as string)).toBeGreaterThan(Date.now() + 23 * 3600_000);

    await pause(1000);
    expect([all.got.length, succeeded.got.length, failedOnly.got.length, disabled.got.length]).toEqual([
      1, 1, 0, 0,
    ]);
    const { items, messages } = await webhooksOf(taskId);
    expect(items).toHaveLength(1);
    expect(messages.map((m) => [m['endpointId'], m['state'], m['attempts']]).sort()).toEqual(
      [
        [toAll.id, 'delivered', 1],
        [toSucceeded.id, 'delivered', 1],
      ].sort(),
    );
  });

  it('a 500 counts a failure and is retried with the same id and body; a 2xx resets the count', async () => {
    const flaky = await hook((_request, index) => (index === 0 ? 500 : 200));
    const { auth, console, endpoint } = await customer();
    const { id } = await endpoint(flaky.url, ['task.failed']);
    const taskId = await createTask(auth, { simulate: 'upstream_failed' });
    await until(() => flaky.got.length > 0);
    await until(
      async () => ((await console('GET', `/webhook-endpoints/${id}`))['consecutiveFailures'] as number) === 1,
    );
    await until(() => flaky.got.length > 1);
    const [first, retry] = flaky.got;
    expect(retry!.raw).toBe(first!.raw);
    expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(Number(retry!.headers['webhook-timestamp'])).toBeGreaterThan(
      Number(first!.headers['webhook-timestamp']),
    );
    expect(first!.json).toMatchObject({ type: 'task.failed', data: { object: { taskId, state: 'failed' } } });
    await until(
      async () => ((await console('GET', `/webhook-endpoints/${id}`))['consecutiveFailures'] as number) === 0,
    );
    const [message] = (await webhooksOf(taskId)).messages;
    expect((message!['attemptLog'] as Json[]).map((a) => a['status'])).toEqual([500, 200]);
  });

  it('a 410 disables the endpoint at once and drops its queued messages; re-enabling sends none of them', async () => {
    // Succeeded tasks' messages fail (500) and wait for their retry; the failed task's message gets the 410.
    const gone = await hook((request) => (request.json['type'] === 'task.failed' ? 410 : 500));
    const { auth, console, endpoint } = await customer();
    const { id } = await endpoint(gone.url, ['task.completed']);
    const waiting = await createTask(auth);
    await until(() => gone.got.length > 0);
    const failing = await createTask(auth, { simulate: 'upstream_failed' });
    await until(() => gone.got.some((r) => r.json['type'] === 'task.failed'));

    const read = () => console('GET', `/webhook-endpoints/${id}`);
    const disabled = await until(async () => {
      const view = await read();
      return view['status'] === 'disabled' && view;
    });
    expect(disabled).toMatchObject({ status: 'disabled', disabledReason: 'gone_410', enabled: true });
    expect((await webhooksOf(failing)).messages[0]).toMatchObject({ state: 'failed', attempts: 1 });
    // Dropped by the 410's own statement (`gone_410`), or, when its retry was in flight then, by it.
    const dropped = (await webhooksOf(waiting)).messages[0]!;
    expect(dropped['state']).toBe('dropped');
    expect(['gone_410', 'status']).toContain(dropped['lastOutcome']);

    // Nothing more is sent: the waiting message's retry was dropped, and new events find the endpoint disabled.
    const later = await createTask(auth);
    const sent = gone.got.length;
    await pause(3000);
    expect(gone.got).toHaveLength(sent);
    expect((await webhooksOf(later)).messages).toEqual([]);
    // Every 500 counted; the 410 did not.
    const fiveHundreds = gone.got.filter((r) => r.json['type'] === 'task.succeeded').length;
    expect((await read())['consecutiveFailures']).toBe(fiveHundreds);

    expect(await console('PATCH', `/webhook-endpoints/${id}`, { enabled: true })).toMatchObject({
      status: 'enabled',
      disabledReason: null,
      consecutiveFailures: 0,
    });
    await pause(2500);
    expect(gone.got).toHaveLength(sent);
  });

  it('redelivery sends the same message again, with the same webhook-id, signed with both secrets in a grace period', async () => {
    const target = await hook();
    const { auth, console, endpoint } = await customer();
    const { id, secret } = await endpoint(target.url, ['task.succeeded']);
    const taskId = await createTask(auth);
    await until(() => target.got.length > 0);
    const [message] = (await webhooksOf(taskId)).messages;
    const messageId = message!['messageId'] as string;
    expect(target.got[0]!.headers['webhook-id']).toBe(messageId);

    const rotated = (await console('POST', `/webhook-endpoints/${id}/rotate-secret`, {
      gracePeriodSeconds: 600,
    })) as { secret: string };
    const again = await admin('POST', `/admin/v1/webhook-deliveries/${messageId}/redeliver`);
    expect(again).toMatchObject({ messageId, state: 'pending' });
    await until(() => target.got.length > 1);
    const redelivered = target.got[1]!;
    expect(redelivered.headers['webhook-id']).toBe(messageId);
    expect(redelivered.raw).toBe(target.got[0]!.raw);
    expect(String(redelivered.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(redelivered.raw, redelivered.headers)).toEqual(redelivered.json);
    expect(new Webhook(rotated.secret).verify(redelivered.raw, redelivered.headers)).toEqual(
      redelivered.json,
    );
    await until(async () => (await webhooksOf(taskId)).messages[0]!['attempts'] === 2);
  });

  it('a redelivered task event queues nothing twice', async () => {
    const target = await hook();
    const callback = await hook();
    const { auth, endpoint } = await customer();
    await endpoint(target.url, ['task.completed']);
    const bus = app.app.get<EventBus>(EVENT_BUS, { strict: false });
    const seen: EventEnvelope[] = [];
    const subscription = await bus.subscribe(Topics.taskLifecycle, 'test-endpoint-deliveries', async (e) => {
      seen.push(e);
    });
    try {
      const taskId = await createTask(auth, {}, callback.url);
      await until(() => target.got.length > 0 && callback.got.length > 0);
      const terminal = seen.find((e) => e.key === taskId && e.type === 'task.succeeded')!;
      expect(terminal).toBeDefined();
      await bus.publish(Topics.taskLifecycle, [terminal]);
      await pause(1500);
      expect([target.got.length, callback.got.length]).toEqual([1, 1]);
      const { items, messages } = await webhooksOf(taskId);
      expect([items.length, messages.length]).toEqual([1, 1]);
    } finally {
      await subscription.stop();
    }
  });
});
