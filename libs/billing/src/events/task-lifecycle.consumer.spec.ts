import { HoldEventType, TaskEventType, Topics, checkEvent, type EventEnvelope } from '@gen/contracts';
import { createLogger } from '@gen/core';
import { InProcessEventBus } from '@gen/messaging';
import { Logger } from '@nestjs/common';
import { DATABASE_KINDS } from '@gen/testing';
import { DEFAULT_BILLING_OPTIONS } from '../domain/billing-options';
import { openBillingFixture, type BillingFixture } from '../testing/billing-fixture';
import { reconcile } from '../testing/ledger-reconciliation';
import { BillingOutboxRelay } from './billing-outbox.relay';
import { TaskLifecycleConsumer } from './task-lifecycle.consumer';

const OPTIONS = { ...DEFAULT_BILLING_OPTIONS, relayPollMs: 5 };

/** A task.lifecycle envelope as the tasks service writes it; a terminal one when `charge` is given. */
function taskEvent(type: string, taskId: string, charge?: string): EventEnvelope {
  const terminal = { state: 'succeeded', charge, completedAt: '2026-11-24T10:00:00Z' };
  const created = {
    input: { prompt: 'p' },
    estimatedCost: '1',
    createdAt: '2026-11-24T09:59:00.000Z',
    deadlineAt: '2026-11-24T10:29:00.000Z',
  };
  return {
    id: `evt_${type}_${taskId}`,
    type,
    version: 1,
    key: taskId,
    occurredAt: '2026-11-24T10:00:00.000Z',
    correlationId: `req_${taskId}`,
    causationId: `req_${taskId}`,
    payload: {
      taskId,
      accountId: 'acc_e',
      keyId: 'key_e',
      model: 'm',
      ...(charge === undefined ? created : terminal),
    },
  };
}

