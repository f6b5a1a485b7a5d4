// `npm run test:browser`: the web console in a real Chromium (playwright-core), against the embedded app.
// Finds Chromium at CHROMIUM_PATH or /usr/bin/chromium (Debian's package), builds, then runs the browser suite
// (e2e/browser, its own Jest config). Without Chromium it says so in one line and fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(chromium)) {
  process.stderr.write(
    `test:browser: no Chromium at ${chromium} (install Debian's chromium package or set CHROMIUM_PATH)\n`,
  );
  process.exit(1);
}
await import('./build.mjs');
const jest = spawnSync(
  process.execPath,
  [
    '--experimental-vm-modules',
    '--no-warnings=ExperimentalWarning',
    join(root, 'node_modules/jest/bin/jest.js'),
    '-c',
    join(root, 'e2e/browser/jest.config.js'),
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium } },
);
process.exit(jest.status ?? 1);
