import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP answer the replay server gives: status, content type and the body pieces written in order. */
export interface Replay {
  status?: number;
  contentType?: string;
  pieces: string[];
}

/**
 * A real HTTP server on 127.0.0.1 answering each POST with the next replay (the writers' output, piece by piece),
 * and recording the request bodies: the official SDK is a client of real HTTP, so this is how it reads our frames.
 */
export async function replayServer(
  replays: Replay[],
): Promise<{ baseURL: string; bodies: unknown[]; close: () => Promise<void> }> {
  const bodies: unknown[] = [];
  let next = 0;
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (piece: string) => (raw += piece));
    request.on('end', () => {
      bodies.push(raw === '' ? undefined : JSON.parse(raw));
      const replay = replays[next++];
      if (!replay) {
        response.writeHead(500).end('no more replays');
        return;
      }
      response.writeHead(replay.status ?? 200, { 'content-type': replay.contentType ?? 'text/event-stream' });
      for (const piece of replay.pieces) response.write(piece);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    bodies,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
