import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalog } from './load-catalog';

/** The catalog entries docs/catalog.md shows operators: each one must load as written. */
function documentedEntries(): Record<string, unknown>[] {
  const text = readFileSync(join(__dirname, '../../../../docs/catalog.md'), 'utf8');
  const blocks = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as unknown);
  return blocks.flatMap((block) => {
    const value = block as { models?: Record<string, unknown>[] };
    return value.models ?? [block as Record<string, unknown>];
  });
}

describe('the catalog entries shown in docs/catalog.md', () => {
  it('load as written, the self-hosted ones included', () => {
    const entries = documentedEntries();
    expect(entries.map((e) => e['id'])).toEqual(
      expect.arrayContaining(['local/sketch', 'acme/llama-3.1-8b/chat', 'acme/sdxl']),
    );
    for (const entry of entries) {
      expect({ id: entry['id'], loads: loads(entry) }).toEqual({ id: entry['id'], loads: true });
    }
  });
});

function loads(entry: Record<string, unknown>): true | string {
  try {
    buildCatalog({ version: 1, models: [entry] });
    return true;
  } catch (error) {
    return (error as Error).message;
  }
}
