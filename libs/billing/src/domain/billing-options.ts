/** Settings of the billing module; every field has a default (DEFAULT_BILLING_OPTIONS). */
export interface BillingOptions {
  /** How long a reserve waits for `confirm` (the task exists) before the sweeper releases it. */
  readonly reserveTtlMs: number;
  /** How often the sweeper looks for expired reserves. */
  readonly sweepIntervalMs: number;
  /** The outbox relay's safety-net poll; new rows wake it at once through NOTIFY `outbox_billing`. */
  readonly relayPollMs: number;
  /**
   * Whether this process runs billing's background work: the sweeper, the task-lifecycle consumer and the
   * outbox relay. A process that only serves the HTTP routes and the ports may turn it off.
   */
  readonly workers: boolean;
}

export const DEFAULT_BILLING_OPTIONS: BillingOptions = {
  reserveTtlMs: 5 * 60_000,
  sweepIntervalMs: 1000,
  relayPollMs: 1000,
  workers: true,
};

export const BILLING_OPTIONS = Symbol('BillingOptions');
