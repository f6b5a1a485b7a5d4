import type { ApiKeyPrincipal, ExecutionAsset } from '@gen/contracts';
import type { ObjectStorage } from '@gen/storage';
import type { TaskRow } from '../persistence/task-row';
import type { TaskRepository } from '../persistence/task.repository';
import { PurgeTaskUseCase } from './purge-task.use-case';

const now = new Date('2026-11-23T01:00:00Z');
const principal = { accountId: 'acc_1', keyId: 'key_1' } as ApiKeyPrincipal;

function fixture(assets: ExecutionAsset[]) {
  const row = {
    id: 'job_1',
    accountId: 'acc_1',
    keyId: 'key_1',
    state: 'succeeded',
    assets,
    purgedAt: null,
  } as unknown as TaskRow;
  const deleted: string[] = [];
  const purgedAt: Date[] = [];
  const tasks = {
    findVisible: async (id: string, accountId: string, keyId: string) =>
      id === row.id && accountId === row.accountId && keyId === row.keyId ? row : null,
    markPurged: async (_id: string, at: Date) => {
      purgedAt.push(at);
      return { ...row, purgedAt: at };
    },
  } as unknown as TaskRepository;
  const storage = {
    delete: async (key: string) => {
      deleted.push(key);
    },
  } as unknown as ObjectStorage;
  const useCase = new PurgeTaskUseCase(tasks, storage, { now: () => now } as never);
  return { useCase, deleted, purgedAt };
}

describe('PurgeTaskUseCase', () => {
  it('deletes the stored outputs of the task, then marks it purged', async () => {
    const f = fixture([
      { key: 'outputs/job_1/0.png', mime: 'image/png', status: 'ready' },
      { key: 'outputs/job_1/1.png', mime: 'image/png', status: 'pending' },
      { key: 'outputs/job_1/2.png', mime: 'image/png', status: 'unavailable' },
    ]);
    expect(await f.useCase.execute(principal, 'job_1')).toEqual({
      taskId: 'job_1',
      purged: true,
      purgedAt: now.toISOString(),
    });
    expect(f.deleted).toEqual(['outputs/job_1/0.png', 'outputs/job_1/1.png']);
    expect(f.purgedAt).toEqual([now]);
  });

  it('never deletes an object outside the task’s own outputs, whatever its record says', async () => {
    const f = fixture([
      { key: 'files/acc_1/fil_01JD8ZK3W4C6T2M7Q9R5X1Y0AB', mime: 'image/png', status: 'ready' },
      { key: 'outputs/job_2/0.png', mime: 'image/png', status: 'ready' },
      { key: 'outputs/job_1/0.png', mime: 'image/png', status: 'ready' },
    ]);
    await f.useCase.execute(principal, 'job_1');
    expect(f.deleted).toEqual(['outputs/job_1/0.png']);
  });

  it('another key’s task is 404 and nothing is deleted', async () => {
    const f = fixture([{ key: 'outputs/job_1/0.png', mime: 'image/png', status: 'ready' }]);
    await expect(f.useCase.execute({ ...principal, keyId: 'key_2' }, 'job_1')).rejects.toMatchObject({
      code: 404,
    });
    expect([f.deleted, f.purgedAt]).toEqual([[], []]);
  });
});
