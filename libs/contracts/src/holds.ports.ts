/**
 * Holds on an account's funds (spec: Charging, States and transitions). Implemented by the billing domain;
 * used by the tasks domain. Amounts are exact USD decimal strings ("0.004"), never floats, so the same
 * commands can cross the service transport. Every command is idempotent per `holdId` (the task id).
 */
export interface ReserveHoldCommand {
  /** The task id the hold is for (`job_...`); a second reserve with the same id returns the first hold. */
  readonly holdId: string;
  readonly accountId: string;
  /** The API key whose daily spend cap the hold counts against. */
  readonly keyId: string;
  /** Exact catalog model id: model-scoped grants pay only for their model. */
  readonly model: string;
  /** USD decimal, > 0: the estimate and the ceiling of the charge. */
  readonly amount: string;
  /**
   * The key's daily spend cap, USD decimal; null: no cap. Holds and settled charges of the key's UTC day count.
   */
  readonly dailyCap: string | null;
}

export type HoldStatus = 'reserved' | 'confirmed' | 'settled' | 'released';

export interface HoldView {
  readonly holdId: string;
  readonly status: HoldStatus;
  /** The amount held at reserve, USD decimal. */
  readonly amount: string;
  /** The final charge once settled ("0" once released). */
  readonly charged?: string;
}

export interface FundsCheck {
  readonly accountId: string;
  readonly keyId: string;
  readonly model: string;
  readonly amount: string;
  readonly dailyCap: string | null;
}

/** How `settle` and `release` finish a hold. */
export interface FinishHoldOptions {
  /**
   * The caller records the outcome itself, from the view it gets back (the tasks domain ending a streamed text
   * task settled, in the statement that ends it): no `hold.settled` / `hold.released` event is written, so no
   * outbox row, relay or bus hop follows. Default false: the event tells the task.
   */
  readonly quiet?: boolean;
}

export interface HoldsPort {
  /**
   * Holds `amount` from the account's live funds (model grants for this model first, then promotional
   * credit, then the wallet, each oldest expiry first), in one atomic step. Throws DomainError 40201 when
   * the funds do not cover it and 40202 when the key's daily cap would be passed; then nothing is held.
   * The hold is `reserved` until `confirm`; a reserve never confirmed is released by billing's sweeper.
   */
  reserve(command: ReserveHoldCommand): Promise<HoldView>;
  /** Whether a reserve of this size would pass now (quote): throws 40201 or 40202 like reserve; holds nothing. */
  check(command: FundsCheck): Promise<void>;
  /** The task exists: the hold is kept until settle or release. No-op unless `reserved`. */
  confirm(holdId: string): Promise<HoldView | null>;
  /**
   * Charges `min(charge, amount)` and returns the rest to the funds it came from. No-op once final: the view
   * then says how the hold ended before.
   */
  settle(holdId: string, charge: string, options?: FinishHoldOptions): Promise<HoldView | null>;
  /** Returns everything held. No-op once final (see `settle`). */
  release(holdId: string, options?: FinishHoldOptions): Promise<HoldView | null>;
}
export const HOLDS_PORT = Symbol('HoldsPort');

/**
 * How a task's end finishes its hold, wherever it is taken (billing's consumer of the terminal events; the tasks
 * domain settling a streamed task itself): a success is settled with its charge, a failure or expiry that cost
 * nothing releases the hold, one with a charge (a disclosed charged refusal) is settled with it.
 */
export function endReleasesHold(succeeded: boolean, chargeE9: bigint | null): boolean {
  return !succeeded && chargeE9 === 0n;
}
