import { BusinessCode } from '@gen/contracts';
import { httpStatusOf } from './http-status-of';

/** The spec's Errors table: business code -> HTTP status. */
const SPEC_TABLE: ReadonlyArray<readonly [BusinessCode, number]> = [
  [BusinessCode.Ok, 200],
  [BusinessCode.InvalidRequest, 400],
  [BusinessCode.Unauthorized, 401],
  [BusinessCode.Forbidden, 403],
  [BusinessCode.NotFound, 404],
  [BusinessCode.InsufficientBalance, 402],
  [BusinessCode.SpendCapReached, 402],
  [BusinessCode.KeyRevoked, 403],
  [BusinessCode.AccountSuspended, 403],
  [BusinessCode.ModelNotPermitted, 403],
  [BusinessCode.Conflict, 409],
  [BusinessCode.QuoteExpiredOrChanged, 409],
  [BusinessCode.PayloadTooLarge, 413],
  [BusinessCode.RateLimited, 429],
  [BusinessCode.ServerError, 500],
  [BusinessCode.TemporarilyUnavailable, 503],
  [BusinessCode.Unavailable, 503],
];

const ALL_CODES = Object.values(BusinessCode).filter((v): v is BusinessCode => typeof v === 'number');

describe('httpStatusOf', () => {
  it.each(SPEC_TABLE)('maps business code %s to HTTP %s', (code, status) => {
    expect(httpStatusOf(code)).toBe(status);
  });

  it('has the numeric values the spec gives the business codes', () => {
    expect(ALL_CODES.sort((a, b) => a - b)).toEqual([
      200, 400, 401, 403, 404, 409, 413, 429, 500, 503, 40201, 40202, 40301, 40302, 40303, 40901, 50301,
    ]);
  });

  it('covers every BusinessCode value in the table above', () => {
    expect(SPEC_TABLE.map(([code]) => code).sort((a, b) => a - b)).toEqual(ALL_CODES.sort((a, b) => a - b));
  });

  it('maps every five-digit code to the HTTP status of its first three digits', () => {
    for (const code of ALL_CODES.filter((c) => c >= 10000)) {
      expect(httpStatusOf(code)).toBe(Math.floor(code / 100));
    }
  });

  it('throws for a value that is not a business code', () => {
    expect(() => httpStatusOf(999 as BusinessCode)).toThrow('unhandled business code 999');
  });
});
