import type { EventEnvelope } from '@gen/contracts';
import type { Logger } from '@gen/core';
import {
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type Consumer,
  type IHeaders,
  type LogEntry,
  type Producer,
} from 'kafkajs';
import { inConsumerSpan, publishSpans } from '@gen/observability';
import type { EventBus, EventHandler, Subscription } from './event-bus';

export interface KafkaEventBusOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Partitions of topics this bus creates (parallelism of one consumer group). */
  readonly partitions?: number;
  /** Where the client's own messages go, as JSON lines of the service's log; kafkajs' console otherwise. */
  readonly logger?: Logger;
  /** Put before every topic and consumer group name (KAFKA_TOPIC_PREFIX), so fleets can share a broker. */
  readonly prefix?: string;
}

/**
 * How long the broker waits for a silent consumer before it hands that consumer's partitions to the rest of
 * its group: a consumer that died (kill -9) holds its partitions this long, and a restarted one waits as long
 * to join. The broker's smallest allowed value by default (group.min.session.timeout.ms); kafkajs' own
 * default is 30 s.
 */
export const CONSUMER_SESSION_TIMEOUT_MS = 6000;
/** Tries at making sure a topic exists and has leaders before giving up (about 10 s in all). */
const TOPIC_ATTEMPTS = 8;
/** Heartbeats several times per session, as Kafka advises (at most a third of it). */
export const CONSUMER_HEARTBEAT_MS = 1000;

/** Broker answers of a passing state, after which kafkajs restarts the consumer by itself. */
const TRANSIENT_BROKER_STATE =
  /coordinator is loading|coordinator is not available|not the correct coordinator|group is rebalancing|no leader for this topic-partition|leader is not available/i;

type WarningTarget = Pick<NodeJS.Process, 'emitWarning'>;
const negativeTimeoutsIgnored = new WeakSet<WarningTarget>();

/**
 * kafkajs 2.2 schedules its request queue's throttle check with a negative delay when nothing is throttled
 * (`RequestQueue.scheduleCheckPendingRequests`); Node 24 then writes a TimeoutNegativeWarning to stderr (once
 * per process) and runs the timer after 1 ms, as kafkajs meant. It tells an operator nothing they can act on:
 * it is dropped when a kafkajs frame set the timer, and every other warning is written as before.
 */
export function ignoreKafkajsNegativeTimeouts(target: WarningTarget = process): void {
  if (negativeTimeoutsIgnored.has(target)) return;
  negativeTimeoutsIgnored.add(target);
  const emitWarning = target.emitWarning.bind(target) as (...args: unknown[]) => void;
  target.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const type =
      typeof warning === 'string'
        ? typeof rest[0] === 'string'
          ? rest[0]
          : (rest[0] as { type?: string } | undefined)?.type
        : warning.name;
    if (type === 'TimeoutNegativeWarning' && /[\\/]kafkajs[\\/]/.test(new Error().stack ?? '')) return;
    emitWarning(warning, ...rest);
  }) as WarningTarget['emitWarning'];
}

/** kafkajs' messages through the service's logger: one JSON line each, with the client's namespace. */
export function kafkaLogCreator(logger: Logger) {
  return () =>
    ({ namespace, level, log }: LogEntry): void => {
      const { message, timestamp: _timestamp, logger: _name, ...fields } = log;
      const entry = { kafka: namespace, ...fields };
      // kafkajs logs every error answer of the broker at error level, even those its caller retries (a new
      // topic's partition leaders not known yet); the caller raises what it cannot retry, so warn is enough.
      const answered = namespace === 'Connection' && message.startsWith('Response ');
      // A consumer that met a transient state of the broker (a group coordinator still loading after a broker
      // start, a rebalance) crashes and restarts itself: a warning. A crash it does not restart stays an error.
      const restarted =
        namespace === 'Consumer' &&
        (message.startsWith('Restarting the consumer') ||
          (message.startsWith('Crash: ') && TRANSIENT_BROKER_STATE.test(message)));
      const shown = (answered || restarted) && level === logLevel.ERROR ? logLevel.WARN : level;
      if (shown === logLevel.ERROR || shown === logLevel.NOTHING) logger.error(entry, message);
      else if (shown === logLevel.WARN) logger.warn(entry, message);
      else if (shown === logLevel.INFO) logger.info(entry, message);
      else logger.debug(entry, message);
    };
}

