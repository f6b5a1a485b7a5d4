// Jest globalSetup of the e2e suite: finds or starts the services (see services.js) and says which path ran.
const { writeFileSync } = require('node:fs');
const { pathFile, resolveServices } = require('./services');

module.exports = async function globalSetup() {
  const { path, stop } = await resolveServices(process.env);
  process.stdout.write(`\ne2e services: ${path}\n`);
  writeFileSync(pathFile, `${path}\n`);
  globalThis.__E2E_SERVICES_STOP__ = stop;
};
