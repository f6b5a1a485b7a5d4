import type { FundingKind, HoldStatus } from '@gen/contracts';

/**
 * A plain in-memory model of funding sources, holds and daily caps, written from the rules (not from the
 * SQL), for model-based tests: the database must agree with it after every operation.
 */
export interface ModelSource {
  readonly id: string;
  readonly kind: FundingKind;
  readonly model: string | null;
  readonly amount: bigint;
  remaining: bigint;
  readonly expiresAt: number | null;
  /** Creation time (ms): within a kind and expiry, older sources pay first; ties by id. */
  readonly createdAt: number;
}

export interface ModelHold {
  readonly keyId: string;
  readonly day: string;
  readonly amount: bigint;
  readonly expiresAt: number;
  status: HoldStatus;
  charged: bigint | null;
  readonly allocations: { source: ModelSource; amount: bigint }[];
}

export type ModelRefusal = 'insufficient' | 'cap';

const RANK: Record<FundingKind, number> = { grant: 0, promo: 1, wallet: 2 };
const outstanding = (h: ModelHold) => h.status === 'reserved' || h.status === 'confirmed';

export class HoldsModel {
  readonly sources: ModelSource[] = [];
  readonly holds = new Map<string, ModelHold>();
  private readonly spend = new Map<string, bigint>();

  constructor(private readonly ttlMs: number) {}

  addSource(source: Omit<ModelSource, 'remaining'>): void {
    this.sources.push({ ...source, remaining: source.amount });
  }

  private live(now: number): ModelSource[] {
    return this.sources.filter((s) => s.remaining > 0n && (s.expiresAt === null || s.expiresAt > now));
  }

  /** The sources a reserve for `model` takes from, in the order it takes them. */
  private eligible(model: string, now: number): ModelSource[] {
    return this.live(now)
      .filter((s) => s.kind !== 'grant' || s.model === model)
      .sort(
        (a, b) =>
          RANK[a.kind] - RANK[b.kind] ||
          (a.expiresAt ?? Infinity) - (b.expiresAt ?? Infinity) ||
          a.createdAt - b.createdAt ||
          (a.id < b.id ? -1 : 1),
      );
  }

  check(keyId: string, model: string, amount: bigint, cap: bigint, now: number): ModelRefusal | null {
    const day = new Date(now).toISOString().slice(0, 10);
    if ((this.spend.get(`${keyId}|${day}`) ?? 0n) + amount > cap) return 'cap';
    const available = this.eligible(model, now).reduce((sum, s) => sum + s.remaining, 0n);
    return available < amount ? 'insufficient' : null;
  }

  reserve(
    id: string,
    keyId: string,
    model: string,
    amount: bigint,
    cap: bigint,
    now: number,
  ): ModelRefusal | ModelHold {
    const existing = this.holds.get(id);
    if (existing) return existing;
    const refusal = this.check(keyId, model, amount, cap, now);
    if (refusal) return refusal;
    const day = new Date(now).toISOString().slice(0, 10);
    this.spend.set(`${keyId}|${day}`, (this.spend.get(`${keyId}|${day}`) ?? 0n) + amount);
    const hold: ModelHold = {
      keyId,
      day,
      amount,
      expiresAt: now + this.ttlMs,
      status: 'reserved',
      charged: null,
      allocations: [],
    };
    let needed = amount;
    for (const source of this.eligible(model, now)) {
      if (needed === 0n) break;
      const take = needed < source.remaining ? needed : source.remaining;
      source.remaining -= take;
      hold.allocations.push({ source, amount: take });
      needed -= take;
    }
    this.holds.set(id, hold);
    return hold;
  }

  confirm(id: string): ModelHold | null {
    const hold = this.holds.get(id);
    if (hold?.status === 'reserved') hold.status = 'confirmed';
    return hold ?? null;
  }

  /** Settles with `charge`, or releases when it is null. */
  finish(id: string, charge: bigint | null): ModelHold | null {
    const hold = this.holds.get(id);
    if (!hold || !outstanding(hold)) return hold ?? null;
    const charged = charge === null ? 0n : charge < hold.amount ? charge : hold.amount;
    let left = charged;
    for (const a of hold.allocations) {
      const take = left < a.amount ? left : a.amount;
      a.source.remaining += a.amount - take;
      left -= take;
    }
    const key = `${hold.keyId}|${hold.day}`;
    this.spend.set(key, this.spend.get(key)! - (hold.amount - charged));
    hold.status = charge === null ? 'released' : 'settled';
    hold.charged = charged;
    return hold;
  }

  sweep(now: number): void {
    for (const [id, hold] of this.holds)
      if (hold.status === 'reserved' && hold.expiresAt <= now) this.finish(id, null);
  }

  availableAt(now: number): bigint {
    return this.live(now).reduce((sum, s) => sum + s.remaining, 0n);
  }

  held(): bigint {
    return [...this.holds.values()].filter(outstanding).reduce((sum, h) => sum + h.amount, 0n);
  }
}
