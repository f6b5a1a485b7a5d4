import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import { readFileSync } from 'node:fs';

let loaded: Promise<void> | undefined;

/** The part of the WebAssembly global used here (the project's TypeScript lib does not declare it). */
declare const WebAssembly: {
  instantiate(
    bytes: Buffer,
    imports: Record<string, unknown>,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
};

/** Loads Prisma's schema engine (WASM build from npm): the engine binary cannot be downloaded here. */
function load(): Promise<void> {
  loaded ??= (async () => {
    const wasm = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg').replace(/\.js$/, '.wasm');
    const { instance } = await WebAssembly.instantiate(readFileSync(wasm), { './schema_engine_bg.js': bg });
    (bg as unknown as { __wbg_set_wasm(exports: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  })();
  return loaded;
}

/**
 * The SQL Prisma would run to turn the live database (through `adapter`) into what `schema.prisma` declares:
 * empty when the migrations and the schema agree. An internal, undocumented API of Prisma (the schema
 * engine's WebAssembly build, as used offline by Prisma 7's own CLI), used by tests only.
 */
export async function prismaDrift(schemaFile: string, adapter: unknown): Promise<string> {
  await load();
  const content = readFileSync(schemaFile, 'utf8');
  const files = [{ path: 'schema.prisma', content }];
  const factory = bindMigrationAwareSqlAdapterFactory(
    adapter as Parameters<typeof bindMigrationAwareSqlAdapterFactory>[0],
  );
  const engine = await bg.SchemaEngine.new(
    { datamodels: [['schema.prisma', content]] },
    () => undefined,
    factory,
  );
  try {
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: '.' },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return (result.stdout ?? '').replace(/^-- This is an empty migration\.\s*$/m, '').trim();
  } finally {
    engine.free();
  }
}
