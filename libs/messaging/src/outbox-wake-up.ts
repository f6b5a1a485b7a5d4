import type { Provider } from '@nestjs/common';
import { DATABASE, type Database } from '@gen/persistence';
import { EVENT_BUS, type EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { outboxChannel } from './outbox';
import { OutboxSignal, type RemoteWakeUp } from './outbox-signal';

/**
 * Wakes the outbox relays of other processes after a commit: `NOTIFY outbox_<schema>` as a statement of its
 * own, which the relays LISTEN to. Not from a trigger inside the writing transaction: PostgreSQL serializes
 * the commits of all transactions that notify (one queue lock held through each commit's flush), which made
 * every task and hold write of a busy fleet wait in one line. Nudges coalesce: while one NOTIFY is under way,
 * any number of further nudges send one more after it, so the rate of NOTIFYs is bounded by their round trip,
 * not by the rate of commits. A NOTIFY that fails is given up: the relays' poll finds the rows.
 */
export class OutboxWakeUp implements RemoteWakeUp {
  private sending = false;
  private again = false;

  constructor(
    private readonly database: Pick<Database, 'query'>,
    private readonly channel: string,
  ) {}

  nudge(): void {
    if (this.sending) {
      this.again = true;
      return;
    }
    void this.send();
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      do {
        this.again = false;
        await this.database.query(`SELECT pg_notify($1, '')`, [this.channel]);
      } while (this.again);
    } catch {
      // The relays poll.
    } finally {
      this.sending = false;
    }
  }
}

/**
 * The OutboxSignal of a service's outbox: its own process's relay, and in a fleet (a bus other than the
 * in-process one) the relays of the other processes, through `OutboxWakeUp`.
 */
export function outboxSignalProvider(schema: string): Provider {
  return {
    provide: OutboxSignal,
    inject: [DATABASE, EVENT_BUS],
    useFactory: (database: Database, bus: EventBus) =>
      new OutboxSignal(
        bus instanceof InProcessEventBus ? undefined : new OutboxWakeUp(database, outboxChannel(schema)),
      ),
  };
}
