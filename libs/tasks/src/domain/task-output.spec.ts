import { BusinessCode, isTaskOutputKey, type ExecutionAsset } from '@gen/contracts';
import { DomainError } from '@gen/core';
import type { TaskRow } from '../persistence/task-row';
import { DOWNLOAD_URL_SECONDS, downloadableOutput } from './task-output';

const completedAt = new Date('2026-11-23T00:01:00Z');
const png = (n: number, status: ExecutionAsset['status'] = 'ready'): ExecutionAsset => ({
  key: `outputs/job_1/${n}.png`,
  mime: 'image/png',
  status,
});
const task = (over: Partial<TaskRow> = {}): TaskRow => ({
  id: 'job_1',
  accountId: 'acc_1',
  keyId: 'key_1',
  model: 'local/sketch',
  state: 'succeeded',
  input: { prompt: 'x' },
  callbackUrl: null,
  estimatedE9: 4_000_000n,
  priceMultiplier: '1',
  costE9: 4_000_000n,
  settled: true,
  errorCode: null,
  assets: [png(0), png(1)],
  usage: { images: 2 },
  textOutput: null,
  requestId: 'req_1',
  sourceTaskId: null,
  retentionSeconds: 14 * 24 * 3600,
  createdAt: new Date('2026-11-23T00:00:00Z'),
  startedAt: new Date('2026-11-23T00:00:01Z'),
  completedAt,
  deadlineAt: new Date('2026-11-23T00:30:00Z'),
  purgedAt: null,
  ...over,
});
const later = (seconds: number) => new Date(completedAt.getTime() + seconds * 1000);

/** The code and message id of the refusal, or the output and lifetime chosen. */
function outcome(row: TaskRow, key: string | undefined, now = later(60)) {
  try {
    const { asset, expiresInSeconds } = downloadableOutput(row, key, now);
    return { key: asset.key, expiresInSeconds };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, messageId: error.messageId };
  }
}

describe('downloadableOutput', () => {
  it('signs the output with that key, or the first output for an empty or absent key', () => {
    const full = { expiresInSeconds: DOWNLOAD_URL_SECONDS };
    expect(outcome(task(), 'outputs/job_1/1.png')).toEqual({ key: 'outputs/job_1/1.png', ...full });
    expect(outcome(task(), '')).toEqual({ key: 'outputs/job_1/0.png', ...full });
    expect(outcome(task(), undefined)).toEqual({ key: 'outputs/job_1/0.png', ...full });
  });

  it('never signs past the retention of the task', () => {
    const short = task({ retentionSeconds: 100 });
    expect(outcome(short, undefined, later(40))).toMatchObject({ expiresInSeconds: 60 });
    expect(outcome(short, undefined, later(99.5))).toMatchObject({ expiresInSeconds: 1 });
    expect(outcome(short, undefined, later(100))).toEqual({
      code: BusinessCode.NotFound,
      messageId: 'download.outputs_gone',
    });
  });

  it('409 for a task that has not succeeded: still in flight, or ended without outputs', () => {
    for (const state of ['queued', 'running'] as const) {
      expect(outcome(task({ state, completedAt: null, assets: null }), '')).toEqual({
        code: BusinessCode.Conflict,
        messageId: 'download.not_finished',
      });
    }
    for (const state of ['failed', 'expired', 'canceled'] as const) {
      expect(outcome(task({ state, assets: null }), '')).toEqual({
        code: BusinessCode.Conflict,
        messageId: 'download.not_succeeded',
      });
    }
  });

  it('404 once purged, for a key that is no output, and for a task without output files', () => {
    expect(outcome(task({ purgedAt: later(1) }), '')).toEqual({
      code: BusinessCode.NotFound,
      messageId: 'download.outputs_gone',
    });
    expect(outcome(task(), 'outputs/job_1/7.png')).toEqual({
      code: BusinessCode.NotFound,
      messageId: 'download.no_such_output',
    });
    expect(outcome(task({ assets: [] }), '')).toEqual({
      code: BusinessCode.NotFound,
      messageId: 'download.no_outputs',
    });
  });

  it('an output not stored is 404, one not ready yet 409; the first output is the first, whatever it is', () => {
    const mixed = task({ assets: [png(0, 'unavailable'), png(1, 'pending'), png(2)] });
    expect(outcome(mixed, '')).toEqual({
      code: BusinessCode.NotFound,
      messageId: 'download.output_unavailable',
    });
    expect(outcome(mixed, 'outputs/job_1/1.png')).toEqual({
      code: BusinessCode.Conflict,
      messageId: 'download.output_pending',
    });
    expect(outcome(mixed, 'outputs/job_1/2.png')).toMatchObject({ key: 'outputs/job_1/2.png' });
  });

  it('never signs a key outside the task’s own outputs, even if a record named one', () => {
    const foreign = task({
      assets: [
        { key: 'files/acc_1/fil_1', mime: 'image/png', status: 'ready' },
        { key: 'outputs/job_2/0.png', mime: 'image/png', status: 'ready' },
        png(0),
      ],
    });
    expect(outcome(foreign, '')).toMatchObject({ key: 'outputs/job_1/0.png' });
    for (const key of ['files/acc_1/fil_1', 'outputs/job_2/0.png']) {
      expect(outcome(foreign, key)).toEqual({
        code: BusinessCode.NotFound,
        messageId: 'download.no_such_output',
      });
    }
  });
});

describe('isTaskOutputKey', () => {
  it('holds for the objects right under the task’s output prefix only', () => {
    expect(isTaskOutputKey('job_1', 'outputs/job_1/0.png')).toBe(true);
    for (const key of [
      'outputs/job_1/',
      'outputs/job_1/a/0.png',
      'outputs/job_12/0.png',
      'files/acc_1/fil_1',
    ]) {
      expect([key, isTaskOutputKey('job_1', key)]).toEqual([key, false]);
    }
  });
});
