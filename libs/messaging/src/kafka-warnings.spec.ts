import { runInThisContext } from 'node:vm';
import { ignoreKafkajsNegativeTimeouts } from './kafka-event-bus';

describe("kafkajs' negative timer delays", () => {
  it('drops the TimeoutNegativeWarning a kafkajs frame caused, and passes every other warning on', () => {
    const written: unknown[][] = [];
    const target = { emitWarning: (...args: unknown[]) => void written.push(args) };
    ignoreKafkajsNegativeTimeouts(target as never);
    ignoreKafkajsNegativeTimeouts(target as never); // installed once
    // As Node's timers call it when kafkajs' request queue sets a negative delay: a kafkajs frame on the stack.
    const fromKafkajs = runInThisContext(
      '(emit) => emit("-1732 is a negative number.\\nTimeout duration was set to 1.", "TimeoutNegativeWarning")',
      { filename: '/srv/app/node_modules/kafkajs/src/network/requestQueue/index.js' },
    ) as (emit: typeof target.emitWarning) => void;
    fromKafkajs(target.emitWarning);
    target.emitWarning('-5 is a negative number.', 'TimeoutNegativeWarning');
    target.emitWarning('old API', { type: 'DeprecationWarning', code: 'DEP0001' });
    const error = new Error('-7 is a negative number.');
    error.name = 'TimeoutNegativeWarning';
    target.emitWarning(error);
    expect(written).toEqual([
      ['-5 is a negative number.', 'TimeoutNegativeWarning'],
      ['old API', { type: 'DeprecationWarning', code: 'DEP0001' }],
      [error],
    ]);
  });
});
