import { TaskEventType, type TaskEventName } from '@gen/contracts';
import { EVENT_BUS, subscribeEvents, type EventBus } from '@gen/messaging';
import { DATABASE, type Database } from '@gen/persistence';
import { startEmbedded, type Embedded } from './testing/embedded-harness';

jest.setTimeout(60_000);

type Json = Record<string, unknown>;

/**
 * What a streamed text task writes (issue 31): at acceptance its hold and its row, and no task.created event,
 * whose only reader for such a task was billing's confirm; the hold is confirmed by the stream lease's first
 * renewal if the answer still runs then (a shorter answer is settled from `reserved`). A task of
 * createTask still announces itself (the runner picks it up from task.created). At its end no terminal event
 * either when nothing would read it (no callback URL, no account endpoint listening): it is settled directly.
 */
describe('a streamed text task at acceptance', () => {
  let app: Embedded;
  let database: Database;
  const created: string[] = [];
  /** Every task.* event seen, as `type taskId`. */
  const seen: string[] = [];

  beforeAll(async () => {
    // Leases of 1.5 s, renewed every 500 ms: the 2-second answer below sees its first renewal.
    app = await startEmbedded({ TEXT_STREAM_LEASE_MS: '1500' });
    database = app.app.get<Database>(DATABASE);
    await subscribeEvents(
      app.app.get<EventBus>(EVENT_BUS),
      { group: 'test-observer', types: Object.values(TaskEventType) as TaskEventName[] },
      async (event) => {
        if (event.type === TaskEventType.created) created.push(event.payload.taskId);
        seen.push(`${event.type} ${event.payload.taskId}`);
      },
    );
  });
  afterAll(() => app?.close());

  /** The task's record once it says `settled` (or as it is after 2 s). */
  async function settledRecord(taskId: string): Promise<Json | undefined> {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    let task: Json | undefined;
    for (let i = 0; i < 100 && task?.['settled'] !== true; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      task = (await app.call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth })).json[
        'data'
      ] as Json;
    }
    return task;
  }

  const holdStatus = async (id: string): Promise<string | undefined> =>
    (
      await database.query<{ status: string }>(`SELECT "status" FROM "billing"."holds" WHERE "id" = $1`, [id])
    )[0]?.status;

  it('announces nothing, confirms its hold at its lease renewal while the answer runs, and settles it by its usage', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    const answer = app.call('POST', '/v1/chat/completions', {
      headers: auth,
      body: {
        model: 'local/echo/chat',
        messages: [{ role: 'user', content: 'slow answer [[delay_ms:2000]]' }],
      },
    });
    // The task shows in the key's history as soon as it is accepted.
    let taskId: string | undefined;
    for (let i = 0; i < 100 && taskId === undefined; i += 1) {
      const rows = await database.query<{ id: string }>(
        `SELECT "id" FROM "tasks"."tasks" WHERE "model" = 'local/echo/chat' AND "state" IN ('queued', 'running')`,
      );
      taskId = rows[0]?.id;
      if (taskId === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    expect(taskId).toBeDefined();
    let status = await holdStatus(taskId!);
    for (let i = 0; i < 90 && status === 'reserved'; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      status = await holdStatus(taskId!);
    }
    expect(status).toBe('confirmed');

    const reply = await answer;
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-service-task-id')).toBe(taskId);
    const usage = reply.json['usage'] as Json;
    expect(usage['completion_tokens']).toBeGreaterThan(0);
    const task = await settledRecord(taskId!);
    expect(task).toMatchObject({ state: 'succeeded', settled: true });
    expect(await holdStatus(taskId!)).toBe('settled');
    // Its stream lease lived until the settlement was recorded.
    expect(
      await database.query(`SELECT 1 FROM "tasks"."stream_leases" WHERE "task_id" = $1`, [taskId]),
    ).toEqual([]);
    const charged = await database.query<{ charged: string }>(
      `SELECT "charged_e9"::text AS "charged" FROM "billing"."holds" WHERE "id" = $1`,
      [taskId],
    );
    expect(BigInt(charged[0]!.charged)).toBeGreaterThan(0n);

    // Against a createTask of the same app: its task.created is seen, so the observer hears that event type.
    const sketch = await app.call('POST', '/api/v1/jobs/createTask', {
      headers: auth,
      body: { model: 'local/sketch', input: { prompt: 'a kite', width: 64, height: 64 } },
    });
    expect(sketch.status).toBe(202);
    const sketchId = (sketch.json['data'] as Json)['taskId'] as string;
    for (let i = 0; i < 100 && !created.includes(sketchId); i += 1)
      await new Promise((r) => setTimeout(r, 20));
    expect(created).toEqual([sketchId]);
    expect(created).not.toContain(taskId);
    // Its end wrote no event either (nothing would have read it); the sketch's end did.
    for (let i = 0; i < 200 && !seen.includes(`task.succeeded ${sketchId}`); i += 1)
      await new Promise((r) => setTimeout(r, 20));
    expect(seen.filter((e) => e.endsWith(taskId!))).toEqual([]);
    expect(seen).toContain(`task.succeeded ${sketchId}`);
  });

  it('ends a quiet answer in two writes: the hold settled with no event, then the task settled, read from nowhere', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    const sent: { sql: string; params: string }[] = [];
    const query = database.query.bind(database);
    const spy = jest.spyOn(database, 'query').mockImplementation((sql: string, params?: unknown[]) => {
      sent.push({ sql: sql.replace(/\s+/g, ' '), params: JSON.stringify(params ?? []) });
      return query(sql, params);
    });
    let reply;
    try {
      reply = await app.call('POST', '/v1/chat/completions', {
        headers: auth,
        body: { model: 'local/echo/chat', messages: [{ role: 'user', content: 'quiet' }] },
      });
    } finally {
      spy.mockRestore();
    }
    expect(reply.status).toBe(200);
    const taskId = reply.headers.get('x-service-task-id')!;
    // Settled by the time the answer ended: the settlement came before its last event.
    expect(
      await database.query(
        `SELECT "state", "settled", "cost_e9"::text AS "cost" FROM "tasks"."tasks" WHERE "id" = $1`,
        [taskId],
      ),
    ).toEqual([{ state: 'succeeded', settled: true, cost: expect.stringMatching(/^[1-9]\d*$/) }]);
    expect(await holdStatus(taskId)).toBe('settled');
    expect(
      await database.query(`SELECT 1 FROM "tasks"."stream_leases" WHERE "task_id" = $1`, [taskId]),
    ).toEqual([]);
    // No hold.settled for it in billing's outbox, no read of the task by its report (accepted here), and no
    // settled mark of its own: the transition carried it.
    expect(await database.query(`SELECT 1 FROM "billing"."outbox" WHERE "key" = $1`, [taskId])).toEqual([]);
    // (Other tasks' steps may run meanwhile: the first test's sketch is settled by its event.)
    const about = (text: string) => sent.filter((s) => s.sql.includes(text) && s.params.includes(taskId));
    expect(about('AS "streamed"')).toEqual([]);
    expect(about('UPDATE "tasks"."tasks" AS t SET "settled" = true')).toEqual([]);
    expect(about('"billing"."confirm_holds"')).toEqual([]);
    // What it did send: its hold settled, and the transition that ended it.
    expect(about('"billing"."finish_hold"')).toHaveLength(1);
    expect(about('UPDATE "tasks"."tasks" AS t SET "state"')).toHaveLength(1);
    // Its trail: accepted, then one line for its end that carries the settlement (no line of its own).
    const trail = app.logs
      .map((line) => JSON.parse(line) as Json)
      .filter((entry) => entry['taskId'] === taskId)
      .map((entry) => [entry['msg'], entry]);
    expect(trail).toEqual([
      ['task accepted', expect.objectContaining({ level: 'info' })],
      [
        'task succeeded',
        expect.objectContaining({ level: 'info', settled: true, cost: expect.stringMatching(/^0\.\d+$/) }),
      ],
    ]);
  });

  it('announces its end when an endpoint of the account listens, which then gets its message', async () => {
    const auth = { authorization: `Bearer ${app.boot.apiKey}` };
    // An endpoint added by another process: this one hears of it from the database (NOTIFY).
    await database.query(
      `INSERT INTO "webhooks"."endpoints" ("id", "account_id", "url", "description", "enabled_events", "enabled",
         "status", "consecutive_failures", "secret", "created_at", "updated_at")
       VALUES ('whe_stream_test', $1, 'https://hooks.example.com/in', '', '["task.succeeded"]', true, 'enabled', 0,
               'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', now(), now())`,
      [app.boot.accountId],
    );
    await new Promise((r) => setTimeout(r, 300));
    const reply = await app.call('POST', '/v1/chat/completions', {
      headers: auth,
      body: { model: 'local/echo/chat', messages: [{ role: 'user', content: 'heard' }] },
    });
    expect(reply.status).toBe(200);
    const taskId = reply.headers.get('x-service-task-id')!;
    let messages: { event_type: string }[] = [];
    for (let i = 0; i < 100 && messages.length === 0; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      messages = await database.query<{ event_type: string }>(
        `SELECT "event_type" FROM "webhooks"."messages" WHERE "task_id" = $1`,
        [taskId],
      );
    }
    expect(messages).toEqual([{ event_type: 'task.succeeded' }]);
    expect(seen).toContain(`task.succeeded ${taskId}`);
    const task = await settledRecord(taskId);
    expect(task).toMatchObject({ state: 'succeeded', settled: true });
    expect(await holdStatus(taskId)).toBe('settled');
  });
});