/**
 * The distributed adapter. Messages are keyed by the envelope's `key`, so one key lands on one partition and
 * stays in order; the producer is idempotent with one request in flight, so retries neither duplicate nor
 * reorder. A consumer handles one message at a time per partition and commits its offset only after the
 * handler resolved: a crash redelivers, never skips.
 */
export class KafkaEventBus implements EventBus {
  private readonly kafka: Kafka;
  private producer: Producer;
  private readonly consumers = new Set<Consumer>();
  /** What each consumer reads (its Kafka topic and group), for `consumerLag`. */
  private readonly reads = new Map<Consumer, { readonly topic: string; readonly groupId: string }>();
  private lagAdmin: { readonly admin: Admin; readonly connected: Promise<void> } | undefined;
  private connect: () => Promise<void>;
  private producing = false;
  private readonly topics = new Map<string, Promise<void>>();

  constructor(private readonly options: KafkaEventBusOptions) {
    ignoreKafkajsNegativeTimeouts();
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      logLevel: logLevel.ERROR,
      ...(options.logger ? { logCreator: kafkaLogCreator(options.logger) } : {}),
    });
    this.producer = this.newProducer();
    this.connect = connectOnce(() => this.producer.connect());
  }

  private newProducer(): Producer {
    return this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  /**
   * Replaces a producer whose sequence numbers the broker no longer accepts (`producerStateLost`): the next
   * publish connects a new one, which gets a new producer id and starts its sequences again.
   */
  private replaceProducer(lost: Producer, error: unknown): void {
    if (this.producer !== lost) return;
    this.options.logger?.warn(
      { err: error },
      'Kafka producer out of step with the broker (its restart lost our sequence numbers): using a new producer',
    );
    this.producer = this.newProducer();
    this.connect = connectOnce(() => this.producer.connect());
    lost.disconnect().catch(() => undefined);
  }

  /** Creates the topic once if it does not exist, and waits for its partition leaders. */
  private ensureTopic(topic: string): Promise<void> {
    let ready = this.topics.get(topic);
    if (!ready) {
      const admin = this.kafka.admin();
      ready = (async () => {
        await admin.connect();
        try {
          // Several processes may create a new topic at once, and its partition leaders take a moment to
          // be known everywhere: the broker's answers meanwhile are retriable, so try again for a while.
          for (let attempt = 1; ; attempt += 1) {
            try {
              // Creating a topic that exists is answered with an error the client logs: look first.
              if (!(await admin.listTopics()).includes(topic)) {
                await admin.createTopics({
                  topics: [{ topic, numPartitions: this.options.partitions ?? 3 }],
                  waitForLeaders: true,
                });
              }
              await admin.fetchTopicMetadata({ topics: [topic] });
              return;
            } catch (error) {
              if (attempt >= TOPIC_ATTEMPTS || (error as { retriable?: boolean }).retriable === false)
                throw error;
              await new Promise((r) => setTimeout(r, 250 * attempt));
            }
          }
        } finally {
          await admin.disconnect();
        }
      })();
      ready.catch(() => this.topics.delete(topic));
      this.topics.set(topic, ready);
    }
    return ready;
  }

  private named(name: string): string {
    return `${this.options.prefix ?? ''}${name}`;
  }

  async publish(name: string, events: readonly EventEnvelope[]): Promise<void> {
    if (events.length === 0) return;
    const topic = this.named(name);
    await this.ensureTopic(topic);
    this.producing = true;
    await this.connect();
    const producer = this.producer;
    // With tracing on: producer spans continuing each event's stored trace (or the active one), in W3C headers.
    const spans = publishSpans(
      topic,
      events.map((e) => e.traceparent),
      { 'messaging.system': 'kafka' },
    );
    try {
      await producer.send({
        topic,
        acks: -1,
        messages: events.map((event, i) => ({
          key: event.key,
          value: JSON.stringify(event),
          headers: {
            'event-id': event.id,
            'event-type': event.type,
            'event-version': String(event.version),
            ...spans?.headers[i],
          },
        })),
      });
    } catch (error) {
      spans?.end(error);
      // The caller publishes again (the outbox relay, a second later); with a new producer if this one is lost.
      if (producerStateLost(error)) this.replaceProducer(producer, error);
      throw error;
    }
    spans?.end();
  }

  async subscribe(name: string, group: string, handler: EventHandler): Promise<Subscription> {
    const topic = this.named(name);
    await this.ensureTopic(topic);
    // An idle fetch waits at most a second, so stopping a consumer takes about that, not kafkajs' 5 s.
    // One Kafka group per (group, topic): kafkajs assigns every topic of a group to all its members, so two
    // consumers of one group with different topics would be handed each other's partitions and never read
    // them. The port's meaning is unchanged: each `group` gets each event of `topic` once.
    const groupId = kafkaGroupId(this.named(group), topic);
    const consumer = this.kafka.consumer({
      groupId,
      retry: { retries: 10 },
      sessionTimeout: CONSUMER_SESSION_TIMEOUT_MS,
      heartbeatInterval: CONSUMER_HEARTBEAT_MS,
      maxWaitTimeInMs: 1000,
    });
    this.consumers.add(consumer);
    this.reads.set(consumer, { topic, groupId });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
    } catch (error) {
      this.consumers.delete(consumer);
      this.reads.delete(consumer);
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
    // Joining the group waits until the broker has heard from every member or given up on it: after a
    // member's process died, up to CONSUMER_SESSION_TIMEOUT_MS. The app does not wait for that to start; it
    // consumes from its committed offsets as soon as it is in.
    const running = consumer.run({
      autoCommit: true,
      // Partitions are handled side by side; within one (so within one key) strictly one at a time.
      partitionsConsumedConcurrently: this.options.partitions ?? 3,
      eachMessage: async ({ partition, message }) => {
        if (!message.value) return;
        let event: EventEnvelope;
        try {
          event = JSON.parse(message.value.toString('utf8')) as EventEnvelope;
        } catch {
          // It would fail the same way at every delivery: holding it would block the partition for good. The
          // line names where it stays (the topic keeps it for its retention); `subscribeEvents` reports the
          // envelopes that parse but do not match the event map the same way.
          this.reportUnreadable({ topic, group, partition, offset: message.offset, key: message.key });
          return;
        }
        // With tracing on: a consumer span continuing the producer's, from the message's W3C headers.
        await inConsumerSpan(topic, groupId, traceHeaders(message.headers), () => handler(event));
      },
    });
    running.catch((error: unknown) =>
      this.options.logger?.error({ err: error, topic, group }, 'Kafka consumer could not start'),
    );
    return {
      stop: async () => {
        this.consumers.delete(consumer);
        this.reads.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  /**
   * How far each group this process consumes with is behind, per topic: the messages of the topic's partitions
   * past the group's committed offsets (all of a partition's messages while the group has committed nothing).
   * Asked of the broker (one admin connection, opened on the first call): the group's offsets, whichever of its
   * members committed them. Empty when this process consumes nothing.
   */
  async consumerLag(): Promise<{ topic: string; group: string; lag: number }[]> {
    const reads = new Map([...this.reads.values()].map((r) => [`${r.groupId}\n${r.topic}`, r]));
    if (reads.size === 0) return [];
    if (!this.lagAdmin) {
      const admin = this.kafka.admin();
      this.lagAdmin = { admin, connected: admin.connect() };
      this.lagAdmin.connected.catch(() => (this.lagAdmin = undefined));
    }
    const { admin, connected } = this.lagAdmin;
    await connected;
    return Promise.all(
      [...reads.values()].map(async ({ topic, groupId }) => {
        const [ends, [committed]] = await Promise.all([
          admin.fetchTopicOffsets(topic),
          admin.fetchOffsets({ groupId, topics: [topic] }),
        ]);
        const done = new Map(committed?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
        let lag = 0;
        for (const { partition, high, low } of ends) {
          const at = done.get(partition) ?? -1;
          lag += Math.max(0, Number(high) - (at >= 0 ? at : Number(low)));
        }
        return { topic, group: groupId, lag };
      }),
    );
  }

  private reportUnreadable(fields: {
    topic: string;
    group: string;
    partition: number;
    offset: string;
    key: Buffer | null;
  }): void {
    const line = { ...fields, key: fields.key?.toString('utf8') ?? null, reason: 'not_json' };
    const message = 'event skipped: the message is not a JSON envelope';
    if (this.options.logger) this.options.logger.error(line, message);
    else process.stderr.write(`${JSON.stringify({ level: 'error', ...line, msg: message })}\n`);
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.disconnect()));
    this.consumers.clear();
    this.reads.clear();
    const lagAdmin = this.lagAdmin;
    this.lagAdmin = undefined;
    if (lagAdmin) await lagAdmin.admin.disconnect().catch(() => undefined);
    if (this.producing) await this.producer.disconnect();
  }
}

/** The W3C trace headers of a message (kafkajs gives header values as buffers). */
function traceHeaders(headers: IHeaders | undefined): Record<string, string | undefined> {
  const text = (value: IHeaders[string]): string | undefined =>
    value === undefined ? undefined : Array.isArray(value) ? String(value[0]) : String(value);
  return { traceparent: text(headers?.['traceparent']), tracestate: text(headers?.['tracestate']) };
}

/**
 * `connect` once for every caller: the first call starts it, calls meanwhile share that attempt, and once it
 * succeeded every call resolves at once. A failed attempt is not kept: the next call tries again. (A producer
 * whose first connect met the broker down, e.g. restarting, kept that rejection and failed every publish for
 * the rest of its process: its outbox relay never published again. Found by e2e/faults/kafka-restart.)
 */
export function connectOnce(connect: () => Promise<void>): () => Promise<void> {
  let attempt: Promise<void> | undefined;
  return () => {
    if (!attempt) {
      const current = connect();
      attempt = current;
      current.catch(() => {
        if (attempt === current) attempt = undefined;
      });
    }
    return attempt;
  };
}

/**
 * The broker's answers after which an idempotent producer's sequence numbers no longer match the broker's: a
 * broker killed and restarted (or a partition's leader changed) while a batch was in flight. kafkajs never
 * recovers from them (every later send of that producer gets the same answer; the Java client bumps its
 * epoch, librdkafka declares the producer dead), so the bus replaces the producer. Found by
 * e2e/faults/kafka-restart: the tasks app's relay answered OUT_OF_ORDER_SEQUENCE_NUMBER for good after the
 * broker's restart, and no task event left its outbox again.
 */
const PRODUCER_STATE_ERRORS = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
]);

/** True when `error` (or an error it wraps, as kafkajs' retry wrappers do) is one of PRODUCER_STATE_ERRORS. */
export function producerStateLost(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const { type, cause } = current as { type?: unknown; cause?: unknown };
    if (typeof type === 'string' && PRODUCER_STATE_ERRORS.has(type)) return true;
    current = cause;
  }
  return false;
}

/** The Kafka consumer group of an event bus group on one topic. */
export function kafkaGroupId(group: string, topic: string): string {
  return `${group}@${topic}`;
}
