import { migrate, type Database } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { EndpointRepository } from './endpoint.repository';
import { MessageRepository, type MessageRow, type NewMessage } from './message.repository';
import type { AttemptRecord } from './outbound-queue';
import { WEBHOOKS_SCHEMA, type WebhooksMigrations } from './webhooks-schema';

const T0 = new Date('2026-11-25T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const LEASE_MS = 60_000;

describe.each(DATABASE_KINDS)('endpoint messages on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let messages: MessageRepository;
  let endpoints: EndpointRepository;
  let serial = 0;
  const next = (prefix: string) => `${prefix}_${kind}_${(serial += 1)}`;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, WEBHOOKS_SCHEMA);
    messages = new MessageRepository(database, {} as WebhooksMigrations);
    endpoints = new EndpointRepository(database, {} as WebhooksMigrations);
  });
  afterAll(() => test.close());

  async function endpoint() {
    const accountId = next('acc');
    const created = await endpoints.createWithinLimit(
      {
        id: next('whe'),
        accountId,
        url: 'https://hooks.example.com/in',
        description: '',
        enabledEvents: ['task.completed'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        now: T0,
      },
      16,
    );
    return created!;
  }

  const message = (endpointId: string, accountId: string, taskId = next('job')): NewMessage => ({
    id: next('msg'),
    endpointId,
    accountId,
    taskId,
    eventType: 'task.succeeded',
    body: `{"id":"x","note":"é ✓ ${taskId}"}`,
  });

  const failedAttempt = (m: MessageRow, status: number, nextAttemptAt: Date | null): AttemptRecord => ({
    id: m.id,
    n: m.attempts + 1,
    at: at(1),
    outcome: 'status',
    status,
    detail: `receiver answered HTTP ${status}`,
    durationMs: 12,
    delivered: false,
    nextAttemptAt,
  });

  async function claimAll(now: Date): Promise<MessageRow[]> {
    return messages.claimDue(now, LEASE_MS, 1000);
  }

  it('queues at most one message per endpoint and task, and stores the body byte for byte', async () => {
    const e = await endpoint();
    const first = message(e.id, e.accountId, 'job_same');
    expect(await messages.enqueue([first], T0)).toBe(1);
    expect(await messages.enqueue([{ ...first, id: next('msg'), body: '{}' }], T0)).toBe(0);
    expect(await messages.enqueue([], T0)).toBe(0);
    const [row] = await messages.findByTask('job_same');
    expect(row).toMatchObject({ id: first.id, body: first.body, state: 'pending', attempts: 0 });
    expect(row!.nextAttemptAt).toEqual(T0);
  });

  it('leases a claimed message: a second claim within the lease gets nothing', async () => {
    const e = await endpoint();
    const m = message(e.id, e.accountId);
    await messages.enqueue([m], T0);
    const claimed = await claimAll(at(0));
    expect(claimed.map((c) => c.id)).toContain(m.id);
    expect((await claimAll(at(1))).map((c) => c.id)).not.toContain(m.id);
    expect((await claimAll(at(61))).map((c) => c.id)).toContain(m.id);
  });

  it('a failure counts up the endpoint and schedules the next attempt; a delivery resets the count', async () => {
    const e = await endpoint();
    const m = message(e.id, e.accountId);
    await messages.enqueue([m], T0);
    const [row] = await messages.findByTask(m.taskId);
    await messages.recordAttemptOn(row!, failedAttempt(row!, 500, at(11)), 'failed');
    await messages.recordAttemptOn(row!, { ...failedAttempt(row!, 503, at(41)), n: 2 }, 'failed');
    expect((await endpoints.find(e.accountId, e.id))!.consecutiveFailures).toBe(2);
    const [retried] = await messages.findByTask(m.taskId);
    expect(retried).toMatchObject({ state: 'pending', attempts: 2, nextAttemptAt: at(41) });

    await messages.recordAttemptOn(
      retried!,
      { ...failedAttempt(retried!, 200, null), outcome: 'delivered', delivered: true },
      'delivered',
    );
    const [delivered] = await messages.findByTask(m.taskId);
    expect(delivered).toMatchObject({ state: 'delivered', attempts: 3, nextAttemptAt: null });
    expect((await endpoints.find(e.accountId, e.id))!.consecutiveFailures).toBe(0);
    expect((await messages.attemptsOf(m.id)).map((a) => a.status)).toEqual([500, 503, 200]);
  });

  it('a 410 disables the endpoint and drops its other pending messages in the same statement', async () => {
    const e = await endpoint();
    const other = await endpoint();
    const [gone, queued, done] = [
      message(e.id, e.accountId),
      message(e.id, e.accountId),
      message(e.id, e.accountId),
    ];
    const elsewhere = message(other.id, other.accountId);
    await messages.enqueue([gone, queued, done, elsewhere], T0);
    const [doneRow] = await messages.findByTask(done.taskId);
    await messages.recordAttemptOn(
      doneRow!,
      { ...failedAttempt(doneRow!, 204, null), outcome: 'delivered', delivered: true },
      'delivered',
    );
    const [goneRow] = await messages.findByTask(gone.taskId);
    await messages.recordAttemptOn(goneRow!, failedAttempt(goneRow!, 410, null), 'gone');

    expect(await endpoints.find(e.accountId, e.id)).toMatchObject({
      status: 'disabled',
      disabledReason: 'gone_410',
      enabled: true,
      consecutiveFailures: 0,
    });
    expect((await messages.findByTask(gone.taskId))[0]).toMatchObject({ state: 'failed', attempts: 1 });
    expect((await messages.findByTask(queued.taskId))[0]).toMatchObject({
      state: 'dropped',
      lastOutcome: 'gone_410',
      nextAttemptAt: null,
    });
    expect((await messages.findByTask(done.taskId))[0]).toMatchObject({ state: 'delivered' });
    expect((await messages.findByTask(elsewhere.taskId))[0]).toMatchObject({ state: 'pending' });
    expect((await endpoints.find(other.accountId, other.id))!.status).toBe('enabled');
  });

  it('a message dropped while its attempt was in flight stays dropped unless that attempt delivered it', async () => {
    const e = await endpoint();
    const [a, b] = [message(e.id, e.accountId), message(e.id, e.accountId)];
    await messages.enqueue([a, b], T0);
    const [rowA] = await messages.findByTask(a.taskId);
    const [rowB] = await messages.findByTask(b.taskId);
    await messages.drop(a.id, 'endpoint_disabled');
    await messages.drop(b.id, 'endpoint_disabled');
    await messages.recordAttemptOn(rowA!, failedAttempt(rowA!, 500, at(11)), 'failed');
    await messages.recordAttemptOn(
      rowB!,
      { ...failedAttempt(rowB!, 200, null), outcome: 'delivered', delivered: true },
      'delivered',
    );
    expect((await messages.findByTask(a.taskId))[0]).toMatchObject({ state: 'dropped', nextAttemptAt: null });
    expect((await messages.findByTask(b.taskId))[0]).toMatchObject({ state: 'delivered' });
  });

  it('redelivery makes any message due again now, with the same id and body', async () => {
    const e = await endpoint();
    const m = message(e.id, e.accountId);
    await messages.enqueue([m], T0);
    await messages.drop(m.id, 'endpoint_disabled');
    const again = await messages.redeliver(m.id, at(100));
    expect(again).toMatchObject({ id: m.id, body: m.body, state: 'pending', nextAttemptAt: at(100) });
    expect(await messages.redeliver('msg_unknown', at(100))).toBeNull();
  });

  it('looks up the endpoints of several accounts together, each caller getting only its own', async () => {
    const a = await endpoint();
    const b = await endpoint();
    const statements = jest.spyOn(database, 'query');
    let lists;
    try {
      lists = await Promise.all([
        endpoints.endpointsOf(a.accountId),
        endpoints.endpointsOf(b.accountId),
        endpoints.endpointsOf(a.accountId),
        endpoints.endpointsOf(next('acc')),
      ]);
      expect(statements.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      statements.mockRestore();
    }
    expect(lists.map((list) => list.map((e) => e.id))).toEqual([[a.id], [b.id], [a.id], []]);
    expect(await endpoints.endpointsOf(a.accountId)).toEqual(await endpoints.list(a.accountId));
  });
});
