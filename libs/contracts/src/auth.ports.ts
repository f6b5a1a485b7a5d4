/** Who is calling `/api/v1`, `/v1` or `/v1beta`, as established by the edge from an API key. */
export interface ApiKeyPrincipal {
  readonly accountId: string;
  readonly keyId: string;
  /** The account's API error language setting (a supported tag) or null. */
  readonly language: string | null;
  readonly group: string;
  /** The group's price multiplier, an exact decimal string ("1", "0.85"); applies to every price. */
  readonly priceMultiplier: string;
  /** The key's daily spend cap, an exact USD decimal string; null when the key has none (cleared in the console). */
  readonly dailySpendCap: string | null;
}

/**
 * How a console credential arrived: `bearer`, a console token in `Authorization` (CLI, scripts; no ambient
 * credential, so no CSRF token), or `cookie`, the session cookie of a one-time sign-in link (the web console).
 */
export type ConsoleCredential = 'bearer' | 'cookie';

/** Who is calling `/console/v1` with a console session. */
export interface ConsolePrincipal {
  readonly accountId: string;
  readonly sessionId: string;
  readonly language: string | null;
  /** When the session ends, ISO 8601. */
  readonly expiresAt: string;
  readonly via: ConsoleCredential;
  /**
   * Cookie sessions: whether the request's `X-CSRF-Token` is the session's (false when it sent none). The
   * edge requires it on every state-changing method. Absent for bearer tokens.
   */
  readonly csrfMatches?: boolean;
}

/** A session cookie as the edge presents it: the cookie's token and the request's `X-CSRF-Token`, if any. */
export interface ConsoleCookie {
  readonly csrfToken: string | null;
}

/** Implemented by the accounts domain; used by the edge. Returns null for unknown, malformed or revoked keys. */
export interface ApiKeyAuthenticator {
  authenticate(presentedKey: string): Promise<ApiKeyPrincipal | null>;
}
export const API_KEY_AUTHENTICATOR = Symbol('ApiKeyAuthenticator');

/**
 * Implemented by the accounts domain; used by the edge. Null for unknown, expired or revoked sessions, and for
 * a credential presented the other way than it was issued (a cookie session's token as a bearer token, a
 * console token as the cookie).
 */
export interface ConsoleSessionVerifier {
  /** `cookie` absent: a bearer console token; present: the session cookie's token, with the CSRF header. */
  verify(token: string, cookie?: ConsoleCookie): Promise<ConsolePrincipal | null>;
}
export const CONSOLE_SESSION_VERIFIER = Symbol('ConsoleSessionVerifier');

export interface AdminTokenVerifier {
  verify(token: string): Promise<boolean>;
}
export const ADMIN_TOKEN_VERIFIER = Symbol('AdminTokenVerifier');

/** The name of the web console's session cookie (`Path=/console`, `HttpOnly`, `SameSite=Strict`). */
export const CONSOLE_SESSION_COOKIE = 'console_session';
/** The header that carries a cookie session's CSRF token on state-changing calls. */
export const CSRF_HEADER = 'x-csrf-token';
