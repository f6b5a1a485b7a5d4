import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  ADMIN_TOKEN_VERIFIER,
  API_KEY_AUTHENTICATOR,
  CONSOLE_SESSION_VERIFIER,
  type AdminTokenVerifier,
  type ApiKeyAuthenticator,
  type ConsoleSessionVerifier,
} from '@gen/contracts';
import { routeFamily, type RouteFamily } from '@gen/edge';
import type { FastifyInstance } from 'fastify';

/**
 * The credential verifiers the app's accounts module provides, each null in an app composed without one.
 * Injected as optional: asking the application for a token it lacks would log an error at every start.
 */
@Injectable()
export class EdgeCredentials {
  readonly apiKeys: ApiKeyAuthenticator | null;
  readonly consoleSessions: ConsoleSessionVerifier | null;
  readonly adminTokens: AdminTokenVerifier | null;

  constructor(
    @Optional() @Inject(API_KEY_AUTHENTICATOR) apiKeys?: ApiKeyAuthenticator,
    @Optional() @Inject(CONSOLE_SESSION_VERIFIER) consoleSessions?: ConsoleSessionVerifier,
    @Optional() @Inject(ADMIN_TOKEN_VERIFIER) adminTokens?: AdminTokenVerifier,
  ) {
    this.apiKeys = apiKeys ?? null;
    this.consoleSessions = consoleSessions ?? null;
    this.adminTokens = adminTokens ?? null;
  }
}

/** Which verifier each authenticated route family needs. */
const VERIFIER_OF: Partial<Record<RouteFamily, keyof EdgeCredentials>> = {
  native: 'apiKeys',
  openai: 'apiKeys',
  anthropic: 'apiKeys',
  gemini: 'apiKeys',
  admin: 'adminTokens',
  console: 'consoleSessions',
};

/** Collects the path of every route registered from now on; call before the app registers its routes. */
export function recordRoutes(fastify: FastifyInstance): readonly string[] {
  const urls: string[] = [];
  fastify.addHook('onRoute', (route) => void urls.push(route.url));
  return urls;
}

/**
 * An app either wires the verifiers its routes need or mounts no authenticated route: a route whose
 * family has no verifier would refuse every credential, so start-up fails naming it.
 */
export function requireVerifiersFor(urls: readonly string[], credentials: EdgeCredentials): void {
  for (const url of urls) {
    const verifier = VERIFIER_OF[routeFamily(url)];
    if (verifier && !credentials[verifier]) {
      throw new Error(
        `${url} needs the ${verifier} verifier, which only the accounts module provides: compose it, or do not mount the route`,
      );
    }
  }
}
