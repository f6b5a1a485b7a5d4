import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
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

/** The verifiers the edge authenticates with; null where the app composes none. */
export interface Verifiers {
  readonly apiKeys: ApiKeyAuthenticator | null;
  readonly consoleSessions: ConsoleSessionVerifier | null;
  readonly adminTokens: AdminTokenVerifier | null;
}

/** The provider registered under `token` in any module of the app, or null. */
function find<T>(modules: ModuleRef, token: symbol): T | null {
  try {
    return modules.get<T>(token, { strict: false });
  } catch {
    return null;
  }
}

/**
 * Finds the credential verifiers the app composes (the accounts module's, or a test's), in whatever module
 * provides them. Through ModuleRef, not the application: asking the application for a token it lacks logs
 * an error at every start.
 */
@Injectable()
export class EdgeCredentials {
  constructor(private readonly modules: ModuleRef) {}

  /** Call once the application is created (every provider instantiated). */
  verifiers(): Verifiers {
    return {
      apiKeys: find<ApiKeyAuthenticator>(this.modules, API_KEY_AUTHENTICATOR),
      consoleSessions: find<ConsoleSessionVerifier>(this.modules, CONSOLE_SESSION_VERIFIER),
      adminTokens: find<AdminTokenVerifier>(this.modules, ADMIN_TOKEN_VERIFIER),
    };
  }
}

/** Which verifier each authenticated route family needs. */
const VERIFIER_OF: Partial<Record<RouteFamily, keyof Verifiers>> = {
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
export function requireVerifiersFor(urls: readonly string[], credentials: Verifiers): void {
  for (const url of urls) {
    const verifier = VERIFIER_OF[routeFamily(url)];
    if (verifier && !credentials[verifier]) {
      throw new Error(
        `${url} needs the ${verifier} verifier, which only the accounts module provides: compose it, or do not mount the route`,
      );
    }
  }
}
