#!/usr/bin/env node
// Part of `npm run check`: fails when a tracked file reads or links a path outside the repository, so a fresh
// clone with nothing beside it keeps working. It reports, per file and line:
// - any mention of the sibling `shared` directory (dot-dot slash shared) or of the machine's work directory;
// - a relative path that climbs above the repository root: markdown link targets, string literals starting
//   with ./ or ../ (imports, requires, file reads), `join(__dirname, '..', ...)`-style segments, and shell
//   `$(dirname "$0")/..` paths.
// Usage: node scripts/check-repo-paths.cjs [repository root]
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { dirname, extname, isAbsolute, join, relative, resolve, sep } = require('node:path');

/** Spelled in pieces so that this file does not report itself. */
const FORBIDDEN = [
  { pattern: new RegExp(['\\.\\.', 'shared'].join('/')), what: 'the shared directory beside the repository' },
  { pattern: new RegExp(['', 'work', ''].join('/')), what: "the machine's work directory" },
];
const CODE = new Set(['.ts', '.js', '.mjs', '.cjs', '.mts', '.cts', '.json', '.sh', '.yml', '.yaml']);
const SKIP = new Set(['package-lock.json']);
/** The sources scripts/build.mjs compiles to the same path under dist/ (specs are not built). */
const BUILT = /^(?:(?:apps|libs)\/[^/]+\/src\/|bench\/)(?!.*\.spec\.ts$).*\.ts$/;

/** True when `target`, resolved from `fromDir`, lies outside `root`. */
function climbsOut(root, fromDir, target) {
  const rel = relative(root, resolve(fromDir, target));
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** Markdown link and image targets that are relative paths. */
function* markdownTargets(line) {
  for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1].split('#')[0];
    if (target && !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('/')) yield target;
  }
}

/** Relative-path string literals (`'../x'`, `"./y"`, `` `../z` ``) in code; globs (lint patterns) aside. */
function* literalTargets(line) {
  for (const m of line.matchAll(/(['"`])(\.{1,2}\/[^'"`$*]*)\1/g)) yield m[2];
}

/** join or resolve of __dirname (or import.meta.dirname) and string literals: those literal segments joined. */
function* dirnameJoins(line) {
  const call = /\b(?:join|resolve)\(\s*(?:__dirname|import\.meta\.dirname)\s*,([^)]*)\)/g;
  for (const m of line.matchAll(call)) {
    const parts = [];
    for (const arg of m[1].split(',')) {
      const literal = /^\s*(['"`])([^'"`$]*)\1\s*$/.exec(arg);
      if (!literal) break;
      parts.push(literal[2]);
    }
    if (parts.length) yield join(...parts);
  }
}

/** `$(dirname "$0")/../..` and `$(dirname "${BASH_SOURCE[0]}")/..` in shell scripts. */
function* shellTargets(line) {
  const pattern = /\$\(\s*dirname\s+"?\$\{?(?:0|BASH_SOURCE\[0\])\}?"?\s*\)((?:\/[^\s"')]*)?)/g;
  for (const m of line.matchAll(pattern)) yield `.${m[1]}`;
}

/** The findings of one file's text: `{ line, problem }`, in line order. */
function checkText(root, file, text) {
  const findings = [];
  const fromDir = dirname(join(root, file));
  const ext = extname(file);
  text.split('\n').forEach((line, index) => {
    for (const { pattern, what } of FORBIDDEN) {
      if (pattern.test(line)) findings.push({ line: index + 1, problem: `refers to ${what}` });
    }
    const fromSource =
      ext === '.md'
        ? [...markdownTargets(line)]
        : CODE.has(ext)
          ? [...literalTargets(line), ...shellTargets(line)]
          : [];
    const fromRuntime = CODE.has(ext) ? [...dirnameJoins(line)] : [];
    const out = (target) => climbsOut(root, fromDir, target);
    // `__dirname` of a built source (scripts/build.mjs) may also be its mirror under dist/: either may hold.
    const outFromBoth = (target) =>
      out(target) && (!BUILT.test(file) || climbsOut(root, join(root, 'dist', dirname(file)), target));
    for (const target of [...fromSource.filter(out), ...fromRuntime.filter(outFromBoth)]) {
      findings.push({ line: index + 1, problem: `${target} leads outside the repository` });
    }
  });
  return findings;
}

/** Every finding in the tracked files of the repository at `root`, as `file:line: problem` strings. */
function checkRepository(root) {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && !SKIP.has(file.split('/').pop()));
  const problems = [];
  for (const file of files) {
    let buffer;
    try {
      buffer = readFileSync(join(root, file));
    } catch {
      continue; // deleted in the work tree
    }
    if (buffer.includes(0)) continue; // binary
    for (const f of checkText(root, file, buffer.toString('utf8'))) {
      problems.push(`${file}:${f.line}: ${f.problem}`);
    }
  }
  return problems;
}

module.exports = { checkRepository, checkText };

if (require.main === module) {
  const root = resolve(process.argv[2] ?? join(__dirname, '..'));
  const problems = checkRepository(root);
  if (problems.length > 0) {
    process.stderr.write(
      `${problems.join('\n')}\n${problems.length} reference(s) outside the repository: a fresh clone has ` +
        'nothing beside it. Keep what is needed inside the repository (e.g. libs/testing/fixtures).\n',
    );
    process.exit(1);
  }
  process.stdout.write('check-repo-paths: every tracked file stays inside the repository\n');
}
