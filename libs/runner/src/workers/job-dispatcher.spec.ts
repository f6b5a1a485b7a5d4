import {
  ExecutionEventType,
  TaskEventType,
  Topics,
  type EventEnvelope,
  type TaskCreatedPayload,
} from '@gen/contracts';
import { loadConfig, systemClock, type AppConfig } from '@gen/core';
import { InProcessEventBus } from '@gen/messaging';
import { DEFAULT_ADAPTERS, MemoryCircuitState, ProviderRegistry, ProviderRouter } from '@gen/providers';
import { LocalObjectStorage } from '@gen/storage';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { TaskCreatedConsumer } from '../events/task-created.consumer';
import { JobRepository } from '../persistence/job.repository';
import { RunnerMigrations } from '../persistence/runner-schema';
import { ExecuteTaskUseCase } from '../use-cases/execute-task.use-case';
import { RunChatUseCase } from '../use-cases/run-chat.use-case';
import { JobDispatcher } from './job-dispatcher';

/** The provider port as apps build it, over the offline models' bindings. */
function offlineProviders(): ProviderRouter {
  const routes = {
    routeFor: (model: string) => ({
      model,
      modality: 'image' as const,
      bindings: [{ adapter: 'offline', upstreamModel: model, credentials: [], settings: {} }],
    }),
  };
  return new ProviderRouter({
    routes,
    registry: new ProviderRegistry(DEFAULT_ADAPTERS, { credential: () => undefined }),
    circuits: new MemoryCircuitState(),
  });
}

