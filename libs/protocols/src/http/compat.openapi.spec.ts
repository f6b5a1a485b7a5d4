import { buildOpenApiDocument, routeFamily, systemOpenApi } from '@gen/edge';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { compatOpenApi } from './compat.openapi';

type Json = Record<string, unknown>;

const doc = buildOpenApiDocument([systemOpenApi, compatOpenApi]);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi.json', components: doc['components'] } as Json);
const compile = (schema: unknown) =>
  ajv.compile(
    JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/')) as Json,
  );

const operations = Object.entries(doc['paths'] as Record<string, Json>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post'].includes(method))
    .map(([method, operation]) => ({ path, method, operation: operation as Json })),
);
const compat = operations.filter(({ path }) => path.startsWith('/v1'));
const SCHEMA_OF_FAMILY: Record<string, string> = {
  openai: 'CompatOpenAiError',
  anthropic: 'CompatAnthropicError',
  gemini: 'CompatGoogleError',
};

describe('compatOpenApi', () => {
  it('documents every compatibility route, and no other', () => {
    expect(compat.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'get /v1/videos/{id}',
      'get /v1/videos/{id}/content',
      'post /v1/chat/completions',
      'post /v1/messages',
      'post /v1/models/{model}:generateContent',
      'post /v1/models/{model}:streamGenerateContent',
      'post /v1/responses',
      'post /v1/videos',
      'post /v1beta/models/{model}:generateContent',
      'post /v1beta/models/{model}:streamGenerateContent',
    ]);
  });

  it('accepts the key as Bearer, x-api-key, x-gen-api-key or x-goog-api-key, each a declared scheme', () => {
    const schemes = (doc['components'] as { securitySchemes: Record<string, Json> }).securitySchemes;
    for (const { operation } of compat) {
      const security = operation['security'] as Record<string, unknown>[];
      expect(security.map((s) => Object.keys(s)[0])).toEqual([
        'apiKey',
        'xApiKey',
        'xGenApiKey',
        'xGoogApiKey',
      ]);
    }
    expect(
      ['xApiKey', 'xGenApiKey', 'xGoogApiKey'].map((name) => [schemes[name]!['in'], schemes[name]!['name']]),
    ).toEqual([
      ['header', 'x-api-key'],
      ['header', 'x-gen-api-key'],
      ['header', 'x-goog-api-key'],
    ]);
    // The native and admin schemes are still there: a fragment adds schemes, it does not replace them.
    expect(Object.keys(schemes)).toEqual(expect.arrayContaining(['apiKey', 'adminToken', 'consoleSession']));
  });

  it('documents 400, 401, 404, 429 and 503 on every route and 402 on every POST, each with an example', () => {
    for (const { method, path, operation } of compat) {
      const responses = operation['responses'] as Record<string, Json>;
      const wanted = ['400', '401', '404', '429', '503', ...(method === 'post' ? ['402'] : [])];
      // POST /v1/videos refuses an unknown model with 400: it has no 404 of its own.
      for (const status of wanted.filter((s) => !(path === '/v1/videos' && s === '404'))) {
        const examples = (responses[status]?.['content'] as Json | undefined)?.['application/json'] as
          { examples: Record<string, unknown> } | undefined;
        expect({ path, status, examples: Object.keys(examples?.examples ?? {}).length > 0 }).toEqual({
          path,
          status,
          examples: true,
        });
      }
    }
  });

  it('every error example matches its schema, its status and its protocol', () => {
    let checked = 0;
    for (const { path, operation } of compat) {
      for (const [status, response] of Object.entries(operation['responses'] as Record<string, Json>)) {
        if (Number(status) < 400) continue;
        const media = (response['content'] as Json)['application/json'] as {
          schema: { $ref: string };
          examples: Record<string, { value: Json }>;
        };
        const validate = compile(media.schema);
        for (const { value } of Object.values(media.examples)) {
          checked += 1;
          if (!validate(value)) throw new Error(`${path} ${status}: ${ajv.errorsText(validate.errors)}`);
          const family = media.schema.$ref.split('/').at(-1);
          if (family === 'CompatGoogleError') expect((value['error'] as Json)['code']).toBe(Number(status));
          if (family === 'CompatAnthropicError') expect(value['type']).toBe('error');
          // The shape the edge renders its own refusals in on that path (Google's on /v1/models/...:generateContent).
          const concrete = path.replace('{model}', 'local/echo/chat').replace('{id}', 'job_1');
          expect({ path, family }).toEqual({ path, family: SCHEMA_OF_FAMILY[routeFamily(concrete)] });
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('documents generate content under /v1/models/ exactly as under /v1beta/models/', () => {
    const paths = doc['paths'] as Record<string, Json>;
    for (const method of [':generateContent', ':streamGenerateContent']) {
      expect(paths[`/v1/models/{model}${method}`]).toEqual(paths[`/v1beta/models/{model}${method}`]);
      expect(paths[`/v1/models/{model}${method}`]).toBeDefined();
    }
  });

  it('the error schemas refuse the other protocols’ shapes', () => {
    const openai = { error: { message: 'm', type: 't', param: null, code: 'c' } };
    const anthropic = { type: 'error', error: { type: 't', message: 'm' } };
    const google = { error: { code: 400, message: 'm', status: 'INVALID_ARGUMENT' } };
    const results = ['CompatOpenAiError', 'CompatAnthropicError', 'CompatGoogleError'].map((name) => {
      const validate = compile({ $ref: `#/components/schemas/${name}` });
      return [openai, anthropic, google].map((body) => validate(body));
    });
    expect(results).toEqual([
      [true, false, false],
      [false, true, false],
      [false, false, true],
    ]);
  });

  it('200 of a text route is JSON or a stream; streamGenerateContent’s JSON is an array', () => {
    const ok = (path: string) =>
      ((compat.find((op) => op.path === path)!.operation['responses'] as Json)['200'] as Json)[
        'content'
      ] as Json;
    for (const path of ['/v1/chat/completions', '/v1/responses', '/v1/messages']) {
      expect(Object.keys(ok(path)).sort()).toEqual(['application/json', 'text/event-stream']);
    }
    expect(Object.keys(ok('/v1beta/models/{model}:generateContent'))).toEqual(['application/json']);
    const array = compile(
      (ok('/v1beta/models/{model}:streamGenerateContent')['application/json'] as Json)['schema'],
    );
    const chunk = {
      candidates: [{ content: { parts: [{ text: 'hi' }], role: 'model' }, index: 0 }],
      modelVersion: 'local/echo/chat',
      responseId: 'req_1',
    };
    expect(array([chunk, { error: { code: 503, message: 'm', status: 'UNAVAILABLE' } }])).toBe(true);
    expect(array(chunk)).toBe(false);
    expect(array([{ ...chunk, extra: 1 }])).toBe(false);
  });
});
