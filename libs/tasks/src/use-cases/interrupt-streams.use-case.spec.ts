import {
  ExecutionEventType,
  TaskEventType,
  type CatalogPort,
  type EventEnvelope,
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

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, TASKS_SCHEMA);
    tasks = new TaskRepository(database, {} as TasksMigrations, new OutboxSignal());
    bus = new InProcessEventBus();
    const apply = new ApplyExecutionUseCase(tasks, {} as CatalogPort);
    // The tasks service's consumer of task.execution, as TaskFlowWorker subscribes it.
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
    // Reported before its lease lapsed, but the release never came.
    await tasks.insert(task(done, { state: 'succeeded' }), [], { owner: 'proc-gone', leaseMs: LEASE_MS });

    const sweeper = new InterruptStreamsUseCase(tasks, bus, options, clock);
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
    // The live stream keeps its task and lease; the reported one only loses its lease.
    expect(await tasks.findById(alive)).toMatchObject({ state: 'queued' });
    expect(await tasks.renewStreamLeases('proc-alive', [alive], LEASE_MS)).toEqual([alive]);
    expect(await tasks.findById(done)).toMatchObject({ state: 'succeeded' });
    expect(await terminal(done)).toEqual([]);
    expect(
      await database.query(
        `SELECT "task_id" FROM "tasks"."stream_leases" WHERE "task_id" = ANY($1::text[])`,
        [[dead, done]],
      ),
    ).toEqual([]);
    // Nothing is reported twice.
    expect(await sweeper.execute()).toBe(0);
    expect(reports).toHaveLength(1);
  });
});
