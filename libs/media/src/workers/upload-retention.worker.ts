import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { LOGGER, type Logger } from '@gen/core';
import { SweepTransitUseCase } from '../use-cases/sweep-transit.use-case';
import { SweepUploadsUseCase } from '../use-cases/sweep-uploads.use-case';

/** How often expired uploads are looked for. */
export const UPLOAD_SWEEP_MS = 60_000;

/**
 * Runs the retention sweeps every minute, of expired uploads and of media inputs left in transit; sweeps never
 * overlap, and shutdown waits for the current one.
 */
@Injectable()
export class UploadRetentionWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly sweep: SweepUploadsUseCase,
    private readonly transit: SweepTransitUseCase,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping = this.sweeping.then(() => this.pass());
    }, UPLOAD_SWEEP_MS);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    try {
      await this.sweep.execute();
    } catch (error) {
      // The database or the storage is briefly unreachable: the next pass tries again.
      this.logger?.warn({ err: error }, 'upload sweep failed; trying again in a minute');
    }
    try {
      await this.transit.execute();
    } catch (error) {
      this.logger?.warn({ err: error }, 'transit sweep failed; trying again in a minute');
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
