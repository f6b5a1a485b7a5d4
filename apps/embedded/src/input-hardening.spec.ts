import { connect } from 'node:net';
import { MAX_JSON_DEPTH, newId } from '@gen/core';
import { OpenApiCheck } from '@gen/testing';
import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

type Json = Record<string, unknown>;
type Headers = Record<string, string>;

jest.setTimeout(60_000);

/** `levels` nested arrays: `[[[]]]` is 3 levels. */
const arrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** A createTask / quote body with `input` given as raw JSON text (to send what JSON.stringify cannot). */
const rawTask = (input: string, extra = ''): string => `{"model":"local/sketch"${extra},"input":${input}}`;

/** One HTTP/1.1 exchange over a bare socket, for requests fetch refuses to send (bytes no header may hold). */
function rawExchange(
  baseUrl: string,
  request: string,
): Promise<{ status: number; headers: Headers; json: Json }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(request, 'latin1'));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Headers = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      try {
        resolve({ status: Number(statusLine.split(' ')[1]), headers, json: JSON.parse(body) as Json });
      } catch (error) {
        reject(new Error(`not a JSON answer: ${text} (${String(error)})`));
      }
    });
  });
}

describe('input hardening: every malformed input is a 400 in the envelope that changes nothing', () => {
  let app: Embedded;
  let openApi: OpenApiCheck;
  let admin: Headers;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' });
    openApi = new OpenApiCheck((await app.call('GET', '/openapi.json')).json);
    admin = { authorization: `Bearer ${app.boot.adminToken}` };
  });
  afterAll(() => app.close());

  async function call(method: string, path: string, options: Parameters<Embedded['call']>[2] = {}) {
    const reply = await app.call(method, path, options);
    openApi.check(method, path, reply.status, reply.headers, reply.json);
    return reply;
  }

  /** A new account with $1 of wallet funds and one key. */
  async function customer() {
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: 'c', credit: '1' })) as {
      accountId: string;
    };
    const { apiKey, keyId } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
      keyId: string;
    };
    return { accountId, keyId, auth: { authorization: `Bearer ${apiKey}` } as Headers };
  }

  /** 400 in the envelope with exactly `msg`, and the request id in both the body and X-Request-Id. */
  function expectRefusal(reply: Reply, msg: string, status = 400) {
    expect({ status: reply.status, body: reply.json }).toEqual({
      status,
      body: { code: status, msg, request_id: expect.stringMatching(/^req_/) },
    });
    expect(reply.headers.get('x-request-id')).toBe(reply.json['request_id']);
  }

  /** Nothing changed for the customer: the whole balance is there, no task, and no key was claimed. */
  async function expectNothingChanged(auth: Headers, idempotencyKey?: string) {
    const balance = await call('GET', '/api/v1/chat/credit', { headers: auth });
    expect((balance.json['data'] as Json)['available']).toBe('1');
    expect((balance.json['data'] as Json)['held']).toBe('0');
    const list = await call('GET', '/api/v1/jobs', { headers: auth });
    expect(list.json['data']).toEqual({ items: [] });
    if (idempotencyKey !== undefined) {
      // A claimed key would answer 409 for this other request; unclaimed, it takes it.
      const fresh = await call('POST', '/api/v1/jobs/createTask', {
        headers: { ...auth, 'idempotency-key': idempotencyKey },
        body: { model: 'local/sketch', input: { prompt: 'after the refusal', width: 64, height: 64 } },
      });
      expect(fresh.status).toBe(202);
    }
  }

  const TOO_DEEP = `The JSON body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of objects and arrays.`;

  describe('JSON depth', () => {
    it('refuses input nested 7,000 and 10,000 levels (was a 500 stack overflow) on createTask and quote', async () => {
      const { auth } = await customer();
      for (const levels of [7_000, 10_000]) {
        for (const path of ['/api/v1/jobs/createTask', '/api/v1/jobs/quote']) {
          const reply = await call('POST', path, {
            headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'deep' },
            rawBody: rawTask(`{"prompt":"x","nested":${arrays(levels)}}`),
          });
          expectRefusal(reply, TOO_DEEP);
        }
      }
      await expectNothingChanged(auth, 'deep');
    });

    it(`counts the body as level 1: ${MAX_JSON_DEPTH} levels pass to validation, one more is refused`, async () => {
      const { auth } = await customer();
      // body (1) > input (2) > `nested` arrays: the deepest array is level 2 + n.
      const at = (n: number) =>
        call('POST', '/api/v1/jobs/quote', {
          headers: { ...auth, 'content-type': 'application/json' },
          rawBody: rawTask(`{"prompt":"x","nested":${arrays(n)}}`),
        });
      expectRefusal(await at(MAX_JSON_DEPTH - 2), 'Unknown field input.nested.');
      expectRefusal(await at(MAX_JSON_DEPTH - 1), TOO_DEEP);
      await expectNothingChanged(auth);
    });

    it('holds for every JSON body, here a webhook endpoint and an admin body', async () => {
      const { accountId } = await customer();
      const { token } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/console-tokens`)) as {
        token: string;
      };
      const console = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const deep = arrays(10_000);
      expectRefusal(
        await call('POST', '/console/v1/webhook-endpoints', {
          headers: console,
          rawBody: `{"url":"https://hooks.example.com/","enabledEvents":${deep}}`,
        }),
        TOO_DEEP,
      );
      expect((await call('GET', '/console/v1/webhook-endpoints', { headers: console })).json['data']).toEqual(
        {
          items: [],
        },
      );
      expectRefusal(
        await call('POST', '/admin/v1/accounts', {
          headers: { ...admin, 'content-type': 'application/json' },
          rawBody: `{"name":${deep}}`,
        }),
        TOO_DEEP,
      );
    });
  });

  describe('NUL and ids', () => {
    it('refuses recordInfo?taskId=job_%00 (was a PostgreSQL 500); any other text is a task that does not exist', async () => {
      const { auth } = await customer();
      expectRefusal(
        await call('GET', '/api/v1/jobs/recordInfo?taskId=job_%00', { headers: auth }),
        'The field taskId contains a NUL character (U+0000), which is not accepted.',
      );
      // The spec gives taskId as any string of length at least 1, and 404 for a task that does not exist.
      for (const id of [
        'job_unknown',
        'job_',
        newId('acc'),
        `${newId('job')}x`,
        newId('job').toLowerCase(),
        newId('job'),
      ]) {
        const reply = await call('GET', `/api/v1/jobs/recordInfo?taskId=${encodeURIComponent(id)}`, {
          headers: auth,
        });
        expectRefusal(reply, 'Task not found.', 404);
      }
    });

    it('checks every id a request carries before any query: body, query, cursor, quote and route parameters', async () => {
      const { auth, keyId } = await customer();
      const json = { ...auth, 'content-type': 'application/json' };
      for (const path of ['/api/v1/jobs/retry', '/api/v1/jobs/purge', '/api/v1/common/download-url']) {
        // Any text is a task id that may not exist (404); what cannot be one at all is 400.
        expectRefusal(
          await call('POST', path, { headers: auth, body: { taskId: 'job_nothing' } }),
          'Task not found.',
          404,
        );
        expectRefusal(
          await call('POST', path, { headers: auth, body: { taskId: '' } }),
          'Invalid value for field taskId.',
        );
        expectRefusal(
          await call('POST', path, { headers: json, rawBody: '{"taskId":"job_\\u0000"}' }),
          'The field taskId contains a NUL character (U+0000), which is not accepted.',
        );
      }
      expectRefusal(
        await call('POST', '/api/v1/jobs/createTask', {
          headers: auth,
          body: {
            model: 'local/sketch',
            input: { prompt: 'x' },
            quoteId: 'quo_\u0000',
            expectedCost: '0.004',
          },
        }),
        'The field quoteId contains a NUL character (U+0000), which is not accepted.',
      );
      expectRefusal(
        await call('POST', '/api/v1/jobs/createTask', {
          headers: auth,
          body: {
            model: 'local/sketch',
            input: { prompt: 'x' },
            quoteId: 'quo_not-signed',
            expectedCost: '0.004',
          },
        }),
        'Invalid value for field quoteId.',
      );
      // A cursor of our shape whose task id holds a NUL, and one that is not base64url.
      const forged = Buffer.from(
        JSON.stringify({
          filters: { from: '2020-01-01', to: '2020-01-02' },
          createdAt: '2020-01-01T00:00:00.000Z',
          taskId: 'job_\u0000',
        }),
      ).toString('base64url');
      for (const cursor of [forged, '%00', 'a.b']) {
        const reply = await call('GET', `/api/v1/jobs?cursor=${cursor}`, { headers: auth });
        expect([reply.status, reply.json['code']]).toEqual([400, 400]);
        expect(reply.json['msg']).toMatch(/cursor/);
      }
      // Admin and console route parameters.
      const adminPaths: Array<[string, string, string]> = [
        ['GET', '/admin/v1/accounts/acc_%00', 'accountId'],
        ['GET', '/admin/v1/accounts/acc_missing', 'accountId'],
        ['GET', '/admin/v1/accounts/acc_missing/keys', 'accountId'],
        ['POST', '/admin/v1/accounts/acc_missing/console-tokens', 'accountId'],
        ['POST', '/admin/v1/accounts/acc_missing/signing-secret/rotate', 'accountId'],
        ['POST', '/admin/v1/keys/key_%00/revoke', 'keyId'],
        ['POST', '/admin/v1/keys/key_unknown/revoke', 'keyId'],
        ['POST', '/admin/v1/webhook-deliveries/whd_unknown/redeliver', 'deliveryId'],
        ['GET', '/admin/v1/webhook-deliveries?taskId=job_%00', 'taskId'],
        ['GET', '/admin/v1/webhook-deliveries?taskId=job_unknown', 'taskId'],
      ];
      for (const [method, path, field] of adminPaths) {
        const reply = await call(method, path, { headers: admin });
        expect([path, reply.status, reply.json['code']]).toEqual([path, 400, 400]);
        expect(reply.json['msg']).toContain(field);
        expect(reply.headers.get('x-request-id')).toBe(reply.json['request_id']);
      }
      // Well-formed unknown ids still answer 404; a real key id is accepted.
      const unknownAccount = await call('GET', `/admin/v1/accounts/${newId('acc')}`, { headers: admin });
      expect(unknownAccount.status).toBe(404);
      expect(
        (await call('GET', `/admin/v1/webhook-deliveries?taskId=${newId('job')}`, { headers: admin })).status,
      ).toBe(200);
      expect(keyId).toMatch(/^key_[0-9A-Za-z]{16}$/);
    });

    it('refuses NUL anywhere in a body, query or path, and in keys as well as values', async () => {
      const { auth } = await customer();
      const json = { ...auth, 'content-type': 'application/json', 'idempotency-key': 'nul' };
      expectRefusal(
        await call('POST', '/api/v1/jobs/createTask', {
          headers: json,
          rawBody: rawTask('{"prompt":"a\\u0000b"}'),
        }),
        'The field input.prompt contains a NUL character (U+0000), which is not accepted.',
      );
      expectRefusal(
        await call('POST', '/api/v1/jobs/createTask', {
          headers: json,
          rawBody: rawTask('{"pro\\u0000mpt":"a"}'),
        }),
        'The field input contains a NUL character (U+0000), which is not accepted.',
      );
      expectRefusal(
        await call('POST', '/api/v1/jobs/createTask', {
          headers: json,
          rawBody: rawTask('{"prompt":"a"}', ',"model\\u0000":1'),
        }),
        'The field body contains a NUL character (U+0000), which is not accepted.',
      );
      expectRefusal(
        await call('GET', '/api/v1/jobs?model=local%00', { headers: auth }),
        'The field model contains a NUL character (U+0000), which is not accepted.',
      );
      expectRefusal(
        await app.call('GET', '/api/v1/models/local%00sketch', { headers: auth }),
        'The field path contains a NUL character (U+0000), which is not accepted.',
      );
      await expectNothingChanged(auth, 'nul');
    });

    it('answers a header holding NUL in the envelope too (Node refuses the header, the edge renders the answer)', async () => {
      const { auth } = await customer();
      const host = new URL(app.baseUrl).host;
      const reply = await rawExchange(
        app.baseUrl,
        `GET /api/v1/chat/credit HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${auth['authorization']}\r\nX-Note: a\u0000b\r\n\r\n`,
      );
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        code: 400,
        msg: 'The request could not be read: its request line or a header is not valid HTTP (for example, a control character in a header value).',
        request_id: expect.stringMatching(/^req_/),
      });
      expect(reply.headers['x-request-id']).toBe(reply.json['request_id']);
    });
  });

  describe('ill-formed Unicode', () => {
    it('refuses a lone surrogate in a prompt (it was stored and echoed as JSON strict parsers reject)', async () => {
      const { auth } = await customer();
      const json = { ...auth, 'content-type': 'application/json', 'idempotency-key': 'surrogate' };
      for (const path of ['/api/v1/jobs/createTask', '/api/v1/jobs/quote']) {
        for (const prompt of ['a\\ud800b', '\\udfff', 'b\\ude00\\ud83d']) {
          expectRefusal(
            await call('POST', path, { headers: json, rawBody: rawTask(`{"prompt":"${prompt}"}`) }),
            'The field input.prompt is not well-formed Unicode: it contains a lone surrogate.',
          );
        }
      }
      // A surrogate pair is a well-formed emoji and is accepted.
      const emoji = await call('POST', '/api/v1/jobs/quote', {
        headers: { ...auth, 'content-type': 'application/json' },
        rawBody: rawTask('{"prompt":"a fox \\ud83e\\udd8a"}'),
      });
      expect(emoji.status).toBe(200);
      await expectNothingChanged(auth, 'surrogate');
    });
  });

  describe('invalid UTF-8', () => {
    /** A JSON body whose prompt holds `bytes` as they are (not UTF-8 when they are Latin-1 or cut short). */
    const withBytes = (before: string, bytes: number[], after: string) => {
      const head = Buffer.from(before, 'utf8');
      return {
        body: Buffer.concat([head, Buffer.from(bytes), Buffer.from(after, 'utf8')]),
        offset: head.length,
      };
    };
    const message = (offset: number) =>
      `The request body is not valid UTF-8: the byte at offset ${offset} is not part of a UTF-8 character. Send JSON encoded as UTF-8.`;

    it('refuses a JSON body that is not UTF-8 with 400 on every text endpoint, in each protocol’s shape, charging nothing', async () => {
      const { auth } = await customer();
      const key = auth['authorization']!.slice('Bearer '.length);
      const json = { 'content-type': 'application/json', 'idempotency-key': 'utf8' };
      // "café" written in Latin-1 (0xE9), a lead byte without its continuation (0xC3 then a quote), a lone
      // continuation byte (0x80), an overlong "/" (0xC0 0xAF) and an encoded surrogate (0xED 0xA0 0x80).
      const broken: number[][] = [[0xe9], [0xc3], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80]];
      const native = (bytes: number[]) =>
        withBytes(
          '{"model":"local/echo/chat","input":{"messages":[{"role":"user","content":"caf',
          bytes,
          '"}]}}',
        );
      for (const bytes of broken) {
        for (const path of ['/api/v1/jobs/createTask', '/api/v1/jobs/quote', '/api/v1/jobs/stream']) {
          const { body, offset } = native(bytes);
          expectRefusal(
            await call('POST', path, { headers: { ...auth, ...json }, rawBody: body }),
            message(offset),
          );
        }
      }
      const chat = withBytes(
        '{"model":"local/echo/chat","messages":[{"role":"user","content":"caf',
        [0xe9],
        '"}]}',
      );
      for (const path of ['/v1/chat/completions']) {
        const reply = await app.call('POST', path, { headers: { ...auth, ...json }, rawBody: chat.body });
        expect([reply.status, reply.json]).toEqual([
          400,
          {
            error: {
              message: message(chat.offset),
              type: 'invalid_request_error',
              param: null,
              code: 'invalid_request',
            },
          },
        ]);
      }
      const responses = withBytes('{"model":"local/echo/chat","input":"caf', [0xe9], '"}');
      const answer = await app.call('POST', '/v1/responses', {
        headers: { ...auth, ...json },
        rawBody: responses.body,
      });
      expect([answer.status, answer.json]).toEqual([
        400,
        {
          error: {
            message: message(responses.offset),
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_request',
          },
        },
      ]);
      const messages = withBytes(
        '{"model":"local/echo/chat","max_tokens":20,"messages":[{"role":"user","content":"caf',
        [0xe9],
        '"}]}',
      );
      const anthropic = await app.call('POST', '/v1/messages', {
        headers: { 'x-api-key': key, ...json },
        rawBody: messages.body,
      });
      expect([anthropic.status, anthropic.json]).toEqual([
        400,
        {
          type: 'error',
          error: { type: 'invalid_request_error', message: message(messages.offset) },
          request_id: expect.stringMatching(/^req_/),
        },
      ]);
      const contents = withBytes('{"contents":[{"role":"user","parts":[{"text":"caf', [0xe9], '"}]}]}');
      for (const method of ['generateContent', 'streamGenerateContent']) {
        const google = await app.call('POST', `/v1beta/models/local/echo/chat:${method}`, {
          headers: { 'x-goog-api-key': key, ...json },
          rawBody: contents.body,
        });
        expect([google.status, google.json]).toEqual([
          400,
          { error: { code: 400, message: message(contents.offset), status: 'INVALID_ARGUMENT' } },
        ]);
      }
      // In the caller's language, like every refusal.
      const german = await call('POST', '/api/v1/jobs/createTask', {
        headers: { ...auth, ...json, 'accept-language': 'de' },
        rawBody: native([0xe9]).body,
      });
      expect([german.status, german.headers.get('content-language')]).toEqual([400, 'de']);
      expect(german.json['msg']).toMatch(/^Der Anfragetext ist kein gültiges UTF-8/);
      await expectNothingChanged(auth, 'utf8');
      // The same text in UTF-8 is accepted: the refusal was the encoding.
      const good = await call('POST', '/api/v1/jobs/quote', {
        headers: { ...auth, 'content-type': 'application/json' },
        rawBody: Buffer.from(
          '{"model":"local/echo/chat","input":{"messages":[{"role":"user","content":"café 🦊"}]}}',
          'utf8',
        ),
      });
      expect(good.status).toBe(200);
    });

    it('holds for every JSON body, here an admin and a console body', async () => {
      const { accountId } = await customer();
      const { token } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/console-tokens`)) as {
        token: string;
      };
      const account = withBytes('{"name":"caf', [0xe9], '"}');
      expectRefusal(
        await call('POST', '/admin/v1/accounts', {
          headers: { ...admin, 'content-type': 'application/json' },
          rawBody: account.body,
        }),
        message(account.offset),
      );
      const endpoint = withBytes(
        '{"url":"https://hooks.example.com/","enabledEvents":["task.succeeded"],"description":"caf',
        [0xe9],
        '"}',
      );
      const console = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      expectRefusal(
        await call('POST', '/console/v1/webhook-endpoints', { headers: console, rawBody: endpoint.body }),
        message(endpoint.offset),
      );
      expect((await call('GET', '/console/v1/webhook-endpoints', { headers: console })).json['data']).toEqual(
        {
          items: [],
        },
      );
    });
  });

  describe('admin values that would break every request of an account', () => {
    const MULTIPLIER =
      "The group multiplier must be a decimal from 0.01 to 100 with at most 4 decimal places: the group's prices are the standard prices times it, and must stay above zero. Nothing was changed.";
    const groups = async () =>
      ((await call('GET', '/admin/v1/groups', { headers: admin })).json['data'] as { items: Json[] }).items;

    it('refuses a group multiplier of 0, 0.000000001 or beyond the range, changing nothing', async () => {
      await app.admin('PUT', '/admin/v1/groups/kept', { multiplier: '0.85' });
      for (const multiplier of ['0', '0.000000001', '0.0099', '1.23456', '100.0001', '250']) {
        for (const group of ['fresh', 'kept']) {
          expectRefusal(
            await call('PUT', `/admin/v1/groups/${group}`, { headers: admin, body: { multiplier } }),
            MULTIPLIER,
          );
        }
      }
      const listed = await groups();
      expect(listed.find((g) => g['name'] === 'fresh')).toBeUndefined();
      expect(listed.find((g) => g['name'] === 'kept')).toEqual({ name: 'kept', multiplier: '0.85' });
      // In the caller's language, naming the same range.
      const japanese = await call('PUT', '/admin/v1/groups/fresh', {
        headers: { ...admin, 'accept-language': 'ja' },
        body: { multiplier: '0' },
      });
      expect([japanese.status, japanese.headers.get('content-language')]).toEqual([400, 'ja']);
      expect(japanese.json['msg']).toContain('0.01');
    });

    it('takes the smallest multiplier, and an account of its group is charged, never "Invalid amount"', async () => {
      expect(await app.admin('PUT', '/admin/v1/groups/tiny', { multiplier: '0.01' })).toEqual({
        name: 'tiny',
        multiplier: '0.01',
      });
      const { accountId } = (await app.admin('POST', '/admin/v1/accounts', {
        name: 'tiny',
        group: 'tiny',
        credit: '1',
      })) as { accountId: string };
      const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
        apiKey: string;
      };
      const task = await call('POST', '/api/v1/jobs/createTask', {
        headers: { authorization: `Bearer ${apiKey}` },
        body: { model: 'local/sketch', input: { prompt: 'x', width: 64, height: 64 } },
      });
      expect(task.status).toBe(202);
      // local/sketch costs 0.004 at standard prices: 0.00004 in this group.
      expect((task.json['data'] as Json)['estimatedCost']).toBe('0.00004');
    });

    it('refuses a grant for a model the catalog does not know (nope/nope), naming the field, adding nothing', async () => {
      const { accountId, auth } = await customer();
      const credits = `/admin/v1/accounts/${accountId}/credits`;
      for (const model of ['nope/nope', 'local/sketch/chat', 'LOCAL/SKETCH']) {
        expectRefusal(
          await call('POST', credits, { headers: admin, body: { amount: '5', kind: 'grant', model } }),
          `The model ${model} of the grant (model) does not exist in the catalog. Use an exact id from the model list, such as publisher/model or publisher/model/chat. Nothing was added.`,
        );
      }
      await expectNothingChanged(auth);
      // A model of the catalog is taken, by its id or an alias, and kept under its exact id.
      await app.admin('POST', credits, { amount: '0.5', kind: 'grant', model: 'local/sketch-1' });
      const balance = (await call('GET', '/api/v1/chat/credit', { headers: auth })).json['data'] as Json;
      expect(balance['available']).toBe('1.5');
      expect(JSON.stringify(balance)).toContain('"model":"local/sketch"');
      expect(JSON.stringify(balance)).not.toContain('local/sketch-1');
    });
  });

  describe('unknown query parameters', () => {
    it('refuses GET /api/v1/chat/credit?x=1 (was 200), as every other GET route of the API does', async () => {
      const { auth, accountId } = await customer();
      expectRefusal(
        await call('GET', '/api/v1/chat/credit?x=1', { headers: auth }),
        'Unknown query parameter x.',
      );
      const { token } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/console-tokens`)) as {
        token: string;
      };
      const routes: Array<[string, Headers]> = [
        ['/api/v1/chat/credit', auth],
        ['/api/v1/jobs', auth],
        ['/api/v1/jobs/recordInfo', auth],
        ['/api/v1/usage', auth],
        ['/api/v1/models', auth],
        ['/api/v1/models/local/sketch', auth],
        ['/console/v1/session', { authorization: `Bearer ${token}` }],
        ['/console/v1/webhook-endpoints', { authorization: `Bearer ${token}` }],
        ['/console/v1/webhook-events', { authorization: `Bearer ${token}` }],
        ['/console/v1/catalog/models', {}],
        [`/admin/v1/accounts/${accountId}`, admin],
        [`/admin/v1/accounts/${accountId}/keys`, admin],
        ['/admin/v1/groups', admin],
        ['/admin/v1/webhook-deliveries', admin],
      ];
      for (const [path, headers] of routes) {
        const reply = await app.call('GET', `${path}?x=1`, { headers });
        expect([path, reply.status, reply.json['code'], reply.json['msg']]).toEqual([
          path,
          400,
          400,
          'Unknown query parameter x.',
        ]);
      }
    });
  });

  it('refuses unknown query parameters on the POST routes of the task API too, creating nothing', async () => {
    const { auth } = await customer();
    const json = { ...auth, 'content-type': 'application/json', 'idempotency-key': 'post-query' };
    const task = JSON.stringify({ model: 'local/sketch', input: { prompt: 'x', width: 64, height: 64 } });
    for (const path of ['/api/v1/jobs/createTask', '/api/v1/jobs/quote']) {
      expectRefusal(
        await call('POST', `${path}?x=1`, { headers: json, rawBody: task }),
        'Unknown query parameter x.',
      );
    }
    for (const path of ['/api/v1/jobs/retry', '/api/v1/jobs/purge', '/api/v1/common/download-url']) {
      expectRefusal(
        await call('POST', `${path}?x=1`, {
          headers: json,
          rawBody: JSON.stringify({ taskId: 'job_01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
        }),
        'Unknown query parameter x.',
      );
    }
    await expectNothingChanged(auth, 'post-query');
  });

  describe('refusals before routing', () => {
    const IDEMPOTENCY_DEL = 'a\u007fb';

    it("answers an Idempotency-Key holding byte 0x7F in the envelope (was Fastify's own body), creating nothing", async () => {
      const { auth } = await customer();
      const host = new URL(app.baseUrl).host;
      const body = JSON.stringify({ model: 'local/sketch', input: { prompt: 'x', width: 64, height: 64 } });
      const reply = await rawExchange(
        app.baseUrl,
        `POST /api/v1/jobs/createTask HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${auth['authorization']}\r\n` +
          `Idempotency-Key: ${IDEMPOTENCY_DEL}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        code: 400,
        msg: 'The request could not be read: its request line or a header is not valid HTTP (for example, a control character in a header value).',
        request_id: expect.stringMatching(/^req_/),
      });
      expect(reply.headers['x-request-id']).toBe(reply.json['request_id']);
      expect(reply.headers['content-language']).toBe('en');
      await expectNothingChanged(auth);
    });

    it('keeps the language and the protocol family of the refused request', async () => {
      const host = new URL(app.baseUrl).host;
      const german = await rawExchange(
        app.baseUrl,
        `GET /api/v1/chat/credit HTTP/1.1\r\nHost: ${host}\r\nAccept-Language: de\r\nIdempotency-Key: ${IDEMPOTENCY_DEL}\r\n\r\n`,
      );
      expect(german.headers['content-language']).toBe('de');
      expect(german.json['msg']).toMatch(/^Die Anfrage konnte nicht gelesen werden/);
      const openAi = await rawExchange(
        app.baseUrl,
        `POST /v1/chat/completions HTTP/1.1\r\nHost: ${host}\r\nIdempotency-Key: ${IDEMPOTENCY_DEL}\r\n\r\n`,
      );
      expect(openAi.status).toBe(400);
      expect(openAi.json['error']).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
    });

    it('answers a path that does not percent-decode, or a parameter too long, in the envelope', async () => {
      const { auth } = await customer();
      const msg =
        'The request URL is not valid: a path segment is too long or not correctly percent-encoded.';
      expectRefusal(await app.call('GET', '/api/v1/models/%E0', { headers: auth }), msg);
      expectRefusal(await app.call('GET', `/admin/v1/accounts/${'a'.repeat(300)}`, { headers: admin }), msg);
    });
  });

  describe('callback URLs', () => {
    it('refuses http://:@93.184.216.34/ (empty user info is user info) with exactly "Invalid callback URL"', async () => {
      const { auth } = await customer();
      for (const callBackUrl of [
        'http://:@93.184.216.34/',
        'http://@93.184.216.34/',
        'http::@93.184.216.34/',
      ]) {
        for (const path of ['/api/v1/jobs/createTask', '/api/v1/jobs/quote']) {
          expectRefusal(
            await call('POST', path, {
              headers: { ...auth, 'idempotency-key': 'callback' },
              body: { model: 'local/sketch', input: { prompt: 'x', width: 64, height: 64 }, callBackUrl },
            }),
            'Invalid callback URL',
          );
        }
      }
      await expectNothingChanged(auth, 'callback');
      // The same address without user info is accepted: the refusal was the user info.
      const control = await call('POST', '/api/v1/jobs/quote', {
        headers: auth,
        body: { model: 'local/sketch', input: { prompt: 'x' }, callBackUrl: 'http://93.184.216.34/' },
      });
      expect(control.status).toBe(200);
    });

    it('refuses the same for webhook endpoint URLs, in the same envelope', async () => {
      const { accountId } = await customer();
      const { token } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/console-tokens`)) as {
        token: string;
      };
      const console = { authorization: `Bearer ${token}` };
      // The same message; the console's answer also says which rule broke (a code its page words), never the
      // host or an address. createTask says only the message (the test above: its body is exactly the envelope).
      for (const [url, reason] of [
        ['https://:@93.184.216.34/', 'credentials'],
        ['https://@93.184.216.34/', 'credentials'],
        ['http://93.184.216.34/', 'scheme'],
        ['https://93.184.216.34:8443/', 'port'],
        ['https://10.1.2.3/', 'private_address'],
        ['https://nothing.invalid/', 'unresolvable'],
      ] as const) {
        const reply = await call('POST', '/console/v1/webhook-endpoints', {
          headers: console,
          body: { url, enabledEvents: ['task.succeeded'] },
        });
        expect({ url, status: reply.status, body: reply.json }).toEqual({
          url,
          status: 400,
          body: {
            code: 400,
            msg: 'Invalid callback URL',
            reason,
            request_id: expect.stringMatching(/^req_/),
          },
        });
      }

      const listed = await call('GET', '/console/v1/webhook-endpoints', { headers: console });
      expect(listed.json['data']).toEqual({ items: [] });
      // The same address without user info is accepted: the refusal was the user info.
      const control = await call('POST', '/console/v1/webhook-endpoints', {
        headers: console,
        body: { url: 'https://93.184.216.34/', enabledEvents: ['task.succeeded'] },
      });
      expect(control.status).toBe(200);
    });
  });

  describe('clearer messages (item 7), in every language', () => {
    /** Polls recordInfo until the task is terminal. */
    async function terminal(auth: Headers, taskId: string): Promise<Json> {
      const until = Date.now() + 30_000;
      for (;;) {
        const task = (await call('GET', `/api/v1/jobs/recordInfo?taskId=${taskId}`, { headers: auth })).json[
          'data'
        ] as Json;
        if (!['queued', 'running'].includes(task['state'] as string)) return task;
        if (Date.now() > until) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    const createTask = async (
      auth: Headers,
      simulate = 'success',
      headers: Headers = {},
    ): Promise<string> => {
      const reply = await call('POST', '/api/v1/jobs/createTask', {
        headers: { ...auth, ...headers },
        body: { model: 'local/sketch', input: { prompt: 'x', width: 64, height: 64, simulate } },
      });
      expect(reply.status).toBe(202);
      return (reply.json['data'] as Json)['taskId'] as string;
    };

    it('says that a purged failed task cannot be retried (409, not "only a failed ... task")', async () => {
      const { auth } = await customer();
      const failed = await createTask(auth, 'upstream_failed');
      expect(await terminal(auth, failed)).toMatchObject({ state: 'failed' });
      expect(
        (await call('POST', '/api/v1/jobs/purge', { headers: auth, body: { taskId: failed } })).status,
      ).toBe(200);
      const retry = await call('POST', '/api/v1/jobs/retry', { headers: auth, body: { taskId: failed } });
      expectRefusal(retry, 'A purged task cannot be retried: its prompt no longer exists.', 409);
      const german = await call('POST', '/api/v1/jobs/retry', {
        headers: { ...auth, 'accept-language': 'de' },
        body: { taskId: failed },
      });
      expect([german.status, german.json['code'], german.json['msg']]).toEqual([
        409,
        409,
        'Eine bereinigte (purge) Aufgabe kann nicht wiederholt werden: Ihr Prompt existiert nicht mehr.',
      ]);
      // Past its retention a task's record shows it purged before the sweeper runs: retry says the same.
      const retained = await createTask(auth, 'upstream_failed', { 'x-service-retention': '1' });
      expect(await terminal(auth, retained)).toMatchObject({ state: 'failed' });
      await new Promise((r) => setTimeout(r, 1100));
      expectRefusal(
        await call('POST', '/api/v1/jobs/retry', { headers: auth, body: { taskId: retained } }),
        'A purged task cannot be retried: its prompt no longer exists.',
        409,
      );
      // A task in another state keeps the state message.
      const succeeded = await createTask(auth);
      expect(await terminal(auth, succeeded)).toMatchObject({ state: 'succeeded' });
      expectRefusal(
        await call('POST', '/api/v1/jobs/retry', { headers: auth, body: { taskId: succeeded } }),
        'Only a failed, expired or canceled task can be retried.',
        409,
      );
    });

    it('says that a cursor belongs to other filters (400, not "Invalid value for field state")', async () => {
      const { auth } = await customer();
      await createTask(auth);
      await createTask(auth);
      const first = await call('GET', '/api/v1/jobs?limit=1', { headers: auth });
      const cursor = (first.json['data'] as Json)['nextCursor'] as string;
      expect(cursor).toEqual(expect.any(String));
      expectRefusal(
        await call('GET', `/api/v1/jobs?cursor=${cursor}&state=failed`, { headers: auth }),
        'The cursor was issued for other filters: state differs. Send the filters of the first page again, or start over without a cursor.',
      );
      const japanese = await call('GET', `/api/v1/jobs?cursor=${cursor}&from=2020-01-01`, {
        headers: { ...auth, 'accept-language': 'ja' },
      });
      expect([japanese.status, japanese.json['code'], japanese.headers.get('content-language')]).toEqual([
        400,
        400,
        'ja',
      ]);
      expect(japanese.json['msg']).toContain('from');
      // The same filters repeated are still fine.
      expect((await call('GET', `/api/v1/jobs?cursor=${cursor}&limit=1`, { headers: auth })).status).toBe(
        200,
      );
    });
  });
});
