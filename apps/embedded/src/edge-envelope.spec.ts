import { Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

/** A route that fails the way a bug would, to see what a client gets from an unexpected exception. */
@Controller('api/v1/test')
class FailingController {
  @Get('boom')
  boom(): never {
    throw new Error('database password is hunter2 at /srv/secret/path');
  }

  @Post('echo')
  @HttpCode(200)
  echo(): { ok: true } {
    return { ok: true };
  }
}
@Module({ controllers: [FailingController] })
class FailingModule {}

describe('edge: one envelope for every failure class', () => {
  let app: Embedded;
  let auth: Record<string, string>;
  beforeAll(async () => {
    app = await startEmbedded({ BODY_LIMIT_BYTES: '2048' }, [FailingModule]);
    auth = { authorization: `Bearer ${app.boot.apiKey}` };
  });
  afterAll(() => app.close());

  function expectFailure(reply: Reply, status: number, code: number): void {
    expect(reply.status).toBe(status);
    expect(Object.keys(reply.json).sort()).toEqual(['code', 'msg', 'request_id']);
    expect(reply.json['code']).toBe(code);
    expect(typeof reply.json['msg']).toBe('string');
    expect(reply.json['request_id']).toMatch(/^req_/);
    expect(reply.headers.get('x-request-id')).toBe(reply.json['request_id']);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.headers.get('content-language')).toBe('en');
  }

  it('wraps success in {code: 200, msg, data, request_id}', async () => {
    const reply = await app.call('POST', '/api/v1/test/echo', { headers: auth, body: {} });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      code: 200,
      msg: 'success',
      data: { ok: true },
      request_id: reply.headers.get('x-request-id'),
    });
  });

  it('gives every response its own request id', async () => {
    const a = await app.call('GET', '/api/v1/chat/credit', { headers: auth });
    const b = await app.call('GET', '/api/v1/chat/credit', { headers: auth });
    expect(a.json['request_id']).not.toBe(b.json['request_id']);
  });

  it('answers an unknown route with 404 in the envelope (authenticated or not)', async () => {
    expectFailure(await app.call('GET', '/api/v1/does-not-exist', { headers: auth }), 404, 404);
    expectFailure(await app.call('DELETE', '/api/v1/chat/credit', { headers: auth }), 404, 404);
    expectFailure(await app.call('GET', '/nothing-here'), 404, 404);
  });

  it('answers malformed JSON with 400', async () => {
    const reply = await app.call('POST', '/api/v1/test/echo', {
      headers: { ...auth, 'content-type': 'application/json' },
      rawBody: '{"a":',
    });
    expectFailure(reply, 400, 400);
    expect(reply.json['msg']).toBe('The request body is not valid JSON.');
  });

  it('answers a body of another content type with 400', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const reply = await app.call('POST', '/api/v1/test/echo', {
        headers: { ...auth, 'content-type': type },
        rawBody: 'a=1',
      });
      expectFailure(reply, 400, 400);
      expect(reply.json['msg']).toBe('Unsupported content type. Send the body as application/json.');
    }
  });

  it('answers a body over the limit with 413 and code 413', async () => {
    const reply = await app.call('POST', '/api/v1/test/echo', {
      headers: auth,
      body: { filler: 'x'.repeat(4096) },
    });
    expectFailure(reply, 413, 413);
    expect(reply.json['msg']).toBe('The request body is too large. The limit is 2048 bytes.');
  });

  it('answers an unexpected exception with a fixed 500 and logs the detail instead', async () => {
    const reply = await app.call('GET', '/api/v1/test/boom', { headers: auth });
    expectFailure(reply, 500, 500);
    expect(reply.json['msg']).toBe('Internal server error. Quote the request_id when reporting the problem.');
    expect(reply.text).not.toContain('hunter2');
    expect(reply.text).not.toContain('/srv');
    const logged = app.logs.find((l) => l.includes('hunter2'));
    expect(logged).toBeDefined();
    expect(JSON.parse(logged!)['request_id']).toBe(reply.json['request_id']);
  });

  it('checks the credential before anything else about the request', async () => {
    expectFailure(
      await app.call('POST', '/api/v1/test/echo', {
        headers: { 'content-type': 'application/json' },
        rawBody: '{',
      }),
      401,
      401,
    );
    expectFailure(await app.call('GET', '/api/v1/does-not-exist'), 401, 401);
  });

  it('rate-limits per key with 429, Retry-After and the rate headers', async () => {
    const limited = await startEmbedded({ RATE_LIMIT_BURST: '3', RATE_LIMIT_PER_MINUTE: '1' });
    try {
      const headers = { authorization: `Bearer ${limited.boot.apiKey}` };
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i += 1) {
        const ok = await limited.call('GET', '/api/v1/chat/credit', { headers });
        expect(ok.status).toBe(200);
        remaining.push(ok.headers.get('x-ratelimit-remaining'));
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const reply = await limited.call('GET', '/api/v1/chat/credit', { headers });
      expectFailure(reply, 429, 429);
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(reply.headers.get('x-ratelimit-limit')).toBe('3');
      expect(reply.headers.get('x-ratelimit-remaining')).toBe('0');
    } finally {
      await limited.close();
    }
  });
});

describe("compatibility edges: each protocol's own error shape", () => {
  let app: Embedded;
  beforeAll(async () => {
    app = await startEmbedded();
  });
  afterAll(() => app.close());

  it('answers /v1 (chat completions, responses, models) in the OpenAI shape', async () => {
    const reply = await app.call('GET', '/v1/models', { headers: { authorization: 'Bearer nope' } });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({
      error: {
        message: 'Invalid API key.',
        type: 'authentication_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    expect(reply.headers.get('x-request-id')).toMatch(/^req_/);
    expect(reply.headers.get('content-language')).toBe('en');
  });

  it('answers /v1/messages in the Anthropic shape', async () => {
    const reply = await app.call('POST', '/v1/messages', { headers: { 'x-api-key': 'nope' }, body: {} });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'Invalid API key.' },
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it('answers /v1beta in the Google shape', async () => {
    const reply = await app.call('POST', '/v1beta/models/local/echo/chat:generateContent', {
      headers: { 'x-goog-api-key': 'nope' },
      body: {},
    });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({
      error: { code: 401, message: 'Invalid API key.', status: 'UNAUTHENTICATED' },
    });
  });

  it("accepts Bearer, x-api-key and x-gen-api-key there (the route itself comes later: 404 in the protocol's shape)", async () => {
    const variants: Record<string, string>[] = [
      { authorization: `Bearer ${app.boot.apiKey}` },
      { 'x-api-key': app.boot.apiKey },
      { 'x-gen-api-key': app.boot.apiKey },
      { 'x-goog-api-key': app.boot.apiKey },
    ];
    for (const headers of variants) {
      const reply = await app.call('GET', '/v1/not-a-route', { headers });
      expect(reply.status).toBe(404);
      expect(reply.json).toEqual({
        error: {
          message: 'The requested resource does not exist.',
          type: 'not_found_error',
          param: null,
          code: 'not_found',
        },
      });
    }
  });

  it('never accepts a key in the query string there either', async () => {
    const reply = await app.call('GET', `/v1beta/models?key=${app.boot.apiKey}`);
    expect(reply.status).toBe(401);
    expect((reply.json['error'] as Record<string, unknown>)['status']).toBe('UNAUTHENTICATED');
  });
});
