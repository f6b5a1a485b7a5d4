import { HoldEventType } from '@gen/contracts';
import {
  appendToOutbox,
  handleOnce,
  KafkaEventBus,
  newEvent,
  OutboxRelay,
  outboxMigrationSql,
  subscribeEvents,
  type EventBus,
} from '@gen/messaging';
import { migrate, type Database } from '@gen/persistence';
import { openTestDatabase, writeMigrationFolder, type TestDatabase } from '@gen/testing';
import { randomBytes } from 'node:crypto';

const SCHEMA = 'outbox_e2e';
const brokers = process.env['KAFKA_BROKERS']!.split(',');

describe('outbox -> Kafka -> idempotent consumer, on PostgreSQL', () => {
  let test: TestDatabase;
  let database: Database;
  const buses: KafkaEventBus[] = [];

  beforeAll(async () => {
    test = await openTestDatabase('postgres');
    database = test.database;
    const migrations = writeMigrationFolder(
      test.dir,
      'outbox',
      `${outboxMigrationSql(SCHEMA)}\nCREATE TABLE "${SCHEMA}"."applied" ("event_id" TEXT NOT NULL, "n" INTEGER NOT NULL);\n`,
    );
    await migrate(database, { schema: SCHEMA, directory: migrations });
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await test.close();
  });

  it('a relay killed mid-batch and restarted loses nothing, and the consumer applies nothing twice', async () => {
    // Topics come from the event map (hold.settled travels on billing.holds): a prefix of its own keeps this
    // run's topic apart from every other run's.
    const prefix = `e2e-outbox-${randomBytes(4).toString('hex')}.`;
    const total = 300;
    for (let i = 0; i < total; i += 1) {
      const key = `key-${i % 10}`;
      const event = newEvent(
        HoldEventType.settled,
        { holdId: key, accountId: 'acc_e2e', charged: String(i) },
        { key, correlationId: 'req_e2e', causationId: 'req_e2e' },
      );
      await database.transaction((tx) => appendToOutbox(tx, SCHEMA, [event]));
    }

    const consumerBus = new KafkaEventBus({ brokers, clientId: 'e2e-consumer', prefix });
    buses.push(consumerBus);
    let deliveries = 0;
    const lastPerKey = new Map<string, number>();
    let outOfOrder = 0;
    await subscribeEvents(consumerBus, { group: 'g', types: [HoldEventType.settled] }, async (e) => {
      const n = Number(e.payload.charged);
      await database.transaction((tx) =>
        handleOnce(tx, SCHEMA, 'e2e', e.id, async () => {
          if ((lastPerKey.get(e.key) ?? -1) > n) outOfOrder += 1;
          lastPerKey.set(e.key, n);
          await tx.query(`INSERT INTO "${SCHEMA}"."applied" ("event_id", "n") VALUES ($1, $2)`, [e.id, n]);
        }),
      );
      // Counted once the handler's transaction is over, so that waiting for the count waits for the work.
      deliveries += 1;
    });

    // The first relay publishes its first batch to Kafka and dies before marking it.
    const producerBus = new KafkaEventBus({ brokers, clientId: 'e2e-relay', prefix });
    buses.push(producerBus);
    const dying: EventBus = {
      publish: async (t, events) => {
        await producerBus.publish(t, events);
        throw new Error('relay killed after publishing, before marking');
      },
      subscribe: (t, g, h) => producerBus.subscribe(t, g, h),
      close: async () => undefined,
    };
    await expect(
      new OutboxRelay(database, dying, { schema: SCHEMA, batchSize: 100 }).drainOnce(),
    ).rejects.toThrow('relay killed');

    // A new relay drains everything; the first batch goes out a second time.
    const relay = new OutboxRelay(database, producerBus, { schema: SCHEMA, batchSize: 100 });
    let published = 0;
    for (let n = await relay.drainOnce(); n > 0; n = await relay.drainOnce()) published += n;
    expect(published).toBe(total);

    const applied = async () =>
      Number((await database.query<{ n: string }>(`SELECT count(*) AS n FROM "${SCHEMA}"."applied"`))[0]!.n);
    const deadline = Date.now() + 60_000;
    while ((deliveries < total + 100 || (await applied()) < total) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(deliveries).toBe(total + 100);
    expect(await applied()).toBe(total);
    const distinct = await database.query<{ n: string }>(
      `SELECT count(DISTINCT "event_id") AS n FROM "${SCHEMA}"."applied"`,
    );
    expect(Number(distinct[0]!.n)).toBe(total);
    expect(outOfOrder).toBe(0);
  });
});
