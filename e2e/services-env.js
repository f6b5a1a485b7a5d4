// Fills the service settings from .env.services (written by `npm run services:up`) where the environment
// does not set them, and says which path ran.
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const file = join(__dirname, '..', '.env.services');
if (existsSync(file)) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0 && process.env[line.slice(0, eq)] === undefined)
      process.env[line.slice(0, eq)] = line.slice(eq + 1);
  }
}
if (!process.env.KAFKA_BROKERS)
  throw new Error('e2e: KAFKA_BROKERS is not set; run `npm run services:up` first');
