import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { AccountDirectory, EventEnvelope, TaskTerminalPayload } from '@gen/contracts';
import { loadConfig } from '@gen/core';
import { migrate, type Database } from '@gen/persistence';
import type { ObjectStorage } from '@gen/storage';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { generateEndpointSecret } from '@gen/webhook-signing';
import { WebhookSender } from '../outbound/webhook-sender';
import { enabledState } from '../domain/endpoint';
import { EndpointDirectory } from '../persistence/endpoint-directory';
import { EndpointRepository } from '../persistence/endpoint.repository';
import type { EndpointEventName } from '../domain/event-names';
import { MessageRepository } from '../persistence/message.repository';
import { WEBHOOKS_SCHEMA, type WebhooksMigrations } from '../persistence/webhooks-schema';
import { DeliverEndpointMessageUseCase } from './deliver-endpoint-message.use-case';
import { MESSAGE_URL_SECONDS, QueueEndpointMessagesUseCase } from './queue-endpoint-messages.use-case';

interface Received {
  readonly path: string;
  /** As Node hands them over: lower-case names, one value each (the headers sent here are never repeated). */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A real HTTP receiver on 127.0.0.1 answering each request with the next of `statuses` (then 200). */
async function receiver(statuses: number[] = []) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, got, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const T0 = new Date('2026-11-25T10:00:00.000Z');

describe.each(DATABASE_KINDS)('endpoint messages, queued and delivered, on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let endpoints: EndpointRepository;
  let directory: EndpointDirectory;
  let messages: MessageRepository;
  let queue: QueueEndpointMessagesUseCase;
  let deliver: DeliverEndpointMessageUseCase;
  let now: Date;
  let serial = 0;
  const next = (prefix: string) => `${prefix}_${kind}_${(serial += 1)}`;
  const signed: { key: string; expiresInSeconds: number }[] = [];

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, WEBHOOKS_SCHEMA);
    endpoints = new EndpointRepository(database, {} as WebhooksMigrations);
    messages = new MessageRepository(database, {} as WebhooksMigrations);
    const clock = { now: () => now };
    const accounts: AccountDirectory = {
      exists: async () => true,
      callbackSettings: async () => ({ signingSecret: null, language: 'fr' }),
    };
    const storage = {
      presignGet: async (request: { key: string; expiresInSeconds: number }) => {
        signed.push(request);
        return {
          url: `https://files.example/${request.key}?sig=1`,
          expiresAt: new Date(now.getTime() + request.expiresInSeconds * 1000),
          headers: {},
        };
      },
    } as unknown as ObjectStorage;
    const sender = new WebhookSender(
      loadConfig({ WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', WEBHOOK_RETRY_SCHEDULE: '10,30' }),
    );
    // The directory as the module runs it: listening for changes and keeping lookups.
    directory = new EndpointDirectory(endpoints, database);
    directory.onModuleInit();
    await directory.ready();
    queue = new QueueEndpointMessagesUseCase(directory, messages, accounts, storage, clock);
    deliver = new DeliverEndpointMessageUseCase(messages, endpoints, sender, clock);
  });
  afterAll(async () => {
    await directory.onModuleDestroy();
    await test.close();
  });
  beforeEach(() => {
    now = T0;
  });

  async function endpoint(accountId: string, url: string, enabledEvents: EndpointEventName[]) {
    return (await endpoints.createWithinLimit(
      {
        id: next('whe'),
        accountId,
        url,
        description: '',
        enabledEvents,
        secret: generateEndpointSecret(),
        now,
      },
      16,
    ))!;
  }

  function terminal(accountId: string, record: Record<string, unknown>): EventEnvelope<TaskTerminalPayload> {
    const taskId = record['taskId'] as string;
    return {
      id: next('evt'),
      type: `task.${record['state'] as string}`,
      version: 1,
      key: taskId,
      occurredAt: '2026-11-25T09:59:59.500Z',
      correlationId: 'req_1',
      causationId: 'evt_0',
      payload: {
        taskId,
        accountId,
        keyId: 'key_1',
        model: 'local/sketch',
        state: record['state'] as 'succeeded',
        charge: '0',
        completedAt: '2026-11-25T09:59:59.500Z',
        record,
      },
    };
  }

