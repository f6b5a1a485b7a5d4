import {
  EventPayloadError,
  ExecutionEventType,
  TaskEventType,
  Topics,
  type EventEnvelope,
  type EventPayload,
  type TypedEvent,
} from '@gen/contracts';
import { createLogger } from '@gen/core';
import { migrate, type Database } from '@gen/persistence';
import { DATABASE_KINDS, openTestDatabase, writeMigrationFolder, type TestDatabase } from '@gen/testing';
import { InProcessEventBus } from './in-process-event-bus';
import { appendToOutbox, OutboxRelay, outboxMigrationSql } from './outbox';
import { consumerTopic, newEvent, publishEvents, subscribeEvents } from './typed-events';

const AT = '2026-11-24T10:00:00.000Z';
const started = (taskId: string): EventPayload<'execution.started'> => ({ taskId, startedAt: AT });
const created = (taskId: string): EventPayload<'task.created'> => ({
  taskId,
  accountId: 'acc_1',
  keyId: 'key_1',
  model: 'local/sketch',
  input: { prompt: 'a fox' },
  estimatedCost: '0.004',
  createdAt: AT,
  deadlineAt: AT,
});
const meta = (key: string, id?: string) => ({
  key,
  correlationId: 'req_1',
  causationId: 'req_1',
  ...(id ? { id } : {}),
});

/** An envelope as it may arrive from the wire: whatever a producer (or a bug) wrote. */
const raw = (id: string, over: Partial<EventEnvelope> = {}): EventEnvelope => ({
  id,
  type: ExecutionEventType.started,
  version: 1,
  key: 'job_1',
  occurredAt: AT,
  correlationId: 'req_1',
  causationId: 'req_1',
  payload: started('job_1'),
  ...over,
});

