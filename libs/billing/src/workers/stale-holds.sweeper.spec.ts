import { Logger } from '@nestjs/common';
import { DEFAULT_BILLING_OPTIONS } from '../domain/billing-options';
import type { ReleaseStaleHoldsUseCase } from '../use-cases/release-stale-holds.use-case';
import { StaleHoldsSweeper } from './stale-holds.sweeper';

const waitFor = async (condition: () => boolean) => {
  const deadline = Date.now() + 5000;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
};

describe('StaleHoldsSweeper', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('sweeps on every interval, survives a failed run, and stops after the run in flight', async () => {
    let runs = 0;
    let inFlight = false;
    let finishedAfterStop = false;
    let stopping = false;
    const useCase = {
      execute: async () => {
        runs += 1;
        if (runs === 2) throw new Error('database unreachable');
        inFlight = true;
        await new Promise((r) => setTimeout(r, 20));
        inFlight = false;
        if (stopping) finishedAfterStop = true;
        return 0;
      },
    } as unknown as ReleaseStaleHoldsUseCase;
    const sweeper = new StaleHoldsSweeper(useCase, { ...DEFAULT_BILLING_OPTIONS, sweepIntervalMs: 10 });
    sweeper.onApplicationBootstrap();
    await waitFor(() => runs >= 4 && inFlight);
    stopping = true;
    await sweeper.beforeApplicationShutdown();
    expect(finishedAfterStop).toBe(true);
    const stoppedAt = runs;
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toBe(stoppedAt);
  });

  it('does nothing when the workers are off', async () => {
    let runs = 0;
    const useCase = { execute: async () => ((runs += 1), 0) } as unknown as ReleaseStaleHoldsUseCase;
    const sweeper = new StaleHoldsSweeper(useCase, {
      ...DEFAULT_BILLING_OPTIONS,
      sweepIntervalMs: 5,
      workers: false,
    });
    sweeper.onApplicationBootstrap();
    await new Promise((r) => setTimeout(r, 30));
    await sweeper.beforeApplicationShutdown();
    expect(runs).toBe(0);
  });
});
