import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  serviceCalls,
  serviceSettings,
  startAppProcess,
  type AppProcess,
  type ServiceCalls,
} from '../support/app-process';

const root = join(__dirname, '..', '..');
type Json = Record<string, unknown>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Each app composes only its own domain and calls the others' ports over the service transport
 * (docs/architecture.md, "Service calls"): the billing app answers holds and its admin route the gateway
 * forwards, the gateway the credential checks.
 * When the app that answers is down, the request that needs it is refused with 503 (business code 50301)
 * and leaves nothing behind; once it is back, the same request succeeds.
 */
describe('service calls between the apps of the fleet: a peer that is down is a 503, not a half-done request', () => {
  let database: ScratchDatabase;
  let db: Client;
  let dataDir: string;
  let env: Record<string, string>;
  let calls: ServiceCalls;
  const running = new Map<string, AppProcess>();
  let auth: Record<string, string>;
  let admin: Record<string, string>;
  let accountId: string;

  const start = async (app: string) => {
    const started = await startAppProcess(app, { ...env, ...calls.env(app) });
    running.set(app, started);
    return started;
  };
  const stop = async (app: string) => {
    const code = await running.get(app)!.stop();
    running.delete(app);
    return code;
  };
  const url = (app: string, path: string) => `${running.get(app)!.baseUrl}${path}`;
  const post = (app: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url(app, path), {
      method: 'POST',
      headers: { ...auth, ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** Credits ever added: ledger entries from outside the account (holds and charges move inside it). */
  const externalCredits = async (): Promise<number> =>
    (
      await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM billing.ledger_entries WHERE from_account = 'external'",
      )
    ).rows[0]!.n;
  const count = async (table: string): Promise<number> =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    database = await createScratchPostgres();
    db = new Client({ connectionString: database.url });
    await db.connect();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-service-calls-'));
    const fleet = `e2e-calls-${randomBytes(4).toString('hex')}`;
    env = {
      ...serviceSettings(),
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      KAFKA_TOPIC_PREFIX: `${fleet}.`,
      REDIS_KEY_PREFIX: `${fleet}:`,
      S3_KEY_PREFIX: `${fleet}/`,
    };
    calls = await serviceCalls();
    // Together: the gateway's first start credits the demo account through billing, which checks the account
    // against the gateway.
    await Promise.all(['gateway', 'billing', 'compat-protocols', 'media', 'tasks', 'catalog'].map(start));
    const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
      adminToken: string;
      accountId: string;
    };
    auth = { authorization: `Bearer ${boot.apiKey}` };
    admin = { authorization: `Bearer ${boot.adminToken}` };
    accountId = boot.accountId;
  }, 180_000);

  afterAll(async () => {
    const codes = await Promise.all([...running.keys()].map(stop));
    await db?.end();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    expect(codes.filter((code) => code !== 0)).toEqual([]);
  });

  it('billing stopped: createTask (tasks, compat-protocols) and a credit forwarded by the gateway answer 503 (50301) and change nothing; they succeed once billing is back', async () => {
    const task = { model: 'local/sketch', input: { prompt: 'a lighthouse' } };
    const key = { 'idempotency-key': `calls-${randomBytes(4).toString('hex')}` };
    const [tasksBefore, holdsBefore] = [await count('tasks.tasks'), await count('billing.holds')];

    expect(await stop('billing')).toBe(0);
    const refused = await post('tasks', '/api/v1/jobs/createTask', task, key);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    const body = (await refused.json()) as Json;
    expect(body).toMatchObject({ code: 50301 });
    expect(body).not.toHaveProperty('data');
    const chat = await post('compat-protocols', '/v1/chat/completions', {
      model: 'local/echo/chat',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(chat.status).toBe(503);
    expect(chat.headers.get('x-service-task-id')).toBeNull();
    expect(await chat.json()).toHaveProperty('error');
    // The admin credit route is billing's: the gateway forwards it, and answers 503 while billing is down.
    const credits = `/admin/v1/accounts/${accountId}/credits`;
    const fundingBefore = await externalCredits();
    const credit = await fetch(url('gateway', credits), {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '2.50' }),
    });
    expect(credit.status).toBe(503);
    expect(await credit.json()).toMatchObject({ code: 50301 });
    // Nothing was created, nothing is held, nothing credited.
    expect([await count('tasks.tasks'), await count('billing.holds')]).toEqual([tasksBefore, holdsBefore]);
    expect(await externalCredits()).toBe(fundingBefore);

    await start('billing');
    // The same request, the same Idempotency-Key: the refused attempt did not keep it.
    const accepted = await post('tasks', '/api/v1/jobs/createTask', task, key);
    expect(accepted.status).toBe(202);
    const { taskId } = ((await accepted.json()) as { data: { taskId: string } }).data;
    expect(taskId).toMatch(/^job_/);
    expect([await count('tasks.tasks'), await count('billing.holds')]).toEqual([
      tasksBefore + 1,
      holdsBefore + 1,
    ]);
    const hold = await db.query<{ id: string }>('SELECT id FROM billing.holds WHERE id = $1', [taskId]);
    expect(hold.rows).toHaveLength(1);
    // Forwarded to billing and answered by it, in its envelope; a bad body is billing's 400, changing nothing.
    const forwarded = await fetch(url('gateway', credits), {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '2.50' }),
    });
    expect(forwarded.status).toBe(200);
    expect(await forwarded.json()).toMatchObject({ code: 200, data: { accountId } });
    expect(await externalCredits()).toBe(fundingBefore + 1);
    const bad = await fetch(url('gateway', credits), {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '-1' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 400 });
    expect(await externalCredits()).toBe(fundingBefore + 1);
    // The admin token is checked: without it, 401 and nothing credited.
    const anonymous = await fetch(url('gateway', credits), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '2.50' }),
    });
    expect(anonymous.status).toBe(401);
    expect(await externalCredits()).toBe(fundingBefore + 1);
  });

  it('gateway stopped: compat-protocols and media cannot check an API key and answer 503; once it is back they accept it', async () => {
    const chat = () =>
      post('compat-protocols', '/v1/chat/completions', {
        model: 'local/echo/chat',
        messages: [{ role: 'user', content: 'hello' }],
      });
    const assets = () => fetch(url('media', '/api/v1/assets'), { headers: auth });
    expect((await chat()).status).toBe(200);
    expect((await assets()).status).toBe(200);

    expect(await stop('gateway')).toBe(0);
    // Past the edge's key cache (KEY_CACHE_TTL_MS, 1 s): the key must be checked again.
    await sleep(1200);
    const refused = await chat();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('x-service-task-id')).toBeNull();
    const media = await assets();
    expect(media.status).toBe(503);
    expect(await media.json()).toMatchObject({ code: 50301 });
    // Never a 401: the key is not refused, it could not be checked.
    const tasks = await count('tasks.tasks');

    // The gateway is back on the same address (its first start is over: no bootstrap this time).
    await start('gateway');
    expect((await chat()).status).toBe(200);
    expect((await assets()).status).toBe(200);
    expect(await count('tasks.tasks')).toBe(tasks + 1);
  });
});
