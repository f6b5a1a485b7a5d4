/**
 * Whose tasks a caller sees: an API key sees the tasks it created (spec: Authentication 5); the console sees
 * every task of its account (`keyId` null).
 */
export interface TaskScope {
  readonly accountId: string;
  readonly keyId: string | null;
}
