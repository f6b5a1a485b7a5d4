import {
  ExecutionEventType,
  TaskEventType,
  type CatalogPort,
  type EventEnvelope,
  type FinishHoldOptions,
  type HoldsPort,
  type TaskEventListenersPort,
  type TypedEvent,
} from '@gen/contracts';
import { InProcessEventBus, OutboxSignal, subscribeEvents } from '@gen/messaging';
import { migrate, type Database } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { PrivateCidrAllowList } from '@gen/ssrf';
import type { TasksOptions } from '../domain/task-options';
import type { TaskRow } from '../persistence/task-row';
import { TaskRepository } from '../persistence/task.repository';
import { TASKS_SCHEMA, type TasksMigrations } from '../persistence/tasks-schema';
import { ApplyExecutionUseCase } from './apply-execution.use-case';
import { InterruptStreamsUseCase } from './interrupt-streams.use-case';

const LEASE_MS = 300;
const options: TasksOptions = {
  deadlineSeconds: 1800,
  quoteKey: Buffer.alloc(32),
  allowPrivateCidrs: PrivateCidrAllowList.EMPTY,
  streamLeaseMs: LEASE_MS,
};

const task = (id: string, over: Partial<TaskRow> = {}): TaskRow => ({
  id,
  accountId: 'acc_1',
  keyId: 'key_1',
  model: 'local/echo/chat',
  state: 'queued',
  input: { messages: [{ role: 'user', content: 'hi' }] },
  callbackUrl: null,
  estimatedE9: 4_000_000n,
  priceMultiplier: '1',
  costE9: null,
  settled: false,
  errorCode: null,
  assets: null,
  usage: null,
  textOutput: null,
  requestId: `req_${id}`,
  sourceTaskId: null,
  retentionSeconds: 3600,
  createdAt: new Date(),
  startedAt: null,
  completedAt: null,
  deadlineAt: new Date(Date.now() + 1800_000),
  purgedAt: null,
  ...over,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DATABASE_KINDS)('stream leases on %s: a text task whose streaming process died', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let tasks: TaskRepository;
  let bus: InProcessEventBus;
  /** The task.* events the transitions wrote to the outbox, by task. */
  const terminal = async (taskId: string) =>
    (
      await database.query<{ envelope: EventEnvelope | string }>(
        `SELECT "envelope" FROM "tasks"."outbox" WHERE "key" = $1`,
        [taskId],
      )
    )
      .map(
        (row) =>
          (typeof row.envelope === 'string' ? JSON.parse(row.envelope) : row.envelope) as EventEnvelope,
      )
      .filter((e) => e.type !== TaskEventType.created);
  const reports: TypedEvent<typeof ExecutionEventType.failed>[] = [];
  let now = Date.now();
  const clock = { now: () => new Date(now) };
  /** Billing's holds, as the tasks domain calls them directly: each call recorded. */
  const billed: [string, string][] = [];
  /** Holds billing finished before this test's calls (a process that died after finishing them): their view. */
  const finishedBefore = new Map<string, { status: 'settled' | 'released'; charged: string }>();
  /** Holds billing does not know (a task with none): settle and release answer null. */
  const unknownHolds = new Set<string>();
  const quietly = (options?: FinishHoldOptions): string => (options?.quiet ? ' quiet' : '');
  const holds = {
    settle: async (holdId: string, charge: string, options?: FinishHoldOptions) => {
      billed.push([holdId, `settle ${charge}${quietly(options)}`]);
      if (unknownHolds.has(holdId)) return null;
      return {
        holdId,
        amount: '0.004',
        ...(finishedBefore.get(holdId) ?? { status: 'settled', charged: charge }),
      };
    },
    release: async (holdId: string, options?: FinishHoldOptions) => {
      billed.push([holdId, `release${quietly(options)}`]);
      if (unknownHolds.has(holdId)) return null;
      return {
        holdId,
        amount: '0.004',
        ...(finishedBefore.get(holdId) ?? { status: 'released', charged: '0' }),
      };
    },
  } as unknown as HoldsPort;
  const leased = async (ids: string[]) =>
    (
      await database.query<{ task_id: string }>(
        `SELECT "task_id" FROM "tasks"."stream_leases" WHERE "task_id" = ANY($1::text[]) ORDER BY "task_id"`,
        [ids],
      )
    ).map((r) => r.task_id);

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, TASKS_SCHEMA);
    tasks = new TaskRepository(database, {} as TasksMigrations, new OutboxSignal());
    bus = new InProcessEventBus();
    // No TASK_EVENT_LISTENERS here (as in a fleet's tasks app): every terminal event is written.
    const apply = new ApplyExecutionUseCase(tasks, {} as CatalogPort, holds);
    // The tasks service's consumer of task.execution, as TaskEventConsumers subscribes it.
    await subscribeEvents(bus, { group: 'tasks', types: [ExecutionEventType.failed] }, async (event) => {
      reports.push(event);
      await apply.apply(event);
    });
  });
  afterAll(async () => {
    await bus.close();
    await test.close();
  });

  it('holds, renews and releases leases by their owner only', async () => {
    await tasks.insert(task(`job_${kind}_own`), [], { owner: 'proc-a', leaseMs: 60_000 });
    expect(await tasks.renewStreamLeases('proc-a', [`job_${kind}_own`, `job_${kind}_none`], 60_000)).toEqual([
      `job_${kind}_own`,
    ]);
    expect(await tasks.renewStreamLeases('proc-b', [`job_${kind}_own`], 60_000)).toEqual([]);
    await tasks.releaseStreamLeases('proc-b', [`job_${kind}_own`]);
    expect(await tasks.renewStreamLeases('proc-a', [`job_${kind}_own`], 60_000)).toHaveLength(1);
    await tasks.releaseStreamLeases('proc-a', [`job_${kind}_own`]);
    expect(await tasks.renewStreamLeases('proc-a', [`job_${kind}_own`], 60_000)).toEqual([]);
  });

  it('fails the task once its lease lapsed (service_interrupted, nothing charged) and frees its key', async () => {
    const dead = `job_${kind}_dead`;
    const alive = `job_${kind}_alive`;
    const done = `job_${kind}_done`;
    await tasks.insert(task(dead), [], { owner: 'proc-dead', leaseMs: LEASE_MS });
    await tasks.claimIdempotencyKey({
      accountId: 'acc_1',
      scope: 'create',
      idemKey: `key-${kind}`,
      keyId: 'key_1',
      fingerprint: 'f',
      taskId: dead,
      now: new Date(),
      windowStart: new Date(Date.now() - 86_400_000),
    });
    await tasks.insert(task(alive), [], { owner: 'proc-alive', leaseMs: LEASE_MS });
    // Reported and ended before its lease lapsed, but its settlement never came (its process died in between).
    await tasks.insert(task(done, { state: 'succeeded', costE9: 2_000_000n }), [], {
      owner: 'proc-gone',
      leaseMs: LEASE_MS,
    });
    // Ended and settled: only its lease is left behind.
    const over = `job_${kind}_over`;
    await tasks.insert(task(over, { state: 'succeeded', costE9: 1_000_000n, settled: true }), [], {
      owner: 'proc-gone',
      leaseMs: LEASE_MS,
    });

    const sweeper = new InterruptStreamsUseCase(tasks, bus, holds, options, clock);
    // A sweeper that just started gives live owners half a lease to renew.
    expect(await sweeper.execute()).toBe(0);
    for (let waited = 0; waited < LEASE_MS * 2; waited += LEASE_MS / 3) {
      await sleep(LEASE_MS / 3);
      expect(await tasks.renewStreamLeases('proc-alive', [alive], LEASE_MS)).toEqual([alive]);
    }
    now += LEASE_MS;
    expect(await sweeper.execute()).toBe(1);
    expect(reports.map((r) => [r.payload.taskId, r.payload.errorCode, r.causationId])).toEqual([
      [dead, 'service_interrupted', `lease:${dead}`],
    ]);
    expect(await tasks.findById(dead)).toMatchObject({
      state: 'failed',
      errorCode: 'service_interrupted',
      costE9: 0n,
    });
    // Billing hears task.failed with a charge of 0: the hold is released.
    expect((await terminal(dead)).map((e) => [e.type, (e.payload as { charge: string }).charge])).toEqual([
      [TaskEventType.failed, '0'],
    ]);
    // The Idempotency-Key may be claimed again, for a new task.
    expect(
      await tasks.claimIdempotencyKey({
        accountId: 'acc_1',
        scope: 'create',
        idemKey: `key-${kind}`,
        keyId: 'key_1',
        fingerprint: 'f',
        taskId: `job_${kind}_new`,
        now: new Date(),
        windowStart: new Date(Date.now() - 86_400_000),
      }),
    ).toBeNull();
    // The live stream keeps its task and lease. The ended, unsettled one is settled by its cost, once; the
    // settled one only loses its lease.
    expect(await tasks.findById(alive)).toMatchObject({ state: 'queued' });
    expect(await tasks.renewStreamLeases('proc-alive', [alive], LEASE_MS)).toEqual([alive]);
    expect(await tasks.findById(done)).toMatchObject({ state: 'succeeded' });
    expect(await terminal(done)).toEqual([]);
    expect(billed).toEqual([[done, 'settle 0.002']]);
    // The failed and the settled-by-the-sweeper keep their leases (claimed) until billing's record settles them.
    expect(await leased([dead, done, over])).toEqual([dead, done].sort());
    await tasks.markSettled(dead, 0n);
    await tasks.markSettled(done, 2_000_000n);
    expect(await leased([dead, done, over])).toEqual([]);
    // Nothing is reported or settled twice.
    expect(await sweeper.execute()).toBe(0);
    expect(reports).toHaveLength(1);
    expect(billed).toHaveLength(1);
  });

  it('records an ended task whose hold billing does not know settled at 0, and ends its lease', async () => {
    const orphan = `job_${kind}_orphan`;
    unknownHolds.add(orphan);
    await tasks.insert(task(orphan, { state: 'succeeded', costE9: 3_000_000n }), [], {
      owner: 'proc-gone',
      leaseMs: LEASE_MS,
    });
    const sweeper = new InterruptStreamsUseCase(tasks, bus, holds, options, clock);
    now += LEASE_MS * 2;
    await sleep(LEASE_MS + 50);
    const billedBefore = billed.length;
    await sweeper.execute();
    const orphans = () => billed.slice(billedBefore).filter(([id]) => id === orphan);
    expect(orphans()).toEqual([[orphan, 'settle 0.003']]);
    // Nothing was charged, so the task says so; no report, no event, and its lease is gone.
    expect(await tasks.findById(orphan)).toMatchObject({ state: 'succeeded', settled: true, costE9: 0n });
    expect(await leased([orphan])).toEqual([]);
    expect(reports.filter((r) => r.payload.taskId === orphan)).toEqual([]);
    expect(await terminal(orphan)).toEqual([]);
    // The next sweeps find nothing of it to claim.
    now += LEASE_MS * 2;
    await sweeper.execute();
    expect(orphans()).toHaveLength(1);
  });

  it('settles a streamed task directly when nothing would read its terminal event, and only then', async () => {
    const heard = new Set<string>(['acc_heard']);
    const listeners: TaskEventListenersPort = { listens: async (accountId) => heard.has(accountId) };
    const catalog = { chargeFor: () => '0.003' } as unknown as CatalogPort;
    const apply = new ApplyExecutionUseCase(tasks, catalog, holds, listeners);
    const quiet = `job_${kind}_quiet`;
    const heardTask = `job_${kind}_heard`;
    const callback = `job_${kind}_callback`;
    const queued = `job_${kind}_queued_run`;
    await tasks.insert(task(quiet), [], { owner: 'proc-a', leaseMs: 60_000 });
    await tasks.insert(task(heardTask, { accountId: 'acc_heard' }), [], { owner: 'proc-a', leaseMs: 60_000 });
    await tasks.insert(task(callback, { callbackUrl: 'https://hooks.example.com/cb' }), [], {
      owner: 'proc-a',
      leaseMs: 60_000,
    });
    // Run by the runner (no stream lease): billing always settles it from its event.
    await tasks.insert(task(queued), []);
    billed.length = 0;
    const succeeded = (taskId: string): TypedEvent<typeof ExecutionEventType.succeeded> => ({
      id: `evt_${taskId}`,
      type: ExecutionEventType.succeeded,
      version: 1,
      key: taskId,
      occurredAt: new Date().toISOString(),
      correlationId: `req_${taskId}`,
      causationId: `run_${taskId}`,
      payload: {
        taskId,
        assets: [],
        text: { content: 'hello', finishReason: 'stop' },
        usage: { inputTokens: 3, cachedInputTokens: 0, outputTokens: 2, reasoningTokens: 0 },
        finishedAt: new Date().toISOString(),
      },
    });
    for (const id of [quiet, heardTask, callback, queued]) await apply.apply(succeeded(id));
    // Only the streamed task nobody listens to: no event, its hold settled first by its cost (quietly: no
    // billing event either), and the task ended settled with its lease gone, before the report resolved.
    expect(await terminal(quiet)).toEqual([]);
    expect(billed).toEqual([[quiet, 'settle 0.003 quiet']]);
    expect(await tasks.findById(quiet)).toMatchObject({
      state: 'succeeded',
      costE9: 3_000_000n,
      settled: true,
    });
    for (const id of [heardTask, callback, queued])
      expect([id, (await terminal(id)).map((e) => e.type)]).toEqual([id, [TaskEventType.succeeded]]);
    expect(await leased([quiet, heardTask, callback])).toEqual([callback, heardTask].sort());
    for (const id of [heardTask, callback])
      expect(await tasks.findById(id)).toMatchObject({
        state: 'succeeded',
        costE9: 3_000_000n,
        settled: false,
      });
    // A report that finds the task ended already changes nothing, and bills nothing.
    await apply.apply(succeeded(quiet));
    expect(billed).toHaveLength(1);
  });

  it('a streamed task whose hold was finished before its end (its process died in between) keeps that charge', async () => {
    const apply = new ApplyExecutionUseCase(tasks, {} as CatalogPort, holds, { listens: async () => false });
    const id = `job_${kind}_finished_before`;
    await tasks.insert(task(id), [], { owner: 'proc-gone', leaseMs: 60_000 });
    billed.length = 0;
    finishedBefore.set(id, { status: 'settled', charged: '0.002' });
    // The sweeper's report of the lapsed lease: a failure, whose release finds the hold settled already.
    await apply.apply({
      id: `evt_${id}`,
      type: ExecutionEventType.failed,
      version: 1,
      key: id,
      occurredAt: new Date().toISOString(),
      correlationId: `req_${id}`,
      causationId: `lease:${id}`,
      payload: { taskId: id, errorCode: 'service_interrupted', finishedAt: new Date().toISOString() },
    });
    expect(billed).toEqual([[id, 'release quiet']]);
    // The task records billing's word: the charge it kept, settled; the lease is gone.
    expect(await tasks.findById(id)).toMatchObject({ state: 'failed', costE9: 2_000_000n, settled: true });
    expect(await leased([id])).toEqual([]);
    expect(await terminal(id)).toEqual([]);
  });
});
