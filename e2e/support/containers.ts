import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './app-process';

const version = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;
/** The app image `npm run images:build` makes. */
export const APP_IMAGE = `localhost/generation-service:${version}`;

/** podman or docker, whichever holds `image` (built by `npm run images:build`); null when none does. */
function engineWithImage(image: string): string | null {
  for (const engine of ['podman', 'docker']) {
    const probe = spawnSync(engine, ['image', 'inspect', image, '--format', '{{.Id}}'], { timeout: 20_000 });
    if (probe.status === 0) return engine;
  }
  return null;
}

/**
 * The engine that holds `image`, and `describe` to run the tests of it, or `describe.skip` where no engine holds
 * it (said once). CI builds the images first and sets CONTAINERS=required: there a missing one fails instead.
 */
export function withImage(image: string): { engine: string | null; describe: jest.Describe } {
  const engine = engineWithImage(image);
  if (!engine && process.env['CONTAINERS'] === 'required')
    throw new Error(`CONTAINERS=required but no podman or docker holds ${image} (npm run images:build)`);
  if (!engine) console.log(`${image}: skipped (no podman or docker holds it; npm run images:build makes it)`);
  return { engine, describe: engine ? describe : describe.skip };
}

/**
 * The file at `path` in container `name`, once it exists: a started app writes the demo account's
 * bootstrap.json just after it starts to listen, so its health check can answer a moment before the file is there.
 */
export async function fileIn(
  engine: string,
  name: string,
  path: string,
  timeoutMs = 10_000,
): Promise<string> {
  const started = Date.now();
  for (;;) {
    const read = spawnSync(engine, ['exec', name, 'cat', path], { encoding: 'utf8' });
    if (read.status === 0) return read.stdout;
    if (Date.now() - started > timeoutMs) throw new Error(`${path} not in ${name} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs the app image `image` as container `name` in embedded mode on the host's network, on `databaseUrl`, with
 * `env` besides; resolves with its base URL once `/healthz` answers 200 (its logs in the error after 90 s).
 */
export async function runEmbeddedImage(
  engine: string,
  image: string,
  name: string,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ base: string; healthyMs: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const settings = { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, ...env };
  const run = spawnSync(
    engine,
    [
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'host',
      ...Object.entries(settings).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
      image,
      'embedded',
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`${engine} run ${image} failed: ${run.stderr}`);
  const started = Date.now();
  for (;;) {
    const healthy = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { base, healthyMs: Date.now() - started };
    if (Date.now() - started > 90_000) {
      const logs = spawnSync(engine, ['logs', name], { encoding: 'utf8' });
      throw new Error(`not healthy in 90 s:\n${logs.stdout}${logs.stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Whether `npm run start:containers` can run here: an engine holds the app image and its compose tool answers
 * (podman-compose, or `docker compose`). Said once when not; with CONTAINERS=required (CI) a missing one throws.
 */
export function composeFleetAvailable(): boolean {
  const { engine } = withImage(APP_IMAGE);
  if (!engine) return false;
  const probe =
    engine === 'podman'
      ? spawnSync('podman-compose', ['version'], { stdio: 'ignore' })
      : spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' });
  if (probe.status === 0) return true;
  const tool = engine === 'podman' ? 'podman-compose' : 'docker compose';
  if (process.env['CONTAINERS'] === 'required')
    throw new Error(`CONTAINERS=required but ${tool} does not answer`);
  console.log(`start:containers: skipped (${tool} does not answer)`);
  return false;
}

/** The names of compose project `project`'s containers (or volumes), as the engine lists them now. */
export function projectContainers(engine: string, project: string, what: 'ps' | 'volume' = 'ps'): string[] {
  const args =
    what === 'ps'
      ? ['ps', '-a', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.Names}}']
      : ['volume', 'ls', '--format', '{{.Name}}'];
  const out = spawnSync(engine, args, { encoding: 'utf8' }).stdout ?? '';
  const names = out.split('\n').filter(Boolean);
  return what === 'ps' ? names : names.filter((name) => name.startsWith(`${project}_`));
}
