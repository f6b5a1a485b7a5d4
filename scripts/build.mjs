// Compiles every TypeScript source of the workspace to CommonJS under dist/ with SWC, rewriting the
// `@gen/*` path aliases of tsconfig.base.json to relative requires so that plain `node` runs the output.
// Files whose output is newer than their source are skipped, so a warm build takes a fraction of a second.
import { transformFile } from '@swc/core';
import {
  readFileSync,
  mkdirSync,
  writeFileSync,
  statSync,
  readdirSync,
  copyFileSync,
  existsSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { buildConsole } from './build-console.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const out = join(root, 'dist');
const quiet = process.argv.includes('--quiet');
const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));

function walk(dir, files = []) {
  if (!existsSync(dir)) return files;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(path, files);
    } else files.push(path);
  }
  return files;
}

const sourceRoots = [
  ...readdirSync(join(root, 'apps')).map((a) => join(root, 'apps', a, 'src')),
  ...readdirSync(join(root, 'libs')).map((l) => join(root, 'libs', l, 'src')),
  join(root, 'bench'),
];
const sources = sourceRoots
  .flatMap((dir) => walk(dir))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.endsWith('.d.ts'));
// Every migrations folder of a library's prisma/ (a library may own more than one schema, each with its own).
const assets = readdirSync(join(root, 'libs')).flatMap((l) => {
  const prisma = join(root, 'libs', l, 'prisma');
  return walk(prisma).filter((f) => relative(prisma, f).split(sep).includes('migrations'));
});

function stale(src, dest) {
  return !existsSync(dest) || statSync(dest).mtimeMs < statSync(src).mtimeMs;
}

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    baseUrl: root,
    paths: compilerOptions.paths,
    keepClassNames: true,
  },
  module: { type: 'commonjs', strictMode: true },
  sourceMaps: true,
  swcrc: false,
  configFile: false,
};

let compiled = 0;
await Promise.all(
  sources.map(async (src) => {
    const dest = join(out, relative(root, src)).replace(/\.ts$/, '.js');
    if (!stale(src, dest)) return;
    const { code, map } = await transformFile(src, {
      ...swcOptions,
      filename: src,
      sourceFileName: relative(dirname(dest), src),
    });
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, `${code}\n//# sourceMappingURL=${dest.split('/').pop()}.map\n`);
    if (map) writeFileSync(`${dest}.map`, map);
    compiled += 1;
  }),
);
for (const src of assets) {
  const dest = join(out, relative(root, src));
  if (!stale(src, dest)) continue;
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(src, dest);
}
if (!quiet) console.error(`build: ${compiled} of ${sources.length} files compiled to dist/`);
// The web console's pages (Vite), served at /console by libs/console-web: rebuilt when their sources changed.
await buildConsole({ quiet });
