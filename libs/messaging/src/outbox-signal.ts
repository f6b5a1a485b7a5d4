/** What wakes relays in other processes (see `OutboxWakeUp`). */
export interface RemoteWakeUp {
  nudge(): void;
}

/**
 * Tells the outbox relays of one schema that rows were just committed, so they go out now rather than at the
 * next poll: this process's relay directly (`OutboxRelay.nudge`), and, in a fleet, the relays of other
 * processes through `remote` (a NOTIFY sent after the commit, see `OutboxWakeUp`). Each service module
 * provides its own, built by `outboxSignalProvider` (the class is the injection token).
 */
export class OutboxSignal {
  private listener: (() => void) | undefined;

  constructor(private readonly remote?: RemoteWakeUp) {}

  listen(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  notify(): void {
    this.listener?.();
    this.remote?.nudge();
  }
}
