import { createServer, type Server, type Socket } from 'node:net';
import { loadConfig, type Logger } from '@gen/core';
import { DependencyUnreachableError, waitForDependencies, type Dependency } from './dependencies';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

/** A server that accepts every connection and never answers a byte: a port whose owner hangs. */
async function mute(): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.resume(); // reads and drops what the client sends, so its end is seen
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, sockets };
}

describe('waitForDependencies against a server that accepts and never answers', () => {
  let silentServer: Awaited<ReturnType<typeof mute>>;
  beforeAll(async () => {
    silentServer = await mute();
  });
  afterAll(async () => {
    for (const socket of silentServer.sockets) socket.destroy();
    await new Promise((resolve) => silentServer.server.close(resolve));
  });

  const settings = (port: number): Record<Exclude<Dependency, 's3'>, Record<string, string>> => ({
    database: { DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/test` },
    redis: { REDIS_URL: `redis://127.0.0.1:${port}` },
    kafka: { KAFKA_BROKERS: `127.0.0.1:${port}` },
  });

  it.each(['database', 'redis', 'kafka'] as const)(
    '%s: start-up fails with DependencyUnreachableError at its deadline instead of waiting forever',
    async (dependency) => {
      const config = loadConfig({
        MODE: 'distributed',
        DEPENDENCY_TIMEOUT_MS: '1500',
        ...settings(silentServer.port)[dependency],
      });
      const started = Date.now();
      const error = await waitForDependencies(config, [dependency], silent).then(
        () => null,
        (e: unknown) => e,
      );
      const took = Date.now() - started;
      expect(error).toBeInstanceOf(DependencyUnreachableError);
      expect((error as Error).message).toContain(`127.0.0.1:${silentServer.port} within 1500 ms`);
      // Bounded: about the deadline (one attempt of 1.5 s), with room for a loaded machine.
      expect(took).toBeGreaterThanOrEqual(1400);
      expect(took).toBeLessThan(6000);
      // Every attempt's connection was closed: nothing is left holding the server.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(silentServer.sockets.size).toBe(0);
    },
    15_000,
  );
});
