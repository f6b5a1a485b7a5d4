import type { ApiKeyAuthenticator, ApiKeyPrincipal } from '@gen/contracts';
import { CachedApiKeyAuthenticator } from './cached-authenticator';

const ALICE: ApiKeyPrincipal = {
  accountId: 'acc_A',
  keyId: 'key_A',
  language: 'de',
  group: 'default',
  priceMultiplier: '1',
  dailySpendCap: '10',
};
const BOB: ApiKeyPrincipal = {
  accountId: 'acc_B',
  keyId: 'key_B',
  language: null,
  group: 'default',
  priceMultiplier: '1',
  dailySpendCap: '10',
};

/** A fake inner authenticator: answers from a mutable table and counts reads per key. */
class FakeAuthenticator implements ApiKeyAuthenticator {
  readonly table = new Map<string, ApiKeyPrincipal>();
  readonly reads: string[] = [];
  async authenticate(presentedKey: string): Promise<ApiKeyPrincipal | null> {
    this.reads.push(presentedKey);
    return this.table.get(presentedKey) ?? null;
  }
}

describe('CachedApiKeyAuthenticator', () => {
  let inner: FakeAuthenticator;
  let now: number;
  const clock = () => now;

  beforeEach(() => {
    inner = new FakeAuthenticator();
    inner.table.set('gts_alice', ALICE);
    inner.table.set('gts_bob', BOB);
    now = 1_700_000_000_000;
  });

  it('reads the inner authenticator once and answers from the cache within the TTL', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock);
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    now += 500;
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    now += 499;
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    expect(inner.reads).toEqual(['gts_alice']);
  });

  it('reads again once the TTL has passed, and caches the new answer for another TTL', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock);
    await cached.authenticate('gts_alice');
    now += 1000;
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    expect(inner.reads).toEqual(['gts_alice', 'gts_alice']);
    now += 999;
    await cached.authenticate('gts_alice');
    expect(inner.reads).toHaveLength(2);
  });

  it('bounds revocation: a revoked key is served from cache at most until the TTL ends', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock);
    await cached.authenticate('gts_alice');
    inner.table.delete('gts_alice');
    now += 999;
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    now += 1;
    expect(await cached.authenticate('gts_alice')).toBeNull();
    expect(await cached.authenticate('gts_alice')).toBeNull();
    expect(inner.reads).toEqual(['gts_alice', 'gts_alice', 'gts_alice']);
  });

  it('never caches an unknown key', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock);
    expect(await cached.authenticate('gts_unknown')).toBeNull();
    expect(await cached.authenticate('gts_unknown')).toBeNull();
    expect(inner.reads).toEqual(['gts_unknown', 'gts_unknown']);
  });

  it('accepts a key as soon as it becomes valid, since a refusal was not cached', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock);
    expect(await cached.authenticate('gts_new')).toBeNull();
    inner.table.set('gts_new', BOB);
    expect(await cached.authenticate('gts_new')).toBe(BOB);
  });

  it('does not cache at all with a TTL of 0', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 0, clock);
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    inner.table.delete('gts_alice');
    expect(await cached.authenticate('gts_alice')).toBeNull();
    expect(inner.reads).toEqual(['gts_alice', 'gts_alice', 'gts_alice']);
  });

  it('caches each key separately', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock);
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    expect(await cached.authenticate('gts_bob')).toBe(BOB);
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    expect(await cached.authenticate('gts_bob')).toBe(BOB);
    expect(inner.reads).toEqual(['gts_alice', 'gts_bob']);
  });

  it('starts a key TTL when that key was read, not when another was', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock);
    await cached.authenticate('gts_alice');
    now += 600;
    await cached.authenticate('gts_bob');
    now += 600;
    await cached.authenticate('gts_alice');
    await cached.authenticate('gts_bob');
    expect(inner.reads).toEqual(['gts_alice', 'gts_bob', 'gts_alice']);
  });

  it('stays bounded in size: past maxEntries it forgets and reads again', async () => {
    inner.table.set('gts_carol', { ...BOB, keyId: 'key_C' });
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock, 2);
    await cached.authenticate('gts_alice');
    await cached.authenticate('gts_bob');
    await cached.authenticate('gts_carol');
    await cached.authenticate('gts_alice');
    expect(inner.reads).toEqual(['gts_alice', 'gts_bob', 'gts_carol', 'gts_alice']);
  });

  it('when full, forgets the least recently used key only: a busy key stays cached', async () => {
    inner.table.set('gts_carol', { ...BOB, keyId: 'key_C' });
    const cached = new CachedApiKeyAuthenticator(inner, 1000, clock, 2);
    await cached.authenticate('gts_alice');
    await cached.authenticate('gts_bob');
    await cached.authenticate('gts_alice'); // a hit: alice is now the most recently used
    await cached.authenticate('gts_carol'); // full: bob leaves, alice stays
    await cached.authenticate('gts_alice');
    await cached.authenticate('gts_bob');
    expect(inner.reads).toEqual(['gts_alice', 'gts_bob', 'gts_carol', 'gts_bob']);
  });

  it('passes a failure of the inner authenticator through and caches nothing', async () => {
    const failing: ApiKeyAuthenticator = {
      authenticate: jest.fn().mockRejectedValueOnce(new Error('db down')).mockResolvedValue(ALICE),
    };
    const cached = new CachedApiKeyAuthenticator(failing, 1000, clock);
    await expect(cached.authenticate('gts_alice')).rejects.toThrow('db down');
    expect(await cached.authenticate('gts_alice')).toBe(ALICE);
    expect(failing.authenticate).toHaveBeenCalledTimes(2);
  });

  it('uses Date.now when no clock is given', async () => {
    const cached = new CachedApiKeyAuthenticator(inner, 1000);
    await cached.authenticate('gts_alice');
    await cached.authenticate('gts_alice');
    expect(inner.reads).toEqual(['gts_alice']);
  });

  it('lets the requests of a key that arrive while its look-up runs share it; a revoked key still fails each', async () => {
    const cache = new CachedApiKeyAuthenticator(inner, 1000, clock);
    const first = await Promise.all(Array.from({ length: 32 }, () => cache.authenticate('gts_alice')));
    expect(first.every((p) => p === ALICE)).toBe(true);
    expect(inner.reads).toEqual(['gts_alice']);
    // Expired: the 32 requests in flight at that moment look it up once, and another key on its own.
    now += 1001;
    const again = await Promise.all([
      ...Array.from({ length: 32 }, () => cache.authenticate('gts_alice')),
      cache.authenticate('gts_bob'),
    ]);
    expect(again.slice(0, 32).every((p) => p === ALICE)).toBe(true);
    expect(again[32]).toBe(BOB);
    expect(inner.reads).toEqual(['gts_alice', 'gts_alice', 'gts_bob']);
    // Revoked meanwhile: the shared look-up answers null to all of them, and the next request looks again.
    inner.table.delete('gts_alice');
    now += 1001;
    const revoked = await Promise.all(Array.from({ length: 8 }, () => cache.authenticate('gts_alice')));
    expect(revoked).toEqual(Array.from({ length: 8 }, () => null));
    expect(await cache.authenticate('gts_alice')).toBeNull();
    expect(inner.reads.filter((k) => k === 'gts_alice')).toHaveLength(4);
  });
});
