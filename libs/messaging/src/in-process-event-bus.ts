import type { EventEnvelope } from '@gen/contracts';
import { inConsumerSpan } from '@gen/observability';
import type { EventBus, EventHandler, Subscription } from './event-bus';

interface Group {
  readonly topic: string;
  readonly name: string;
  readonly handlers: EventHandler[];
  next: number;
  /** Per key, the tail of the chain of deliveries, so one key's events are handled in order. */
  readonly chains: Map<string, Promise<void>>;
  /**
   * Its last member stopped (the process is shutting down): a failed delivery is given up instead of tried
   * again, and a new publication to its topic fails, as it cannot be handled (see `publish`).
   */
  stopping: boolean;
}

export interface InProcessEventBusOptions {
  /** Wait before delivering again an event whose handler failed; default 100 ms. */
  readonly retryDelayMs?: number;
  /**
   * Hold every publication until `open()`: a process composing several services opens the bus once all of
   * them have subscribed, so that work left in an outbox by a crash is not published before its consumers
   * listen (an in-process topic keeps nothing for a group that subscribes later). Default false.
   */
  readonly held?: boolean;
}

/**
 * The embedded adapter: the same topics and envelopes as Kafka, delivered in process. Each group gets every
 * event; within a group, events of one key are handled one after another, and a failed handler is retried
 * (after `retryDelayMs`) until it succeeds, as Kafka would redeliver it.
 *
 * `publish` resolves once every subscribed group has handled the events: the in-process counterpart of a
 * Kafka acknowledgement followed by the consumers' offset commits. An outbox relay deletes its rows only
 * then, so an event is never lost between the outbox and the effect of its consumers: after a crash the rows
 * are still there and are published again (consumers deduplicate).
 */
export class InProcessEventBus implements EventBus {
  private readonly topics = new Map<string, Map<string, Group>>();
  private readonly retryDelayMs: number;
  private closed = false;
  private closing = false;
  private opened: Promise<void>;
  private openGate: () => void = () => undefined;

  constructor(options: InProcessEventBusOptions | number = {}) {
    const settings = typeof options === 'number' ? { retryDelayMs: options } : options;
    this.retryDelayMs = settings.retryDelayMs ?? 100;
    this.opened = settings.held
      ? new Promise<void>((resolve) => (this.openGate = resolve))
      : Promise.resolve();
  }

  /** Lets held publications through (see `held`). */
  open(): void {
    this.openGate();
  }

  async publish(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    if (this.closed) throw new Error('event bus closed');
    await this.opened;
    if (this.closed) throw new Error('event bus closed');
    const groups = [...(this.topics.get(topic)?.values() ?? [])];
    // A group that subscribed and stopped still counts on these events, as a Kafka group's offsets do: they
    // stay unacknowledged (in their outbox, for the next start) rather than go to the other groups only.
    const stopped = groups.find((group) => group.handlers.length === 0);
    if (stopped) throw new Error(`event bus: consumer group ${stopped.name} of ${topic} has stopped`);
    const deliveries: Promise<void>[] = [];
    for (const group of groups) {
      for (const event of events) {
        const previous = group.chains.get(event.key) ?? Promise.resolve();
        const handler = group.handlers[group.next++ % group.handlers.length]!;
        // A delivery abandoned at close does not stop the next event of its key from being tried.
        const delivery = previous.catch(() => undefined).then(() => this.deliver(group, handler, event));
        group.chains.set(event.key, delivery);
        deliveries.push(delivery);
        void delivery
          .catch(() => undefined)
          .finally(() => {
            if (group.chains.get(event.key) === delivery) group.chains.delete(event.key);
          });
      }
    }
    await Promise.all(deliveries);
  }

  /**
   * Retries a failing handler until it succeeds. Once the bus closes (or the group stops) a failure is final:
   * the publication rejects, so the event stays unacknowledged (its outbox row stays for the next start).
   */
  private async deliver(group: Group, handler: EventHandler, event: EventEnvelope): Promise<void> {
    for (;;) {
      if (this.closed) throw new Error('event bus closed before the event was handled');
      try {
        // With tracing on: a consumer span continuing the trace stored with the event (an outbox row's), or
        // the publisher's, in whose context an in-process delivery runs.
        await inConsumerSpan(group.topic, group.name, event.traceparent, () => handler(event));
        return;
      } catch (error) {
        if (this.closing || group.stopping) throw error;
        await new Promise((r) => setTimeout(r, this.retryDelayMs));
      }
    }
  }

  async subscribe(topic: string, group: string, handler: EventHandler): Promise<Subscription> {
    const groups = this.topics.get(topic) ?? new Map<string, Group>();
    this.topics.set(topic, groups);
    const entry: Group = groups.get(group) ?? {
      topic,
      name: group,
      handlers: [],
      next: 0,
      chains: new Map<string, Promise<void>>(),
      stopping: false,
    };
    groups.set(group, entry);
    entry.handlers.push(handler);
    entry.stopping = false;
    return {
      stop: async () => {
        entry.handlers.splice(entry.handlers.indexOf(handler), 1);
        if (entry.handlers.length === 0) entry.stopping = true;
        await Promise.allSettled(entry.chains.values());
      },
    };
  }

  async close(): Promise<void> {
    this.closing = true;
    const pending = [...this.topics.values()].flatMap((groups) =>
      [...groups.values()].flatMap((g) => [...g.chains.values()]),
    );
    await Promise.allSettled(pending);
    this.closed = true;
    // Publications still held now fail: their outbox rows stay for the next start.
    this.openGate();
  }
}
