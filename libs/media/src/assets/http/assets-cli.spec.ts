import { newId } from '@gen/core';
import { startApp, type RunningApp } from '@gen/testing';
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ADMIN_TOKEN, TestAccounts, assetsTestModule } from '../testing/assets-test-app';
import { MemoryFilesPort } from '../testing/memory-files.port';

const root = join(__dirname, '..', '..', '..', '..', '..');
const cliMain = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');

interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The administration CLI (apps/cli, built) against the asset library's admin routes. */
describe('admin CLI: asset limits and characters', () => {
  const accounts = new TestAccounts();
  const files = new MemoryFilesPort();
  let running: RunningApp;
  let base: string[];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--quiet'], { cwd: root });
    running = await startApp(assetsTestModule(accounts, files));
    base = ['--url', running.baseUrl, '--admin-token', ADMIN_TOKEN];
  });
  afterAll(() => running.close());

  function cli(args: string[]): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(process.execPath, [cliMain, ...base, ...args], { cwd: root }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }
  async function ok(args: string[]): Promise<Record<string, unknown>> {
    const result = await cli(args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  it('shows and sets an account’s asset plan and limits', async () => {
    const accountId = newId('acc');
    accounts.addAccount(accountId);
    expect(await ok(['assets', 'limits', '--account', accountId])).toMatchObject({
      accountId,
      plan: 'free',
      assetCount: 0,
    });
    expect(
      await ok(['assets', 'set-limits', '--account', accountId, '--plan', 'pro', '--count', '3']),
    ).toMatchObject({ accountId, plan: 'pro', limits: { count: 3 } });
    expect(await ok(['assets', 'limits', '--account', accountId])).toMatchObject({
      plan: 'pro',
      limits: { count: 3 },
    });

    const refused = await cli([
      'assets',
      'set-limits',
      '--account',
      accountId,
      '--plan',
      'pro',
      '--bytes',
      'lots',
    ]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: { status: 400, code: 400 } });
    expect(JSON.parse(refused.stderr).error.message).toContain('bytes');
    expect(await ok(['assets', 'limits', '--account', accountId])).toMatchObject({ limits: { count: 3 } });
  });

  it('makes, lists and deletes characters with ordered images', async () => {
    const accountId = newId('acc');
    accounts.addAccount(accountId);
    const [a, b] = [files.add(accountId), files.add(accountId)];
    const made = await ok([
      'entities',
      'create',
      '--account',
      accountId,
      '--name',
      'Mira',
      '--images',
      `${b.uri}, ${a.uri}`,
    ]);
    expect(made).toMatchObject({ entityId: expect.stringMatching(/^ent_/), name: 'Mira' });
    expect((made['images'] as { uri: string }[]).map((i) => i.uri)).toEqual([b.uri, a.uri]);

    const listed = await ok(['entities', 'list', '--account', accountId, '--limit', '10']);
    expect(listed).toEqual({
      items: [{ ...made, images: (made['images'] as object[]).map(() => expect.any(Object)) }],
    });
    expect(
      await ok(['entities', 'delete', '--account', accountId, '--entity', made['entityId'] as string]),
    ).toEqual({
      entityId: made['entityId'],
      deleted: true,
    });
    expect(await ok(['entities', 'list', '--account', accountId])).toEqual({ items: [] });

    const foreign = files.add(newId('acc'));
    const refused = await cli([
      'entities',
      'create',
      '--account',
      accountId,
      '--name',
      'X',
      '--images',
      foreign.uri,
    ]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error.message).toContain('images.0');
    const usage = await cli(['entities', 'create', '--account', accountId, '--name', 'X']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--images');
  });
});
