import { spawnSync } from 'node:child_process';

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
