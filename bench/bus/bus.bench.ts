/**
 * bench/bus: events per second and latency from the domain write (a committed transaction that appends to the
 * outbox) to the consumer's effect, through the outbox relay and Kafka, with 1 KiB payloads.
 *
 *   npm run services:up && npm run bench:bus [-- --events 40000 --writers 8 --per-tx 1 --batch 500]
 *
 * The consumer's effect is in memory (recording the arrival), so the figures are the bus path itself;
 * a consumer that writes to its database adds its own transaction per event. The events are task.created
 * events (their prompt 1 KiB), built and checked by `newEvent` and checked again by `subscribeEvents`, as
 * production's are.
 */
import { TaskEventType } from '@gen/contracts';
import { readSettingsFile } from '@gen/core';
import {
  appendToOutbox,
  KafkaEventBus,
  newEvent,
  OutboxRelay,
  outboxMigrationSql,
  subscribeEvents,
  type OutgoingEvent,
} from '@gen/messaging';
import { migrate } from '@gen/persistence';
import { openTestDatabase, writeMigrationFolder } from '@gen/testing';
import { randomBytes } from 'node:crypto';
import { hasFlag, numberFlag } from '../bench-support';
import { join } from 'node:path';

const SCHEMA = 'bus_bench';

function setting(name: string): string {
  const value =
    process.env[name] ?? readSettingsFile(join(__dirname, '..', '..', '..', '.env.services'))[name];
  if (!value) throw new Error(`${name} is not set: run npm run services:up first`);
  return value;
}

async function main(): Promise<void> {
  // Events per domain transaction: 1 is a write with one event (a task created); 4 a write that emits
  // several, which shows the bus path's own capacity where single-event commits bound the write rate.
  // Both run unless --per-tx picks one.
  for (const perTx of hasFlag('per-tx') ? [numberFlag('per-tx', 1)] : [1, 4]) await run(perTx);
  console.log('targets: at least 5,000 events/s with p99 under 100 ms');
}

async function run(perTx: number): Promise<void> {
  const total = numberFlag('events', 40000);
  const writers = numberFlag('writers', 8);
  const brokers = setting('KAFKA_BROKERS').split(',');
  process.env['TEST_DATABASE_URL'] ??= setting('DATABASE_URL');

  const test = await openTestDatabase('postgres');
  const { database } = test;
  await migrate(database, {
    schema: SCHEMA,
    directory: writeMigrationFolder(test.dir, 'outbox', outboxMigrationSql(SCHEMA)),
  });

  // The topic is the event map's (task.lifecycle); a prefix of its own keeps this run apart from others.
  const prefix = `bench-bus-${randomBytes(4).toString('hex')}.`;
  const consumer = new KafkaEventBus({ brokers, clientId: 'bench-consumer', prefix });
  const producer = new KafkaEventBus({ brokers, clientId: 'bench-relay', prefix });
  const latencies: number[] = [];
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  await subscribeEvents(consumer, { group: 'g', types: [TaskEventType.created] }, async (e) => {
    latencies.push(Date.now() - Date.parse(e.occurredAt));
    if (latencies.length === total) done();
  });
  const relay = new OutboxRelay(database, producer, {
    schema: SCHEMA,
    batchSize: numberFlag('batch', 500),
    pollMs: 5,
  });
  relay.start();

  const filler = randomBytes(512).toString('hex'); // 1 KiB of payload
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < total) {
        const events: OutgoingEvent<typeof TaskEventType.created>[] = [];
        while (events.length < perTx && next < total) {
          const i = next++;
          const now = new Date().toISOString();
          events.push(
            newEvent(
              TaskEventType.created,
              {
                taskId: `job_${i}`,
                accountId: 'acc_bench',
                keyId: 'key_bench',
                model: 'local/sketch',
                input: { prompt: filler, i },
                estimatedCost: '0.004',
                createdAt: now,
                deadlineAt: now,
              },
              { key: `key-${i % 64}`, occurredAt: now, correlationId: 'bench', causationId: 'bench' },
            ),
          );
        }
        await database.transaction((tx) => appendToOutbox(tx, SCHEMA, events));
      }
    }),
  );
  const written = Date.now();
  await finished;
  const elapsed = (Date.now() - started) / 1000;
  await relay.stop();
  await Promise.all([consumer.close(), producer.close()]);
  await test.close();

  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  console.log(
    `bench/bus: ${total} events of 1 KiB, ${writers} writers, ${perTx} event(s) per transaction, node ${process.version}`,
  );
  console.log(`domain writes: ${(total / ((written - started) / 1000)).toFixed(0)} events/s`);
  console.log(
    `end to end (write -> outbox -> relay -> Kafka -> consumer): ${(total / elapsed).toFixed(0)} events/s`,
  );
  console.log(
    `latency write -> consumer effect: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${latencies[latencies.length - 1]} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
