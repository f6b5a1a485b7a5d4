import { newEvent, OutboxSignal } from '@gen/messaging';
import { TaskEventType } from '@gen/contracts';
import { migrate, type Database } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import type { TaskRow } from './task-row';
import { TaskRepository } from './task.repository';
import { TASKS_SCHEMA, type TasksMigrations } from './tasks-schema';

const T0 = new Date('2026-11-24T10:00:00.000Z');

const task = (id: string, over: Partial<TaskRow> = {}): TaskRow => ({
  id,
  accountId: 'acc_1',
  keyId: 'key_1',
  model: 'local/echo/chat',
  state: 'succeeded',
  input: { messages: [{ role: 'user', content: 'hi' }] },
  callbackUrl: null,
  estimatedE9: 4_000_000n,
  priceMultiplier: '1',
  costE9: 1_000_000n,
  settled: false,
  errorCode: null,
  assets: [],
  usage: null,
  textOutput: null,
  requestId: `req_${id}`,
  sourceTaskId: null,
  retentionSeconds: 3600,
  createdAt: T0,
  startedAt: T0,
  completedAt: T0,
  deadlineAt: new Date(T0.getTime() + 1800_000),
  purgedAt: null,
  ...over,
});

describe.each(DATABASE_KINDS)('TaskRepository on %s: reads and settlements that arrive together', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let tasks: TaskRepository;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, TASKS_SCHEMA);
    tasks = new TaskRepository(database, {} as TasksMigrations, new OutboxSignal());
    for (let i = 0; i < 30; i += 1)
      await tasks.insert(task(`job_${kind}_${i}`, { costE9: BigInt(i) * 1000n }), []);
  });
  afterAll(() => test.close());

  it('gives every reader its own task (or null) while sharing statements', async () => {
    const statements = jest.spyOn(database, 'query');
    try {
      const ids = [...Array.from({ length: 30 }, (_, i) => `job_${kind}_${i}`), `job_${kind}_missing`];
      const found = await Promise.all(ids.map((id) => tasks.findById(id)));
      expect(found.map((t) => t?.id ?? null)).toEqual([...ids.slice(0, 30), null]);
      expect(found[7]).toMatchObject({ accountId: 'acc_1', estimatedE9: 4_000_000n, settled: false });
      expect(statements.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      statements.mockRestore();
    }
  });

  it('marks each task settled once, with its own cost, in shared statements', async () => {
    const statements = jest.spyOn(database, 'query');
    let first: boolean[];
    try {
      first = await Promise.all(
        Array.from({ length: 30 }, (_, i) => tasks.markSettled(`job_${kind}_${i}`, BigInt(i) * 7n)),
      );
      expect(statements.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      statements.mockRestore();
    }
    expect(first.every(Boolean)).toBe(true);
    // Again, and one that does not exist: nothing changes.
    const again = await Promise.all([
      tasks.markSettled(`job_${kind}_3`, 999n),
      tasks.markSettled(`job_${kind}_4`, 999n),
      tasks.markSettled(`job_${kind}_missing`, 1n),
    ]);
    expect(again).toEqual([false, false, false]);
    const after = await Promise.all([3, 4, 29].map((i) => tasks.findById(`job_${kind}_${i}`)));
    expect(after.map((t) => [t?.settled, t?.costE9])).toEqual([
      [true, 21n],
      [true, 28n],
      [true, 203n],
    ]);
  });
});

