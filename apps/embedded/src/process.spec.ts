import { createScratchPostgres, describeWithPostgres, type ScratchDatabase } from '@gen/testing';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const main = join(root, 'dist', 'apps', 'embedded', 'src', 'main.js');

interface Started {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `npm start`'s program as its own process and waits for the line with the base URL. */
function start(env: Record<string, string>, entry = main): Promise<Started> {
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match && out.includes('\n', match.index))
        resolve({ child, baseUrl: match[1]!, output: () => out, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    void exited.then((code) => reject(new Error(`exited ${String(code)} before listening:\n${out}`)));
  });
}

describe('the embedded process: first start, drain on SIGTERM, configuration errors', () => {
  let dataDir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    dataDir = mkdtempSync(join(tmpdir(), 'gts-process-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('bootstraps once, serves, and drains in-flight work on SIGTERM without losing it', async () => {
    const first = await start({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' });
    try {
      const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Record<
        string,
        string
      >;
      expect(Object.keys(boot).sort()).toEqual([
        'accountId',
        'adminToken',
        'apiKey',
        'baseUrl',
        'signingSecret',
      ]);
      expect(boot['baseUrl']).toBe(first.baseUrl);
      expect(statSync(join(dataDir, 'bootstrap.json')).mode & 0o777).toBe(0o600);
      expect(first.output()).toContain(
        `API key (shown once; also in ${join(dataDir, 'bootstrap.json')}, mode 0600): ${boot['apiKey']}`,
      );
      expect(boot['signingSecret']).toMatch(/^sk_sign_[0-9A-Za-z]{32}$/);
      expect(first.output()).toContain(
        `Callback signing secret (shown once; also in ${join(dataDir, 'bootstrap.json')}): ${boot['signingSecret']}`,
      );
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
      expect((await fetch(`${first.baseUrl}/readyz`)).status).toBe(200);
      const credit = await fetch(`${first.baseUrl}/api/v1/chat/credit`, {
        headers: { authorization: `Bearer ${boot['apiKey']}` },
      });
      expect(((await credit.json()) as { data: { available: string } }).data.available).toBe('25');

      // A request in flight when SIGTERM arrives: headers and half the body sent, the rest after the signal.
      const url = new URL(first.baseUrl);
      const body = JSON.stringify({ name: 'created-while-draining', credit: '3' });
      const socket = connect(Number(url.port), url.hostname);
      await new Promise((r) => socket.once('connect', r));
      let response = '';
      socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
      const closed = new Promise((r) => socket.once('close', r));
      socket.write(
        `POST /admin/v1/accounts HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${boot['adminToken']}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
      );
      await new Promise((r) => setTimeout(r, 200));
      first.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      const during = await fetch(`${first.baseUrl}/readyz`).then(
        (r) => r.status,
        () => 'refused',
      );
      expect([503, 'refused']).toContain(during);
      socket.write(body.slice(10));
      await closed;
      expect(response).toMatch(/^HTTP\/1\.1 200/);
      const accountId = (
        JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { data: { accountId: string } }
      ).data.accountId;
      expect(await first.exited).toBe(0);

      // Nothing acknowledged was lost, and the second start does not bootstrap again.
      const second = await start({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' });
      try {
        expect(second.output()).not.toContain('API key');
        expect(second.output()).not.toContain(boot['signingSecret']);
        const again = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Record<
          string,
          string
        >;
        expect(again['signingSecret']).toBe(boot['signingSecret']);
        expect(again['apiKey']).toBe(boot['apiKey']);
        expect(second.output()).toContain(`Credentials: ${join(dataDir, 'bootstrap.json')}`);
        const account = await fetch(`${second.baseUrl}/admin/v1/accounts/${accountId}`, {
          headers: { authorization: `Bearer ${boot['adminToken']}` },
        });
        expect(((await account.json()) as { data: { name: string } }).data.name).toBe(
          'created-while-draining',
        );
      } finally {
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
    } finally {
      first.child.kill('SIGKILL');
    }
  }, 90_000);

  it('refuses to start with a catalog whose example fails its schema, naming model and example', async () => {
    const shipped = JSON.parse(
      readFileSync(join(root, 'libs', 'catalog', 'catalog', 'models.json'), 'utf8'),
    ) as { models: { id: string; examples: { input: Record<string, unknown> }[] }[] };
    const sketch = shipped.models.find((m) => m.id === 'local/sketch')!;
    sketch.examples.push({ input: { prompt: 'too wide', width: 100000 } });
    const file = join(dataDir, 'bad-catalog.json');
    writeFileSync(file, JSON.stringify(shipped));
    const child = spawn(process.execPath, [main], {
      env: {
        PATH: process.env['PATH'] ?? '',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'gts-cat-')),
        CATALOG_FILE: file,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(1);
    expect(stderr).toContain(
      `start-up failed: catalog: model "local/sketch": examples[${sketch.examples.length - 1}].input is invalid: `,
    );
    expect(stderr).toContain('width');
  }, 60_000);

  it.each([
    ['PORT', 'eighty'],
    ['MODE', 'clustered'],
    ['DATABASE_URL', 'mysql://root:hunter2@db/x'],
    ['KEY_CACHE_TTL_MS', '5000'],
  ])('refuses to start with a bad %s, naming it and exiting 2', async (name, value) => {
    const child = spawn(process.execPath, [main], {
      env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir, [name]: value },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(stderr).not.toContain('hunter2');
  });
});

// Each app alone on the embedded adapters and PostgreSQL; the same apps in distributed mode against Kafka,
// Redis and S3 are in e2e/apps/distributed-start.e2e-spec.ts.
/** A TCP port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describeWithPostgres('every service app starts on its own', () => {
  const services = [
    'gateway',
    'compat-protocols',
    'catalog',
    'tasks',
    'billing',
    'media',
    'runner',
    'webhooks',
  ];
  let scratch: ScratchDatabase;
  let dataDir: string;
  /** Where the apps that answer service calls listen (gateway, billing, media, catalog, tasks). */
  let ports: Record<string, string>;
  let addresses: string;
  /**
   * Apps running for the whole file: billing (the gateway's first start credits the demo account through it)
   * and catalog (tasks, runner and compat-protocols build their catalog from its document at start).
   */
  const background: Started[] = [];
  const BACKGROUND = ['billing', 'catalog'];
  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    scratch = await createScratchPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'gts-apps-'));
    ports = {
      gateway: String(await freePort()),
      billing: String(await freePort()),
      media: String(await freePort()),
      catalog: String(await freePort()),
      tasks: String(await freePort()),
    };
    addresses = Object.entries(ports)
      .map(([app, port]) => `${app}=127.0.0.1:${port}`)
      .join(',');
    for (const app of BACKGROUND) {
      background.push(
        await start(
          {
            DATA_DIR: dataDir,
            PORT: '0',
            LOG_LEVEL: 'warn',
            DATABASE_URL: scratch.url,
            SERVICE_ADDRESSES: addresses,
            SERVICE_CALL_PORT: ports[app]!,
          },
          join(root, 'dist', 'apps', app, 'src', 'main.js'),
        ),
      );
    }
  });
  afterAll(async () => {
    for (const app of background) app.child.kill('SIGTERM');
    await Promise.all(background.map((app) => app.exited));
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(services)('%s serves health and readiness, then drains on SIGTERM', async (service) => {
    const entry = join(root, 'dist', 'apps', service, 'src', 'main.js');
    const app = await start(
      {
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'warn',
        DATABASE_URL: scratch.url,
        SERVICE_ADDRESSES: addresses,
        // An app under test beside its background one started above: a port of its own.
        SERVICE_CALL_PORT: BACKGROUND.includes(service) ? '0' : (ports[service] ?? '0'),
      },
      entry,
    );
    try {
      expect(app.output()).toContain(`${service} (embedded mode) listening on`);
      expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
      expect((await fetch(`${app.baseUrl}/readyz`)).status).toBe(200);
      const openApi = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as {
        info: { version: string };
      };
      expect(openApi.info.version).toBe('1.0.0');
    } finally {
      app.child.kill('SIGTERM');
    }
    expect(await app.exited).toBe(0);
  });
});
