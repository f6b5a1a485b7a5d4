/** Who is calling `/api/v1`, `/v1` or `/v1beta`, as established by the edge from an API key. */
export interface ApiKeyPrincipal {
  readonly accountId: string;
  readonly keyId: string;
  /** The account's API error language setting (a supported tag) or null. */
  readonly language: string | null;
  readonly group: string;
  /** The group's price multiplier, an exact decimal string ("1", "0.85"); applies to every price. */
  readonly priceMultiplier: string;
  /** The key's daily spend cap, an exact USD decimal string. */
  readonly dailySpendCap: string;
}

/** Who is calling `/console/v1` with a console session token. */
export interface ConsolePrincipal {
  readonly accountId: string;
  readonly sessionId: string;
  readonly language: string | null;
}

/** Implemented by the accounts domain; used by the edge. Returns null for unknown, malformed or revoked keys. */
export interface ApiKeyAuthenticator {
  authenticate(presentedKey: string): Promise<ApiKeyPrincipal | null>;
}
export const API_KEY_AUTHENTICATOR = Symbol('ApiKeyAuthenticator');

export interface ConsoleSessionVerifier {
  verify(token: string): Promise<ConsolePrincipal | null>;
}
export const CONSOLE_SESSION_VERIFIER = Symbol('ConsoleSessionVerifier');

export interface AdminTokenVerifier {
  verify(token: string): Promise<boolean>;
}
export const ADMIN_TOKEN_VERIFIER = Symbol('AdminTokenVerifier');
