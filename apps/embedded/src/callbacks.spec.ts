import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

type Json = Record<string, unknown>;
jest.setTimeout(90_000);

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  readonly json: Json;
}

/**
 * A real HTTP receiver: records every request and answers with the next status of `statuses` (then 200).
 * Callback URLs may only use port 80 or 443 (spec, Limits), so each receiver takes port 80 on an address of
 * its own in 127.0.0.0/8 (allowed by WEBHOOK_ALLOW_PRIVATE_CIDRS); this needs the right to bind port 80.
 */
let nextHost = 2 + Math.floor(Math.random() * 200);
async function receiver(
  statuses: number[] = [],
): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      got.push({ headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')) as Json });
      const status = statuses.shift() ?? 200;
      res.writeHead(
        status,
        status >= 300 && status < 400 ? { location: 'http://127.0.0.1:9/elsewhere' } : {},
      );
      res.end();
    });
  });
  const host = `127.0.0.${nextHost++}`;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(80, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}${port === 80 ? '' : `:${port}`}/hook`,
    got,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The receiver's check, written from the spec text (Events, Callback rule 6), independent of the service. */
function verifyCallback(received: Received, secret: string, taskId: string): boolean {
  const timestamp = String(received.headers['x-webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const digest = createHash('sha256').update(received.raw).digest('hex');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${taskId}.${timestamp}.${digest}`)
    .digest();
  const given = Buffer.from(String(received.headers['x-webhook-signature']), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function until<T>(check: () => T | undefined | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('task callbacks (version 2, signed, retried on their schedule)', () => {
  let app: Embedded;

  beforeAll(async () => {
    app = await startEmbedded({
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1',
      RATE_LIMIT_BURST: '2000',
    });
  });
  afterAll(() => app.close());

  async function customer(options: { secret?: boolean; language?: string } = {}) {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', {
      name: 'cb',
      credit: '1',
      ...(options.language ? { language: options.language } : {}),
    })) as { accountId: string };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    const secret =
      options.secret === false
        ? undefined
        : (
            (await app.admin('POST', `/admin/v1/accounts/${accountId}/signing-secret/rotate`)) as {
              secret: string;
            }
          ).secret;
    return { accountId, secret, auth: { authorization: `Bearer ${apiKey}` } };
  }

  async function createTask(auth: Record<string, string>, callBackUrl: string, input: Json = {}) {
    const reply = await app.call('POST', '/api/v1/jobs/createTask', {
      headers: auth,
      body: {
        model: 'local/sketch',
        input: { prompt: 'a kite', width: 64, height: 64, ...input },
        callBackUrl,
      },
    });
    expect(reply.status).toBe(202);
    return (reply.json['data'] as Json)['taskId'] as string;
  }

  const deliveriesOf = async (taskId: string) =>
    ((await app.admin('GET', `/admin/v1/webhook-deliveries?taskId=${taskId}`)) as { items: Json[] }).items;

  it("signs the demo account's callbacks from the first start with the secret in bootstrap.json", async () => {
    const hook = await receiver();
    try {
      expect(app.boot.signingSecret).toMatch(/^sk_sign_/);
      const taskId = await createTask({ authorization: `Bearer ${app.boot.apiKey}` }, hook.url);
      const [call] = await until(() => hook.got.length > 0 && hook.got);
      expect(verifyCallback(call!, app.boot.signingSecret, taskId)).toBe(true);
      expect((await deliveriesOf(taskId))[0]).toMatchObject({ state: 'delivered', attempts: 1 });
      const account = await app.admin('GET', `/admin/v1/accounts/${app.boot.accountId}`);
      expect(account).toMatchObject({ hasSigningSecret: true });
    } finally {
      await hook.close();
    }
  });

  it('sends one signed version 2 callback with the task record and a fresh asset URL', async () => {
    const hook = await receiver();
    try {
      const { secret, auth } = await customer();
      const taskId = await createTask(auth, hook.url);
      const [call] = await until(() => hook.got.length > 0 && hook.got);
      expect(call!.headers['user-agent']).toBe('Service-Webhook/1');
      expect(call!.headers['content-type']).toBe('application/json');
      expect(call!.headers['x-webhook-payload-version']).toBe('2');
      expect(verifyCallback(call!, secret!, taskId)).toBe(true);
      expect(verifyCallback(call!, 'another secret', taskId)).toBe(false);
      expect(call!.json).toMatchObject({
        code: 200,
        request_id: expect.stringMatching(/^whd_/),
        data: { taskId, state: 'succeeded', model: 'local/sketch', input: { prompt: 'a kite' } },
      });
      const asset = ((call!.json['data'] as Json)['output'] as { assets: Json[] }).assets[0]!;
      const png = await fetch(asset['url'] as string);
      expect(png.status).toBe(200);
      expect(Date.parse(asset['expiresAt'] as string)).toBeGreaterThan(Date.now());
      // One callback per task: nothing follows, not even when the task settles.
      await new Promise((r) => setTimeout(r, 1500));
      expect(hook.got).toHaveLength(1);
      const [delivery] = await deliveriesOf(taskId);
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 1, payloadVersion: 2 });
      expect(delivery!['deliveryId']).toBe(call!.json['request_id']);
    } finally {
      await hook.close();
    }
  });

  it('a receiver down for three attempts gets the fourth, with the same request_id and a new signature', async () => {
    const hook = await receiver([500, 503, 404]);
    try {
      const { secret, auth } = await customer();
      const taskId = await createTask(auth, hook.url);
      await until(() => hook.got.length >= 4 && hook.got);
      const ids = new Set(hook.got.map((r) => r.json['request_id']));
      expect(ids.size).toBe(1);
      for (const call of hook.got) expect(verifyCallback(call, secret!, taskId)).toBe(true);
      const deliveries = await deliveriesOf(taskId);
      expect(deliveries[0]).toMatchObject({ state: 'delivered', attempts: 4 });
      expect((deliveries[0]!['attemptLog'] as Json[]).map((a) => a['status'])).toEqual([500, 503, 404, 200]);
    } finally {
      await hook.close();
    }
  });

  it('a redirect fails the attempt and is not followed; manual redelivery sends the same delivery again', async () => {
    const hook = await receiver([302, 302, 302, 302, 302, 302, 302, 302]);
    try {
      const { auth } = await customer();
      const taskId = await createTask(auth, hook.url);
      await until(() => hook.got.length >= 8 && hook.got, 40_000);
      let [delivery] = await deliveriesOf(taskId);
      for (let i = 0; i < 40 && delivery!['state'] !== 'failed'; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        [delivery] = await deliveriesOf(taskId);
      }
      expect(delivery).toMatchObject({ state: 'failed', attempts: 8, lastOutcome: 'redirect' });
      await new Promise((r) => setTimeout(r, 1500));
      expect(hook.got).toHaveLength(8); // automatic retry stopped after eight attempts
      await app.admin('POST', `/admin/v1/webhook-deliveries/${delivery!['deliveryId'] as string}/redeliver`);
      await until(() => hook.got.length >= 9 && hook.got);
      expect(hook.got[8]!.json['request_id']).toBe(delivery!['deliveryId']);
    } finally {
      await hook.close();
    }
  });

  it('follows the account language for errorMessage, and without a signing secret every attempt fails unsent', async () => {
    const hook = await receiver();
    try {
      const french = await customer({ language: 'fr' });
      const failedId = await createTask(french.auth, hook.url, { simulate: 'upstream_failed' });
      const [call] = await until(() => hook.got.length > 0 && hook.got);
      expect(call!.json['data']).toMatchObject({
        taskId: failedId,
        state: 'failed',
        errorCode: 'upstream_failed',
      });
      expect((call!.json['data'] as Json)['errorMessage']).toContain('fournisseur');

      const unsigned = await customer({ secret: false });
      const taskId = await createTask(unsigned.auth, hook.url);
      let [delivery] = await deliveriesOf(taskId);
      for (let i = 0; i < 60 && ((delivery?.['attempts'] as number | undefined) ?? 0) < 2; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        [delivery] = await deliveriesOf(taskId);
      }
      expect(delivery).toMatchObject({ lastOutcome: 'no_secret' });
      expect(delivery!['attempts']).toBeGreaterThanOrEqual(2);
      expect(hook.got).toHaveLength(1); // only the French account's callback
    } finally {
      await hook.close();
    }
  });
});

