import type { FleetApp } from '@gen/contracts';
import { SERVICE_OWNERS } from '@gen/transport';
// The fleet's own ingress, which an app is not a package to import by name: tests drive the very code that routes.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { Ingress, type Upstream } from '../../apps/fleet/src/ingress';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** The settings `npm run services:up` wrote, as every app reads them from its environment. */
export const SERVICE_SETTINGS = [
  'KAFKA_BROKERS',
  'REDIS_URL',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

export function serviceSettings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SERVICE_SETTINGS) {
    const value = process.env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A TCP port nothing listens on now (the kernel's pick; released at once for the app that binds it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The apps that answer other apps' service calls (gateway, billing, media, catalog). */
export const ANSWERING_APPS: readonly string[] = [...new Set(Object.values(SERVICE_OWNERS))];

/** The service-call settings of a fleet started by a test: one listener port per answering app. */
export interface ServiceCalls {
  /** `SERVICE_ADDRESSES`: every answering app of the set, on 127.0.0.1. */
  readonly addresses: string;
  /** The port each answering app binds (the same after a restart, so its callers find it again). */
  readonly ports: Readonly<Record<string, number>>;
  /** What `app` needs: `SERVICE_ADDRESSES`, and its `SERVICE_CALL_PORT` if it answers calls. */
  env(app: string): Record<string, string>;
}

/**
 * Allocates a free port for each app of `apps` that answers service calls and builds `SERVICE_ADDRESSES`
 * naming them, for every app of the set to call. By default all the answering apps are listed, whether the
 * test starts them or not: an app that calls one refuses to start without its address, and a call to one that
 * is not running fails as a peer that is down does (503).
 */
export async function serviceCalls(apps: readonly string[] = ANSWERING_APPS): Promise<ServiceCalls> {
  const ports: Record<string, number> = {};
  for (const app of apps) if (ANSWERING_APPS.includes(app)) ports[app] = await freePort();
  const addresses = Object.entries(ports)
    .map(([app, port]) => `${app}=127.0.0.1:${port}`)
    .join(',');
  return {
    addresses,
    ports,
    env: (app) => ({
      SERVICE_ADDRESSES: addresses,
      ...(ports[app] !== undefined ? { SERVICE_CALL_PORT: String(ports[app]) } : {}),
    }),
  };
}

/** One app of the fleet running as its own process in distributed mode. */
export interface AppProcess {
  readonly name: string;
  readonly baseUrl: string;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `dist/apps/<app>/src/main.js` and resolves once it prints that it listens (60 s at most). */
export function startAppProcess(app: string, env: Record<string, string>): Promise<AppProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'dist', 'apps', app, 'src', 'main.js')], {
    env: { PATH: process.env['PATH'] ?? '', MODE: 'distributed', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${app} did not start within 60 s:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)\n/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
      resolve({
        name: app,
        baseUrl: match[1]!,
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code} before listening:\n${output}`));
    });
  });
}

/** One public address in front of apps a test started on their own: the ingress `npm run start:fleet` runs. */
export interface AppsIngress {
  readonly baseUrl: string;
  close(): void;
}

/**
 * Routes the public API to `apps` by the fleet's route table (libs/contracts/src/fleet.ts), as the fleet's
 * ingress does: a test calls every route at one address, whichever app serves it. A route of an app not
 * started answers 503 (50301), as a fleet answers while that app is down.
 */
export async function startIngress(apps: readonly AppProcess[]): Promise<AppsIngress> {
  const upstreams = new Map<FleetApp, Upstream[]>();
  for (const app of apps) {
    const url = new URL(app.baseUrl);
    const list = upstreams.get(app.name as FleetApp) ?? [];
    list.push({ host: url.hostname, port: Number(url.port) });
    upstreams.set(app.name as FleetApp, list);
  }
  const ingress = new Ingress({ upstreams, bodyLimit: 1024 * 1024 });
  const address = await ingress.listen(0, '127.0.0.1');
  return { baseUrl: `http://127.0.0.1:${address.port}`, close: () => ingress.close() };
}
