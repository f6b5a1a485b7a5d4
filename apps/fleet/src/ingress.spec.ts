import type { FleetApp } from '@gen/contracts';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Ingress, type Upstream } from './ingress';

interface Seen {
  readonly server: string;
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A real HTTP server standing for one replica: answers who it is and what it got. */
async function replica(
  name: string,
  seen: Seen[],
  handler?: Parameters<typeof createServer>[1],
): Promise<Server> {
  const server = createServer(
    handler ??
      ((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          seen.push({
            server: name,
            method: req.method ?? '',
            url: req.url ?? '',
            headers: req.headers,
            body,
          });
          res.writeHead(200, {
            'content-type': 'application/json',
            'x-replica': name,
            connection: 'keep-alive',
          });
          res.end(JSON.stringify({ replica: name }));
        });
      }),
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

function upstreamOf(server: Server): Upstream {
  return { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
}

/** A port nothing listens on (a replica that is down). */
async function deadPort(): Promise<Upstream> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const upstream = upstreamOf(server);
  await new Promise((done) => server.close(done));
  return upstream;
}

describe('the fleet ingress', () => {
  const servers: Server[] = [];
  let ingress: Ingress | undefined;
  let base: string;
  const seen: Seen[] = [];
  const failures: { app: FleetApp; code: string; retried: boolean }[] = [];

  async function start(upstreams: Map<FleetApp, Upstream[]>): Promise<void> {
    ingress = new Ingress({ upstreams, bodyLimit: 1024, onUpstreamError: (e) => failures.push(e) });
    const address = await ingress.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${address.port}`;
  }

  afterEach(async () => {
    ingress?.close();
    ingress = undefined;
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
    seen.length = 0;
    failures.length = 0;
  });

  it('sends each path to its app by the route table, query and body unchanged, round-robin over replicas', async () => {
    const [g1, g2, compat, media] = await Promise.all([
      replica('gateway#1', seen),
      replica('gateway#2', seen),
      replica('compat', seen),
      replica('media', seen),
    ]);
    servers.push(g1, g2, compat, media);
    await start(
      new Map([
        ['gateway', [upstreamOf(g1), upstreamOf(g2)]],
        ['compat-protocols', [upstreamOf(compat)]],
        ['media', [upstreamOf(media)]],
      ]),
    );
    const answers: string[] = [];
    for (const path of [
      '/admin/v1/accounts/acc_1?view=full',
      '/console/v1/session',
      '/v1/chat/completions',
      '/admin/v1/groups',
    ]) {
      const response = await fetch(`${base}${path}`);
      answers.push(response.headers.get('x-replica')!);
    }
    // node:http, not fetch: fetch may not send a Connection header.
    const replicaOfPost = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${base}/api/v1/files/fil_1/commit`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            connection: 'keep-alive, x-secret-hop',
            'x-secret-hop': '1',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(String(res.headers['x-replica'])));
        },
      );
      req.on('error', reject);
      req.end('{"a":1}');
    });
    answers.push(replicaOfPost);
    expect(answers).toEqual(['gateway#1', 'gateway#2', 'compat', 'gateway#1', 'media']);
    expect(seen[0]).toMatchObject({ url: '/admin/v1/accounts/acc_1?view=full', method: 'GET' });
    const commit = seen.find((s) => s.server === 'media')!;
    expect(commit).toMatchObject({ method: 'POST', url: '/api/v1/files/fil_1/commit', body: '{"a":1}' });
    // Headers named by Connection are hop-by-hop: they stop at the ingress; the client's address is added.
    expect(commit.headers['x-secret-hop']).toBeUndefined();
    expect(commit.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(commit.headers['x-forwarded-proto']).toBe('http');
  });

  it("sends Google's methods under /v1/models/ to compat-protocols, the model list to the catalog", async () => {
    const [compat, catalog] = await Promise.all([replica('compat', seen), replica('catalog', seen)]);
    servers.push(compat, catalog);
    await start(
      new Map([
        ['compat-protocols', [upstreamOf(compat)]],
        ['catalog', [upstreamOf(catalog)]],
      ]),
    );
    const replicaOf = async (method: string, path: string) =>
      (await fetch(`${base}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) })).headers.get(
        'x-replica',
      );
    expect([
      await replicaOf('POST', '/v1/models/local/echo/chat:generateContent'),
      await replicaOf('POST', '/v1/models/local/echo/chat:streamGenerateContent?alt=sse'),
      await replicaOf('GET', '/v1/models'),
      await replicaOf('GET', '/v1/models?modality=text'),
    ]).toEqual(['compat', 'compat', 'catalog', 'catalog']);
    expect(seen.map((s) => s.url)).toEqual([
      '/v1/models/local/echo/chat:generateContent',
      '/v1/models/local/echo/chat:streamGenerateContent?alt=sse',
      '/v1/models',
      '/v1/models?modality=text',
    ]);

    // Down, compat-protocols' 503 there is in Google's shape, as the app would answer on that path.
    ingress!.close();
    await start(new Map([['compat-protocols', [await deadPort()]]]));
    const down = await fetch(`${base}/v1/models/local/echo/chat:generateContent`, {
      method: 'POST',
      body: '{}',
    });
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
  });

  it("forwards its own view of the scheme and host, never a client's X-Forwarded-Host or -Proto", async () => {
    const gateway = await replica('gateway', seen);
    servers.push(gateway);
    await start(new Map([['gateway', [upstreamOf(gateway)]]]));
    const response = await fetch(`${base}/admin/v1/accounts`, {
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(response.status).toBe(200);
    expect(seen[0]!.headers['x-forwarded-host']).toBe(new URL(base).host);
    expect(seen[0]!.headers['x-forwarded-proto']).toBe('http');
    // HTTP/1.0 without a Host header: no host to forward, and the client's header does not pass either.
    const { port } = new URL(base);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('GET /admin/v1/groups HTTP/1.0\r\nX-Forwarded-Host: evil.example\r\n\r\n'),
      );
      socket.on('data', () => undefined);
      socket.on('end', resolve);
      socket.on('error', reject);
    });
    expect(seen[1]).toMatchObject({ url: '/admin/v1/groups' });
    expect(seen[1]!.headers['x-forwarded-host']).toBeUndefined();
  });

  it('skips a replica that refuses the connection, and answers 503 50301 in the caller protocol when none is up', async () => {
    const alive = await replica('gateway#2', seen);
    servers.push(alive);
    await start(
      new Map([
        ['gateway', [await deadPort(), upstreamOf(alive)]],
        ['compat-protocols', [await deadPort()]],
      ]),
    );
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${base}/admin/v1/accounts`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-replica')).toBe('gateway#2');
    }
    // Every POST reached the live replica exactly once.
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(4);
    expect(failures.every((f) => f.code === 'ECONNREFUSED' && f.retried)).toBe(true);

    const openai = await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(openai.status).toBe(503);
    expect(openai.headers.get('retry-after')).toBe('1');
    expect(openai.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await openai.json()) as { error: { message: string; type: string } };
    expect(body.error.message).toEqual(expect.any(String));
    expect(body).not.toHaveProperty('code');

    ingress!.close();
    await start(new Map([['gateway', [await deadPort()]]]));
    const native = await fetch(`${base}/console/v1/session`, { headers: { 'accept-language': 'de' } });
    expect(native.status).toBe(503);
    expect(native.headers.get('content-language')).toBe('de');
    expect(await native.json()).toMatchObject({ code: 50301, request_id: expect.stringMatching(/^req_/) });
  });

  it('does not resend a POST whose connection was lost: the client gets 503 and the replica saw it once', async () => {
    let posts = 0;
    const dying = await replica('gateway#1', seen, (req, res) => {
      req.resume();
      req.on('end', () => {
        posts += 1;
        res.socket?.destroy();
      });
    });
    const other = await replica('gateway#2', seen);
    servers.push(dying, other);
    await start(new Map([['gateway', [upstreamOf(dying), upstreamOf(other)]]]));
    const response = await fetch(`${base}/admin/v1/accounts`, { method: 'POST', body: '{"x":1}' });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 50301 });
    expect(posts).toBe(1);
    expect(seen.filter((s) => s.server === 'gateway#2')).toEqual([]);
    // A GET that lost its connection is safe to send again: the next replica answers.
    const get = await fetch(`${base}/console/v1/session`);
    expect(get.headers.get('x-replica')).toBe('gateway#2');
  });

  it('refuses a body over the limit with 413 in the envelope, before any app sees it', async () => {
    const gateway = await replica('gateway#1', seen);
    servers.push(gateway);
    await start(new Map([['gateway', [upstreamOf(gateway)]]]));
    const response = await fetch(`${base}/admin/v1/accounts`, {
      method: 'POST',
      body: 'x'.repeat(2048),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 413 });
    expect(seen).toEqual([]);
  });

  it('refuses a body declared over the limit at once, before reading it, in the caller protocol', async () => {
    const gateway = await replica('gateway#1', seen);
    const compat = await replica('compat', seen);
    servers.push(gateway, compat);
    await start(
      new Map([
        ['gateway', [upstreamOf(gateway)]],
        ['compat-protocols', [upstreamOf(compat)]],
      ]),
    );
    const port = Number(new URL(base).port);
    // 64 MiB declared, 10 bytes sent: the answer comes without the rest.
    const ask = (path: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        const timer = setTimeout(() => {
          socket.destroy();
          reject(new Error(`no answer within 2 s: ${JSON.stringify(answer)}`));
        }, 2000);
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
        socket.on('close', () => {
          clearTimeout(timer);
          resolve(answer);
        });
        socket.on('error', () => undefined);
        socket.write(
          `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 67108864\r\n\r\n{"a":"xxx"`,
        );
      });
    const started = Date.now();
    const envelope = await ask('/admin/v1/accounts');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(envelope).toMatch(/^HTTP\/1\.1 413 /);
    expect(envelope.toLowerCase()).toContain('connection: close');
    const body = JSON.parse(envelope.slice(envelope.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 413 });
    expect(String(body['msg'])).toContain('1024');
    // The OpenAI-compatible paths answer in OpenAI's error shape.
    const openai = await ask('/v1/chat/completions');
    expect(openai).toMatch(/^HTTP\/1\.1 413 /);
    const error = (
      JSON.parse(openai.slice(openai.indexOf('\r\n\r\n') + 4)) as { error: Record<string, unknown> }
    ).error;
    expect(error).toMatchObject({ type: expect.any(String) });
    expect(seen).toEqual([]);
  });

  it('streams an answer through as it is written (server-sent events)', async () => {
    let finish: () => void = () => undefined;
    const streaming = await replica('compat', seen, (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      finish = () => res.end('data: [DONE]\n\n');
    });
    servers.push(streaming);
    await start(new Map([['compat-protocols', [upstreamOf(streaming)]]]));
    const chunks: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = request(`${base}/v1/chat/completions`, { method: 'POST' }, (res) => {
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk.toString());
          // The first event arrived while the replica still holds the stream open.
          if (chunks.length === 1) finish();
        });
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(chunks[0]).toBe('data: first\n\n');
    expect(chunks.join('')).toBe('data: first\n\ndata: [DONE]\n\n');
  });
});