describe.each(DATABASE_KINDS)(
  'TaskRepository on %s: inserts and transitions that arrive together',
  (kind) => {
    let test: TestDatabase;
    let database: Database;
    let tasks: TaskRepository;
    const rows = async (sql: string, params: unknown[] = []) =>
      database.query<Record<string, unknown>>(sql, params);
    const queued = (id: string): TaskRow =>
      task(id, { state: 'queued', costE9: null, assets: null, startedAt: null, completedAt: null });
    const created = (id: string) =>
      newEvent(
        TaskEventType.created,
        {
          taskId: id,
          accountId: 'acc_1',
          keyId: 'key_1',
          model: 'local/echo/chat',
          input: { messages: [] },
          estimatedCost: '0.004',
          createdAt: T0.toISOString(),
          deadlineAt: T0.toISOString(),
        },
        { key: id, occurredAt: T0, correlationId: `req_${id}`, causationId: `req_${id}` },
      );
    const failedEvent = (id: string) =>
      newEvent(
        TaskEventType.failed,
        {
          taskId: id,
          accountId: 'acc_1',
          keyId: 'key_1',
          model: 'local/echo/chat',
          state: 'failed',
          charge: '0',
          errorCode: 'service_interrupted',
          completedAt: T0.toISOString(),
          record: {} as never,
        },
        { key: id, correlationId: `req_${id}`, causationId: `evt_${id}` },
      );

    beforeAll(async () => {
      test = await openTestDatabase(kind);
      database = test.database;
      await migrate(database, TASKS_SCHEMA);
      tasks = new TaskRepository(database, {} as TasksMigrations, new OutboxSignal());
    });
    afterAll(() => test.close());

    it('writes each task with its own values, lease and events in shared statements; a duplicate fails alone', async () => {
      await tasks.insert(queued(`dup_${kind}`), []);
      const ids = Array.from({ length: 20 }, (_, i) => `ins_${kind}_${i}`);
      const statements = jest.spyOn(database, 'query');
      let results: PromiseSettledResult<void>[];
      try {
        results = await Promise.allSettled([
          ...ids.map((id, i) =>
            tasks.insert(
              queued(id),
              [created(id)],
              i % 2 === 0 ? { owner: `owner_${i}`, leaseMs: 10_000 + i } : undefined,
            ),
          ),
          tasks.insert(queued(`dup_${kind}`), [created(`dup_${kind}`)]),
        ]);
        // The first alone, the rest in one group that fails on the duplicate and is written one by one.
        expect(statements.mock.calls.length).toBeLessThanOrEqual(3 + ids.length);
      } finally {
        statements.mockRestore();
      }
      expect(results.slice(0, ids.length).every((r) => r.status === 'fulfilled')).toBe(true);
      expect(results[ids.length]!.status).toBe('rejected');

      // Grouped when nothing fails: one statement after the first.
      const more = Array.from({ length: 10 }, (_, i) => `more_${kind}_${i}`);
      const counted = jest.spyOn(database, 'query');
      try {
        await Promise.all(more.map((id) => tasks.insert(queued(id), [created(id)])));
        expect(counted.mock.calls.length).toBeLessThanOrEqual(2);
      } finally {
        counted.mockRestore();
      }

      const written = await Promise.all([...ids, ...more].map((id) => tasks.findById(id)));
      expect(written.map((t) => t?.id)).toEqual([...ids, ...more]);
      expect(written[3]).toEqual(queued(ids[3]!));
      const leases = await rows(
        `SELECT "task_id", "owner", "lease_until" > now() + interval '5 seconds' AS "ahead"
       FROM "tasks"."stream_leases" ORDER BY "task_id"`,
      );
      expect(leases.map((l) => [l['task_id'], l['owner'], l['ahead']])).toEqual(
        ids
          .map((id, i) => [id, `owner_${i}`, true] as const)
          .filter((_, i) => i % 2 === 0)
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      );
      // One task.created per task written, none for the refused duplicate (the failed group's inserts were
      // written one by one, in no particular order); a group's in the order it was given.
      const keys = (await rows(`SELECT "key" FROM "tasks"."outbox" ORDER BY "seq"`)).map((r) => r['key']);
      expect(keys.slice(0, ids.length).sort()).toEqual([...ids].sort());
      expect(keys.slice(ids.length)).toEqual(more);
    });

    it('moves each task from its own states, with its own events, in shared statements; stale news changes nothing', async () => {
      const ids = Array.from({ length: 12 }, (_, i) => `tr_${kind}_${i}`);
      for (const id of ids) await tasks.insert(queued(id), []);
      // The key that created tr_1 and tr_2; only tr_1's is forgotten.
      for (const id of [ids[1]!, ids[2]!])
        await tasks.claimIdempotencyKey({
          accountId: 'acc_1',
          scope: 'create',
          idemKey: `key-of-${id}`,
          keyId: 'key_1',
          fingerprint: 'f',
          taskId: id,
          now: T0,
          windowStart: new Date(0),
        });
      await rows(`DELETE FROM "tasks"."outbox"`);
      // tr_0 is already running; tr_11 succeeded: a move from 'queued' only leaves both alone.
      await tasks.transition(ids[0]!, ['queued'], { state: 'running', startedAt: T0 }, null);
      await tasks.transition(ids[11]!, ['queued'], { state: 'succeeded', completedAt: T0, costE9: 5n }, null);
      const T1 = new Date(T0.getTime() + 1000);
      const statements = jest.spyOn(database, 'query');
      let moved: (TaskRow | null)[];
      try {
        moved = await Promise.all(
          ids.map((id, i) =>
            i === 0 || i === 11
              ? tasks.transition(id, ['queued'], { state: 'running', startedAt: T1 }, [failedEvent(id)])
              : tasks.transition(
                  id,
                  ['queued', 'running'],
                  i % 2 === 0
                    ? {
                        state: 'succeeded',
                        completedAt: T1,
                        usage: { inputTokens: i, cachedInputTokens: 0, outputTokens: 1, reasoningTokens: 0 },
                        textOutput: { content: `answer ${i}`, finishReason: 'stop' },
                        costE9: BigInt(i) * 1000n,
                      }
                    : { state: 'failed', completedAt: T1, errorCode: `code_${i}`, costE9: 0n },
                  [failedEvent(id)],
                  { forgetIdempotencyKey: i === 1 },
                ),
          ),
        );
        expect(statements.mock.calls.length).toBeLessThanOrEqual(2);
      } finally {
        statements.mockRestore();
      }
      expect(moved[0]).toBeNull();
      expect(moved[11]).toBeNull();
      expect(moved[4]).toMatchObject({
        id: ids[4],
        state: 'succeeded',
        completedAt: T1,
        costE9: 4000n,
        textOutput: { content: 'answer 4', finishReason: 'stop' },
        usage: { inputTokens: 4 },
        errorCode: null,
      });
      expect(moved[5]).toMatchObject({ state: 'failed', errorCode: 'code_5', costE9: 0n, textOutput: null });
      const after = await Promise.all([0, 4, 5, 11].map((i) => tasks.findById(ids[i]!)));
      expect(after.map((t) => [t?.state, t?.startedAt, t?.costE9])).toEqual([
        ['running', T0, null],
        ['succeeded', null, 4000n],
        ['failed', null, 0n],
        ['succeeded', null, 5n],
      ]);
      // Events only with the changes that happened, in their order.
      const keys = (await rows(`SELECT "key" FROM "tasks"."outbox" ORDER BY "seq"`)).map((r) => r['key']);
      expect(keys).toEqual(ids.slice(1, 11));
      const kept = (await rows(`SELECT "task_id" FROM "tasks"."idempotency_records" ORDER BY "task_id"`)).map(
        (r) => r['task_id'],
      );
      expect(kept).toEqual([ids[2]]);
    });

    it('ends a task settled (cost, flag and stream lease in its transition), and tells who is streamed', async () => {
      const ids = ['sq_quiet', 'sq_loud', 'sq_runner', 'sq_running'].map((id) => `${id}_${kind}`);
      const [quiet, loud, runner, running] = ids as [string, string, string, string];
      for (const id of [quiet, loud, running])
        await tasks.insert(queued(id), [], { owner: 'proc_a', leaseMs: 10_000 });
      await tasks.insert(queued(runner), []);
      expect(
        (await Promise.all(ids.map((id) => tasks.findForReport(id)))).map((r) => [r?.task.id, r?.streamed]),
      ).toEqual([
        [quiet, true],
        [loud, true],
        [runner, false],
        [running, true],
      ]);
      expect(await tasks.findForReport(`sq_none_${kind}`)).toBeNull();
      await rows(`DELETE FROM "tasks"."outbox"`);
      const statements = jest.spyOn(database, 'query');
      let moved: (TaskRow | null)[];
      try {
        moved = await Promise.all([
          tasks.transition(quiet, ['queued'], { state: 'succeeded', completedAt: T0, costE9: 3n }, null, {
            settled: true,
          }),
          tasks.transition(loud, ['queued'], { state: 'failed', completedAt: T0, costE9: 0n }, [
            failedEvent(loud),
          ]),
          tasks.transition(runner, ['queued'], { state: 'failed', completedAt: T0, costE9: 0n }, [
            failedEvent(runner),
          ]),
          tasks.transition(running, ['queued'], { state: 'running', startedAt: T0 }, null),
        ]);
        expect(statements.mock.calls.length).toBeLessThanOrEqual(2);
      } finally {
        statements.mockRestore();
      }
      expect(moved.map((t) => [t?.id, t?.state, t?.settled, t?.costE9])).toEqual([
        [quiet, 'succeeded', true, 3n],
        [loud, 'failed', false, 0n],
        [runner, 'failed', false, 0n],
        [running, 'running', false, null],
      ]);
      const keys = (await rows(`SELECT "key" FROM "tasks"."outbox" ORDER BY "seq"`)).map((r) => r['key']);
      expect(keys.sort()).toEqual([loud, runner].sort());
      const leased = async () =>
        (
          await rows(`SELECT "task_id" FROM "tasks"."stream_leases" WHERE "task_id" = ANY($1::text[])`, [ids])
        ).map((r) => r['task_id'] as string);
      // The settled end took its lease with it; an ended task otherwise keeps its lease until it is settled:
      // the lease is what a sweeper settles it by.
      expect((await leased()).sort()).toEqual([loud, running].sort());
      expect(await tasks.markSettled(quiet, 3n)).toBe(false);
      expect(await tasks.markSettled(loud, 0n)).toBe(true);
      expect(await leased()).toEqual([running]);
    });
  },
);
