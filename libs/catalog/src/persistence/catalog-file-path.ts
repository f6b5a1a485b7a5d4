import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The environment variable naming the operators' catalog file. */
export const CATALOG_FILE_VARIABLE = 'CATALOG_FILE';

/**
 * The catalog file to load: `CATALOG_FILE` when set, else the catalog shipped in the repository
 * (`libs/catalog/catalog/models.json`), found beside the sources or, from the compiled `dist/` tree,
 * in the source tree (the build copies no JSON).
 */
export function catalogFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[CATALOG_FILE_VARIABLE];
  if (configured) return resolve(configured);
  const beside = resolve(__dirname, '..', '..', 'catalog', 'models.json');
  if (existsSync(beside)) return beside;
  // dist/libs/catalog/src/persistence -> <root>/libs/catalog/catalog/models.json
  return resolve(__dirname, '..', '..', '..', '..', '..', join('libs', 'catalog', 'catalog', 'models.json'));
}
