import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowPrivateCidrs } from '@gen/ssrf';
import { webhookSignatureVectors, type CallbackVector } from '@gen/testing';
import {
  CALLBACK_V1_ASSET_FIELDS,
  CALLBACK_V1_FIELDS,
  callbackHeaders,
  callbackV1Body,
  callbackV2Body,
} from './callback-bodies';
import { sendWebhook } from '../outbound/send-webhook';

/**
 * A receiver's check written from the spec text alone (Events, "Callback to callBackUrl", item 6), sharing no
 * code with the signer: the payload version header says where the task id is, the signed text is
 * `<task_id>.<timestamp>.<lowercase sha256 hex of the raw body>`, the HMAC-SHA256 key is the secret's UTF-8
 * bytes, the signature is base64, compared in constant time, and the timestamp is at most 300 s off.
 */
function receiverAccepts(
  secret: string,
  rawBody: Buffer,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  nowSeconds: number,
): boolean {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const timestamp = lower['x-webhook-timestamp'];
  const signature = lower['x-webhook-signature'];
  const version = lower['x-webhook-payload-version'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (version !== '1' && version !== '2') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const parsed = JSON.parse(rawBody.toString('utf8')) as { task_id?: unknown; data?: { taskId?: unknown } };
  const taskId = version === '1' ? parsed.task_id : parsed.data?.taskId;
  if (typeof taskId !== 'string') return false;
  const digest = createHash('sha256').update(rawBody).digest('hex');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${taskId}.${timestamp}.${digest}`)
    .digest();
  const received = Buffer.from(signature, 'base64');
  return received.length === expected.length && timingSafeEqual(received, expected);
}

const SECRET = 'sk_sign_0123456789abcdef';
const NOW = 1795000000;

/** Every field of the spec's task record table, plus fields the record has or may get that v1 never shows. */
const FULL_RECORD = {
  taskId: 'job_01JD4ZQ6T8W3X9V2K7M5N1P0R4',
  model: 'local/sketch',
  state: 'succeeded',
  input: { prompt: 'a red fox' },
  output: {
    assets: [
      {
        key: 'out/0.png',
        url: 'https://files.example.com/0.png?sig=abc',
        expiresAt: '2026-11-22T16:00:00.000Z',
        mime: 'image/png',
        width: 64,
        height: 48,
        bytes: 1234,
        durationSeconds: 2.5,
        thumbnail: 'https://files.example.com/thumb.png',
      },
      { key: 'out/1.png', mime: 'image/png', pending: true },
      { key: 'out/2.png', mime: 'image/png', unavailable: true },
    ],
    text: 'a future output field',
  },
  errorCode: 'upstream_failed',
  errorMessage: 'The model provider failed to generate a result.',
  cost: '0.002',
  settled: false,
  createdAt: '2026-11-22T15:00:00.000Z',
  completedAt: '2026-11-22T15:00:02.000Z',
  sourceTaskId: 'job_01JD4ZQ6T8W3X9V2K7M5N1P0R0',
  estimatedCost: '0.002',
  deadlineAt: '2026-11-22T16:00:00.000Z',
  purgedAt: '2026-12-06T15:00:02.000Z',
  request_id: 'whd_should_never_leak',
  someFutureField: 'never in v1',
};

const V1_KEYS = [
  'task_id',
  'model',
  'state',
  'output',
  'error_code',
  'error_message',
  'cost',
  'created_at',
  'source_task_id',
  'estimated_cost',
];

describe('callbackV2Body', () => {
  it('is the recordInfo envelope around the record, with the whd_ delivery id as request_id', () => {
    const body = callbackV2Body(FULL_RECORD, 'whd_01JD4ZQ9A1B2C3D4E5F6G7H8J9');
    expect(body).toBe(
      JSON.stringify({
        code: 200,
        msg: 'success',
        data: FULL_RECORD,
        request_id: 'whd_01JD4ZQ9A1B2C3D4E5F6G7H8J9',
      }),
    );
    expect(Object.keys(JSON.parse(body) as object)).toEqual(['code', 'msg', 'data', 'request_id']);
  });

  it('keeps code 200 for a failed task: the outcome is data.state', () => {
    const failed = { ...FULL_RECORD, state: 'failed', output: undefined };
    expect(JSON.parse(callbackV2Body(failed, 'whd_1'))).toMatchObject({
      code: 200,
      data: { state: 'failed' },
    });
  });

  it.each(['req_1', 'job_1', 'whd_', 'msg_1', ''])('refuses %j as the request_id', (id) => {
    expect(() => callbackV2Body(FULL_RECORD, id)).toThrow(RangeError);
  });
});

describe('callbackV1Body', () => {
  it('has a frozen field list: changing it must be a conscious edit of this test', () => {
    expect(Object.isFrozen(CALLBACK_V1_FIELDS)).toBe(true);
    expect(Object.isFrozen(CALLBACK_V1_ASSET_FIELDS)).toBe(true);
    expect(Object.values(CALLBACK_V1_FIELDS)).toEqual(V1_KEYS);
    expect(Object.values(CALLBACK_V1_ASSET_FIELDS)).toEqual([
      'key',
      'url',
      'expires_at',
      'mime',
      'width',
      'height',
      'bytes',
      'duration_seconds',
      'pending',
      'unavailable',
    ]);
  });

  it('is flat snake_case with exactly the allowed keys, whatever else the record holds', () => {
    const body = JSON.parse(callbackV1Body(FULL_RECORD)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(V1_KEYS);
    for (const absent of ['input', 'settled', 'completedAt', 'completed_at', 'request_id', 'data', 'code'])
      expect(body).not.toHaveProperty(absent);
    expect(body).toEqual({
      task_id: FULL_RECORD.taskId,
      model: 'local/sketch',
      state: 'succeeded',
      output: {
        assets: [
          {
            key: 'out/0.png',
            url: 'https://files.example.com/0.png?sig=abc',
            expires_at: '2026-11-22T16:00:00.000Z',
            mime: 'image/png',
            width: 64,
            height: 48,
            bytes: 1234,
            duration_seconds: 2.5,
          },
          { key: 'out/1.png', mime: 'image/png', pending: true },
          { key: 'out/2.png', mime: 'image/png', unavailable: true },
        ],
      },
      error_code: 'upstream_failed',
      error_message: 'The model provider failed to generate a result.',
      cost: '0.002',
      created_at: '2026-11-22T15:00:00.000Z',
      source_task_id: FULL_RECORD.sourceTaskId,
      estimated_cost: '0.002',
    });
  });

  it('lets no new record field through: every key of any record maps into the frozen list or is dropped', () => {
    const future = { ...FULL_RECORD, newTopLevel: 1, another_field: true, taskID: 'x', task_id: 'job_spoof' };
    const body = JSON.parse(callbackV1Body(future)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(V1_KEYS);
    expect(body.task_id).toBe(FULL_RECORD.taskId);
  });

  it('leaves absent fields out (no nulls)', () => {
    const minimal = { taskId: 'job_1', model: 'm/x', state: 'expired', cost: '0', createdAt: 'c' };
    expect(callbackV1Body(minimal)).toBe(
      '{"task_id":"job_1","model":"m/x","state":"expired","cost":"0","created_at":"c"}',
    );
  });
});

describe('callbackHeaders', () => {
  it.each([
    [2, () => callbackV2Body(FULL_RECORD, 'whd_01JD4ZQ9A1B2C3D4E5F6G7H8J9')],
    [1, () => callbackV1Body(FULL_RECORD)],
  ] as const)(
    'gives the spec headers for version %i, accepted by an independent receiver',
    (version, make) => {
      const body = make();
      const headers = callbackHeaders({
        taskId: FULL_RECORD.taskId,
        body,
        secret: SECRET,
        timestampSeconds: NOW,
        payloadVersion: version,
      });
      expect(Object.keys(headers).sort()).toEqual([
        'Content-Type',
        'User-Agent',
        'X-Webhook-Payload-Version',
        'X-Webhook-Signature',
        'X-Webhook-Timestamp',
      ]);
      expect(headers).toMatchObject({
        'X-Webhook-Timestamp': String(NOW),
        'X-Webhook-Payload-Version': String(version),
        'User-Agent': 'Service-Webhook/1',
        'Content-Type': 'application/json',
      });
      const raw = Buffer.from(body, 'utf8');
      expect(receiverAccepts(SECRET, raw, headers, NOW)).toBe(true);
      expect(receiverAccepts(SECRET, raw, headers, NOW + 300)).toBe(true);
      expect(receiverAccepts(SECRET, raw, headers, NOW + 301)).toBe(false);
      expect(receiverAccepts(SECRET, raw, headers, NOW - 301)).toBe(false);
      expect(receiverAccepts('sk_sign_other', raw, headers, NOW)).toBe(false);
      expect(receiverAccepts(SECRET, Buffer.from(body.replace('0.002', '0.003'), 'utf8'), headers, NOW)).toBe(
        false,
      );
    },
  );

  it('signs the task id, never the request_id, and refuses a task id the body does not carry', () => {
    const body = callbackV2Body(FULL_RECORD, 'whd_01JD4ZQ9A1B2C3D4E5F6G7H8J9');
    const input = { body, secret: SECRET, timestampSeconds: NOW, payloadVersion: 2 } as const;
    expect(() => callbackHeaders({ ...input, taskId: 'whd_01JD4ZQ9A1B2C3D4E5F6G7H8J9' })).toThrow(RangeError);
    expect(() => callbackHeaders({ ...input, taskId: FULL_RECORD.taskId, payloadVersion: 1 })).toThrow(
      RangeError,
    );
    expect(() => callbackHeaders({ ...input, taskId: FULL_RECORD.taskId, secret: '' })).toThrow(RangeError);
  });

  it('travels intact: a real receiver verifies the bytes and headers sendWebhook delivered', async () => {
    const seen: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ body: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = callbackV2Body({ ...FULL_RECORD, errorMessage: 'Échec du fournisseur ✓' }, 'whd_2');
      const timestampSeconds = Math.floor(Date.now() / 1000);
      const headers = callbackHeaders({
        taskId: FULL_RECORD.taskId,
        body,
        secret: SECRET,
        timestampSeconds,
        payloadVersion: 2,
      });
      const outcome = await sendWebhook({
        url: `http://127.0.0.1:${port}/cb`,
        headers,
        body,
        timeoutMs: 2000,
        allowPrivateCidrs: parseAllowPrivateCidrs('127.0.0.0/8'),
      });
      expect(outcome).toMatchObject({ ok: true, status: 204 });
      expect(seen).toHaveLength(1);
      const [got] = seen;
      expect(receiverAccepts(SECRET, got!.body, got!.headers, Math.floor(Date.now() / 1000))).toBe(true);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

