import type { EventEnvelope } from '@gen/contracts';
import type { EventHandler } from '@gen/messaging';

export interface Delivery<Member extends string, Phase extends string> {
  readonly member: Member;
  /** What the test was doing to the group when the handler started. */
  readonly phase: Phase;
  readonly key: string;
  /** The per-key sequence number (`payload.n` of `testEvent`). */
  readonly n: number;
}

/**
 * What the members of one consumer group were handed, in the order their handlers started, and what they
 * applied: each event once, by event id, as an idempotent consumer does. Each handler takes `workMs`, so that
 * two members handling one key at the same time show up in `overlaps`.
 */
export class GroupDeliveries<Member extends string, Phase extends string> {
  readonly log: Delivery<Member, Phase>[] = [];
  readonly applied = new Set<string>();
  /** Per key, the sequence numbers in the order they were applied. */
  readonly appliedOrder = new Map<string, number[]>();
  readonly overlaps: string[] = [];
  private readonly inFlight = new Map<string, Member>();

  constructor(
    public phase: Phase,
    private readonly workMs = 2,
  ) {}

  handler(member: Member): EventHandler {
    return async (event: EventEnvelope) => {
      const n = (event.payload as { n: number }).n;
      const other = this.inFlight.get(event.key);
      if (other)
        this.overlaps.push(`${event.key}#${n} handed to ${member} while ${other} handled ${event.key}`);
      this.inFlight.set(event.key, member);
      this.log.push({ member, phase: this.phase, key: event.key, n });
      await new Promise((r) => setTimeout(r, this.workMs));
      if (!this.applied.has(event.id)) {
        this.applied.add(event.id);
        this.appliedOrder.set(event.key, [...(this.appliedOrder.get(event.key) ?? []), n]);
      }
      this.inFlight.delete(event.key);
    };
  }

  of(member: Member, phase?: Phase): Delivery<Member, Phase>[] {
    return this.log.filter((d) => d.member === member && (phase === undefined || d.phase === phase));
  }

  /** Deliveries after the first one to `member`: once it has partitions, everyone else holds the rest. */
  since(member: Member): Delivery<Member, Phase>[] {
    const first = this.log.findIndex((d) => d.member === member);
    return first < 0 ? [] : this.log.slice(first);
  }

  /**
   * Deliveries that jumped ahead: n above one more than the highest n of that key handed to anyone before.
   * Redeliveries (n at or below it) are allowed: a new owner resumes from the last committed offset.
   */
  skips(): string[] {
    const highest = new Map<string, number>();
    const skips: string[] = [];
    for (const d of this.log) {
      const before = highest.get(d.key) ?? -1;
      if (d.n > before + 1) skips.push(`${d.key}#${d.n} to ${d.member} after #${before}`);
      highest.set(d.key, Math.max(before, d.n));
    }
    return skips;
  }

  /** How many deliveries were of an event already applied (redeliveries across a handover). */
  get redeliveries(): number {
    return this.log.length - this.applied.size;
  }
}
