import { startEmbedded, type Embedded } from './testing/embedded-harness';
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const cliMain = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');

interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliMain, ...args],
      { env: { ...process.env, ...env }, cwd: root },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('admin CLI, end to end against a running service', () => {
  let app: Embedded;
  let base: string[];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    app = await startEmbedded({ WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8' });
    base = ['--url', app.baseUrl, '--admin-token', app.boot.adminToken];
  });
  afterAll(() => app.close());

  async function ok(args: string[]): Promise<Record<string, unknown>> {
    const result = await cli([...base, ...args]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  async function balanceOf(apiKey: string): Promise<Record<string, unknown>> {
    const reply = await fetch(`${app.baseUrl}/api/v1/chat/credit`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    return ((await reply.json()) as { data: Record<string, unknown> }).data;
  }

  it('runs every command of the contract and each does what it prints', async () => {
    const { accountId } = (await ok([
      'accounts',
      'create',
      '--name',
      'Acme',
      '--credit',
      '12.50',
      '--group',
      'default',
      '--language',
      'ja',
    ])) as { accountId: string };
    expect(accountId).toMatch(/^acc_/);

    const key = (await ok([
      'keys',
      'create',
      '--account',
      accountId,
      '--name',
      'ci',
      '--daily-cap',
      '4.25',
    ])) as { keyId: string; apiKey: string };
    expect(key).toEqual({
      keyId: expect.stringMatching(/^key_/),
      apiKey: expect.stringMatching(/^gts_/),
      dailyCap: '4.25',
    });
    expect(await balanceOf(key.apiKey)).toMatchObject({
      available: '12.5',
      sources: { wallet: '12.5', credit: '0', grants: [] },
    });

    expect(await ok(['credit', 'add', '--account', accountId, '--amount', '0.75'])).toEqual({
      accountId,
      balance: '13.25',
    });
    expect(await ok(['credit', 'add', '--account', accountId, '--amount', '2', '--kind', 'promo'])).toEqual({
      accountId,
      balance: '15.25',
    });
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      await ok([
        'credit',
        'add',
        '--account',
        accountId,
        '--amount',
        '1',
        '--kind',
        'grant',
        '--model',
        'local/sketch',
        '--expires',
        expires,
      ]),
    ).toEqual({
      accountId,
      balance: '16.25',
    });
    const balance = await balanceOf(key.apiKey);
    expect(balance).toMatchObject({
      available: '16.25',
      held: '0',
      total: '16.25',
      sources: { wallet: '13.25', credit: '2' },
    });
    expect((balance['sources'] as { grants: unknown[] }).grants).toEqual([
      {
        id: expect.stringMatching(/^fund_/),
        model: 'local/sketch',
        available: '1',
        expiresAt: new Date(expires).toISOString(),
      },
    ]);

    const { secret } = (await ok(['signing-secret', 'rotate', '--account', accountId])) as { secret: string };
    expect(secret).toMatch(/^sk_sign_[0-9A-Za-z]{32}$/);
    const second = (await ok(['signing-secret', 'rotate', '--account', accountId])) as { secret: string };
    expect(second.secret).not.toBe(secret);

    const { token } = (await ok(['console-token', 'create', '--account', accountId])) as { token: string };
    expect(token).toMatch(/^gcs_/);

    const link = (await ok(['console-link', '--account', accountId])) as { url: string; expiresAt: string };
    expect(Object.keys(link).sort()).toEqual(['expiresAt', 'url']);
    expect(link.url).toMatch(new RegExp(`^${app.baseUrl}/console/sign-in#token=gcl_[0-9A-Za-z]{43}$`));
    const signIn = () =>
      fetch(`${app.baseUrl}/console/v1/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: new URL(link.url).hash.slice('#token='.length) }),
      });
    const first = await signIn();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { data: { accountId: string } }).data.accountId).toBe(accountId);
    expect((await signIn()).status).toBe(401);
    const unknown = await cli([...base, 'console-link', '--account', 'acc_01J0000000000000000000000Z']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ error: { status: 404, code: 404 } });

    expect(await ok(['groups', 'set', '--name', 'pro', '--multiplier', '0.85'])).toEqual({
      name: 'pro',
      multiplier: '0.85',
    });
    expect(
      await ok(['accounts', 'set', '--account', accountId, '--language', 'de', '--group', 'pro']),
    ).toEqual({ accountId });
    expect(await ok(['accounts', 'show', '--account', accountId])).toMatchObject({
      accountId,
      name: 'Acme',
      group: 'pro',
      language: 'de',
      hasSigningSecret: true,
    });

    expect(await ok(['keys', 'set-cap', '--key', key.keyId, '--daily-cap', '9'])).toMatchObject({
      keyId: key.keyId,
      dailyCap: '9',
      revoked: false,
    });
    expect(await ok(['keys', 'revoke', '--key', key.apiKey])).toEqual({ keyId: key.keyId, revoked: true });
    expect(await ok(['keys', 'list', '--account', accountId])).toEqual({
      items: [expect.objectContaining({ keyId: key.keyId, revoked: true, dailyCap: '9' })],
    });
  });

  it('lists the webhooks of a task and redelivers a callback or an endpoint message under the same id', async () => {
    const { accountId } = (await ok(['accounts', 'create', '--name', 'Hooks', '--credit', '1'])) as {
      accountId: string;
    };
    const { apiKey } = (await ok(['keys', 'create', '--account', accountId])) as { apiKey: string };
    await ok(['signing-secret', 'rotate', '--account', accountId]);
    const { token } = (await ok(['console-token', 'create', '--account', accountId])) as { token: string };
    // Receivers that are not there (nothing listens on 127.0.3.9): each attempt fails and waits 10 s for the next.
    const endpoint = await app.call('POST', '/console/v1/webhook-endpoints', {
      headers: { authorization: `Bearer ${token}` },
      body: { url: 'https://127.0.3.9/hook', enabledEvents: ['task.completed'] },
    });
    expect(endpoint.status).toBe(200);
    const endpointId = (endpoint.json['data'] as { id: string }).id;
    const created = await app.call('POST', '/api/v1/jobs/createTask', {
      headers: { authorization: `Bearer ${apiKey}` },
      body: {
        model: 'local/sketch',
        input: { prompt: 'cli', width: 64, height: 64 },
        callBackUrl: 'http://127.0.3.9/callback',
      },
    });
    expect(created.status).toBe(202);
    const taskId = (created.json['data'] as { taskId: string }).taskId;

    type Listed = { items: Record<string, unknown>[]; messages: Record<string, unknown>[] };
    const attemptsAtLeast = async (n: number): Promise<Listed> => {
      for (let i = 0; ; i += 1) {
        const listed = (await ok(['webhooks', 'deliveries', '--task', taskId])) as Listed;
        const counts = [...listed.items, ...listed.messages].map((d) => d['attempts'] as number);
        if ((counts.length === 2 && Math.min(...counts) >= n) || i === 50) return listed;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const listed = await attemptsAtLeast(1);
    expect(listed).toEqual({
      items: [
        expect.objectContaining({
          deliveryId: expect.stringMatching(/^whd_/),
          taskId,
          state: 'pending',
          attempts: 1,
          lastOutcome: 'connection',
          attemptLog: [expect.objectContaining({ n: 1, outcome: 'connection' })],
        }),
      ],
      messages: [
        expect.objectContaining({
          messageId: expect.stringMatching(/^msg_/),
          taskId,
          endpointId,
          eventType: 'task.succeeded',
          state: 'pending',
          attempts: 1,
          lastOutcome: 'connection',
        }),
      ],
    });
    const deliveryId = listed.items[0]!['deliveryId'] as string;
    const messageId = listed.messages[0]!['messageId'] as string;
    expect(await ok(['webhooks', 'redeliver', '--delivery', deliveryId])).toMatchObject({
      deliveryId,
      state: 'pending',
    });
    expect(await ok(['webhooks', 'redeliver', '--delivery', messageId])).toMatchObject({
      messageId,
      endpointId,
      state: 'pending',
    });
    // Both are attempted again at once, long before their scheduled retry, under the same ids.
    const again = await attemptsAtLeast(2);
    expect([again.items[0]!['deliveryId'], again.items[0]!['attempts']]).toEqual([deliveryId, 2]);
    expect([again.messages[0]!['messageId'], again.messages[0]!['attempts']]).toEqual([messageId, 2]);

    for (const unknown of ['whd_01J0000000000000000000000Z', 'msg_01J0000000000000000000000Z']) {
      const result = await cli([...base, 'webhooks', 'redeliver', '--delivery', unknown]);
      expect([result.code, result.stdout]).toEqual([1, '']);
      expect(JSON.parse(result.stderr).error.code).toBe(404);
    }
    // Not shaped like a delivery or message id: refused before any lookup.
    const malformed = await cli([...base, 'webhooks', 'redeliver', '--delivery', 'whd_unknown']);
    expect([malformed.code, JSON.parse(malformed.stderr).error.code]).toEqual([1, 400]);
  });

  it('reads the URL and token from DATA_DIR/bootstrap.json when not given', async () => {
    const result = await cli(['accounts', 'show', '--account', app.boot.accountId], {
      DATA_DIR: app.dataDir,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ accountId: app.boot.accountId, name: 'Demo' });
  });

  it('exits non-zero with one JSON error on stderr and nothing on stdout', async () => {
    const cases: [string[], number, string | number][] = [
      [[...base, 'accounts', 'create'], 2, 'usage'],
      [[...base, 'frobnicate', 'now'], 2, 'usage'],
      [[...base, 'keys', 'revoke', '--key', 'key_0000000000000000'], 1, 404],
      [[...base, 'keys', 'revoke', '--key', 'key_unknown'], 1, 400],
      [[...base, 'credit', 'add', '--account', app.boot.accountId, '--amount', '-1'], 1, 400],
      [
        [...base, 'credit', 'add', '--account', app.boot.accountId, '--amount', '1', '--kind', 'grant'],
        1,
        400,
      ],
      [[...base, 'accounts', 'create', '--name', 'x', '--group', 'nope'], 1, 400],
      [[...base, 'credit', 'add', '--account', app.boot.accountId, '--amount', '1000000000'], 1, 400],
      [[...base, 'accounts', 'create', '--name', 'x', '--credit', '1e3'], 1, 400],
      [[...base, 'accounts', 'create', '--name', 'x', '--language', 'tlh'], 1, 400],
      [
        [
          '--url',
          app.baseUrl,
          '--admin-token',
          'wrong-token',
          'accounts',
          'show',
          '--account',
          app.boot.accountId,
        ],
        1,
        401,
      ],
      [[...base, 'keys', 'create', '--account', app.boot.accountId, '--bogus', '1'], 2, 'usage'],
      [[...base, 'webhooks', 'deliveries'], 2, 'usage'],
      [[...base, 'webhooks', 'redeliver', '--task', 'job_1'], 2, 'usage'],
    ];
    for (const [args, exit, code] of cases) {
      const result = await cli(args, { DATA_DIR: '/nonexistent' });
      expect({ args, exit: result.code, stdout: result.stdout }).toEqual({ args, exit, stdout: '' });
      const error = (JSON.parse(result.stderr) as { error: { code: unknown; message: string } }).error;
      expect(error.code).toBe(code);
      expect(error.message.length).toBeGreaterThan(0);
    }
  });

  it('changes nothing when a command fails', async () => {
    const before = await balanceOf(app.boot.apiKey);
    await cli([
      ...base,
      'credit',
      'add',
      '--account',
      app.boot.accountId,
      '--amount',
      '1',
      '--kind',
      'wallet',
      '--model',
      'local/sketch',
    ]);
    await cli([...base, 'credit', 'add', '--account', app.boot.accountId, '--amount', '1.0000000001']);
    await cli([
      ...base,
      'credit',
      'add',
      '--account',
      app.boot.accountId,
      '--amount',
      '1',
      '--expires',
      '2001-01-01T00:00:00Z',
    ]);
    expect(await balanceOf(app.boot.apiKey)).toEqual(before);
  });
});
