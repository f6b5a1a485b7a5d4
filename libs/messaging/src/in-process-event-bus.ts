import type { EventEnvelope } from '@gen/contracts';
import type { EventBus, EventHandler, Subscription } from './event-bus';

interface Group {
  readonly handlers: EventHandler[];
  next: number;
  /** Per key, the tail of the chain of deliveries, so one key's events are handled in order. */
  readonly chains: Map<string, Promise<void>>;
}

/**
 * The embedded adapter: the same topics and envelopes as Kafka, delivered in process. Each group gets every
 * event; within a group, events of one key are handled one after another, and a failed handler is retried
 * (after `retryDelayMs`) until it succeeds, as Kafka would redeliver it.
 */
export class InProcessEventBus implements EventBus {
  private readonly topics = new Map<string, Map<string, Group>>();
  private closed = false;

  constructor(private readonly retryDelayMs = 100) {}

  async publish(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    if (this.closed) throw new Error('event bus closed');
    for (const group of this.topics.get(topic)?.values() ?? []) {
      for (const event of events) {
        const previous = group.chains.get(event.key) ?? Promise.resolve();
        const handler = group.handlers[group.next++ % group.handlers.length]!;
        const delivery = previous.then(() => this.deliver(handler, event));
        group.chains.set(event.key, delivery);
        void delivery.finally(() => {
          if (group.chains.get(event.key) === delivery) group.chains.delete(event.key);
        });
      }
    }
  }

  private async deliver(handler: EventHandler, event: EventEnvelope): Promise<void> {
    while (!this.closed) {
      try {
        await handler(event);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, this.retryDelayMs));
      }
    }
  }

  async subscribe(topic: string, group: string, handler: EventHandler): Promise<Subscription> {
    const groups = this.topics.get(topic) ?? new Map<string, Group>();
    this.topics.set(topic, groups);
    const entry: Group = groups.get(group) ?? {
      handlers: [],
      next: 0,
      chains: new Map<string, Promise<void>>(),
    };
    groups.set(group, entry);
    entry.handlers.push(handler);
    return {
      stop: async () => {
        entry.handlers.splice(entry.handlers.indexOf(handler), 1);
        if (entry.handlers.length === 0) groups.delete(group);
        await Promise.all(entry.chains.values());
      },
    };
  }

  async close(): Promise<void> {
    const pending = [...this.topics.values()].flatMap((groups) =>
      [...groups.values()].flatMap((g) => [...g.chains.values()]),
    );
    await Promise.all(pending);
    this.closed = true;
  }
}
