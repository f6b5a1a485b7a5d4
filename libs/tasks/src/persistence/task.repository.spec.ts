import { OutboxSignal } from '@gen/messaging';
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
