/**
 * What a key has spent against its daily cap today (the UTC day): its outstanding holds plus the settled
 * charges of the holds reserved that day. Implemented by the billing domain, which keeps it; used by the
 * console's key list (accounts).
 */
export interface KeySpendPort {
  /** Each key's spend of the current UTC day, USD decimal ("0" for a key without spend). */
  spentToday(keyIds: readonly string[]): Promise<Record<string, string>>;
}
export const KEY_SPEND_PORT = Symbol('KeySpendPort');
