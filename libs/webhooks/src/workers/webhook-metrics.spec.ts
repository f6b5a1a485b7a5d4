import { migrate, type Database } from '@gen/persistence';
import { Metrics } from '@gen/observability';
import { DATABASE_KINDS, metricValue, openTestDatabase, type TestDatabase } from '@gen/testing';
import { DeliveryRepository } from '../persistence/delivery.repository';
import { MessageRepository } from '../persistence/message.repository';
import type { AttemptRecord } from '../persistence/outbound-queue';
import { WEBHOOKS_SCHEMA, type WebhooksMigrations } from '../persistence/webhooks-schema';
import { WEBHOOK_METRICS_CACHE_MS, WebhookMetrics } from './webhook-metrics';

const T0 = new Date('2026-11-25T10:00:00.000Z');

describe.each(DATABASE_KINDS)('webhook metrics on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let deliveries: DeliveryRepository;
  let messages: MessageRepository;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, WEBHOOKS_SCHEMA);
    deliveries = new DeliveryRepository(database, {} as WebhooksMigrations);
    messages = new MessageRepository(database, {} as WebhooksMigrations);
  });
  afterAll(() => test.close());

  const callback = (n: number) =>
    deliveries.enqueue({
      id: `whd_${n}`,
      taskId: `job_${n}`,
      accountId: 'acc_w',
      url: 'https://hooks.example.com/in',
      payloadVersion: 2,
      record: {},
      now: T0,
    });
  /** Attempt 1 of a delivery: delivered, failed with a retry due, or failed for good. */
  const attempt = (id: string, outcome: 'delivered' | 'retry' | 'final'): AttemptRecord => ({
    id,
    n: 1,
    at: T0,
    outcome: outcome === 'delivered' ? 'delivered' : 'status',
    status: outcome === 'delivered' ? 204 : 503,
    durationMs: 5,
    delivered: outcome === 'delivered',
    nextAttemptAt: outcome === 'retry' ? new Date(T0.getTime() + 10_000) : null,
  });

  it('counts deliveries still to send and those waiting for a retry after a failure, per kind', async () => {
    const metrics = new Metrics({ processMetrics: false });
    new WebhookMetrics(deliveries, messages, metrics).onApplicationBootstrap();
    const scrape = async () => {
      await new Promise((r) => setTimeout(r, WEBHOOK_METRICS_CACHE_MS + 20));
      const text = await metrics.render();
      const value = (name: string, kind: string) => metricValue(text, name, { kind });
      return {
        callback: [
          value('webhook_deliveries_pending', 'callback'),
          value('webhook_deliveries_failing', 'callback'),
        ],
        message: [
          value('webhook_deliveries_pending', 'endpoint_message'),
          value('webhook_deliveries_failing', 'endpoint_message'),
        ],
      };
    };
    expect(await scrape()).toEqual({ callback: [0, 0], message: [0, 0] });

    for (let n = 1; n <= 4; n += 1) await callback(n);
    await messages.enqueue(
      ['a', 'b'].map((e) => ({
        id: `msg_${e}`,
        endpointId: `ep_${e}`,
        accountId: 'acc_w',
        taskId: 'job_1',
        eventType: 'task.succeeded',
        body: '{}',
      })),
      T0,
    );
    expect(await scrape()).toEqual({ callback: [4, 0], message: [2, 0] });

    await deliveries.recordAttempt(attempt('whd_1', 'delivered'));
    await deliveries.recordAttempt(attempt('whd_2', 'retry'));
    await deliveries.recordAttempt(attempt('whd_3', 'final'));
    await messages.recordAttempt(attempt('msg_a', 'retry'));
    // whd_4 untried and whd_2 waiting for its retry; whd_1 delivered and whd_3 failed for good are done.
    expect(await scrape()).toEqual({ callback: [2, 1], message: [2, 1] });
  });
});
