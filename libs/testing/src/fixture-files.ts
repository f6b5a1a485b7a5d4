import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `libs/testing/fixtures`: files kept byte for byte as their source published them (see its README). */
const FIXTURES = join(__dirname, '..', 'fixtures');

/** The text of one fixture file, e.g. `webhook-signatures.json` (the specification's signature vectors). */
export function readFixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}
