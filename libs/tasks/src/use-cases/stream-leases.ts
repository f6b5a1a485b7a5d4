import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { ChatEvent, StreamLease, StreamRunControl, TextTaskIntakePort } from '@gen/contracts';
import type { Drainable, Logger } from '@gen/core';

/** A run this process streams: how to cut it, and when it is over. */
interface Run {
  readonly cut: AbortController;
  readonly done: Promise<void>;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

/**
 * The stream leases of the text tasks this process streams to its clients (docs/reliability.md). Each task is
 * accepted with a lease of this process (`lease`, written with the task by TEXT_TASK_INTAKE); while its answer
 * runs the lease is renewed every third of its length, all of this process's in one call; once the answer is
 * reported it is no longer renewed, and the task's terminal transition deletes it (in the statement that applies
 * the report). If this process dies, its leases lapse and the tasks service ends their tasks
 * (`service_interrupted`, hold released, the Idempotency-Key free again).
 *
 * On SIGTERM (`drain`) the answers in progress run on to their end and are reported; those still running at the
 * cut are cut (StreamRunControl: charged by what they delivered) so that every report is through before the
 * process closes its bus and database.
 */
export class StreamLeases implements Drainable {
  /** This process as the holder of its leases. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly runs = new Map<string, Run>();
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;
  /** Set once the drain cut: a run opened after it is cut at once. */
  private cutting = false;

  constructor(
    private readonly intake: TextTaskIntakePort,
    readonly leaseMs: number,
    private readonly logger: Logger | null = null,
  ) {}

  /** The lease a task this process streams is accepted with. */
  get lease(): StreamLease {
    return { owner: this.owner, leaseMs: this.leaseMs };
  }

  /** Starts renewing (every third of the lease). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), Math.max(250, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Task ids whose answers this process streams now (for tests and logs). */
  held(): string[] {
    return [...this.runs.keys()];
  }

  /**
   * Holds `taskId`'s lease while the run `open` starts is read, and stops renewing it once the run reported (the
   * report ends the task and its lease). A run that ends without a report (its report could not be published,
   * its reader gave up) is not renewed either: its lease lapses and the tasks service ends the task.
   */
  hold(
    taskId: string,
    open: (control: StreamRunControl) => AsyncIterable<ChatEvent>,
  ): AsyncIterable<ChatEvent> {
    const cut = new AbortController();
    let finish: () => void = () => undefined;
    const run: Run = { cut, done: new Promise<void>((resolve) => (finish = resolve)) };
    this.runs.set(taskId, run);
    if (this.cutting) cut.abort();
    const end = (): void => {
      if (this.runs.get(taskId) !== run) return;
      this.runs.delete(taskId);
      finish();
    };
    const events = open({ cut: cut.signal, reported: end });
    return (async function* () {
      try {
        yield* events;
      } finally {
        end();
      }
    })();
  }

  /**
   * Lets every run finish and report until `cutAt`, cuts the ones still running then (each reports at once what
   * it delivered), and waits for their reports until `endAt`.
   */
  async drain(cutAt: number, endAt: number): Promise<void> {
    await this.idle(cutAt);
    this.cutting = true;
    if (this.runs.size > 0) {
      this.logger?.warn(
        { answers: this.runs.size, taskIds: [...this.runs.keys()] },
        'text answers still running near the end of the shutdown grace: cut, charged by what they delivered',
      );
      for (const run of this.runs.values()) run.cut.abort();
      await this.idle(endAt);
    }
  }

  /** Resolves once no run is open, or at `deadline`. */
  private async idle(deadline: number): Promise<void> {
    while (this.runs.size > 0 && Date.now() < deadline) {
      await Promise.race([
        Promise.all([...this.runs.values()].map((run) => run.done)),
        sleep(deadline - Date.now()),
      ]);
    }
  }

  private async renew(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      const held = [...this.runs.keys()];
      if (held.length === 0) return;
      const kept = new Set(await this.intake.renew(this.owner, held, this.leaseMs));
      for (const taskId of held) {
        if (!kept.has(taskId) && this.runs.has(taskId))
          this.logger?.warn(
            { taskId },
            'this process lost the stream lease of an answer it streams (it could not renew in time): the task was ended',
          );
      }
    } catch (error) {
      this.logger?.warn({ err: error }, 'stream leases could not be renewed; trying again');
    } finally {
      this.renewing = false;
    }
  }
}
