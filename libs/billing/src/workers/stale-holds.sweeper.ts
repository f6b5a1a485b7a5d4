import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { BILLING_OPTIONS, type BillingOptions } from '../domain/billing-options';
import { ReleaseStaleHoldsUseCase } from '../use-cases/release-stale-holds.use-case';

/**
 * Runs ReleaseStaleHoldsUseCase every `sweepIntervalMs` while the app runs: the next run is scheduled when
 * the previous one ends, so runs never overlap; shutdown cancels the timer and waits for the run in flight.
 */
@Injectable()
export class StaleHoldsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('billing');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly releaseStale: ReleaseStaleHoldsUseCase,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.workers) this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.sweep().finally(() => this.schedule());
    }, this.options.sweepIntervalMs);
  }

  private async sweep(): Promise<void> {
    try {
      const released = await this.releaseStale.execute();
      if (released > 0) this.logger.log(`released ${released} expired unconfirmed holds`);
    } catch (error) {
      this.logger.warn(
        `sweeping expired holds failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
