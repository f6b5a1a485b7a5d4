import { BusinessCode, type HoldView } from '@gen/contracts';
import { formatUsd } from '@gen/core';
import { DATABASE_KINDS } from '@gen/testing';
import fc from 'fast-check';
import { openBillingFixture, type BillingFixture } from '../testing/billing-fixture';
import { HoldsModel, type ModelHold, type ModelRefusal } from '../testing/holds-model';
import { readBook, reconcile } from '../testing/ledger-reconciliation';

const TTL_MS = 60_000;
const MODELS = ['acme/image', 'acme/video'] as const;
/** Two keys per run: a tight cap and a loose one. */
const CAPS = ['3', '1000'] as const;
const START = Date.parse('2026-11-24T22:30:00.000Z'); // UTC days change within a run

const nanos = (max: number) => fc.bigInt({ min: 1n, max: BigInt(max) * 1_000_000n }); // max in milli-USD
const op = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('credit' as const),
      kind: fc.constantFrom('wallet' as const, 'promo' as const, 'grant' as const),
      model: fc.constantFrom(...MODELS),
      amount: nanos(2000),
      expiresInMs: fc.option(fc.integer({ min: 1, max: 2 * 3_600_000 })),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('reserve' as const),
      hold: fc.nat(5),
      key: fc.nat(1),
      model: fc.constantFrom(...MODELS),
      amount: nanos(1500),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('confirm' as const), hold: fc.nat(5) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('settle' as const),
      hold: fc.nat(5),
      charge: fc.bigInt({ min: 0n, max: 2_000_000_000n }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('release' as const), hold: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('sweep' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('wait' as const),
      ms: fc.oneof(fc.integer({ min: 1, max: 90_000 }), fc.constant(3_600_000)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('check' as const),
      key: fc.nat(1),
      model: fc.constantFrom(...MODELS),
      amount: nanos(3000),
    }),
  },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const codeOf: Record<ModelRefusal, BusinessCode> = {
  insufficient: BusinessCode.InsufficientBalance,
  cap: BusinessCode.SpendCapReached,
};

function viewOf(id: string, hold: ModelHold | null): HoldView | null {
  if (!hold) return null;
  return {
    holdId: id,
    status: hold.status,
    amount: formatUsd(hold.amount),
    ...(hold.charged !== null ? { charged: formatUsd(hold.charged) } : {}),
  };
}

/** The refusal code of a rejected call, or the value it resolved to. */
const outcome = <T>(promise: Promise<T>): Promise<T | { code: unknown }> =>
  promise.catch((error: { code?: unknown }) => ({ code: error.code }));

describe.each(DATABASE_KINDS)('holds against a model, random sequences on %s', (kind) => {
  let f: BillingFixture;
  let run = 0;

  beforeAll(async () => {
    f = await openBillingFixture(kind, { reserveTtlMs: TTL_MS });
  });
  afterAll(() => f.close());

  async function apply(o: Op, model: HoldsModel, accountId: string): Promise<void> {
    const now = () => f.clock.now().getTime();
    const holdId = (i: number) => `job_p${run}_${i}`;
    const keyId = (i: number) => `key_p${run}_${i}`;
    switch (o.op) {
      case 'credit': {
        const expiresAt = o.expiresInMs === null ? null : now() + o.expiresInMs;
        const sourceModel = o.kind === 'grant' ? o.model : null;
        const { id, createdAt } = await f.credit(accountId, formatUsd(o.amount), o.kind, {
          ...(sourceModel ? { model: sourceModel } : {}),
          ...(expiresAt ? { expiresAt: new Date(expiresAt) } : {}),
        });
        model.addSource({
          id,
          kind: o.kind,
          model: sourceModel,
          amount: o.amount,
          expiresAt,
          createdAt: createdAt.getTime(),
        });
        return;
      }
      case 'reserve': {
        const command = {
          holdId: holdId(o.hold),
          accountId,
          keyId: keyId(o.key),
          model: o.model,
          amount: formatUsd(o.amount),
          dailyCap: CAPS[o.key]!,
        };
        const actual = await outcome(f.holds.reserve(command));
        const expected = model.reserve(
          command.holdId,
          command.keyId,
          o.model,
          o.amount,
          BigInt(CAPS[o.key]!) * 1_000_000_000n,
          now(),
        );
        expect(actual).toEqual(
          typeof expected === 'string' ? { code: codeOf[expected] } : viewOf(command.holdId, expected),
        );
        return;
      }
      case 'check': {
        const actual = await outcome(
          f.holds.check({
            accountId,
            keyId: keyId(o.key),
            model: o.model,
            amount: formatUsd(o.amount),
            dailyCap: CAPS[o.key]!,
          }),
        );
        const expected = model.check(
          keyId(o.key),
          o.model,
          o.amount,
          BigInt(CAPS[o.key]!) * 1_000_000_000n,
          now(),
        );
        expect(actual).toEqual(expected ? { code: codeOf[expected] } : undefined);
        return;
      }
      case 'confirm':
        expect(await f.holds.confirm(holdId(o.hold))).toEqual(
          viewOf(holdId(o.hold), model.confirm(holdId(o.hold))),
        );
        return;
      case 'settle':
        expect(await f.holds.settle(holdId(o.hold), formatUsd(o.charge))).toEqual(
          viewOf(holdId(o.hold), model.finish(holdId(o.hold), o.charge)),
        );
        return;
      case 'release':
        expect(await f.holds.release(holdId(o.hold))).toEqual(
          viewOf(holdId(o.hold), model.finish(holdId(o.hold), null)),
        );
        return;
      case 'sweep':
        await f.releaseStale.execute();
        model.sweep(now());
        return;
      case 'wait':
        f.clock.advance(o.ms);
        return;
    }
  }

  it('agrees with the model after every operation, and the ledger reconciles after every sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 36 }), async (ops) => {
        run += 1;
        const accountId = `acc_p${run}`;
        f.clock.set(new Date(START));
        const model = new HoldsModel(TTL_MS);
        for (const o of ops) await apply(o, model, accountId);

        expect(await reconcile(f.database, accountId)).toEqual([]);
        const book = await readBook(f.database, accountId);
        expect(new Map(book.sources.map((s) => [s.id, s.remainingE9]))).toEqual(
          new Map(model.sources.map((s) => [s.id, s.remaining])),
        );
        expect(book.sources.every((s) => s.remainingE9 >= 0n)).toBe(true);
        const now = f.clock.now().getTime();
        const expired = model.sources.reduce((sum, s) => sum + s.remaining, 0n) - model.availableAt(now);
        const balance = await f.balance.execute(accountId);
        expect(balance).toMatchObject({
          available: formatUsd(model.availableAt(now)),
          held: formatUsd(model.held()),
          total: formatUsd(model.availableAt(now) + model.held()),
        });
        // available + held + spent (+ what expired unused) = everything credited
        expect(model.availableAt(now) + model.held() + book.spentE9 + expired).toBe(book.creditedE9);
      }),
      { numRuns: 200 },
    );
    // 200 sequences of durable commits: about 40 s alone on PostgreSQL here, and more while CI runs the other
    // suites beside it on the same two cores. The budget is generous; the test is about agreement, not speed.
  }, 180_000);
});
