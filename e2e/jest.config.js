/**
 * The e2e suite (`npm run test:e2e`): adapters against the real services that `npm run services:up`
 * starts on this machine (KAFKA_BROKERS, DATABASE_URL, REDIS_URL, S3_ENDPOINT from the environment or
 * .env.services).
 */
const base = require('../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.e2e-spec.ts'],
  setupFiles: ['<rootDir>/e2e/services-env.js'],
  testTimeout: 120000,
  maxWorkers: 1,
};
