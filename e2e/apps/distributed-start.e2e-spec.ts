import { DeleteBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { createScratchPostgres, metricValue, type ScratchDatabase } from '@gen/testing';
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ANSWERING_APPS,
  SERVICE_SETTINGS,
  serviceCalls,
  startAppProcess,
  type AppProcess,
  type ServiceCalls,
} from '../support/app-process';

const root = join(__dirname, '..', '..');
const mainOf = (app: string) => join(root, 'dist', 'apps', app, 'src', 'main.js');

interface Exit {
  readonly code: number | null;
  readonly output: string;
}

/**
 * Runs one app as its own process in distributed mode. When it prints its base URL, `whileListening` runs
 * against it and the process gets SIGTERM; resolves with its exit code and output.
 */
function runApp(
  app: string,
  env: Record<string, string>,
  whileListening?: (baseUrl: string) => Promise<void>,
): Promise<Exit> {
  const child = spawn(process.execPath, [mainOf(app)], {
    env: { PATH: process.env['PATH'] ?? '', MODE: 'distributed', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let checked: Promise<void> | undefined;
  let failure: unknown;
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    const match = /listening on (http:\/\/\S+)\n/.exec(output);
    if (match && !checked && whileListening) {
      checked = whileListening(match[1]!)
        .catch((error: unknown) => {
          failure = error;
        })
        .finally(() => child.kill('SIGTERM'));
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      void Promise.resolve(checked).then(() =>
        failure ? reject(failure as Error) : resolve({ code, output }),
      );
    });
  });
}

const APPS = [
  'gateway',
  'compat-protocols',
  'catalog',
  'tasks',
  'billing',
  'media',
  'runner',
  'webhooks',
] as const;

