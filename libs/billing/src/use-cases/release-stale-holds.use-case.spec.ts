import { DATABASE_KINDS } from '@gen/testing';
import { openBillingFixture, type BillingFixture } from '../testing/billing-fixture';
import { reconcile } from '../testing/ledger-reconciliation';

const TTL = 5 * 60_000;

describe.each(DATABASE_KINDS)('ReleaseStaleHoldsUseCase on %s', (kind) => {
  let f: BillingFixture;

  beforeAll(async () => {
    f = await openBillingFixture(kind, { reserveTtlMs: TTL });
  });
  afterAll(() => f.close());

  const reserve = (account: string, id: string, amount = '1') =>
    f.holds.reserve({
      holdId: id,
      accountId: account,
      keyId: `key_${account}`,
      model: 'm',
      amount,
      dailyCap: '1000',
    });
  const statuses = async (account: string) =>
    Object.fromEntries(
      (
        await f.database.query<{ id: string; status: string }>(
          `SELECT "id", "status" FROM "billing"."holds" WHERE "account_id" = $1`,
          [account],
        )
      ).map((r) => [r.id, r.status]),
    );

  it('releases only reserves that were never confirmed, once their expiry has passed', async () => {
    await f.credit('acc_s1', '10');
    await reserve('acc_s1', 'job_s1_stale');
    await reserve('acc_s1', 'job_s1_confirmed');
    await reserve('acc_s1', 'job_s1_settled');
    await f.holds.confirm('job_s1_confirmed');
    await f.holds.settle('job_s1_settled', '0.5');
    f.clock.advance(TTL - 1);
    await reserve('acc_s1', 'job_s1_young');
    expect(await f.releaseStale.execute()).toBe(0);
    f.clock.advance(1);
    expect(await f.releaseStale.execute()).toBe(1);
    expect(await f.releaseStale.execute()).toBe(0);
    expect(await statuses('acc_s1')).toEqual({
      job_s1_stale: 'released',
      job_s1_confirmed: 'confirmed',
      job_s1_settled: 'settled',
      job_s1_young: 'reserved',
    });
    expect(await f.balance.execute('acc_s1')).toMatchObject({ available: '7.5', held: '2' });
    const events = await f.database.query<{ envelope: string }>(
      `SELECT "envelope"::text AS "envelope" FROM "billing"."outbox" WHERE "key" = 'job_s1_stale'`,
    );
    expect(events.map((e) => JSON.parse(e.envelope).type)).toEqual(['hold.released']);
    expect(await reconcile(f.database, 'acc_s1')).toEqual([]);
  });

  it('works through more stale reserves than one batch', async () => {
    f.clock.advance(TTL);
    await f.releaseStale.execute(); // what earlier tests left reserved
    await f.credit('acc_s2', '1000');
    for (let i = 0; i < 130; i += 1) await reserve('acc_s2', `job_s2_${i}`);
    f.clock.advance(TTL);
    expect(await f.releaseStale.execute()).toBe(130);
    expect(await f.balance.execute('acc_s2')).toMatchObject({ available: '1000', held: '0' });
    expect(await reconcile(f.database, 'acc_s2')).toEqual([]);
  });

  it('leaves a hold confirmed after it was picked but before it was released', async () => {
    await f.credit('acc_s3', '10');
    await reserve('acc_s3', 'job_s3');
    f.clock.advance(TTL);
    await f.holds.confirm('job_s3');
    expect(await f.release.execute('job_s3', { staleOnly: true })).toMatchObject({
      released: false,
      view: { status: 'confirmed' },
    });
    expect(await statuses('acc_s3')).toEqual({ job_s3: 'confirmed' });
  });
});
