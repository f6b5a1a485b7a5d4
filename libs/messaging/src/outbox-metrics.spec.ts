import { HoldEventType, Topics } from '@gen/contracts';
import { migrate, type Database } from '@gen/persistence';
import { Metrics } from '@gen/observability';
import {
  DATABASE_KINDS,
  metricValue,
  openTestDatabase,
  writeMigrationFolder,
  type TestDatabase,
} from '@gen/testing';
import { InProcessEventBus } from './in-process-event-bus';
import { appendToOutbox, OutboxRelay, outboxMigrationSql } from './outbox';
import { OUTBOX_METRICS_CACHE_MS, outboxDepth, outboxMetrics } from './outbox-metrics';
import { newEvent } from './typed-events';

const SCHEMA = 'outbox_metrics_test';

describe.each(DATABASE_KINDS)('outbox metrics on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;

  beforeEach(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    const migrations = writeMigrationFolder(test.dir, 'outbox', outboxMigrationSql(SCHEMA));
    await migrate(database, { schema: SCHEMA, directory: migrations });
  });
  afterEach(() => test.close());

  /** hold.settled stands for any event type (the outbox carries them all). */
  const append = (key: string, n: number) =>
    database.transaction((tx) =>
      appendToOutbox(tx, SCHEMA, [
        newEvent(
          HoldEventType.settled,
          { holdId: key, accountId: 'acc_test', charged: String(n) },
          { id: `evt_${key}_${n}`, key, correlationId: 'req_test', causationId: 'req_test' },
        ),
      ]),
    );

  it('reads the rows waiting and the age of the oldest, and nothing once the relay published them', async () => {
    expect(await outboxDepth(database, SCHEMA)).toEqual({ rows: 0, oldestAgeSeconds: 0 });
    await append('a', 1);
    // The oldest row is dated an hour back, as if the relay had been stuck that long.
    await database.query(
      `UPDATE "${SCHEMA}"."outbox" SET "created_at" = now() - interval '1 hour' WHERE "id" = 'evt_a_1'`,
    );
    await append('b', 1);
    await append('b', 2);
    const depth = await outboxDepth(database, SCHEMA);
    expect(depth.rows).toBe(3);
    expect(depth.oldestAgeSeconds).toBeGreaterThanOrEqual(3600);
    expect(depth.oldestAgeSeconds).toBeLessThan(3660);

    const bus = new InProcessEventBus();
    await bus.subscribe(Topics.billingHolds, 'g', async () => undefined);
    await new OutboxRelay(database, bus, { schema: SCHEMA }).drainOnce();
    await bus.close();
    expect(await outboxDepth(database, SCHEMA)).toEqual({ rows: 0, oldestAgeSeconds: 0 });
  });

  it('reports each schema on scrape, reading at most once a second, until removed', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const remove = outboxMetrics(metrics, database, SCHEMA);
    await append('a', 1);
    await append('a', 2);
    let text = await metrics.render();
    expect(metricValue(text, 'outbox_rows', { schema: SCHEMA })).toBe(2);
    expect(metricValue(text, 'outbox_oldest_age_seconds', { schema: SCHEMA })).toBeGreaterThanOrEqual(0);
    // Within the cache: the same reading, though a row was added.
    await append('a', 3);
    text = await metrics.render();
    expect(metricValue(text, 'outbox_rows', { schema: SCHEMA })).toBe(2);
    await new Promise((r) => setTimeout(r, OUTBOX_METRICS_CACHE_MS + 50));
    text = await metrics.render();
    expect(metricValue(text, 'outbox_rows', { schema: SCHEMA })).toBe(3);
    remove();
    text = await metrics.render();
    expect(metricValue(text, 'outbox_rows', { schema: SCHEMA })).toBeUndefined();
  });
});
