import type { Database, Listening } from '@gen/persistence';
import { migrate } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import type { WebhookEndpoint } from '../domain/endpoint';
import { EndpointDirectory } from './endpoint-directory';
import { EndpointRepository } from './endpoint.repository';
import { WEBHOOKS_SCHEMA, type WebhooksMigrations } from './webhooks-schema';

const T0 = new Date('2026-11-28T10:00:00.000Z');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(DATABASE_KINDS)('EndpointDirectory on %s: lookups kept until a change is announced', (kind) => {
  let test: TestDatabase;
  let repository: EndpointRepository;
  let directory: EndpointDirectory;
  let reads: jest.SpyInstance;
  let serial = 0;
  const next = (prefix: string) => `${prefix}_${kind}_${(serial += 1)}`;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    await migrate(test.database, WEBHOOKS_SCHEMA);
    repository = new EndpointRepository(test.database, {} as WebhooksMigrations);
    directory = new EndpointDirectory(repository, test.database);
    directory.onModuleInit();
    await directory.ready();
    reads = jest.spyOn(repository, 'endpointsOf');
  });
  afterAll(async () => {
    await directory.onModuleDestroy();
    await test.close();
  });

  async function endpointOf(accountId: string): Promise<WebhookEndpoint> {
    const created = await repository.createWithinLimit(
      {
        id: next('whe'),
        accountId,
        url: 'https://hooks.example.com/in',
        description: '',
        enabledEvents: ['task.completed'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        now: T0,
      },
      10,
    );
    // The database's own announcement of the insert comes a moment later and forgets everything once more:
    // let it pass, so that what follows starts from a quiet cache.
    await sleep(150);
    return created!;
  }

  /** Looks up until `done` holds of the answer (a change from elsewhere arrives as a NOTIFY); fails after 3 s. */
  async function eventually(accountId: string, done: (endpoints: readonly WebhookEndpoint[]) => boolean) {
    const until = Date.now() + 3000;
    for (;;) {
      const endpoints = await directory.of(accountId);
      if (done(endpoints)) return endpoints;
      if (Date.now() > until) throw new Error(`no change seen: ${JSON.stringify(endpoints)}`);
      await sleep(20);
    }
  }

  it('answers an account again without a query, an account without endpoints included', async () => {
    const account = next('acc');
    const empty = next('acc');
    const made = await endpointOf(account);
    reads.mockClear();
    expect((await directory.of(account)).map((e) => e.id)).toEqual([made.id]);
    expect(await directory.of(empty)).toEqual([]);
    expect(reads).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 5; i += 1) {
      expect((await directory.of(account)).map((e) => e.id)).toEqual([made.id]);
      expect(await directory.of(empty)).toEqual([]);
    }
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it("forgets at once what this process changes, and on the database's word what another process changes", async () => {
    const account = next('acc');
    const made = await endpointOf(account);
    expect((await directory.of(account)).map((e) => e.enabled)).toEqual([true]);
    // This process, through the repository: the next lookup reads again.
    await repository.update(
      account,
      made.id,
      { state: { enabled: false, status: 'disabled', disabledReason: 'manual', resetFailures: false } },
      T0,
    );
    expect((await directory.of(account)).map((e) => e.enabled)).toEqual([false]);
    // Another process (plain SQL on its own connection): heard through NOTIFY once it commits.
    await test.database.query(
      `UPDATE "webhooks"."endpoints" SET "enabled" = true, "status" = 'enabled' WHERE "id" = $1`,
      [made.id],
    );
    expect((await eventually(account, (e) => e[0]!.enabled)).map((e) => e.status)).toEqual(['enabled']);
    await test.database.query(
      `UPDATE "webhooks"."endpoints" SET "enabled_events" = '["task.failed"]' WHERE "id" = $1`,
      [made.id],
    );
    await eventually(account, (e) => e[0]!.enabledEvents[0] === 'task.failed');
    // An endpoint added elsewhere, and one removed.
    const other = next('whe');
    await test.database.query(
      `INSERT INTO "webhooks"."endpoints" ("id", "account_id", "url", "description", "enabled_events", "enabled",
         "status", "consecutive_failures", "secret", "created_at", "updated_at")
       VALUES ($1, $2, 'https://hooks.example.com/b', '', '["task.completed"]', true, 'enabled', 0, 's', $3, $3)`,
      [other, account, T0],
    );
    await eventually(account, (e) => e.length === 2);
    await test.database.query(`DELETE FROM "webhooks"."endpoints" WHERE "id" = $1`, [other]);
    await eventually(account, (e) => e.length === 1);
  });

  it('keeps what delivery bookkeeping changes (failure counts, secrets): it decides nobody', async () => {
    const account = next('acc');
    const made = await endpointOf(account);
    await directory.of(account);
    reads.mockClear();
    await test.database.query(
      `UPDATE "webhooks"."endpoints" SET "consecutive_failures" = "consecutive_failures" + 1, "secret" = 'rotated',
         "updated_at" = now() WHERE "id" = $1`,
      [made.id],
    );
    await sleep(300);
    expect((await directory.of(account)).map((e) => e.id)).toEqual([made.id]);
    expect(reads).not.toHaveBeenCalled();
  });
});

describe('EndpointDirectory: what it never keeps', () => {
  const endpoint = { id: 'whe_1', accountId: 'acc_1' } as WebhookEndpoint;

  /** A repository whose lookups wait for `answer`, and a database whose listening the test drives. */
  function setup() {
    let notify: () => void = () => undefined;
    let listened: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (listened = resolve));
    const database = {
      listen: (_channel: string, onNotify: () => void): Listening => {
        notify = onNotify;
        return { ready, stop: async () => undefined };
      },
    } as unknown as Database;
    const pending: ((endpoints: WebhookEndpoint[]) => void)[] = [];
    let lookups = 0;
    const repository = {
      onChange: () => undefined,
      endpointsOf: () => {
        lookups += 1;
        return new Promise<WebhookEndpoint[]>((resolve) => pending.push(resolve));
      },
    } as unknown as EndpointRepository;
    const directory = new EndpointDirectory(repository, database);
    directory.onModuleInit();
    const answer = () => pending.shift()!([endpoint]);
    return { directory, notify: () => notify(), listened, answer, lookups: () => lookups };
  }

  it('keeps nothing until the channel is listened to', async () => {
    const s = setup();
    const first = s.directory.of('acc_1');
    s.answer();
    await first;
    const second = s.directory.of('acc_1');
    s.answer();
    await second;
    expect(s.lookups()).toBe(2);
    s.listened();
    await s.directory.ready();
    const third = s.directory.of('acc_1');
    s.answer();
    await third;
    await s.directory.of('acc_1');
    expect(s.lookups()).toBe(3);
  });

  it('does not keep a lookup that a change overtook', async () => {
    const s = setup();
    s.listened();
    await s.directory.ready();
    const overtaken = s.directory.of('acc_1');
    s.notify();
    s.answer();
    await overtaken;
    const again = s.directory.of('acc_1');
    expect(s.lookups()).toBe(2);
    s.answer();
    await again;
    await s.directory.of('acc_1');
    expect(s.lookups()).toBe(2);
  });
});