describe('every app starts on its own in distributed mode, and refuses to start without its dependencies', () => {
  let database: ScratchDatabase;
  let dataDir: string;
  let services: Record<string, string>;
  let calls: ServiceCalls;
  /**
   * Apps running for the whole file: the ones others call at start or on a request (the gateway's API keys,
   * billing's opening credit, the catalog document).
   */
  const background: AppProcess[] = [];
  const BACKGROUND = ['gateway', 'billing', 'catalog'];
  /** The settings of `app`, with its service calls; an app also running in the background binds a port of its own. */
  const settingsOf = (app: string, more: Record<string, string> = {}): Record<string, string> => ({
    ...services,
    ...calls.env(app),
    ...(BACKGROUND.includes(app) ? { SERVICE_CALL_PORT: '0' } : {}),
    ...more,
  });

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    database = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-distributed-'));
    services = { DATA_DIR: dataDir, DATABASE_URL: database.url };
    for (const name of SERVICE_SETTINGS) {
      const value = process.env[name];
      if (value !== undefined) services[name] = value;
    }
    calls = await serviceCalls();
    // Together: the gateway's first start credits the demo account through billing.
    background.push(
      ...(await Promise.all(
        BACKGROUND.map((app) => startAppProcess(app, { ...services, ...calls.env(app) })),
      )),
    );
  });
  afterAll(async () => {
    await Promise.all(background.map((app) => app.stop()));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(APPS)('%s: listens, answers /healthz, /readyz and /metrics, and drains on SIGTERM', async (app) => {
    const exit = await runApp(app, settingsOf(app), async (baseUrl) => {
      const health = await fetch(`${baseUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get('x-request-id')).toMatch(/^req_/);
      expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
      const metrics = await fetch(`${baseUrl}/metrics`);
      expect(metrics.status).toBe(200);
      const text = await metrics.text();
      expect(metricValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      // The two probes above, counted by family and status.
      expect(
        metricValue(text, 'http_server_request_duration_seconds_count', { family: 'system', status: '200' }),
      ).toBe(2);
    });
    expect(exit.output).toContain(`${app} (distributed mode) listening on http://`);
    // The apps that answer other apps' calls say where, on the line after.
    if (ANSWERING_APPS.includes(app)) {
      expect(exit.output).toMatch(
        new RegExp(
          `${app} \\(distributed mode\\) listening on http://\\S+\\nservice calls on tcp://127\\.0\\.0\\.1:\\d+\\n`,
        ),
      );
    } else {
      expect(exit.output).not.toContain('service calls on');
    }
    expect(exit.code).toBe(0);
  });

  it.each([
    [
      'compat-protocols',
      'gateway (accounts.apiKeys); tasks (tasks.textIntake, tasks.compatTasks); media (media.mediaInputs); catalog (catalog.document)',
    ],
    ['runner', 'media (media.mediaInputs); catalog (catalog.document)'],
    [
      'billing',
      'gateway (accounts.apiKeys, accounts.consoleSessions, accounts.adminTokens, accounts.accountDirectory); catalog (catalog.models)',
    ],
  ])('%s without SERVICE_ADDRESSES exits 2 naming it and what it calls', async (app, what) => {
    const env = settingsOf(app);
    delete env['SERVICE_ADDRESSES'];
    const exit = await runApp(app, env);
    expect(exit.code).toBe(2);
    expect(exit.output).toBe(
      `Invalid configuration: SERVICE_ADDRESSES is required: this app calls ${what}\n`,
    );
  });

  it('webhooks with SERVICE_ADDRESSES that lacks the gateway exits 2 naming it', async () => {
    const exit = await runApp(
      'webhooks',
      settingsOf('webhooks', { SERVICE_ADDRESSES: 'billing=127.0.0.1:1' }),
    );
    expect(exit.code).toBe(2);
    expect(exit.output).toBe(
      'Invalid configuration: SERVICE_ADDRESSES names no address of gateway, which this app calls (accounts.accountDirectory, accounts.consoleSessions, accounts.adminTokens)\n',
    );
  });

  it('the per-key rate limit lives in Redis, so every app that serves routes shares one bucket', async () => {
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as {
      apiKey: string;
    };
    const headers = { authorization: `Bearer ${apiKey}` };
    const limits = { RATE_LIMIT_BURST: '50', RATE_LIMIT_PER_MINUTE: '1' };
    const remaining: string[] = [];
    // Billing's balance route, then the catalog's model route, each in a process of its own.
    const runs: [string, string][] = [
      ['billing', '/api/v1/chat/credit'],
      ['catalog', '/api/v1/models/local%2Fsketch'],
    ];
    for (const [app, path] of runs) {
      const exit = await runApp(app, settingsOf(app, limits), async (baseUrl) => {
        const response = await fetch(`${baseUrl}${path}`, { headers });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-ratelimit-limit')).toBe('50');
        remaining.push(response.headers.get('x-ratelimit-remaining')!);
      });
      expect(exit.code).toBe(0);
    }
    // An in-memory bucket would start full in the second process and answer 49 both times.
    expect(remaining).toEqual(['49', '48']);
  });

  it('media: makes its bucket at start when it is missing', async () => {
    const bucket = `gts-e2e-${randomBytes(4).toString('hex')}`;
    const s3 = new S3Client({
      endpoint: services['S3_ENDPOINT'],
      region: services['S3_REGION'] ?? 'us-east-1',
      forcePathStyle: true,
      credentials: {
        accessKeyId: services['S3_ACCESS_KEY_ID']!,
        secretAccessKey: services['S3_SECRET_ACCESS_KEY']!,
      },
    });
    try {
      await expect(s3.send(new HeadBucketCommand({ Bucket: bucket }))).rejects.toThrow();
      const exit = await runApp('media', settingsOf('media', { S3_BUCKET: bucket }), async (baseUrl) => {
        expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
      });
      expect(exit.code).toBe(0);
      await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    } finally {
      await s3.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => undefined);
      s3.destroy();
    }
  });

  it.each([
    ['gateway', 'REDIS_URL', 'Redis'],
    // The two apps that run text streams report them on task.execution themselves.
    ['compat-protocols', 'KAFKA_BROKERS', 'Kafka'],
    ['tasks', 'KAFKA_BROKERS', 'Kafka'],
    ['catalog', 'REDIS_URL', 'Redis'],
    ['media', 'DATABASE_URL', 'PostgreSQL'],
  ])('%s without %s exits 2 naming the setting', async (app, setting, dependency) => {
    const env = settingsOf(app);
    delete env[setting];
    const exit = await runApp(app, env);
    expect(exit.code).toBe(2);
    expect(exit.output).toBe(
      `Invalid configuration: ${setting} is required when MODE=distributed (this app needs ${dependency})\n`,
    );
  });

  it.each([
    ['gateway', { REDIS_URL: 'redis://:hunter2@127.0.0.1:1' }, 'Redis at 127.0.0.1:1'],
    ['tasks', { KAFKA_BROKERS: '127.0.0.1:1' }, 'Kafka at 127.0.0.1:1'],
    ['media', { S3_ENDPOINT: 'http://127.0.0.1:1' }, 'S3 at http://127.0.0.1:1 bucket generation-media'],
    ['catalog', { DATABASE_URL: 'postgresql://app:hunter2@127.0.0.1:1/gen' }, 'PostgreSQL at 127.0.0.1:1'],
  ])('%s with an unreachable dependency exits 1 and names it (%j)', async (app, broken, target) => {
    const started = Date.now();
    const exit = await runApp(app, settingsOf(app, { ...broken, DEPENDENCY_TIMEOUT_MS: '1000' }));
    expect(exit.code).toBe(1);
    expect(exit.output).toContain(`${app}: start-up failed: cannot reach ${target} within 1000 ms: `);
    expect(exit.output).toMatch(/ECONNREFUSED/);
    expect(exit.output).not.toContain('hunter2');
    expect(exit.output).not.toContain('listening on');
    // Waits about DEPENDENCY_TIMEOUT_MS, not the default 15 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
