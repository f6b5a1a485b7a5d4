import { Injectable } from '@nestjs/common';

/**
 * Tells this process's outbox relay that rows were just committed, so they go out now rather than at the
 * next poll. In distributed mode the relay may live in another process; it then finds them by polling.
 */
@Injectable()
export class TasksOutboxSignal {
  private listener: (() => void) | undefined;

  listen(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  notify(): void {
    this.listener?.();
  }
}
