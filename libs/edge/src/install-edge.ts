import {
  API_KEY_PREFIX,
  BusinessCode,
  CONSOLE_SESSION_COOKIE,
  CSRF_HEADER,
  type AdminTokenVerifier,
  type ApiKeyAuthenticator,
  type ApiKeyPrincipal,
  type ConsolePrincipal,
  type ConsoleSessionVerifier,
} from '@gen/contracts';
import {
  DomainError,
  SUPPORTED_LANGUAGES,
  lazyChildLogger,
  loggableUrl,
  negotiateLanguage,
  translate,
  type Language,
  type Logger,
} from '@gen/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, compatApiKey, nativeApiKey, refuseQueryCredential } from './credentials';
import { installFormFields } from './form-fields';
import { isForwarded } from './forwarded-request';
import { cookieValue } from './request-origin';
import type { EdgeState } from './edge-state';
import type { RateDecision, RateLimitStore, TokenBucketPolicy } from './rate-limit';
import { routeFamily, usesEnvelope, type RouteFamily } from './route-family';
import { installUtf8Json } from './utf8-json';
import { refuseIllFormedInput } from './well-formed-request';

/** A key verifier whose recent answers can be read without waiting (see CachedApiKeyAuthenticator). */
export interface PeekingApiKeyAuthenticator extends ApiKeyAuthenticator {
  peek(presentedKey: string): ApiKeyPrincipal | undefined;
}

/**
 * What the edge needs. A verifier is null in an app that serves no route of its families (no accounts
 * module): their requests then answer 404 before any credential is read, as they would for any unknown path.
 */
export interface EdgeDependencies {
  readonly apiKeys: PeekingApiKeyAuthenticator | null;
  readonly consoleSessions: ConsoleSessionVerifier | null;
  readonly adminTokens: AdminTokenVerifier | null;
  readonly rateLimits: RateLimitStore;
  readonly perKeyPolicy: TokenBucketPolicy;
  /** The buckets of the admin and console routes, per source address and per console session. */
  readonly routeLimits: EdgeRouteLimits;
  readonly logger: Logger;
  /** True once SIGTERM arrived: new work is refused with 503 while in-flight requests finish. */
  readonly isDraining: () => boolean;
  /** Where each finished request's duration goes (the `/metrics` histogram), by route family and status. */
  readonly requests?: RequestObserver;
}

/**
 * The buckets of `/admin/v1` and `/console/v1` (docs/operations.md), beside the per-key one of the API families.
 * The public catalog and console sign-in have their own, per address (their routes' `@RateLimited`).
 */
export interface EdgeRouteLimits {
  /** Every `/admin/v1` request, per source address, before its token is checked. */
  readonly adminPerAddress: TokenBucketPolicy;
  /**
   * Failed admin-token attempts (401) per source address. Once they are spent, every `/admin/v1` request of
   * that address is 429 until a token refills, before any token is checked: a right guess gains nothing.
   */
  readonly adminFailuresPerAddress: TokenBucketPolicy;
  /** Every `/console/v1` request with a credential, per source address, before the session is checked. */
  readonly consolePerAddress: TokenBucketPolicy;
  /** Every POST, PUT, PATCH and DELETE of one console session (cookie or bearer console token). */
  readonly consoleWritesPerSession: TokenBucketPolicy;
}

/** Takes one observation per finished request; must be cheap (it runs on every request). */
export interface RequestObserver {
  observe(family: RouteFamily, status: number, seconds: number): void;
}

/** Sets the rate headers of a decision on the reply; a refusal throws 429 with Retry-After. */
export function applyRateDecision(decision: RateDecision, reply: FastifyReply): void {
  reply.header('x-ratelimit-limit', String(decision.limit));
  reply.header('x-ratelimit-remaining', String(decision.remaining));
  if (!decision.allowed) {
    const seconds = decision.retryAfterSeconds;
    throw new DomainError(
      BusinessCode.RateLimited,
      'rate.limited',
      { seconds },
      { 'retry-after': String(seconds) },
    );
  }
}

/**
 * 429 with Retry-After (and the bucket's X-RateLimit-*) when the decision refuses; an allowed one sets no header,
 * so that a route's own bucket (console usage) is the one its answers describe.
 */
function refuseWhenEmpty(decision: RateDecision, reply: FastifyReply): void {
  if (!decision.allowed) applyRateDecision(decision, reply);
}

/** The answer of a family this app serves no route of (see EdgeDependencies). */
const notServedHere = (): DomainError => new DomainError(BusinessCode.NotFound, 'request.not_found');

