// Runs in each test file's environment: the settings globalSetup resolved (services.js) must be present.
const { REQUIRED } = require('./services');

const missing = REQUIRED.filter((name) => !process.env[name]);
if (missing.length > 0)
  throw new Error(`e2e: ${missing.join(', ')} not set; run \`npm run services:up\` first`);
