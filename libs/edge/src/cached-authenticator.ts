import type { ApiKeyAuthenticator, ApiKeyPrincipal } from '@gen/contracts';
import { LRUCache } from 'lru-cache';

interface Entry {
  readonly principal: ApiKeyPrincipal;
  readonly expiresMs: number;
}

/**
 * Remembers verified keys for at most `ttlMs` (at most one second), so a revocation takes effect everywhere
 * within a second while the hot path skips the database. Unknown keys are never cached. The requests of one key
 * that find its entry expired share one look-up: a busy key costs one look-up a second, not one per request in
 * flight at that moment (32 at 32 concurrent callers, each three statements). At most `maxEntries` keys are
 * kept, the least recently used leaving first.
 */
export class CachedApiKeyAuthenticator implements ApiKeyAuthenticator {
  private readonly entries: LRUCache<string, Entry>;
  private readonly lookups = new Map<string, Promise<ApiKeyPrincipal | null>>();

  constructor(
    private readonly inner: ApiKeyAuthenticator,
    private readonly ttlMs: number,
    private readonly nowMs: () => number = Date.now,
    maxEntries = 10_000,
  ) {
    this.entries = new LRUCache<string, Entry>({ max: maxEntries });
  }

  /** The principal of a key verified less than `ttlMs` ago, without waiting: the hot path. */
  peek(presentedKey: string): ApiKeyPrincipal | undefined {
    const cached = this.entries.get(presentedKey);
    return cached && cached.expiresMs > this.nowMs() ? cached.principal : undefined;
  }

  async authenticate(presentedKey: string): Promise<ApiKeyPrincipal | null> {
    const now = this.nowMs();
    const cached = this.entries.get(presentedKey);
    if (cached && cached.expiresMs > now) return cached.principal;
    const pending = this.lookups.get(presentedKey);
    if (pending) return pending;
    const lookup = this.lookUp(presentedKey, now);
    this.lookups.set(presentedKey, lookup);
    try {
      return await lookup;
    } finally {
      this.lookups.delete(presentedKey);
    }
  }

  private async lookUp(presentedKey: string, now: number): Promise<ApiKeyPrincipal | null> {
    const principal = await this.inner.authenticate(presentedKey);
    if (!principal) {
      this.entries.delete(presentedKey);
      return null;
    }
    if (this.ttlMs > 0) {
      this.entries.set(presentedKey, { principal, expiresMs: now + this.ttlMs });
    }
    return principal;
  }
}
