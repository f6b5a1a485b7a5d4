import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { usdForMetrics } from '@gen/core';
import { METRICS, cached, type Metrics } from '@gen/observability';
import { BILLING_OPTIONS, type BillingOptions } from '../domain/billing-options';
import { HoldsRepository } from '../persistence/holds.repository';

/** How long one reading of the open holds serves scrapes. */
export const HOLD_METRICS_CACHE_MS = 1000;

/**
 * Billing's gauges, read on scrape in the process that runs billing's background work (`workers`):
 * `billing_open_holds`, the holds not final yet, and `billing_held_usd`, what they hold, in USD (a float: the
 * integer nano-USD sum read once through `usdForMetrics`). One statement serves both, at most once a second.
 */
@Injectable()
export class BillingMetrics implements OnApplicationBootstrap {
  constructor(
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
    private readonly holds: HoldsRepository,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics | null = null,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.workers || !this.metrics) return;
    const read = cached(HOLD_METRICS_CACHE_MS, () => this.holds.openTotals());
    this.metrics
      .gauge('billing_open_holds', 'Holds reserved or confirmed, not yet settled or released.')
      .source(async () => [{ value: (await read()).holds }]);
    this.metrics
      .gauge('billing_held_usd', 'Funds held by open holds, in USD (from integer nano-USD).')
      .source(async () => [{ value: usdForMetrics((await read()).heldE9) }]);
  }
}
