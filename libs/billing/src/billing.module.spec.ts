import 'reflect-metadata';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  ACCOUNT_DIRECTORY,
  CATALOG_MODELS,
  FUNDS_PORT,
  HOLDS_PORT,
  HoldEventType,
  TaskEventType,
  Topics,
  type EventEnvelope,
  type FundsPort,
  type TaskTerminalPayload,
  type HoldsPort,
} from '@gen/contracts';
import { CLOCK, systemClock } from '@gen/core';
import { EVENT_BUS, InProcessEventBus, newEvent } from '@gen/messaging';
import { DATABASE } from '@gen/persistence';
import { openTestDatabase, type TestDatabase } from '@gen/testing';
import { BillingModule } from './billing.module';
import { BILLING_OPTIONS } from './domain/billing-options';

/**
 * Timers started by billing's own code and its outbox relay, and not yet fired or cleared. The process-wide
 * count is no measure: PGlite's interval timer and Jest's reporter (in band) come and go with load.
 */
const ours = /[\\/]libs[\\/](billing|messaging)[\\/]src[\\/](?!.*\.spec\.ts)/;
const pendingTimers = new Set<NodeJS.Timeout>();

/** The task.created payload of a task of account acc_m. */
const created = (taskId: string) => ({
  taskId,
  accountId: 'acc_m',
  keyId: 'key_m',
  model: 'm',
  input: {},
  estimatedCost: '1',
  createdAt: new Date().toISOString(),
  deadlineAt: new Date(Date.now() + 60_000).toISOString(),
});
let timersStarted = 0;
const realSetTimeout = global.setTimeout;
const realClearTimeout = global.clearTimeout;
function trackTimers(): void {
  global.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const caller = (new Error().stack ?? '')
      .split('\n')
      .slice(2)
      .find((line) => !line.includes(__filename));
    const timer: NodeJS.Timeout = realSetTimeout(() => {
      pendingTimers.delete(timer);
      callback(...args);
    }, ms);
    if (caller && ours.test(caller)) {
      pendingTimers.add(timer);
      timersStarted += 1;
    }
    return timer;
  }) as typeof setTimeout;
  global.clearTimeout = ((timer?: NodeJS.Timeout) => {
    if (timer) pendingTimers.delete(timer);
    realClearTimeout(timer);
  }) as typeof clearTimeout;
}

describe('BillingModule', () => {
  let test: TestDatabase;
  let bus: InProcessEventBus;
  let app: INestApplicationContext;
  const events: EventEnvelope[] = [];

  beforeAll(async () => {
    test = await openTestDatabase('pglite');
    bus = new InProcessEventBus(10);
    await bus.subscribe(Topics.billingHolds, 'tasks', async (e) => void events.push(e));
    @Global()
    @Module({
      providers: [
        { provide: DATABASE, useValue: test.database },
        { provide: CLOCK, useValue: systemClock },
        { provide: EVENT_BUS, useValue: bus },
        { provide: ACCOUNT_DIRECTORY, useValue: { exists: async () => true } },
        { provide: CATALOG_MODELS, useValue: { modelIdOf: async (id: string) => id } },
      ],
      exports: [DATABASE, CLOCK, EVENT_BUS, ACCOUNT_DIRECTORY, CATALOG_MODELS],
    })
    class TestPlatform {}
    @Module({
      imports: [
        TestPlatform,
        BillingModule.forRoot({ reserveTtlMs: 300, sweepIntervalMs: 20, relayPollMs: 5 }),
      ],
    })
    class Root {}
    trackTimers();
    app = await NestFactory.createApplicationContext(Root, { logger: false });
  });
  afterAll(async () => {
    global.setTimeout = realSetTimeout;
    global.clearTimeout = realClearTimeout;
    await bus.close();
    await test.close();
  });

  const waitFor = async (condition: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  };

  it('takes its options from forRoot', () => {
    expect(app.get(BILLING_OPTIONS)).toEqual({
      reserveTtlMs: 300,
      sweepIntervalMs: 20,
      relayPollMs: 5,
      workers: true,
    });
  });

  it('sweeps an unconfirmed reserve, follows the task lifecycle and relays its events while it runs', async () => {
    const holds = app.get<HoldsPort>(HOLDS_PORT);
    await app
      .get<FundsPort>(FUNDS_PORT)
      .addCredit({ accountId: 'acc_m', kind: 'wallet', amountE9: 5_000_000_000n });
    const reserve = (holdId: string) =>
      holds.reserve({ holdId, accountId: 'acc_m', keyId: 'key_m', model: 'm', amount: '1', dailyCap: '10' });
    await reserve('job_m_abandoned');
    await reserve('job_m_task');
    const at = new Date().toISOString();
    const terminal = (charge: string): TaskTerminalPayload => ({
      ...created('job_m_task'),
      state: 'succeeded',
      charge,
      completedAt: at,
    });
    const meta = { key: 'job_m_task', correlationId: 'req_m', causationId: 'req_m' };
    const task = {
      [TaskEventType.created]: () => newEvent(TaskEventType.created, created('job_m_task'), meta),
      [TaskEventType.succeeded]: (charge: string) =>
        newEvent(TaskEventType.succeeded, terminal(charge), meta),
    };
    await bus.publish(Topics.taskLifecycle, [task[TaskEventType.created]()]);
    await waitFor(() => events.length >= 1);
    expect(events.map((e) => [e.key, e.type])).toEqual([['job_m_abandoned', HoldEventType.released]]);
    expect(await holds.confirm('job_m_task')).toMatchObject({ status: 'confirmed' });

    await bus.publish(Topics.taskLifecycle, [task[TaskEventType.succeeded]('0.25')]);
    await waitFor(() => events.length >= 2);
    expect(events[1]).toMatchObject({
      key: 'job_m_task',
      type: HoldEventType.settled,
      payload: { charged: '0.25' },
    });
  });

  it('stops its subscription, sweeper and relay on shutdown, leaving no timer behind', async () => {
    await app.get<HoldsPort>(HOLDS_PORT).reserve({
      holdId: 'job_m_after',
      accountId: 'acc_m',
      keyId: 'key_m',
      model: 'm',
      amount: '1',
      dailyCap: '10',
    });
    expect(timersStarted).toBeGreaterThan(0); // the sweeper and relay did schedule work while running
    await app.close();
    expect([...pendingTimers]).toEqual([]);
    // A valid event, which the consumer would apply if it were still subscribed: its group has stopped, so the
    // publication fails (the event would stay in its outbox for the next start).
    await expect(
      bus.publish(Topics.taskLifecycle, [
        newEvent(TaskEventType.created, created('job_m_after'), {
          key: 'job_m_after',
          correlationId: 'x',
          causationId: 'x',
        }),
      ]),
    ).rejects.toThrow('consumer group billing of task.lifecycle has stopped');
    await new Promise((r) => setTimeout(r, 400)); // past the reserve TTL and many sweep intervals
    expect(
      await test.database.query(`SELECT "status" FROM "billing"."holds" WHERE "id" = 'job_m_after'`),
    ).toEqual([{ status: 'reserved' }]);
  });
});
