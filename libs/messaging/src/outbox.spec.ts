import { HoldEventType, Topics, type EventType } from '@gen/contracts';
import { migrate, type Database } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, writeMigrationFolder, type TestDatabase } from '@gen/testing';
import type { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appendToOutbox,
  dropOutboxNotifySql,
  handleOnce,
  OutboxRelay,
  outboxChannel,
  outboxMigrationSql,
  outboxNotifySql,
} from './outbox';
import { OutboxWakeUp } from './outbox-wake-up';
import { OutboxSignal } from './outbox-signal';
import { newEvent, type OutgoingEvent } from './typed-events';

const SCHEMA = 'outbox_test';
/** The outbox carries any type of the event map; hold.settled (topic billing.holds) stands for all of them. */
const ITEMS = Topics.billingHolds;
const event = (key: string, n: number) =>
  newEvent(
    HoldEventType.settled,
    { holdId: key, accountId: 'acc_test', charged: String(n) },
    { id: `evt_${key}_${n}`, key, correlationId: 'req_test', causationId: 'req_test' },
  );

describe.each(DATABASE_KINDS)('transactional outbox on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;

  beforeEach(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    const migrations = writeMigrationFolder(
      test.dir,
      'outbox',
      `${outboxMigrationSql(SCHEMA)}\nCREATE TABLE "${SCHEMA}"."items" ("id" TEXT PRIMARY KEY);\nCREATE TABLE "${SCHEMA}"."applied" ("event_id" TEXT NOT NULL);\n`,
    );
    await migrate(database, { schema: SCHEMA, directory: migrations });
  });
  afterEach(() => test.close());

  const createItem = (id: string, events: OutgoingEvent<EventType>[], fail = false) =>
    database.transaction(async (tx) => {
      await tx.query(`INSERT INTO "${SCHEMA}"."items" ("id") VALUES ($1)`, [id]);
      await appendToOutbox(tx, SCHEMA, events);
      if (fail) throw new Error('the change failed');
    });
  const count = async (sql: string) => Number((await database.query<{ n: string }>(sql))[0]!.n);

  it('writes events exactly when the change commits', async () => {
    await createItem('a', [event('a', 1)]);
    await expect(createItem('b', [event('b', 1)], true)).rejects.toThrow('the change failed');
    expect(await count(`SELECT count(*) AS n FROM "${SCHEMA}"."items"`)).toBe(1);
    expect(await database.query(`SELECT "id" FROM "${SCHEMA}"."outbox"`)).toEqual([{ id: 'evt_a_1' }]);
  });

  it('publishes in order per key, deletes what it published, and publishes it once', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe(ITEMS, 'g', async (e) => void seen.push(e.id));
    for (let i = 0; i < 5; i += 1) await createItem(`x${i}`, [event('x', i), event('y', i)]);
    const relay = new OutboxRelay(database, bus, { schema: SCHEMA, batchSize: 4 });
    let published = 0;
    for (let n = await relay.drainOnce(); n > 0; n = await relay.drainOnce()) published += n;
    await bus.close();
    expect(published).toBe(10);
    expect(seen.filter((id) => id.startsWith('evt_x'))).toEqual([0, 1, 2, 3, 4].map((i) => `evt_x_${i}`));
    expect(seen.filter((id) => id.startsWith('evt_y'))).toEqual([0, 1, 2, 3, 4].map((i) => `evt_y_${i}`));
    expect(await count(`SELECT count(*) AS n FROM "${SCHEMA}"."outbox"`)).toBe(0);
    expect(await relay.drainOnce()).toBe(0);
  });

  it('keeps the order of many events appended in one statement', async () => {
    // Ids descending, so neither an id order nor a hash order could pass for the given one.
    const events = Array.from({ length: 50 }, (_, i) => event('z', 49 - i));
    await createItem('z', events);
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe(ITEMS, 'g', async (e) => void seen.push(e.id));
    const relay = new OutboxRelay(database, bus, { schema: SCHEMA, batchSize: 7 });
    while ((await relay.drainOnce()) > 0);
    await bus.close();
    expect(seen).toEqual(events.map((e) => e.id));
    expect(await createItem('none', [])).toBeUndefined();
    expect(await count(`SELECT count(*) AS n FROM "${SCHEMA}"."outbox"`)).toBe(0);
  });

  it('loses nothing and applies nothing twice when the relay dies between publishing and marking', async () => {
    const inner = new InProcessEventBus();
    let deliveries = 0;
    await inner.subscribe(ITEMS, 'consumer', async (e) => {
      deliveries += 1;
      await database.transaction((tx) =>
        handleOnce(tx, SCHEMA, 'consumer', e.id, async () => {
          await tx.query(`INSERT INTO "${SCHEMA}"."applied" ("event_id") VALUES ($1)`, [e.id]);
        }),
      );
    });
    let crash = true;
    const dying: EventBus = {
      publish: async (topic, events) => {
        await inner.publish(topic, events);
        if (crash) {
          crash = false;
          throw new Error('relay killed after publishing, before marking');
        }
      },
      subscribe: (t, g, h) => inner.subscribe(t, g, h),
      close: () => inner.close(),
    };
    for (let i = 0; i < 6; i += 1) await createItem(`z${i}`, [event(`k${i % 2}`, i)]);
    const relay = new OutboxRelay(database, dying, { schema: SCHEMA });
    await expect(relay.drainOnce()).rejects.toThrow('relay killed');
    expect(await count(`SELECT count(*) AS n FROM "${SCHEMA}"."outbox"`)).toBe(6);
    const restarted = new OutboxRelay(database, dying, { schema: SCHEMA });
    expect(await restarted.drainOnce()).toBe(6);
    await inner.close();
    expect(deliveries).toBe(12);
    expect(await count(`SELECT count(*) AS n FROM "${SCHEMA}"."applied"`)).toBe(6);
    expect(await count(`SELECT count(DISTINCT "event_id") AS n FROM "${SCHEMA}"."applied"`)).toBe(6);
  });

  it('runs as a poller that stops after its batch in flight', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe(ITEMS, 'g', async (e) => void seen.push(e.id));
    const relay = new OutboxRelay(database, bus, { schema: SCHEMA, pollMs: 10 });
    relay.start();
    await createItem('p1', [event('p', 1)]);
    const deadline = Date.now() + 5000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await relay.stop();
    await bus.close();
    expect(seen).toEqual(['evt_p_1']);
  });

  it('drains at once when nudged instead of waiting for its next poll', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe(ITEMS, 'g', async (e) => void seen.push(e.id));
    const relay = new OutboxRelay(database, bus, { schema: SCHEMA, pollMs: 60_000 });
    relay.start();
    await new Promise((r) => setTimeout(r, 200)); // the first (empty) drain is done: the relay waits a minute
    await createItem('n1', [event('n', 1)]);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]); // not nudged: still waiting
    relay.nudge();
    const deadline = Date.now() + 5000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['evt_n_1']);
    await relay.stop();
    await bus.close();
  });

  it('deletes what it published with its next read (one statement per batch), and the rest when it stops', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe(ITEMS, 'g', async (e) => void seen.push(e.id));
    const statements: string[] = [];
    // The relay's own statements: those it sends on the connection that holds its lock.
    const counted = Object.create(database) as Database;
    counted.withLock = (name, work) =>
      database.withLock(name, (db) =>
        work({
          exec: (sql) => db.exec(sql),
          query: (sql, params) => {
            statements.push(sql);
            return db.query(sql, params);
          },
        }),
      );
    const relay = new OutboxRelay(counted, bus, { schema: SCHEMA, pollMs: 60_000, leaseMs: 60_000 });
    const rows = () => database.query<{ id: string }>(`SELECT "id" FROM "${SCHEMA}"."outbox" ORDER BY "seq"`);
    const publishedUpTo = async (n: number) => {
      const deadline = Date.now() + 5000;
      while (seen.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50)); // the relay is back in its pause
    };
    relay.start();
    await new Promise((r) => setTimeout(r, 200)); // the first (empty) read is done
    const before = statements.length;
    await createItem('d1', [event('d', 1)]);
    relay.nudge();
    await publishedUpTo(1);
    expect(await rows()).toEqual([{ id: 'evt_d_1' }]); // published, deleted by the next read
    await createItem('d2', [event('d', 2)]);
    relay.nudge();
    await publishedUpTo(2);
    expect(await rows()).toEqual([{ id: 'evt_d_2' }]);
    expect(statements.slice(before)).toHaveLength(2); // two batches, two statements
    expect(statements.at(-1)).toMatch(/DELETE[\s\S]*SELECT/);
    await relay.stop();
    expect(await rows()).toEqual([]);
    expect(seen).toEqual(['evt_d_1', 'evt_d_2']);
    await bus.close();
  });

  it('is nudged by the signal its process notifies after a commit', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe(ITEMS, 'g', async (e) => void seen.push(e.id));
    const signal = new OutboxSignal();
    const relay = new OutboxRelay(database, bus, { schema: SCHEMA, pollMs: 60_000, signal });
    relay.start();
    await new Promise((r) => setTimeout(r, 200));
    await createItem('s1', [event('s', 1)]);
    signal.notify();
    const deadline = Date.now() + 5000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['evt_s_1']);
    await relay.stop();
    await bus.close();
  });

  it('is woken by the NOTIFY another process sends after its commit (OutboxWakeUp), without poll', async () => {
    if (kind !== 'postgres') return; // LISTEN/NOTIFY across processes: a fleet runs on PostgreSQL
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe(ITEMS, 'g', async (e) => void seen.push(e.id));
    const relay = new OutboxRelay(database, bus, { schema: SCHEMA, pollMs: 60_000 });
    relay.start();
    await new Promise((r) => setTimeout(r, 300)); // the first (empty) drain is done; listening is up
    // The writer's side, as another process has it: its signal has no local relay, only the wake-up.
    const writer = new OutboxSignal(new OutboxWakeUp(database, outboxChannel(SCHEMA)));
    const started = Date.now();
    await createItem('w1', [event('w', 1)]);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([]); // no trigger: the commit alone wakes nobody
    writer.notify();
    const deadline = Date.now() + 5000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual(['evt_w_1']);
    expect(Date.now() - started).toBeLessThan(2000);
    await relay.stop();
    await bus.close();
  });

  it('coalesces wake-ups: nudges during a NOTIFY under way send one more, not one each', async () => {
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const slow = {
      query: async (_sql: string, params?: unknown[]) => {
        sent.push(String(params?.[0]));
        await new Promise<void>((r) => (release = r));
        return [];
      },
    } as unknown as Pick<Database, 'query'>;
    const wakeUp = new OutboxWakeUp(slow, 'outbox_x');
    wakeUp.nudge();
    for (let i = 0; i < 50; i += 1) wakeUp.nudge();
    expect(sent).toEqual(['outbox_x']);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toEqual(['outbox_x', 'outbox_x']);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toHaveLength(2);
    wakeUp.nudge(); // idle again: sent at once
    expect(sent).toHaveLength(3);
    release();
  });

  it('lets one of two relays publish at a time, and the other take over when it stops', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    await bus.subscribe(ITEMS, 'g', async (e) => void seen.push(e.id));
    const publishedBy: string[] = [];
    const through = (name: string): EventBus => ({
      publish: async (topic, events) => {
        publishedBy.push(...events.map(() => name));
        await bus.publish(topic, events);
      },
      subscribe: (topic, group, handler) => bus.subscribe(topic, group, handler),
      close: async () => undefined,
    });
    const waitFor = async (count: number) => {
      const deadline = Date.now() + 10_000;
      while (seen.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    };
    const a = new OutboxRelay(database, through('a'), { schema: SCHEMA, pollMs: 5, leaseMs: 200 });
    const b = new OutboxRelay(database, through('b'), { schema: SCHEMA, pollMs: 5, leaseMs: 200 });
    a.start();
    b.start();
    for (let i = 0; i < 20; i += 1) await createItem(`q${i}`, [event('q', i)]);
    await waitFor(20);
    await a.stop();
    const before = publishedBy.length;
    for (let i = 20; i < 30; i += 1) await createItem(`q${i}`, [event('q', i)]);
    await waitFor(30);
    await b.stop();
    await bus.close();
    // Each event exactly once, in order, although both relays ran side by side.
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => `evt_q_${i}`));
    expect(publishedBy.slice(before).every((name) => name === 'b')).toBe(true);
  });
});

describe('service outboxes', () => {
  const migration = (schema: string, name: string) =>
    readFileSync(join(__dirname, '..', '..', schema, 'prisma', 'migrations', name, 'migration.sql'), 'utf8');

  it.each(['tasks', 'billing'])(
    '%s had the trigger, and no longer has it: relays are woken after the commit',
    (schema) => {
      expect(migration(schema, '20261125000000_outbox_notify')).toContain(outboxNotifySql(schema));
      expect(migration(schema, '20261130000000_outbox_wake_after_commit')).toContain(
        dropOutboxNotifySql(schema),
      );
    },
  );
});
