import {
  ExecutionEventType,
  TaskEventType,
  type CatalogPort,
  type ExecutionSucceededPayload,
  type HoldsPort,
  type TypedEvent,
} from '@gen/contracts';
import type { TaskRow } from '../persistence/task-row';
import type { OutboxEvents, TaskChange, TaskRepository } from '../persistence/task.repository';
import { ApplyExecutionUseCase } from './apply-execution.use-case';
import { StreamsAcceptedHere } from './streams-accepted-here';

const task = (over: Partial<TaskRow> = {}): TaskRow => ({
  id: 'job_1',
  accountId: 'acc_1',
  keyId: 'key_1',
  model: 'local/sketch',
  state: 'running',
  input: { prompt: 'x' },
  callbackUrl: null,
  estimatedE9: 4_000_000n,
  priceMultiplier: '1',
  costE9: null,
  settled: false,
  errorCode: null,
  assets: null,
  usage: null,
  textOutput: null,
  requestId: 'req_1',
  sourceTaskId: null,
  retentionSeconds: 60,
  createdAt: new Date('2026-11-23T00:00:00Z'),
  startedAt: null,
  completedAt: null,
  deadlineAt: new Date('2026-11-23T00:30:00Z'),
  purgedAt: null,
  ...over,
});

function fixture(row: TaskRow, chargeFor: CatalogPort['chargeFor']) {
  const transitions: { change: TaskChange; outbox: OutboxEvents | null }[] = [];
  const repository = {
    findForReport: async () => ({ task: row, streamed: false }),
    transition: async (_id: string, _from: unknown, change: TaskChange, outbox: OutboxEvents | null) => {
      transitions.push({ change, outbox });
      return { ...row, ...change } as TaskRow;
    },
  } as unknown as TaskRepository;
  const catalog = { chargeFor } as unknown as CatalogPort;
  // No holds are called: without TASK_EVENT_LISTENERS every terminal event is written, billing settles from it.
  const holds = {} as HoldsPort;
  return { useCase: new ApplyExecutionUseCase(repository, catalog, holds), transitions };
}

const succeeded = (
  assets: ExecutionSucceededPayload['assets'],
): TypedEvent<typeof ExecutionEventType.succeeded> => ({
  id: 'evt_1',
  type: ExecutionEventType.succeeded,
  version: 1,
  key: 'job_1',
  occurredAt: '2026-11-23T00:00:01Z',
  correlationId: 'job_1',
  causationId: 'evt_0',
  payload: { taskId: 'job_1', assets, usage: { images: 1 }, finishedAt: '2026-11-23T00:00:01Z' },
});
const stored = [{ key: 'outputs/job_1/0.png', mime: 'image/png', status: 'ready' as const }];
const chargeOf = (t: { outbox: OutboxEvents | null }): string => {
  const event = t.outbox![0]!;
  if (event.type !== TaskEventType.succeeded && event.type !== TaskEventType.failed) {
    throw new Error(`a terminal event was expected, not ${event.type}`);
  }
  return event.payload.charge;
};