const callbackVectors = webhookSignatureVectors().callbacks;

/** The record each vector body was made from: v2 carries it whole; v1 is rebuilt with the fields v1 drops. */
function recordOf(v: CallbackVector): Record<string, unknown> {
  const parsed = JSON.parse(v.body) as Record<string, unknown>;
  if (v.version === 2) return parsed.data as Record<string, unknown>;
  return {
    taskId: parsed.task_id,
    model: parsed.model,
    state: parsed.state,
    input: { prompt: 'dropped by v1' },
    errorCode: parsed.error_code,
    errorMessage: parsed.error_message,
    cost: parsed.cost,
    settled: true,
    createdAt: parsed.created_at,
    completedAt: '2026-11-22T15:00:05Z',
  };
}

describe("the specification's callback vectors (@gen/testing's webhook-signatures.json)", () => {
  it('holds the version 2 and version 1 callback entries', () => {
    expect(callbackVectors.map((v) => v.version)).toEqual([2, 1]);
  });

  describe.each(callbackVectors.map((v) => [v.version, v] as const))('version %i', (_version, v) => {
    const body =
      v.version === 2
        ? callbackV2Body(recordOf(v), (JSON.parse(v.body) as { request_id: string }).request_id)
        : callbackV1Body(recordOf(v));

    it('rebuilds the vector body byte for byte', () => {
      expect(body).toBe(v.body);
    });

    it('signs to the vector signature, and the independent receiver accepts it at that moment only', () => {
      const headers = callbackHeaders({
        taskId: v.taskId,
        body,
        secret: v.secret,
        timestampSeconds: v.timestamp,
        payloadVersion: v.version,
      });
      expect(headers['X-Webhook-Signature']).toBe(v['X-Webhook-Signature']);
      expect(headers['X-Webhook-Payload-Version']).toBe(String(v.version));
      const raw = Buffer.from(v.body, 'utf8');
      expect(receiverAccepts(v.secret, raw, headers, v.timestamp)).toBe(true);
      expect(receiverAccepts(v.secret, raw, headers, Math.floor(Date.now() / 1000))).toBe(false);
    });
  });
});
