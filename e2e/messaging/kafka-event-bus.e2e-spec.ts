import { ExecutionEventType, Topics, type EventEnvelope } from '@gen/contracts';
import { createLogger } from '@gen/core';
import { KafkaEventBus, subscribeEvents } from '@gen/messaging';
import { testEvent } from '@gen/testing';
import { Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';

const brokers = process.env['KAFKA_BROKERS']!.split(',');
const event = testEvent;
const payload = (e: EventEnvelope) => (e.payload as { n: number }).n;

/** The consumer's lag once its commits caught up (30 s at most): what it reports then. */
async function settledLag(consumer: KafkaEventBus): Promise<{ topic: string; group: string; lag: number }[]> {
  const deadline = Date.now() + 30_000;
  let lag = await consumer.consumerLag();
  while (lag[0]!.lag > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    lag = await consumer.consumerLag();
  }
  return lag;
}

async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('KafkaEventBus against the real broker', () => {
  const buses: KafkaEventBus[] = [];
  const bus = () => {
    const b = new KafkaEventBus({ brokers, clientId: 'e2e' });
    buses.push(b);
    return b;
  };
  afterAll(() => Promise.all(buses.map((b) => b.close())));

  it('keeps order per key across partitions: 1,000 events on 20 keys', async () => {
    const topic = `e2e-order-${randomBytes(4).toString('hex')}`;
    const seen = new Map<string, number[]>();
    await bus().subscribe(topic, `g-${topic}`, async (e) => {
      seen.set(e.key, [...(seen.get(e.key) ?? []), payload(e)]);
    });
    const producer = bus();
    for (let batch = 0; batch < 10; batch += 1) {
      const events = [];
      for (let i = 0; i < 100; i += 1) events.push(event(`key-${i % 20}`, batch * 5 + Math.floor(i / 20)));
      await producer.publish(topic, events);
    }
    await until(() => [...seen.values()].reduce((sum, list) => sum + list.length, 0) >= 1000);
    expect(seen.size).toBe(20);
    for (const list of seen.values()) expect(list).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('one group on two topics gets every event of both (as the tasks service consumes two topics)', async () => {
    const suffix = randomBytes(4).toString('hex');
    const topics = [`e2e-two-a-${suffix}`, `e2e-two-b-${suffix}`];
    const group = `g-two-${suffix}`;
    const seen = new Map<string, number[]>(topics.map((t) => [t, []]));
    // Two processes, each with both subscriptions: the members of the group share both topics.
    for (const member of [bus(), bus()]) {
      for (const topic of topics)
        await member.subscribe(topic, group, async (e) => void seen.get(topic)!.push(payload(e)));
    }
    const producer = bus();
    for (const topic of topics) {
      await producer.publish(
        topic,
        Array.from({ length: 60 }, (_, i) => event(`k${i % 9}`, i)),
      );
    }
    await until(() => topics.every((t) => seen.get(t)!.length >= 60));
    for (const topic of topics)
      expect(new Set(seen.get(topic))).toEqual(new Set(Array.from({ length: 60 }, (_, i) => i)));
  });

  it('reports the lag of each group it consumes with: uncommitted messages, down to 0 once handled', async () => {
    const topic = `e2e-lag-${randomBytes(4).toString('hex')}`;
    const consumer = bus();
    expect(await consumer.consumerLag()).toEqual([]);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let handled = 0;
    await consumer.subscribe(topic, `g-${topic}`, async () => {
      await gate;
      handled += 1;
    });
    await bus().publish(
      topic,
      Array.from({ length: 30 }, (_, i) => event(`k${i % 6}`, i)),
    );
    // Every partition's first message waits at the gate: nothing is committed, all 30 are behind.
    const group = `g-${topic}@${topic}`;
    expect(await consumer.consumerLag()).toEqual([{ topic, group, lag: 30 }]);
    open();
    await until(() => handled >= 30);
    expect(await settledLag(consumer)).toEqual([{ topic, group, lag: 0 }]);
  });

  it('commits handled offsets per batch, not per message: 300 events, far fewer commits', async () => {
    const topic = `e2e-commits-${randomBytes(4).toString('hex')}`;
    // Each offset commit is a record in the broker's own `__consumer_offsets` topic: its end offsets, summed,
    // count the commits of every group (the other tests' consumers are idle and commit nothing meanwhile).
    const admin = new Kafka({ brokers, clientId: 'e2e-commits', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const commits = async () =>
      (await admin.fetchTopicOffsets('__consumer_offsets')).reduce((sum, p) => sum + Number(p.high), 0);
    try {
      const consumer = bus();
      let handled = 0;
      await consumer.subscribe(topic, `g-${topic}`, async () => {
        handled += 1;
      });
      const before = await commits();
      await bus().publish(
        topic,
        Array.from({ length: 300 }, (_, i) => event(`k${i % 6}`, i)),
      );
      await until(() => handled >= 300);
      const group = `g-${topic}@${topic}`;
      // All handled and committed, a few commits in all: one per fetched batch (kafkajs' autoCommit).
      expect(await settledLag(consumer)).toEqual([{ topic, group, lag: 0 }]);
      const made = (await commits()) - before;
      expect(made).toBeGreaterThan(0);
      expect(made).toBeLessThan(100);
    } finally {
      await admin.disconnect();
    }
  });

  it('loses nothing when a consumer stops and another member of its group takes over', async () => {
    const topic = `e2e-restart-${randomBytes(4).toString('hex')}`;
    const group = `g-${topic}`;
    const seen = new Set<number>();
    const first = await bus().subscribe(topic, group, async (e) => void seen.add(payload(e)));
    const producer = bus();
    await producer.publish(
      topic,
      Array.from({ length: 100 }, (_, i) => event(`k${i % 7}`, i)),
    );
    await until(() => seen.size >= 100);
    await first.stop();
    await producer.publish(
      topic,
      Array.from({ length: 100 }, (_, i) => event(`k${i % 7}`, 100 + i)),
    );
    await bus().subscribe(topic, group, async (e) => void seen.add(payload(e)));
    await until(() => seen.size >= 200);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('redelivers an event whose handler failed', async () => {
    const topic = `e2e-retry-${randomBytes(4).toString('hex')}`;
    let attempts = 0;
    const handled: number[] = [];
    await bus().subscribe(topic, `g-${topic}`, async (e) => {
      attempts += 1;
      if (attempts === 1) throw new Error('transient failure');
      handled.push(payload(e));
    });
    await bus().publish(topic, [event('k', 1)]);
    await until(() => handled.length === 1);
    expect(handled).toEqual([1]);
    expect(attempts).toBe(2);
  });

  it('skips and logs a poison message without blocking its partition, and does not deliver it again', async () => {
    const prefix = `e2e-poison-${randomBytes(4).toString('hex')}.`;
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const prefixedBus = () => {
      const b = new KafkaEventBus({ brokers, clientId: 'e2e-poison', prefix, logger });
      buses.push(b);
      return b;
    };
    const handled: string[] = [];
    const consumer = { group: 'tasks', types: [ExecutionEventType.started], logger };
    const first = await subscribeEvents(prefixedBus(), consumer, async (e) => {
      handled.push(`${e.id} ${e.payload.startedAt}`);
    });
    const started = (id: string, over: Partial<EventEnvelope> = {}): EventEnvelope => ({
      id,
      type: ExecutionEventType.started,
      version: 1,
      key: 'job_1',
      occurredAt: new Date().toISOString(),
      correlationId: 'req_1',
      causationId: 'req_1',
      payload: { taskId: 'job_1', startedAt: '2026-11-24T10:00:00.000Z' },
      ...over,
    });
    const topic = `${prefix}${Topics.taskExecution}`;
    const producer = prefixedBus();
    // One key, so one partition: every message below waits for the one before it.
    await producer.publish(Topics.taskExecution, [started('evt_1')]);
    const raw = new Kafka({ brokers, clientId: 'e2e-poison-raw', logLevel: logLevel.NOTHING }).producer();
    await raw.connect();
    try {
      await raw.send({ topic, messages: [{ key: 'job_1', value: '{"id": "evt_cut' }] });
    } finally {
      await raw.disconnect();
    }
    await producer.publish(Topics.taskExecution, [
      started('evt_bad', { payload: { taskId: 'job_1', startedAt: 'soon' } }),
      started('evt_v9', { version: 9 }),
      started('evt_2'),
    ]);
    await until(() => handled.length >= 2);
    expect(handled).toEqual(['evt_1 2026-11-24T10:00:00.000Z', 'evt_2 2026-11-24T10:00:00.000Z']);
    const skipped = lines.filter((l) => String(l['msg']).startsWith('event skipped'));
    expect(skipped).toEqual([
      expect.objectContaining({ reason: 'not_json', topic, group: 'tasks', key: 'job_1' }),
      expect.objectContaining({
        reason: 'invalid_payload',
        path: '/startedAt',
        event: expect.objectContaining({ id: 'evt_bad' }),
      }),
      expect.objectContaining({
        reason: 'unknown_version',
        event: expect.objectContaining({ id: 'evt_v9', version: 9 }),
      }),
    ]);

    // The skipped messages were committed with the rest: the group's next member starts after them.
    await first.stop();
    await producer.publish(Topics.taskExecution, [started('evt_3')]);
    await subscribeEvents(prefixedBus(), consumer, async (e) => void handled.push(`${e.id} again`));
    await until(() => handled.length >= 3);
    await new Promise((r) => setTimeout(r, 500));
    expect(handled.slice(2)).toEqual(['evt_3 again']);
    expect(lines.filter((l) => String(l['msg']).startsWith('event skipped'))).toHaveLength(3);
  });
});