  it('queues one message per active, subscribed endpoint, once, with the body built at queue time', async () => {
    const accountId = next('acc');
    const all = await endpoint(accountId, 'https://a.example/in', ['task.completed']);
    const exact = await endpoint(accountId, 'https://b.example/in', ['task.succeeded']);
    await endpoint(accountId, 'https://c.example/in', ['task.failed']);
    const off = await endpoint(accountId, 'https://d.example/in', ['task.completed']);
    await endpoints.update(accountId, off.id, { state: enabledState(false) }, now);
    await endpoint(next('acc'), 'https://e.example/in', ['task.completed']);
    const taskId = next('job');
    const record = {
      taskId,
      state: 'succeeded',
      output: {
        assets: [
          { key: 'out/a.png', mime: 'image/png' },
          { key: 'out/b.png', pending: true },
        ],
      },
      cost: '0.004',
      settled: false,
    };

    expect(await queue.execute(terminal(accountId, record))).toBe(2);
    expect(await queue.execute(terminal(accountId, record))).toBe(0); // a redelivered event
    const queued = await messages.findByTask(taskId);
    expect(queued.map((m) => m.endpointId).sort()).toEqual([all.id, exact.id].sort());
    const body = JSON.parse(queued[0]!.body) as Record<string, unknown>;
    expect(body).toEqual({
      id: queued[0]!.id,
      type: 'task.succeeded',
      created: Math.floor(Date.parse('2026-11-25T09:59:59.500Z') / 1000),
      api_version: '2026-11-01',
      data: {
        object: {
          ...record,
          output: {
            assets: [
              {
                key: 'out/a.png',
                mime: 'image/png',
                url: 'https://files.example/out/a.png?sig=1',
                expiresAt: new Date(T0.getTime() + MESSAGE_URL_SECONDS * 1000).toISOString(),
              },
              { key: 'out/b.png', pending: true },
            ],
          },
        },
      },
    });
    expect(signed.at(-1)).toEqual({ key: 'out/a.png', expiresInSeconds: MESSAGE_URL_SECONDS });
  });

  it('writes errorMessage in the account language, and queues nothing without a matching endpoint', async () => {
    const accountId = next('acc');
    await endpoint(accountId, 'https://a.example/in', ['task.failed']);
    const failed = { taskId: next('job'), state: 'failed', errorCode: 'upstream_failed', cost: '0' };
    expect(await queue.execute(terminal(accountId, failed))).toBe(1);
    const [message] = await messages.findByTask(failed.taskId);
    expect(JSON.parse(message!.body).data.object.errorMessage).toContain('fournisseur');
    const expired = { taskId: next('job'), state: 'expired', cost: '0' };
    expect(await queue.execute(terminal(accountId, expired))).toBe(0);
  });

  it('sends the stored body, signed with every active secret, to the URL the endpoint has at each attempt', async () => {
    const hook = await receiver([500]);
    try {
      const accountId = next('acc');
      const e = await endpoint(accountId, `${hook.base}/first`, ['task.completed']);
      const taskId = next('job');
      await queue.execute(terminal(accountId, { taskId, state: 'expired', cost: '0' }));
      const [message] = await messages.findByTask(taskId);
      now = new Date();
      expect(await deliver.attempt(message!)).toMatchObject({ ok: false, status: 500 });
      expect((await endpoints.find(accountId, e.id))!.consecutiveFailures).toBe(1);

      const rotated = generateEndpointSecret();
      await endpoints.rotateSecret(accountId, e.id, rotated, new Date(now.getTime() + 60_000), now);
      await endpoints.update(accountId, e.id, { url: `${hook.base}/second` }, now);
      const [retry] = await messages.findByTask(taskId);
      expect(retry!.nextAttemptAt).toEqual(new Date(now.getTime() + 10_000));
      expect(await deliver.attempt(retry!)).toMatchObject({ ok: true, status: 200 });

      expect(hook.got.map((r) => r.path)).toEqual(['/first', '/second']);
      for (const r of hook.got) {
        expect(r.body).toBe(message!.body);
        expect(r.headers['webhook-id']).toBe(message!.id);
        expect(r.headers['user-agent']).toBe('Service-Webhook/2');
        expect(r.headers['content-type']).toBe('application/json');
      }
      expect(() => new Webhook(e.secret).verify(hook.got[0]!.body, hook.got[0]!.headers)).not.toThrow();
      const second = hook.got[1]!;
      expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(() => new Webhook(e.secret).verify(second.body, second.headers)).not.toThrow();
      expect(() => new Webhook(rotated).verify(second.body, second.headers)).not.toThrow();
      expect((await endpoints.find(accountId, e.id))!.consecutiveFailures).toBe(0);
      expect((await messages.findByTask(taskId))[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    } finally {
      await hook.close();
    }
  });

  it('drops a message unsent when its endpoint is disabled or deleted by the time of its attempt', async () => {
    const hook = await receiver();
    try {
      const accountId = next('acc');
      const off = await endpoint(accountId, `${hook.base}/off`, ['task.completed']);
      const gone = await endpoint(accountId, `${hook.base}/gone`, ['task.completed']);
      const taskId = next('job');
      expect(await queue.execute(terminal(accountId, { taskId, state: 'expired', cost: '0' }))).toBe(2);
      await endpoints.update(accountId, off.id, { state: enabledState(false) }, now);
      await database.query(`DELETE FROM "webhooks"."endpoints" WHERE "id" = $1`, [gone.id]);
      const results = await Promise.all((await messages.findByTask(taskId)).map((m) => deliver.attempt(m)));
      expect(results.sort()).toEqual(['endpoint_deleted', 'endpoint_disabled']);
      const rows = await messages.findByTask(taskId);
      expect(rows.map((m) => [m.state, m.attempts])).toEqual([
        ['dropped', 0],
        ['dropped', 0],
      ]);
      expect(hook.got).toHaveLength(0);
    } finally {
      await hook.close();
    }
  });
});
