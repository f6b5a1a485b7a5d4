// Jest global setup of `npm test`: makes sure the PostgreSQL and Redis the tests use answer, starting the
// machine's own (scripts/services/*-up.sh) when their URL is the default local one. What still does not
// answer is named on ONE line, and the tests that need it are skipped: the environment variables
// TEST_POSTGRES_MISSING / TEST_REDIS_MISSING carry the reason to the workers (see libs/testing/src/databases.ts).
// With TEST_SERVICES=required (CI), a missing service fails the run instead.
const { execFile } = require('node:child_process');
const { connect } = require('node:net');
const { join } = require('node:path');

const PROBE_MS = 3000;
const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/test';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Where a URL points, for messages: host and port, never credentials. */
function where(url, defaultPort) {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || defaultPort}`;
  } catch {
    return 'an unparsable URL';
  }
}

/** Resolves undefined when PostgreSQL answers `SELECT 1` at `url`, else the reason. */
async function probePostgres(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: PROBE_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.code || String(error) : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Resolves undefined when Redis answers PING at `url`, else the reason. */
function probeRedis(url) {
  return new Promise((resolve) => {
    let u;
    try {
      u = new URL(url);
    } catch {
      resolve('unparsable URL');
      return;
    }
    if (u.protocol !== 'redis:') {
      resolve(undefined); // rediss:// and others: trust the setting, the specs will say more
      return;
    }
    const socket = connect({ host: u.hostname, port: Number(u.port || 6379) });
    let answer = '';
    const done = (reason) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(PROBE_MS, () => done(`no answer within ${PROBE_MS} ms`));
    socket.on('error', (error) => done(error.message));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG') ? undefined : `answered ${answer.trim()}`);
    });
  });
}

/** Runs one of scripts/services/*-up.sh; resolves when it ended, whatever it said. */
function runUpScript(name) {
  return new Promise((resolve) => {
    execFile('bash', [join(__dirname, 'services', name)], { timeout: 40_000 }, () => resolve());
  });
}

/** Probes a service, and when it does not answer at its default local URL, starts it once and probes again. */
async function ensure(probe, url, isDefault, script) {
  const reason = await probe(url);
  if (reason === undefined || !isDefault) return reason;
  await runUpScript(script);
  return probe(url);
}

module.exports = async function testServices() {
  if (process.env['TEST_SERVICES'] === 'none') {
    process.env['TEST_POSTGRES_MISSING'] = 'PostgreSQL (TEST_SERVICES=none)';
    process.env['TEST_REDIS_MISSING'] = 'Redis (TEST_SERVICES=none)';
  } else {
    const databaseUrl = process.env['TEST_DATABASE_URL'] ?? DEFAULT_DATABASE_URL;
    const redisUrl = process.env['TEST_REDIS_URL'] ?? DEFAULT_REDIS_URL;
    const [postgres, redis] = await Promise.all([
      ensure(probePostgres, databaseUrl, databaseUrl === DEFAULT_DATABASE_URL, 'postgres-up.sh'),
      ensure(probeRedis, redisUrl, redisUrl === DEFAULT_REDIS_URL, 'redis-up.sh'),
    ]);
    if (postgres !== undefined) {
      process.env['TEST_POSTGRES_MISSING'] = `PostgreSQL at ${where(databaseUrl, 5432)} (${postgres})`;
    }
    if (redis !== undefined)
      process.env['TEST_REDIS_MISSING'] = `Redis at ${where(redisUrl, 6379)} (${redis})`;
  }
  const missing = [process.env['TEST_POSTGRES_MISSING'], process.env['TEST_REDIS_MISSING']].filter(Boolean);
  if (missing.length === 0) return;
  const what = missing.join(' and ');
  const hint = 'start them (npm run services:up) or point TEST_DATABASE_URL / TEST_REDIS_URL at running ones';
  if (process.env['TEST_SERVICES'] === 'required') {
    throw new Error(`TEST_SERVICES=required, but ${what} did not answer: ${hint}.`);
  }
  process.stderr.write(`\nSkipping the tests that need ${what}: ${hint}.\n`);
};
