// Generates the Prisma client of every service schema (libs/*/prisma/schema.prisma) that declares a generator:
// a service that queries its tables in SQL through DATABASE keeps its schema.prisma (the description of its tables
// that schema-drift.spec.ts checks the migrations against) without one, and gets no client.
// PRISMA_SCHEMA_ENGINE_BINARY=/bin/true keeps `prisma generate` from downloading an engine it never runs
// (queries use the bundled WASM query compiler). Never set it where a migrate command runs: see
// docs/architecture.md, "Migrations".
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const prisma = join(root, 'node_modules', 'prisma', 'build', 'index.js');
for (const lib of readdirSync(join(root, 'libs'))) {
  const schema = join(root, 'libs', lib, 'prisma', 'schema.prisma');
  if (!existsSync(schema) || !/^generator\s+\w+\s*\{/m.test(readFileSync(schema, 'utf8'))) continue;
  execFileSync(process.execPath, [prisma, 'generate', '--schema', schema], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  });
  console.error(`prisma: generated the client of libs/${lib}`);
}