describe('task callbacks, version 1 (the platform switch WEBHOOK_PAYLOAD_VERSION=1)', () => {
  let app: Embedded;
  beforeAll(async () => {
    app = await startEmbedded({
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_PAYLOAD_VERSION: '1',
    });
  });
  afterAll(() => app.close());

  it('sends the frozen flat snake_case body, signed over task_id', async () => {
    const hook = await receiver();
    try {
      const { secret } = (await app.admin(
        'POST',
        `/admin/v1/accounts/${app.boot.accountId}/signing-secret/rotate`,
      )) as { secret: string };
      const reply = await app.call('POST', '/api/v1/jobs/createTask', {
        headers: { authorization: `Bearer ${app.boot.apiKey}` },
        body: { model: 'local/tone', input: { text: 'hi' }, callBackUrl: hook.url },
      });
      const taskId = (reply.json['data'] as Json)['taskId'] as string;
      const [call] = await until(() => hook.got.length > 0 && hook.got);
      expect(call!.headers['x-webhook-payload-version']).toBe('1');
      expect(verifyCallback(call!, secret, taskId)).toBe(true);
      expect(call!.json).toMatchObject({ task_id: taskId, state: 'succeeded', model: 'local/tone' });
      for (const absent of ['input', 'settled', 'completedAt', 'request_id', 'code', 'data', 'taskId']) {
        expect(call!.json[absent]).toBeUndefined();
      }
      const asset = (call!.json['output'] as { assets: Json[] }).assets[0]!;
      expect(asset).toMatchObject({
        mime: 'audio/wav',
        url: expect.any(String),
        expires_at: expect.any(String),
      });
    } finally {
      await hook.close();
    }
  });
});

describe('task callbacks across a restart', () => {
  it('a restart between attempts loses nothing and sends nothing twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gts-callback-restart-'));
    const env = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      WEBHOOK_RETRY_SCHEDULE: '3',
    };
    const hook = await receiver([500]);
    try {
      const first = await startEmbedded(env);
      await first.admin('POST', `/admin/v1/accounts/${first.boot.accountId}/signing-secret/rotate`);
      const reply = await first.call('POST', '/api/v1/jobs/createTask', {
        headers: { authorization: `Bearer ${first.boot.apiKey}` },
        body: { model: 'local/sketch', input: { prompt: 'x', width: 64, height: 64 }, callBackUrl: hook.url },
      });
      expect(reply.status).toBe(202);
      await until(() => hook.got.length >= 1 && hook.got);
      await first.close(); // the first attempt failed; the second is due in 3 s

      const second = await startEmbedded(env);
      try {
        await until(() => hook.got.length >= 2 && hook.got, 20_000);
        await new Promise((r) => setTimeout(r, 2000));
        expect(hook.got).toHaveLength(2);
        expect(hook.got[1]!.json['request_id']).toBe(hook.got[0]!.json['request_id']);
      } finally {
        await second.close();
      }
    } finally {
      await hook.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
