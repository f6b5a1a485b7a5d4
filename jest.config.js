/**
 * The unit and HTTP suite (`npm test`): every `*.spec.ts` beside the code, compiled by SWC.
 * Tests that need PostgreSQL use TEST_DATABASE_URL (default: the machine's server, database `test`), those that
 * need Redis TEST_REDIS_URL; the global setup starts them or has those tests skipped, saying so in one line.
 */
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = `<rootDir>/${target}`;
}

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/scripts', '<rootDir>/deploy'],
  testMatch: ['**/*.spec.ts'],
  moduleNameMapper,
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  globalSetup: '<rootDir>/scripts/test-services.cjs',
  testTimeout: 30000,
  maxWorkers: 2,
  // A worker that grew past this after a test file is replaced: under --experimental-vm-modules each file's
  // module registry stays reachable, and two workers reached 5 GB each, starving the machine of memory.
  workerIdleMemoryLimit: '1500MB',
};
