import { API_KEY_PREFIX, BusinessCode } from '@gen/contracts';
import { DomainError, type MessageId } from '@gen/core';
import type { FastifyRequest } from 'fastify';
import { bearerToken, compatApiKey, nativeApiKey, refuseQueryCredential } from './credentials';

const KEY = `${API_KEY_PREFIX}01JD4ZQ9A1B2C3D4E5F6G7H8J9_s3cr3tPart`;

const request = (headers: Record<string, string | string[]>): FastifyRequest =>
  ({ headers }) as unknown as FastifyRequest;

/** Asserts that `fn` throws a DomainError with this business code and message id. */
function expectDomainError(fn: () => unknown, code: BusinessCode, messageId: MessageId): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DomainError);
  expect({ code: (thrown as DomainError).code, messageId: (thrown as DomainError).messageId }).toEqual({
    code,
    messageId,
  });
}

describe('refuseQueryCredential', () => {
  it.each([
    '/api/v1/chat/credit',
    '/api/v1/jobs?limit=10&cursor=abc',
    '/v1/models?',
    '/api/v1/jobs?from=2024-01-01',
  ])('lets %s through', (url) => {
    expect(() => refuseQueryCredential(url, API_KEY_PREFIX)).not.toThrow();
  });

  it.each(['key', 'api_key', 'apikey', 'api-key', 'access_token', 'token', 'x-api-key', 'authorization'])(
    'refuses the credential parameter %s, whatever its value',
    (name) => {
      expectDomainError(
        () => refuseQueryCredential(`/api/v1/chat/credit?${name}=anything`, API_KEY_PREFIX),
        BusinessCode.Unauthorized,
        'auth.key_in_query',
      );
    },
  );

  it.each(['KEY=x', 'Api_Key=x', 'X-API-KEY=x', 'limit=1&key=', 'key', '%6Bey=x', 'api%5Fkey=x'])(
    'refuses a credential name in any case, without a value or percent-encoded (%s)',
    (query) => {
      expectDomainError(
        () => refuseQueryCredential(`/v1/chat/completions?${query}`, API_KEY_PREFIX),
        BusinessCode.Unauthorized,
        'auth.key_in_query',
      );
    },
  );

  it('refuses a value that looks like an API key under any parameter name', () => {
    expectDomainError(
      () => refuseQueryCredential(`/api/v1/jobs?limit=5&x=${KEY}`, API_KEY_PREFIX),
      BusinessCode.Unauthorized,
      'auth.key_in_query',
    );
  });

  it('does not refuse a value that merely contains the key prefix later on', () => {
    expect(() =>
      refuseQueryCredential(`/api/v1/jobs?search=my${API_KEY_PREFIX}x`, API_KEY_PREFIX),
    ).not.toThrow();
  });

  it('uses the prefix it is given', () => {
    expect(() => refuseQueryCredential('/api/v1/jobs?x=abc_123', 'abc_')).toThrow(DomainError);
    expect(() => refuseQueryCredential('/api/v1/jobs?x=abc_123', API_KEY_PREFIX)).not.toThrow();
  });
});

describe('bearerToken', () => {
  it('is null without an Authorization header', () => {
    expect(bearerToken(request({}))).toBeNull();
    expect(bearerToken(request({ 'x-api-key': KEY }))).toBeNull();
  });

  it.each([`Bearer ${KEY}`, `bearer ${KEY}`, `BEARER ${KEY}`, `Bearer   ${KEY}  `])(
    'reads the token of %j',
    (header) => {
      expect(bearerToken(request({ authorization: header }))).toBe(KEY);
    },
  );

  it.each([
    `Basic ${Buffer.from(`u:${KEY}`).toString('base64')}`,
    `Token ${KEY}`,
    KEY,
    `Bearer:${KEY}`,
    `Bearerx ${KEY}`,
  ])('refuses any other scheme (%j)', (header) => {
    expectDomainError(
      () => bearerToken(request({ authorization: header })),
      BusinessCode.Unauthorized,
      'auth.unsupported_scheme',
    );
  });

  it.each(['Bearer ', 'Bearer    ', 'bearer \t'])(
    'refuses a Bearer header without a token (%j)',
    (header) => {
      expectDomainError(
        () => bearerToken(request({ authorization: header })),
        BusinessCode.Unauthorized,
        'auth.missing_key',
      );
    },
  );
});

