import { LRUCache } from 'lru-cache';
import { SerializedJson } from './install-edge';

/**
 * Serialised answers kept for a short time (a second by default), for reads whose serialisation costs more
 * than everything else a request does (the model list with every input schema). At most `maxEntries` are
 * kept, the least recently used leaving first.
 */
export class AnswerCache {
  private readonly entries: LRUCache<string, { body: SerializedJson; expiresMs: number }>;

  constructor(
    private readonly ttlMs = 1000,
    maxEntries = 1000,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(key: string, build: () => unknown): SerializedJson {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresMs > now) return hit.body;
    const body = new SerializedJson(JSON.stringify(build()));
    this.entries.set(key, { body, expiresMs: now + this.ttlMs });
    return body;
  }
}
