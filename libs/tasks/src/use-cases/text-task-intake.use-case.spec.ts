import type { HoldView, HoldsPort } from '@gen/contracts';
import type { TaskRepository } from '../persistence/task.repository';
import type { CreateTaskUseCase } from './create-task.use-case';
import { StreamsAcceptedHere } from './streams-accepted-here';
import { TextTaskIntakeUseCase } from './text-task-intake.use-case';

/** A hold as billing's confirm returns it. */
const confirmedView = (holdId: string): HoldView =>
  ({ holdId, status: 'confirmed', amount: '0.01', charged: null }) as unknown as HoldView;

describe('TextTaskIntakeUseCase.renew: the first renewal confirms the holds of answers still streaming', () => {
  function intakeWith(leased: string[], confirm: (holdId: string) => Promise<HoldView | null>) {
    const renewals: { owner: string; taskIds: readonly string[] }[] = [];
    const tasks = {
      renewStreamLeases: async (owner: string, taskIds: readonly string[]) => {
        renewals.push({ owner, taskIds });
        return taskIds.filter((id) => leased.includes(id));
      },
    } as unknown as TaskRepository;
    const confirms: string[] = [];
    const holds = {
      confirm: async (holdId: string) => {
        confirms.push(holdId);
        return confirm(holdId);
      },
    } as unknown as HoldsPort;
    const intake = new TextTaskIntakeUseCase(
      {} as CreateTaskUseCase,
      tasks,
      new StreamsAcceptedHere(),
      holds,
    );
    return { intake, renewals, confirms };
  }

  it('confirms each task whose lease it renewed once, and none whose lease is gone', async () => {
    const { intake, renewals, confirms } = intakeWith(['t1', 't2'], async (id) => confirmedView(id));
    expect(await intake.renew('p1', ['t1', 't2', 't3'], 3000)).toEqual(['t1', 't2']);
    expect(renewals).toEqual([{ owner: 'p1', taskIds: ['t1', 't2', 't3'] }]);
    expect(confirms.sort()).toEqual(['t1', 't2']);
    // The next renewals renew again and confirm nothing twice.
    expect(await intake.renew('p1', ['t1', 't2'], 3000)).toEqual(['t1', 't2']);
    expect(await intake.renew('p1', ['t1'], 3000)).toEqual(['t1']);
    expect(renewals).toHaveLength(3);
    expect(confirms.sort()).toEqual(['t1', 't2']);
  });

  it('a confirm that failed (or found no hold) is tried again at the next renewal; the renewal still answers', async () => {
    let failing = true;
    const { intake, confirms } = intakeWith(['t1', 't2'], async (id) => {
      if (id === 't1' && failing) throw new Error('billing unavailable');
      return id === 't2' && failing ? null : confirmedView(id);
    });
    expect(await intake.renew('p1', ['t1', 't2'], 3000)).toEqual(['t1', 't2']);
    expect(confirms.sort()).toEqual(['t1', 't2']);
    failing = false;
    expect(await intake.renew('p1', ['t1', 't2'], 3000)).toEqual(['t1', 't2']);
    expect(confirms.sort()).toEqual(['t1', 't1', 't2', 't2']);
    await intake.renew('p1', ['t1', 't2'], 3000);
    expect(confirms).toHaveLength(4);
  });
});
