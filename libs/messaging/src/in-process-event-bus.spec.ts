import { testEvent } from '@gen/testing';
import { InProcessEventBus } from './in-process-event-bus';

const event = testEvent;

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('InProcessEventBus', () => {
  it('delivers every event to every group, in order per key even when handlers are slow', async () => {
    const bus = new InProcessEventBus(5);
    const seen: Record<string, string[]> = { a: [], b: [] };
    for (const group of ['a', 'b']) {
      await bus.subscribe('t', group, async (e) => {
        await new Promise((r) => setTimeout(r, (e.payload as { n: number }).n % 3));
        seen[group]!.push(`${e.key}:${(e.payload as { n: number }).n}`);
      });
    }
    await bus.publish('t', [event('k1', 1), event('k2', 1), event('k1', 2), event('k1', 3), event('k2', 2)]);
    await bus.close();
    for (const group of ['a', 'b']) {
      expect(seen[group]!.filter((s) => s.startsWith('k1'))).toEqual(['k1:1', 'k1:2', 'k1:3']);
      expect(seen[group]!.filter((s) => s.startsWith('k2'))).toEqual(['k2:1', 'k2:2']);
    }
  });

  it('redelivers after a failed handler and keeps the key blocked until it succeeds', async () => {
    const bus = new InProcessEventBus(5);
    const seen: number[] = [];
    let failures = 2;
    await bus.subscribe('t', 'g', async (e) => {
      const n = (e.payload as { n: number }).n;
      if (n === 1 && failures-- > 0) throw new Error('transient');
      seen.push(n);
    });
    await bus.publish('t', [event('k', 1), event('k', 2)]);
    await bus.close();
    expect(seen).toEqual([1, 2]);
    expect(failures).toBe(-1);
  });

  it('shares the work of one group between its members and ignores topics nobody reads', async () => {
    const bus = new InProcessEventBus();
    const first: string[] = [];
    const second: string[] = [];
    await bus.subscribe('t', 'g', async (e) => void first.push(e.id));
    await bus.subscribe('t', 'g', async (e) => void second.push(e.id));
    await bus.publish('t', [event('a', 1), event('b', 1), event('c', 1), event('d', 1)]);
    await bus.publish('nobody', [event('a', 9)]);
    await settle();
    expect(first.length + second.length).toBe(4);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    await bus.close();
    await expect(bus.publish('t', [event('a', 2)])).rejects.toThrow('event bus closed');
  });

  it('resolves a publication only once every group has handled its events, as a Kafka ack and commit would', async () => {
    const bus = new InProcessEventBus(5);
    const handled: string[] = [];
    let failures = 1;
    await bus.subscribe('t', 'slow', async (e) => {
      await new Promise((r) => setTimeout(r, 30));
      handled.push(`slow:${e.id}`);
    });
    await bus.subscribe('t', 'flaky', async (e) => {
      if (failures-- > 0) throw new Error('transient');
      handled.push(`flaky:${e.id}`);
    });
    await bus.publish('t', [event('a', 1), event('b', 1)]);
    expect(handled.sort()).toEqual(['flaky:evt_a_1', 'flaky:evt_b_1', 'slow:evt_a_1', 'slow:evt_b_1']);
    await bus.close();
  });

  it('fails a publication once one of the groups of its topic has stopped, handing it to none', async () => {
    const bus = new InProcessEventBus(5);
    const seen: string[] = [];
    const billing = await bus.subscribe('t', 'billing', async (e) => void seen.push(`billing:${e.id}`));
    await bus.subscribe('t', 'webhooks', async (e) => void seen.push(`webhooks:${e.id}`));
    await bus.publish('t', [event('a', 1)]);
    // Shutting down: billing stopped first. The event must stay in its outbox for billing's next start, not
    // reach the webhooks alone and be acknowledged.
    await billing.stop();
    await expect(bus.publish('t', [event('a', 2)])).rejects.toThrow(
      'consumer group billing of t has stopped',
    );
    expect(seen.sort()).toEqual(['billing:evt_a_1', 'webhooks:evt_a_1']);
    // A member of the group subscribing again takes its events again.
    await bus.subscribe('t', 'billing', async (e) => void seen.push(`billing:${e.id}`));
    await bus.publish('t', [event('a', 3)]);
    expect(seen.filter((s) => s.endsWith('evt_a_3')).sort()).toEqual(['billing:evt_a_3', 'webhooks:evt_a_3']);
    await bus.close();
  });

  it('holds publications until it is opened, and fails those still held or unhandled when it closes', async () => {
    const bus = new InProcessEventBus({ retryDelayMs: 5, held: true });
    const seen: string[] = [];
    const published = bus.publish('t', [event('a', 1)]);
    // A group that subscribes after the publication, before the bus opens, still gets the event.
    await bus.subscribe('t', 'late', async (e) => void seen.push(e.id));
    await settle();
    expect(seen).toEqual([]);
    bus.open();
    await published;
    expect(seen).toEqual(['evt_a_1']);

    const failing = new InProcessEventBus({ retryDelayMs: 5 });
    await failing.subscribe('t', 'g', () => Promise.reject(new Error('down')));
    const never = failing.publish('t', [event('a', 2)]);
    await settle();
    // Closing ends the retries: the publication fails, so a relay keeps its outbox row.
    await failing.close();
    await expect(never).rejects.toThrow('down');
    const held = new InProcessEventBus({ held: true });
    const waiting = held.publish('t', [event('a', 3)]);
    await held.close();
    await expect(waiting).rejects.toThrow('event bus closed');
    await bus.close();
  });
});
