import { PGlite } from '@electric-sql/pglite';
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TEMPLATE = join(tmpdir(), 'gts-pglite-template-0.4');
let ready: Promise<void> | undefined;

/**
 * An initialised, empty PGlite cluster, made once per machine and reused: creating a cluster costs seconds,
 * copying one a fraction of a second. Each test app gets its own copy, so tests never share data.
 */
async function ensureTemplate(): Promise<void> {
  if (existsSync(join(TEMPLATE, 'PG_VERSION'))) return;
  const scratch = mkdtempSync(join(tmpdir(), 'gts-pglite-init-'));
  const db = new PGlite(join(scratch, 'pglite'));
  await db.waitReady;
  await db.close();
  try {
    renameSync(join(scratch, 'pglite'), TEMPLATE);
  } catch {
    // Another worker won the race: its template is as good as ours.
  }
  rmSync(scratch, { recursive: true, force: true });
}

/** Copies a fresh empty cluster to `dir` (the PGlite directory of an app under test). */
export async function seedPglite(dir: string): Promise<void> {
  ready ??= ensureTemplate();
  await ready;
  cpSync(TEMPLATE, dir, { recursive: true });
}
