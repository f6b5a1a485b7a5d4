import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
} from 'kafkajs';
import { connectOnce, producerStateLost } from './kafka-event-bus';

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

describe('producerStateLost: when a producer must be replaced', () => {
  const protocolError = (type: string, code: number) =>
    new KafkaJSProtocolError({ type, code, retriable: false, message: type } as never);

  it("recognises the broker's sequence answers, also inside kafkajs' retry wrappers", () => {
    const outOfOrder = protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER', 45);
    expect(producerStateLost(outOfOrder)).toBe(true);
    expect(
      producerStateLost(new KafkaJSNumberOfRetriesExceeded(outOfOrder, { retryCount: 5, retryTime: 300 })),
    ).toBe(true);
    expect(producerStateLost(protocolError('UNKNOWN_PRODUCER_ID', 59))).toBe(true);
    expect(
      producerStateLost(
        // kafkajs passes `cause` as a second argument its typings do not declare.
        Reflect.construct(KafkaJSNonRetriableError, [
          'wrapped',
          { cause: protocolError('INVALID_PRODUCER_EPOCH', 47) },
        ]) as Error,
      ),
    ).toBe(true);
  });

  it('leaves alone what retrying with the same producer fixes', () => {
    expect(producerStateLost(protocolError('NOT_LEADER_FOR_PARTITION', 6))).toBe(false);
    expect(producerStateLost(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED'))).toBe(
      false,
    );
    expect(producerStateLost(new Error('x'))).toBe(false);
    expect(producerStateLost(undefined)).toBe(false);
  });
});
