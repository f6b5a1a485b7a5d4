import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { EventEnvelope } from './events';
import {
  ExecutionEventType,
  ExecutionFailedPayloadSchema,
  ExecutionStartedPayloadSchema,
  ExecutionSucceededPayloadSchema,
  HoldEventType,
  HoldFinalPayloadSchema,
  TaskCreatedPayloadSchema,
  TaskEventType,
  TaskTerminalPayloadSchema,
  Topics,
} from './task-events';

/** What the map says of one event type. */
export interface EventDefinition {
  /** The topic it travels on (one topic per type, so a consumer of the type knows where to read). */
  readonly topic: string;
  /** The payload version producers write and consumers accept; an envelope of another version is skipped. */
  readonly version: number;
  readonly payload: TSchema;
}

/**
 * Every event type that crosses a service boundary: its topic, its version and its payload schema. Producers
 * build envelopes only through it (`newEvent` in @gen/messaging checks the payload before anything is written),
 * consumers subscribe to types of it (`subscribeEvents`, which checks the payload before the handler sees it).
 *
 * A new field within a version: add it as optional (objects accept unknown properties, so older consumers
 * ignore it). Anything else is a new version, and a consumer skips a version it does not know: deploy the
 * consumers that read version N+1 before the producers that write it.
 */
export const EventMap = {
  [TaskEventType.created]: { topic: Topics.taskLifecycle, version: 1, payload: TaskCreatedPayloadSchema },
  [TaskEventType.succeeded]: { topic: Topics.taskLifecycle, version: 1, payload: TaskTerminalPayloadSchema },
  [TaskEventType.failed]: { topic: Topics.taskLifecycle, version: 1, payload: TaskTerminalPayloadSchema },
  [TaskEventType.expired]: { topic: Topics.taskLifecycle, version: 1, payload: TaskTerminalPayloadSchema },
  [ExecutionEventType.started]: {
    topic: Topics.taskExecution,
    version: 1,
    payload: ExecutionStartedPayloadSchema,
  },
  [ExecutionEventType.succeeded]: {
    topic: Topics.taskExecution,
    version: 1,
    payload: ExecutionSucceededPayloadSchema,
  },
  [ExecutionEventType.failed]: {
    topic: Topics.taskExecution,
    version: 1,
    payload: ExecutionFailedPayloadSchema,
  },
  [HoldEventType.settled]: { topic: Topics.billingHolds, version: 1, payload: HoldFinalPayloadSchema },
  [HoldEventType.released]: { topic: Topics.billingHolds, version: 1, payload: HoldFinalPayloadSchema },
} as const satisfies Record<string, EventDefinition>;

type Definitions = typeof EventMap;

/** The name of an event, e.g. `task.created`. */
export type EventType = keyof Definitions;
/** The payload of an event type, derived from its schema. */
export type EventPayload<T extends EventType> = Static<Definitions[T]['payload']>;
/** The topic an event type travels on. */
export type EventTopic<T extends EventType> = Definitions[T]['topic'];
/**
 * An envelope of one of the types `T` with its payload: a union over `T`, so a `switch (event.type)` narrows
 * the payload.
 */
export type TypedEvent<T extends EventType = EventType> = {
  [K in T]: EventEnvelope<EventPayload<K>> & { readonly type: K };
}[T];

/** Every event type of the map. */
export const EVENT_TYPES = Object.keys(EventMap) as EventType[];

export function isEventType(type: unknown): type is EventType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(EventMap, type);
}

export function eventTopic<T extends EventType>(type: T): EventTopic<T> {
  return EventMap[type].topic;
}

export function eventVersion(type: EventType): number {
  return EventMap[type].version;
}

/** Why an envelope cannot be handed to a consumer (or written by a producer). */
export type EventProblemReason =
  'malformed_envelope' | 'unknown_type' | 'unknown_version' | 'invalid_payload';

export interface EventProblem {
  readonly reason: EventProblemReason;
  /** JSON pointer of the first failing value, in the payload (or in the envelope when it is malformed). */
  readonly path: string;
  readonly message: string;
}

/** The envelope's own fields; its payload is checked by its type. */
const EnvelopeSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  type: Type.String({ minLength: 1 }),
  version: Type.Integer(),
  key: Type.String({ minLength: 1 }),
  occurredAt: Type.String(),
  correlationId: Type.String(),
  causationId: Type.String(),
  payload: Type.Unknown(),
});

let envelopeCheck: TypeCheck<typeof EnvelopeSchema> | undefined;
/** One compiled check per type, made at its first use (a process compiles only the types it touches). */
const payloadChecks = new Map<EventType, TypeCheck<TSchema>>();

function payloadCheck(type: EventType): TypeCheck<TSchema> {
  let check = payloadChecks.get(type);
  if (!check) {
    check = TypeCompiler.Compile(EventMap[type].payload);
    payloadChecks.set(type, check);
  }
  return check;
}

function firstError(check: TypeCheck<TSchema>, value: unknown): { path: string; message: string } {
  const error = check.Errors(value).First();
  return { path: error?.path || '/', message: error?.message ?? 'invalid' };
}

/** Null when `payload` is a valid payload of `type`; otherwise the first failing path. */
export function checkEventPayload(type: EventType, payload: unknown): EventProblem | null {
  const check = payloadCheck(type);
  if (check.Check(payload)) return null;
  return { reason: 'invalid_payload', ...firstError(check, payload) };
}

/**
 * Null when `event` is an envelope of a known type, of the version the map gives it, with a valid payload: what
 * a consumer may handle as `TypedEvent`. Otherwise what is wrong, and where.
 */
export function checkEvent(event: unknown): EventProblem | null {
  envelopeCheck ??= TypeCompiler.Compile(EnvelopeSchema);
  if (!envelopeCheck.Check(event)) {
    return { reason: 'malformed_envelope', ...firstError(envelopeCheck, event) };
  }
  if (!isEventType(event.type)) {
    return { reason: 'unknown_type', path: '/type', message: `no event type ${event.type}` };
  }
  const version = eventVersion(event.type);
  if (event.version !== version) {
    return {
      reason: 'unknown_version',
      path: '/version',
      message: `${event.type} version ${event.version} is not the known version ${version}`,
    };
  }
  return checkEventPayload(event.type, event.payload);
}

/**
 * A producer tried to write an event whose payload does not match its type: a programming error, thrown
 * before anything is written or published.
 */
export class EventPayloadError extends Error {
  constructor(
    readonly type: string,
    readonly problem: EventProblem,
  ) {
    super(`${type} event refused (${problem.reason}) at ${problem.path}: ${problem.message}`);
    this.name = 'EventPayloadError';
  }
}
