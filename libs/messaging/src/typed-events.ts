import {
  checkEvent,
  checkEventPayload,
  eventTopic,
  eventVersion,
  EventPayloadError,
  IdPrefix,
  type EventEnvelope,
  type EventPayload,
  type EventProblem,
  type EventType,
  type TypedEvent,
} from '@gen/contracts';
import { newId, type Logger } from '@gen/core';
import type { EventBus, EventHandler, Subscription } from './event-bus';
import { outboxEnvelope } from './outbox-envelope';

declare const checked: unique symbol;

/**
 * An envelope made by `newEvent`, so its payload passed the check of its type. The outbox writers and
 * `publishEvents` take only these: an event cannot reach the outbox or the bus without the check.
 */
export type OutgoingEvent<T extends EventType = EventType> = TypedEvent<T> & { readonly [checked]: true };

/** The envelope fields a producer gives; the type, version and payload come from `newEvent`'s arguments. */
export interface EventMeta {
  /** Ordering key, e.g. the task id. */
  readonly key: string;
  readonly correlationId: string;
  readonly causationId: string;
  /** Default: a new `evt_` id. */
  readonly id?: string;
  /** Default: now. */
  readonly occurredAt?: Date | string;
}

/**
 * Builds the envelope of a `type` event, with the version the event map gives the type, after checking
 * `payload` against the type's schema. A payload that fails the check is a bug of the producer: it throws
 * `EventPayloadError` naming the failing path, before anything is written or published.
 */
export function newEvent<T extends EventType>(
  type: T,
  payload: EventPayload<T>,
  meta: EventMeta,
): OutgoingEvent<T> {
  const problem = checkEventPayload(type, payload);
  if (problem) throw new EventPayloadError(type, problem);
  const occurredAt = meta.occurredAt ?? new Date();
  const envelope: EventEnvelope<EventPayload<T>> = {
    id: meta.id ?? newId(IdPrefix.event),
    type,
    version: eventVersion(type),
    key: meta.key,
    occurredAt: typeof occurredAt === 'string' ? occurredAt : occurredAt.toISOString(),
    correlationId: meta.correlationId,
    causationId: meta.causationId,
    payload,
  };
  return envelope as OutgoingEvent<T>;
}

/** Publishes checked events straight to the bus (no outbox), each on its type's topic, in their order per topic. */
export async function publishEvents<T extends EventType>(
  bus: EventBus,
  events: readonly OutgoingEvent<T>[],
): Promise<void> {
  const byTopic = new Map<string, OutgoingEvent<T>[]>();
  for (const event of events) {
    const topic = eventTopic(event.type);
    const list = byTopic.get(topic);
    if (list) list.push(event);
    else byTopic.set(topic, [event]);
  }
  for (const [topic, list] of byTopic) await bus.publish(topic, list);
}

/** The columns of outbox rows for checked events, for a service that writes its outbox in its own statement. */
export interface OutboxRows {
  readonly ids: string[];
  readonly topics: string[];
  readonly keys: string[];
  /** The envelopes as JSON. */
  readonly envelopes: string[];
}

export function outboxRows<T extends EventType>(events: readonly OutgoingEvent<T>[]): OutboxRows {
  const rows: OutboxRows = { ids: [], topics: [], keys: [], envelopes: [] };
  for (const event of events) {
    rows.ids.push(event.id);
    rows.topics.push(eventTopic(event.type));
    rows.keys.push(event.key);
    rows.envelopes.push(outboxEnvelope(event));
  }
  return rows;
}

/** A consumer: its group and the event types it handles, all of one topic. */
export interface EventConsumer<T extends EventType> {
  readonly group: string;
  readonly types: readonly T[];
  /** Where a skipped event is reported (error level); standard error when absent. */
  readonly logger?: Logger | null;
}

/** The one topic of a consumer's types. */
export function consumerTopic(types: readonly EventType[]): string {
  const topics = new Set(types.map((type) => eventTopic(type)));
  if (topics.size !== 1) {
    throw new Error(
      `a consumer reads one topic; [${types.join(', ')}] travel on [${[...topics].join(', ')}]`,
    );
  }
  return [...topics][0]!;
}

/** The envelope fields of a skipped event, read without trusting its shape. */
function identity(event: unknown): Record<string, unknown> {
  if (typeof event !== 'object' || event === null) return { value: typeof event };
  const fields = event as Record<string, unknown>;
  const named: Record<string, unknown> = {};
  for (const name of ['id', 'type', 'version', 'key', 'occurredAt', 'correlationId', 'causationId']) {
    if (name in fields) named[name] = fields[name];
  }
  return named;
}

function reportSkipped(
  logger: Logger | null | undefined,
  fields: { topic: string; group: string; event: unknown; problem: EventProblem },
): void {
  const line = {
    topic: fields.topic,
    group: fields.group,
    event: identity(fields.event),
    reason: fields.problem.reason,
    path: fields.problem.path,
    problem: fields.problem.message,
  };
  const message = 'event skipped: it does not match the event map';
  if (logger) logger.error(line, message);
  else process.stderr.write(`${JSON.stringify({ level: 'error', ...line, msg: message })}\n`);
}

/**
 * The bus handler of a consumer: events of other types on the topic are not its business (acknowledged,
 * nothing logged); an event of its types is handed to `handler` only once its envelope, version and payload
 * passed the check. One that fails is acknowledged without the handler and logged at error level with its
 * id, type, version, key, correlation and causation ids and the failing path: it would fail the same way on
 * every delivery, so holding it would block its partition for good, and the log line is where it is found
 * (the Kafka topic keeps the message itself for its retention).
 */
export function checkedHandler<T extends EventType>(
  topic: string,
  consumer: EventConsumer<T>,
  handler: (event: TypedEvent<T>) => Promise<void>,
): EventHandler {
  const handled = new Set<string>(consumer.types);
  return async (event) => {
    // A malformed envelope (no type) concerns every consumer of the topic: it is checked, so reported.
    const type = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
    if (typeof type === 'string' && !handled.has(type)) return;
    const problem = checkEvent(event);
    if (problem) {
      reportSkipped(consumer.logger, { topic, group: consumer.group, event, problem });
      return;
    }
    await handler(event as TypedEvent<T>);
  };
}

/**
 * Subscribes `handler` to the event types of `consumer` (on their topic, as consumer group `group`); it
 * receives only envelopes that passed the check of their type (see `checkedHandler`).
 */
export async function subscribeEvents<T extends EventType>(
  bus: EventBus,
  consumer: EventConsumer<T>,
  handler: (event: TypedEvent<T>) => Promise<void>,
): Promise<Subscription> {
  const topic = consumerTopic(consumer.types);
  return bus.subscribe(topic, consumer.group, checkedHandler(topic, consumer, handler));
}
