import { BusinessCode } from '@gen/contracts';
import { DATABASE_KINDS } from '@gen/testing';
import { openBillingFixture, type BillingFixture } from '../testing/billing-fixture';
import { readBook, reconcile } from '../testing/ledger-reconciliation';

/** Settles every promise; returns the values and the business codes of the rejections. */
async function outcomes<T>(work: Promise<T>[]) {
  const results = await Promise.allSettled(work);
  return {
    values: results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
    codes: results.flatMap((r) =>
      r.status === 'rejected' ? [(r.reason as { code?: unknown }).code ?? r.reason] : [],
    ),
  };
}

describe.each(DATABASE_KINDS)('concurrent holds on %s', (kind) => {
  let f: BillingFixture;

  beforeAll(async () => {
    f = await openBillingFixture(kind);
  });
  afterAll(() => f.close());

  /** Keys of one account: reserves on different keys contend for the sources, not for one daily-spend row. */
  const reserve = (account: string, id: string, amount = '1', cap = '1000', model = 'acme/image', key = 0) =>
    f.holds.reserve({
      holdId: id,
      accountId: account,
      keyId: `key_${account}_${key}`,
      model,
      amount,
      dailyCap: cap,
    });

  it('accepts exactly 60 of 100 simultaneous reserves against funds for 60 and refuses 40 with 40201', async () => {
    await f.credit('acc_c1', '30');
    await f.credit('acc_c1', '20', 'promo');
    await f.credit('acc_c1', '10', 'grant', { model: 'acme/image' });
    const { values, codes } = await outcomes(
      Array.from({ length: 100 }, (_, i) => reserve('acc_c1', `job_c1_${i}`, '1', '1000', 'acme/image', i)),
    );
    expect(values).toHaveLength(60);
    expect(codes).toEqual(Array(40).fill(BusinessCode.InsufficientBalance));
    const book = await readBook(f.database, 'acc_c1');
    expect(book.sources.map((s) => s.remainingE9)).toEqual([0n, 0n, 0n]);
    expect(book.heldE9).toBe(60_000_000_000n);
    expect(await reconcile(f.database, 'acc_c1')).toEqual([]);
    expect(await f.balance.execute('acc_c1')).toMatchObject({ available: '0', held: '60', total: '60' });
  });

  it('accepts exactly as many simultaneous reserves as the daily cap allows', async () => {
    await f.credit('acc_c2', '1000');
    const { values, codes } = await outcomes(
      Array.from({ length: 100 }, (_, i) => reserve('acc_c2', `job_c2_${i}`, '1', '25')),
    );
    expect(values).toHaveLength(25);
    expect(codes).toEqual(Array(75).fill(BusinessCode.SpendCapReached));
    expect(await reconcile(f.database, 'acc_c2')).toEqual([]);
  });

  it('applies one of many simultaneous settles and releases of one hold, with one event', async () => {
    await f.credit('acc_c3', '10');
    await reserve('acc_c3', 'job_c3');
    const { values, codes } = await outcomes(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? f.holds.settle('job_c3', '0.75') : f.holds.release('job_c3'),
      ),
    );
    expect(codes).toEqual([]);
    expect(new Set(values.map((v) => JSON.stringify(v))).size).toBe(1);
    const events = await f.database.query(`SELECT "id" FROM "billing"."outbox" WHERE "key" = 'job_c3'`);
    expect(events).toHaveLength(1);
    expect(await reconcile(f.database, 'acc_c3')).toEqual([]);
  });

  it('keeps the books while reserves, settles and releases of one account race each other', async () => {
    await f.credit('acc_c4', '20');
    await f.credit('acc_c4', '20', 'promo');
    await f.credit('acc_c4', '20', 'grant', { model: 'acme/image' });
    for (let i = 0; i < 40; i += 1)
      await reserve('acc_c4', `job_c4_old_${i}`, '1', '1000', i % 2 ? 'acme/image' : 'acme/text', i % 5);
    const { values, codes } = await outcomes<unknown>([
      ...Array.from({ length: 40 }, (_, i) =>
        i % 3 ? f.holds.settle(`job_c4_old_${i}`, '0.5') : f.holds.release(`job_c4_old_${i}`),
      ),
      ...Array.from({ length: 60 }, (_, i) =>
        reserve('acc_c4', `job_c4_new_${i}`, '1', '1000', i % 2 ? 'acme/image' : 'acme/text', i % 7),
      ),
    ]);
    // Only refusals for want of funds; never a deadlock or a constraint violation.
    expect(codes.every((c) => c === BusinessCode.InsufficientBalance)).toBe(true);
    expect(values.length + codes.length).toBe(100);
    const book = await readBook(f.database, 'acc_c4');
    expect(book.sources.every((s) => s.remainingE9 >= 0n)).toBe(true);
    expect(await reconcile(f.database, 'acc_c4')).toEqual([]);
  });

  it('writes simultaneous reserves and settlements of one account in shared statements, each with its own result', async () => {
    await f.credit('acc_c5', '100');
    const statements = jest.spyOn(f.database, 'query');
    try {
      const held = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          reserve('acc_c5', `job_c5_${i}`, '1', '1000', 'acme/image', i % 3),
        ),
      );
      expect(held.map((h) => h.holdId)).toEqual(Array.from({ length: 40 }, (_, i) => `job_c5_${i}`));
      expect(held.every((h) => h.status === 'reserved')).toBe(true);
      // The first alone, the rest in one or a few groups: far fewer statements than reserves.
      expect(statements.mock.calls.length).toBeLessThanOrEqual(5);
      statements.mockClear();
      const settled = await Promise.all(
        Array.from({ length: 40 }, (_, i) => f.holds.settle(`job_c5_${i}`, i % 2 ? '0.5' : '0.25')),
      );
      expect(settled.map((h) => [h?.holdId, h?.charged])).toEqual(
        Array.from({ length: 40 }, (_, i) => [`job_c5_${i}`, i % 2 ? '0.5' : '0.25']),
      );
      expect(statements.mock.calls.length).toBeLessThanOrEqual(5);
    } finally {
      statements.mockRestore();
    }
    const events = await f.database.query<{ n: string }>(
      `SELECT count(*)::text AS "n" FROM "billing"."outbox" WHERE "key" LIKE 'job_c5_%'`,
    );
    expect(events[0]!.n).toBe('40');
    expect(await f.balance.execute('acc_c5')).toMatchObject({ available: '85', held: '0' });
    expect(await reconcile(f.database, 'acc_c5')).toEqual([]);
  });

  it('refuses only the reserves the funds cannot cover when they arrive in one group', async () => {
    await f.credit('acc_c6', '5');
    const { values, codes } = await outcomes(
      Array.from({ length: 8 }, (_, i) => reserve('acc_c6', `job_c6_${i}`, '1', '1000', 'acme/image', i)),
    );
    expect(values).toHaveLength(5);
    expect(codes).toEqual(Array(3).fill(BusinessCode.InsufficientBalance));
    expect(await f.balance.execute('acc_c6')).toMatchObject({ available: '0', held: '5' });
    expect(await reconcile(f.database, 'acc_c6')).toEqual([]);
  });
});
