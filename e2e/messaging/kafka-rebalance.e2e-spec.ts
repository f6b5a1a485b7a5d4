import { KafkaEventBus } from '@gen/messaging';
import { testEvent } from '@gen/testing';
import { Partitioners } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { GroupDeliveries, type Delivery } from './group-deliveries';

const brokers = process.env['KAFKA_BROKERS']!.split(',');
const PARTITIONS = 3;
const KEYS = Array.from({ length: 12 }, (_, i) => `key-${i}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The partition of a key under the bus's partitioner (kafkajs' default: murmur2, as the Java client). */
const partitionOf = (() => {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata = range(PARTITIONS).map((partitionId) => ({
    partitionId,
    leader: 1,
    partitionErrorCode: 0,
    replicas: [1],
    isr: [1],
  }));
  return (key: string) => partitioner({ topic: 't', partitionMetadata, message: { key, value: null } });
})();
const partitionsOf = (list: readonly Delivery<string, string>[]) =>
  new Set(list.map((d) => partitionOf(d.key)));

/** A alone, A and B both members, A leaving, B alone. */
type Phase = 'a-alone' | 'both' | 'a-stopping' | 'b-alone';

describe('KafkaEventBus consumer group rebalancing while both members run', () => {
  const buses: KafkaEventBus[] = [];
  const bus = (clientId: string) => {
    const b = new KafkaEventBus({ brokers, clientId, partitions: PARTITIONS });
    buses.push(b);
    return b;
  };
  afterAll(() => Promise.all(buses.map((b) => b.close())));

  it('a member joins, then the first leaves, under a steady stream: nothing lost, per-key order kept', async () => {
    // The 12 keys fall on every partition, so any partition a member is given carries events.
    expect(new Set(KEYS.map(partitionOf)).size).toBe(PARTITIONS);
    const topic = `e2e-rebalance-${randomBytes(4).toString('hex')}`;
    const group = `g-${topic}`;
    const seen = new GroupDeliveries<'A' | 'B', Phase>('a-alone');

    // One producer publishes round r, one event per key with sequence number r, every 40 ms until told.
    const producer = bus('e2e-rebalance-producer');
    const published: string[] = [];
    let rounds = 0;
    let publishing = true;
    let publishError: unknown;
    async function publish(): Promise<void> {
      while (publishing) {
        const events = KEYS.map((key) => testEvent(key, rounds));
        await producer.publish(topic, events);
        published.push(...events.map((e) => e.id));
        rounds += 1;
        await sleep(40);
      }
    }
    async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<boolean> {
      for (const deadline = Date.now() + timeoutMs; !check(); await sleep(50)) {
        if (publishError) throw publishError;
        if (Date.now() > deadline) return false;
      }
      return true;
    }
    async function until(what: string, check: () => boolean): Promise<void> {
      if (!(await waitFor(check))) throw new Error(`timed out waiting until ${what}`);
    }

    // A alone owns every partition (its subscription creates the topic); then the stream starts.
    const a = await bus('e2e-rebalance-a').subscribe(topic, group, seen.handler('A'));
    const publisher = publish().catch((error: unknown) => void (publishError = error));
    await until('A handles events', () => seen.of('A').length >= 3 * KEYS.length);

    // B joins while events flow: the group rebalances and gives B part of the partitions. Once B has any,
    // the rebalance is over, so what A handles from then on is A's part.
    seen.phase = 'both';
    await bus('e2e-rebalance-b').subscribe(topic, group, seen.handler('B'));
    const besideB = (member: 'A' | 'B') =>
      seen.since('B').filter((d) => d.member === member && d.phase === 'both');
    await until(
      'A and B both handle events, of every partition between them',
      () =>
        besideB('A').length >= 3 * KEYS.length &&
        besideB('B').length >= 3 * KEYS.length &&
        partitionsOf(besideB('A')).size + partitionsOf(besideB('B')).size >= PARTITIONS,
    );

    // A leaves while events flow: a second rebalance gives B every partition.
    seen.phase = 'a-stopping';
    await a.stop();
    seen.phase = 'b-alone';
    const roundsAtStop = rounds;
    await until(
      'B handles every key after A left',
      () =>
        new Set(seen.of('B', 'b-alone').map((d) => d.key)).size === KEYS.length &&
        rounds >= roundsAtStop + 10,
    );
    publishing = false;
    await publisher;
    if (publishError) throw publishError;
    // Not `until`: if something was lost, the comparison below says what.
    await waitFor(() => seen.applied.size >= published.length);

    // Nothing lost, nothing invented: the applied set is the published set.
    expect([...seen.applied].sort()).toEqual([...published].sort());
    // Kafka keeps order within a partition, so within a key. A new owner resumes from the last committed
    // offset, at or before where the old owner got to: a handover may redeliver, never skip. Applied once by
    // event id, each key's events are applied exactly in publication order.
    expect(seen.skips()).toEqual([]);
    for (const key of KEYS)
      expect({ key, applied: seen.appliedOrder.get(key) }).toEqual({ key, applied: range(rounds) });
    // Under the eager rebalance protocol a member gives up its partitions before anyone is given them, and
    // the client settles in-flight handlers before it rejoins: never two handlers of one key at once.
    expect(seen.overlaps).toEqual([]);
    // Nothing reached A once its stop() resolved.
    expect(seen.of('A', 'b-alone')).toEqual([]);

    // The rebalances really moved partitions: A had all three alone; with both members each had a part
    // and they did not share one; after A left, B had all three.
    expect(partitionsOf(seen.of('A', 'a-alone')).size).toBe(PARTITIONS);
    const ofA = partitionsOf(besideB('A'));
    const ofB = partitionsOf(besideB('B'));
    expect([...ofA].filter((p) => ofB.has(p))).toEqual([]);
    expect(ofA.size + ofB.size).toBe(PARTITIONS);
    expect(partitionsOf(seen.of('B', 'b-alone')).size).toBe(PARTITIONS);
  });
});
