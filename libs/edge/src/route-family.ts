/**
 * Which protocol a path speaks, which decides how callers authenticate and what error bodies look like.
 * Routing by prefix mirrors the ingress of the distributed mode.
 */
export type RouteFamily =
  | 'native' // /api/v1: envelope, Bearer API key only
  | 'openai' // /v1 (chat completions, responses, models, videos): OpenAI error shape
  | 'anthropic' // /v1/messages: Anthropic error shape
  | 'gemini' // /v1beta, and /v1/models/{model}:generateContent or :streamGenerateContent: Google error shape
  | 'admin' // /admin/v1: envelope, admin token
  | 'console' // /console/v1: envelope, console session token
  | 'public' // /console/v1/catalog, /console/v1/sign-in: envelope, no credential
  | 'system'; // /healthz, /readyz, /openapi.json and anything else: envelope errors, no credential

/** True when `url` is `prefix` itself or continues it with `/` or `?`. */
function under(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
}

/**
 * Google's generate-content methods under `/v1`, where `@google/genai` 3.x calls them unless told `v1beta`: a
 * path under `/v1/models/` ending in `:generateContent` or `:streamGenerateContent` (the model between keeps its
 * slashes). Any other `/v1/models` path (`GET /v1/models`, OpenAI's list) stays OpenAI's.
 */
const GEMINI_UNDER_V1 = /^\/v1\/models\/[^?]+:(?:generateContent|streamGenerateContent)(?:\?|$)/;

export function routeFamily(url: string): RouteFamily {
  if (under(url, '/api/v1')) return 'native';
  if (under(url, '/v1beta')) return 'gemini';
  if (url.startsWith('/v1/models/') && GEMINI_UNDER_V1.test(url)) return 'gemini';
  if (under(url, '/v1/messages')) return 'anthropic';
  if (under(url, '/v1')) return 'openai';
  if (under(url, '/admin/v1')) return 'admin';
  if (under(url, '/console/v1/catalog') || under(url, '/console/v1/sign-in')) return 'public';
  if (under(url, '/console/v1')) return 'console';
  return 'system';
}

/** Families whose success bodies are wrapped in the native envelope. */
export function usesEnvelope(family: RouteFamily): boolean {
  return family === 'native' || family === 'admin' || family === 'console' || family === 'public';
}
