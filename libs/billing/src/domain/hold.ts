import type { HoldStatus, HoldView } from '@gen/contracts';
import { formatUsd } from '@gen/core';

/** A hold as stored: amounts in nano-USD; `chargedE9` is set once the hold is final. */
export interface HoldRecord {
  readonly holdId: string;
  readonly status: HoldStatus;
  readonly amountE9: bigint;
  readonly chargedE9: bigint | null;
}

/** The outcome of a settle or release: `applied` is false when the hold was final (or not stale) already. */
export interface FinishedHold extends HoldRecord {
  readonly accountId: string;
  readonly applied: boolean;
}

/** The request or event that caused a change, carried into the events it produces. */
export interface EventCause {
  readonly correlationId: string;
  readonly causationId: string;
}

export const isFinal = (status: HoldStatus): boolean => status === 'settled' || status === 'released';

export function toHoldView(hold: HoldRecord): HoldView {
  return {
    holdId: hold.holdId,
    status: hold.status,
    amount: formatUsd(hold.amountE9),
    ...(hold.chargedE9 !== null ? { charged: formatUsd(hold.chargedE9) } : {}),
  };
}
