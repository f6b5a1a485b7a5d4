import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer. A non-Buffer, non-string body is sent as JSON. */
export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before the status line. */
  delayMs?: number;
  /** Send the body in this many pieces, `pieceDelayMs` apart (chunked encoding unless a length header is set). */
  pieces?: number;
  pieceDelayMs?: number;
  /** Destroy the socket after the first piece instead of finishing (a dropped download). */
  drop?: boolean;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body, parsed as JSON when it is JSON, else the text ('' when none). */
  body: unknown;
}

/** Computes the reply to a request, or undefined to fall through to the queued replies / a 404. */
export type Route = (request: SeenRequest) => ScriptedReply | undefined;

/**
 * A real HTTP server on 127.0.0.1 (port 0) for the media adapter specs: routes answer by request, and counts
 * connections so a spec can assert that nothing connected at all.
 */
export class ScriptedServer {
  readonly requests: SeenRequest[] = [];
  connections = 0;
  private readonly routes: Route[] = [];
  private readonly queues = new Map<string, ScriptedReply[]>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ScriptedServer> {
    const server = createServer();
    const scripted = new ScriptedServer(server);
    server.on('connection', () => scripted.connections++);
    server.on('request', (req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (part: Buffer) => parts.push(part));
      req.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : '';
        } catch {
          // kept as text
        }
        const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        scripted.requests.push(seen);
        const reply = scripted.routes.reduce<ScriptedReply | undefined>(
          (r, route) => r ?? route(seen),
          undefined,
        );
        void send(res, reply ?? { status: 404, body: { detail: 'not found' } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return scripted;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Routes are asked in the order added; the first that answers wins. */
  route(route: Route): void {
    this.routes.push(route);
  }

  /** Serves `reply` for `method path` (the path with its query), every time. */
  on(method: string, path: string, reply: ScriptedReply | ((request: SeenRequest) => ScriptedReply)): void {
    this.route((r) =>
      r.method === method && r.path === path ? (typeof reply === 'function' ? reply(r) : reply) : undefined,
    );
  }

  /** Serves these replies to `method path`, one a request in order (after those queued before); then 599. */
  queue(method: string, path: string, ...replies: ScriptedReply[]): void {
    const key = `${method} ${path}`;
    let queued = this.queues.get(key);
    if (!queued) {
      queued = [];
      this.queues.set(key, queued);
      const mine = queued;
      this.on(method, path, () => mine.shift() ?? { status: 599, body: { detail: 'no reply queued' } });
    }
    queued.push(...replies);
  }

  /** Serves `bytes` at `GET /files/<name>` and returns the URL. */
  serveFile(name: string, bytes: Buffer, contentType = 'application/octet-stream'): string {
    this.on('GET', `/files/${name}`, { body: bytes, headers: { 'content-type': contentType } });
    return `${this.origin}/files/${name}`;
  }

  requestsTo(path: string): SeenRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function send(res: ServerResponse, reply: ScriptedReply): Promise<void> {
  res.on('error', () => undefined);
  if (reply.delayMs) await sleep(reply.delayMs);
  if (res.destroyed) return;
  const json = reply.body !== undefined && !Buffer.isBuffer(reply.body) && typeof reply.body !== 'string';
  const body = json
    ? Buffer.from(JSON.stringify(reply.body))
    : Buffer.from((reply.body as Buffer | string | undefined) ?? '');
  const headers: Record<string, string> = json ? { 'content-type': 'application/json' } : {};
  res.writeHead(reply.status ?? 200, { ...headers, ...reply.headers });
  const pieces = Math.max(1, reply.pieces ?? 1);
  const size = Math.ceil(body.length / pieces);
  for (let i = 0; i < pieces; i++) {
    if (res.destroyed) return;
    res.write(body.subarray(i * size, (i + 1) * size));
    if (reply.drop) {
      await sleep(5);
      res.socket?.destroy();
      return;
    }
    if (reply.pieceDelayMs && i < pieces - 1) await sleep(reply.pieceDelayMs);
  }
  res.end();
}

/** A pause that does not keep the process alive after the specs end. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
