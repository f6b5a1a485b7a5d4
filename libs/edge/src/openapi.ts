import { MAX_JSON_DEPTH } from '@gen/core';
import { Type, type TSchema } from '@sinclair/typebox';
import type { EdgeRouteLimits } from './install-edge';
import type { TokenBucketPolicy } from './rate-limit';
import { routeFamily } from './route-family';

/**
 * A part of the OpenAPI document contributed by one library, next to the code it describes: its paths, and the
 * security schemes and shared schemas its operations name (merged into `components`; a name is one library's).
 */
export interface OpenApiFragment {
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components?: {
    readonly securitySchemes?: Record<string, unknown>;
    readonly schemas?: Record<string, unknown>;
  };
}

export const ErrorEnvelope = Type.Object(
  {
    code: Type.Integer({ description: 'Business code (never 200 here).' }),
    msg: Type.String({ description: 'Human-readable text in the negotiated language.' }),
    request_id: Type.String({ pattern: '^req_' }),
    reason: Type.Optional(
      Type.String({
        pattern: '^[a-z_]+$',
        description:
          'Console routes (/console/v1) only: which rule a value broke, as a code the console words itself (a webhook endpoint URL: scheme, credentials, port, host, too_long, malformed, unresolvable, private_address). Never names a host or an address; never on the public API.',
      }),
    ),
  },
  { additionalProperties: false, description: 'Failure envelope: `data` is absent.' },
);

/** The success envelope around `data`. */
export function envelopeOf(data: TSchema): TSchema {
  return Type.Object(
    { code: Type.Literal(200), msg: Type.String(), data, request_id: Type.String({ pattern: '^req_' }) },
    { additionalProperties: false },
  );
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: `Invalid request: malformed JSON or HTTP, a JSON body that is not UTF-8, unsupported content type, unknown or invalid field, an id not shaped like ours (a task id of the public API excepted: any text of 1 to 256 characters is looked up, 404 when no such task), bad query parameter, a JSON body nested more than ${MAX_JSON_DEPTH} levels, or text (in the body, query or path) holding NUL (U+0000) or a lone surrogate.`,
  401: 'Missing or invalid credential, a credential in the URL, or an authorization scheme other than Bearer.',
  402: 'Insufficient balance (40201) or spend cap reached (40202).',
  403: 'Not permitted.',
  404: 'Not found.',
  409: 'Conflict.',
  413: 'Body too large.',
  429: 'Rate limited; Retry-After is present.',
  500: 'Server error; the body never carries internals.',
  503: 'Temporarily unavailable, or shutting down.',
};

const REQUEST_ID_HEADER = {
  'X-Request-Id': { schema: { type: 'string', pattern: '^req_' }, description: 'Same as request_id.' },
};
const RATE_HEADERS = {
  'X-RateLimit-Limit': { schema: { type: 'string' } },
  'X-RateLimit-Remaining': { schema: { type: 'string' } },
};

