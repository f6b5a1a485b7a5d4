import { createLogger } from '@gen/core';
import { logLevel } from 'kafkajs';
import { Writable } from 'node:stream';
import { kafkaLogCreator } from './kafka-event-bus';

describe("kafkajs' messages go through the service's logger", () => {
  it('writes one JSON line per message, at the matching level, with the namespace and fields', () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(
          ...chunk
            .toString('utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
        );
        done();
      },
    });
    const log = kafkaLogCreator(createLogger('debug', sink))();
    const entry = (level: logLevel, message: string) => ({
      namespace: 'Connection',
      level,
      label: 'x',
      log: { timestamp: '2026-11-23T00:00:00Z', logger: 'kafkajs', message, broker: '127.0.0.1:1' },
    });
    log(entry(logLevel.ERROR, 'Connection error'));
    // An error answer of the broker, which the client retries or raises to its caller: a warning.
    log(entry(logLevel.ERROR, 'Response Metadata(key: 3, version: 6)'));
    log(entry(logLevel.WARN, 'slow'));
    log(entry(logLevel.INFO, 'joined'));
    log(entry(logLevel.DEBUG, 'fetch'));
    expect(lines.map((l) => [l['level'], l['msg'], l['kafka'], l['broker']])).toEqual([
      ['error', 'Connection error', 'Connection', '127.0.0.1:1'],
      ['warn', 'Response Metadata(key: 3, version: 6)', 'Connection', '127.0.0.1:1'],
      ['warn', 'slow', 'Connection', '127.0.0.1:1'],
      ['info', 'joined', 'Connection', '127.0.0.1:1'],
      ['debug', 'fetch', 'Connection', '127.0.0.1:1'],
    ]);
    // A consumer crash on a passing broker state is restarted by kafkajs: warnings; any other crash: an error.
    const consumer = (message: string) => ({ ...entry(logLevel.ERROR, message), namespace: 'Consumer' });
    lines.length = 0;
    log(consumer("Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests"));
    log(consumer('Restarting the consumer in 300ms'));
    log(consumer('Crash: KafkaJSNonRetriableError: Topic authorization failed'));
    expect(lines.map((l) => [l['level'], l['kafka']])).toEqual([
      ['warn', 'Consumer'],
      ['warn', 'Consumer'],
      ['error', 'Consumer'],
    ]);
  });

  it('keeps the service fields over kafkajs own', () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    kafkaLogCreator(createLogger('debug', sink))()({
      namespace: 'Connection',
      level: logLevel.ERROR,
      label: 'x',
      log: { timestamp: '2026-11-23T00:00:00Z', logger: 'kafkajs', message: 'Connection error' },
    });
    // kafkajs' own timestamp and logger name do not shadow the service's fields.
    expect(lines[0]).not.toHaveProperty('logger');
    expect(lines[0]!['time']).not.toBe('2026-11-23T00:00:00Z');
  });
});
