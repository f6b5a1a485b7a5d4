/**
 * Which protocol a path speaks, which decides how callers authenticate and what error bodies look like.
 * Routing by prefix mirrors the ingress of the distributed mode.
 */
export type RouteFamily =
  | 'native' // /api/v1: envelope, Bearer API key only
  | 'openai' // /v1 (chat completions, responses, models, videos): OpenAI error shape
  | 'anthropic' // /v1/messages: Anthropic error shape
  | 'gemini' // /v1beta: Google error shape
  | 'admin' // /admin/v1: envelope, admin token
  | 'console' // /console/v1: envelope, console session token
  | 'public' // /console/v1/catalog: envelope, no credential
  | 'system'; // /healthz, /readyz, /openapi.json and anything else: envelope errors, no credential

export function routeFamily(url: string): RouteFamily {
  if (url.startsWith('/api/v1/') || url === '/api/v1' || url.startsWith('/api/v1?')) return 'native';
  if (url.startsWith('/v1beta/') || url === '/v1beta') return 'gemini';
  if (url.startsWith('/v1/messages')) return 'anthropic';
  if (url.startsWith('/v1/') || url === '/v1') return 'openai';
  if (url.startsWith('/admin/v1/') || url === '/admin/v1') return 'admin';
  if (
    url.startsWith('/console/v1/catalog/') ||
    url.startsWith('/console/v1/catalog?') ||
    url === '/console/v1/catalog'
  )
    return 'public';
  if (url.startsWith('/console/v1/') || url === '/console/v1') return 'console';
  return 'system';
}

/** Families whose success bodies are wrapped in the native envelope. */
export function usesEnvelope(family: RouteFamily): boolean {
  return family === 'native' || family === 'admin' || family === 'console' || family === 'public';
}