/** A logger whose lines the test reads. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('newEvent', () => {
  it('builds the envelope with the version and checks the payload of its type', () => {
    const event = newEvent(TaskEventType.created, created('job_1'), {
      ...meta('job_1', 'evt_1'),
      occurredAt: new Date(AT),
    });
    expect(event).toEqual({
      id: 'evt_1',
      type: 'task.created',
      version: 1,
      key: 'job_1',
      occurredAt: AT,
      correlationId: 'req_1',
      causationId: 'req_1',
      payload: created('job_1'),
    });
    expect(newEvent(ExecutionEventType.started, started('job_2'), meta('job_2')).id).toMatch(/^evt_/);
  });

  it('refuses a payload that does not match its type, naming the path', () => {
    const broken = { ...created('job_1'), estimatedCost: 4 } as unknown as EventPayload<'task.created'>;
    expect(() => newEvent(TaskEventType.created, broken, meta('job_1'))).toThrow(EventPayloadError);
    expect(() => newEvent(TaskEventType.created, broken, meta('job_1'))).toThrow(
      'task.created event refused (invalid_payload) at /estimatedCost: Expected string',
    );
  });
});

describe('publishEvents', () => {
  it('publishes each event on its type topic; a refused payload publishes nothing', async () => {
    const bus = new InProcessEventBus(5);
    const seen: string[] = [];
    for (const topic of Object.values(Topics)) {
      await bus.subscribe(topic, 'g', async (e) => void seen.push(`${topic} ${e.type} ${e.id}`));
    }
    await publishEvents(bus, [
      newEvent(ExecutionEventType.started, started('job_1'), meta('job_1', 'evt_1')),
      newEvent(TaskEventType.created, created('job_1'), meta('job_1', 'evt_2')),
    ]);
    expect(seen).toEqual(['task.execution execution.started evt_1', 'task.lifecycle task.created evt_2']);

    const bad = { taskId: 'job_1', startedAt: 'now' } as EventPayload<'execution.started'>;
    await expect(
      (async () => publishEvents(bus, [newEvent(ExecutionEventType.started, bad, meta('job_1', 'evt_3'))]))(),
    ).rejects.toThrow('at /startedAt');
    expect(seen).toHaveLength(2);
    await bus.close();
  });
});

describe.each(DATABASE_KINDS)('appendToOutbox on %s', (kind) => {
  const SCHEMA = 'typed_outbox';
  let test: TestDatabase;
  let database: Database;

  beforeEach(async () => {
    test = await openTestDatabase(kind);
    database = test.database;
    const sql = `${outboxMigrationSql(SCHEMA)}\nCREATE TABLE "${SCHEMA}"."items" ("id" TEXT PRIMARY KEY);\n`;
    await migrate(database, { schema: SCHEMA, directory: writeMigrationFolder(test.dir, 'outbox', sql) });
  });
  afterEach(() => test.close());

  const count = async (table: string) =>
    Number((await database.query<{ n: string }>(`SELECT count(*) AS n FROM "${SCHEMA}"."${table}"`))[0]!.n);

  it('writes each event to its type topic, and a refused payload writes nothing, not even the change', async () => {
    await database.transaction(async (tx) => {
      await tx.query(`INSERT INTO "${SCHEMA}"."items" ("id") VALUES ('a')`);
      await appendToOutbox(tx, SCHEMA, [
        newEvent(TaskEventType.created, created('job_1'), meta('job_1', 'evt_1')),
        newEvent(ExecutionEventType.started, started('job_1'), meta('job_1', 'evt_2')),
      ]);
    });
    expect(
      await database.query(`SELECT "id", "topic", "key" FROM "${SCHEMA}"."outbox" ORDER BY "seq"`),
    ).toEqual([
      { id: 'evt_1', topic: 'task.lifecycle', key: 'job_1' },
      { id: 'evt_2', topic: 'task.execution', key: 'job_1' },
    ]);

    const missing = { ...created('job_2'), taskId: undefined } as unknown as EventPayload<'task.created'>;
    const refused = database.transaction(async (tx) => {
      await tx.query(`INSERT INTO "${SCHEMA}"."items" ("id") VALUES ('b')`);
      await appendToOutbox(tx, SCHEMA, [
        newEvent(TaskEventType.created, created('job_2'), meta('job_2', 'evt_3')),
        newEvent(TaskEventType.created, missing, meta('job_2', 'evt_4')),
      ]);
    });
    await expect(refused).rejects.toThrow(EventPayloadError);
    await expect(refused).rejects.toThrow('at /taskId');
    expect(await count('outbox')).toBe(2);
    expect(await count('items')).toBe(1);

    // The relay delivers what was written; consumers receive it checked.
    const bus = new InProcessEventBus(5);
    const handled: string[] = [];
    await subscribeEvents(bus, { group: 'runner', types: [TaskEventType.created] }, async (event) => {
      handled.push(`${event.id} ${event.payload.taskId}`);
    });
    expect(await new OutboxRelay(database, bus, { schema: SCHEMA }).drainOnce()).toBe(2);
    expect(handled).toEqual(['evt_1 job_1']);
    await bus.close();
  });
});

describe('subscribeEvents', () => {
  it('hands the handler only checked events of its types, and skips a bad one without blocking its key', async () => {
    const bus = new InProcessEventBus(5);
    const { logger, lines } = capturedLogger();
    const handled: TypedEvent<'execution.started' | 'execution.failed'>[] = [];
    let attempts = 0;
    await subscribeEvents(
      bus,
      { group: 'tasks', types: [ExecutionEventType.started, ExecutionEventType.failed], logger },
      async (event) => {
        attempts += 1;
        handled.push(event);
      },
    );
    // All on one key, so a poison message that blocked would hold every later one.
    const published = bus.publish(Topics.taskExecution, [
      raw('evt_1'),
      raw('evt_bad', { payload: { taskId: 'job_1', startedAt: 12 } }),
      raw('evt_v2', { version: 2 }),
      raw('evt_other', { type: ExecutionEventType.succeeded, payload: 'not ours to check' }),
      { ...raw('evt_noid'), id: undefined } as unknown as EventEnvelope,
      raw('evt_2', {
        type: ExecutionEventType.failed,
        payload: { taskId: 'job_1', errorCode: 'upstream_failed', finishedAt: AT },
      }),
    ]);
    await expect(published).resolves.toBeUndefined();
    expect(handled.map((e) => e.id)).toEqual(['evt_1', 'evt_2']);
    expect(attempts).toBe(2);
    const failed = handled[1]!;
    if (failed.type === ExecutionEventType.failed) expect(failed.payload.errorCode).toBe('upstream_failed');
    else throw new Error('the second event is execution.failed');

    const skipped = lines.filter((line) => line['level'] === 'error');
    expect(skipped).toEqual([
      expect.objectContaining({
        msg: 'event skipped: it does not match the event map',
        topic: 'task.execution',
        group: 'tasks',
        reason: 'invalid_payload',
        path: '/startedAt',
        event: {
          id: 'evt_bad',
          type: 'execution.started',
          version: 1,
          key: 'job_1',
          occurredAt: AT,
          correlationId: 'req_1',
          causationId: 'req_1',
        },
      }),
      expect.objectContaining({
        reason: 'unknown_version',
        path: '/version',
        event: expect.objectContaining({ id: 'evt_v2', type: 'execution.started', version: 2 }),
      }),
      expect.objectContaining({ reason: 'malformed_envelope', path: '/id' }),
    ]);
    // The payload is not logged: it may carry a client's input.
    expect(JSON.stringify(skipped)).not.toContain('"payload"');
    await bus.close();
  });

  it('reads one topic per consumer', async () => {
    expect(consumerTopic([TaskEventType.created, TaskEventType.failed])).toBe('task.lifecycle');
    expect(() => consumerTopic([TaskEventType.created, ExecutionEventType.started])).toThrow(
      'a consumer reads one topic',
    );
    const bus = new InProcessEventBus();
    await expect(
      subscribeEvents(
        bus,
        { group: 'g', types: [TaskEventType.created, ExecutionEventType.failed] },
        async () => {
          throw new Error('never called');
        },
      ),
    ).rejects.toThrow('a consumer reads one topic');
    await bus.close();
  });
});
