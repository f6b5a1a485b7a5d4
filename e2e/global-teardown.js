// Stops the containers globalSetup started (nothing when the services came from the environment or scripts).
module.exports = async function globalTeardown() {
  await globalThis.__E2E_SERVICES_STOP__?.();
};
