import { FLEET_APPS, FLEET_REPLICAS, type FleetApp } from '@gen/contracts';
import { ConfigError, createLogger, loadConfig, readSettingsFile, type AppConfig } from '@gen/core';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';
import { Ingress, type Upstream } from './ingress';
import { Supervisor, replicaName, type Replica } from './supervisor';

/** The settings `npm run services:up` writes: the fleet reads them when the environment does not set them. */
const SERVICES_FILE = '.env.services';

/** Ports free now on `host`, all distinct (each socket stays bound until every port is picked). */
async function freePorts(host: string, count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((done, fail) => {
        server.once('error', fail);
        server.listen(0, host, done);
      });
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  }
}

async function main(): Promise<void> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(readSettingsFile(resolve(SERVICES_FILE)))) env[name] = value;
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL).child({ app: 'fleet' });
  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const host = '127.0.0.1';
  const publicHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  // PORT=0 picks a free port, as for every app: chosen now, since the apps are told the public URL.
  const ingressPort = config.PORT === 0 ? (await freePorts(config.HOST, 1))[0]! : config.PORT;
  const publicUrl = config.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? `http://${publicHost}:${ingressPort}`;

  const shape = FLEET_APPS.flatMap((app) =>
    Array.from({ length: FLEET_REPLICAS[app] ?? 1 }, (_, i) => ({ app, index: i + 1 })),
  );
  const ports = await freePorts(host, shape.length * 3);
  const replicas: Replica[] = shape.map(({ app, index }, i) => ({
    app,
    index,
    host,
    httpPort: ports[3 * i]!,
    serviceCallPort: ports[3 * i + 1]!,
    metricsPort: ports[3 * i + 2]!,
  }));
  const upstreams = new Map<FleetApp, Upstream[]>();
  for (const replica of replicas) {
    const list = upstreams.get(replica.app) ?? [];
    list.push({ host: replica.host, port: replica.httpPort });
    upstreams.set(replica.app, list);
  }
  const appEnv: Record<string, string> = {
    ...env,
    MODE: 'distributed',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: publicUrl,
    // The apps are reached through this process's ingress, from 127.0.0.1: it forwards the client's address.
    TRUSTED_PROXIES: env['TRUSTED_PROXIES'] ?? host,
    SERVICE_ADDRESSES: replicas.map((r) => `${r.app}=${r.host}:${r.serviceCallPort}`).join(','),
  };

  const ingress = new Ingress({
    upstreams,
    bodyLimit: config.BODY_LIMIT_BYTES,
    onUpstreamError: (event) =>
      logger.warn(
        {
          target: event.app,
          upstream: `${event.upstream.host}:${event.upstream.port}`,
          code: event.code,
          retried: event.retried,
        },
        'upstream failed',
      ),
  });
  const stateFile = resolve(dataDir, 'fleet.json');
  const supervisor: Supervisor = new Supervisor({
    replicas,
    env: appEnv,
    startTimeoutMs: Math.max(config.DEPENDENCY_TIMEOUT_MS * 4, 60_000),
    stopTimeoutMs: config.SHUTDOWN_GRACE_MS + 5000,
    logger,
    onChange: () => writeState(),
  });
  function writeState(): void {
    const state = {
      pid: process.pid,
      url: publicUrl,
      apps: supervisor.processes().map(({ replica, pid, restarts }) => ({
        name: replicaName(replica),
        app: replica.app,
        url: `http://${replica.host}:${replica.httpPort}`,
        serviceCall: `tcp://${replica.host}:${replica.serviceCallPort}`,
        metrics: `http://${replica.host}:${replica.metricsPort}/metrics`,
        pid,
        restarts,
      })),
    };
    writeFileSync(`${stateFile}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
    renameSync(`${stateFile}.tmp`, stateFile);
  }

  let stopping: Promise<void> | null = null;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    logger.info({ signal }, 'stopping the fleet: draining every app');
    ingress.stopAccepting();
    stopping = supervisor.stop().then((codes) => {
      ingress.close();
      const failed = codes.filter((code) => code !== 0);
      logger.info({ codes }, 'fleet stopped');
      process.exit(failed.length === 0 ? 0 : 1);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  try {
    // The first gateway makes the first-start bootstrap (DATA_DIR/bootstrap.json); the others then find it.
    await supervisor.start([
      replicas.filter((r) => r.app !== 'gateway' || r.index === 1),
      replicas.filter((r) => r.app === 'gateway' && r.index > 1),
    ]);
    await ingress.listen(ingressPort, config.HOST);
    process.stdout.write(`fleet (distributed mode) listening on ${publicUrl}\n`);
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    process.stderr.write(
      `fleet: start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    await supervisor.stop();
    ingress.close();
    process.exit(1);
  }
}

void main();
