import { BusinessCode, HoldEventType, type ReserveHoldCommand } from '@gen/contracts';
import type { Database } from '@gen/persistence';
import { DATABASE_KINDS } from '@gen/testing';
import { openBillingFixture, type BillingFixture } from '../testing/billing-fixture';
import { readBook, reconcile } from '../testing/ledger-reconciliation';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TABLES = [
  'funding_sources',
  'ledger_entries',
  'holds',
  'hold_allocations',
  'key_daily_spend',
  'outbox',
];

/** Every row of every billing table, in a stable order. */
async function snapshot(database: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await database.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS "row" FROM "billing"."${table}" t ORDER BY 1`,
    );
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

const allocationsOf = (database: Database, holdId: string) =>
  database.query<{ source_id: string; amount: string }>(
    `SELECT "source_id", "amount_e9"::text AS "amount" FROM "billing"."hold_allocations"
     WHERE "hold_id" = $1 ORDER BY "position"`,
    [holdId],
  );

const remainingOf = async (database: Database, sourceId: string) =>
  (
    await database.query<{ r: string }>(
      `SELECT "remaining_e9"::text AS "r" FROM "billing"."funding_sources" WHERE "id" = $1`,
      [sourceId],
    )
  )[0]!.r;

const outboxOf = (database: Database, holdId: string) =>
  database.query<{ topic: string; envelope: unknown }>(
    `SELECT "topic", "envelope"::text AS "envelope" FROM "billing"."outbox" WHERE "key" = $1 ORDER BY "seq"`,
    [holdId],
  );

describe.each(DATABASE_KINDS)('holds on %s', (kind) => {
  let f: BillingFixture;
  let n = 0;
  let account: string;
  let key: string;

  beforeAll(async () => {
    f = await openBillingFixture(kind);
  });
  afterAll(() => f.close());
  beforeEach(() => {
    n += 1;
    account = `acc_h${n}`;
    key = `key_h${n}`;
  });
  afterEach(async () => {
    expect(await reconcile(f.database, account)).toEqual([]);
  });

  const command = (holdId: string, amount: string, extra: Partial<ReserveHoldCommand> = {}) => ({
    holdId: `job_${n}_${holdId}`,
    accountId: account,
    keyId: key,
    model: 'acme/image',
    amount,
    dailyCap: '1000',
    ...extra,
  });
  const job = (holdId: string) => `job_${n}_${holdId}`;

  it('shows what is held when no funding source has anything left', async () => {
    expect(await f.balance.execute(account)).toEqual({
      currency: 'USD',
      available: '0',
      held: '0',
      total: '0',
      sources: { wallet: '0', credit: '0', grants: [] },
    });
    await f.credit(account, '2');
    await f.holds.reserve(command('a', '2'));
    expect(await f.balance.execute(account)).toMatchObject({
      available: '0',
      held: '2',
      total: '2',
      sources: { wallet: '0', credit: '0', grants: [] },
    });
  });

  it('takes grants of the model, then promotional credit, then the wallet; earliest expiry first, then oldest', async () => {
    const now = f.clock.now().getTime();
    const later = () => new Promise((resolve) => setTimeout(resolve, 2)); // distinct creation times
    const { id: wallet1 } = await f.credit(account, '10');
    const { id: wallet2 } = await f.credit(account, '10', 'wallet', { expiresAt: new Date(now + 2 * DAY) });
    const { id: promo1 } = await f.credit(account, '1', 'promo');
    await later();
    const { id: promo2 } = await f.credit(account, '1', 'promo', { expiresAt: new Date(now + DAY) });
    const { id: promo3 } = await f.credit(account, '1', 'promo');
    const { id: grantA } = await f.credit(account, '2', 'grant', { model: 'acme/image' });
    const { id: grantB } = await f.credit(account, '5', 'grant', { model: 'acme/other' });
    const { id: expiring } = await f.credit(account, '7', 'grant', {
      model: 'acme/image',
      expiresAt: new Date(now + HOUR),
    });
    f.clock.advance(2 * HOUR); // `expiring` is now expired

    const view = await f.holds.reserve(command('a', '14.5'));
    expect(view).toEqual({ holdId: job('a'), status: 'reserved', amount: '14.5' });
    expect(await allocationsOf(f.database, job('a'))).toEqual([
      { source_id: grantA, amount: '2000000000' },
      { source_id: promo2, amount: '1000000000' },
      { source_id: promo1, amount: '1000000000' },
      { source_id: promo3, amount: '1000000000' },
      { source_id: wallet2, amount: '9500000000' },
    ]);
    expect(await remainingOf(f.database, wallet1)).toBe('10000000000');
    expect(await remainingOf(f.database, wallet2)).toBe('500000000');
    expect(await remainingOf(f.database, grantB)).toBe('5000000000');
    expect(await remainingOf(f.database, expiring)).toBe('7000000000');
    // Live: wallet1 10, wallet2 0.5 and the grant of the other model, 5.
    expect(await f.balance.execute(account)).toEqual({
      currency: 'USD',
      available: '15.5',
      held: '14.5',
      total: '30',
      sources: { wallet: '10.5', credit: '0', grants: [{ id: grantB, model: 'acme/other', available: '5' }] },
    });

    // A grant pays only for its model: another model sees the wallet alone.
    await expect(f.holds.check(command('b', '10.6', { model: 'acme/video' }))).rejects.toMatchObject({
      code: BusinessCode.InsufficientBalance,
    });
    await f.holds.check(command('b', '10.5', { model: 'acme/video' }));
    await f.holds.check(command('b', '15.5', { model: 'acme/other' }));
  });

  it('is idempotent per hold id: a second reserve returns the first hold and takes nothing', async () => {
    await f.credit(account, '5');
    const first = await f.holds.reserve(command('a', '2'));
    const before = await snapshot(f.database);
    expect(await f.holds.reserve(command('a', '2'))).toEqual(first);
    expect(await f.holds.reserve(command('a', '3'))).toEqual(first);
    expect(await snapshot(f.database)).toEqual(before);
    await f.holds.confirm(job('a'));
    expect(await f.holds.reserve(command('a', '2'))).toEqual({ ...first, status: 'confirmed' });
  });

  it('refuses with 40201 and changes nothing when the live funds do not cover the amount', async () => {
    const now = f.clock.now().getTime();
    await f.credit(account, '1');
    await f.credit(account, '1', 'promo', { expiresAt: new Date(now + HOUR) });
    await f.credit(account, '5', 'grant', { model: 'acme/other' });
    await f.holds.reserve(command('a', '1.2')); // promo 1, wallet 0.2
    f.clock.advance(HOUR); // the promo expires: 0.8 left in the wallet
    const before = await snapshot(f.database);
    for (const attempt of [
      () => f.holds.reserve(command('b', '0.9')),
      () => f.holds.check(command('b', '0.9')),
    ]) {
      await expect(attempt()).rejects.toMatchObject({
        code: BusinessCode.InsufficientBalance,
        messageId: 'balance.insufficient',
      });
    }
    expect(await snapshot(f.database)).toEqual(before);
    expect(await f.holds.reserve(command('b', '0.8'))).toMatchObject({ status: 'reserved' });
  });

  it('refuses with 40202 and changes nothing when the key would pass its daily cap', async () => {
    await f.credit(account, '100');
    await f.holds.reserve(command('a', '3', { dailyCap: '5' }));
    const before = await snapshot(f.database);
    for (const attempt of [
      () => f.holds.reserve(command('b', '2.000000001', { dailyCap: '5' })),
      () => f.holds.check(command('b', '2.000000001', { dailyCap: '5' })),
      () => f.holds.reserve(command('c', '0.1', { dailyCap: '0', keyId: `${key}_other` })),
      () => f.holds.reserve(command('d', '6', { dailyCap: '5', keyId: `${key}_fresh` })),
    ]) {
      await expect(attempt()).rejects.toMatchObject({
        code: BusinessCode.SpendCapReached,
        messageId: 'spend_cap.reached',
      });
    }
    expect(await snapshot(f.database)).toEqual(before);
    await f.holds.check(command('b', '2', { dailyCap: '5' }));
    await f.holds.reserve(command('b', '2', { dailyCap: '5' }));
  });

  it('counts holds and settled charges against the cap of the reserve day, and frees what is returned', async () => {
    await f.credit(account, '100');
    const cap = { dailyCap: '5' };
    await f.holds.reserve(command('a', '3', cap));
    await f.holds.settle(job('a'), '1'); // 1 charged, 2 freed
    await f.holds.reserve(command('b', '4', cap)); // 1 + 4 = 5
    await expect(f.holds.check(command('c', '0.000000001', cap))).rejects.toMatchObject({
      code: BusinessCode.SpendCapReached,
    });
    await f.holds.release(job('b'));
    await f.holds.reserve(command('c', '4', cap));

    f.clock.advance(DAY); // a new UTC day: a fresh cap, and yesterday's hold settles against yesterday
    await f.holds.reserve(command('d', '5', cap));
    await f.holds.settle(job('c'), '0');
    await expect(f.holds.check(command('e', '0.000000001', cap))).rejects.toMatchObject({
      code: BusinessCode.SpendCapReached,
    });
    const spend = await f.database.query<{ day: string; amount: string }>(
      `SELECT "day"::text AS "day", "amount_e9"::text AS "amount" FROM "billing"."key_daily_spend"
       WHERE "key_id" = $1 ORDER BY "day"`,
      [key],
    );
    expect(spend).toEqual([
      { day: '2026-11-24', amount: '1000000000' },
      { day: '2026-11-25', amount: '5000000000' },
    ]);
  });

  it('confirms a reserved hold once and leaves other states alone', async () => {
    await f.credit(account, '5');
    await f.holds.reserve(command('a', '1'));
    expect(await f.holds.confirm(job('a'))).toEqual({ holdId: job('a'), status: 'confirmed', amount: '1' });
    expect(await f.holds.confirm(job('a'))).toEqual({ holdId: job('a'), status: 'confirmed', amount: '1' });
    expect(await f.holds.confirm('job_unknown')).toBeNull();
    await f.holds.settle(job('a'), '0.25');
    expect(await f.holds.confirm(job('a'))).toEqual({
      holdId: job('a'),
      status: 'settled',
      amount: '1',
      charged: '0.25',
    });
  });

  it('confirms holds that arrive together, each with its own answer', async () => {
    await f.credit(account, '10');
    for (const id of ['a', 'b', 'c', 'd']) await f.holds.reserve(command(id, '1'));
    await f.holds.settle(job('c'), '0.5');
    const answers = await Promise.all([
      f.holds.confirm(job('a')),
      f.holds.confirm(job('b')),
      f.holds.confirm(job('c')),
      f.holds.confirm('job_unknown_together'),
      f.holds.confirm(job('d')),
      f.holds.confirm(job('b')),
    ]);
    expect(answers).toEqual([
      { holdId: job('a'), status: 'confirmed', amount: '1' },
      { holdId: job('b'), status: 'confirmed', amount: '1' },
      { holdId: job('c'), status: 'settled', amount: '1', charged: '0.5' },
      null,
      { holdId: job('d'), status: 'confirmed', amount: '1' },
      { holdId: job('b'), status: 'confirmed', amount: '1' },
    ]);
  });

  it('settles from the allocations in order and returns the rest to the sources it came from', async () => {
    const { id: grant } = await f.credit(account, '2', 'grant', { model: 'acme/image' });
    const { id: wallet } = await f.credit(account, '10');
    await f.holds.reserve(command('a', '3'));
    await f.holds.confirm(job('a'));
    f.clock.advance(1000);
    const settled = { holdId: job('a'), status: 'settled', amount: '3', charged: '2.5' };
    expect(await f.holds.settle(job('a'), '2.5')).toEqual(settled);
    expect(await remainingOf(f.database, grant)).toBe('0');
    expect(await remainingOf(f.database, wallet)).toBe('9500000000');
    const moves = await f.database.query(
      `SELECT "entry_type", "from_account", "to_account", "amount_e9"::text AS "amount"
       FROM "billing"."ledger_entries" WHERE "hold_id" = $1 ORDER BY "created_at", "id"`,
      [job('a')],
    );
    expect(moves).toEqual([
      {
        entry_type: 'hold.reserve',
        from_account: `source:${grant}`,
        to_account: `hold:${job('a')}`,
        amount: '2000000000',
      },
      {
        entry_type: 'hold.reserve',
        from_account: `source:${wallet}`,
        to_account: `hold:${job('a')}`,
        amount: '1000000000',
      },
      {
        entry_type: 'hold.charge',
        from_account: `hold:${job('a')}`,
        to_account: 'spent',
        amount: '2000000000',
      },
      {
        entry_type: 'hold.charge',
        from_account: `hold:${job('a')}`,
        to_account: 'spent',
        amount: '500000000',
      },
      {
        entry_type: 'hold.return',
        from_account: `hold:${job('a')}`,
        to_account: `source:${wallet}`,
        amount: '500000000',
      },
    ]);
    const before = await snapshot(f.database);
    expect(await f.holds.settle(job('a'), '3')).toEqual(settled);
    expect(await f.holds.release(job('a'))).toEqual(settled);
    expect(await snapshot(f.database)).toEqual(before);
    expect(await f.holds.settle('job_unknown', '1')).toBeNull();
    expect(await f.holds.release('job_unknown')).toBeNull();
    expect(await f.balance.execute(account)).toMatchObject({ available: '9.5', held: '0', total: '9.5' });
  });

  it('never charges more than the hold, and settles an unconfirmed hold too', async () => {
    await f.credit(account, '10');
    await f.holds.reserve(command('a', '1.5'));
    expect(await f.holds.settle(job('a'), '99')).toMatchObject({ status: 'settled', charged: '1.5' });
    await f.holds.reserve(command('b', '1'));
    expect(await f.holds.settle(job('b'), '0')).toMatchObject({ status: 'settled', charged: '0' });
    await expect(f.holds.settle(job('b'), '-1')).rejects.toMatchObject({ code: BusinessCode.InvalidRequest });
    expect((await readBook(f.database, account)).spentE9).toBe(1_500_000_000n);
    expect(await f.balance.execute(account)).toMatchObject({ available: '8.5', held: '0', total: '8.5' });
  });

  it('releases everything back to its sources, once', async () => {
    const { id: promo } = await f.credit(account, '1', 'promo');
    const { id: wallet } = await f.credit(account, '1');
    await f.holds.reserve(command('a', '1.5'));
    expect(await f.balance.execute(account)).toMatchObject({ available: '0.5', held: '1.5', total: '2' });
    const released = { holdId: job('a'), status: 'released', amount: '1.5', charged: '0' };
    expect(await f.holds.release(job('a'))).toEqual(released);
    expect(await remainingOf(f.database, promo)).toBe('1000000000');
    expect(await remainingOf(f.database, wallet)).toBe('1000000000');
    const before = await snapshot(f.database);
    expect(await f.holds.release(job('a'))).toEqual(released);
    expect(await f.holds.settle(job('a'), '1')).toEqual(released);
    expect(await snapshot(f.database)).toEqual(before);
    expect(await f.balance.execute(account)).toMatchObject({ available: '2', held: '0', total: '2' });
  });

  it('writes one billing.holds event per final hold, in the transaction of the change', async () => {
    await f.credit(account, '10');
    await f.holds.reserve(command('a', '2'));
    await f.holds.reserve(command('b', '2'));
    await f.holds.settle(job('a'), '1.25');
    await f.holds.settle(job('a'), '1.25');
    await f.holds.release(job('b'));
    await f.holds.release(job('b'));
    const [settled, ...moreA] = await outboxOf(f.database, job('a'));
    const [released, ...moreB] = await outboxOf(f.database, job('b'));
    expect([moreA, moreB]).toEqual([[], []]);
    expect(settled!.topic).toBe('billing.holds');
    expect(JSON.parse(settled!.envelope as string)).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: HoldEventType.settled,
      version: 1,
      key: job('a'),
      occurredAt: f.clock.now().toISOString(),
      correlationId: job('a'),
      causationId: job('a'),
      payload: { holdId: job('a'), accountId: account, charged: '1.25' },
    });
    expect(JSON.parse(released!.envelope as string)).toMatchObject({
      type: HoldEventType.released,
      payload: { holdId: job('b'), accountId: account, charged: '0' },
    });
  });

  it('a quiet settle or release moves the money alike and writes no event; its view says how the hold ended', async () => {
    const { id: wallet } = await f.credit(account, '10');
    await f.holds.reserve(command('a', '2'));
    await f.holds.reserve(command('b', '2'));
    await f.holds.reserve(command('c', '2'));
    expect(await f.holds.settle(job('a'), '1.25', { quiet: true })).toMatchObject({
      status: 'settled',
      charged: '1.25',
    });
    expect(await f.holds.release(job('b'), { quiet: true })).toMatchObject({
      status: 'released',
      charged: '0',
    });
    // Final already: the view of how it ended, whatever is asked now, and nothing moves.
    expect(await f.holds.release(job('a'), { quiet: true })).toMatchObject({
      status: 'settled',
      charged: '1.25',
    });
    expect(await f.holds.settle(job('b'), '1', { quiet: true })).toMatchObject({
      status: 'released',
      charged: '0',
    });
    // Quiet ones that arrive together share a statement with a loud one, which alone gets its event.
    await Promise.all([f.holds.settle(job('c'), '0.5'), f.holds.settle(job('a'), '2', { quiet: true })]);
    expect(await remainingOf(f.database, wallet)).toBe(String(10_000_000_000n - 1_750_000_000n));
    expect(await outboxOf(f.database, job('a'))).toEqual([]);
    expect(await outboxOf(f.database, job('b'))).toEqual([]);
    expect((await outboxOf(f.database, job('c'))).map((row) => row.topic)).toEqual(['billing.holds']);
  });

  it('refuses malformed amounts before touching anything', async () => {
    for (const amount of ['0', '-1', '1e3', '1000000000', '']) {
      await expect(f.holds.reserve(command('a', amount))).rejects.toMatchObject({
        code: BusinessCode.InvalidRequest,
        messageId: 'amount.invalid',
      });
    }
    await expect(f.holds.reserve(command('a', '1', { dailyCap: 'lots' }))).rejects.toMatchObject({
      code: BusinessCode.InvalidRequest,
    });
    await expect(f.holds.reserve(command('a', '1', { holdId: '' }))).rejects.toMatchObject({
      code: BusinessCode.InvalidRequest,
    });
  });
});
