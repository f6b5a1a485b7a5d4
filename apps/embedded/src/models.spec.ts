import { startEmbedded, type Embedded, type Reply } from './testing/embedded-harness';

interface ModelRecord {
  model: string;
  enabled: boolean;
  available: boolean;
  modality: string;
  task: string;
  provider: string;
  aliases: string[];
  pricing: Record<string, string>;
  inputSchema?: Record<string, unknown>;
  examples?: { input: Record<string, unknown> }[];
}

const itemsOf = (reply: Reply) => (reply.json['data'] as { items: ModelRecord[] }).items;

describe('the model catalog over HTTP: /api/v1/models, the public catalog, /v1/models', () => {
  let app: Embedded;
  let auth: Record<string, string>;

  beforeAll(async () => {
    app = await startEmbedded({ LOG_LEVEL: 'silent' });
    auth = { authorization: `Bearer ${app.boot.apiKey}` };
  });
  afterAll(() => app.close());

  /** A key of a new account in a group with the given multiplier. */
  async function keyInGroup(group: string, multiplier: string): Promise<Record<string, string>> {
    await app.admin('PUT', `/admin/v1/groups/${group}`, { multiplier });
    const { accountId } = (await app.admin('POST', '/admin/v1/accounts', { name: group, group })) as {
      accountId: string;
    };
    const { apiKey } = (await app.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {})) as {
      apiKey: string;
    };
    return { authorization: `Bearer ${apiKey}` };
  }

  describe('GET /api/v1/models', () => {
    it('lists enabled models with prices, without schemas or examples unless asked, cacheable privately', async () => {
      const reply = await app.call('GET', '/api/v1/models', { headers: auth });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('cache-control')).toBe('private, max-age=60');
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(reply.headers.get('x-ratelimit-limit')).toBeTruthy();
      expect(reply.json).toMatchObject({
        code: 200,
        msg: 'success',
        request_id: reply.headers.get('x-request-id'),
      });
      const items = itemsOf(reply);
      expect(items.map((m) => m.model)).toEqual(
        expect.arrayContaining(['local/echo/chat', 'local/sketch', 'local/tone', 'local/reel']),
      );
      for (const item of items) {
        expect(item.enabled).toBe(true);
        expect(item).not.toHaveProperty('inputSchema');
        expect(item).not.toHaveProperty('examples');
      }
      const sketch = items.find((m) => m.model === 'local/sketch')!;
      expect(sketch).toMatchObject({ available: true, modality: 'image', task: 'text-to-image' });
      expect(sketch.pricing).toEqual({ currency: 'USD', perImage: '0.004' });
    });

    it.each(['true', '1'])(
      'includes schemas and examples with includeSchema/includeExamples=%s',
      async (flag) => {
        const reply = await app.call('GET', `/api/v1/models?includeSchema=${flag}&includeExamples=${flag}`, {
          headers: auth,
        });
        for (const item of itemsOf(reply)) {
          expect(item.inputSchema).toMatchObject({ type: 'object' });
          expect(item.examples!.length).toBeGreaterThan(0);
        }
      },
    );

    it.each(['false', '0'])('leaves them out with includeSchema=%s', async (flag) => {
      const reply = await app.call('GET', `/api/v1/models?includeSchema=${flag}&includeExamples=${flag}`, {
        headers: auth,
      });
      expect(reply.status).toBe(200);
      for (const item of itemsOf(reply)) expect(item).not.toHaveProperty('inputSchema');
    });

    it('filters by modality, provider, task and search (case-insensitive, aliases too)', async () => {
      const get = async (query: string) =>
        itemsOf(await app.call('GET', `/api/v1/models?${query}`, { headers: auth })).map((m) => m.model);
      expect(await get('modality=audio')).toEqual(['local/tone']);
      expect((await get('modality=text')).every((id) => id.endsWith('/chat'))).toBe(true);
      expect(await get('provider=local')).toEqual([
        'local/echo/chat',
        'local/sketch',
        'local/tone',
        'local/reel',
      ]);
      expect(await get('provider=loc')).toEqual([]);
      expect(await get('task=text-to-video&provider=local')).toEqual(['local/reel']);
      expect(await get('search=SKETCH')).toEqual(['local/sketch']);
      expect(await get('search=sketch-1')).toEqual(['local/sketch']);
      expect(await get(`search=${'x'.repeat(128)}`)).toEqual([]);
    });

    it.each([
      ['foo=1', 'Unknown query parameter foo.'],
      ['modality=text&modality=image', 'The query parameter modality is repeated.'],
      ['search=', 'The query parameter search is empty.'],
      ['includeSchema', 'The query parameter includeSchema is empty.'],
      ['includeSchema=yes', 'Invalid value for field includeSchema.'],
      ['includeExamples=2', 'Invalid value for field includeExamples.'],
      ['modality=picture', 'Invalid value for field modality.'],
      [`search=${'x'.repeat(129)}`, 'The search text is too long: at most 128 characters.'],
    ])('refuses ?%s with 400 and says why', async (query, msg) => {
      const reply = await app.call('GET', `/api/v1/models?${query}`, { headers: auth });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code: 400, msg });
      expect(reply.json).not.toHaveProperty('data');
    });

    it('serves the same list again with its own request id and language', async () => {
      const first = await app.call('GET', '/api/v1/models?modality=image', { headers: auth });
      const again = await app.call('GET', '/api/v1/models?modality=image', {
        headers: { ...auth, 'accept-language': 'ja' },
      });
      expect(again.json['data']).toEqual(first.json['data']);
      expect(again.json['request_id']).not.toBe(first.json['request_id']);
      expect(again.json['request_id']).toBe(again.headers.get('x-request-id'));
      expect(again.json['msg']).not.toBe(first.json['msg']);
    });

    it('answers in the caller’s language', async () => {
      const reply = await app.call('GET', '/api/v1/models?foo=1', {
        headers: { ...auth, 'accept-language': 'de-DE' },
      });
      expect(reply.headers.get('content-language')).toBe('de');
      expect(reply.json['code']).toBe(400);
      expect(reply.json['msg']).not.toBe('Unknown query parameter foo.');
      expect(reply.json['msg']).toContain('foo');
    });

    it('needs an API key', async () => {
      const reply = await app.call('GET', '/api/v1/models');
      expect(reply.status).toBe(401);
    });

    it('prices for the caller’s group, exactly', async () => {
      const cheap = await keyInGroup('partner', '0.85');
      const dear = await keyInGroup('premium', '1.2');
      const priced = async (headers: Record<string, string>) => {
        const items = itemsOf(await app.call('GET', '/api/v1/models?provider=local', { headers }));
        return Object.fromEntries(items.map((m) => [m.model, m.pricing]));
      };
      const standard = await priced(auth);
      const partner = await priced(cheap);
      const premium = await priced(dear);
      expect(standard['local/echo/chat']).toEqual({
        currency: 'USD',
        perMillionInputTokens: '0.5',
        perMillionCachedInputTokens: '0.05',
        perMillionOutputTokens: '1.5',
      });
      // 0.05 * 0.85 is 0.042499999999999996 in floating point.
      expect(partner['local/echo/chat']).toEqual({
        currency: 'USD',
        perMillionInputTokens: '0.425',
        perMillionCachedInputTokens: '0.0425',
        perMillionOutputTokens: '1.275',
      });
      expect(partner['local/sketch']).toEqual({ currency: 'USD', perImage: '0.0034' });
      expect(premium['local/tone']).toEqual({ currency: 'USD', perSecond: '0.0006' });
      expect(premium['local/reel']).toEqual({ currency: 'USD', perSecond: '0.024' });
    });
  });

  describe('GET /api/v1/models/{model}', () => {
    it.each(['local/sketch', 'local%2Fsketch', 'local%2fsketch'])(
      'finds %s with its schema and examples, priced, cacheable privately',
      async (path) => {
        const reply = await app.call('GET', `/api/v1/models/${path}`, { headers: auth });
        expect(reply.status).toBe(200);
        expect(reply.headers.get('cache-control')).toBe('private, max-age=60');
        const record = reply.json['data'] as ModelRecord;
        expect(record.model).toBe('local/sketch');
        expect(record.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(record.examples!.length).toBeGreaterThan(0);
        expect(record.pricing).toEqual({ currency: 'USD', perImage: '0.004' });
      },
    );

    it('goes through the whole edge: key, rate headers, request id, envelope', async () => {
      const reply = await app.call('GET', '/api/v1/models/local/sketch', { headers: auth });
      expect(reply.headers.get('x-ratelimit-limit')).toBeTruthy();
      expect(reply.headers.get('x-ratelimit-remaining')).toBeTruthy();
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(reply.json).toMatchObject({
        code: 200,
        msg: 'success',
        request_id: reply.headers.get('x-request-id'),
      });

      const anonymous = await app.call('GET', '/api/v1/models/local/sketch');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('cache-control')).not.toBe('private, max-age=60');
      expect(anonymous.json).toMatchObject({ code: 401, request_id: anonymous.headers.get('x-request-id') });
      expect(anonymous.json).not.toHaveProperty('data');
      const other = await app.call('GET', '/api/v1/models/local/sketch', {
        headers: { authorization: 'Basic dXNlcjpwYXNz' },
      });
      expect(other.status).toBe(401);
    });

    it('finds a chat model by its three-segment id', async () => {
      const reply = await app.call('GET', '/api/v1/models/local/echo/chat', { headers: auth });
      expect((reply.json['data'] as ModelRecord).model).toBe('local/echo/chat');
    });

    it.each(['local/nothing', 'local', 'local/sketch/extra'])(
      'answers 404 in the envelope for %s',
      async (id) => {
        const reply = await app.call('GET', `/api/v1/models/${id}`, { headers: auth });
        expect(reply.status).toBe(404);
        expect(reply.json).toMatchObject({ code: 404 });
        expect(reply.json['msg']).toContain(id);
        expect(reply.json).not.toHaveProperty('data');
      },
    );

    it('takes no query parameters', async () => {
      const reply = await app.call('GET', '/api/v1/models/local/sketch?includeSchema=1', { headers: auth });
      expect(reply.status).toBe(400);
      expect(reply.json['msg']).toBe('Unknown query parameter includeSchema.');
    });
  });

  describe('GET /v1/models', () => {
    it('lists every model in the OpenAI shape, without prices, with the chat details', async () => {
      const reply = await app.call('GET', '/v1/models', { headers: { 'x-api-key': app.boot.apiKey } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Object.keys(reply.json).sort()).toEqual(['data', 'object']);
      expect(reply.json['object']).toBe('list');
      const data = reply.json['data'] as Record<string, unknown>[];
      const echo = data.find((m) => m['id'] === 'local/echo/chat')!;
      expect(echo).toMatchObject({ object: 'model', owned_by: 'local', modality: 'text', task: 'chat' });
      expect(typeof echo['created']).toBe('number');
      expect(echo['context_length']).toEqual(expect.any(Number));
      expect(echo['max_output_tokens']).toEqual(expect.any(Number));
      expect(echo['supported_parameters']).toEqual(expect.arrayContaining(['max_tokens', 'temperature']));
      const sketch = data.find((m) => m['id'] === 'local/sketch')!;
      expect(sketch).not.toHaveProperty('context_length');
      for (const item of data) expect(item).not.toHaveProperty('pricing');
    });

    it('filters with ?modality=text', async () => {
      const reply = await app.call('GET', '/v1/models?modality=text', { headers: auth });
      const data = reply.json['data'] as Record<string, unknown>[];
      expect(data.length).toBeGreaterThan(0);
      expect(data.every((m) => m['modality'] === 'text')).toBe(true);
    });

    it('answers errors in the OpenAI shape', async () => {
      const bad = await app.call('GET', '/v1/models?modality=smell', { headers: auth });
      expect(bad.status).toBe(400);
      expect(bad.json['error']).toMatchObject({ type: 'invalid_request_error' });
      const anonymous = await app.call('GET', '/v1/models');
      expect(anonymous.status).toBe(401);
      expect(anonymous.json['error']).toMatchObject({ message: expect.any(String) });
    });
  });

  // Last: it spends this address's public-catalog bucket.
  describe('GET /console/v1/catalog/models', () => {
    it('needs no key, shows standard prices, and limits requests per source address', async () => {
      const first = await app.call('GET', '/console/v1/catalog/models?provider=local');
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('public, max-age=60');
      expect(first.headers.get('x-ratelimit-limit')).toBe('30');
      const sketch = itemsOf(first).find((m) => m.model === 'local/sketch')!;
      expect(sketch.pricing).toEqual({ currency: 'USD', perImage: '0.004' });

      const bad = await app.call('GET', '/console/v1/catalog/models?modality=smell');
      expect(bad.status).toBe(400);

      let last: Reply = first;
      for (let i = 0; i < 40 && last.status !== 429; i += 1)
        last = await app.call('GET', '/console/v1/catalog/models');
      expect(last.status).toBe(429);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last.json).toMatchObject({ code: 429 });
      expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    });
  });
});