export function errorResponses(statuses: readonly number[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of statuses) {
    out[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
      headers: {
        ...REQUEST_ID_HEADER,
        'Content-Language': { schema: { type: 'string' } },
        ...(status === 429 || status === 503 ? { 'Retry-After': { schema: { type: 'string' } } } : {}),
      },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return out;
}

/** Who may call a `/console/v1` route: a bearer console token or the web console's cookie (with CSRF). */
export const CONSOLE_SECURITY: readonly Record<string, readonly string[]>[] = [
  { consoleSession: [] },
  { consoleCookie: [] },
];

export function envelopeResponse(
  description: string,
  data: TSchema,
  options: { rateLimited?: boolean; status?: number } = {},
): Record<string, unknown> {
  return {
    [String(options.status ?? 200)]: {
      description,
      headers: { ...REQUEST_ID_HEADER, ...(options.rateLimited ? RATE_HEADERS : {}) },
      content: { 'application/json': { schema: envelopeOf(data) } },
    },
  };
}

export const systemOpenApi: OpenApiFragment = {
  paths: {
    '/healthz': {
      get: {
        tags: ['system'],
        summary: 'Liveness: 200 while the process is up.',
        security: [],
        responses: {
          '200': {
            description: 'Up.',
            content: { 'application/json': { schema: Type.Object({ status: Type.Literal('ok') }) } },
          },
        },
      },
    },
    '/readyz': {
      get: {
        tags: ['system'],
        summary: 'Readiness: 200 when the process can serve (database reachable, not draining).',
        security: [],
        responses: {
          '200': {
            description: 'Ready.',
            content: { 'application/json': { schema: Type.Object({ status: Type.Literal('ready') }) } },
          },
          '503': {
            description: 'Not ready.',
            content: { 'application/json': { schema: Type.Object({ status: Type.Literal('unavailable') }) } },
          },
        },
      },
    },
    '/openapi.json': {
      get: {
        tags: ['system'],
        summary: 'This document.',
        security: [],
        responses: { '200': { description: 'OpenAPI 3.1 document.' } },
      },
    },
  },
};

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const OPERATION_METHODS = new Set(['get', ...WRITE_METHODS]);

const bucket = (count: string, policy: TokenBucketPolicy | undefined): string =>
  policy ? `${policy.burst} ${count}, refilling ${policy.refillPerMinute} a minute` : count;

/**
 * What the edge's own buckets of an admin or console operation are (install-edge.ts: per source address, per
 * console session for writes), with the configured numbers when known.
 */
function edgeLimitsOf(family: 'admin' | 'console', write: boolean, limits?: EdgeRouteLimits): string {
  if (family === 'admin') {
    return (
      `Per source address: ${bucket('admin requests', limits?.adminPerAddress)}; and ` +
      `${bucket('failed admin-token attempts (401)', limits?.adminFailuresPerAddress)}, after which every ` +
      'admin request of that address is refused, before its token is checked, until one refills.'
    );
  }
  const address = `Per source address: ${bucket('console requests', limits?.consolePerAddress)}.`;
  if (!write) return address;
  return `${address} Per console session: ${bucket('POST, PUT, PATCH and DELETE calls', limits?.consoleWritesPerSession)}.`;
}

/**
 * Every admin and console operation may be refused by the edge's buckets before its route runs: its 429,
 * added where the fragment has none, and told in the description where it has one (a route's own bucket).
 */
function documentEdgeLimits(
  paths: Record<string, Record<string, unknown>>,
  limits: EdgeRouteLimits | undefined,
): void {
  for (const [path, item] of Object.entries(paths)) {
    const family = routeFamily(path);
    if (family !== 'admin' && family !== 'console') continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!OPERATION_METHODS.has(method)) continue;
      const responses = ((operation as Record<string, unknown>)['responses'] ??= {}) as Record<
        string,
        { description?: string }
      >;
      const edge = edgeLimitsOf(family, WRITE_METHODS.has(method), limits);
      const own = responses['429'];
      if (own) {
        responses['429'] = { ...own, description: `${own.description ?? ''} ${edge}`.trim() };
      } else {
        const added = errorResponses([429])['429'] as { description: string };
        responses['429'] = { ...added, description: `${added.description} ${edge}` };
      }
    }
  }
}

/** What the document says that depends on the configuration. */
export interface OpenApiOptions {
  /** The admin and console routes' buckets (numbers in their 429 answers); absent, they are named without. */
  readonly routeLimits?: EdgeRouteLimits;
}

/** Assembles the OpenAPI 3.1 document (contract version 1.0.0) from the fragments of the composed libraries. */
export function buildOpenApiDocument(
  fragments: readonly OpenApiFragment[],
  options: OpenApiOptions = {},
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const securitySchemes: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const fragment of fragments) {
    for (const [path, item] of Object.entries(fragment.paths))
      paths[path] = { ...(paths[path] ?? {}), ...item };
    Object.assign(securitySchemes, fragment.components?.securitySchemes);
    Object.assign(schemas, fragment.components?.schemas);
  }
  // On copies: a fragment's objects are shared module constants.
  const documented = JSON.parse(JSON.stringify(paths)) as Record<string, Record<string, unknown>>;
  documentEdgeLimits(documented, options.routeLimits);
  return JSON.parse(
    JSON.stringify({
      openapi: '3.1.0',
      info: {
        title: 'Generation Task Service',
        version: '1.0.0',
        description:
          'One API key, one asynchronous task protocol and one result protocol for image, video, audio and text models. ' +
          'Native API under /api/v1 (envelope), administration under /admin/v1, console under /console/v1. ' +
          'Every envelope response carries X-Request-Id equal to request_id; errors carry Content-Language. ' +
          'Choices where the specification says "not shown" are recorded on the operations they concern.',
      },
      servers: [{ url: '/' }],
      security: [{ apiKey: [] }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'API key (`gts_...`). Never accepted in a query string.',
          },
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'Operator admin token (ADMIN_TOKEN or generated on first start).',
          },
          consoleSession: {
            type: 'http',
            scheme: 'bearer',
            description: 'Console session token (`gcs_...`, `console-token create`): no CSRF token needed.',
          },
          consoleCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'console_session',
            description:
              "The web console's session cookie, set by `POST /console/v1/sign-in`. Every POST, PUT, PATCH and DELETE with it must send `X-CSRF-Token` (the `csrfToken` of sign-in or of `GET /console/v1/session`), else 403.",
          },
          ...securitySchemes,
        },
        schemas: { ErrorEnvelope, ...schemas },
      },
      paths: documented,
    }),
  ) as Record<string, unknown>;
}