const waitFor = async (condition: () => Promise<boolean> | boolean) => {
  const deadline = Date.now() + 10_000;
  while (!(await condition()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
};

describe.each(DATABASE_KINDS)('the task lifecycle consumer and the outbox relay on %s', (kind) => {
  let f: BillingFixture;
  let bus: InProcessEventBus;
  let consumer: TaskLifecycleConsumer;
  let relay: BillingOutboxRelay;
  // Read raw, as the relay publishes them, so that the test below checks what billing's SQL wrote.
  let published: EventEnvelope[];
  const logged: Record<string, unknown>[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    f = await openBillingFixture(kind);
    bus = new InProcessEventBus(10);
    published = [];
    await bus.subscribe(Topics.billingHolds, 'tasks', async (e) => {
      published.push(e);
    });
    const trail = createLogger('info', { write: (line: string) => void logged.push(JSON.parse(line)) });
    consumer = new TaskLifecycleConsumer(bus, f.confirm, f.settle, f.release, OPTIONS, trail);
    relay = new BillingOutboxRelay(f.database, bus, OPTIONS, f.outboxSignal);
    await consumer.onApplicationBootstrap();
    relay.onApplicationBootstrap();
  });
  afterAll(async () => {
    await consumer.beforeApplicationShutdown();
    await relay.beforeApplicationShutdown();
    await bus.close();
    await f.close();
  });

  const statusOf = async (holdId: string) =>
    (
      await f.database.query<{ status: string; charged: string | null }>(
        `SELECT "status", "charged_e9"::text AS "charged" FROM "billing"."holds" WHERE "id" = $1`,
        [holdId],
      )
    )[0];

  it('confirms, settles and releases from task events; a duplicate delivery changes nothing', async () => {
    await f.credit('acc_e', '10');
    const tasks = ['job_e_ok', 'job_e_failed', 'job_e_refused', 'job_e_expired', 'job_e_late'];
    for (const holdId of tasks) {
      await f.holds.reserve({
        holdId,
        accountId: 'acc_e',
        keyId: 'key_e',
        model: 'm',
        amount: '1',
        dailyCap: '100',
      });
    }
    const created = tasks.map((t) => taskEvent(TaskEventType.created, t));
    await bus.publish(Topics.taskLifecycle, created);
    await waitFor(
      async () =>
        (await f.database.query(`SELECT 1 FROM "billing"."holds" WHERE "status" = 'confirmed'`)).length === 5,
    );

    const terminal = [
      taskEvent(TaskEventType.succeeded, 'job_e_ok', '0.4'),
      taskEvent(TaskEventType.failed, 'job_e_failed', '0'),
      taskEvent(TaskEventType.failed, 'job_e_refused', '0.1'),
      taskEvent(TaskEventType.expired, 'job_e_expired', '0.000'),
    ];
    await bus.publish(Topics.taskLifecycle, terminal);
    await waitFor(() => published.length >= 4);
    await new Promise((r) => setTimeout(r, 100)); // anything duplicated would arrive now

    const byHold = Object.fromEntries(published.map((e) => [e.key, e]));
    expect(published).toHaveLength(4);
    expect(byHold['job_e_ok']).toMatchObject({
      type: HoldEventType.settled,
      key: 'job_e_ok',
      version: 1,
      correlationId: 'req_job_e_ok',
      causationId: 'evt_task.succeeded_job_e_ok',
      payload: { holdId: 'job_e_ok', accountId: 'acc_e', charged: '0.4' },
    });
    expect(byHold['job_e_failed']).toMatchObject({ type: HoldEventType.released, payload: { charged: '0' } });
    expect(byHold['job_e_refused']).toMatchObject({
      type: HoldEventType.settled,
      payload: { charged: '0.1' },
    });
    expect(byHold['job_e_expired']).toMatchObject({
      type: HoldEventType.released,
      payload: { charged: '0' },
    });
    expect(await statusOf('job_e_late')).toEqual({ status: 'confirmed', charged: null });

    // Redelivery of everything: the hold operations are idempotent, and no event is written again.
    const before = await f.database.query(
      `SELECT row_to_json(t)::text AS r FROM "billing"."holds" t ORDER BY 1`,
    );
    const outboxBefore = await f.database.query(`SELECT count(*)::int AS n FROM "billing"."outbox"`);
    await bus.publish(Topics.taskLifecycle, [...created, ...terminal]);
    await new Promise((r) => setTimeout(r, 200));
    expect(
      await f.database.query(`SELECT row_to_json(t)::text AS r FROM "billing"."holds" t ORDER BY 1`),
    ).toEqual(before);
    expect(await f.database.query(`SELECT count(*)::int AS n FROM "billing"."outbox"`)).toEqual(outboxBefore);
    expect(published).toHaveLength(4);
    expect(await f.balance.execute('acc_e')).toMatchObject({ available: '8.5', held: '1', total: '9.5' });
    expect(await reconcile(f.database, 'acc_e')).toEqual([]);
  });

  it('writes hold events that pass the event map, though its SQL builds them', async () => {
    expect(published.length).toBeGreaterThan(0);
    for (const event of published) expect(checkEvent(event)).toBeNull();
  });

  it('skips an event it can never apply instead of retrying it forever, and ignores other types', async () => {
    logged.length = 0;
    await bus.publish(Topics.taskLifecycle, [
      taskEvent(TaskEventType.succeeded, 'job_e_late', 'lots'),
      taskEvent('task.renamed', 'job_e_late', '1'),
    ]);
    expect(logged.filter((line) => line['level'] === 'error')).toEqual([
      expect.objectContaining({
        level: 'error',
        group: 'billing',
        reason: 'invalid_payload',
        path: '/charge',
        event: expect.objectContaining({ id: 'evt_task.succeeded_job_e_late', type: 'task.succeeded' }),
      }),
    ]);
    expect(await statusOf('job_e_late')).toEqual({ status: 'confirmed', charged: null });
  });
});
