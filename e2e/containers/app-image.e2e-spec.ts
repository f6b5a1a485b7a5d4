import { createScratchPostgres, type ScratchDatabase } from '@gen/testing';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileIn, runEmbeddedImage, withImage } from '../support/containers';
import { checkMoney } from '../support/money';

type Json = Record<string, unknown>;

const root = join(__dirname, '..', '..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
/** The image `npm run images:build` makes. */
const IMAGE = `localhost/generation-service:${version}`;

const { engine, describe: describeWithImage } = withImage(IMAGE);

/**
 * The image as an operator runs it (`docker/Dockerfile`, built by `npm run images:build`): embedded mode on a
 * PostgreSQL database, on the host's network. Healthy, a task run and settled with the books balanced, the
 * process non-root under tini with no npm, and a SIGTERM drained to exit 0.
 */
describeWithImage('the app image under a container engine', () => {
  const name = `gts-e2e-${randomBytes(4).toString('hex')}`;
  let database: ScratchDatabase;
  let base: string;
  const exec = (...args: string[]) => execFileSync(engine!, args, { encoding: 'utf8' }).trim();

  beforeAll(async () => {
    database = await createScratchPostgres();
    const started = await runEmbeddedImage(engine!, IMAGE, name, database.url, { SHUTDOWN_GRACE_MS: '5000' });
    base = started.base;
    console.log(`app image: ${IMAGE} (${engine}) healthy ${started.healthyMs} ms after start`);
  }, 120_000);

  afterAll(async () => {
    spawnSync(engine!, ['rm', '-f', name], { stdio: 'ignore' });
    await database?.drop();
  });

  it('runs a task to its settlement, as a non-root user under tini, with no npm', async () => {
    const boot = JSON.parse(await fileIn(engine!, name, '/data/bootstrap.json')) as { apiKey: string };
    const auth = { authorization: `Bearer ${boot.apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v1/jobs/createTask`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ model: 'local/sketch', input: { prompt: 'a boat', width: 64, height: 64 } }),
    });
    expect(created.status).toBe(202);
    const taskId = ((await created.json()) as { data: Json }).data['taskId'] as string;
    let task: Json = {};
    for (let i = 0; i < 300 && task['settled'] !== true; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      const reply = await fetch(`${base}/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth });
      task = ((await reply.json()) as { data: Json }).data;
    }
    expect(task).toMatchObject({ state: 'succeeded', settled: true });
    expect(exec('exec', name, 'id', '-u')).toBe('10001');
    expect(exec('exec', name, 'cat', '/proc/1/comm')).toBe('tini');
    expect(
      spawnSync(engine!, ['exec', name, 'sh', '-c', 'command -v npm'], { encoding: 'utf8' }).status,
    ).not.toBe(0);
    // The image's own health check passes.
    expect(spawnSync(engine!, ['healthcheck', 'run', name]).status).toBe(0);
    const size = Number(exec('image', 'inspect', IMAGE, '--format', '{{.Size}}'));
    console.log(`app image: ${(size / 1e6).toFixed(0)} MB`);
  });

  it('drains on SIGTERM and exits 0; the books balance after', async () => {
    const stopped = Date.now();
    exec('stop', '-t', '30', name);
    expect(exec('inspect', name, '--format', '{{.State.ExitCode}}')).toBe('0');
    expect(Date.now() - stopped).toBeLessThan(15_000);
    const money = await checkMoney(database.url);
    expect(money.violations).toEqual([]);
    expect(money.holds.open).toBe(0);
    expect(money.holds.settled).toBeGreaterThan(0);
  });
});
