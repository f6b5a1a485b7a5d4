import { migrate, type Database } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '@gen/testing';
import { newId } from '@gen/core';
import type { Asset } from '../domain/asset';
import type { AssetListFilters } from '../domain/asset-list-cursor';
import { AssetLimitsRepository } from './asset-limits.repository';
import { AssetRepository, type SaveClaim } from './asset.repository';
import { ASSETS_SCHEMA, type AssetsMigrations } from './assets-schema';
import { EntityRepository } from './entity.repository';

const T0 = new Date('2026-11-28T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const WINDOW_START = new Date(T0.getTime() - 24 * 3600 * 1000);

describe.each(DATABASE_KINDS)('asset library persistence on %s', (kind) => {
  let test: TestDatabase;
  let database: Database;
  let assets: AssetRepository;
  let serial = 0;
  const account = () => `acc_${kind}_${(serial += 1)}`;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    await migrate(database, ASSETS_SCHEMA);
    assets = new AssetRepository(database, {} as AssetsMigrations);
  });
  afterAll(() => test.close());

  const asset = (accountId: string, overrides: Partial<Asset> = {}): Asset => ({
    id: newId('ast'),
    accountId,
    name: 'photo',
    favorite: false,
    collectionId: null,
    fileId: 'fil_a',
    objectKey: 'files/a',
    contentType: 'image/png',
    bytes: 10,
    createdByKeyId: 'key_1',
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  });
  const claim = (idemKey = newId('k'), overrides: Partial<SaveClaim> = {}): SaveClaim => ({
    idemKey,
    keyId: 'key_1',
    fingerprint: 'f1',
    windowStart: WINDOW_START,
    ...overrides,
  });
  const admitAll = () => undefined;

  it('saves an asset with its key, then answers the key with its holder and writes nothing', async () => {
    const accountId = account();
    const first = asset(accountId, { bytes: 9_000_000_000 });
    const saved = await assets.saveOnce(first, claim('k1'), admitAll);
    expect(saved).toEqual({ saved: first });
    expect(await assets.findHolder(accountId, 'k1', WINDOW_START)).toEqual({
      keyId: 'key_1',
      fingerprint: 'f1',
      assetId: first.id,
    });
    const again = await assets.saveOnce(asset(accountId), claim('k1', { fingerprint: 'f2' }), admitAll);
    expect(again).toEqual({ holder: { keyId: 'key_1', fingerprint: 'f1', assetId: first.id } });
    expect(await assets.usage(accountId)).toEqual({ usedBytes: 9_000_000_000, assetCount: 1 });
    // The same key of another account is another key.
    expect(await assets.findHolder(account(), 'k1', WINDOW_START)).toBeNull();
  });

  it('lets an expired key record be claimed again, removing it', async () => {
    const accountId = account();
    const old = asset(accountId, { createdAt: at(-25 * 3600 * 1000) });
    await assets.saveOnce(old, claim('k', { windowStart: at(-48 * 3600 * 1000) }), admitAll);
    expect(await assets.findHolder(accountId, 'k', WINDOW_START)).toBeNull();
    const fresh = asset(accountId);
    expect(await assets.saveOnce(fresh, claim('k'), admitAll)).toEqual({ saved: fresh });
    expect(await assets.findHolder(accountId, 'k', WINDOW_START)).toMatchObject({ assetId: fresh.id });
  });

  it('writes nothing when admit refuses, and shows admit the usage under the lock', async () => {
    const accountId = account();
    await assets.saveOnce(asset(accountId, { bytes: 5 }), claim(), admitAll);
    await assets.saveOnce(asset(accountId, { bytes: 7 }), claim(), admitAll);
    const seen: unknown[] = [];
    const refused = assets.saveOnce(asset(accountId), claim('refused'), (usage) => {
      seen.push(usage);
      throw new Error('over');
    });
    await expect(refused).rejects.toThrow('over');
    expect(seen).toEqual([{ usedBytes: 12, assetCount: 2 }]);
    expect(await assets.usage(accountId)).toEqual({ usedBytes: 12, assetCount: 2 });
    expect(await assets.findHolder(accountId, 'refused', WINDOW_START)).toBeNull();
  });

  it('never passes a limit under concurrent saves of one account', async () => {
    const accountId = account();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        assets.saveOnce(asset(accountId), claim(), (usage) => {
          if (usage.assetCount + 1 > 3) throw new Error('full');
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await assets.usage(accountId)).toEqual({ usedBytes: 30, assetCount: 3 });
  });

  it('claims one key once under concurrent saves: one saves, the others get its holder', async () => {
    const accountId = account();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => assets.saveOnce(asset(accountId), claim('same'), admitAll)),
    );
    const saved = results.filter((r) => 'saved' in r);
    expect(saved).toHaveLength(1);
    const savedId = (saved[0] as { saved: Asset }).saved.id;
    for (const r of results.filter((r) => 'holder' in r))
      expect(r).toEqual({ holder: expect.objectContaining({ assetId: savedId }) });
    expect((await assets.usage(accountId)).assetCount).toBe(1);
  });

  it('finds, updates and deletes only within the account', async () => {
    const accountId = account();
    const other = account();
    const mine = asset(accountId, { collectionId: 'col_x' });
    await assets.saveOnce(mine, claim(), admitAll);
    expect(await assets.find(other, mine.id)).toBeNull();
    expect(await assets.update(other, mine.id, { name: 'stolen' }, at(1))).toBeNull();
    expect(await assets.delete(other, mine.id)).toBe(false);
    expect(await assets.find(accountId, mine.id)).toEqual(mine);

    const renamed = await assets.update(accountId, mine.id, { name: 'renamed' }, at(5));
    expect(renamed).toEqual({ ...mine, name: 'renamed', updatedAt: at(5) });
    const starred = await assets.update(accountId, mine.id, { favorite: true }, at(6));
    expect(starred).toEqual({ ...mine, name: 'renamed', favorite: true, updatedAt: at(6) });

    expect(await assets.delete(accountId, mine.id)).toBe(true);
    expect(await assets.delete(accountId, mine.id)).toBe(false);
    expect(await assets.find(accountId, mine.id)).toBeNull();
    expect(await assets.usage(accountId)).toEqual({ usedBytes: 0, assetCount: 0 });
  });

  describe('lists', () => {
    const accountId = `acc_list_${kind}`;
    const names = ['banana', 'Apple', 'apple pie', 'Zebra', 'éclair', 'cherry', 'apple', '🦊 fox'];
    const rows: Asset[] = [];

    beforeAll(async () => {
      for (const [i, name] of names.entries()) {
        // Two assets per millisecond: ties on createdAt are broken by id.
        const row = asset(accountId, {
          name,
          createdAt: at(Math.floor(i / 2)),
          updatedAt: at(Math.floor(i / 2)),
          favorite: i % 3 === 0,
          collectionId: i % 2 === 0 ? 'col_even' : null,
        });
        rows.push(row);
        await assets.saveOnce(row, claim(), admitAll);
      }
      await assets.saveOnce(asset(`acc_list_other_${kind}`, { name: 'apple' }), claim(), admitAll);
    });

    const byTime = (a: Asset, b: Asset) =>
      a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    const byName = (a: Asset, b: Asset) => bytewise(a.name, b.name) || (a.id < b.id ? -1 : 1);

    /** Every page of `limit` after the previous page's last row, joined. */
    async function allPages(filters: AssetListFilters, limit: number): Promise<Asset[]> {
      const out: Asset[] = [];
      for (;;) {
        const last = out[out.length - 1];
        const page = await assets.list(accountId, {
          filters,
          ...(last
            ? {
                after: {
                  value: filters.sort.endsWith('createdAt') ? last.createdAt.toISOString() : last.name,
                  assetId: last.id,
                },
              }
            : {}),
          limit,
        });
        out.push(...page);
        if (page.length < limit) return out;
      }
    }

    it.each([
      ['createdAt', byTime],
      ['-createdAt', (a: Asset, b: Asset) => byTime(b, a)],
      ['name', byName],
      ['-name', (a: Asset, b: Asset) => byName(b, a)],
    ] as const)(
      'orders by %s (names by their bytes), the same whole or page by page',
      async (sort, compare) => {
        const expected = [...rows].sort(compare).map((r) => r.id);
        expect((await assets.list(accountId, { filters: { sort }, limit: 100 })).map((r) => r.id)).toEqual(
          expected,
        );
        for (const limit of [1, 3]) {
          expect((await allPages({ sort }, limit)).map((r) => r.id)).toEqual(expected);
        }
      },
    );

    it('filters by favorite, collection and a case-insensitive name substring, together', async () => {
      const ids = async (filters: AssetListFilters) =>
        (await assets.list(accountId, { filters, limit: 100 })).map((r) => r.name).sort();
      expect(await ids({ sort: 'name', q: 'APPLE' })).toEqual(['Apple', 'apple', 'apple pie']);
      expect(await ids({ sort: 'name', q: 'ÉCL' })).toEqual(['éclair']);
      expect(await ids({ sort: 'name', q: '%' })).toEqual([]);
      expect(await ids({ sort: 'name', q: '_' })).toEqual([]);
      expect(await ids({ sort: 'name', q: '🦊' })).toEqual(['🦊 fox']);
      expect(await ids({ sort: 'name', favorite: true })).toEqual(names.filter((_, i) => i % 3 === 0).sort());
      expect(await ids({ sort: 'name', collectionId: 'col_even', q: 'a' })).toEqual(
        names.filter((n, i) => i % 2 === 0 && n.toLowerCase().includes('a')).sort(),
      );
      expect(await ids({ sort: 'name', collectionId: 'col_none' })).toEqual([]);
    });

    it('pages stably while assets are added and removed between pages', async () => {
      const pageOne = await assets.list(accountId, { filters: { sort: 'createdAt' }, limit: 3 });
      // An asset the next page would have shown.
      const removed = [...rows].sort(byTime)[5]!;
      const early = asset(accountId, { name: 'early', createdAt: at(-1000) });
      const late = asset(accountId, { name: 'late', createdAt: at(1000) });
      await assets.saveOnce(early, claim(), admitAll);
      await assets.saveOnce(late, claim(), admitAll);
      await assets.delete(accountId, removed.id);
      const last = pageOne[2]!;
      const rest = await assets.list(accountId, {
        filters: { sort: 'createdAt' },
        after: { value: last.createdAt.toISOString(), assetId: last.id },
        limit: 100,
      });
      const seen = [...pageOne, ...rest].map((r) => r.id);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).not.toContain(early.id);
      expect(seen).not.toContain(removed.id);
      expect(seen).toContain(late.id);
      expect(seen).toEqual([...rows.filter((r) => r.id !== removed.id), late].sort(byTime).map((r) => r.id));
    });
  });

  it('stores an account’s plan setting, replacing it', async () => {
    const limits = new AssetLimitsRepository(database, {} as AssetsMigrations);
    const accountId = account();
    expect(await limits.find(accountId)).toBeNull();
    await limits.put(accountId, { plan: 'pro', bytesLimit: 5_000_000_000_000, countLimit: null }, T0);
    expect(await limits.find(accountId)).toEqual({
      plan: 'pro',
      bytesLimit: 5_000_000_000_000,
      countLimit: null,
    });
    await limits.put(accountId, { plan: 'free', bytesLimit: null, countLimit: 2 }, at(1));
    expect(await limits.find(accountId)).toEqual({ plan: 'free', bytesLimit: null, countLimit: 2 });
  });

  it('keeps characters with their images in order, scoped by the account, paged oldest first', async () => {
    const entities = new EntityRepository(database, {} as AssetsMigrations);
    const accountId = account();
    const images = [3, 1, 2].map((n) => ({
      fileId: `fil_${n}`,
      objectKey: `files/${n}`,
      contentType: 'image/png',
    }));
    const made = [0, 0, 1].map((ms, i) => ({
      id: newId('ent'),
      accountId,
      name: `c${i}`,
      images: i === 0 ? images : images.slice(0, 1),
      createdAt: at(ms),
    }));
    for (const entity of made) await entities.create(entity);
    expect(await entities.find(accountId, made[0]!.id)).toEqual(made[0]);
    expect(await entities.find(account(), made[0]!.id)).toBeNull();
    const expected = [...made].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1),
    );
    const first = await entities.list(accountId, { limit: 2 });
    expect(first).toEqual(expected.slice(0, 2));
    const last = first[1]!;
    expect(
      await entities.list(accountId, { after: { createdAt: last.createdAt, entityId: last.id }, limit: 2 }),
    ).toEqual(expected.slice(2));
    expect(await entities.delete(account(), made[0]!.id)).toBe(false);
    expect(await entities.delete(accountId, made[0]!.id)).toBe(true);
    expect(await entities.find(accountId, made[0]!.id)).toBeNull();
  });
});
