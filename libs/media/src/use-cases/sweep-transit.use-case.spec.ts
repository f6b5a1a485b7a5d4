import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEDIA_INPUT_TRANSIT_PREFIX } from '@gen/contracts';
import { LocalObjectStorage } from '@gen/storage';
import { SweepTransitUseCase, TRANSIT_RETENTION_MS } from './sweep-transit.use-case';

describe('retention of media inputs in transit', () => {
  const directory = mkdtempSync(join(tmpdir(), 'gts-transit-'));
  const storage = new LocalObjectStorage({
    directory,
    baseUrl: 'http://127.0.0.1:1',
    secret: randomBytes(32),
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** An object written `ageMs` ago (its modification time set back). */
  async function written(key: string, ageMs: number): Promise<void> {
    await storage.put(key, Buffer.from('bytes'), 'image/png');
    const then = new Date(Date.now() - ageMs);
    await utimes(join(directory, ...key.split('/')), then, then);
  }

  it('removes inputs in transit older than an hour, and nothing else', async () => {
    const stale = `${MEDIA_INPUT_TRANSIT_PREFIX}stale-1`;
    const staler = `${MEDIA_INPUT_TRANSIT_PREFIX}stale-2`;
    const fresh = `${MEDIA_INPUT_TRANSIT_PREFIX}fresh`;
    const file = 'files/acc_1/fil_old';
    await written(stale, TRANSIT_RETENTION_MS + 60_000);
    await written(staler, 3 * TRANSIT_RETENTION_MS);
    await written(fresh, TRANSIT_RETENTION_MS - 60_000);
    await written(file, 10 * TRANSIT_RETENTION_MS);

    const sweep = new SweepTransitUseCase(storage, { now: () => new Date() }, null);
    expect(await sweep.execute()).toBe(2);
    expect(await storage.head(stale)).toBeNull();
    expect(await storage.head(staler)).toBeNull();
    expect(await storage.head(fresh)).not.toBeNull();
    expect(await storage.head(file)).not.toBeNull();
    expect(await sweep.execute()).toBe(0);
  });

  it('finds nothing to do when nothing was ever in transit', async () => {
    const empty = new LocalObjectStorage({
      directory: join(directory, 'empty'),
      baseUrl: 'http://127.0.0.1:1',
      secret: randomBytes(32),
    });
    expect(await new SweepTransitUseCase(empty, { now: () => new Date() }, null).execute()).toBe(0);
  });
});
