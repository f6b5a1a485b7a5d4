import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { APP_CONFIG, CLOCK, LOGGER, type AppConfig, type Clock, type Logger } from '@gen/core';
import { inSpan } from '@gen/observability';
import { JobRepository, type Job } from '../persistence/job.repository';
import {
  ExecuteTaskUseCase,
  ExecutionAborted,
  MediaInputsUnavailable,
} from '../use-cases/execute-task.use-case';

/** How often a runner looks for work it was not told about: lapsed leases, rows other runners added. */
export const CLAIM_POLL_MS = 1000;
/** How often rows past their deadline are deleted. */
export const EXPIRED_SWEEP_MS = 60_000;

/**
 * Runs the runner queue (`runner.jobs`): claims waiting tasks up to `RUNNER_CONCURRENCY` per model, runs
 * each, renews their leases every third of `RUNNER_LEASE_MS`, and marks them finished once reported. It
 * claims when told that a task was added, and every second for the rest: tasks whose runner died (lease
 * lapsed) and tasks other runners added. On shutdown, tasks waiting on their upstream (or out a delay) are
 * aborted and given back at once, for the next runner; one already storing its files finishes and reports.
 */
@Injectable()
export class JobDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** This process as the owner of its leases. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly abort = new AbortController();
  private readonly running = new Map<string, { model: string; done: Promise<void> }>();
  private readonly perModel = new Map<string, number>();
  private readonly leaseMs: number;
  private readonly limit: number;
  private claiming: Promise<void> | undefined;
  private claimAgain = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];
  private lastSweep = 0;

  constructor(
    private readonly jobs: JobRepository,
    private readonly executor: ExecuteTaskUseCase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {
    // Every running task listens to the one signal: as many listeners as running tasks.
    setMaxListeners(0, this.abort.signal);
    this.leaseMs = config.RUNNER_LEASE_MS;
    this.limit = config.RUNNER_CONCURRENCY;
  }

  onApplicationBootstrap(): void {
    this.timers = [
      setInterval(() => this.wake(), CLAIM_POLL_MS),
      setInterval(() => void this.renew(), Math.max(250, Math.floor(this.leaseMs / 3))),
    ];
    // Work left by a runner that died waits in the queue: look at once.
    this.wake();
  }

  /** Claims what there is room for; called when a task was added, and by the poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.claimWhileAny().finally(() => {
      this.claiming = undefined;
      // Told of new work after the last claim of the pass had looked: look again now, not at the next poll.
      if (this.claimAgain) this.wake();
    });
  }

  private async claimWhileAny(): Promise<void> {
    do {
      this.claimAgain = false;
      let claimed: Job[];
      try {
        claimed = await this.jobs.claim({
          owner: this.owner,
          leaseMs: this.leaseMs,
          perModel: this.limit,
          running: this.perModel,
        });
      } catch (error) {
        this.logger?.warn({ err: error }, 'runner could not claim tasks; trying again in a second');
        return;
      }
      for (const job of claimed) this.start(job);
      // A claim takes the oldest rows of models with room; look again while it finds any.
      if (claimed.length > 0) this.claimAgain = true;
    } while (this.claimAgain && !this.stopped);
    await this.sweepExpired();
  }

  private start(job: Job): void {
    const { taskId, model } = job.task;
    this.perModel.set(model, (this.perModel.get(model) ?? 0) + 1);
    const done = this.run(job).finally(() => {
      this.running.delete(taskId);
      const left = (this.perModel.get(model) ?? 1) - 1;
      if (left > 0) this.perModel.set(model, left);
      else this.perModel.delete(model);
      this.wake();
    });
    this.running.set(taskId, { model, done });
  }

  private async run(job: Job): Promise<void> {
    const { taskId, model } = job.task;
    const trail = { taskId, request_id: job.correlationId, model, runs: job.runs };
    this.logger?.info(trail, job.runs > 1 ? 'task started again (lease lapsed)' : 'task started');
    try {
      // With tracing on: the execution's span continues the trace the task was queued in; the reports it
      // publishes on task.execution are its children.
      const outcome = await inSpan(
        'execute task',
        {
          // Its own trace, never the context the claim happened to run in (another task's consumption).
          parent: job.traceparent ?? {},
          attributes: { 'gen.task_id': taskId, 'gen.model': model, 'gen.runs': job.runs },
        },
        () => this.executor.execute(job.task, job, this.abort.signal),
      );
      this.logger?.info(
        trail,
        outcome === 'late' ? 'task not finished: past its deadline' : `task ${outcome}`,
      );
    } catch (error) {
      if (error instanceof ExecutionAborted) {
        this.logger?.info(trail, 'task given back (runner stopping)');
        return;
      }
      if (error instanceof MediaInputsUnavailable) {
        // Not failed: the lease lapses and the task runs again once the media app answers.
        this.logger?.warn({ ...trail, err: error }, 'task put off: its media inputs cannot be read now');
        return;
      }
      // Not reported: the lease lapses and the task is run again, by this runner or another.
      this.logger?.error({ taskId, err: error }, 'task execution could not be reported');
      return;
    }
    try {
      await this.jobs.finish(taskId, this.owner);
    } catch (error) {
      // Reported but not marked: a later claim runs it again, and the tasks service ignores the repeat.
      this.logger?.warn({ taskId, err: error }, 'finished task could not be marked in the runner queue');
    }
  }

  private async renew(): Promise<void> {
    const held = [...this.running.keys()];
    if (held.length === 0 || this.stopped) return;
    try {
      const kept = await this.jobs.renew(this.owner, held, this.leaseMs);
      for (const taskId of held) {
        if (!kept.has(taskId) && this.running.has(taskId))
          this.logger?.warn({ taskId }, 'runner lost the lease of a task it runs (it was paused too long)');
      }
    } catch (error) {
      this.logger?.warn({ err: error }, 'runner could not renew its leases; trying again');
    }
  }

  private async sweepExpired(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastSweep < EXPIRED_SWEEP_MS) return;
    this.lastSweep = now;
    await this.jobs.deleteExpired().catch(() => undefined);
  }

  /** Tasks this process runs now (for tests and logs). */
  runningTasks(): string[] {
    return [...this.running.keys()];
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.claiming;
    // Running tasks are aborted (an upstream call cancelled, a delay cut short) and given back, for the next
    // runner; a task already rendering or storing its files finishes and reports.
    const held = [...this.running.keys()];
    this.abort.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
    await this.jobs.release(this.owner, held).catch((error: unknown) => {
      this.logger?.warn({ err: error }, 'runner could not give its tasks back; their leases will lapse');
    });
  }
}
