type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One answer (or a failure to get one) of a call made under load. */
export interface Outcome {
  readonly op: string;
  /** The HTTP status, or 0 when no answer came (connection refused, reset, timed out). */
  readonly status: number;
  /** The body's business `code` (envelope), when it has one. */
  readonly code?: number;
  /** The connection error's code (e.g. ECONNRESET), when there was no answer. */
  readonly error?: string;
  readonly at: number;
  readonly ms: number;
}

export interface Answer {
  readonly status: number;
  readonly json: Json;
}

/** A client of the public API with one API key; every call is also recorded as an outcome. */
export class ApiClient {
  readonly outcomes: Outcome[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /**
   * Calls the API; resolves with status and body, or with status 0 when no answer came (the error code is in
   * the outcome). Never throws for a failed request: the caller decides what a failure means.
   */
  async call(
    op: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const at = Date.now();
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      let json: Json = {};
      try {
        json = text ? (JSON.parse(text) as Json) : {};
      } catch {
        json = { unparsed: text.slice(0, 200) };
      }
      const code = typeof json['code'] === 'number' ? (json['code'] as number) : undefined;
      this.outcomes.push({ op, status: response.status, code, at, ms: Date.now() - at });
      return { status: response.status, json };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      const name = cause?.code ?? (error as Error).name ?? 'error';
      this.outcomes.push({ op, status: 0, error: name, at, ms: Date.now() - at });
      return { status: 0, json: { error: name } };
    }
  }

  /** Outcomes grouped `op status/code` -> count, e.g. `createTask 503/50301: 2`, for messages and docs. */
  tally(which: (outcome: Outcome) => boolean = () => true): Record<string, number> {
    const out: Record<string, number> = {};
    for (const o of this.outcomes) {
      if (!which(o)) continue;
      const key = `${o.op} ${o.status === 0 ? `no answer (${o.error})` : `${o.status}/${o.code ?? '-'}`}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }
}

/**
 * Runs `worker` in `concurrency` loops until `stop()` is called; each loop calls it again as soon as the
 * previous call finished (a closed-loop load of `concurrency` requests in flight).
 */
export function runLoad(
  concurrency: number,
  worker: (loop: number, iteration: number) => Promise<void>,
): { stop(): Promise<void> } {
  let stopping = false;
  const loops = Array.from({ length: concurrency }, async (_, loop) => {
    for (let i = 0; !stopping; i += 1) await worker(loop, i);
  });
  return {
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` every `everyMs` until `done` holds for its value or `timeoutMs` passed; returns the last value. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(everyMs);
  }
}

/** What `taskLoad` saw: the tasks accepted (Idempotency-Key -> task id) and any answer that was wrong. */
export interface TaskLoad {
  readonly accepted: Map<string, string>;
  readonly wrong: string[];
  /** Ends the loops once their calls in flight are answered. */
  stop(): Promise<void>;
}

/**
 * A client load on the task API: `loops` clients, each creating a `local/sketch` task (with `prompt`, so SQL
 * finds them, and `delay_ms`) under an Idempotency-Key of its own, reading it back with recordInfo, and reading
 * the balance; again and again (after `pauseMs`) until stopped. A 503 or a call without an answer is retried with the same key
 * (for a while, then the client moves on), as the API asks of clients: a retried key never makes a second
 * task. Wrong answers (another task for a key, a record of another task, a malformed balance) are collected.
 */
export function taskLoad(
  client: ApiClient,
  options: { loops: number; prompt: string; delayMs: number; keyPrefix: string; pauseMs?: number },
): TaskLoad {
  const accepted = new Map<string, string>();
  const wrong: string[] = [];
  const body = {
    model: 'local/sketch',
    input: { prompt: options.prompt, width: 64, height: 64, delay_ms: options.delayMs },
  };
  const loops = runLoad(options.loops, async (loop, i) => {
    const key = `${options.keyPrefix}-${loop}-${i}`;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const created = await client.call('createTask', 'POST', '/api/v1/jobs/createTask', body, {
        'idempotency-key': key,
      });
      if (created.status === 202) {
        const taskId = created.json['data']['taskId'] as string;
        const earlier = accepted.get(key);
        if (earlier !== undefined && earlier !== taskId) wrong.push(`${key}: ${earlier} then ${taskId}`);
        accepted.set(key, taskId);
        const read = await client.call('recordInfo', 'GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`);
        if (read.status === 200 && read.json['data']['taskId'] !== taskId)
          wrong.push(`recordInfo ${taskId} answered ${String(read.json['data']['taskId'])}`);
        break;
      }
      if (created.status !== 503 && created.status !== 0) break;
      await sleep(200);
    }
    const credit = await client.call('credit', 'GET', '/api/v1/chat/credit');
    if (credit.status === 200 && credit.json['data']['currency'] !== 'USD')
      wrong.push(`credit ${JSON.stringify(credit.json)}`);
    if (options.pauseMs) await sleep(options.pauseMs);
  });
  return { accepted, wrong, stop: () => loops.stop() };
}

/** What a fault test reads of the tasks its load made: they are told apart by the prompt of the run. */
export interface PromptTasks {
  /** The tasks with this prompt, with when each was created. */
  list(): Promise<{ id: string; created: Date }[]>;
  /** How many of them are not settled yet. */
  unsettled(): Promise<number>;
  /**
   * Waits on SQL until every one of them is settled (recordInfo of hundreds of tasks in a loop would be a load
   * of its own) or `timeoutMs` passed; how many are still not settled.
   */
  unsettledAfter(timeoutMs: number): Promise<number>;
}

/** Reads the tasks of one run of `taskLoad` (by its prompt) straight from the tasks schema. */
export function tasksWithPrompt(db: Queryable, prompt: string): PromptTasks {
  const tasks: PromptTasks = {
    unsettledAfter: (timeoutMs) =>
      until(
        () => tasks.unsettled(),
        (n) => n === 0,
        timeoutMs,
      ),
    list: async () =>
      (
        await db.query<{ id: string; created: Date }>(
          `SELECT "id", "created_at" AS "created" FROM "tasks"."tasks" WHERE "input"->>'prompt' = $1`,
          [prompt],
        )
      ).rows,
    unsettled: async () =>
      Number(
        (
          await db.query<{ n: string }>(
            `SELECT count(*) AS "n" FROM "tasks"."tasks" WHERE "input"->>'prompt' = $1 AND NOT "settled"`,
            [prompt],
          )
        ).rows[0]!.n,
      ),
  };
  return tasks;
}

/** The part of a `pg` client these reads use. */
interface Queryable {
  query<R extends object>(sql: string, params: unknown[]): Promise<{ rows: R[] }>;
}