describe('ApplyExecutionUseCase', () => {
  it('charges the measured usage, never above the hold', async () => {
    const cheap = fixture(task(), () => '0.001');
    await cheap.useCase.apply(succeeded(stored));
    expect(cheap.transitions[0]!.change).toMatchObject({ state: 'succeeded', costE9: 1_000_000n });
    expect(chargeOf(cheap.transitions[0]!)).toBe('0.001');
    const dear = fixture(task(), () => '9');
    await dear.useCase.apply(succeeded(stored));
    expect(chargeOf(dear.transitions[0]!)).toBe('0.004');
  });

  it('charges 0 when no file was stored', async () => {
    const f = fixture(task(), () => '0.004');
    await f.useCase.apply(succeeded([{ ...stored[0]!, status: 'unavailable' }]));
    expect(chargeOf(f.transitions[0]!)).toBe('0');
  });

  it('charges the hold when the model left the catalog, instead of failing the event forever', async () => {
    const f = fixture(task(), () => {
      throw new Error('model.not_found');
    });
    await f.useCase.apply(succeeded(stored));
    expect(chargeOf(f.transitions[0]!)).toBe('0.004');
  });

  it('ignores the result of a task that is already terminal', async () => {
    const f = fixture(task({ state: 'expired' }), () => '0.004');
    await f.useCase.apply(succeeded(stored));
    await f.useCase.apply({
      ...succeeded(stored),
      type: ExecutionEventType.failed,
      payload: { taskId: 'job_1', errorCode: 'upstream_failed', finishedAt: '2026-11-23T00:00:01Z' },
    });
    expect(f.transitions).toEqual([]);
  });

  it('moves a queued task straight to its terminal state, recording when the run began', async () => {
    const quick = fixture(task({ state: 'queued' }), () => '0.001');
    const event = succeeded(stored);
    await quick.useCase.apply({
      ...event,
      payload: { ...event.payload, startedAt: '2026-11-23T00:00:00.500Z' },
    });
    expect(quick.transitions[0]!.change).toMatchObject({
      state: 'succeeded',
      startedAt: new Date('2026-11-23T00:00:00.500Z'),
    });
    const failed = fixture(task({ state: 'queued' }), () => '0');
    await failed.useCase.apply({
      ...event,
      type: ExecutionEventType.failed,
      payload: {
        taskId: 'job_1',
        errorCode: 'upstream_failed',
        finishedAt: '2026-11-23T00:00:01Z',
        startedAt: '2026-11-23T00:00:00.250Z',
      },
    });
    expect(failed.transitions[0]!.change).toMatchObject({
      state: 'failed',
      startedAt: new Date('2026-11-23T00:00:00.250Z'),
    });
    // A run that was reported started says nothing more: the started time already recorded stays.
    const reported = fixture(task(), () => '0.001');
    await reported.useCase.apply(succeeded(stored));
    expect(reported.transitions[0]!.change).not.toHaveProperty('startedAt');
  });

  it('takes a stream accepted here as it was accepted: no read, its hold settled quietly, then the settled end', async () => {
    const accepted = task({ state: 'queued', deadlineAt: new Date(Date.now() + 60_000) });
    const calls: string[] = [];
    const repository = {
      findForReport: async () => {
        calls.push('read');
        return { task: accepted, streamed: true };
      },
      transition: async (
        _id: string,
        _from: unknown,
        change: TaskChange,
        outbox: unknown,
        options: unknown,
      ) => {
        calls.push(`transition ${JSON.stringify({ outbox, options })}`);
        return { ...accepted, ...change } as TaskRow;
      },
    } as unknown as TaskRepository;
    const holds = {
      settle: async (holdId: string, charge: string, options: unknown) => {
        calls.push(`settle ${holdId} ${charge} ${JSON.stringify(options)}`);
        return { holdId, status: 'settled', amount: '0.004', charged: charge };
      },
    } as unknown as HoldsPort;
    const here = new StreamsAcceptedHere();
    here.remember(accepted);
    const useCase = new ApplyExecutionUseCase(
      repository,
      { chargeFor: () => '0.001' } as unknown as CatalogPort,
      holds,
      { listens: async () => false },
      null,
      here,
    );
    const ended = await useCase.apply(succeeded(stored));
    expect(ended).toMatchObject({ state: 'succeeded', costE9: 1_000_000n });
    expect(calls).toEqual([
      'settle job_1 0.001 {"quiet":true}',
      `transition ${JSON.stringify({ outbox: null, options: { forgetIdempotencyKey: false, settled: true } })}`,
    ]);
    // Taken once: a redelivered report reads the task (here it says the task is still queued: billing is asked
    // again, and answers with the hold as it ended).
    calls.length = 0;
    await useCase.apply(succeeded(stored));
    expect(calls[0]).toBe('read');
    // Past its deadline, a stream accepted here is read (the deadline's sweeper may have ended it).
    const late = new StreamsAcceptedHere();
    late.remember(task({ deadlineAt: new Date(Date.now() - 1) }));
    const lateCase = new ApplyExecutionUseCase(
      repository,
      { chargeFor: () => '0.001' } as unknown as CatalogPort,
      holds,
      { listens: async () => false },
      null,
      late,
    );
    calls.length = 0;
    await lateCase.apply(succeeded(stored));
    expect(calls[0]).toBe('read');
  });
});
