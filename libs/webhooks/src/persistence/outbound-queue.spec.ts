import { migrate, type Database } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { DeliveryRepository, type DeliveryRow } from './delivery.repository';
import type { AttemptRecord } from './outbound-queue';
import { WEBHOOKS_SCHEMA, type WebhooksMigrations } from './webhooks-schema';

const T0 = new Date('2026-11-25T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe.each(DATABASE_KINDS)('group-committed attempt records on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let statements = 0;
  let deliveries: DeliveryRepository;
  let serial = 0;
  const next = (prefix: string) => `${prefix}_${kind}_q${(serial += 1)}`;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, WEBHOOKS_SCHEMA);
    // The same database, counting the statements the repository sends.
    const counting = Object.create(database) as Database;
    counting.query = ((sql: string, params?: unknown[]) => {
      statements += 1;
      return database.query(sql, params);
    }) as Database['query'];
    deliveries = new DeliveryRepository(counting, {} as WebhooksMigrations);
  });
  afterAll(() => test.close());

  async function queued(count: number): Promise<DeliveryRow[]> {
    const taskIds = Array.from({ length: count }, () => next('job'));
    for (const taskId of taskIds) {
      await deliveries.enqueue({
        id: next('whd'),
        taskId,
        accountId: 'acc_q',
        url: 'https://hooks.example.com/in',
        payloadVersion: 2,
        record: { taskId },
        now: T0,
      });
    }
    return (await Promise.all(taskIds.map((t) => deliveries.findByTask(t)))).map((rows) => rows[0]!);
  }

  /** Attempt 1 of `row`: delivered, failed with a retry, or failed for the last time, by its position. */
  function attemptOf(row: DeliveryRow, i: number): AttemptRecord {
    const kindOf = i % 3;
    return {
      id: row.id,
      n: 1,
      at: at(1),
      outcome: ['delivered', 'status', 'connection'][kindOf]!,
      ...[
        { status: 204 },
        { status: 503, detail: 'receiver answered HTTP 503' },
        { detail: 'connect ECONNREFUSED 203.0.113.9:443' },
      ][kindOf],
      durationMs: 10 + i,
      delivered: kindOf === 0,
      nextAttemptAt: kindOf === 1 ? at(11) : null,
    };
  }

  it('records attempts that finish together in fewer statements, each with its own outcome', async () => {
    const rows = await queued(30);
    statements = 0;
    await Promise.all(rows.map((row, i) => deliveries.recordAttempt(attemptOf(row, i))));
    // The first is written at once, the other 29 wait for it and go out as one group.
    expect(statements).toBe(2);

    for (const [i, row] of rows.entries()) {
      const [after] = await deliveries.findByTask(row.taskId);
      const expected = attemptOf(row, i);
      expect(after).toMatchObject({
        attempts: 1,
        state: expected.delivered ? 'delivered' : expected.nextAttemptAt ? 'pending' : 'failed',
        nextAttemptAt: expected.nextAttemptAt,
        deliveredAt: expected.delivered ? at(1) : null,
        lastOutcome: expected.outcome,
      });
      expect(await deliveries.attemptsOf(row.id)).toEqual([
        {
          n: 1,
          attemptedAt: at(1),
          outcome: expected.outcome,
          status: expected.status ?? null,
          // The error's class only, never the address in the detail.
          error: expected.outcome === 'connection' ? 'ECONNREFUSED' : null,
          durationMs: 10 + i,
        },
      ]);
    }
  });

  it('fails only the caller whose record cannot be written; the rest of its group is recorded', async () => {
    const [first, second, third, fourth] = await queued(4);
    await deliveries.recordAttempt(attemptOf(first!, 1));
    statements = 0;
    const results = await Promise.allSettled([
      deliveries.recordAttempt(attemptOf(fourth!, 0)),
      deliveries.recordAttempt(attemptOf(second!, 0)),
      // Attempt 1 of `first` is already recorded: this record collides with it.
      deliveries.recordAttempt(attemptOf(first!, 0)),
      deliveries.recordAttempt(attemptOf(third!, 0)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const [firstAfter] = await deliveries.findByTask(first!.taskId);
    expect(firstAfter).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: at(11) });
    expect(await deliveries.attemptsOf(first!.id)).toHaveLength(1);
    for (const row of [second!, third!, fourth!]) {
      const [after] = await deliveries.findByTask(row.taskId);
      expect(after).toMatchObject({ state: 'delivered', attempts: 1, deliveredAt: at(1) });
    }
  });

  it('writes two attempts of one delivery in two statements, in the order they were made', async () => {
    const [row] = await queued(1);
    const failed = { ...attemptOf(row!, 1), n: 1 };
    const delivered = { ...attemptOf(row!, 0), n: 2, at: at(12) };
    await Promise.all([deliveries.recordAttempt(failed), deliveries.recordAttempt(delivered)]);
    const [after] = await deliveries.findByTask(row!.taskId);
    expect(after).toMatchObject({
      state: 'delivered',
      attempts: 2,
      deliveredAt: at(12),
      nextAttemptAt: null,
    });
    expect((await deliveries.attemptsOf(row!.id)).map((a) => a.n)).toEqual([1, 2]);
  });
});
