import { routeFamily, usesEnvelope, type RouteFamily } from './route-family';

describe('routeFamily', () => {
  it.each<[string, RouteFamily]>([
    ['/api/v1', 'native'],
    ['/api/v1/chat/credit', 'native'],
    ['/api/v1/jobs/createTask', 'native'],
    ['/api/v1/jobs?limit=5', 'native'],
    ['/api/v1?x=1', 'native'],
    ['/v1beta', 'gemini'],
    ['/v1beta/models', 'gemini'],
    ['/v1beta/models/m:generateContent?alt=sse', 'gemini'],
    // What @google/genai 3.x calls by default: Google's methods under /v1, the model keeping its slashes.
    ['/v1/models/local/echo/chat:generateContent', 'gemini'],
    ['/v1/models/local/echo/chat:streamGenerateContent?alt=sse', 'gemini'],
    ['/v1/models/local%2Fecho%2Fchat:streamGenerateContent', 'gemini'],
    ['/v1/models/m:generateContent?x=1', 'gemini'],
    ['/v1/messages', 'anthropic'],
    ['/v1/messages/count_tokens', 'anthropic'],
    ['/v1/messages?beta=true', 'anthropic'],
    ['/v1', 'openai'],
    ['/v1/chat/completions', 'openai'],
    ['/v1/responses', 'openai'],
    ['/v1/models', 'openai'],
    ['/v1/models?x=1', 'openai'],
    ['/v1/models/local/echo/chat', 'openai'],
    ['/v1/models/m:embedContent', 'openai'],
    ['/v1/models/m:generateContentX', 'openai'],
    ['/v1/models/:generateContent', 'openai'],
    ['/v1/models?q=m:generateContent', 'openai'],
    ['/v1/models/m?q=:generateContent', 'openai'],
    ['/v1/videos', 'openai'],
    ['/admin/v1', 'admin'],
    ['/admin/v1/accounts', 'admin'],
    ['/admin/v1/keys?account=acc_1', 'admin'],
    ['/console/v1/catalog', 'public'],
    ['/console/v1/catalog/models', 'public'],
    ['/console/v1/catalog?search=x', 'public'],
    ['/console/v1/sign-in', 'public'],
    ['/console/v1/sign-in?x=1', 'public'],
    ['/console/v1/sign-out', 'console'],
    ['/console/v1/sign-inx', 'console'],
    ['/console/v1', 'console'],
    ['/console/v1/webhooks', 'console'],
    ['/console/v1/catalogue', 'console'],
    ['/healthz', 'system'],
    ['/readyz', 'system'],
    ['/openapi.json', 'system'],
    ['/', 'system'],
  ])('%s is %s', (url, family) => {
    expect(routeFamily(url)).toBe(family);
  });

  it.each([
    '/api/v10',
    '/api/v1x/credit',
    '/api',
    '/v10/models',
    '/v1betax',
    '/admin/v10',
    '/admin',
    '/console',
    '/API/v1/chat/credit',
    '/x/api/v1/',
  ])('does not take the look-alike %s for a family of its own', (url) => {
    expect(routeFamily(url)).toBe('system');
  });
});

describe('usesEnvelope', () => {
  it.each<[RouteFamily, boolean]>([
    ['native', true],
    ['admin', true],
    ['console', true],
    ['public', true],
    ['openai', false],
    ['anthropic', false],
    ['gemini', false],
    ['system', false],
  ])('%s -> %s', (family, expected) => {
    expect(usesEnvelope(family)).toBe(expected);
  });
});

describe('routeFamily prefix boundaries (regression)', () => {
  it.each([
    ['/v1?x=1', 'openai'],
    ['/v1beta?x=1', 'gemini'],
    ['/admin/v1?x=1', 'admin'],
    ['/console/v1?x=1', 'console'],
    ['/v1/messagesfoo', 'openai'],
    ['/v1/messages?beta=true', 'anthropic'],
    ['/api/v1x', 'system'],
  ] as const)('%s is %s', (url, family) => {
    expect(routeFamily(url)).toBe(family);
  });
});
