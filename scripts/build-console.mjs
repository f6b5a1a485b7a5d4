// The web console's build (libs/console-web/app, Vite) into dist/console-web, when a source changed since
// the last one, and the first screen's size check: the entry chunk and everything it imports statically,
// each gzipped at level 9, must stay under FIRST_SCREEN_LIMIT_BYTES, or the build fails.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const app = join(root, 'libs/console-web/app');
const out = join(root, 'dist/console-web');
export const FIRST_SCREEN_LIMIT_BYTES = 200 * 1024;

/** What the bundle is made of: the app, the console texts, the language rules and the locked dependencies. */
const inputs = [
  app,
  join(root, 'libs/core/src/i18n/console'),
  join(root, 'libs/core/src/i18n/language.ts'),
  join(root, 'package-lock.json'),
  join(root, 'scripts/build-console.mjs'),
];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules') latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

function stale() {
  const index = join(out, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return inputs.some((input) => newest(input) > built);
}

/** Gzip level 9 sizes of the entry chunk and its static imports (CSS included): what the first screen loads. */
export function firstScreenSize(bundle) {
  const chunks = new Map(bundle.map((item) => [item.fileName, item]));
  const entry = bundle.find((item) => item.type === 'chunk' && item.isEntry);
  const seen = new Set();
  const visit = (fileName) => {
    if (seen.has(fileName)) return;
    seen.add(fileName);
    const chunk = chunks.get(fileName);
    for (const imported of chunk?.imports ?? []) visit(imported);
    for (const css of chunk?.viteMetadata?.importedCss ?? []) seen.add(css);
  };
  visit(entry.fileName);
  const files = [...seen].map((fileName) => {
    const item = chunks.get(fileName);
    const source = item.type === 'chunk' ? item.code : item.source;
    return { file: fileName, gzipBytes: gzipSync(Buffer.from(source), { level: 9 }).length };
  });
  const scripts = files.filter((f) => f.file.endsWith('.js'));
  return {
    files,
    javascriptGzipBytes: scripts.reduce((sum, f) => sum + f.gzipBytes, 0),
    totalGzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}

export async function buildConsole({ quiet = false, force = false } = {}) {
  if (!force && !stale()) return null;
  const { build } = await import('vite');
  const result = await build({
    configFile: join(app, 'vite.config.mjs'),
    logLevel: quiet ? 'error' : 'warn',
  });
  const output = (Array.isArray(result) ? result[0] : result).output;
  const size = firstScreenSize(output);
  writeFileSync(join(root, 'dist/console-web-size.json'), `${JSON.stringify(size, null, 2)}\n`);
  if (size.javascriptGzipBytes > FIRST_SCREEN_LIMIT_BYTES) {
    throw new Error(
      `console: the first screen loads ${size.javascriptGzipBytes} bytes of gzipped JavaScript, over the ${FIRST_SCREEN_LIMIT_BYTES} limit`,
    );
  }
  if (!quiet)
    console.error(
      `build: console built to dist/console-web (first screen: ${size.javascriptGzipBytes} bytes of gzipped JavaScript)`,
    );
  return size;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  await buildConsole({ force: process.argv.includes('--force') });
}
