import { BusinessCode } from '@gen/contracts';

function assertUnreachable(value: never): never {
  throw new Error(`unhandled business code ${String(value)}`);
}

/** The one place where a business code becomes an HTTP status (spec: Errors). */
export function httpStatusOf(code: BusinessCode): number {
  switch (code) {
    case BusinessCode.Ok:
      return 200;
    case BusinessCode.InvalidRequest:
      return 400;
    case BusinessCode.Unauthorized:
      return 401;
    case BusinessCode.InsufficientBalance:
    case BusinessCode.SpendCapReached:
      return 402;
    case BusinessCode.Forbidden:
    case BusinessCode.KeyRevoked:
    case BusinessCode.AccountSuspended:
    case BusinessCode.ModelNotPermitted:
      return 403;
    case BusinessCode.NotFound:
      return 404;
    case BusinessCode.Conflict:
    case BusinessCode.QuoteExpiredOrChanged:
      return 409;
    case BusinessCode.PayloadTooLarge:
      return 413;
    case BusinessCode.RateLimited:
      return 429;
    case BusinessCode.ServerError:
      return 500;
    case BusinessCode.TemporarilyUnavailable:
    case BusinessCode.Unavailable:
      return 503;
    default:
      return assertUnreachable(code);
  }
}
