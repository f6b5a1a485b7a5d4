import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowPrivateCidrs, type HostResolver } from '@gen/ssrf';
import { MAX_RESPONSE_BODY_BYTES, sendWebhook, type WebhookRequest } from './send-webhook';

interface Received {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

interface Receiver {
  readonly port: number;
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 that records every request and answers with `answer`. */
async function startReceiver(answer: (res: ServerResponse) => void): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks/task?src=test`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const answerWith =
  (status: number, headers: Record<string, string> = {}, body = '') =>
  (res: ServerResponse): void => {
    res.writeHead(status, headers).end(body);
  };

const LOOPBACK = parseAllowPrivateCidrs('127.0.0.0/8');
const SIGNATURE = 'c2lnbmF0dXJlLW9mLXRoZS1yZXF1ZXN0LWhlYWRlcnM=';
const BODY =
  '{"code":200,"msg":"success","data":{"taskId":"job_1","model":"m/x","state":"succeeded","note":"é✓"},"request_id":"whd_1"}';
const HEADERS = {
  'X-Webhook-Timestamp': '1795000000',
  'X-Webhook-Signature': SIGNATURE,
  'X-Webhook-Payload-Version': '2',
  'User-Agent': 'Service-Webhook/1',
  'Content-Type': 'application/json',
};

const requestTo = (url: string, extra: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url,
  headers: HEADERS,
  body: BODY,
  timeoutMs: 5000,
  allowPrivateCidrs: LOOPBACK,
  ...extra,
});

const resolverAnswering = (...addresses: string[]): HostResolver & { calls: string[] } => {
  const calls: string[] = [];
  const resolver = async (host: string) => {
    calls.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { calls });
};

/**
 * The address forms the guard refuses (IP literals in every notation, names with any private answer) are
 * run against the guarded client itself, in libs/ssrf guarded-client.spec.ts; here, how a refusal is reported.
 */
describe('sendWebhook', () => {
  const receivers: Receiver[] = [];
  const receiver = async (answer: (res: ServerResponse) => void): Promise<Receiver> => {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  it.each([200, 204])(
    'acknowledges %i, and the receiver gets exactly the body bytes and headers',
    async (code) => {
      const target = await receiver(answerWith(code));
      const outcome = await sendWebhook(requestTo(target.url));

      expect(outcome).toEqual({ ok: true, status: code, durationMs: expect.any(Number) });
      expect(target.received).toHaveLength(1);
      const [got] = target.received;
      expect(got?.method).toBe('POST');
      expect(got?.url).toBe('/hooks/task?src=test');
      expect(got?.body.equals(Buffer.from(BODY, 'utf8'))).toBe(true);
      expect(got?.headers).toMatchObject({
        'x-webhook-timestamp': '1795000000',
        'x-webhook-signature': SIGNATURE,
        'x-webhook-payload-version': '2',
        'user-agent': 'Service-Webhook/1',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(BODY, 'utf8')),
      });
    },
  );

  it.each([301, 302, 307])('fails %i as a redirect and never follows it', async (code) => {
    const second = await receiver(answerWith(200));
    const first = await receiver(answerWith(code, { Location: second.url }));
    const outcome = await sendWebhook(requestTo(first.url));

    expect(outcome).toMatchObject({ ok: false, reason: 'redirect', status: code });
    expect(first.received).toHaveLength(1);
    expect(second.received).toHaveLength(0);
  });

  it.each([500, 404])('fails %i as a status failure', async (code) => {
    const target = await receiver(answerWith(code, { 'Content-Type': 'text/plain' }, 'nope'));
    const outcome = await sendWebhook(requestTo(target.url));

    expect(outcome).toEqual({
      ok: false,
      reason: 'status',
      status: code,
      detail: `receiver answered HTTP ${code}`,
      durationMs: expect.any(Number),
    });
  });

  it('times out a receiver that never answers, within about timeoutMs', async () => {
    const target = await receiver(() => undefined);
    const outcome = await sendWebhook(requestTo(target.url, { timeoutMs: 300 }));

    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(1000);
    expect(target.received).toHaveLength(1);
  });

  it('keeps the verdict of a 2xx whose body is still streaming at the deadline', async () => {
    const target = await receiver((res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
    });
    const outcome = await sendWebhook(requestTo(target.url, { timeoutMs: 300 }));

    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(outcome.durationMs).toBeLessThan(1000);
  });

  it('reads and discards a large response body, cutting it off at the cap', async () => {
    const target = await receiver(answerWith(200, {}, 'x'.repeat(4 * MAX_RESPONSE_BODY_BYTES)));
    expect(await sendWebhook(requestTo(target.url))).toMatchObject({ ok: true, status: 200 });
  });

  it('reports a refused connection (closed port) as a connection failure', async () => {
    const closed = await startReceiver(answerWith(200));
    await closed.close();
    const outcome = await sendWebhook(requestTo(closed.url));

    expect(outcome).toMatchObject({
      ok: false,
      reason: 'connection',
      detail: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('speaks TLS for https: a plain-HTTP receiver fails the handshake as a connection failure', async () => {
    const target = await receiver(answerWith(200));
    const outcome = await sendWebhook(requestTo(`https://127.0.0.1:${target.port}/hook`));
    expect(outcome).toMatchObject({ ok: false, reason: 'connection' });
    expect(target.received).toHaveLength(0);
  });

  it('reports a DNS failure as a connection failure', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND receiver.test'), { code: 'ENOTFOUND' });
    };
    const outcome = await sendWebhook(requestTo('http://receiver.test/hook', { resolver: failing }));
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'connection',
      detail: expect.stringMatching(/ENOTFOUND/),
    });
  });

  it('refuses 127.0.0.1 without an allow-list and delivers to it with 127.0.0.0/8 allowed', async () => {
    const target = await receiver(answerWith(200));
    const refused = await sendWebhook(requestTo(target.url, { allowPrivateCidrs: undefined }));
    expect(refused).toMatchObject({ ok: false, reason: 'blocked_address' });
    expect(target.received).toHaveLength(0);

    const delivered = await sendWebhook(requestTo(target.url, { allowPrivateCidrs: LOOPBACK }));
    expect(delivered).toMatchObject({ ok: true, status: 200 });
    expect(target.received).toHaveLength(1);
  });

  it('connects through the guarded lookup: a host name is resolved by the resolver at connect time', async () => {
    const target = await receiver(answerWith(200));
    const resolver = resolverAnswering('127.0.0.1');
    const outcome = await sendWebhook(requestTo(`http://receiver.test:${target.port}/hook`, { resolver }));

    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(resolver.calls).toEqual(['receiver.test']);
    expect(target.received[0]?.headers.host).toBe(`receiver.test:${target.port}`);
  });

  it('refuses DNS rebinding: the name answered public when accepted and private at connect time', async () => {
    const target = await receiver(answerWith(200));
    const answers = ['93.184.215.14', '127.0.0.1'];
    const calls: string[] = [];
    const rebinding: HostResolver = async (host) => {
      calls.push(host);
      const address = answers[Math.min(calls.length - 1, answers.length - 1)] ?? '127.0.0.1';
      return [{ address, family: 4 }];
    };
    // The acceptance check (not part of this send) saw the public answer.
    expect(await rebinding('receiver.test')).toEqual([{ address: '93.184.215.14', family: 4 }]);

    const outcome = await sendWebhook(
      requestTo(`http://receiver.test:${target.port}/hook`, {
        resolver: rebinding,
        allowPrivateCidrs: undefined,
      }),
    );
    expect(outcome).toEqual({
      ok: false,
      reason: 'blocked_address',
      detail: expect.not.stringMatching(/receiver|127\.0\.0\.1/),
      durationMs: expect.any(Number),
    });
    expect(calls).toEqual(['receiver.test', 'receiver.test']);
    expect(target.received).toHaveLength(0);
  });

  it.each(['ftp://x', 'not a url', 'file:///etc/passwd', 'http://user:secret@receiver.test/hook'])(
    'refuses %s as an invalid URL without resolving or connecting',
    async (url) => {
      const resolver = resolverAnswering('127.0.0.1');
      const outcome = await sendWebhook(requestTo(url, { resolver }));
      expect(outcome).toMatchObject({ ok: false, reason: 'invalid_url' });
      expect(resolver.calls).toEqual([]);
    },
  );

  it('never throws, and never puts request headers in the detail', async () => {
    const target = await receiver(answerWith(500));
    const badHeader = await sendWebhook(
      requestTo(target.url, { headers: { ...HEADERS, 'X-Webhook-Signature': `${SIGNATURE}\r\nX-Evil: 1` } }),
    );
    expect(badHeader).toMatchObject({ ok: false, reason: 'connection' });
    expect(target.received).toHaveLength(0);

    const failed = await sendWebhook(requestTo(target.url));
    for (const outcome of [badHeader, failed]) {
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.detail).not.toContain(SIGNATURE);
    }
  });
});
