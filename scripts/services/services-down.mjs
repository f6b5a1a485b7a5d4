// `npm run services:down`: stops what services:up started (Kafka, S3Proxy), by recorded pid, and waits for
// each to exit. The machine's own PostgreSQL and Redis keep running.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const state = process.env.SERVICES_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.services');
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
for (const name of ['kafka', 's3proxy']) {
  const file = join(state, `${name}.pid`);
  if (!existsSync(file)) continue;
  const pid = Number(readFileSync(file, 'utf8'));
  if (alive(pid)) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 30_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    console.error(`${name}: stopped (pid ${pid})`);
  }
  rmSync(file, { force: true });
}
