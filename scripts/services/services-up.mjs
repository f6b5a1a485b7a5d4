// `npm run services:up`: starts (first time: fetches) the real services the distributed mode needs on this
// machine, idempotently, waits until each is ready, prints one JSON object of the settings the apps read,
// and writes the same as .env.services. See README, "Distributed mode on this machine".
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const run = (script) => execFileSync('bash', [join(here, script)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

const settings = { DATABASE_URL: run('postgres-up.sh').trim() };
for (const script of ['redis-up.sh', 'kafka-up.sh', 's3-up.sh']) {
  for (const line of run(script).split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) settings[line.slice(0, eq)] = line.slice(eq + 1);
  }
}
writeFileSync(join(root, '.env.services'), Object.entries(settings).map(([k, v]) => `${k}=${v}\n`).join(''));
process.stdout.write(`${JSON.stringify(settings)}\n`);