describe('nativeApiKey', () => {
  it('returns the Bearer token', () => {
    expect(nativeApiKey(request({ authorization: `Bearer ${KEY}` }))).toBe(KEY);
  });

  it('refuses a request without a key', () => {
    expectDomainError(() => nativeApiKey(request({})), BusinessCode.Unauthorized, 'auth.missing_key');
  });

  it.each(['x-api-key', 'x-gen-api-key', 'x-goog-api-key'])(
    'does not accept %s on the native API',
    (name) => {
      expectDomainError(
        () => nativeApiKey(request({ [name]: KEY })),
        BusinessCode.Unauthorized,
        'auth.missing_key',
      );
    },
  );

  it('refuses another scheme', () => {
    expectDomainError(
      () => nativeApiKey(request({ authorization: `Basic ${KEY}` })),
      BusinessCode.Unauthorized,
      'auth.unsupported_scheme',
    );
  });
});

describe('compatApiKey', () => {
  it('accepts a Bearer token', () => {
    expect(compatApiKey(request({ authorization: `Bearer ${KEY}` }))).toBe(KEY);
  });

  it.each(['x-api-key', 'x-gen-api-key', 'x-goog-api-key'])('accepts the %s header', (name) => {
    expect(compatApiKey(request({ [name]: KEY }))).toBe(KEY);
  });

  it('takes the first value of a repeated header', () => {
    expect(compatApiKey(request({ 'x-api-key': [KEY, 'gts_other'] }))).toBe(KEY);
  });

  it('prefers Authorization, then x-api-key, then x-gen-api-key, then x-goog-api-key', () => {
    expect(
      compatApiKey(
        request({
          authorization: 'Bearer gts_a',
          'x-api-key': 'gts_b',
          'x-gen-api-key': 'gts_c',
          'x-goog-api-key': 'gts_d',
        }),
      ),
    ).toBe('gts_a');
    expect(
      compatApiKey(request({ 'x-api-key': 'gts_b', 'x-gen-api-key': 'gts_c', 'x-goog-api-key': 'gts_d' })),
    ).toBe('gts_b');
    expect(compatApiKey(request({ 'x-gen-api-key': 'gts_c', 'x-goog-api-key': 'gts_d' }))).toBe('gts_c');
  });

  it('refuses a request without any key', () => {
    expectDomainError(() => compatApiKey(request({})), BusinessCode.Unauthorized, 'auth.missing_key');
    expectDomainError(
      () => compatApiKey(request({ 'x-api-key': '' })),
      BusinessCode.Unauthorized,
      'auth.missing_key',
    );
  });

  it('refuses an Authorization header of another scheme even beside x-api-key', () => {
    expectDomainError(
      () => compatApiKey(request({ authorization: `Basic ${KEY}`, 'x-api-key': KEY })),
      BusinessCode.Unauthorized,
      'auth.unsupported_scheme',
    );
  });

  it('refuses an empty Bearer token', () => {
    expectDomainError(
      () => compatApiKey(request({ authorization: 'Bearer ', 'x-api-key': KEY })),
      BusinessCode.Unauthorized,
      'auth.missing_key',
    );
  });
});

describe('regressions found in review', () => {
  it('does not fail on a malformed percent escape in a query name', () => {
    expect(() => refuseQueryCredential('/api/v1/chat/credit?%=1', API_KEY_PREFIX)).not.toThrow();
    expect(() =>
      refuseQueryCredential('/api/v1/chat/credit?a%ZZ=1&b=%E0%A4%A', API_KEY_PREFIX),
    ).not.toThrow();
  });

  it('decodes query values before looking for a key', () => {
    for (const query of [`x=%67ts_${KEY.slice(4)}`, `x=gts%5F${KEY.slice(4)}`, `x=+${KEY}`]) {
      expectDomainError(
        () => refuseQueryCredential(`/api/v1/chat/credit?${query}`, API_KEY_PREFIX),
        BusinessCode.Unauthorized,
        'auth.key_in_query',
      );
    }
  });

  it('treats a bare "Bearer" as a missing key, not as the key "Bearer"', () => {
    expectDomainError(
      () => bearerToken(request({ authorization: 'Bearer' })),
      BusinessCode.Unauthorized,
      'auth.missing_key',
    );
  });

  it('skips an empty compatibility header in favour of the next one', () => {
    expect(compatApiKey(request({ 'x-api-key': '', 'x-gen-api-key': KEY }))).toBe(KEY);
  });
});
