import { Injectable } from '@nestjs/common';

/**
 * Tells this process's outbox relay of one schema that rows were just committed, so they go out now rather
 * than at the next poll (`OutboxRelay.nudge`). Each service module provides its own. Rows committed by
 * another process are found by the relay's poll.
 */
@Injectable()
export class OutboxSignal {
  private listener: (() => void) | undefined;

  listen(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  notify(): void {
    this.listener?.();
  }
}