function created(
  n: number,
  input: Record<string, unknown>,
  model = 'local/sketch',
): EventEnvelope<TaskCreatedPayload> {
  const taskId = `job_runner_${n}`;
  return {
    id: `evt_runner_${n}`,
    type: TaskEventType.created,
    version: 1,
    key: taskId,
    occurredAt: new Date().toISOString(),
    correlationId: `req_runner_${n}`,
    causationId: taskId,
    payload: {
      taskId,
      accountId: 'acc_1',
      keyId: 'key_1',
      model,
      input: { prompt: 'runner', width: 64, height: 64, ...input },
      estimatedCost: '0.004',
      createdAt: new Date().toISOString(),
      deadlineAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  };
}

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** One runner process: its queue, dispatcher and consumer on a shared database and bus. */
class Runner {
  readonly jobs: JobRepository;
  readonly dispatcher: JobDispatcher;
  readonly consumer: TaskCreatedConsumer;

  constructor(db: TestDatabase, bus: InProcessEventBus, config: AppConfig) {
    const storage = new LocalObjectStorage({
      directory: db.dir,
      baseUrl: 'http://127.0.0.1',
      secret: Buffer.alloc(32, 7),
    });
    this.jobs = new JobRepository(db.database, new RunnerMigrations(db.database));
    const routes = { routeFor: () => null };
    const providers = offlineProviders();
    const chat = new RunChatUseCase(bus, systemClock, providers);
    // No model here has media fields: reading one would be a bug.
    const media = { resolve: () => Promise.reject(new Error('no media field to read')) };
    const executor = new ExecuteTaskUseCase(bus, storage, systemClock, providers, routes, chat, media);
    this.dispatcher = new JobDispatcher(this.jobs, executor, systemClock, config, null);
    this.consumer = new TaskCreatedConsumer(bus, this.jobs, this.dispatcher, null);
  }

  async start(): Promise<void> {
    await this.jobs.migrations.onModuleInit();
    this.dispatcher.onApplicationBootstrap();
    await this.consumer.onApplicationBootstrap();
  }

  async stop(): Promise<void> {
    await this.consumer.beforeApplicationShutdown();
    await this.dispatcher.beforeApplicationShutdown();
  }
}

describe.each(DATABASE_KINDS)('the runner queue on %s', (kind) => {
  let db: TestDatabase;
  let bus: InProcessEventBus;
  let reports: EventEnvelope[];
  const config = (more: Record<string, string> = {}) =>
    loadConfig({ DATA_DIR: '/tmp', RUNNER_CONCURRENCY: '2', RUNNER_LEASE_MS: '1000', ...more });
  const reported = (type: string) => reports.filter((e) => e.type === type).map((e) => e.key);
  const rows = () =>
    db.database.query<{ task_id: string; owner: string | null; runs: number; finished: boolean }>(
      `SELECT "task_id", "owner", "runs", "finished_at" IS NOT NULL AS "finished" FROM "runner"."jobs" ORDER BY "task_id"`,
    );

  beforeEach(async () => {
    db = await openTestDatabase(kind);
    bus = new InProcessEventBus({ retryDelayMs: 5 });
    reports = [];
    await bus.subscribe(Topics.taskExecution, 'test', async (event) => void reports.push(event));
  });

  afterEach(async () => {
    await bus.close();
    await db.close();
  });

  it('queues a task before the event is acknowledged, runs it once, and ignores a redelivery', async () => {
    const runner = new Runner(db, bus, config());
    await runner.start();
    try {
      const event = created(1, {});
      // publish resolves when every group handled the event: the row exists by then.
      await bus.publish(Topics.taskLifecycle, [event]);
      expect((await rows()).map((r) => r.task_id)).toEqual(['job_runner_1']);
      await until(() => reported(ExecutionEventType.succeeded).length === 1);
      await until(async () => (await rows())[0]?.finished === true);
      await bus.publish(Topics.taskLifecycle, [event]);
      await new Promise((r) => setTimeout(r, 1200));
      expect(reported(ExecutionEventType.started)).toEqual(['job_runner_1']);
      expect(reported(ExecutionEventType.succeeded)).toEqual(['job_runner_1']);
      // Every report carries the request that created the task, and names task.created as its cause.
      expect(reports.map((e) => [e.correlationId, e.causationId])).toEqual([
        ['req_runner_1', 'evt_runner_1'],
        ['req_runner_1', 'evt_runner_1'],
      ]);
      expect(await rows()).toEqual([{ task_id: 'job_runner_1', owner: null, runs: 1, finished: true }]);
    } finally {
      await runner.stop();
    }
  });

  it('runs at most RUNNER_CONCURRENCY tasks of a model at once and leaves the rest unclaimed', async () => {
    const runner = new Runner(db, bus, config());
    await runner.start();
    try {
      await bus.publish(
        Topics.taskLifecycle,
        [1, 2, 3, 4, 5]
          .map((n) => created(n, { delay_ms: 600_000 }))
          .concat(created(6, { text: 'hi' }, 'local/tone')),
      );
      await until(() => reported(ExecutionEventType.started).length === 3);
      await new Promise((r) => setTimeout(r, 300));
      // Two sketches (the limit) and the tone, which a busy model does not hold back.
      expect(reported(ExecutionEventType.started).sort()).toEqual([
        'job_runner_1',
        'job_runner_2',
        'job_runner_6',
      ]);
      const owned = (await rows()).filter((r) => r.owner !== null).map((r) => r.task_id);
      expect(owned).toEqual(['job_runner_1', 'job_runner_2']);
    } finally {
      await runner.stop();
    }
    // Stopping gives the waiting tasks back: nothing is owned, nothing finished, nothing reported as done.
    expect((await rows()).filter((r) => r.owner !== null || r.finished)).toEqual([
      expect.objectContaining({ task_id: 'job_runner_6', finished: true }),
    ]);
    expect(reported(ExecutionEventType.succeeded)).toEqual(['job_runner_6']);
  });

  it('takes over the tasks of a runner that died once their lease lapses, and runs each to completion once', async () => {
    // What a runner killed while running three tasks leaves behind: three rows leased to it, never renewed.
    const jobs = new JobRepository(db.database, new RunnerMigrations(db.database));
    await jobs.migrations.onModuleInit();
    for (const n of [1, 2, 3])
      await jobs.add(created(n, {}).payload, { causationId: `evt_runner_${n}`, correlationId: 'req_1' });
    const leased = await jobs.claim({ owner: 'dead', leaseMs: 1000, perModel: 10, running: new Map() });
    expect(leased).toHaveLength(3);
    const diedAt = Date.now();
    const heir = new Runner(db, bus, config({ RUNNER_CONCURRENCY: '10' }));
    await heir.start();
    try {
      await until(() => reported(ExecutionEventType.succeeded).length === 3, 10_000);
      const takeover = Date.now() - diedAt;
      // Not before the lease lapsed, and within the lease plus a claim poll.
      expect(takeover).toBeGreaterThanOrEqual(900);
      expect(takeover).toBeLessThan(4000);
      expect(reported(ExecutionEventType.succeeded).sort()).toEqual([
        'job_runner_1',
        'job_runner_2',
        'job_runner_3',
      ]);
      await until(async () => (await rows()).every((r) => r.finished));
      expect((await rows()).map((r) => r.runs)).toEqual([2, 2, 2]);
    } finally {
      await heir.stop();
    }
  });

  it('renews the leases of the tasks it runs, so that no other runner takes them', async () => {
    const first = new Runner(db, bus, config());
    await first.start();
    await bus.publish(Topics.taskLifecycle, [created(1, { delay_ms: 600_000 })]);
    await until(() => reported(ExecutionEventType.started).length === 1);
    const second = new Runner(db, bus, config());
    await second.start();
    try {
      // Three lease lengths: without renewal the second runner would have claimed it.
      await new Promise((r) => setTimeout(r, 3000));
      expect(reported(ExecutionEventType.started)).toEqual(['job_runner_1']);
      expect((await rows()).map((r) => r.owner)).toEqual([first.dispatcher.owner]);
    } finally {
      await second.stop();
      await first.stop();
    }
    // Given back on stop: waiting for the next runner, not lost.
    expect(await rows()).toEqual([{ task_id: 'job_runner_1', owner: null, runs: 1, finished: false }]);
  });

  it('does not claim a task past its deadline, and sweeps it away', async () => {
    const jobs = new JobRepository(db.database, new RunnerMigrations(db.database));
    await jobs.migrations.onModuleInit();
    const late = created(9, {});
    await jobs.add(
      { ...late.payload, deadlineAt: new Date(Date.now() - 1000).toISOString() },
      { causationId: late.id, correlationId: 'req_1' },
    );
    expect(await jobs.claim({ owner: 'me', leaseMs: 1000, perModel: 5, running: new Map() })).toEqual([]);
    expect(await jobs.deleteExpired()).toBe(1);
    expect(await rows()).toEqual([]);
  });
});