/** Records the caller and takes a token from its bucket; synchronous when the store answers at once. */
function admitKey(
  principal: ApiKeyPrincipal | null,
  reply: FastifyReply,
  edge: EdgeState,
  deps: EdgeDependencies,
): void | Promise<void> {
  if (!principal) throw new DomainError(BusinessCode.Unauthorized, 'auth.invalid_key');
  edge.principal = principal;
  const decision = deps.rateLimits.take(`key:${principal.keyId}`, deps.perKeyPolicy, Date.now());
  if (decision instanceof Promise) return decision.then((d) => applyRateDecision(d, reply));
  applyRateDecision(decision, reply);
}

/** Methods that change something: with a session cookie they need the session's CSRF token. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * `/console/v1`: a bearer console token (no CSRF token: it is no ambient credential), else the session
 * cookie of a sign-in link, whose state-changing calls must carry `X-CSRF-Token` (403, nothing done).
 * The bearer header wins when both are sent.
 */
function authenticateConsole(
  request: FastifyRequest,
  edge: EdgeState,
  verifier: ConsoleSessionVerifier,
): Promise<void> {
  const bearer = bearerToken(request);
  if (bearer !== null) {
    return verifier.verify(bearer).then((session) => {
      if (!session) throw new DomainError(BusinessCode.Unauthorized, 'auth.console_required');
      edge.console = session;
    });
  }
  const cookie = cookieValue(request, CONSOLE_SESSION_COOKIE);
  if (cookie === null)
    return Promise.reject(new DomainError(BusinessCode.Unauthorized, 'auth.console_required'));
  const header = request.headers[CSRF_HEADER];
  const csrfToken = (Array.isArray(header) ? header[0] : header) || null;
  return verifier.verify(cookie, { csrfToken }).then((session) => {
    if (!session) throw new DomainError(BusinessCode.Unauthorized, 'auth.console_session_required');
    if (STATE_CHANGING.has(request.method)) refuseWithoutCsrf(session, csrfToken);
    edge.console = session;
  });
}

/**
 * `/console/v1`: a token of the source address's bucket, then the credential, then for a state-changing call a
 * token of the session's bucket. A request forwarded by another app of the fleet (see forwarded-request.ts) had
 * its address's token taken there.
 */
async function admitConsole(
  request: FastifyRequest,
  reply: FastifyReply,
  edge: EdgeState,
  verifier: ConsoleSessionVerifier,
  deps: EdgeDependencies,
): Promise<void> {
  const { rateLimits, routeLimits } = deps;
  if (!isForwarded(request)) {
    const address = rateLimits.take(`console-ip:${request.ip}`, routeLimits.consolePerAddress, Date.now());
    refuseWhenEmpty(await address, reply);
  }
  await authenticateConsole(request, edge, verifier);
  if (!STATE_CHANGING.has(request.method)) return;
  const session = edge.console!.sessionId;
  const writes = rateLimits.take(
    `console-session:${session}`,
    routeLimits.consoleWritesPerSession,
    Date.now(),
  );
  refuseWhenEmpty(await writes, reply);
}

/**
 * `/admin/v1`: a token of the source address's bucket, then, unless that address has spent its failed attempts,
 * the admin token; a missing, malformed or wrong one takes a token of the failures bucket (401).
 */
async function authenticateAdmin(
  request: FastifyRequest,
  reply: FastifyReply,
  edge: EdgeState,
  verifier: AdminTokenVerifier,
  deps: EdgeDependencies,
): Promise<void> {
  const { rateLimits, routeLimits } = deps;
  const forwarded = isForwarded(request);
  const failures = `admin-auth-failures-ip:${request.ip}`;
  if (!forwarded) {
    const address = rateLimits.take(`admin-ip:${request.ip}`, routeLimits.adminPerAddress, Date.now());
    refuseWhenEmpty(await address, reply);
    refuseWhenEmpty(await rateLimits.peek(failures, routeLimits.adminFailuresPerAddress, Date.now()), reply);
  }
  const failed = async (error: unknown): Promise<never> => {
    if (!forwarded) await rateLimits.take(failures, routeLimits.adminFailuresPerAddress, Date.now());
    throw error;
  };
  let token: string | null;
  try {
    token = bearerToken(request);
  } catch (error) {
    return failed(error);
  }
  if (token === null || !(await verifier.verify(token)))
    return failed(new DomainError(BusinessCode.Unauthorized, 'auth.admin_required'));
  edge.admin = true;
}

function refuseWithoutCsrf(session: ConsolePrincipal, csrfToken: string | null): void {
  if (session.csrfMatches === true) return;
  throw new DomainError(
    BusinessCode.Forbidden,
    csrfToken === null ? 'auth.csrf_missing' : 'auth.csrf_invalid',
  );
}

/**
 * Authenticates by route family. Returns nothing when it could decide at once (a recently verified key:
 * the hot path stays synchronous), or a promise when it had to ask a verifier.
 */
