import { BusinessCode, IdPrefix, ingressAppOf, type FleetApp } from '@gen/contracts';
import { DomainError, newId } from '@gen/core';
import { renderError } from '@gen/edge';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where one replica of an app listens. */
export interface Upstream {
  readonly host: string;
  readonly port: number;
}

export interface IngressOptions {
  /** The replicas of each app, by the app's name; every app the route table names must have one. */
  readonly upstreams: ReadonlyMap<FleetApp, readonly Upstream[]>;
  /** The apps' body limit: a body this large is still kept whole for a retry on another replica. */
  readonly bodyLimit: number;
  /** Told of each upstream failure the ingress answered or retried, e.g. to log it. */
  readonly onUpstreamError?: (event: {
    app: FleetApp;
    upstream: Upstream;
    code: string;
    retried: boolean;
  }) => void;
}

/** Hop-by-hop headers (RFC 9110 7.6.1) never cross a proxy. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Methods whose retry after a lost connection cannot create or change anything. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const named = String(headers['connection'] ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

function unavailable(): DomainError {
  return new DomainError(
    BusinessCode.TemporarilyUnavailable,
    'server.unavailable',
    {},
    { 'retry-after': '1' },
  );
}

function tooLarge(limit: number): DomainError {
  return new DomainError(BusinessCode.PayloadTooLarge, 'request.body_too_large', { limit });
}

/** How long a client refused for a declared body size may go on sending before its connection is cut. */
const UNREAD_BODY_GRACE_MS = 1000;

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

/**
 * The fleet's one public entry point on one machine: routes each request by path to an app (the table in
 * `@gen/contracts` fleet.ts, the same as the Helm chart's Ingress), round-robin over the app's replicas.
 *
 * A replica that refuses the connection (down, restarting) is skipped: the request goes to the next one, as
 * nothing was sent. A connection lost after the request went out is retried only for GET, HEAD and OPTIONS;
 * anything else answers 503 with business code 50301 in the caller's protocol (the envelope, or the OpenAI,
 * Anthropic or Google error shape), which a client may retry (with an `Idempotency-Key`, a createTask retry
 * never makes a second task). Responses stream through unbuffered (text streams, server-sent events).
 */
export class Ingress {
  private readonly server: Server;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 512, timeout: 5000 });
  private readonly next = new Map<FleetApp, number>();
  private stopping = false;

  constructor(private readonly options: IngressOptions) {
    this.server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
      this.handle(req, res);
    });
  }

  async listen(port: number, host: string): Promise<AddressInfo> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return this.server.address() as AddressInfo;
  }

  /** Stops taking connections; requests in flight run to their end (`close` ends the rest). */
  stopAccepting(): void {
    this.stopping = true;
    this.server.close();
    this.server.closeIdleConnections();
  }

  close(): void {
    this.stopAccepting();
    this.server.closeAllConnections();
    this.agent.destroy();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const app = ingressAppOf(queryAt === -1 ? url : url.slice(0, queryAt));
    const replicas = this.options.upstreams.get(app) ?? [];
    if (this.stopping) res.setHeader('connection', 'close');
    // A body declared over the limit is refused at once, unread: the client learns it before sending it all.
    const declared = req.headers['content-length'];
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > this.options.bodyLimit) {
      this.refuseUnread(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the apps' limit (every app has the same) the answer is 413: nothing more is kept.
      if (size <= this.options.bodyLimit) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > this.options.bodyLimit) {
        res.setHeader('connection', 'close');
        this.refuse(req, res, tooLarge(this.options.bodyLimit));
        return;
      }
      const start = this.next.get(app) ?? 0;
      this.next.set(app, (start + 1) % Math.max(replicas.length, 1));
      this.forward(req, res, app, replicas, start, 0, Buffer.concat(chunks));
    });
    req.on('error', () => res.destroy());
  }

  private forward(
    req: IncomingMessage,
    res: ServerResponse,
    app: FleetApp,
    replicas: readonly Upstream[],
    start: number,
    tried: number,
    body: Buffer,
  ): void {
    if (tried >= replicas.length) {
      this.refuse(req, res, unavailable());
      return;
    }
    const upstream = replicas[(start + tried) % replicas.length]!;
    const headers = forwardable(req.headers);
    const remote = req.socket.remoteAddress ?? '';
    const prior = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = prior ? `${String(prior)}, ${remote}` : remote;
    // The apps trust this ingress (TRUSTED_PROXIES): what it forwards is its own view, never a client's header.
    headers['x-forwarded-proto'] = 'http';
    if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
    else delete headers['x-forwarded-host'];
    if (body.length > 0 || req.headers['content-length'] !== undefined) {
      headers['content-length'] = String(body.length);
    }
    const outgoing = httpRequest({
      host: upstream.host,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers,
      agent: this.agent,
    });
    let answered = false;
    outgoing.on('response', (incoming) => {
      answered = true;
      res.writeHead(incoming.statusCode ?? 502, forwardable(incoming.headers));
      // Server-sent events and text streams: each chunk goes on as it comes.
      res.flushHeaders();
      incoming.pipe(res);
      incoming.on('error', () => res.destroy());
      res.on('close', () => {
        if (!res.writableFinished) incoming.destroy();
      });
    });
    outgoing.on('error', (error) => {
      if (answered) {
        res.destroy();
        return;
      }
      const code = errorCode(error);
      // Refused: nothing reached the replica. Reset on a reused idle socket before any answer: the replica
      // closed it unread, or died with the request; only a request that cannot change anything is resent.
      const retry = code === 'ECONNREFUSED' || (code === 'ECONNRESET' && SAFE_METHODS.has(req.method ?? ''));
      this.options.onUpstreamError?.({ app, upstream, code, retried: retry });
      if (retry) this.forward(req, res, app, replicas, start, tried + 1, body);
      else this.refuse(req, res, unavailable());
    });
    res.on('close', () => {
      if (!answered) outgoing.destroy();
    });
    outgoing.end(body);
  }

  /**
   * 413 for a body declared too large, without reading it. The connection closes once the answer is out (it
   * cannot carry another request with the body unread), gently first so that a client still sending reads the
   * answer, and at the latest a second later.
   */
  private refuseUnread(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('connection', 'close');
    res.on('finish', () => {
      req.socket.end();
      setTimeout(() => req.socket.destroy(), UNREAD_BODY_GRACE_MS).unref();
    });
    this.refuse(req, res, tooLarge(this.options.bodyLimit));
  }

  /** Answers in the caller's protocol, as the apps render the same error. */
  private refuse(req: IncomingMessage, res: ServerResponse, error: DomainError): void {
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const id = newId(IdPrefix.request);
    const answer = renderError(
      error,
      { id, url: req.url ?? '/', headers: req.headers },
      this.options.bodyLimit,
    );
    res.writeHead(answer.status, {
      ...answer.headers,
      'x-request-id': id,
      'content-length': String(Buffer.byteLength(answer.body)),
    });
    res.end(answer.body);
  }
}
