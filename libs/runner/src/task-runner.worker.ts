import { setMaxListeners } from 'node:events';
import {
  Inject,
  Injectable,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { TaskEventType, Topics, type EventEnvelope, type TaskCreatedPayload } from '@gen/contracts';
import { APP_CONFIG, CLOCK, type AppConfig, type Clock } from '@gen/core';
import { EVENT_BUS, type EventBus, type Subscription } from '@gen/messaging';
import { OBJECT_STORAGE, type ObjectStorage } from '@gen/storage';
import { ExecuteTask, ExecutionAborted } from './execute-task.use-case';
import { PerModelLimiter } from './per-model-limiter';

/** A logger port, so the runner can say why a task was dropped without a dependency on the platform. */
export const RUNNER_LOGGER = Symbol('RunnerLogger');
export interface RunnerLogger {
  error(object: Record<string, unknown>, message: string): void;
}

/**
 * Consumes task.created (group `runner`) and executes each task under the per-model concurrency limit.
 * A task is taken off the bus as soon as it is queued here, so a long `delay_ms` never holds a partition;
 * if this process dies before reporting, the task passes its deadline and the tasks service expires it
 * (hold released): it is finished or expired, never lost in between.
 */
@Injectable()
export class TaskRunnerWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private subscription: Subscription | undefined;
  private readonly limiter: PerModelLimiter;
  private readonly executor: ExecuteTask;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(OBJECT_STORAGE) storage: ObjectStorage,
    @Inject(CLOCK) clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(RUNNER_LOGGER) private readonly logger: RunnerLogger | null,
  ) {
    // Every task waiting out a delay listens to the one signal: as many listeners as running tasks.
    setMaxListeners(0, this.abort.signal);
    this.limiter = new PerModelLimiter(config.RUNNER_CONCURRENCY);
    this.executor = new ExecuteTask(bus, storage, clock, (ms) => this.sleep(ms));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe(Topics.taskLifecycle, 'runner', (event) =>
      this.accept(event),
    );
  }

  private accept(event: EventEnvelope): Promise<void> {
    if (event.type !== TaskEventType.created) return Promise.resolve();
    const task = event.payload as TaskCreatedPayload;
    const run = this.limiter
      .run(task.model, () => this.executor.execute(task, event.id))
      .catch((error: unknown) => {
        if (error instanceof ExecutionAborted) return;
        this.logger?.error({ taskId: task.taskId, err: error }, 'task execution could not be reported');
      });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
    return Promise.resolve();
  }

  /** `delay_ms` waits through this: a stopping runner ends the wait and drops the task (it will expire). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.abort.signal.aborted) return reject(new ExecutionAborted());
      const timer = setTimeout(() => {
        this.abort.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new ExecutionAborted());
      };
      this.abort.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    // Tasks generating now finish and report; tasks still waiting out a delay are dropped and will expire.
    this.abort.abort();
    await Promise.all([...this.inFlight]);
  }
}