function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  edge: EdgeState,
  deps: EdgeDependencies,
): void | Promise<void> {
  switch (edge.family) {
    case 'native':
    case 'openai':
    case 'anthropic':
    case 'gemini': {
      const apiKeys = deps.apiKeys;
      if (!apiKeys) throw notServedHere();
      refuseQueryCredential(request.url, API_KEY_PREFIX);
      const key = edge.family === 'native' ? nativeApiKey(request) : compatApiKey(request);
      const known = apiKeys.peek(key);
      if (known) return admitKey(known, reply, edge, deps);
      return apiKeys.authenticate(key).then((principal) => admitKey(principal, reply, edge, deps));
    }
    case 'admin': {
      const adminTokens = deps.adminTokens;
      if (!adminTokens) throw notServedHere();
      return authenticateAdmin(request, reply, edge, adminTokens, deps);
    }
    case 'console': {
      const consoleSessions = deps.consoleSessions;
      if (!consoleSessions) throw notServedHere();
      return admitConsole(request, reply, edge, consoleSessions, deps);
    }
    case 'public':
    case 'system':
      return;
  }
}

/**
 * A response body already serialised as JSON, e.g. a large list kept between requests: the edge puts it in
 * the envelope (or sends it as it is) without serialising it again.
 */
export class SerializedJson {
  constructor(readonly json: string) {}
}
const asIs = (payload: unknown): string => payload as string;

/** The success `msg` of each language, translated once. */
const SUCCESS = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((language) => [language, translate(language, 'success')]),
) as Readonly<Record<Language, string>>;

/**
 * The edge pipeline, as Fastify hooks so that it runs before routing work and costs little:
 * request id, drain check, authentication per family, per-key rate limit (per address, and per console session,
 * on the admin and console routes), JSON bodies that are UTF-8, well-formed input (depth, NUL, lone surrogates)
 * before any validation, the success envelope, access log.
 * Failures are thrown and rendered by the one exception filter.
 */
export function installEdge(fastify: FastifyInstance, deps: EdgeDependencies): void {
  fastify.removeContentTypeParser('text/plain');
  installFormFields(fastify);
  // JSON bodies must be UTF-8: invalid bytes are a 400, never silently replaced with U+FFFD.
  installUtf8Json(fastify);
  fastify.setChildLoggerFactory((logger, bindings, options) =>
    lazyChildLogger(logger as Logger, bindings, options),
  );

  fastify.addHook('onRequest', (request, reply, done) => {
    try {
      reply.header('x-request-id', request.id);
      const edge: EdgeState = { family: routeFamily(request.url) };
      request.edge = edge;
      if (deps.isDraining() && edge.family !== 'system') {
        reply.header('connection', 'close');
        throw new DomainError(BusinessCode.Unavailable, 'server.draining', {}, { 'retry-after': '1' });
      }
      const pending = authenticate(request, reply, edge, deps);
      if (pending) pending.then(() => done(), done);
      else done();
    } catch (error) {
      done(error as Error);
    }
  });

  // After authentication (401 first) and body parsing, before any pipe, schema or use case reads a value.
  fastify.addHook('preValidation', (request, _reply, done) => {
    try {
      refuseIllFormedInput(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });

  fastify.addHook(
    'preSerialization',
    (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: null, value: unknown) => void,
    ) => {
      const edge = request.edge;
      const serialized = payload instanceof SerializedJson ? payload.json : undefined;
      // Already JSON: sent as it is (no second serialisation).
      if (serialized !== undefined) void reply.serializer(asIs);
      if (!edge || !usesEnvelope(edge.family) || reply.statusCode >= 300)
        return done(null, serialized ?? payload);
      const language = negotiateLanguage(
        request.headers['accept-language'],
        edge.principal?.language ?? edge.console?.language ?? null,
      );
      if (serialized !== undefined)
        return done(
          null,
          `{"code":${BusinessCode.Ok},"msg":${JSON.stringify(SUCCESS[language])},"data":${serialized},"request_id":${JSON.stringify(request.id)}}`,
        );
      done(null, { code: BusinessCode.Ok, msg: SUCCESS[language], data: payload, request_id: request.id });
    },
  );

  // The access line and the duration histogram: one hook for both, and none at all when the configured level
  // drops the line and nothing observes durations (the level is fixed at start).
  const logs = deps.logger.isLevelEnabled('info');
  const requests = deps.requests;
  if (logs || requests) {
    fastify.addHook('onResponse', (request, reply, done) => {
      // A request the edge's onRequest hook never saw (refused by Fastify before it) counts as a system route.
      if (requests)
        requests.observe(request.edge?.family ?? 'system', reply.statusCode, reply.elapsedTime / 1000);
      if (logs) {
        const ms = Math.round(reply.elapsedTime * 10) / 10;
        deps.logger.info(
          {
            request_id: request.id,
            method: request.method,
            url: loggableUrl(request.url),
            status: reply.statusCode,
            ms,
          },
          'request completed',
        );
      }
      done();
    });
  }
}
