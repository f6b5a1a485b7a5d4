/**
 * The browser suite (`npm run test:browser`, not part of `npm test`): the web console in Chromium against the
 * embedded app started by each test file. scripts/test-browser.mjs finds Chromium and builds first.
 */
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/e2e/browser'],
  testMatch: ['**/*.browser-spec.ts'],
  globalSetup: undefined,
  testTimeout: 120000,
  maxWorkers: 1,
};
