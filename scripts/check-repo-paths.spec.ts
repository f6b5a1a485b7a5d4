import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// The checker is plain CommonJS run by node in `npm run check`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkRepository, checkText } = require('./check-repo-paths.cjs') as {
  checkRepository(root: string): string[];
  checkText(root: string, file: string, text: string): { line: number; problem: string }[];
};

// Test data is assembled from pieces, so that this tracked file does not trip the check it tests.
const up = (n: number, rest: string): string => [...Array<string>(n).fill('..'), rest].join('/');
const SHARED = up(1, 'shared');
const WORK = ['', 'work', ''].join('/');
const SCRIPT_DIR = '$(dirname "$0")';
/** The source text `join(__dirname, '..', ... , <rest>)` with `n` parent segments. */
const joinUp = (n: number, rest: string): string =>
  `join(__dirname, ${[...Array<string>(n).fill("'..'"), rest].join(', ')})`;
const root = '/repo';
const problems = (file: string, text: string): string[] =>
  checkText(root, file, text).map((f) => `${f.line}: ${f.problem}`);

describe('check-repo-paths: a line of a tracked file', () => {
  it('names the sibling shared directory and the work directory wherever they appear', () => {
    expect(problems('docs/a.md', `see ${SHARED}/spec.md\nfine\nin ${WORK}main`)).toEqual([
      '1: refers to the shared directory beside the repository',
      "3: refers to the machine's work directory",
    ]);
  });

  it('follows markdown links from the file, and leaves URLs, anchors and links inside alone', () => {
    const text = [
      `[spec](${up(2, 'spec.md')})`,
      `[tasks](${up(1, 'tasks.md')}#states) [web](https://example.com/${up(3, 'x')}) [top](#top)`,
      `[readme](${up(1, 'README.md')})`,
    ].join('\n');
    expect(problems('docs/guide.md', text)).toEqual([`1: ${up(2, 'spec.md')} leads outside the repository`]);
  });

  it('follows relative imports, requires and file reads in code', () => {
    const text = [
      `import { x } from '${up(1, 'b')}';`,
      `const y = require("${up(4, 'elsewhere')}");`,
      `readFileSync(\`${up(3, 'README.md')}\`);`,
      `readFileSync('${up(4, 'x.json')}');`,
    ].join('\n');
    expect(problems('libs/a/src/f.ts', text)).toEqual([
      `2: ${up(4, 'elsewhere')} leads outside the repository`,
      `4: ${up(4, 'x.json')} leads outside the repository`,
    ]);
  });

  it("counts join(__dirname, '..') segments, allowing a built source its one extra level under dist/", () => {
    const line = joinUp(4, "'shared', name");
    expect(problems('libs/a/src/f.spec.ts', line)).toEqual([
      `1: ${up(4, 'shared')} leads outside the repository`,
    ]);
    expect(problems('libs/a/src/f.ts', line)).toEqual([]);
    expect(problems('libs/a/src/f.ts', joinUp(5, "'x'"))).toEqual([
      `1: ${up(5, 'x')} leads outside the repository`,
    ]);
  });

  it('follows dirname "$0" paths in shell scripts, and skips lint globs', () => {
    const text = `cd "${SCRIPT_DIR}/${up(2, '..')}"\ncd "${SCRIPT_DIR}/${up(1, '..')}"`;
    expect(problems('scripts/x/a.sh', text)).toEqual([`1: ./${up(2, '..')} leads outside the repository`]);
    expect(problems('eslint.config.mjs', `group: ['${up(2, '*/src/**')}']`)).toEqual([]);
  });
});

describe('check-repo-paths on a repository', () => {
  let repo: string;
  const write = (file: string, text: string | Buffer): void => {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    writeFileSync(join(repo, file), text);
  };
  const cli = (dir: string) =>
    spawnSync(process.execPath, [join(__dirname, 'check-repo-paths.cjs'), dir], { encoding: 'utf8' });

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'gts-paths-'));
    execFileSync('git', ['init', '-q'], { cwd: repo });
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('reports tracked files only, skips binaries, and exits 1 naming file and line', () => {
    write('docs/tasks.md', `# Tasks\n\nThe flow of \`${SHARED}/spec/service-spec.md\`.\n`);
    write('libs/a/src/v.spec.ts', `const V = ${joinUp(4, "'shared', 'v.json'")};\n`);
    write('data.bin', Buffer.from([0, 1, 2, ...Buffer.from(SHARED)]));
    execFileSync('git', ['add', '.'], { cwd: repo });
    write('untracked.md', `[x](${up(2, 'x.md')})`);

    expect(checkRepository(repo)).toEqual([
      'docs/tasks.md:3: refers to the shared directory beside the repository',
      `libs/a/src/v.spec.ts:1: ${up(4, 'shared/v.json')} leads outside the repository`,
    ]);
    const run = cli(repo);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('docs/tasks.md:3: refers to the shared directory beside the repository');
    expect(run.stderr).toContain('2 reference(s) outside the repository');
  });

  it('passes a repository that keeps to itself, and this repository', () => {
    write('docs/tasks.md', '# Tasks\n\nSee [the README](../README.md).\n');
    write('README.md', '# Readme\n');
    execFileSync('git', ['add', '.'], { cwd: repo });
    expect(checkRepository(repo)).toEqual([]);
    expect(cli(repo).status).toBe(0);
    const self = cli(join(__dirname, '..'));
    expect(self.stderr).toBe('');
    expect(self.status).toBe(0);
  });
});
