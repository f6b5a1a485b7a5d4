import { STABLE_RUN_MS, nextStreak, restartDelayMs } from './supervisor';

describe('the supervisor restarts a replica that exits', () => {
  it('waits 1 s, doubling with each exit in a row, 10 s at most', () => {
    let streak = 0;
    const delays: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      streak = nextStreak(streak, null);
      delays.push(restartDelayMs(streak));
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it('starts the count again after a stable run, but not after a short one', () => {
    expect(nextStreak(5, STABLE_RUN_MS)).toBe(1);
    expect(restartDelayMs(nextStreak(5, STABLE_RUN_MS + 1))).toBe(1000);
    expect(nextStreak(5, STABLE_RUN_MS - 1)).toBe(6);
    expect(nextStreak(2, null)).toBe(3);
  });
});
