/** Kinds of funding: wallet money, promotional or approved credit, and model-scoped grants. */
export type FundingKind = 'wallet' | 'promo' | 'grant';

export interface AddCreditCommand {
  readonly accountId: string;
  readonly kind: FundingKind;
  /** Nano-USD, positive. */
  readonly amountE9: bigint;
  /** Required for grants: the model the grant pays for. */
  readonly model?: string;
  readonly expiresAt?: Date;
}

/** Implemented by the billing domain; used by account administration. */
export interface FundsPort {
  /** Adds funds and returns the account's net available balance in nano-USD. */
  addCredit(command: AddCreditCommand): Promise<{ availableE9: bigint }>;
}
export const FUNDS_PORT = Symbol('FundsPort');

/** What webhook deliveries need of an account, read at each attempt (a rotation applies at once). */
export interface CallbackSettings {
  /** The account-wide callback signing secret; null when none was generated (each attempt then fails). */
  readonly signingSecret: string | null;
  /** The API error language setting; callbacks follow it (spec: Errors, language rule 3). */
  readonly language: string | null;
}

/** Implemented by the accounts domain; lets other domains check that an account exists. */
export interface AccountDirectory {
  exists(accountId: string): Promise<boolean>;
  /** Null for an unknown account. */
  callbackSettings(accountId: string): Promise<CallbackSettings | null>;
}
export const ACCOUNT_DIRECTORY = Symbol('AccountDirectory');
