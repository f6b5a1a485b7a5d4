/**
 * Every event between services travels in this envelope (svix/DDH habit: a version tag, an event id, and
 * correlation and causation ids). `key` decides ordering: events with one key are delivered in order.
 */
export interface EventEnvelope<P = unknown> {
  /** Unique id (`evt_`); consumers deduplicate on it. */
  readonly id: string;
  /** The event name, e.g. `task.created`. */
  readonly type: string;
  /** Schema version of `payload`. */
  readonly version: number;
  /** Ordering key, e.g. the task id. */
  readonly key: string;
  /** ISO 8601 UTC. */
  readonly occurredAt: string;
  /** The request or flow this event belongs to. */
  readonly correlationId: string;
  /** The event or request that caused this one. */
  readonly causationId: string;
  readonly payload: P;
  /**
   * The W3C trace context of the change that wrote the event, when tracing is on: stored with an outbox row so
   * that the trace survives the outbox hop (the relay's producer span continues it). Absent otherwise.
   */
  readonly traceparent?: string;
}
