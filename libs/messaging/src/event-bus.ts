import type { EventEnvelope } from '@gen/contracts';

/** Called once per delivered event; a rejection means "not handled": the event will be delivered again. */
export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface Subscription {
  /** Stops receiving; in-flight handlers finish first. */
  stop(): Promise<void>;
}

/**
 * The event bus port. In-process in embedded mode, Kafka in distributed mode; the same topic names and
 * envelopes in both. Delivery is at least once; order is kept per `key` within a topic.
 */
export interface EventBus {
  publish(topic: string, events: readonly EventEnvelope[]): Promise<void>;
  /** Every consumer `group` gets each event once (at least once); members of one group share the work. */
  subscribe(topic: string, group: string, handler: EventHandler): Promise<Subscription>;
  close(): Promise<void>;
}
export const EVENT_BUS = Symbol('EventBus');
