import { Injectable } from '@nestjs/common';

/**
 * Tells this process's billing relay that rows were just committed, so `hold.*` events go out now rather
 * than at the next poll. In distributed mode the relay may live in another process; it then polls.
 */
@Injectable()
export class BillingOutboxSignal {
  private listener: (() => void) | undefined;

  listen(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  notify(): void {
    this.listener?.();
  }
}
