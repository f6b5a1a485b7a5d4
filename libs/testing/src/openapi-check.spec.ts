import { OpenApiCheck } from './openapi-check';

const doc = {
  components: {
    schemas: { Answer: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } } },
  },
  paths: {
    '/v1beta/models/{model}:generate': {
      post: {
        responses: {
          '200': {
            headers: {
              'X-Task-Id': { schema: { type: 'string', pattern: '^job_' } },
              'X-Ignored': { required: false, schema: { type: 'string', pattern: '^[a-z,]+$' } },
            },
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Answer' } },
              'text/event-stream': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
    '/v1/videos/{id}': { get: { responses: { '200': { description: 'no body documented' } } } },
    '/v1/videos/{id}/content': { get: { responses: { '302': { description: 'redirect' } } } },
  },
};

const headers = (values: Record<string, string>) => new Headers(values);
const json = { 'content-type': 'application/json; charset=utf-8', 'x-task-id': 'job_1' };

describe('OpenApiCheck', () => {
  const check = new OpenApiCheck(doc);

  it('finds a template by segments first, then lets a parameter keep its slashes', () => {
    expect(check.templateOf('/v1/videos/job_1/content')).toBe('/v1/videos/{id}/content');
    expect(check.templateOf('/v1/videos/job_1')).toBe('/v1/videos/{id}');
    expect(check.templateOf('/v1beta/models/local/echo/chat:generate?alt=sse')).toBe(
      '/v1beta/models/{model}:generate',
    );
    expect(check.templateOf('/v1beta/models/m:generateX')).toBeUndefined();
  });

  it('checks the body against the schema of the answer’s own content type', () => {
    const path = '/v1beta/models/m:generate';
    expect(() => check.check('POST', path, 200, headers(json), { text: 'hi' })).not.toThrow();
    expect(() => check.check('POST', path, 200, headers(json), { nope: 1 })).toThrow(/body does not match/);
    const sse = { ...json, 'content-type': 'text/event-stream; charset=utf-8' };
    expect(() => check.check('POST', path, 200, headers(sse), {})).not.toThrow();
    const html = { ...json, 'content-type': 'text/html' };
    expect(() => check.check('POST', path, 200, headers(html), {})).toThrow(/"text\/html" is not documented/);
  });

  it('requires documented headers unless optional, and checks the value of each present one', () => {
    const path = '/v1beta/models/m:generate';
    const body = { text: 'hi' };
    expect(() =>
      check.check('POST', path, 200, headers({ 'content-type': 'application/json' }), body),
    ).toThrow(/missing header X-Task-Id/);
    expect(() => check.check('POST', path, 200, headers({ ...json, 'x-task-id': 'task_1' }), body)).toThrow(
      /header X-Task-Id does not match/,
    );
    expect(() =>
      check.check('POST', path, 200, headers({ ...json, 'x-ignored': 'user,store' }), body),
    ).not.toThrow();
    expect(() => check.check('POST', path, 200, headers({ ...json, 'x-ignored': 'USER' }), body)).toThrow(
      /header X-Ignored does not match/,
    );
  });

  it('refuses an undocumented status or operation', () => {
    expect(() => check.check('GET', '/v1/videos/job_1/content', 200, headers({}), {})).toThrow(
      /does not document status 200/,
    );
    expect(() => check.check('POST', '/v1/videos/job_1', 200, headers({}), {})).toThrow(/is not documented/);
    expect(() => check.check('GET', '/v1/videos/job_1/content', 302, headers({}), {})).not.toThrow();
  });
});
