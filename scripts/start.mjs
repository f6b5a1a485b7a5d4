// `npm start` and `npm run cli`: build (in this process: SWC runs as a library, no child process), then run the
// app's compiled main in this same process. npm runs this file as its direct child, so the SIGTERM or SIGINT
// that npm forwards reaches the server itself, which drains and exits (an `&&` chain in the npm script left
// the server behind a shell that died on the signal).
// Usage: node scripts/start.mjs <app> [--quiet] [-- app arguments]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [app, ...rest] = process.argv.slice(2);
if (!app || !/^[a-z-]+$/.test(app)) {
  process.stderr.write('usage: node scripts/start.mjs <app> [--quiet] [arguments]\n');
  process.exit(2);
}
await import('./build.mjs');
// The app reads its own arguments from process.argv.slice(2), as when started as `node dist/.../main.js`.
const main = join(root, 'dist', 'apps', app, 'src', 'main.js');
const args = rest[0] === '--quiet' ? rest.slice(1) : rest;
process.argv = [process.argv[0], main, ...args];
createRequire(import.meta.url)(main);
