/**
 * The e2e suite (`npm run test:e2e`): adapters and apps against real services: those the environment names,
 * containers when a Docker engine is reachable, or those `npm run services:up` started (see services.js).
 */
const base = require('../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/e2e/global-setup.js',
  globalTeardown: '<rootDir>/e2e/global-teardown.js',
  setupFiles: ['<rootDir>/e2e/services-env.js'],
  testTimeout: 120000,
  maxWorkers: 1,
};
