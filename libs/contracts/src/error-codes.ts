/**
 * Business codes of the native envelope (spec: Errors). A code never changes with language.
 * The mapping to HTTP statuses lives in exactly one place: libs/edge `http-status-of.ts`.
 */
export enum BusinessCode {
  Ok = 200,
  InvalidRequest = 400,
  Unauthorized = 401,
  Forbidden = 403,
  NotFound = 404,
  InsufficientBalance = 40201,
  SpendCapReached = 40202,
  KeyRevoked = 40301,
  AccountSuspended = 40302,
  ModelNotPermitted = 40303,
  Conflict = 409,
  QuoteExpiredOrChanged = 40901,
  PayloadTooLarge = 413,
  RateLimited = 429,
  ServerError = 500,
  TemporarilyUnavailable = 50301,
  Unavailable = 503,
}
