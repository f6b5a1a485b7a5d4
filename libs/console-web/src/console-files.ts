import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One built file, held in memory with its gzip form (the whole console is a few hundred kilobytes). */
export interface ConsoleFile {
  readonly body: Buffer;
  /** Present when compressing pays (text types); sent to clients that accept gzip. */
  readonly gzip?: Buffer;
  readonly contentType: string;
  readonly etag: string;
}

/** The built console: `index.html` and the content-hashed files under `assets/`, by URL path below /console/. */
export interface ConsoleFiles {
  readonly index: ConsoleFile;
  readonly assets: ReadonlyMap<string, ConsoleFile>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

/**
 * Where `npm run build` writes the console (scripts/build.mjs runs Vite): `dist/console-web` of this
 * checkout, found from this file whether it runs compiled (dist/libs/console-web/src) or from source (tests).
 */
export function defaultConsoleDir(): string {
  const compiled = __dirname.split(sep).includes('dist');
  return compiled
    ? resolve(__dirname, '../../../console-web')
    : resolve(__dirname, '../../../dist/console-web');
}

function walk(dir: string, files: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, files);
    else files.push(path);
  }
  return files;
}

function load(path: string): ConsoleFile {
  const body = readFileSync(path);
  const extension = extname(path);
  const gzip = COMPRESSIBLE.has(extension) && body.length > 256 ? gzipSync(body, { level: 9 }) : undefined;
  return {
    body,
    ...(gzip && gzip.length < body.length ? { gzip } : {}),
    contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}

/** Reads the built console, or returns null when `dir` has no `index.html` (not built). */
export function loadConsoleFiles(dir: string): ConsoleFiles | null {
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const assets = new Map<string, ConsoleFile>();
  for (const path of walk(dir)) {
    const name = relative(dir, path).split(sep).join('/');
    if (name !== 'index.html' && !name.endsWith('.map')) assets.set(name, load(path));
  }
  return { index: load(indexPath), assets };
}
