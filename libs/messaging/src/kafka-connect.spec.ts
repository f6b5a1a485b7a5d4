import { connectOnce } from './kafka-event-bus';

describe('connectOnce: the producer connection of a Kafka event bus', () => {
  it('shares one attempt between concurrent callers and connects only once after it succeeded', async () => {
    let calls = 0;
    let finish: () => void = () => undefined;
    const connect = connectOnce(
      () =>
        new Promise<void>((resolve) => {
          calls += 1;
          finish = resolve;
        }),
    );
    const waiting = [connect(), connect(), connect()];
    expect(calls).toBe(1);
    finish();
    await Promise.all(waiting);
    await connect();
    expect(calls).toBe(1);
  });

  it('forgets a failed attempt: the next call connects again (the broker was restarting)', async () => {
    const outcomes = [new Error('connect ECONNREFUSED'), undefined];
    let calls = 0;
    const connect = connectOnce(async () => {
      const outcome = outcomes[calls];
      calls += 1;
      if (outcome) throw outcome;
    });
    const first = [connect(), connect()];
    for (const attempt of first) await expect(attempt).rejects.toThrow('ECONNREFUSED');
    expect(calls).toBe(1);
    await expect(connect()).resolves.toBeUndefined();
    await connect();
    expect(calls).toBe(2);
  });
});
