/**
 * The buckets of the double-entry ledger. Every ledger row moves a positive amount from one bucket to
 * another, so the balances of all buckets sum to zero at all times:
 *   external       money entering from outside (its balance is minus everything ever credited)
 *   source:<id>    a funding source; its balance is the source's remaining_e9
 *   hold:<id>      a hold; its balance is what the hold still holds (0 once settled or released)
 *   spent          charged money; its balance is the sum of the holds' charges
 */
export const EXTERNAL_BUCKET = 'external';
export const SPENT_BUCKET = 'spent';
export const sourceBucket = (sourceId: string): string => `source:${sourceId}`;
export const holdBucket = (holdId: string): string => `hold:${holdId}`;
