import { TaskEventType, Topics, type EventEnvelope, type TaskCreatedPayload } from '@gen/contracts';
import { loadConfig, systemClock } from '@gen/core';
import { InProcessEventBus } from '@gen/messaging';
import { LocalObjectStorage } from '@gen/storage';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskRunnerWorker } from './task-runner.worker';

function created(n: number): EventEnvelope<TaskCreatedPayload> {
  const taskId = `job_delay_${n}`;
  return {
    id: `evt_delay_${n}`,
    type: TaskEventType.created,
    version: 1,
    key: taskId,
    occurredAt: new Date().toISOString(),
    correlationId: taskId,
    causationId: taskId,
    payload: {
      taskId,
      accountId: 'acc_1',
      keyId: 'key_1',
      model: 'local/sketch',
      input: { prompt: 'waits', width: 64, height: 64, delay_ms: 600_000 },
      estimatedCost: '0.004',
      createdAt: new Date().toISOString(),
      deadlineAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  };
}

describe('TaskRunnerWorker', () => {
  it('waits out the delays of many tasks at once, and drops them unfinished on stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gts-runner-'));
    const bus = new InProcessEventBus();
    const reports: string[] = [];
    await bus.subscribe(Topics.taskExecution, 'test', async (event) => void reports.push(event.type));
    const worker = new TaskRunnerWorker(
      bus,
      new LocalObjectStorage({ directory: dir, baseUrl: 'http://127.0.0.1', secret: Buffer.alloc(32, 7) }),
      systemClock,
      loadConfig({ DATA_DIR: dir, RUNNER_CONCURRENCY: '100' }),
      null,
    );
    try {
      await worker.onApplicationBootstrap();
      await bus.publish(
        Topics.taskLifecycle,
        Array.from({ length: 40 }, (_, n) => created(n)),
      );
      // Every task reports that it runs, then sleeps.
      for (let i = 0; i < 100 && reports.length < 40; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(reports).toHaveLength(40);
      await worker.beforeApplicationShutdown();
      // Dropped, not finished: nothing more is reported (they will expire).
      expect(reports.every((type) => type === reports[0])).toBe(true);
    } finally {
      await bus.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
