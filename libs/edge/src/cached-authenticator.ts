import type { ApiKeyAuthenticator, ApiKeyPrincipal } from '@gen/contracts';

interface Entry {
  readonly principal: ApiKeyPrincipal;
  readonly expiresMs: number;
}

/**
 * Remembers verified keys for at most `ttlMs` (at most one second), so a revocation takes effect everywhere
 * within a second while the hot path skips the database. Unknown keys are never cached.
 */
export class CachedApiKeyAuthenticator implements ApiKeyAuthenticator {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly inner: ApiKeyAuthenticator,
    private readonly ttlMs: number,
    private readonly nowMs: () => number = Date.now,
    private readonly maxEntries = 10_000,
  ) {}

  /** The principal of a key verified less than `ttlMs` ago, without waiting: the hot path. */
  peek(presentedKey: string): ApiKeyPrincipal | undefined {
    const cached = this.entries.get(presentedKey);
    return cached && cached.expiresMs > this.nowMs() ? cached.principal : undefined;
  }

  async authenticate(presentedKey: string): Promise<ApiKeyPrincipal | null> {
    const now = this.nowMs();
    const cached = this.entries.get(presentedKey);
    if (cached && cached.expiresMs > now) return cached.principal;
    const principal = await this.inner.authenticate(presentedKey);
    if (!principal) {
      this.entries.delete(presentedKey);
      return null;
    }
    if (this.ttlMs > 0) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(presentedKey, { principal, expiresMs: now + this.ttlMs });
    }
    return principal;
  }
}
